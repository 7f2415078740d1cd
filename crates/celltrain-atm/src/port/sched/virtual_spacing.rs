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

/// A backlogged queue as the heap holds it: the stamp of its head cell, then the queue, in one
/// key (`stamp << 16 | queue`: one compare, where a pair takes two and a branch), least first,
/// so the order is the service order, ties to the lower queue (keys are unique).
type Backlogged = Reverse<u128>;

#[inline(always)]
fn backlogged(stamp: u64, queue: u16) -> Backlogged {
    Reverse(u128::from(stamp) << 16 | u128::from(queue))
}

/// The stamp and the queue of a heap entry.
#[inline(always)]
fn stamp_and_queue(entry: &Backlogged) -> (u64, u16) {
    ((entry.0 >> 16) as u64, entry.0 as u16)
}

#[derive(Clone, Debug)]
pub struct VirtualSpacing {
    /// Per queue: δ_i (see `weights`).
    spacing: Vec<u64>,
    /// The backlogged queues, the next to serve at the top.
    backlogged: BinaryHeap<Backlogged>,
    /// SpacT: the stamp of the cell served last.
    spacing_time: u64,
}

impl VirtualSpacing {
    pub fn new(spacing: Vec<u64>) -> Self {
        VirtualSpacing { spacing, backlogged: BinaryHeap::new(), spacing_time: 0 }
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
        }
    }
}
