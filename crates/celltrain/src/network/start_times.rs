//! The start times of the cells an analytic port has admitted and not yet started.

use celltrain_core::time::SimTime;

/// Start times in increasing order: a ring of power-of-two size whose earliest entry is also
/// kept in a field of its own. Every arrival at an analytic port first asks which cells have
/// started by now; with the earliest at hand that is one comparison, and a release is a mask
/// and a load (a `VecDeque` spent about 45 instructions a cell here on twin a).
#[derive(Debug, Default)]
pub(super) struct StartTimes {
    ring: Vec<SimTime>,
    head: usize,
    len: usize,
    /// The earliest start time held; `SimTime::MAX` when none is (no start is that late).
    first: SimTime,
}

impl StartTimes {
    pub(super) fn new() -> Self {
        StartTimes { ring: Vec::new(), head: 0, len: 0, first: SimTime::MAX }
    }

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Adds a start time no earlier than any held.
    #[inline]
    pub(super) fn push_back(&mut self, start: SimTime) {
        debug_assert!(self.len == 0 || self.ring[(self.head + self.len - 1) & (self.ring.len() - 1)] <= start);
        if self.len == self.ring.len() {
            self.grow();
        }
        let mask = self.ring.len() - 1;
        self.ring[(self.head + self.len) & mask] = start;
        if self.len == 0 {
            self.first = start;
        }
        self.len += 1;
    }

    /// Removes and returns the earliest start time if it is no later than `now`.
    #[inline]
    pub(super) fn pop_due(&mut self, now: SimTime) -> Option<SimTime> {
        if self.first > now {
            return None;
        }
        let start = self.first;
        self.len -= 1;
        self.head = (self.head + 1) & (self.ring.len() - 1);
        self.first = if self.len == 0 { SimTime::MAX } else { self.ring[self.head] };
        Some(start)
    }

    /// Doubles the ring (from 16), keeping the order.
    #[cold]
    fn grow(&mut self) {
        let size = (self.ring.len() * 2).max(16);
        let mut ring = Vec::with_capacity(size);
        let mask = self.ring.len().wrapping_sub(1);
        ring.extend((0..self.len).map(|k| self.ring[(self.head + k) & mask]));
        ring.resize(size, SimTime::ZERO);
        self.ring = ring;
        self.head = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// Against a `VecDeque` through growth and wrap-around: the same times come out by the
    /// same deadlines.
    #[test]
    fn releases_what_a_deque_releases() {
        let t = SimTime::from_picos;
        let mut ring = StartTimes::new();
        let mut deque = VecDeque::new();
        let (mut next, mut now) = (0u64, 0u64);
        for step in 0..5000u64 {
            // Bursts of arrivals of varying size, then a deadline that releases some.
            for _ in 0..(step * 7919 % 13) {
                next += 1 + step % 3;
                ring.push_back(t(next));
                deque.push_back(t(next));
            }
            now += step % 11;
            loop {
                let expected = deque.front().copied().filter(|&s| s <= t(now));
                if expected.is_some() {
                    deque.pop_front();
                }
                assert_eq!(ring.pop_due(t(now)), expected, "step {step}");
                if expected.is_none() {
                    break;
                }
            }
            assert_eq!((ring.len(), ring.is_empty()), (deque.len(), deque.is_empty()));
        }
        assert!(ring.ring.len() > 16, "the ring grew");
    }
}
