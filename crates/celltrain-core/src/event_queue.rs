//! The pending-event set, ordered by (time, insertion sequence).
//!
//! Components keep at most a few pending events each (a busy port's "free" event, a pipe's
//! head-arrival event, a source's next tick), so the heap holds O(components) entries, never
//! O(cells). Events are encoded by the caller as 24-bit codes ([`EventCode`]) so an entry is two
//! words: the time, and the insertion sequence (upper 40 bits) with the code (lower 24 bits).
//! Comparing (time, tie) orders by time and then FIFO among equal times; 2⁴⁰ insertions
//! (10¹²) are more than any run makes. An event scheduled with
//! [`schedule_first`](EventQueue::schedule_first) takes sequence 0: first in its instant, by
//! rule; one scheduled with [`schedule_last`](EventQueue::schedule_last) a sequence a run never
//! reaches: after every other event of its instant, by rule too; and one scheduled with
//! [`schedule_closing`](EventQueue::schedule_closing) the sequence after that: after those
//! placed last as well. A place taken with [`reserve_late`](EventQueue::reserve_late) has one
//! of the sequences just below the last ones, by the caller's tie: after every event of its
//! instant placed in order, before those placed last.

use crate::time::SimTime;

/// Bits of an entry's tie word that hold the event code.
pub const CODE_BITS: u32 = 24;
const CODE_MASK: u64 = (1 << CODE_BITS) - 1;
/// The sequence of places set by [`EventQueue::schedule_last`]'s rule: above any a run takes,
/// below [`Place::after`]'s.
const LAST_SEQ: u64 = (1 << (64 - CODE_BITS)) - 3;
/// The sequence of places set by [`EventQueue::schedule_closing`]'s rule: above
/// [`LAST_SEQ`], below [`Place::after`]'s.
const CLOSING_SEQ: u64 = LAST_SEQ + 1;
/// Ties of late places ([`Place::late`]): 2²⁰, a component of each kind (see the event codes).
pub const LATE_TIES: u32 = 1 << 20;
/// The sequences of places set by [`EventQueue::reserve_late`]'s rule, from this one by tie:
/// above any a run takes, below [`LAST_SEQ`].
const LATE_SEQ: u64 = LAST_SEQ - 1 - LATE_TIES as u64;

/// An event as the queue stores it: any value of at most 24 bits.
pub trait EventCode: Copy {
    fn encode(self) -> u32;
    fn decode(code: u32) -> Self;
}

/// An entry as the heap stores it: time in the upper 64 bits, then the insertion sequence
/// (upper 40 bits of the lower word) and the event code (lower 24 bits), so that one
/// 128-bit comparison orders by (time, insertion sequence). Keys are unique (the sequence is).
type Key = u128;

#[inline]
fn key(time: u64, tie: u64) -> Key {
    (u128::from(time) << 64) | u128::from(tie)
}

#[inline]
fn key_time(key: Key) -> u64 {
    (key >> 64) as u64
}

/// Where an event stands in the queue's order: its time, then the sequence number it was
/// scheduled with. Places are unique (the sequence is), and compare as the events do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Place(Key);

impl Place {
    /// The event's time.
    #[inline]
    pub fn time(self) -> SimTime {
        SimTime::from_picos(key_time(self.0))
    }

    /// The same place in the order of its instant's events, moved to `time`.
    pub fn moved_to(self, time: SimTime) -> Place {
        Place(key(time.as_picos(), (self.0 as u64) & !CODE_MASK))
    }

    /// The place of an event scheduled at `time` with [`EventQueue::schedule_last`] (every
    /// such event at one instant has this place; the queue orders them by code).
    #[inline]
    pub fn last(time: SimTime) -> Place {
        Place(key(time.as_picos(), LAST_SEQ << CODE_BITS))
    }

    /// The place [`EventQueue::reserve_late`] gives at `time` with `tie` (below [`LATE_TIES`]):
    /// after every event of its instant placed in order, before those placed
    /// [`last`](Self::last); among late places at one instant, in order of their ties. (Unique
    /// for each tie, unlike the last places: a caller that keeps such places in an ordered
    /// structure of its own orders them as the queue would.)
    #[inline]
    pub fn late(time: SimTime, tie: u32) -> Place {
        debug_assert!(tie < LATE_TIES, "a late place's tie out of range");
        Place(key(time.as_picos(), (LATE_SEQ + u64::from(tie)) << CODE_BITS))
    }

    /// The place of an event scheduled at `time` with [`EventQueue::schedule_closing`]: after
    /// every event of its instant placed otherwise, those placed [`last`](Self::last) too (the
    /// queue orders them by code).
    #[inline]
    pub fn closing(time: SimTime) -> Place {
        Place(key(time.as_picos(), CLOSING_SEQ << CODE_BITS))
    }

    /// A place after every event due at or before `time` (and before any due later).
    pub fn after(time: SimTime) -> Place {
        Place(key(time.as_picos(), !CODE_MASK))
    }
}

/// Events due further ahead than this from the last one popped go to the far heap.
const HORIZON_PICOS: u64 = 100_000_000; // 100 µs

/// A min-priority queue of events keyed by (time, insertion sequence): FIFO among equal times.
/// Two binary heaps written out so that an entry is 16 bytes and a comparison is one 128-bit
/// compare: one for events due soon (cells reaching links' far ends, transmitters coming free),
/// one for events further ahead (sources' next bursts, timers, the warm-up's end), so that the
/// many near events sift through a shallow heap. The earliest event is the lesser of the two
/// roots, so which heap an event is in never changes the order. (Measured and not kept: a 4-ary
/// heap, and a sorted vector with binary-search insertion; see benches/HISTORY.md.)
pub struct EventQueue<E> {
    near: Vec<Key>,
    far: Vec<Key>,
    /// The root of one heap was handed out by [`pop_until`](EventQueue::pop_until) but is still
    /// in it: the next insertion into that heap overwrites it (one sift instead of a pop and a
    /// push — most events schedule a successor), else the next pop removes it first.
    root_taken: Taken,
    /// Time of the last event handed out.
    now_picos: u64,
    next_seq: u64,
    /// Events scheduled since the start (see [`schedules`](EventQueue::schedules)).
    scheduled: u64,
    _event: std::marker::PhantomData<E>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Taken {
    None,
    Near,
    Far,
}

impl<E: EventCode> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: EventCode> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue {
            near: Vec::with_capacity(64),
            far: Vec::with_capacity(64),
            root_taken: Taken::None,
            now_picos: 0,
            // (Sequence 0 is the place of events scheduled first in their instant.)
            next_seq: 1,
            scheduled: 0,
            _event: std::marker::PhantomData,
        }
    }

    /// Schedules `event` at `time`. Among events at the same time, earlier calls run first.
    #[inline(always)]
    pub fn schedule(&mut self, time: SimTime, event: E) {
        let place = self.reserve(time);
        self.schedule_reserved(place, event);
    }

    /// Schedules `event` at `time`, later than the event being handled, before every event
    /// scheduled with [`schedule`](Self::schedule) or a reserved place at that time, whenever
    /// either was scheduled: its place is set by a rule, not by the run's history. (Scheduled at
    /// the current instant, it runs next: after the events of the instant already handled.)
    /// Among events scheduled this way at one time, the lesser code runs first; a caller keeps
    /// at most one such event of each code pending at a time. It counts as a place taken (see
    /// [`places_taken`](Self::places_taken)).
    #[inline(always)]
    pub fn schedule_first(&mut self, time: SimTime, event: E) {
        self.next_seq += 1;
        self.schedule_reserved(Place(key(time.as_picos(), 0)), event);
    }

    /// Schedules `event` at `time`, at the place [`Place::last`] of its instant: after every
    /// event scheduled there otherwise, whenever it was scheduled (also one scheduled while
    /// the events of that instant are handled). Among events scheduled this way at one time,
    /// the lesser code runs first; a caller keeps at most one such event of each code pending
    /// at a time. It counts as a place taken.
    #[inline(always)]
    pub fn schedule_last(&mut self, time: SimTime, event: E) {
        let place = self.reserve_last(time);
        self.schedule_reserved(place, event);
    }

    /// Schedules `event` at `time`, at the place [`Place::closing`] of its instant: after every
    /// event scheduled there otherwise, those scheduled with [`schedule_last`](Self::schedule_last)
    /// included, whenever it was scheduled. Among events scheduled this way at one time, the
    /// lesser code runs first; a caller keeps at most one such event of each code pending at a
    /// time. It counts as a place taken.
    #[inline(always)]
    pub fn schedule_closing(&mut self, time: SimTime, event: E) {
        self.next_seq += 1;
        self.schedule_reserved(Place::closing(time), event);
    }

    /// [`Place::late`] at `time` with `tie`, taken as a place (to schedule with
    /// [`schedule_reserved`](Self::schedule_reserved), or to keep in an ordered structure of the
    /// caller's, as [`reserve`](Self::reserve)). A caller keeps at most one event pending at a
    /// late place of each tie and time.
    #[inline(always)]
    pub fn reserve_late(&mut self, time: SimTime, tie: u32) -> Place {
        self.next_seq += 1;
        Place::late(time, tie)
    }

    /// [`Place::last`] at `time`, taken as a place (for a caller that keeps the event in an
    /// ordered structure of its own, as [`reserve`](Self::reserve)).
    #[inline(always)]
    pub fn reserve_last(&mut self, time: SimTime) -> Place {
        self.next_seq += 1;
        Place::last(time)
    }

    /// The place an event scheduled at `time` now would take, without scheduling one: a
    /// caller that keeps some of its pending events in an ordered structure of its own (see
    /// [`Place`]) takes their places here, so that they sort among the queue's events exactly
    /// as if they had been scheduled.
    #[inline(always)]
    pub fn reserve(&mut self, time: SimTime) -> Place {
        let place = Place(key(time.as_picos(), self.next_seq << CODE_BITS));
        self.next_seq += 1;
        place
    }

    /// How many places have been taken (by [`schedule`](Self::schedule) or
    /// [`reserve`](Self::reserve)): a caller sees from it whether anything was scheduled
    /// meanwhile.
    #[inline]
    pub fn places_taken(&self) -> u64 {
        self.next_seq
    }

    /// How many events have been scheduled: a caller sees from it whether the earliest pending
    /// event may have changed meanwhile (a place only reserved changes nothing pending).
    #[inline]
    pub fn schedules(&self) -> u64 {
        self.scheduled
    }

    /// Schedules `event` in a place taken with [`reserve`](Self::reserve) (each place at most
    /// once while it is pending).
    #[inline(always)]
    pub fn schedule_reserved(&mut self, place: Place, event: E) {
        let code = u64::from(event.encode());
        debug_assert!(code <= CODE_MASK, "event code wider than 24 bits");
        let time = key_time(place.0);
        let entry = place.0 | u128::from(code);
        self.scheduled += 1;
        let near = time < self.now_picos.saturating_add(HORIZON_PICOS);
        let (heap, side) = if near { (&mut self.near, Taken::Near) } else { (&mut self.far, Taken::Far) };
        if self.root_taken == side {
            self.root_taken = Taken::None;
            heap_replace_root(heap, entry);
        } else {
            heap_push(heap, entry);
        }
    }

    /// Removes and returns the earliest event if it is due no later than `deadline`.
    #[inline]
    pub fn pop_until(&mut self, deadline: SimTime) -> Option<(SimTime, E)> {
        self.pop_placed_until(deadline).map(|(place, event)| (place.time(), event))
    }

    /// As [`pop_until`](Self::pop_until), with the place the event had.
    #[inline]
    pub fn pop_placed_until(&mut self, deadline: SimTime) -> Option<(Place, E)> {
        self.settle();
        let (top, side) = self.earliest()?;
        if key_time(top) > deadline.as_picos() {
            return None;
        }
        self.root_taken = side;
        self.now_picos = key_time(top);
        let code = (top as u64 & CODE_MASK) as u32;
        Some((Place(top & !u128::from(CODE_MASK)), E::decode(code)))
    }

    /// The place of the earliest pending event, if any, leaving a root handed out by the last
    /// pop in place (so that a successor scheduled next still takes its slot).
    #[inline]
    pub fn earliest_place(&self) -> Option<Place> {
        let near = if self.root_taken == Taken::Near { least_child(&self.near) } else { self.near.first().copied() };
        let far = if self.root_taken == Taken::Far { least_child(&self.far) } else { self.far.first().copied() };
        let least = match (near, far) {
            (Some(n), Some(f)) => n.min(f),
            (n, f) => n.or(f)?,
        };
        Some(Place(least & !u128::from(CODE_MASK)))
    }

    /// The lesser of the two roots, and its heap (a root handed out must be settled first).
    #[inline]
    fn earliest(&self) -> Option<(Key, Taken)> {
        match (self.near.first(), self.far.first()) {
            (Some(&n), Some(&f)) if f < n => Some((f, Taken::Far)),
            (Some(&n), _) => Some((n, Taken::Near)),
            (None, Some(&f)) => Some((f, Taken::Far)),
            (None, None) => None,
        }
    }

    /// Removes a root handed out and not overwritten since.
    #[inline]
    fn settle(&mut self) {
        match std::mem::replace(&mut self.root_taken, Taken::None) {
            Taken::None => {}
            Taken::Near => heap_remove_root(&mut self.near),
            Taken::Far => heap_remove_root(&mut self.far),
        }
    }

    /// Time of the earliest pending event.
    pub fn peek_time(&mut self) -> Option<SimTime> {
        self.settle();
        self.earliest().map(|(k, _)| SimTime::from_picos(key_time(k)))
    }

    pub fn len(&self) -> usize {
        self.near.len() + self.far.len() - usize::from(self.root_taken != Taken::None)
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The least entry of a heap but its root.
#[inline]
fn least_child(heap: &[Key]) -> Option<Key> {
    match heap.len() {
        0 | 1 => None,
        2 => Some(heap[1]),
        _ => Some(heap[1].min(heap[2])),
    }
}

/// Binary-heap insertion with a hole: parents move down until the entry's place is found.
#[inline]
fn heap_push(heap: &mut Vec<Key>, entry: Key) {
    let i = heap.len();
    heap.push(entry);
    sift_up_from(heap, i, entry);
}

/// The smaller child of node `i` in a heap of `n` entries, if it has children.
///
/// Chosen without a branch: which of two pending events is earlier is a coin toss to the
/// branch predictor, and a mispredicted branch on every level of every sift cost more than
/// the comparison (a lone left child is compared with itself, and kept).
#[inline]
fn smaller_child(heap: &[Key], i: usize, n: usize) -> Option<usize> {
    let left = 2 * i + 1;
    if left >= n {
        return None;
    }
    let right = (left + 1).min(n - 1);
    Some(left + usize::from(heap[right] < heap[left]))
}

/// Replaces the root of a non-empty binary heap by `entry`, sifting it down from the top: a
/// successor scheduled by the event just handled is usually due soon, before most pending
/// events (sources' next bursts, timers), so it stops within a level or two.
#[inline]
fn heap_replace_root(heap: &mut [Key], entry: Key) {
    let n = heap.len();
    let mut i = 0;
    while let Some(child) = smaller_child(heap, i, n) {
        if entry < heap[child] {
            break;
        }
        heap[i] = heap[child];
        i = child;
    }
    heap[i] = entry;
}

/// Removes the root of a non-empty heap: the hole it leaves sinks along the smaller children
/// to a leaf, and the last entry fills it from there, rising as far as it must (Floyd: the
/// last entry is usually among the latest, so this costs one comparison per level, not two).
fn heap_remove_root(heap: &mut Vec<Key>) {
    let last = heap.pop().expect("heap is not empty");
    let n = heap.len();
    if n == 0 {
        return;
    }
    let mut i = 0;
    while let Some(child) = smaller_child(heap, i, n) {
        heap[i] = heap[child];
        i = child;
    }
    sift_up_from(heap, i, last);
}

/// Fills the hole at `i` with `entry`, moving parents down while they are larger.
#[inline]
fn sift_up_from(heap: &mut [Key], mut i: usize, entry: Key) {
    while i > 0 {
        let parent = (i - 1) / 2;
        if heap[parent] < entry {
            break;
        }
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i] = entry;
}

#[cfg(test)]
mod tests;
