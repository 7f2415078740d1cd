//! The pending-event set, ordered by (time, insertion sequence).
//!
//! Components keep at most a few pending events each (a busy port's "free" event, a link's
//! head-arrival event, a source's next tick), so the heap holds O(components) entries, never
//! O(cells).

use crate::time::SimTime;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

struct Entry<E> {
    time: SimTime,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.time == other.time && self.seq == other.seq
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    /// Reversed so that `BinaryHeap` (a max-heap) pops the earliest (time, seq) first.
    fn cmp(&self, other: &Self) -> Ordering {
        other.time.cmp(&self.time).then_with(|| other.seq.cmp(&self.seq))
    }
}

/// A min-priority queue of events keyed by (time, insertion sequence): FIFO among equal times.
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    next_seq: u64,
}

impl<E: Copy> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Copy> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue { heap: BinaryHeap::with_capacity(64), next_seq: 0 }
    }

    /// Schedules `event` at `time`. Among events at the same time, earlier calls run first.
    pub fn schedule(&mut self, time: SimTime, event: E) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Entry { time, seq, event });
    }

    /// Removes and returns the earliest event if it is due no later than `deadline`.
    pub fn pop_until(&mut self, deadline: SimTime) -> Option<(SimTime, E)> {
        if self.heap.peek()?.time > deadline {
            return None;
        }
        self.heap.pop().map(|e| (e.time, e.event))
    }

    /// Time of the earliest pending event.
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|e| e.time)
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_by_time_then_insertion() {
        let mut q = EventQueue::new();
        let t = |ps| SimTime::from_picos(ps);
        q.schedule(t(5), 'a');
        q.schedule(t(1), 'b');
        q.schedule(t(5), 'c');
        q.schedule(t(1), 'd');
        q.schedule(t(3), 'e');
        let order: Vec<char> = std::iter::from_fn(|| q.pop_until(SimTime::MAX).map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['b', 'd', 'e', 'a', 'c']);
    }

    #[test]
    fn deadline_stops_pop() {
        let mut q = EventQueue::new();
        q.schedule(SimTime::from_picos(10), 1u8);
        assert!(q.pop_until(SimTime::from_picos(9)).is_none());
        assert_eq!(q.pop_until(SimTime::from_picos(10)), Some((SimTime::from_picos(10), 1)));
    }
}
