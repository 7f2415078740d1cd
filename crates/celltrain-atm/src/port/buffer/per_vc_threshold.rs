//! Per-VC threshold buffer acceptance, for per-VC queues under a weighted fair scheduler
//! (BN01, "Per-VC Threshold and Scheduling"): a global low and high threshold on the
//! whole buffer and one threshold per VC, decided at each frame's first cell.
//!
//! Below the low threshold every frame is accepted; from it on CLP = 1 frames are refused;
//! between the two every CLP = 0 frame is accepted; from the high threshold on a CLP = 0 frame
//! is accepted only while its VC holds fewer cells than the per-VC threshold. No eligibility
//! test: under GFR.1 the switch does not see which frames are eligible.

use super::frame_gate::FrameGates;
use super::gfr_keys::{required, Thresholds, GFR_KEYS, GFR_POOL_THRESHOLDS};
use super::{AcceptancePolicy, Admission, Occupancy, PortShape};
use crate::cell::Cell;
use crate::drop_reason::DropReason;
use celltrain_core::rng::RngStream;
use celltrain_core::time::SimTime;
use celltrain_core::Keys;

/// The design's global low and high thresholds and its per-VC threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerVcThresholdConfig {
    pub low_cells: u32,
    pub high_cells: u32,
    pub vc_cells: u32,
}

#[derive(Clone, Debug)]
pub struct PerVcThreshold {
    low_cells: u32,
    high_cells: u32,
    vc_cells: u32,
    gates: FrameGates,
}

impl PerVcThreshold {
    pub fn new(vcs: usize, low_cells: u32, high_cells: u32, vc_threshold_cells: u32) -> Self {
        PerVcThreshold { low_cells, high_cells, vc_cells: vc_threshold_cells, gates: FrameGates::new(vcs) }
    }
}

impl AcceptancePolicy for PerVcThreshold {
    const NAME: &'static str = "per-vc-threshold";
    const KEYS: &'static [&'static str] = GFR_KEYS;
    const NEEDS_KEYS: bool = true;
    const POOL_THRESHOLDS: &'static [&'static str] = GFR_POOL_THRESHOLDS;
    const QUEUES_PER_VC_BY_DEFAULT: bool = true;
    type Config = PerVcThresholdConfig;

    fn read_config<K: Keys>(keys: &K, port: PortShape) -> Result<PerVcThresholdConfig, K::Error> {
        let t = Thresholds::read(keys, port)?;
        Ok(PerVcThresholdConfig {
            low_cells: required(keys, Self::NAME, t.low_cells, "low_threshold")?,
            high_cells: required(keys, Self::NAME, t.high_cells, "high_threshold")?,
            vc_cells: required(keys, Self::NAME, t.vc_cells, "vc_threshold")?,
        })
    }

    fn build(config: PerVcThresholdConfig, vcs: usize, _capacity: u32, _rng: RngStream) -> Self {
        PerVcThreshold::new(vcs, config.low_cells, config.high_cells, config.vc_cells)
    }
    const READS_VC_CELLS: bool = true;

    fn admit(&mut self, cell: &Cell, _now: SimTime, at: Occupancy) -> Admission {
        let (low, high, vc_limit) = (self.low_cells, self.high_cells, self.vc_cells);
        self.gates.admit(cell, at.slot, at.has_room(), || {
            if cell.clp && at.pool_cells >= low {
                Some(DropReason::ClpThreshold)
            } else if at.pool_cells >= high && at.vc_cells >= vc_limit {
                Some(DropReason::EarlyPacketDiscard)
            } else {
                None
            }
        })
    }
}
