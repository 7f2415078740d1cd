//! A queue of copyable values in a ring whose length is a power of two: the index of a place
//! is masked (where `VecDeque`'s is compared and wrapped), which the compiler knows to be in
//! bounds. For the start times an analytic port keeps, the cells in a link's pipe and in a
//! port's queues, pushed and popped once a cell, and a round robin's backlogged queues, turned
//! once a cell.

/// A first-in, first-out queue of `T`, grown by doubling.
#[derive(Clone, Debug)]
pub struct Ring<T: Copy + Default> {
    slots: Box<[T]>,
    first: usize,
    len: usize,
}

impl<T: Copy + Default> Default for Ring<T> {
    fn default() -> Self {
        Ring { slots: vec![T::default(); 16].into_boxed_slice(), first: 0, len: 0 }
    }
}

impl<T: Copy + Default> Ring<T> {
    /// Place `i` of the ring.
    #[inline(always)]
    fn at(&self, i: usize) -> usize {
        i & (self.slots.len() - 1)
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// The oldest value.
    #[inline]
    pub fn front(&self) -> Option<T> {
        (self.len > 0).then(|| self.slots[self.first])
    }

    /// The newest value.
    #[inline]
    pub fn back(&self) -> Option<T> {
        (self.len > 0).then(|| self.slots[self.at(self.first + self.len - 1)])
    }

    /// The values from the `skip`-th oldest on, oldest first.
    #[inline]
    pub fn iter_from(&self, skip: usize) -> impl Iterator<Item = T> + '_ {
        (skip..self.len).map(move |k| self.slots[self.at(self.first + k)])
    }

    /// The values, oldest first.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = T> + '_ {
        self.iter_from(0)
    }

    /// Keeps the values `keep` accepts, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        let mut kept = 0;
        for k in 0..self.len {
            let value = self.slots[self.at(self.first + k)];
            if keep(&value) {
                let to = self.at(self.first + kept);
                self.slots[to] = value;
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Drops the oldest value (there is one).
    #[inline]
    pub fn pop_front(&mut self) {
        debug_assert!(self.len > 0, "pop from an empty ring");
        self.first = self.at(self.first + 1);
        self.len -= 1;
    }

    /// Moves the oldest value to the back (there is one), as a `pop_front` and a `push_back` of
    /// it would, with no room to check: a round robin's turn.
    #[inline]
    pub fn rotate_front_to_back(&mut self) {
        debug_assert!(self.len > 0, "rotate an empty ring");
        let back = self.at(self.first + self.len);
        self.slots[back] = self.slots[self.first];
        self.first = self.at(self.first + 1);
    }

    /// (Always inlined: left to the compiler it became a call in some builds, A1-udp 1 % more
    /// instructions; its growth is out of line.)
    #[inline(always)]
    pub fn push_back(&mut self, value: T) {
        if self.len == self.slots.len() {
            self.grow();
        }
        let i = self.at(self.first + self.len);
        self.slots[i] = value;
        self.len += 1;
    }

    /// Twice the room, the values in order from the start.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let mut slots = vec![T::default(); self.slots.len() * 2].into_boxed_slice();
        for (k, slot) in slots.iter_mut().take(self.len).enumerate() {
            *slot = self.slots[self.at(self.first + k)];
        }
        self.slots = slots;
        self.first = 0;
    }
}

impl<T: Copy + Default> Extend<T> for Ring<T> {
    /// Room for as many as the values say they are first, then each written in turn.
    #[inline]
    fn extend<I: IntoIterator<Item = T>>(&mut self, values: I) {
        let values = values.into_iter();
        while self.slots.len() < self.len + values.size_hint().0 {
            self.grow();
        }
        for value in values {
            self.push_back(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// Against `VecDeque`: pushes, runs pushed at once, pops and retains in random runs,
    /// through wrap-arounds and growth, read from both ends and in order.
    #[test]
    fn the_ring_is_a_fifo() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut draw = |below: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % below
        };
        let mut ring: Ring<u64> = Ring::default();
        let mut reference = VecDeque::new();
        for step in 0..20_000u64 {
            let choice = draw(10);
            if choice < 5 {
                for k in 0..draw(40) {
                    ring.push_back(step * 100 + k);
                    reference.push_back(step * 100 + k);
                }
            } else if choice == 5 {
                // (A run at once: room made first, from the run's own count.)
                let n = draw(70);
                ring.extend((0..n).map(|k| step * 100 + k));
                reference.extend((0..n).map(|k| step * 100 + k));
            } else if choice == 6 && draw(2) == 0 {
                // (A round robin's turns, as a pop and a push of the value popped.)
                for _ in 0..draw(20) {
                    if let Some(front) = reference.pop_front() {
                        reference.push_back(front);
                        ring.rotate_front_to_back();
                    }
                }
            } else if choice == 6 {
                let by = draw(4) + 2;
                ring.retain(|v| v % by != 0);
                reference.retain(|v| v % by != 0);
            } else {
                for _ in 0..draw(40) {
                    assert_eq!(ring.front(), reference.front().copied());
                    if reference.pop_front().is_some() {
                        ring.pop_front();
                    }
                }
            }
            assert_eq!((ring.len(), ring.is_empty()), (reference.len(), reference.is_empty()));
            assert_eq!(ring.front(), reference.front().copied());
            assert_eq!(ring.back(), reference.back().copied());
            let skip = draw(reference.len() as u64 + 2) as usize;
            assert!(ring.iter_from(skip).eq(reference.iter().skip(skip).copied()));
            assert!(ring.iter().eq(reference.iter().copied()));
        }
    }

    /// A full ring turns too: its back is its front's place.
    #[test]
    fn a_full_ring_rotates() {
        let mut ring: Ring<u32> = Ring::default();
        ring.extend(0..16);
        ring.pop_front();
        ring.push_back(16);
        for turn in 0..40 {
            let expected: Vec<u32> = (0..16).map(|k| 1 + (turn + k) % 16).collect();
            assert!(ring.iter().eq(expected.iter().copied()), "turn {turn}");
            ring.rotate_front_to_back();
        }
    }
}
