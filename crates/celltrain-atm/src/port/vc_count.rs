//! Per-VC occupancy of a port: how many cells of each VC are in it, kept when a pool's policy
//! reads it (or an observer asks), and not otherwise: none of today's policies reads it, and
//! counting costs every cell a little on the hottest path of the simulator.
//!
//! A queue that holds one VC's cells (per-VC queueing, or a class with one VC) names the VC of
//! every cell that leaves it. A queue shared by several VCs (a FIFO per class; a single-FIFO
//! port's virtual queue) does not, so while counting the port keeps the order of its cells'
//! VCs: a ring of slots per shared queue.

use super::buffer::UNKNOWN_SLOT;
use super::slot_ring::SlotRing;

/// Per-queue owner of a queue shared by several VCs.
const SHARED: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
pub(super) struct VcCounts {
    counting: bool,
    /// Per slot: cells of the VC in the port (while counting).
    cells: Vec<u32>,
    /// Per queue: the slot of its only VC, or `SHARED`.
    owner: Vec<u32>,
    /// Per queue, for shared queues: its cells' slots, oldest first (while counting).
    order: Vec<SlotRing>,
}

impl VcCounts {
    /// Counts for `slots` VCs, the k-th in queue `queue_of_slot[k]`, of `queues` queues; not
    /// counting until [`start`](Self::start).
    pub(super) fn new(queue_of_slot: impl Iterator<Item = u16>, slots: usize, queues: usize) -> Self {
        let mut seen = vec![false; queues];
        let mut owner = vec![SHARED; queues];
        for (slot, q) in queue_of_slot.enumerate() {
            let q = usize::from(q);
            owner[q] = if seen[q] { SHARED } else { slot as u32 };
            seen[q] = true;
        }
        VcCounts { counting: false, cells: vec![0; slots], owner, order: vec![SlotRing::default(); queues] }
    }

    /// Counts from now on (call it with the port empty).
    pub(super) fn start(&mut self) {
        self.counting = true;
    }

    /// Cells of the VC in `slot` (0 when not counting). (No bounds panic: a policy that does
    /// not read the count lets the compiler drop the load.)
    #[inline]
    pub(super) fn get(&self, slot: u32) -> u32 {
        self.cells.get(slot as usize).copied().unwrap_or(0)
    }

    /// `cells` cells of the VC in `slot` entered queue `q`.
    #[inline]
    pub(super) fn enter(&mut self, q: u16, slot: u32, cells: u32) {
        if self.counting {
            self.enter_counted(q, slot, cells);
        }
    }

    /// The head cell of queue `q` left: its VC's slot and the VC's cells after it, or
    /// ([`UNKNOWN_SLOT`], 0) when not counting.
    #[inline]
    pub(super) fn leave(&mut self, q: u16) -> (u32, u32) {
        if self.counting {
            self.leave_counted(q)
        } else {
            (UNKNOWN_SLOT, 0)
        }
    }

    /// Inline, as is [`leave_counted`](Self::leave_counted), though rarely taken: an opaque call
    /// in the network's departure loop would make the compiler reload the loop's own state on
    /// every cell.
    #[inline]
    fn enter_counted(&mut self, q: u16, slot: u32, cells: u32) {
        let q = usize::from(q);
        if self.owner[q] == SHARED {
            self.order[q].push(slot, cells);
        }
        self.cells[slot as usize] += cells;
    }

    #[inline]
    fn leave_counted(&mut self, q: u16) -> (u32, u32) {
        let q = usize::from(q);
        let slot = if self.owner[q] == SHARED { self.order[q].pop() } else { self.owner[q] };
        match self.cells.get_mut(slot as usize) {
            Some(count) => {
                *count -= 1;
                (slot, *count)
            }
            None => (UNKNOWN_SLOT, 0),
        }
    }
}
