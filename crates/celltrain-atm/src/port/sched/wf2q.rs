//! WF²Q+ for cells (J. C. R. Bennett, H. Zhang, "Hierarchical packet fair queueing
//! algorithms", IEEE/ACM Transactions on Networking 5(5), 1997): each backlogged queue has a
//! virtual start S and finish F one spacing apart; among the queues whose start has come
//! (S ≤ V) the smallest finish is served; the system virtual time V advances one cell per cell
//! sent, and jumps to the smallest start when every backlogged queue is ahead of it. Served
//! within one cell of its share of a fluid fair server (GPS), and work-conserving.

use super::{weights, CellScheduler, Pick};
use celltrain_core::time::SimTime;

/// A backlogged queue's tags (kept together: `pick` scans them).
#[derive(Clone, Copy, Debug)]
struct Backlogged {
    start: u64,
    finish: u64,
    queue: u16,
}

#[derive(Clone, Debug)]
pub struct Wf2qPlus {
    /// Per queue: δ_i (see `weights`).
    spacing: Vec<u64>,
    /// Per queue: F of its last cell (where an idle queue starts from).
    last_finish: Vec<u64>,
    /// Backlogged queues, in no particular order (a port has few; a scan is cheaper than a heap).
    backlogged: Vec<Backlogged>,
    /// Index in `backlogged` of the queue `pick` answered (its dequeue follows at once).
    picked: usize,
    /// System virtual time.
    virtual_time: u64,
}

impl Wf2qPlus {
    pub fn new(spacing: Vec<u64>) -> Self {
        let n = spacing.len();
        Wf2qPlus { spacing, last_finish: vec![0; n], backlogged: Vec::new(), picked: 0, virtual_time: 0 }
    }
}

impl CellScheduler for Wf2qPlus {
    const NAME: &'static str = "wfq";

    const WEIGHTED: bool = true;

    fn with_queue_weights(queue_weights: &[u64]) -> Self {
        Self::new(weights::spacings(queue_weights))
    }

    #[inline(never)]
    fn on_backlogged(&mut self, queue: u16, _class: u8, _now: SimTime) {
        let q = usize::from(queue);
        let start = self.last_finish[q].max(self.virtual_time);
        self.backlogged.push(Backlogged { start, finish: start + self.spacing[q], queue });
    }

    /// One pass: the smallest (F, queue) among the queues started by V, and the smallest
    /// (S, F, queue) overall, which is the answer when V must first jump to the smallest start.
    /// (Plain comparisons on sentinels rather than `Option`s of tuples: this runs per cell.)
    #[inline(never)]
    fn pick(&mut self, _now: SimTime) -> Pick {
        let v = self.virtual_time;
        let (mut f_best, mut q_best, mut i_best) = (u64::MAX, u16::MAX, usize::MAX);
        let (mut s_min, mut f_min, mut q_min, mut i_min) = (u64::MAX, u64::MAX, u16::MAX, usize::MAX);
        for (i, b) in self.backlogged.iter().enumerate() {
            if b.start <= v {
                if b.finish < f_best || (b.finish == f_best && b.queue < q_best) {
                    (f_best, q_best, i_best) = (b.finish, b.queue, i);
                }
            } else if b.start < s_min
                || (b.start == s_min && (b.finish < f_min || (b.finish == f_min && b.queue < q_min)))
            {
                (s_min, f_min, q_min, i_min) = (b.start, b.finish, b.queue, i);
            }
        }
        if i_best != usize::MAX {
            self.picked = i_best;
            return Pick::Queue(q_best);
        }
        if i_min == usize::MAX {
            return Pick::Empty;
        }
        // V = max(V, min S): the queues starting at min S are eligible.
        self.virtual_time = s_min;
        self.picked = i_min;
        Pick::Queue(q_min)
    }

    #[inline]
    fn on_dequeue(&mut self, queue: u16, now_empty: bool, _now: SimTime) {
        let i = self.picked;
        debug_assert_eq!(self.backlogged[i].queue, queue, "dequeued from a queue that was not picked");
        self.virtual_time += super::weights::CELL_UNIT;
        let b = &mut self.backlogged[i];
        if now_empty {
            self.last_finish[usize::from(queue)] = b.finish;
            self.backlogged.swap_remove(i);
        } else {
            b.start = b.finish;
            b.finish += self.spacing[usize::from(queue)];
        }
    }
}
