//! A queue of copyable values in a ring whose length is a power of two: the index of a place
//! is masked (where `VecDeque`'s is compared and wrapped), which the compiler knows to be in
//! bounds. For the start times an analytic port keeps, pushed and popped once a cell.

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

    /// Drops the oldest value (there is one).
    #[inline]
    pub fn pop_front(&mut self) {
        debug_assert!(self.len > 0, "pop from an empty ring");
        self.first = self.at(self.first + 1);
        self.len -= 1;
    }

    #[inline]
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
    fn extend<I: IntoIterator<Item = T>>(&mut self, values: I) {
        for value in values {
            self.push_back(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// Against `VecDeque`: pushes and pops in random runs, through wrap-arounds and growth.
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
            if draw(5) < 3 {
                for k in 0..draw(40) {
                    ring.push_back(step * 100 + k);
                    reference.push_back(step * 100 + k);
                }
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
        }
    }
}
