//! The keys of the GFR designs (BN01): every threshold a port gives is read and checked
//! whichever design it chose, so that the design can be a scenario parameter while the file
//! carries the thresholds of each.

use super::red::RedParams;
use super::PortShape;
use celltrain_core::time::SimDuration;
use celltrain_core::Keys;

/// The simple switch's and the per-VC threshold switch's thresholds on a pool's occupancy.
pub(super) const GFR_POOL_THRESHOLDS: &[&str] = &["low_threshold", "high_threshold"];
/// Frame-level RED's thresholds on a pool's average occupancy.
pub(super) const RED_POOL_THRESHOLDS: &[&str] = &["red_min_th", "red_max_th"];

/// The GFR designs' keys.
pub(super) const GFR_KEYS: &[&str] = &[
    "low_threshold",
    "high_threshold",
    "vc_threshold",
    "vc_low_threshold",
    "vc_high_threshold",
    "red_min_th",
    "red_max_th",
    "red_max_p",
    "red_weight",
    "red_idle_unit",
];

/// Frame-level RED's default weight of a new sample (Floyd & Jacobson 1993; BN01 does not
/// give it).
const DEFAULT_RED_WEIGHT: f64 = 0.002;

/// Every GFR threshold a port gives, checked.
pub(super) struct Thresholds {
    pub low_cells: Option<u32>,
    pub high_cells: Option<u32>,
    pub vc_cells: Option<u32>,
    pub red: Option<RedParams>,
    pub vc_low_cells: Option<u32>,
    pub vc_high_cells: Option<u32>,
}

impl Thresholds {
    pub fn read<K: Keys>(keys: &K, port: PortShape) -> Result<Self, K::Error> {
        let buffer = port.buffer_cells;
        let low = cells_at_most(keys, "low_threshold", buffer)?;
        let high = cells_at_most(keys, "high_threshold", buffer)?;
        if let (Some(l), Some(h)) = (low, high) {
            if l > h {
                return Err(keys.key_error("low_threshold", format!("above the high threshold ({h} cells)")));
            }
        }
        let vc = cells_at_most(keys, "vc_threshold", buffer)?;
        let vc_low = cells_at_most(keys, "vc_low_threshold", buffer)?;
        let vc_high = cells_at_most(keys, "vc_high_threshold", buffer)?;
        if let (Some(l), Some(h)) = (vc_low, vc_high) {
            if l >= h {
                return Err(keys.key_error("vc_low_threshold", format!("must be below vc_high_threshold ({h} cells)")));
            }
        }
        Ok(Thresholds {
            low_cells: low,
            high_cells: high,
            vc_cells: vc,
            red: red_params(keys, buffer)?,
            vc_low_cells: vc_low,
            vc_high_cells: vc_high,
        })
    }
}

/// `value`, which design `design` needs (`key`).
pub(super) fn required<K: Keys>(keys: &K, design: &str, value: Option<u32>, key: &str) -> Result<u32, K::Error> {
    value.ok_or_else(|| keys.error(format!("discard = \"{design}\" needs `{key}`")))
}

/// A threshold in cells, at most the buffer, when given.
fn cells_at_most<K: Keys>(keys: &K, key: &str, buffer: u32) -> Result<Option<u32>, K::Error> {
    let Some(cells) = keys.cells(key)? else { return Ok(None) };
    if cells > u64::from(buffer) {
        return Err(keys.key_error(key, format!("{cells} cells is above the buffer of {buffer} cells")));
    }
    Ok(Some(u32::try_from(cells).expect("at most the buffer")))
}

/// RED's parameters, when `red_min_th` is given.
fn red_params<K: Keys>(keys: &K, buffer: u32) -> Result<Option<RedParams>, K::Error> {
    let Some(min_th) = cells_at_most(keys, "red_min_th", buffer)? else {
        for key in ["red_max_th", "red_max_p", "red_weight", "red_idle_unit"] {
            if keys.contains(key) {
                return Err(keys.key_error(key, "frame-level RED needs red_min_th too".into()));
            }
        }
        return Ok(None);
    };
    let max_th = cells_at_most(keys, "red_max_th", buffer)?
        .ok_or_else(|| keys.key_error("red_min_th", "give red_max_th too".into()))?;
    if min_th >= max_th {
        return Err(keys.key_error("red_min_th", format!("must be below red_max_th ({max_th} cells)")));
    }
    let max_p = keys.fraction("red_max_p")?.ok_or_else(|| keys.missing("red_max_p"))?;
    if max_p == 0.0 {
        return Err(keys.key_error("red_max_p", "must be positive".into()));
    }
    let weight = keys.fraction("red_weight")?.unwrap_or(DEFAULT_RED_WEIGHT);
    if weight == 0.0 {
        return Err(keys.key_error("red_weight", "must be positive".into()));
    }
    // Zero: one cell time at the port's line rate (resolved by the network's builder).
    let idle_unit = keys.duration("red_idle_unit")?.unwrap_or(SimDuration::ZERO);
    Ok(Some(RedParams { min_th: f64::from(min_th), max_th: f64::from(max_th), max_p, weight, idle_unit }))
}
