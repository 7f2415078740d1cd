//! Strict priority between classes, round robin between the backlogged queues of a class.

use super::{CellScheduler, Pick};
use crate::category::ServiceCategory;
use celltrain_core::ring::Ring;
use celltrain_core::time::SimTime;

/// Class c is served only when every class below c is empty (class 0 first); inside a class the
/// backlogged queues take one cell each in turn. Work-conserving.
#[derive(Clone, Debug, Default)]
pub struct PriorityRoundRobin {
    /// Per class: backlogged queues in round-robin order.
    active: [Ring<u16>; ServiceCategory::COUNT],
    /// Bit c set when class c has a backlogged queue.
    backlogged_classes: u32,
    /// The class of the queue last picked (its dequeue follows at once).
    picked_class: u8,
}

impl CellScheduler for PriorityRoundRobin {
    const NAME: &'static str = "priority";
    const WEIGHTED: bool = false;

    fn with_queue_weights(_: &[u64]) -> Self {
        Self::default()
    }

    #[inline]
    fn on_backlogged(&mut self, queue: u16, class: u8, _now: SimTime) {
        self.active[class as usize].push_back(queue);
        self.backlogged_classes |= 1 << class;
    }

    #[inline]
    fn pick(&mut self, _now: SimTime) -> Pick {
        if self.backlogged_classes == 0 {
            return Pick::Empty;
        }
        let class = self.backlogged_classes.trailing_zeros() as usize;
        self.picked_class = class as u8;
        Pick::Queue(self.active[class].front().expect("backlogged class has an active queue"))
    }

    /// The picked queue (the front of the highest backlogged class) gave a cell.
    #[inline]
    fn on_dequeue(&mut self, queue: u16, now_empty: bool, _now: SimTime) {
        let class = usize::from(self.picked_class);
        let ring = &mut self.active[class];
        debug_assert_eq!(ring.front(), Some(queue), "dequeued from a queue that was not picked");
        if now_empty {
            ring.pop_front();
            if ring.is_empty() {
                self.backlogged_classes &= !(1 << class);
            }
        } else if ring.len() > 1 {
            // Round robin: the queue goes behind the others (alone, it stays where it is).
            ring.rotate_front_to_back();
        }
    }
}
