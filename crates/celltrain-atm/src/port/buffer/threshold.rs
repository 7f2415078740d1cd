//! The threshold of the EPD-like policies (EPD, Selective Drop, FBA): one rule resolved against
//! every buffer pool of a port, the shared pool and each reserved one, and its keys. A rule
//! that suits the shared pool can be meaningless for a small reserved pool (MSc98's
//! min{0.8·B, B − 3·MTU} is negative below three MTUs, so every cell of the pool would be
//! refused), so each pool is checked and a bad one is an error naming its own key.
//!
//! EPD also applies to VCs whose cells carry no AAL5 frames (CBR and on/off cell sources): to
//! EPD each such cell is a one-cell frame, refused when its pool holds the threshold or more.

use super::PortShape;
use celltrain_core::Keys;

/// How an EPD threshold is given; resolved against the pool size it applies to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EpdThreshold {
    /// An absolute number of cells.
    Cells(u32),
    /// A fraction of the pool.
    Fraction(f64),
    /// LRP97's normalised excess capacity b: threshold = B − b·MTU (in cells); b = 0 is PPD.
    ExcessMtus { b: f64, mtu_cells: u32 },
    /// MSc98's rule: min{0.8·B, B − 3·MTU} (in cells).
    MSc98 { mtu_cells: u32 },
}

impl EpdThreshold {
    /// The threshold in cells for a pool of `capacity` cells, rounded down (an EPD threshold
    /// is a "refuse at or above" bound: rounding down never admits a frame the rule refuses).
    pub fn resolve(self, capacity: u32) -> i64 {
        let b = f64::from(capacity);
        let cells = match self {
            Self::Cells(n) => f64::from(n),
            Self::Fraction(f) => f * b,
            Self::ExcessMtus { b: k, mtu_cells } => b - k * f64::from(mtu_cells),
            Self::MSc98 { mtu_cells } => (0.8 * b).min(b - 3.0 * f64::from(mtu_cells)),
        };
        cells.floor() as i64
    }

    /// The threshold clamped into the pool: 0 ..= `capacity` cells.
    pub(super) fn cells_in(self, capacity: u32) -> u32 {
        u32::try_from(self.resolve(capacity).clamp(0, i64::from(capacity))).unwrap_or(0)
    }
}

/// The keys of an EPD-like threshold: in cells or as a share of the pool, or MTUs below it.
pub(super) const THRESHOLD_KEYS: [&str; 2] = ["epd_threshold", "epd_excess"];

/// The threshold a port's keys give (`epd_threshold` in cells or as a share of the pool,
/// "auto", or `epd_excess` MTUs below the pool's size; `default` when neither is given),
/// checked against the port's shared pool.
pub(super) fn read<K: Keys>(keys: &K, port: PortShape, default: EpdThreshold) -> Result<EpdThreshold, K::Error> {
    let mtu_cells = port.mtu_cells;
    let threshold = match (keys.text("epd_threshold")?, keys.number("epd_excess")?) {
        (Some(_), Some(_)) => {
            return Err(keys.key_error("epd_excess", "give either epd_threshold or epd_excess, not both".into()))
        }
        (None, Some(b)) => {
            if b.is_nan() || b < 0.0 {
                return Err(keys.key_error("epd_excess", "must be ≥ 0 (MTUs below the buffer size)".into()));
            }
            EpdThreshold::ExcessMtus { b, mtu_cells }
        }
        (Some("auto"), None) => EpdThreshold::MSc98 { mtu_cells },
        (None, None) => default,
        (Some(text), None) => {
            if text.trim_end().ends_with('%') {
                EpdThreshold::Fraction(keys.fraction("epd_threshold")?.expect("given"))
            } else {
                EpdThreshold::Cells(u32::try_from(keys.cells("epd_threshold")?.expect("given")).unwrap_or(u32::MAX))
            }
        }
    };
    let buffer = port.buffer_cells;
    let cells = threshold.resolve(buffer);
    if cells > i64::from(buffer) {
        let key = given(keys).unwrap_or("buffer");
        return Err(
            keys.key_error(key, format!("EPD threshold of {cells} cells is above the buffer of {buffer} cells"))
        );
    }
    if cells < 0 {
        // The automatic threshold min{0.8·B, B − 3·MTU} comes from the buffer itself.
        let key = given(keys).unwrap_or("buffer");
        return Err(
            keys.key_error(key, format!("EPD threshold of {cells} cells is below zero (buffer of {buffer} cells)"))
        );
    }
    Ok(threshold)
}

/// The threshold key a port gives, if any.
fn given<K: Keys>(keys: &K) -> Option<&'static str> {
    ["epd_excess", "epd_threshold"].into_iter().find(|k| keys.contains(k))
}

/// What is wrong with `threshold` for a reserved pool of `capacity` cells, if anything.
pub(super) fn pool_problem<K: Keys>(threshold: EpdThreshold, keys: &K, capacity: u32) -> Option<String> {
    let cells = threshold.resolve(capacity);
    let rule = match threshold {
        EpdThreshold::MSc98 { mtu_cells } => format!(" (auto: min{{0.8·B, B − 3·MTU}}, MTU {mtu_cells} cells)"),
        EpdThreshold::ExcessMtus { b, mtu_cells } => format!(" (B − {b}·MTU, MTU {mtu_cells} cells)"),
        EpdThreshold::Cells(_) | EpdThreshold::Fraction(_) => String::new(),
    };
    let problem = if cells < 0 {
        format!("EPD threshold of {cells} cells{rule} is below zero: every frame would be refused")
    } else if cells > i64::from(capacity) {
        format!("EPD threshold of {cells} cells{rule} is above the pool: EPD would never act")
    } else {
        return None;
    };
    let hint = match given(keys) {
        None => "; give epd_threshold as a share of each pool, e.g. \"80 %\"",
        Some(_) => "",
    };
    Some(format!("{problem} (this reserved pool of {capacity} cells){hint}"))
}
