//! A single-FIFO port, its counts (and its policy) lifted out for a run of cells.
//!
//! A fan-in group that crosses its target directly (peer twin `a`'s multiplexer) admits and
//! releases a cell at the target about every cell time. Each admission goes through the port's
//! pools, its policy's dispatch and its counters in memory; where the only policy is tail drop
//! and nothing but the counters follows a departure, all of that is a handful of numbers. The
//! group takes them out ([`OutputPort::tail_drop_fifo`]), keeps them in registers while it hands
//! out heads, and puts them back ([`OutputPort::put_tail_drop_fifo`]) before anything else may
//! read the port. The counts are a [`Ledger`](super::ledger) of their own, so the steps that
//! change them are the port's own ([`admit_virtual`](OutputPort::admit_virtual),
//! [`pass_through_at`](OutputPort::pass_through_at), [`depart_virtual`](OutputPort::depart_virtual)
//! count through the same generic steps: the tests drive both side by side).
//!
//! Where frames cross (twin `b`'s EPD port in front of its TCP receiver), the pool's policy
//! keeps per-VC frame state and decides each cell; the group then lifts it out with the counts
//! ([`OutputPort::lift_fifo`], [`LiftedFifo`]), for any policy that reads no per-VC counts.

use super::buffer::{BufferAcceptance, Occupancy, TailDrop};
use super::ledger::{count_offer, decide, Ledger};
use super::{DropReason, OutputPort, PortStats};
use crate::cell::Cell;
use celltrain_core::time::SimTime;

/// The counts of a single-FIFO tail-drop port that its cells change.
#[derive(Clone, Debug, PartialEq)]
pub struct TailDropFifo {
    /// Cells queued (the port's, and its only pool's).
    occupancy: u32,
    capacity: u32,
    /// See [`PortConfig::clp1_threshold`](super::PortConfig::clp1_threshold) (u32::MAX: none).
    clp1_threshold: u32,
    /// Cells offered to the pool since the start.
    offered: u64,
    stats: PortStats,
}

impl OutputPort {
    /// The port's counts, when it is a single FIFO whose pool takes every cell while it has
    /// room (tail drop) and only the counters follow its departures (no per-VC counts, no
    /// change trace); else none. Until they are put back, the port's own are stale.
    pub fn tail_drop_fifo(&self) -> Option<TailDropFifo> {
        let pool = &self.pools[self.fifo_pool as usize];
        let plain = self.is_single_fifo() && pool.acceptance.accepts_while_room() && !self.departures_watched;
        // (Every cell of a single FIFO is in its pool: the port's occupancy is the pool's.)
        debug_assert!(!plain || pool.occupancy == self.occupancy);
        plain.then(|| self.fifo_counts())
    }

    /// The counts a single FIFO's cells change, copied out.
    fn fifo_counts(&self) -> TailDropFifo {
        let pool = &self.pools[self.fifo_pool as usize];
        TailDropFifo {
            occupancy: self.occupancy,
            capacity: pool.capacity,
            clp1_threshold: self.clp1_threshold,
            offered: pool.offered,
            stats: self.stats.clone(),
        }
    }

    /// Puts back counts taken with [`tail_drop_fifo`](Self::tail_drop_fifo) (and changed since).
    pub fn put_tail_drop_fifo(&mut self, fifo: &TailDropFifo) {
        let pool = &mut self.pools[self.fifo_pool as usize];
        pool.occupancy = fifo.occupancy;
        pool.offered = fifo.offered;
        self.occupancy = fifo.occupancy;
        self.stats.clone_from(&fifo.stats);
    }
}

impl TailDropFifo {
    /// A cell with CLP `clp` arrives at `now` (`passes`: it starts now, into an empty buffer,
    /// as [`pass_through_at`](OutputPort::pass_through_at) takes it; else it waits, as
    /// [`admit_virtual`](OutputPort::admit_virtual) queues it): accepted, or dropped.
    #[inline(always)]
    pub fn admit(&mut self, clp: bool, passes: bool, now: SimTime) -> Result<(), DropReason> {
        // (The port's only pool is tail drop: its decision reads nothing but the room.)
        let at = Occupancy { slot: 0, pool_cells: self.occupancy, capacity_cells: self.capacity, vc_cells: 0 };
        let admission = decide(clp, self.occupancy, self.clp1_threshold, || TailDrop::decide(at));
        count_offer(self, admission, passes, now)
    }

    /// The oldest queued cell started at `at`, as [`depart_virtual`](OutputPort::depart_virtual).
    #[inline(always)]
    pub fn depart(&mut self, at: SimTime) {
        debug_assert!(self.occupancy > 0, "departure from an empty buffer");
        self.left(at);
    }
}

/// The counts in registers: one pool, which is the whole port.
impl Ledger for TailDropFifo {
    #[inline(always)]
    fn pool_cells(&self) -> u32 {
        self.occupancy
    }

    #[inline(always)]
    fn stats(&mut self) -> &mut PortStats {
        &mut self.stats
    }

    #[inline(always)]
    fn offered(&mut self, cells: u32) {
        self.offered += u64::from(cells);
    }

    #[inline(always)]
    fn entered(&mut self, cells: u32, now: SimTime) {
        self.stats.on_occupancy_change(now, self.occupancy);
        self.occupancy += cells;
        self.stats.max_queue_cells = self.stats.max_queue_cells.max(self.occupancy);
    }

    #[inline(always)]
    fn left(&mut self, now: SimTime) {
        self.stats.on_occupancy_change(now, self.occupancy);
        self.occupancy -= 1;
        self.stats.cells_out += 1;
    }
}

/// A single-FIFO port's counts and its pool's policy, lifted out for a run of cells (the
/// frames of twin `b` through its EPD port): as [`TailDropFifo`], for any policy that reads no
/// per-VC counts. The policy is moved out of the port, and back.
#[derive(Clone, Debug)]
pub struct LiftedFifo {
    counts: TailDropFifo,
    acceptance: BufferAcceptance,
}

impl OutputPort {
    /// The port's counts and its pool's policy, when it is a single FIFO where only the
    /// counters follow its departures (no per-VC counts, no change trace); else none. Until
    /// they are put back, the port's own are stale and its policy is tail drop.
    pub fn lift_fifo(&mut self) -> Option<LiftedFifo> {
        if !self.is_single_fifo() || self.departures_watched {
            return None;
        }
        // (A policy that reads per-VC counts has the port count them, and watch departures.)
        let pool = &mut self.pools[self.fifo_pool as usize];
        debug_assert!(pool.occupancy == self.occupancy && !pool.acceptance.reads_vc_cells());
        let acceptance = std::mem::replace(&mut pool.acceptance, BufferAcceptance::TailDrop(TailDrop));
        Some(LiftedFifo { counts: self.fifo_counts(), acceptance })
    }

    /// Puts back what [`lift_fifo`](Self::lift_fifo) took (and changed since).
    pub fn put_lifted_fifo(&mut self, fifo: LiftedFifo) {
        self.put_tail_drop_fifo(&fifo.counts);
        self.pools[self.fifo_pool as usize].acceptance = fifo.acceptance;
    }
}

impl LiftedFifo {
    /// `cell` of the VC in `slot` arrives at `now` (`passes`: as for
    /// [`TailDropFifo::admit`]): the CLP = 1 threshold, then the policy, decide.
    /// (A lifted policy reads no per-VC counts, so it is shown no departure:
    /// `AcceptancePolicy::READS_VC_CELLS`.)
    #[inline(always)]
    pub fn admit(&mut self, cell: &Cell, slot: u32, passes: bool, now: SimTime) -> Result<(), DropReason> {
        let counts = &mut self.counts;
        let at = Occupancy { slot, pool_cells: counts.occupancy, capacity_cells: counts.capacity, vc_cells: 0 };
        let acceptance = &mut self.acceptance;
        // (A port that does not count per VC has none to give: 0, as its own count reads.)
        let admission = decide(cell.clp, counts.occupancy, counts.clp1_threshold, || {
            acceptance.admit_counting(cell, now, at, || 0)
        });
        count_offer(counts, admission, passes, now)
    }

    /// The oldest queued cell started at `at`, as [`depart_virtual`](OutputPort::depart_virtual).
    #[inline(always)]
    pub fn depart(&mut self, at: SimTime) {
        self.counts.depart(at);
    }
}
