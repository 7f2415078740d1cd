//! The VCs of a single-FIFO port's virtually queued cells, oldest first: a ring of slots that
//! grows by doubling and never shrinks, so the steady state allocates nothing and a cell in or
//! out is one store or load and a mask.

use super::buffer::UNKNOWN_SLOT;

/// A FIFO of slot indices.
#[derive(Clone, Debug, Default)]
pub(super) struct SlotRing {
    /// Length a power of two (or zero before the first push).
    buf: Vec<u32>,
    head: usize,
    len: usize,
}

impl SlotRing {
    /// Appends `cells` cells of the VC in `slot`.
    #[inline]
    pub(super) fn push(&mut self, slot: u32, cells: u32) {
        let cells = cells as usize;
        if self.len + cells > self.buf.len() {
            self.grow(self.len + cells);
        }
        let mask = self.buf.len() - 1;
        for k in 0..cells {
            self.buf[(self.head + self.len + k) & mask] = slot;
        }
        self.len += cells;
    }

    /// Removes the oldest cell's slot ([`UNKNOWN_SLOT`] if there is none, which would be a
    /// departure the port never admitted).
    #[inline]
    pub(super) fn pop(&mut self) -> u32 {
        if self.len == 0 {
            debug_assert!(false, "a departure from an empty slot ring");
            return UNKNOWN_SLOT;
        }
        let slot = self.buf[self.head];
        self.head = (self.head + 1) & (self.buf.len() - 1);
        self.len -= 1;
        slot
    }

    #[cold]
    fn grow(&mut self, needed: usize) {
        let size = needed.next_power_of_two().max(16);
        let mut buf = Vec::with_capacity(size);
        buf.extend((0..self.len).map(|k| self.buf[(self.head + k) & (self.buf.len().max(1) - 1)]));
        buf.resize(size, 0);
        self.buf = buf;
        self.head = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::SlotRing;
    use celltrain_core::rng::RngStream;
    use std::collections::VecDeque;

    #[test]
    fn the_ring_is_a_fifo_through_growth_and_wrap_around() {
        let mut rng = RngStream::derive(4, "slot-ring");
        let (mut ring, mut model) = (SlotRing::default(), VecDeque::new());
        for _ in 0..50_000 {
            if rng.below(2) == 0 {
                let (slot, cells) = (rng.below(7) as u32, rng.below(40) as u32);
                ring.push(slot, cells);
                model.extend((0..cells).map(|_| slot));
            } else {
                for _ in 0..rng.below(40).min(model.len() as u64) {
                    assert_eq!(Some(ring.pop()), model.pop_front());
                }
            }
        }
        assert!(ring.buf.len() <= 4 * model.len().max(64), "grows only as needed: {}", ring.buf.len());
    }
}
