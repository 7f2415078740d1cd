//! CAC for a port with two delay-priority queues (LRP97, section 4): rt-VBR cells are
//! served first from a small buffer, nrt-VBR cells from a large one when the rt queue is
//! empty. The rules, for a mix of rt and nrt classes:
//! * `Peak`: Σ peaks ≤ C.
//! * `Convolution`: bufferless convolution of all sources (the bufferless reference).
//! * `Linear`: Σ_rt ĉ(rt buffer) + Σ_nrt ĉ(nrt buffer) ≤ C (effective bandwidth per class,
//!   each with its own buffer: the paper's shaded, intermediate boundary).
//! * `RtBoundary`: convolution of the rt sources alone (the rt queue cannot buffer bursts).
//! * `NrtBoundary`: Σ_all ĉ(nrt buffer) ≤ C (every source counted as if it were nrt and
//!   could use the large buffer, since rt traffic takes capacity away from the nrt queue).
//! * `Combined`: `RtBoundary` and `NrtBoundary` (the paper's proposal).

use super::convolution::{ActiveRate, LossCriterion};
use super::effective::{self, EbMethod};
use super::{check_nonnegative, check_target, fits, peak, CacError, OnOff, SourceClass, Work};

/// A boundary of the admissible (rt, nrt) region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    Peak,
    Convolution,
    Linear,
    RtBoundary,
    NrtBoundary,
    Combined,
}

impl Rule {
    pub const ALL: [Rule; 6] =
        [Rule::Peak, Rule::Convolution, Rule::Linear, Rule::RtBoundary, Rule::NrtBoundary, Rule::Combined];

    pub fn name(self) -> &'static str {
        match self {
            Rule::Peak => "peak",
            Rule::Convolution => "convolution",
            Rule::Linear => "linear",
            Rule::RtBoundary => "rt",
            Rule::NrtBoundary => "nrt",
            Rule::Combined => "combined",
        }
    }

    pub fn parse(text: &str) -> Result<Self, CacError> {
        Rule::ALL.into_iter().find(|r| r.name() == text).ok_or_else(|| {
            CacError(format!("unknown rule '{text}' (use peak, convolution, linear, rt, nrt or combined)"))
        })
    }
}

/// A delay-priority port and its targets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DelayPriority {
    pub capacity_bps: f64,
    pub rt_buffer_bits: f64,
    pub nrt_buffer_bits: f64,
    /// ε of every test (LRP97 uses one CLR target for both classes).
    pub target: f64,
    /// What the convolution tests hold under ε.
    pub criterion: LossCriterion,
    /// How the effective-bandwidth tests add their sources up.
    pub eb: EbMethod,
}

impl DelayPriority {
    pub fn validate(&self) -> Result<(), CacError> {
        check_nonnegative("capacity", self.capacity_bps)?;
        check_nonnegative("rt buffer", self.rt_buffer_bits)?;
        check_nonnegative("nrt buffer", self.nrt_buffer_bits)?;
        check_target(self.target)
    }

    fn convolution(&self, classes: &[SourceClass], work: &Work) -> Result<bool, CacError> {
        Ok(ActiveRate::within(classes, work)?.loss(self.criterion, self.capacity_bps) <= self.target)
    }

    /// The linear rule: each class with its own buffer. With `EbMethod::Min` the Gaussian
    /// bound of the whole mix caps the fluid sum.
    fn linear(&self, rt: &[SourceClass], nrt: &[SourceClass]) -> Result<bool, CacError> {
        let fluid = effective::fluid_sum_bps(rt, self.rt_buffer_bits, self.target)?
            + effective::fluid_sum_bps(nrt, self.nrt_buffer_bits, self.target)?;
        let all: Vec<SourceClass> = rt.iter().chain(nrt).copied().collect();
        let need = match self.eb {
            EbMethod::Fluid => fluid,
            EbMethod::Gaussian => effective::gaussian_bps(&all, self.target)?,
            EbMethod::Min => fluid.min(effective::gaussian_bps(&all, self.target)?),
        };
        Ok(fits(need, self.capacity_bps))
    }

    fn nrt_boundary(&self, all: &[SourceClass]) -> Result<bool, CacError> {
        let need = effective::aggregate_bps(all, self.nrt_buffer_bits, self.target, self.eb)?;
        Ok(fits(need, self.capacity_bps))
    }

    /// Does `rule` admit the mix of `rt` and `nrt` classes?
    pub fn admits(&self, rule: Rule, rt: &[SourceClass], nrt: &[SourceClass]) -> Result<bool, CacError> {
        self.admits_within(rule, rt, nrt, &Work::default())
    }

    /// As [`DelayPriority::admits`], charging the test and its convolutions to `work`.
    pub fn admits_within(
        &self,
        rule: Rule,
        rt: &[SourceClass],
        nrt: &[SourceClass],
        work: &Work,
    ) -> Result<bool, CacError> {
        self.validate()?;
        work.charge(1)?;
        let all: Vec<SourceClass> = rt.iter().chain(nrt).copied().collect();
        match rule {
            Rule::Peak => Ok(peak::admits(&all, self.capacity_bps, 1.0)),
            Rule::Convolution => self.convolution(&all, work),
            Rule::Linear => self.linear(rt, nrt),
            Rule::RtBoundary => self.convolution(rt, work),
            Rule::NrtBoundary => self.nrt_boundary(&all),
            Rule::Combined => Ok(self.convolution(rt, work)? && self.nrt_boundary(&all)?),
        }
    }

    /// The largest n_nrt ≤ `limit` such that `rule` admits every n_nrt from 0 up to it beside
    /// `n_rt` rt sources (both classes homogeneous): the edge of a downward-closed region. None
    /// when not even n_nrt = 0 is admitted; `limit` when the rule never binds below it.
    pub fn largest_nrt(
        &self,
        rule: Rule,
        rt: OnOff,
        n_rt: u32,
        nrt: OnOff,
        limit: u32,
    ) -> Result<Option<u32>, CacError> {
        self.largest_nrt_within(rule, rt, n_rt, nrt, limit, &Work::default())
    }

    /// As [`DelayPriority::largest_nrt`], charging every test to `work` (shared by the rows
    /// of a boundary, so that a whole table is bounded, not only each search).
    pub fn largest_nrt_within(
        &self,
        rule: Rule,
        rt: OnOff,
        n_rt: u32,
        nrt: OnOff,
        limit: u32,
        work: &Work,
    ) -> Result<Option<u32>, CacError> {
        let rt = [SourceClass::new(n_rt, rt)];
        largest_count(limit, |n| self.admits_within(rule, &rt, &[SourceClass::new(n, nrt)], work))
    }
}

/// The largest n ≤ `limit` such that `admits` holds for every count from 0 to n; None when 0
/// is refused. A scan, not a bisection: the fluid CLR of a heterogeneous mix is not monotone
/// in the count (a constant-rate source added to a bursty one can lower the ratio).
pub fn largest_count(
    limit: u32,
    mut admits: impl FnMut(u32) -> Result<bool, CacError>,
) -> Result<Option<u32>, CacError> {
    let mut best = None;
    for n in 0..=limit {
        if !admits(n)? {
            break;
        }
        best = Some(n);
    }
    Ok(best)
}
