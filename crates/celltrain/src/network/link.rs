//! One direction of a link, as its output port drives it: its propagation delay, the capture
//! recording it, and its pipe — the cells in propagation towards the far end, with what the
//! fast paths keep about them (the place a next head would take, trains waiting behind, data
//! cells held back).

use celltrain_atm::cell::{Cell, CellKind};
use celltrain_core::ring::Ring;
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::Place;

/// The cells on one direction of a link, in order of arrival at the far end, and how the link
/// delays and records them.
#[derive(Debug)]
#[repr(C)]
pub(crate) struct Link {
    delay: SimDuration,
    /// Index of the capture recording this link, if any.
    capture: Option<u32>,
    /// The pipe: cells in propagation, with their arrival times at the far end (increasing).
    cells: Ring<(SimTime, Cell)>,
    /// The place a next head's event would have taken in the pipe's chain, when the pipe
    /// emptied (kept for a cell put on the link at that same instant).
    emptied: Option<Place>,
    /// A link with trains (a fan-in group's, or a lone one's): trains wait behind the pipe's
    /// cells (a cell put on the link must go behind them: see `fan_in`).
    trains_behind: bool,
    /// A link that carries data cells only (`PortPlan::abr_last_link`): the carrying bound under
    /// which the pipe held no data cell, the last time a cell was carried (under a later one,
    /// data cells held back by the earlier may wait among the pipe's RM cells).
    data_carried_under: SimTime,
}

/// A pipe's data cells held back by an earlier carrying bound, taken out of it
/// ([`Link::take_data_held_back`]).
pub(super) struct HeldBack {
    /// When the pipe's head (before they were taken) arrives at the far end.
    pub(super) head_before: Option<SimTime>,
    /// The data cells, in order, with their arrival times.
    pub(super) data: Vec<(SimTime, Cell)>,
}

impl Link {
    pub(super) fn new(delay: SimDuration) -> Self {
        Link {
            delay,
            capture: None,
            cells: Ring::default(),
            emptied: None,
            trains_behind: false,
            data_carried_under: SimTime::MAX,
        }
    }

    /// The link's propagation delay.
    #[inline(always)]
    pub(super) fn delay(&self) -> SimDuration {
        self.delay
    }

    /// The capture recording the link, if any.
    #[inline(always)]
    pub(super) fn capture(&self) -> Option<u32> {
        self.capture
    }

    /// Whether a capture records the link (then every cell on it goes by its events).
    #[inline(always)]
    pub(super) fn is_captured(&self) -> bool {
        self.capture.is_some()
    }

    /// Capture `index` records the link from now on (before the run).
    pub(super) fn capture_with(&mut self, index: u32) {
        self.capture = Some(index);
    }

    /// Whether no cell is in propagation.
    #[inline(always)]
    pub(super) fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Cells in propagation.
    #[inline(always)]
    pub(super) fn len(&self) -> usize {
        self.cells.len()
    }

    /// The pipe's head: the next cell to reach the far end, with its arrival time.
    #[inline(always)]
    pub(super) fn head(&self) -> Option<(SimTime, Cell)> {
        self.cells.front()
    }

    /// When the pipe's head reaches the far end.
    #[inline(always)]
    pub(super) fn head_arrival(&self) -> Option<SimTime> {
        self.cells.front().map(|(arrival, _)| arrival)
    }

    /// When the pipe's last cell reaches the far end.
    #[inline(always)]
    pub(super) fn last_arrival(&self) -> Option<SimTime> {
        self.cells.back().map(|(arrival, _)| arrival)
    }

    /// The head has reached the far end: it leaves the pipe.
    #[inline(always)]
    pub(super) fn pop_head(&mut self) {
        self.cells.pop_front();
    }

    /// `cell` goes in the pipe behind the others, to arrive at `arrival` (no earlier than
    /// theirs).
    #[inline(always)]
    pub(super) fn push(&mut self, arrival: SimTime, cell: Cell) {
        self.cells.push_back((arrival, cell));
    }

    /// Cells go in the pipe behind the others, in order of arrival.
    #[inline(always)]
    pub(super) fn extend(&mut self, cells: impl IntoIterator<Item = (SimTime, Cell)>) {
        self.cells.extend(cells);
    }

    /// The cells in propagation, head first, with their arrival times.
    pub(super) fn cells(&self) -> impl Iterator<Item = (SimTime, Cell)> + '_ {
        self.cells.iter()
    }

    /// The cells in propagation from the `first`-th on.
    #[inline(always)]
    pub(super) fn cells_from(&self, first: usize) -> impl Iterator<Item = (SimTime, Cell)> + '_ {
        self.cells.iter_from(first)
    }

    /// A link with trains: whether trains wait behind the pipe's cells.
    #[inline(always)]
    pub(super) fn trains_behind(&self) -> bool {
        self.trains_behind
    }

    /// A link with trains: trains now wait (or no longer wait) behind the pipe's cells.
    #[inline(always)]
    pub(super) fn set_trains_behind(&mut self, behind: bool) {
        self.trains_behind = behind;
    }

    /// The pipe emptied: a next head's event would take `place` in the pipe's chain.
    #[inline(always)]
    pub(super) fn set_emptied(&mut self, place: Place) {
        self.emptied = Some(place);
    }

    /// The place kept when the pipe emptied, if any, which a cell put on the link takes once.
    #[inline(always)]
    pub(super) fn take_emptied(&mut self) -> Option<Place> {
        self.emptied.take()
    }

    /// A link that carries data cells only: whether its pipe may hold data cells held back by
    /// a carrying bound earlier than `bound` (see [`take_data_held_back`](Self::take_data_held_back)).
    #[inline(always)]
    pub(super) fn may_hold_data(&self, bound: SimTime) -> bool {
        !self.cells.is_empty() && self.data_carried_under != bound
    }

    /// A link that carries data cells only: under carrying bound `bound`, its data cells held
    /// back by an earlier bound leave the pipe (in order, with the pipe's head before),
    /// its RM cells stay. `None`, and nothing done, when the pipe held no data cell the last
    /// time under this bound.
    #[cold]
    pub(super) fn take_data_held_back(&mut self, bound: SimTime) -> Option<HeldBack> {
        if self.data_carried_under == bound {
            return None;
        }
        self.data_carried_under = bound;
        let head_before = self.head_arrival();
        let data = self.cells.iter().filter(|(_, cell)| cell.kind != CellKind::Rm).collect();
        self.cells.retain(|(_, cell)| cell.kind == CellKind::Rm);
        Some(HeldBack { head_before, data })
    }
}
