//! Virtual Spacing (J. W. Roberts, "Virtual spacing for flexible traffic control",
//! International Journal of Communication Systems 7, 1994), in its head-of-line form: each
//! backlogged queue carries the stamp of its head cell, VS_i = max(SpacT, VS_i) + δ_i; the
//! smallest stamp is served (ties: the lower queue) and the spacing time SpacT becomes that
//! stamp. This is self-clocked fair queueing for fixed-size packets (S. J. Golestani, INFOCOM
//! 1994); work-conserving.

use super::{weights, CellScheduler, Pick};
use celltrain_core::time::SimTime;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A backlogged queue as the heap holds it: the stamp of its head cell, less the heap's base,
/// then the queue, in one word (`stamp << 16 | queue`: one compare, where a pair takes two and a
/// branch), least first, so the order is the service order, ties to the lower queue (keys are
/// unique).
type Backlogged = Reverse<u64>;

/// Bits of a key that hold its stamp (above the queue's 16).
const STAMP_BITS: u32 = 48;

#[inline(always)]
fn backlogged(stamp: u64, queue: u16) -> Backlogged {
    debug_assert!(stamp < 1 << STAMP_BITS, "a stamp past its bits: the base was not moved");
    Reverse(stamp << 16 | u64::from(queue))
}

/// The stamp (less the base) and the queue of a heap entry.
#[inline(always)]
fn stamp_and_queue(entry: &Backlogged) -> (u64, u16) {
    (entry.0 >> 16, entry.0 as u16)
}

#[derive(Clone, Debug)]
pub struct VirtualSpacing {
    /// Per queue: δ_i (see `weights`).
    spacing: Vec<u64>,
    /// The backlogged queues, the next to serve at the top.
    backlogged: BinaryHeap<Backlogged>,
    /// SpacT: the stamp of the cell served last, less the base. (Stamps are kept from a base
    /// that moves up, all at once, before they outgrow their bits: a backlogged queue's stamp is
    /// at most SpacT + its spacing, and spacings are under 2^45, so the keys keep their order.)
    spacing_time: u64,
}

/// SpacT (less the base) from which the base moves up to SpacT: every stamp then fits its bits
/// (SpacT below 2^47, plus a spacing below 2^45).
const REBASE_AT: u64 = 1 << (STAMP_BITS - 1);

impl VirtualSpacing {
    pub fn new(spacing: Vec<u64>) -> Self {
        debug_assert!(spacing.iter().all(|&d| d < 1 << (STAMP_BITS - 3)), "spacings are capped below 2^45");
        VirtualSpacing { spacing, backlogged: BinaryHeap::new(), spacing_time: 0 }
    }

    /// A scheduler whose SpacT starts at `spacing_time` rather than 0 (as after a long run).
    #[cfg(test)]
    pub(super) fn starting_at(spacing: Vec<u64>, spacing_time: u64) -> Self {
        VirtualSpacing { spacing_time, ..Self::new(spacing) }
    }

    /// SpacT less the stamps' base (for the tests: it falls when the base moves up).
    #[cfg(test)]
    pub(super) fn spacing_time(&self) -> u64 {
        self.spacing_time
    }

    /// Moves the base up to SpacT: every stamp less SpacT (none is below it), the order kept.
    #[cold]
    #[inline(never)]
    fn rebase(&mut self) {
        let base = self.spacing_time;
        let entries = std::mem::take(&mut self.backlogged).into_vec();
        self.backlogged = entries
            .into_iter()
            .map(|entry| {
                let (stamp, queue) = stamp_and_queue(&entry);
                backlogged(stamp - base, queue)
            })
            .collect();
        self.spacing_time = 0;
    }
}

impl CellScheduler for VirtualSpacing {
    const NAME: &'static str = "virtual-spacing";

    const WEIGHTED: bool = true;

    fn with_queue_weights(queue_weights: &[u64]) -> Self {
        Self::new(weights::spacings(queue_weights))
    }

    #[inline(never)]
    fn on_backlogged(&mut self, queue: u16, _class: u8, _now: SimTime) {
        // The queue's last stamp was served, so it is at most SpacT: max(SpacT, VS_i) = SpacT.
        let stamp = self.spacing_time + self.spacing[usize::from(queue)];
        self.backlogged.push(backlogged(stamp, queue));
    }

    #[inline]
    fn pick(&mut self, _now: SimTime) -> Pick {
        match self.backlogged.peek() {
            Some(entry) => Pick::Queue(stamp_and_queue(entry).1),
            None => Pick::Empty,
        }
    }

    /// (The queue `pick` answered: its dequeue follows at once.)
    #[inline(always)]
    fn on_dequeue(&mut self, queue: u16, now_empty: bool, _now: SimTime) {
        let mut top = self.backlogged.peek_mut().expect("dequeued from a scheduler with nothing backlogged");
        let (stamp, picked) = stamp_and_queue(&top);
        debug_assert_eq!(picked, queue, "dequeued from a queue that was not picked");
        self.spacing_time = stamp;
        if now_empty {
            std::collections::binary_heap::PeekMut::pop(top);
        } else {
            // (The new stamp sinks to its place as `top` is dropped.)
            *top = backlogged(stamp + self.spacing[usize::from(queue)], queue);
            drop(top);
        }
        if self.spacing_time >= REBASE_AT {
            self.rebase();
        }
    }
}
