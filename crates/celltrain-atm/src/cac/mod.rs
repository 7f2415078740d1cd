//! Connection admission control (CAC) models for on/off sources: peak-rate allocation, the
//! bufferless convolution, the fluid effective bandwidth of Guérin, Ahmadi & Naghshineh (1991)
//! with its Gaussian companion, and the delay-priority boundaries of LRP97 (Lorang, Renger,
//! Pettersen et al., *Experiments on Integrated Traffic Control for ATM in the ACTS project
//! EXPERT*). Mounted as `celltrain_atm::cac`; see `docs/references.md#cac`.
//!
//! ```text
//!  OnOff (peak R, activity ρ, mean on-period b) × count ─► SourceClass
//!     peak::total_peak_bps            Σ n·R                       (no statistical gain)
//!     convolution::ActiveRate         exact pmf of Σ Λ_i          (bufferless; P_over, fluid CLR)
//!     effective::equivalent_capacity  ĉ(R, ρ, b, x, ε)            (one source with a buffer x)
//!     effective::gaussian_bps         min(m + α'σ, Σ n·R)         (stationary aggregate)
//!     priority::DelayPriority         RT / NRT / linear / combined boundaries of a two-queue port
//! ```
//!
//! Why here, in the ATM crate: CAC is an ATM traffic-control function with no dependency on
//! the simulated network; the scenario builder (crate `celltrain`), the command line and the
//! Python front all reach it from here. Rates are `f64` bit/s because these are analytic
//! models on real-valued descriptors (the simulator's integer time never meets them).

pub mod convolution;
pub mod effective;
pub mod peak;
pub mod priority;

#[cfg(test)]
mod tests;

pub use convolution::{ActiveRate, LossCriterion};
pub use effective::{equivalent_capacity, gaussian_bps, EbMethod};
pub use priority::{DelayPriority, Rule};

use std::fmt;

/// An on/off source: rate `peak_bps` while on, 0 while off, on a fraction `activity` of the
/// time, with on-periods of mean `mean_on_s` (exponential in the fluid models).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OnOff {
    pub peak_bps: f64,
    /// ρ: the fraction of time the source is on (mean rate = ρ·R).
    pub activity: f64,
    /// b: the mean on-period (burst) duration in seconds; only effective bandwidths use it.
    pub mean_on_s: f64,
}

impl OnOff {
    /// From the mean on- and off-period durations (LRP97: 20 ms on, 80 ms off → ρ = 0.2).
    pub fn from_periods(peak_bps: f64, on_s: f64, off_s: f64) -> Self {
        OnOff { peak_bps, activity: on_s / (on_s + off_s), mean_on_s: on_s }
    }

    pub fn mean_bps(&self) -> f64 {
        self.activity * self.peak_bps
    }

    /// Checks the descriptor; the message names the field.
    pub fn validate(&self) -> Result<(), CacError> {
        if !(self.peak_bps.is_finite() && self.peak_bps > 0.0) {
            return Err(CacError(format!("peak rate must be positive, got {}", self.peak_bps)));
        }
        if !(0.0..=1.0).contains(&self.activity) {
            return Err(CacError(format!("activity must be between 0 and 1, got {}", self.activity)));
        }
        if !(self.mean_on_s.is_finite() && self.mean_on_s > 0.0) {
            return Err(CacError(format!("mean on-period must be positive, got {} s", self.mean_on_s)));
        }
        Ok(())
    }
}

/// `count` identical sources.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SourceClass {
    pub source: OnOff,
    pub count: u32,
}

impl SourceClass {
    pub fn new(count: u32, source: OnOff) -> Self {
        SourceClass { source, count }
    }
}

/// A CAC question that has no answer (a bad descriptor or target).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacError(pub String);

impl fmt::Display for CacError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CacError {}

/// Checks a loss or overflow target ε: 0 ≤ ε < 1 (0 asks for no loss at all).
pub fn check_target(target: f64) -> Result<(), CacError> {
    if (0.0..1.0).contains(&target) {
        Ok(())
    } else {
        Err(CacError(format!("target must be at least 0 and below 1, got {target}")))
    }
}

/// Checks a capacity or buffer: finite and ≥ 0.
pub(crate) fn check_nonnegative(what: &str, x: f64) -> Result<(), CacError> {
    if x.is_finite() && x >= 0.0 {
        Ok(())
    } else {
        Err(CacError(format!("{what} must be finite and not negative, got {x}")))
    }
}

/// The most work one calculation may do, in terms: a probability added into the convolution's
/// distribution, or one admission test. About ten seconds of work: a question asked of a
/// hundred thousand sources fails at once with a message naming this limit instead of running
/// for hours (a convolution of three classes of 10⁵ sources with different peaks would add
/// 10¹⁵ terms).
pub const WORK_LIMIT: u64 = 100_000_000;

/// The work a calculation has done, against [`WORK_LIMIT`] (or another limit). Charged before
/// each step, so that a step that would pass the limit is never started.
#[derive(Debug)]
pub struct Work {
    done: std::cell::Cell<u64>,
    limit: u64,
}

impl Work {
    pub fn new(limit: u64) -> Self {
        Work { done: std::cell::Cell::new(0), limit }
    }

    /// Counts `terms` more; an error naming the limit when the total would pass it.
    pub fn charge(&self, terms: u64) -> Result<(), CacError> {
        let total = self.done.get().saturating_add(terms);
        if total > self.limit {
            return Err(CacError(format!(
                "the calculation needs more than {} terms of work (the limit): ask about fewer sources, \
                 fewer distinct peak rates or a lower search limit",
                self.limit
            )));
        }
        self.done.set(total);
        Ok(())
    }
}

impl Default for Work {
    fn default() -> Self {
        Work::new(WORK_LIMIT)
    }
}

/// A sum of equal terms rounds; a class that fits exactly is admitted (relative slack 1e-12).
pub(crate) fn fits(load_bps: f64, capacity_bps: f64) -> bool {
    load_bps <= capacity_bps * (1.0 + 1e-12)
}
