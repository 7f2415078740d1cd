//! The simple GFR switch (BN01, "A Simple Implementation for GFR.2", after Guérin &
//! Heinanen's UBR+ proposal): one FIFO and two thresholds on its occupancy, decided at each
//! frame's first cell. A CLP = 1 frame is refused from the low threshold on; any frame from
//! the high threshold on. It protects the MCR only if the ingress tags the frames that are
//! not eligible (GFR.2).

use super::frame_gate::FrameGates;
use super::{AcceptancePolicy, Admission, Occupancy};
use crate::cell::Cell;
use crate::drop_reason::DropReason;
use celltrain_core::time::SimTime;

#[derive(Clone, Debug)]
pub struct GfrFifo {
    low_cells: u32,
    high_cells: u32,
    gates: FrameGates,
}

impl GfrFifo {
    pub fn new(vcs: usize, low_cells: u32, high_cells: u32) -> Self {
        GfrFifo { low_cells, high_cells, gates: FrameGates::new(vcs) }
    }
}

impl AcceptancePolicy for GfrFifo {
    const NAME: &'static str = "gfr-fifo";
    const KEYS: &'static [&'static str] = super::GFR_KEYS;
    const NEEDS_KEYS: bool = true;

    /// Thresholds are "refuse at or above", as EPD's.
    fn admit(&mut self, cell: &Cell, _now: SimTime, at: Occupancy) -> Admission {
        let (low, high, pool_cells) = (self.low_cells, self.high_cells, at.pool_cells);
        self.gates.admit(cell, at.slot, at.has_room(), || {
            if cell.clp && pool_cells >= low {
                Some(DropReason::ClpThreshold)
            } else if pool_cells >= high {
                Some(DropReason::EarlyPacketDiscard)
            } else {
                None
            }
        })
    }
}
