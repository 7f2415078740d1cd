//! Virtual Spacing (J. W. Roberts, "Virtual spacing for flexible traffic control",
//! International Journal of Communication Systems 7, 1994), in its head-of-line form: each
//! backlogged queue carries the stamp of its head cell, VS_i = max(SpacT, VS_i) + δ_i; the
//! smallest stamp is served (ties: the lower queue) and the spacing time SpacT becomes that
//! stamp. This is self-clocked fair queueing for fixed-size packets (S. J. Golestani, INFOCOM
//! 1994); work-conserving.

use super::{CellScheduler, Pick};
use celltrain_core::time::SimTime;

/// A backlogged queue and the stamp of its head cell (kept together: `pick` scans them).
#[derive(Clone, Copy, Debug)]
struct Backlogged {
    stamp: u64,
    queue: u16,
}

#[derive(Clone, Debug)]
pub struct VirtualSpacing {
    /// Per queue: δ_i (see `weights`).
    spacing: Vec<u64>,
    backlogged: Vec<Backlogged>,
    /// Index in `backlogged` of the queue `pick` answered (its dequeue follows at once).
    picked: usize,
    /// SpacT: the stamp of the cell served last.
    spacing_time: u64,
}

impl VirtualSpacing {
    pub fn new(spacing: Vec<u64>) -> Self {
        VirtualSpacing { spacing, backlogged: Vec::new(), picked: 0, spacing_time: 0 }
    }
}

impl CellScheduler for VirtualSpacing {
    const NAME: &'static str = "virtual-spacing";

    #[inline(never)]
    fn on_enqueue(&mut self, queue: u16, _class: u8, was_empty: bool, _now: SimTime) {
        if was_empty {
            // The queue's last stamp was served, so it is at most SpacT: max(SpacT, VS_i) = SpacT.
            let stamp = self.spacing_time + self.spacing[usize::from(queue)];
            self.backlogged.push(Backlogged { stamp, queue });
        }
    }

    #[inline(never)]
    fn pick(&mut self, _now: SimTime) -> Pick {
        let (mut s_best, mut q_best, mut i_best) = (u64::MAX, u16::MAX, usize::MAX);
        for (i, b) in self.backlogged.iter().enumerate() {
            if b.stamp < s_best || (b.stamp == s_best && b.queue < q_best) {
                (s_best, q_best, i_best) = (b.stamp, b.queue, i);
            }
        }
        if i_best == usize::MAX {
            return Pick::Empty;
        }
        self.picked = i_best;
        Pick::Queue(q_best)
    }

    #[inline(never)]
    fn on_dequeue(&mut self, queue: u16, now_empty: bool, _now: SimTime) {
        let i = self.picked;
        debug_assert_eq!(self.backlogged[i].queue, queue, "dequeued from a queue that was not picked");
        let b = &mut self.backlogged[i];
        self.spacing_time = b.stamp;
        if now_empty {
            self.backlogged.swap_remove(i);
        } else {
            b.stamp += self.spacing[usize::from(queue)];
        }
    }
}
