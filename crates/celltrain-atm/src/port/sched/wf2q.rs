//! WF²Q+ for cells (J. C. R. Bennett, H. Zhang, "Hierarchical packet fair queueing
//! algorithms", IEEE/ACM Transactions on Networking 5(5), 1997): each backlogged queue has a
//! virtual start S and finish F one spacing apart; among the queues whose start has come
//! (S ≤ V) the smallest finish is served; the system virtual time V advances one cell per cell
//! sent, and jumps to the smallest start when every backlogged queue is ahead of it. Served
//! within one cell of its share of a fluid fair server (GPS), and work-conserving.

use super::Pick;

#[derive(Clone, Debug)]
pub struct Wf2qPlus {
    /// Per queue: δ_i (see `weights`).
    spacing: Vec<u64>,
    start: Vec<u64>,
    finish: Vec<u64>,
    /// Backlogged queues, in no particular order (a port has few; a scan is cheaper than a heap).
    backlogged: Vec<u16>,
    /// System virtual time.
    virtual_time: u64,
}

impl Wf2qPlus {
    pub fn new(spacing: Vec<u64>) -> Self {
        let n = spacing.len();
        Wf2qPlus { spacing, start: vec![0; n], finish: vec![0; n], backlogged: Vec::new(), virtual_time: 0 }
    }

    #[inline]
    pub fn on_enqueue(&mut self, queue: u16, was_empty: bool) {
        if was_empty {
            let q = usize::from(queue);
            self.start[q] = self.finish[q].max(self.virtual_time);
            self.finish[q] = self.start[q] + self.spacing[q];
            self.backlogged.push(queue);
        }
    }

    #[inline]
    pub fn pick(&mut self) -> Pick {
        let Some(min_start) = self.backlogged.iter().map(|&q| self.start[usize::from(q)]).min() else {
            return Pick::Empty;
        };
        // V = max(V, min S): some queue is always eligible.
        self.virtual_time = self.virtual_time.max(min_start);
        let v = self.virtual_time;
        let mut best: Option<(u64, u16)> = None;
        for &q in &self.backlogged {
            let i = usize::from(q);
            if self.start[i] <= v && best.is_none_or(|b| (self.finish[i], q) < b) {
                best = Some((self.finish[i], q));
            }
        }
        Pick::Queue(best.expect("a queue starts at the minimum").1)
    }

    #[inline]
    pub fn on_dequeue(&mut self, queue: u16, now_empty: bool) {
        let q = usize::from(queue);
        self.virtual_time += super::weights::CELL_UNIT;
        if now_empty {
            let at = self.backlogged.iter().position(|&b| b == queue).expect("a backlogged queue was served");
            self.backlogged.swap_remove(at);
        } else {
            self.start[q] = self.finish[q];
            self.finish[q] = self.start[q] + self.spacing[q];
        }
    }
}
