//! How a port's buffer acceptance is configured, and the policy built from it.

use super::{
    BufferAcceptance, Epd, Fba, FrameRed, FrameRedConfig, GfrFifo, PerVcThreshold, Ppd, SelectiveDrop, TailDrop,
};
use celltrain_core::rng::RngStream;

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
    fn cells_in(self, capacity: u32) -> u32 {
        u32::try_from(self.resolve(capacity).clamp(0, i64::from(capacity))).unwrap_or(0)
    }
}

/// EPD with its options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpdConfig {
    pub threshold: EpdThreshold,
    /// Keep the last cell (EOM) of a frame refused at its first cell, when there is room (the
    /// Fore ASX-200 of Lorang, Renger, Pettersen et al., "Experiments on Integrated Traffic
    /// Control for ATM in the ACTS Project EXPERT", does). Off: the whole refused frame is
    /// dropped.
    pub keep_refused_eom: bool,
}

/// Selective Drop's and FBA's parameters: the threshold R (resolved per pool, as EPD's) and
/// the fairness parameter Z.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FairShareConfig {
    pub threshold: EpdThreshold,
    pub z: f64,
}

/// The buffer acceptance policy of a port, as configured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DiscardConfig {
    TailDrop,
    Ppd,
    /// EPD with default options (`EpdWith` with `keep_refused_eom: false`).
    Epd(EpdThreshold),
    /// EPD with its options given.
    EpdWith(EpdConfig),
    /// The simple GFR switch: CLP = 1 frames refused from `low_cells`, all frames from
    /// `high_cells` (decided at the first cell).
    GfrFifo {
        low_cells: u32,
        high_cells: u32,
    },
    /// GFR per-VC thresholds: CLP = 1 frames refused from `low_cells`; from `high_cells` a
    /// CLP = 0 frame only while its VC holds fewer than `vc_cells`.
    PerVcThreshold {
        low_cells: u32,
        high_cells: u32,
        vc_cells: u32,
    },
    /// GFR per-VC scheduling with frame-level RED on the whole buffer's average.
    FrameRed(FrameRedConfig),
    /// Selective Drop (per-VC accounting on a shared FIFO).
    SelectiveDrop(FairShareConfig),
    /// Fair Buffer Allocation (Heinanen & Kilkki).
    Fba(FairShareConfig),
}

impl DiscardConfig {
    /// Builds the policy for a pool of `capacity` cells shared by `vcs` VCs, handing it its own
    /// random stream (today's policies draw nothing and drop it).
    pub fn build(self, vcs: usize, capacity: u32, rng: RngStream) -> BufferAcceptance {
        match self {
            Self::GfrFifo { low_cells, high_cells } => {
                BufferAcceptance::GfrFifo(Box::new(GfrFifo::new(vcs, low_cells, high_cells)))
            }
            Self::PerVcThreshold { low_cells, high_cells, vc_cells } => {
                BufferAcceptance::PerVcThreshold(Box::new(PerVcThreshold::new(vcs, low_cells, high_cells, vc_cells)))
            }
            Self::FrameRed(config) => BufferAcceptance::FrameRed(Box::new(FrameRed::new(vcs, config, rng))),
            Self::SelectiveDrop(FairShareConfig { threshold, z }) => BufferAcceptance::SelectiveDrop(Box::new(
                SelectiveDrop::new(vcs, threshold.cells_in(capacity), capacity, z),
            )),
            Self::Fba(FairShareConfig { threshold, z }) => {
                BufferAcceptance::Fba(Box::new(Fba::new(vcs, threshold.cells_in(capacity), capacity, z)))
            }
            Self::TailDrop => BufferAcceptance::TailDrop(TailDrop),
            Self::Ppd => BufferAcceptance::Ppd(Ppd::new(vcs)),
            Self::Epd(threshold) => BufferAcceptance::Epd(Epd::new(vcs, threshold.cells_in(capacity))),
            Self::EpdWith(EpdConfig { threshold, keep_refused_eom }) => {
                BufferAcceptance::Epd(Epd::new(vcs, threshold.cells_in(capacity)).keeping_refused_eom(keep_refused_eom))
            }
        }
    }
}
