//! A fan-in group's pending heads, in order of their places.

use celltrain_core::time::SimTime;
use celltrain_core::Place;

/// Heads in order of their places, in a ring: a pipe's next head is usually due after every
/// other pending head (pipes at one cell rate take turns), so it goes in at the back.
#[derive(Debug)]
pub(super) struct HeadRing {
    /// A power of two in length: a place in the ring is an index masked by `len - 1` (which
    /// the compiler knows to be in bounds, where a mask kept in a field of its own it does not).
    slots: Box<[(Place, u32)]>,
    first: usize,
    pub(super) len: usize,
}

impl HeadRing {
    pub(super) fn new(pipes: usize) -> Self {
        let size = pipes.max(1).next_power_of_two();
        let empty = (Place::after(SimTime::ZERO), 0);
        HeadRing { slots: vec![empty; size].into_boxed_slice(), first: 0, len: 0 }
    }

    /// Index `i` in the ring.
    #[inline(always)]
    fn at(&self, i: usize) -> usize {
        i & (self.slots.len() - 1)
    }

    /// The earliest head.
    #[inline]
    pub(super) fn front(&self) -> Option<(Place, u32)> {
        (self.len > 0).then(|| self.slots[self.first])
    }

    #[inline]
    pub(super) fn pop_front(&mut self) {
        self.first = self.at(self.first + 1);
        self.len -= 1;
    }

    /// Files a head at its place. Most go in at the back (pipes at one cell rate take turns).
    #[inline(always)]
    pub(super) fn insert(&mut self, place: Place, p: u32) {
        debug_assert!(self.len < self.slots.len(), "one head per pipe");
        let back = self.at(self.first + self.len);
        if self.len == 0 || self.slots[self.at(back + self.slots.len() - 1)].0 < place {
            self.slots[back] = (place, p);
            self.len += 1;
        } else if place < self.slots[self.first].0 {
            // (A port's `PortFree`, due a cell time ahead: often before every pipe's head.)
            self.first = self.at(self.first + self.slots.len() - 1);
            self.slots[self.first] = (place, p);
            self.len += 1;
        } else {
            self.insert_inside(place, p);
        }
    }

    /// Files a head before the last, moving the later heads back by one or, when it goes in the
    /// first half, the earlier ones forward by one: a port's `PortFree` among its group's heads
    /// is due a cell time ahead, often before the pipes' heads, which are a link's delay ahead.
    #[inline(never)]
    fn insert_inside(&mut self, place: Place, p: u32) {
        if place < self.slots[self.at(self.first + self.len / 2)].0 {
            let first = self.at(self.first + self.slots.len() - 1);
            let mut i = 0;
            while self.slots[self.at(self.first + i)].0 < place {
                self.slots[self.at(first + i)] = self.slots[self.at(self.first + i)];
                i += 1;
            }
            self.slots[self.at(first + i)] = (place, p);
            self.first = first;
        } else {
            let mut i = self.len;
            while self.slots[self.at(self.first + i - 1)].0 > place {
                self.slots[self.at(self.first + i)] = self.slots[self.at(self.first + i - 1)];
                i -= 1;
            }
            self.slots[self.at(self.first + i)] = (place, p);
        }
        self.len += 1;
    }
}
