//! One direction of a link, as its output port drives it: its propagation delay, the capture
//! recording it, and its pipe — the cells in propagation towards the far end, with what the
//! fast paths keep about them (the place a next head would take, trains waiting behind, data
//! cells held back).

use celltrain_atm::cell::Cell;
use celltrain_core::ring::Ring;
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::Place;

/// The cells on one direction of a link, in order of arrival at the far end, and how the link
/// delays and records them.
#[derive(Debug)]
#[repr(C)]
pub(crate) struct Link {
    pub(super) delay: SimDuration,
    /// Index of the capture recording this link, if any.
    pub(super) capture: Option<u32>,
    /// The pipe: cells in propagation, with their arrival times at the far end (increasing).
    pub(super) cells: Ring<(SimTime, Cell)>,
    /// The place a next head's event would have taken in the pipe's chain, when the pipe
    /// emptied (kept for a cell put on the link at that same instant).
    pub(super) emptied: Option<Place>,
    /// A fan-in group's member: trains wait behind the pipe's cells (a cell put on the link
    /// must go behind them: see `fan_in`).
    pub(super) trains_behind: bool,
    /// A link that carries data cells only (`PortPlan::abr_last_link`): the carrying bound under
    /// which the pipe held no data cell, the last time a cell was carried (under a later one,
    /// data cells held back by the earlier may wait among the pipe's RM cells).
    pub(super) data_carried_under: SimTime,
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
}
