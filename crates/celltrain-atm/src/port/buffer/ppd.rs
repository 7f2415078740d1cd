//! Partial Packet Discard (Armitage & Adams 1993; Romanow & Floyd 1995, "Dynamics of TCP traffic
//! over ATM networks"): after a frame loses a cell to overflow, the rest of it is dropped, except
//! its end-of-frame cell, which is kept (if there is room) so that the receiver delimits the
//! damaged frame and does not merge it with the next one.

use super::{AcceptancePolicy, Admission, Occupancy, PortShape};
use crate::cell::{Cell, CellKind};
use crate::drop_reason::DropReason;
use celltrain_core::rng::RngStream;
use celltrain_core::time::SimTime;
use celltrain_core::Keys;

/// PPD with per-VC "this frame already lost a cell" state.
#[derive(Clone, Debug)]
pub struct Ppd {
    /// Per VC: the current frame already lost a cell.
    discarding: Vec<bool>,
}

impl AcceptancePolicy for Ppd {
    const NAME: &'static str = "ppd";
    type Config = ();

    fn read_config<K: Keys>(_keys: &K, _port: PortShape) -> Result<(), K::Error> {
        Ok(())
    }

    fn build((): (), vcs: usize, _capacity: u32, _rng: RngStream) -> Self {
        Ppd::new(vcs)
    }

    #[inline(always)]
    fn admit(&mut self, cell: &Cell, _now: SimTime, at: Occupancy) -> Admission {
        self.decide(cell, at.slot, at.has_room())
    }
}

impl Ppd {
    pub fn new(vcs: usize) -> Self {
        Ppd { discarding: vec![false; vcs] }
    }

    /// `cell` of the VC in `slot` arrives; `room`: its pool can take one more cell. (Out of
    /// line, and given only what PPD reads: the dispatch stays small enough to inline into the
    /// network's arrival path, and sets up no arguments on tail drop's arm.)
    #[inline(never)]
    fn decide(&mut self, cell: &Cell, slot: u32, room: bool) -> Admission {
        let slot = slot as usize;
        // An RM cell is not part of the VC's frames: it neither ends nor damages one.
        if cell.kind == CellKind::Rm {
            return if room { Admission::Accept } else { Admission::Drop(DropReason::BufferFull) };
        }
        if self.discarding[slot] {
            if cell.end_of_frame {
                self.discarding[slot] = false;
                if room {
                    return Admission::Accept;
                }
                return Admission::Drop(DropReason::BufferFull);
            }
            return Admission::Drop(DropReason::PartialPacketDiscard);
        }
        if room {
            return Admission::Accept;
        }
        // First loss in the frame; an end-of-frame cell closes the frame by itself.
        self.discarding[slot] = !cell.end_of_frame;
        Admission::Drop(DropReason::BufferFull)
    }
}
