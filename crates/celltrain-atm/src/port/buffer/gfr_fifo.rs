//! The simple GFR switch (BN01, "A Simple Implementation for GFR.2", after Guérin &
//! Heinanen's UBR+ proposal): one FIFO and two thresholds on its occupancy, decided at each
//! frame's first cell. A CLP = 1 frame is refused from the low threshold on; any frame from
//! the high threshold on. It protects the MCR only if the ingress tags the frames that are
//! not eligible (GFR.2).

use super::frame_gate::FrameGates;
use super::Admission;
use crate::cell::Cell;
use crate::drop_reason::DropReason;

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

    /// `cell` of the VC in `slot` arrives at a pool holding `pool_cells` (thresholds are
    /// "refuse at or above", as EPD's).
    #[inline(never)]
    pub fn admit(&mut self, cell: &Cell, slot: u32, pool_cells: u32, room: bool) -> Admission {
        let (low, high) = (self.low_cells, self.high_cells);
        self.gates.admit(cell, slot, room, || {
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
