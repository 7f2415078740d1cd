//! Peak-rate allocation: admit while the sum of the peak rates fits in ρ_max·C. No
//! statistical gain: the reference every other rule is measured against.

use super::{fits, SourceClass};

/// Σ n·R over the classes.
pub fn total_peak_bps(classes: &[SourceClass]) -> f64 {
    classes.iter().map(|c| f64::from(c.count) * c.source.peak_bps).sum()
}

/// Admit iff Σ n·R ≤ `max_load`·C.
pub fn admits(classes: &[SourceClass], capacity_bps: f64, max_load: f64) -> bool {
    fits(total_peak_bps(classes), capacity_bps * max_load)
}
