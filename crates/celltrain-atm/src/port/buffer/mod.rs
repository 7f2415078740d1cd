//! Buffer acceptance: whether an arriving cell may enter its buffer pool.
//!
//! ```text
//!  OutputPort::offer ─► CLP = 1 threshold ─► BufferAcceptance::admit(cell, now, Occupancy) ─► Accept / Drop
//!  OutputPort (a cell leaves) ─────────────► BufferAcceptance::on_departure(Departure)
//! ```
//! A policy sees the time, its pool's occupancy and capacity, and the VC's own occupancy in
//! the port; it is told of every departure from its pool and is built with its own random
//! stream. Per-VC frame state ("discarding this frame") lives in the policy, not in the cell;
//! occupancies are kept by the port, the one writer of pools and queues. Dispatch is by enum:
//! a new policy is a new file here and a variant of [`BufferAcceptance`].

mod config;
mod epd;
mod frame_gate;
mod frame_red;
mod gfr_fifo;
mod per_vc_threshold;
mod ppd;
mod red;
mod tail_drop;
#[cfg(test)]
mod tests;

use crate::cell::Cell;
pub use crate::drop_reason::DropReason;
use celltrain_core::time::SimTime;
pub use config::{DiscardConfig, EpdConfig, EpdThreshold};
pub use epd::Epd;
pub use frame_red::{FrameRed, FrameRedConfig};
pub use gfr_fifo::GfrFifo;
pub use per_vc_threshold::PerVcThreshold;
pub use ppd::Ppd;
pub use red::{Red, RedParams};
pub use tail_drop::TailDrop;

/// The decision for one arriving cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    Accept,
    Drop(DropReason),
}

/// What a policy may see of the port when a cell of the VC in `slot` arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occupancy {
    /// The VC's dense per-port index.
    pub slot: u32,
    /// Cells in the cell's pool now.
    pub pool_cells: u32,
    /// Size of the cell's pool.
    pub capacity_cells: u32,
    /// Cells of the cell's VC queued in the port now (counted only for policies that
    /// [read it](BufferAcceptance::reads_vc_cells); 0 for the others).
    pub vc_cells: u32,
}

impl Occupancy {
    /// Whether the pool can take one more cell.
    #[inline]
    pub fn has_room(&self) -> bool {
        self.pool_cells < self.capacity_cells
    }
}

/// The `slot` of a departure from a port that does not count cells per VC (its policies do not
/// [read per-VC occupancy](BufferAcceptance::reads_vc_cells)).
pub const UNKNOWN_SLOT: u32 = u32::MAX;

/// A cell that left a policy's pool (occupancies are those after it left).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Departure {
    /// The VC's slot, or [`UNKNOWN_SLOT`] when the port does not count per VC and cannot tell
    /// (then `vc_cells` is 0, as it is whenever the port does not count).
    pub slot: u32,
    pub now: SimTime,
    pub pool_cells: u32,
    pub vc_cells: u32,
}

/// The acceptance policy of one buffer pool. (`repr(u8)`: a plain tag, so that dispatch on
/// every cell is one byte compare, not the decoding of a niche in a variant's vector.)
#[derive(Clone, Debug)]
#[repr(u8)]
pub enum BufferAcceptance {
    TailDrop(TailDrop),
    Ppd(Ppd),
    Epd(Epd),
    /// The GFR policies (boxed: the enum, and so the port, keeps its size).
    GfrFifo(Box<GfrFifo>),
    PerVcThreshold(Box<PerVcThreshold>),
    FrameRed(Box<FrameRed>),
}

impl BufferAcceptance {
    /// The policy's name in reports.
    pub fn name(&self) -> &'static str {
        match self {
            Self::TailDrop(_) => "tail-drop",
            Self::Ppd(_) => "ppd",
            Self::Epd(epd) if epd.keeps_refused_eom() => "epd-keep-eom",
            Self::Epd(_) => "epd",
            Self::GfrFifo(_) => "gfr-fifo",
            Self::PerVcThreshold(_) => "per-vc-threshold",
            Self::FrameRed(_) => "frame-red",
        }
    }

    /// Decides whether `cell`, arriving at `now`, may enter the pool.
    /// Each policy is given what it reads.
    #[inline]
    pub fn admit(&mut self, cell: &Cell, now: SimTime, at: Occupancy) -> Admission {
        self.admit_counting(cell, now, Occupancy { vc_cells: 0, ..at }, || at.vc_cells)
    }

    /// [`admit`](Self::admit), with the VC's count (`at.vc_cells` is not read) asked of
    /// `vc_cells` only by a policy that reads it: the port's arrival path then neither looks
    /// the count up nor writes the whole `Occupancy` out for tail drop, PPD and EPD.
    #[inline(always)]
    pub fn admit_counting(
        &mut self,
        cell: &Cell,
        now: SimTime,
        at: Occupancy,
        vc_cells: impl FnOnce() -> u32,
    ) -> Admission {
        let room = at.has_room();
        match self {
            Self::TailDrop(p) => p.admit(room),
            Self::Ppd(p) => p.admit(cell, at.slot, room),
            Self::Epd(p) => p.admit(cell, at.slot, at.pool_cells, room),
            _ => self.admit_gfr(cell, now, Occupancy { vc_cells: vc_cells(), ..at }),
        }
    }

    /// The GFR policies, out of line and cold: the dispatch above stays small enough to inline
    /// into the network's arrival path (with them inline it did not, and every port paid: +15 %
    /// on the null pipeline's instructions).
    #[cold]
    #[inline(never)]
    fn admit_gfr(&mut self, cell: &Cell, now: SimTime, at: Occupancy) -> Admission {
        match self {
            Self::GfrFifo(p) => p.admit(cell, at.slot, at.pool_cells, at.has_room()),
            Self::PerVcThreshold(p) => p.admit(cell, at),
            Self::FrameRed(p) => p.admit(cell, now, at),
            Self::TailDrop(_) | Self::Ppd(_) | Self::Epd(_) => unreachable!("dispatched in `admit`"),
        }
    }

    /// A cell of the pool left the port (transmitted). None of today's policies listens
    /// (frame-level RED infers when its buffer empties from its arrivals: see `frame_red.rs`);
    /// Selective Drop and FBA will.
    #[inline]
    pub fn on_departure(&mut self, departure: &Departure) {
        let _ = departure;
    }

    /// Whether the policy reads per-VC occupancy (`Occupancy::vc_cells`, `Departure::slot` and
    /// `vc_cells`): the port then counts cells per VC, which costs every cell a little (and
    /// a queue shared by several VCs a ring of their slots): the per-VC threshold and
    /// frame-level RED policies of GFR.
    #[inline]
    pub fn reads_vc_cells(&self) -> bool {
        match self {
            Self::PerVcThreshold(_) | Self::FrameRed(_) => true,
            Self::TailDrop(_) | Self::Ppd(_) | Self::Epd(_) | Self::GfrFifo(_) => false,
        }
    }

    /// Whether the policy accepts every cell while the pool has room and keeps no state
    /// (neither per cell nor per departure): a run of cells that fits may then be admitted at
    /// once, and a run that never waited may be counted in and out without being shown to it
    /// (`OutputPort::admit_virtual_run`, `OutputPort::pass_virtual`).
    #[inline]
    pub fn accepts_while_room(&self) -> bool {
        matches!(self, Self::TailDrop(_))
    }
}
