//! Cell-level tail drop: accept while the pool has room.

use super::{AcceptancePolicy, Admission, Occupancy, PortShape};
use crate::cell::Cell;
use crate::drop_reason::DropReason;
use celltrain_core::rng::RngStream;
use celltrain_core::time::SimTime;
use celltrain_core::Keys;

/// Cell-level tail drop. Keeps no state, so runs of cells that fit may be admitted at once.
#[derive(Clone, Debug, Default)]
pub struct TailDrop;

impl TailDrop {
    /// The decision, which reads only the pool's room (also where a single FIFO's counts are
    /// lifted out of its port: `TailDropFifo`).
    #[inline(always)]
    pub(crate) fn decide(at: Occupancy) -> Admission {
        if at.has_room() {
            Admission::Accept
        } else {
            Admission::Drop(DropReason::BufferFull)
        }
    }
}

impl AcceptancePolicy for TailDrop {
    const NAME: &'static str = "tail-drop";
    const ACCEPTS_WHILE_ROOM: bool = true;
    type Config = ();

    fn read_config<K: Keys>(_keys: &K, _port: PortShape) -> Result<(), K::Error> {
        Ok(())
    }

    fn build((): (), _vcs: usize, _capacity: u32, _rng: RngStream) -> Self {
        TailDrop
    }

    #[inline(always)]
    fn admit(&mut self, _cell: &Cell, _now: SimTime, at: Occupancy) -> Admission {
        Self::decide(at)
    }
}
