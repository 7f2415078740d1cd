//! The port's counting, written once: what an offered cell, a cell passing straight through and
//! a departing cell change, over a [`Ledger`] that says where the counts live.
//!
//! Two ledgers keep them: the port's own record ([`PortLedger`], a pool's view of it) and a
//! single FIFO's counts lifted into registers for a run of cells
//! ([`TailDropFifo`](super::TailDropFifo)). Each step below is generic over the ledger and
//! inlined, so a fast loop counts in registers with no second copy of what a step counts.

use super::buffer::{Admission, DropReason};
use super::stats::PortStats;
use celltrain_core::time::SimTime;
use celltrain_core::ChangeTrace;

/// Where the counts of one pool of a port (and the port's own) live while cells change them.
pub(crate) trait Ledger {
    /// Cells in the pool.
    fn pool_cells(&self) -> u32;
    fn stats(&mut self) -> &mut PortStats;
    /// `cells` cells were offered to the pool (accepted or not): the pool's own count (the
    /// port's is `stats().cells_in`: see [`count_in`]).
    fn offered(&mut self, cells: u32);
    /// `cells` accepted cells enter the pool, and the port, at `now`.
    fn entered(&mut self, cells: u32, now: SimTime);
    /// The oldest cell leaves the pool, and the port, at `now`. (Unlike `entered`, it notes no
    /// change trace: a port with one watches its departures, and notes the change after showing
    /// the departure to its policy: `OutputPort::leave`.)
    fn left(&mut self, now: SimTime);
}

/// The admission decision for a cell with CLP `clp` into a pool holding `pool_cells`: the
/// CLP = 1 threshold first (`u32::MAX`: none), then the pool's policy.
#[inline(always)]
pub(crate) fn decide(clp: bool, pool_cells: u32, clp1_threshold: u32, policy: impl FnOnce() -> Admission) -> Admission {
    if clp && pool_cells >= clp1_threshold {
        Admission::Drop(DropReason::ClpThreshold)
    } else {
        policy()
    }
}

/// `cells` cells offered to the pool, accepted or not.
#[inline(always)]
pub(crate) fn count_in<L: Ledger>(ledger: &mut L, cells: u32) {
    ledger.offered(cells);
    ledger.stats().cells_in += u64::from(cells);
}

/// A cell offered: counted in, then refused (counted by reason) or accepted, when it either
/// `passes` (starts at once into an empty buffer: counted in and out) or enters the buffer.
#[inline(always)]
pub(crate) fn count_offer<L: Ledger>(
    ledger: &mut L,
    admission: Admission,
    passes: bool,
    now: SimTime,
) -> Result<(), DropReason> {
    count_in(ledger, 1);
    match admission {
        Admission::Drop(reason) => {
            ledger.stats().dropped[reason as usize] += 1;
            Err(reason)
        }
        Admission::Accept if passes => {
            debug_assert!(ledger.pool_cells() == 0, "pass-through with cells queued");
            count_passed(ledger, 1);
            Ok(())
        }
        Admission::Accept => {
            ledger.entered(1, now);
            Ok(())
        }
    }
}

/// `cells` accepted cells that never waited: out as they came in, each the only cell queued.
#[inline(always)]
pub(crate) fn count_passed<L: Ledger>(ledger: &mut L, cells: u32) {
    let stats = ledger.stats();
    stats.cells_out += u64::from(cells);
    stats.max_queue_cells = stats.max_queue_cells.max(1);
}

/// The pool `pool` of a port, with the port's own counts: the ledger of the port's record.
pub(crate) struct PortLedger<'a> {
    pub(crate) pool_cells: &'a mut u32,
    pub(crate) pool_offered: &'a mut u64,
    pub(crate) port_cells: &'a mut u32,
    pub(crate) stats: &'a mut PortStats,
    pub(crate) changes: &'a mut Option<Box<ChangeTrace>>,
}

impl Ledger for PortLedger<'_> {
    #[inline(always)]
    fn pool_cells(&self) -> u32 {
        *self.pool_cells
    }

    #[inline(always)]
    fn stats(&mut self) -> &mut PortStats {
        self.stats
    }

    #[inline(always)]
    fn offered(&mut self, cells: u32) {
        *self.pool_offered += u64::from(cells);
    }

    #[inline(always)]
    fn entered(&mut self, cells: u32, now: SimTime) {
        *self.pool_cells += cells;
        self.stats.on_occupancy_change(now, *self.port_cells);
        *self.port_cells += cells;
        self.stats.max_queue_cells = self.stats.max_queue_cells.max(*self.port_cells);
        if let Some(changes) = self.changes {
            changes.note(now, f64::from(*self.port_cells));
        }
    }

    #[inline(always)]
    fn left(&mut self, now: SimTime) {
        *self.pool_cells -= 1;
        self.stats.on_occupancy_change(now, *self.port_cells);
        *self.port_cells -= 1;
        self.stats.cells_out += 1;
    }
}
