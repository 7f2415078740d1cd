//! The bufferless (rate-envelope) model: the exact distribution of the aggregate rate of
//! heterogeneous on/off sources, by convolving one binomial per class.
//!
//! The number of active sources of a class of n sources with activity ρ is binomial (n, ρ);
//! the aggregate rate is Σ_classes k·R. Rates are kept as whole bit/s (a peak is rounded to
//! the nearest bit/s), so that equal aggregate rates from different mixes merge exactly
//! and the support stays small. Two criteria, against a capacity C:
//! * overflow probability P(Σ Λ > C);
//! * fluid cell loss ratio E[(Σ Λ − C)+] / E[Σ Λ] (the rate lost while the link overflows).

use super::{check_nonnegative, check_target, CacError, SourceClass, Work};
use std::collections::BTreeMap;

/// Which quantity a convolution CAC holds under its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LossCriterion {
    /// P(Σ Λ > C) ≤ ε.
    Overflow,
    /// E[(Σ Λ − C)+] / E[Σ Λ] ≤ ε.
    FluidClr,
}

impl LossCriterion {
    pub fn parse(text: &str) -> Result<Self, CacError> {
        match text {
            "overflow" => Ok(LossCriterion::Overflow),
            "clr" | "fluid-clr" => Ok(LossCriterion::FluidClr),
            other => Err(CacError(format!("unknown criterion '{other}' (use overflow or clr)"))),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            LossCriterion::Overflow => "overflow",
            LossCriterion::FluidClr => "clr",
        }
    }
}

/// The distribution of the aggregate rate of a set of on/off classes.
#[derive(Debug, Clone)]
pub struct ActiveRate {
    /// (aggregate rate in bit/s, probability), rates ascending and distinct.
    pmf: Vec<(u64, f64)>,
    mean_bps: f64,
}

impl ActiveRate {
    /// Convolves the classes' binomials. Errors on a bad descriptor, and on a mix whose
    /// convolution would pass [`super::WORK_LIMIT`] (before any of it is done).
    pub fn of(classes: &[SourceClass]) -> Result<Self, CacError> {
        Self::within(classes, &Work::default())
    }

    /// As [`ActiveRate::of`], charging [`work_terms`] to `work` first.
    pub fn within(classes: &[SourceClass], work: &Work) -> Result<Self, CacError> {
        for class in classes {
            class.source.validate()?;
        }
        work.charge(work_terms(classes))?;
        let mut pmf: Vec<(u64, f64)> = vec![(0, 1.0)];
        let mut mean_bps = 0.0;
        for class in classes {
            let peak = class.source.peak_bps.round() as u64;
            let weights = binomial_pmf(class.count, class.source.activity);
            let mut next: BTreeMap<u64, f64> = BTreeMap::new();
            for &(rate, p) in &pmf {
                for (k, &w) in weights.iter().enumerate() {
                    if w > 0.0 {
                        *next.entry(rate + k as u64 * peak).or_insert(0.0) += p * w;
                    }
                }
            }
            pmf = next.into_iter().collect();
            mean_bps += f64::from(class.count) * class.source.activity * class.source.peak_bps;
        }
        Ok(ActiveRate { pmf, mean_bps })
    }

    /// (rate bit/s, probability) pairs, rates ascending.
    pub fn pmf(&self) -> &[(u64, f64)] {
        &self.pmf
    }

    /// E[Σ Λ] from the descriptors (not from the rounded rates).
    pub fn mean_bps(&self) -> f64 {
        self.mean_bps
    }

    /// P(Σ Λ > C), summed from the largest rate down so that tiny tails keep their digits.
    pub fn overflow_probability(&self, capacity_bps: f64) -> f64 {
        self.pmf.iter().rev().take_while(|(r, _)| *r as f64 > capacity_bps).fold(0.0, |acc, (_, p)| acc + p)
    }

    /// E[(Σ Λ − C)+] / E[Σ Λ]; 0 when no source is ever on.
    pub fn fluid_clr(&self, capacity_bps: f64) -> f64 {
        if self.mean_bps <= 0.0 {
            return 0.0;
        }
        // A fold from +0.0: an empty float sum is −0.0.
        let excess: f64 = self
            .pmf
            .iter()
            .rev()
            .take_while(|(r, _)| *r as f64 > capacity_bps)
            .fold(0.0, |acc, (r, p)| acc + (*r as f64 - capacity_bps) * p);
        excess / self.mean_bps
    }

    /// The criterion's value at capacity C.
    pub fn loss(&self, criterion: LossCriterion, capacity_bps: f64) -> f64 {
        match criterion {
            LossCriterion::Overflow => self.overflow_probability(capacity_bps),
            LossCriterion::FluidClr => self.fluid_clr(capacity_bps),
        }
    }
}

/// Bufferless convolution CAC: admit iff the criterion is within `target` at capacity C.
pub fn admits(
    classes: &[SourceClass],
    capacity_bps: f64,
    target: f64,
    criterion: LossCriterion,
) -> Result<bool, CacError> {
    check_target(target)?;
    check_nonnegative("capacity", capacity_bps)?;
    Ok(ActiveRate::of(classes)?.loss(criterion, capacity_bps) <= target)
}

/// An upper bound on the terms [`ActiveRate::of`] adds for `classes`: each class's n + 1
/// binomial weights, and each weight times the distinct rates already reached. These are at
/// most the product of the (n + 1) so far, and at most the rates from 0 to Σ n·R in steps of
/// the peaks' greatest common divisor (one class of 10⁵ sources: 3·10⁵ terms; three classes
/// of 10⁵ with peaks 10, 2 and 1.5 Mbit/s: about 10¹¹).
pub fn work_terms(classes: &[SourceClass]) -> u64 {
    let peak = |c: &SourceClass| (c.source.peak_bps.round() as u64).max(1);
    let step = classes.iter().map(peak).fold(0, gcd).max(1);
    let (mut terms, mut rates, mut top) = (0u128, 1u128, 0u128);
    for class in classes {
        let weights = u128::from(class.count) + 1;
        top += u128::from(class.count) * u128::from(peak(class) / step);
        terms += weights + rates * weights;
        rates = (rates * weights).min(top + 1);
    }
    u64::try_from(terms).unwrap_or(u64::MAX)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// P(K = k) for K binomial (n, p), k = 0..=n, through log-factorials (exact to rounding for
/// the thousands of sources a port carries).
pub fn binomial_pmf(n: u32, p: f64) -> Vec<f64> {
    let n_us = n as usize;
    let mut out = vec![0.0; n_us + 1];
    if p <= 0.0 {
        out[0] = 1.0;
        return out;
    }
    if p >= 1.0 {
        out[n_us] = 1.0;
        return out;
    }
    let mut ln_fact = Vec::with_capacity(n_us + 1);
    let mut acc = 0.0f64;
    ln_fact.push(0.0);
    for i in 1..=n_us {
        acc += (i as f64).ln();
        ln_fact.push(acc);
    }
    let (lp, lq) = (p.ln(), (-p).ln_1p());
    for (k, slot) in out.iter_mut().enumerate() {
        let ln_c = ln_fact[n_us] - ln_fact[k] - ln_fact[n_us - k];
        *slot = (ln_c + k as f64 * lp + (n_us - k) as f64 * lq).exp();
    }
    out
}
