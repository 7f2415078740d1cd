//! The simple GFR switch (BN01, "A Simple Implementation for GFR.2", after Guérin &
//! Heinanen's UBR+ proposal): one FIFO and two thresholds on its occupancy, decided at each
//! frame's first cell. A CLP = 1 frame is refused from the low threshold on; any frame from
//! the high threshold on. It protects the MCR only if the ingress tags the frames that are
//! not eligible (GFR.2).

use super::frame_gate::FrameGates;
use super::gfr_keys::{required, Thresholds, GFR_KEYS, GFR_POOL_THRESHOLDS};
use super::{AcceptancePolicy, Admission, Occupancy, PortShape};
use crate::cell::Cell;
use crate::drop_reason::DropReason;
use celltrain_core::rng::RngStream;
use celltrain_core::time::SimTime;
use celltrain_core::Keys;

/// The simple switch's two thresholds on the buffer's occupancy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GfrFifoConfig {
    pub low_cells: u32,
    pub high_cells: u32,
}

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
    const KEYS: &'static [&'static str] = GFR_KEYS;
    const NEEDS_KEYS: bool = true;
    const POOL_THRESHOLDS: &'static [&'static str] = GFR_POOL_THRESHOLDS;
    type Config = GfrFifoConfig;

    /// The high threshold by default one MTU below the buffer (BN01: it only keeps whole
    /// frames out of a full buffer), and never below the low one.
    fn read_config<K: Keys>(keys: &K, port: PortShape) -> Result<GfrFifoConfig, K::Error> {
        let t = Thresholds::read(keys, port)?;
        let low_cells = required(keys, Self::NAME, t.low_cells, "low_threshold")?;
        let high_cells =
            t.high_cells.unwrap_or_else(|| port.buffer_cells.saturating_sub(port.mtu_cells).max(low_cells));
        Ok(GfrFifoConfig { low_cells, high_cells })
    }

    fn build(config: GfrFifoConfig, vcs: usize, _capacity: u32, _rng: RngStream) -> Self {
        GfrFifo::new(vcs, config.low_cells, config.high_cells)
    }

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
