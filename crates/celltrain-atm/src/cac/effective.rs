//! Effective bandwidth with a buffer: Guérin, Ahmadi & Naghshineh (1991), *Equivalent
//! capacity and its application to bandwidth allocation in high-speed networks*.
//!
//! One exponential on/off fluid source (peak R, activity ρ, mean burst b) into a buffer of x
//! bits served at ĉ overflows with probability about ε when
//! ```text
//!   y = ln(1/ε)·b·(1 − ρ)·R
//!   ĉ = R·[ y − x + sqrt((y − x)² + 4·x·ρ·y) ] / (2·y)
//! ```
//! ĉ = R with no buffer and falls towards ρR as the buffer grows. For many sources the
//! stationary (Gaussian) approximation m + α'σ with α' = sqrt(−2 ln ε − ln 2π) is the other
//! bound; the equivalent capacity of the aggregate is the smaller of the two.
//!
//! The Gaussian estimate is only meant for many sources: for a few bursty ones m + α'σ can
//! exceed Σ n·R, a capacity at which no cell is ever lost. Guérin, Ahmadi & Naghshineh (1991)
//! therefore take the smaller of the estimate and the sum of the peak rates; so does
//! [`gaussian_bps`].

use super::{check_nonnegative, check_target, CacError, OnOff, SourceClass};

/// How an aggregate's capacity is computed from its sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EbMethod {
    /// Σ ĉ_i: the linear rule (each source's fluid effective bandwidth).
    Fluid,
    /// min(m + α'σ, Σ R): the Gaussian (stationary, bufferless) approximation, capped at
    /// the peak sum.
    Gaussian,
    /// min(Σ ĉ_i, m + α'σ): Guérin et al.'s equivalent capacity of the aggregate.
    Min,
}

impl EbMethod {
    pub fn parse(text: &str) -> Result<Self, CacError> {
        match text {
            "fluid" => Ok(EbMethod::Fluid),
            "gaussian" => Ok(EbMethod::Gaussian),
            "min" => Ok(EbMethod::Min),
            other => {
                Err(CacError(format!("unknown effective-bandwidth method '{other}' (use fluid, gaussian or min)")))
            }
        }
    }
}

/// ĉ of one source with a buffer of `buffer_bits` and an overflow target ε. ε = 0 (no loss
/// allowed), ρ = 1 (a constant-rate source) or no buffer give the peak rate.
pub fn equivalent_capacity(source: &OnOff, buffer_bits: f64, target: f64) -> Result<f64, CacError> {
    source.validate()?;
    check_target(target)?;
    check_nonnegative("buffer", buffer_bits)?;
    let (r, rho, x) = (source.peak_bps, source.activity, buffer_bits);
    if target == 0.0 || x == 0.0 {
        return Ok(r);
    }
    let y = (1.0 / target).ln() * source.mean_on_s * (1.0 - rho) * r;
    if y <= 0.0 {
        return Ok(r);
    }
    let d = y - x;
    let root = (d * d + 4.0 * x * rho * y).sqrt();
    // For a buffer much larger than y, d + root cancels: use the conjugate form instead.
    let c = if d >= 0.0 { r * (d + root) / (2.0 * y) } else { r * 2.0 * x * rho / (root - d) };
    Ok(c.min(r))
}

/// α' = sqrt(−2 ln ε − ln 2π) (0 when ε is too large for the square root to be real).
pub fn gaussian_alpha(target: f64) -> f64 {
    (-2.0 * target.ln() - (2.0 * std::f64::consts::PI).ln()).max(0.0).sqrt()
}

/// min(m + α'σ, Σ n·R) of the aggregate: m = Σ n·ρR, σ² = Σ n·ρ(1 − ρ)R². The peak sum
/// caps the estimate (see the module's note): ε = 0 asks for exactly the peak sum.
pub fn gaussian_bps(classes: &[SourceClass], target: f64) -> Result<f64, CacError> {
    check_target(target)?;
    let (mut mean, mut var, mut peaks) = (0.0, 0.0, 0.0);
    for c in classes {
        c.source.validate()?;
        let (n, rho, r) = (f64::from(c.count), c.source.activity, c.source.peak_bps);
        mean += n * rho * r;
        var += n * rho * (1.0 - rho) * r * r;
        peaks += n * r;
    }
    let estimate = if target == 0.0 {
        if var > 0.0 {
            f64::INFINITY
        } else {
            mean
        }
    } else {
        mean + gaussian_alpha(target) * var.sqrt()
    };
    Ok(estimate.min(peaks))
}

/// Σ n·ĉ over the classes, every one with the same buffer.
pub fn fluid_sum_bps(classes: &[SourceClass], buffer_bits: f64, target: f64) -> Result<f64, CacError> {
    classes.iter().map(|c| Ok(f64::from(c.count) * equivalent_capacity(&c.source, buffer_bits, target)?)).sum()
}

/// The capacity the aggregate needs by `method`, with the same buffer for every source.
pub fn aggregate_bps(
    classes: &[SourceClass],
    buffer_bits: f64,
    target: f64,
    method: EbMethod,
) -> Result<f64, CacError> {
    Ok(match method {
        EbMethod::Fluid => fluid_sum_bps(classes, buffer_bits, target)?,
        EbMethod::Gaussian => gaussian_bps(classes, target)?,
        EbMethod::Min => fluid_sum_bps(classes, buffer_bits, target)?.min(gaussian_bps(classes, target)?),
    })
}
