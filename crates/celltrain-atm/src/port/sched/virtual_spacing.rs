//! Virtual Spacing (J. W. Roberts, "Virtual spacing for flexible traffic control",
//! International Journal of Communication Systems 7, 1994), in its head-of-line form: each
//! backlogged queue carries the stamp of its head cell, VS_i = max(SpacT, VS_i) + δ_i; the
//! smallest stamp is served (ties: the lower queue) and the spacing time SpacT becomes that
//! stamp. This is self-clocked fair queueing for fixed-size packets (S. J. Golestani, INFOCOM
//! 1994); work-conserving.

use super::Pick;

#[derive(Clone, Debug)]
pub struct VirtualSpacing {
    /// Per queue: δ_i (see `weights`).
    spacing: Vec<u64>,
    /// Per queue: the stamp of its head cell (meaningful while backlogged).
    stamp: Vec<u64>,
    backlogged: Vec<u16>,
    /// SpacT: the stamp of the cell served last.
    spacing_time: u64,
}

impl VirtualSpacing {
    pub fn new(spacing: Vec<u64>) -> Self {
        let n = spacing.len();
        VirtualSpacing { spacing, stamp: vec![0; n], backlogged: Vec::new(), spacing_time: 0 }
    }

    #[inline]
    pub fn on_enqueue(&mut self, queue: u16, was_empty: bool) {
        if was_empty {
            // The queue's last stamp was served, so it is at most SpacT: max(SpacT, VS_i) = SpacT.
            let q = usize::from(queue);
            self.stamp[q] = self.spacing_time + self.spacing[q];
            self.backlogged.push(queue);
        }
    }

    #[inline]
    pub fn pick(&self) -> Pick {
        match self.backlogged.iter().map(|&q| (self.stamp[usize::from(q)], q)).min() {
            Some((_, q)) => Pick::Queue(q),
            None => Pick::Empty,
        }
    }

    #[inline]
    pub fn on_dequeue(&mut self, queue: u16, now_empty: bool) {
        let q = usize::from(queue);
        self.spacing_time = self.stamp[q];
        if now_empty {
            let at = self.backlogged.iter().position(|&b| b == queue).expect("a backlogged queue was served");
            self.backlogged.swap_remove(at);
        } else {
            self.stamp[q] = self.spacing_time + self.spacing[q];
        }
    }
}
