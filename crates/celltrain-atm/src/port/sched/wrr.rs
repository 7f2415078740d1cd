//! Weighted round robin (M. Katevenis, S. Sidiropoulos, C. Courcoubetis, "Weighted round-robin
//! cell multiplexing in a general-purpose ATM switch chip", IEEE JSAC 9(8), 1991): rounds visit
//! the queues in a fixed order, and each backlogged queue sends up to its quantum of cells in its
//! turn; empty queues are skipped, so the scheduler is work-conserving.
//!
//! Quanta are integers proportional to the weights: the weights divided by their greatest
//! common divisor, and when the largest is above [`MAX_QUANTUM`], all scaled down to it and
//! rounded (at least one cell). So MCRs of 10, 5 and 2.5 Mbit/s send 4, 2 and 1 cells a round,
//! exactly their ratio; weights with no small ratio (a VC without an MCR weighs 1 bit/s against
//! GFR VCs' millions) are served within one cell a round of their share.

use super::{CellScheduler, Pick};
use celltrain_core::time::SimTime;

/// The largest quantum, in cells: a longer turn makes the other queues wait longer for theirs.
pub const MAX_QUANTUM: u64 = 64;

#[derive(Clone, Debug)]
pub struct WeightedRoundRobin {
    /// Per queue: cells a turn.
    quantum: Vec<u32>,
    backlogged: Vec<bool>,
    backlogged_queues: usize,
    /// The queue whose turn it is, and the cells it has sent in this turn.
    turn: usize,
    sent: u32,
}

impl WeightedRoundRobin {
    /// For queues of the given weights (a zero weight counts as 1).
    pub fn new(weights: &[u64]) -> Self {
        let quantum = quanta(weights);
        let n = quantum.len();
        WeightedRoundRobin { quantum, backlogged: vec![false; n], backlogged_queues: 0, turn: 0, sent: 0 }
    }
}

/// Cells a turn for each weight (see the module's note).
pub fn quanta(weights: &[u64]) -> Vec<u32> {
    let weights: Vec<u64> = weights.iter().map(|&w| w.max(1)).collect();
    let divisor = weights.iter().copied().reduce(gcd).unwrap_or(1);
    let reduced: Vec<u64> = weights.iter().map(|w| w / divisor).collect();
    let largest = reduced.iter().copied().max().unwrap_or(1);
    reduced
        .iter()
        .map(|&w| {
            let cells = if largest <= MAX_QUANTUM {
                w
            } else {
                // Rounded to the nearest cell, in integers: (w·MAX + largest/2) / largest.
                let scaled = (u128::from(w) * u128::from(MAX_QUANTUM) + u128::from(largest / 2)) / u128::from(largest);
                u64::try_from(scaled).expect("at most MAX_QUANTUM").max(1)
            };
            u32::try_from(cells).expect("at most MAX_QUANTUM")
        })
        .collect()
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl CellScheduler for WeightedRoundRobin {
    const NAME: &'static str = "wrr";

    const WEIGHTED: bool = true;

    fn with_queue_weights(queue_weights: &[u64]) -> Self {
        Self::new(queue_weights)
    }

    #[inline(never)]
    fn on_backlogged(&mut self, queue: u16, _class: u8, _now: SimTime) {
        self.backlogged[usize::from(queue)] = true;
        self.backlogged_queues += 1;
    }

    #[inline(never)]
    fn pick(&mut self, _now: SimTime) -> Pick {
        if self.backlogged_queues == 0 {
            return Pick::Empty;
        }
        if !self.backlogged[self.turn] || self.sent >= self.quantum[self.turn] {
            // The turn passes to the next backlogged queue in the round's order.
            let n = self.backlogged.len();
            let mut q = (self.turn + 1) % n;
            while !self.backlogged[q] {
                q = (q + 1) % n;
            }
            self.turn = q;
            self.sent = 0;
        }
        Pick::Queue(u16::try_from(self.turn).expect("queues are u16"))
    }

    #[inline]
    fn on_dequeue(&mut self, queue: u16, now_empty: bool, _now: SimTime) {
        debug_assert_eq!(usize::from(queue), self.turn, "dequeued from a queue that was not picked");
        self.sent += 1;
        if now_empty {
            self.backlogged[self.turn] = false;
            self.backlogged_queues -= 1;
        }
    }
}
