//! Per-VC threshold buffer acceptance, for per-VC queues under a weighted fair scheduler
//! (BN01, "Per-VC Threshold and Scheduling"): a global low and high threshold on the
//! whole buffer and one threshold per VC, decided at each frame's first cell.
//!
//! Below the low threshold every frame is accepted; from it on CLP = 1 frames are refused;
//! between the two every CLP = 0 frame is accepted; from the high threshold on a CLP = 0 frame
//! is accepted only while its VC holds fewer cells than the per-VC threshold. No eligibility
//! test: under GFR.1 the switch does not see which frames are eligible.

use super::frame_gate::FrameGates;
use super::{AcceptancePolicy, Admission, Occupancy};
use crate::cell::Cell;
use crate::drop_reason::DropReason;
use celltrain_core::time::SimTime;

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
    const KEYS: &'static [&'static str] = super::GFR_KEYS;
    const NEEDS_KEYS: bool = true;
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
