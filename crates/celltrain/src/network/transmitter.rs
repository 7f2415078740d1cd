//! A port's transmitter: the clock that sets each cell's start on the wire, and the departure
//! event it waits for, if any (a `PortFree` event, or a departure deferred to the next event
//! that meets the port: see `queues_ahead`).

use celltrain_atm::port::TxClock;
use celltrain_core::time::SimTime;

/// The transmitter of one output port.
#[derive(Debug)]
#[repr(C)]
pub(crate) struct Transmitter {
    /// A `PortFree` event is pending (or, `free_deferred`, its departure).
    pub(super) free_pending: bool,
    /// The next departure waits for the next event that meets the port, due at
    /// `free_event_at`, without an event (see `queues_ahead`).
    pub(super) free_deferred: bool,
    /// When the pending `PortFree` event is due (a single-FIFO port run by events: an event
    /// due at another time is stale, overtaken by a departure made before an arrival), or the
    /// deferred departure.
    pub(super) free_event_at: SimTime,
    pub(crate) clock: TxClock,
}

impl Transmitter {
    pub(super) fn new(clock: TxClock) -> Self {
        Transmitter { free_pending: false, free_deferred: false, free_event_at: SimTime::ZERO, clock }
    }
}
