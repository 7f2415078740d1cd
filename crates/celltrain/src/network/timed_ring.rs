//! A FIFO of timed entries (a link's cells in propagation, an analytic port's start times)
//! whose earliest time is kept at hand.

use celltrain_core::time::SimTime;

/// Entries `(time, value)` in increasing time: a ring of power-of-two size whose head's time is
/// also kept in a field of its own. The checks made on every cell — has any cell started by now
/// at this analytic port, has the pipe's head arrived — are then one comparison, and a removal
/// a mask and a load (a `VecDeque` spent about 25 instructions a cell on each).
#[derive(Debug)]
pub(super) struct TimedRing<T> {
    ring: Vec<(SimTime, T)>,
    head: usize,
    len: usize,
    /// The head's time; `SimTime::MAX` when empty (no entry is that late).
    first: SimTime,
}

/// An analytic port's start times of the cells it has admitted and not started yet.
pub(super) type StartTimes = TimedRing<()>;

impl<T: Copy> TimedRing<T> {
    pub(super) fn new() -> Self {
        TimedRing { ring: Vec::new(), head: 0, len: 0, first: SimTime::MAX }
    }

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The head's time, if any.
    #[inline]
    pub(super) fn first_time(&self) -> Option<SimTime> {
        (self.len > 0).then_some(self.first)
    }

    /// Whether the head's time is no later than `now`.
    #[inline(always)]
    pub(super) fn any_due(&self, now: SimTime) -> bool {
        self.first <= now
    }

    /// Appends an entry no earlier than any held.
    #[inline]
    pub(super) fn push_back(&mut self, time: SimTime, value: T) {
        if self.len == self.ring.len() {
            self.grow(1, value);
        }
        self.write(time, value);
    }

    /// Makes room for `more` entries beyond those held (so that `push_back` will not grow);
    /// `like` is any value (it fills the new room until written).
    #[inline]
    pub(super) fn reserve(&mut self, more: usize, like: T) {
        if self.len + more > self.ring.len() {
            self.grow(more, like);
        }
    }

    #[inline(always)]
    fn write(&mut self, time: SimTime, value: T) {
        debug_assert!(self.len == 0 || self.at(self.len - 1).0 <= time, "entries in time order");
        let mask = self.ring.len() - 1;
        self.ring[(self.head + self.len) & mask] = (time, value);
        if self.len == 0 {
            self.first = time;
        }
        self.len += 1;
    }

    /// Removes and returns the head if its time is no later than `now`.
    #[inline]
    pub(super) fn pop_due(&mut self, now: SimTime) -> Option<(SimTime, T)> {
        if self.first > now {
            return None;
        }
        Some(self.take_head())
    }

    /// Removes and returns the head, if any.
    #[inline]
    pub(super) fn pop_front(&mut self) -> Option<(SimTime, T)> {
        (self.len > 0).then(|| self.take_head())
    }

    #[inline(always)]
    fn take_head(&mut self) -> (SimTime, T) {
        let mask = self.ring.len() - 1;
        let entry = self.ring[self.head & mask];
        self.len -= 1;
        self.head = (self.head + 1) & mask;
        self.first = if self.len == 0 { SimTime::MAX } else { self.ring[self.head].0 };
        entry
    }

    /// The k-th entry from the head.
    fn at(&self, k: usize) -> (SimTime, T) {
        self.ring[(self.head + k) & (self.ring.len() - 1)]
    }

    /// The entries, head first.
    pub(super) fn iter(&self) -> impl Iterator<Item = (SimTime, T)> + '_ {
        (0..self.len).map(|k| self.at(k))
    }

    /// Grows the ring to the least power of two (from 16) that holds `more` entries beyond
    /// those held, keeping the order (`like` fills the room).
    #[cold]
    fn grow(&mut self, more: usize, like: T) {
        let size = (self.len + more).next_power_of_two().max(16).max(self.ring.len() * 2);
        let mut ring = Vec::with_capacity(size);
        ring.extend(self.iter());
        ring.resize(size, (SimTime::ZERO, like));
        self.ring = ring;
        self.head = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// Against a `VecDeque` through growth and wrap-around: the same entries come out by the
    /// same deadlines, and iteration sees what the deque holds.
    #[test]
    fn releases_what_a_deque_releases() {
        let t = SimTime::from_picos;
        let mut ring = TimedRing::new();
        let mut deque = VecDeque::new();
        let (mut next, mut now) = (0u64, 0u64);
        for step in 0..5000u64 {
            // Bursts of arrivals of varying size (some after a reservation), then a deadline
            // that releases some.
            let burst = step * 7919 % 13;
            if step % 5 == 0 {
                ring.reserve(burst as usize, 0);
            }
            for k in 0..burst {
                next += 1 + step % 3;
                ring.push_back(t(next), step * 100 + k);
                deque.push_back((t(next), step * 100 + k));
            }
            now += step % 11;
            loop {
                let expected = deque.front().copied().filter(|&(s, _)| s <= t(now));
                if expected.is_some() {
                    deque.pop_front();
                }
                assert_eq!(ring.pop_due(t(now)), expected, "step {step}");
                if expected.is_none() {
                    break;
                }
            }
            assert_eq!((ring.len(), ring.is_empty()), (deque.len(), deque.is_empty()));
            assert_eq!(ring.first_time(), deque.front().map(|&(s, _)| s));
            if step % 97 == 0 {
                assert!(ring.iter().eq(deque.iter().copied()));
            }
        }
        assert!(ring.ring.len() > 16, "the ring grew");
        while let Some(entry) = ring.pop_front() {
            assert_eq!(Some(entry), deque.pop_front());
        }
        assert!(deque.is_empty());
    }
}
