//! The frame arena: one record per AAL5 frame in flight, reused through a free list so that
//! the steady state allocates nothing.
//!
//! A frame stays in the arena until every one of its cells is accounted for (dropped somewhere
//! or handed to the reassembler). The receiver settles a frame's fate on its last received
//! cell; a frame with a dropped cell is lost whatever happens to the rest.

use crate::aal5::FrameInfo;
use celltrain_core::ids::FrameId;

/// One frame in flight, carrying the caller's payload descriptor `P` (an IP packet).
#[derive(Clone, Debug)]
pub struct FrameRecord<P> {
    pub payload: P,
    /// Cells of the CPCS-PDU.
    pub cells: u32,
    /// Cells dropped or received so far.
    pub cells_accounted: u32,
    /// Unique over the run (ids are reused; see [`crate::aal5::FrameInfo`]).
    pub serial: u64,
}

#[derive(Debug)]
pub struct FrameArena<P> {
    slots: Vec<Option<FrameRecord<P>>>,
    free: Vec<u32>,
    live: usize,
    /// Frames inserted so far: the next frame's serial.
    inserted: u64,
}

impl<P> Default for FrameArena<P> {
    fn default() -> Self {
        FrameArena { slots: Vec::new(), free: Vec::new(), live: 0, inserted: 0 }
    }
}

impl<P> FrameArena<P> {
    pub fn insert(&mut self, payload: P, cells: u32) -> FrameId {
        let rec = FrameRecord { payload, cells, cells_accounted: 0, serial: self.inserted };
        self.inserted += 1;
        self.live += 1;
        if let Some(i) = self.free.pop() {
            self.slots[i as usize] = Some(rec);
            FrameId(i)
        } else {
            self.slots.push(Some(rec));
            FrameId::from_index(self.slots.len() - 1)
        }
    }

    pub fn get(&self, id: FrameId) -> &FrameRecord<P> {
        self.slots[id.index()].as_ref().expect("frame id of a released frame")
    }

    pub fn get_mut(&mut self, id: FrameId) -> &mut FrameRecord<P> {
        self.slots[id.index()].as_mut().expect("frame id of a released frame")
    }

    /// Accounts for one dropped cell of `id`. When it was the last of the frame's cells to be
    /// accounted for, the frame — lost, since a cell of it was dropped — is released and its
    /// payload returned.
    pub fn account_dropped(&mut self, id: FrameId) -> Option<P> {
        self.account_dropped_cells(id, 1)
    }

    /// [`account_dropped`](Self::account_dropped) for `cells` dropped cells of `id` at once.
    pub fn account_dropped_cells(&mut self, id: FrameId, cells: u32) -> Option<P> {
        let rec = self.get_mut(id);
        rec.cells_accounted += cells;
        debug_assert!(rec.cells_accounted <= rec.cells, "more cells accounted than the frame has");
        (rec.cells_accounted == rec.cells).then(|| self.release(id))
    }

    /// Accounts for one cell of `id` that reached its reassembler: returns what the receiver
    /// knows of the frame, and whether this was the last of the frame's cells to be accounted
    /// for. The frame stays in the arena; the caller then [releases](Self::release) a last one.
    /// (One lookup for both: the receiving path reads the record and counts the cell at once.)
    #[inline]
    pub fn account_received(&mut self, id: FrameId) -> (FrameInfo, bool) {
        let rec = self.get_mut(id);
        rec.cells_accounted += 1;
        debug_assert!(rec.cells_accounted <= rec.cells, "more cells accounted than the frame has");
        (FrameInfo { cells: rec.cells, serial: rec.serial }, rec.cells_accounted == rec.cells)
    }

    /// Releases `id`, whose every cell is accounted for, and returns its payload.
    #[inline]
    pub fn release(&mut self, id: FrameId) -> P {
        let rec = self.slots[id.index()].take().expect("frame present");
        debug_assert!(rec.cells_accounted == rec.cells, "a frame released with cells unaccounted");
        self.free.push(id.0);
        self.live -= 1;
        rec.payload
    }

    /// Frames still in flight.
    pub fn live(&self) -> usize {
        self.live
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_released_and_reused() {
        let mut a = FrameArena::default();
        let f = a.insert("x", 2);
        assert_eq!(a.account_dropped(f), None);
        assert_eq!(a.account_dropped(f), Some("x"));
        assert_eq!(a.live(), 0);
        let g = a.insert("y", 1);
        assert_eq!(g, f, "slot reused");
        assert_eq!(a.account_dropped(g), Some("y"));
    }

    #[test]
    fn received_cells_are_counted_until_the_last() {
        let mut a = FrameArena::default();
        let f = a.insert("x", 3);
        let g = a.insert("y", 1);
        assert_eq!(a.account_received(f), (FrameInfo { cells: 3, serial: 0 }, false));
        assert_eq!(a.account_dropped(f), None, "a dropped cell counts too");
        assert_eq!(a.account_received(g), (FrameInfo { cells: 1, serial: 1 }, true));
        assert_eq!(a.release(g), "y");
        assert_eq!(a.account_received(f), (FrameInfo { cells: 3, serial: 0 }, true));
        assert_eq!(a.release(f), "x");
        assert_eq!(a.live(), 0);
        assert_eq!(a.insert("z", 2), f, "the slot freed last is reused first");
    }
}
