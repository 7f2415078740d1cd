//! A port's transmitter: the clock that sets each cell's start on the wire, and what its next
//! departure waits for (a `PortFree` event, or the next event that meets the port: see
//! `queues_ahead`).

use celltrain_atm::port::TxClock;
use celltrain_core::time::SimTime;

/// The transmitter of one output port.
#[derive(Debug)]
#[repr(C)]
pub(crate) struct Transmitter {
    next: NextDeparture,
    pub(crate) clock: TxClock,
}

/// What a transmitter's next departure waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NextDeparture {
    /// No departure awaited: the port holds no cell, or (an analytic port) its cells' starts
    /// are known and need no event.
    Idle,
    /// Its `PortFree` event, due at this time (in the event queue, or among a fan-in group's
    /// heads). On a single FIFO run by events, an event due at another time is stale: a
    /// departure made before an arrival overtook it.
    Event(SimTime),
    /// The next event that meets the port, which makes first the departures due before it
    /// (`queues_ahead`): none is scheduled.
    Deferred(SimTime),
}

impl Transmitter {
    pub(super) fn new(clock: TxClock) -> Self {
        Transmitter { next: NextDeparture::Idle, clock }
    }

    /// A departure is to come, by an event or deferred.
    #[inline(always)]
    pub(super) fn waits(&self) -> bool {
        self.next != NextDeparture::Idle
    }

    /// The next departure is the `PortFree` event the caller schedules at `at` (none was
    /// awaited: debug builds check it).
    #[inline(always)]
    pub(super) fn await_event(&mut self, at: SimTime) {
        debug_assert_eq!(self.next, NextDeparture::Idle, "a departure awaited twice");
        self.next = NextDeparture::Event(at);
    }

    /// The awaited departure is being made (its event fired, or it was due): nothing is
    /// awaited until the caller says what comes next.
    #[inline(always)]
    pub(super) fn departs(&mut self) {
        self.next = NextDeparture::Idle;
    }

    /// Whether the `PortFree` event due at `now` is the one awaited (else it is stale).
    #[inline]
    pub(super) fn event_is_due(&self, now: SimTime) -> bool {
        self.next == NextDeparture::Event(now)
    }

    /// Whether an event awaited is due by `now`.
    #[inline]
    pub(super) fn event_due_by(&self, now: SimTime) -> bool {
        matches!(self.next, NextDeparture::Event(at) if at <= now)
    }

    /// The next departure, due at `at`, waits for the next event that meets the port (none was
    /// awaited).
    #[inline]
    pub(super) fn defer(&mut self, at: SimTime) {
        debug_assert_eq!(self.next, NextDeparture::Idle, "a departure deferred while another is awaited");
        self.next = NextDeparture::Deferred(at);
    }

    #[inline(always)]
    pub(super) fn is_deferred(&self) -> bool {
        matches!(self.next, NextDeparture::Deferred(_))
    }

    /// When the deferred departure is due, if one is deferred.
    #[inline]
    pub(super) fn deferred_at(&self) -> Option<SimTime> {
        match self.next {
            NextDeparture::Deferred(at) => Some(at),
            _ => None,
        }
    }

    /// Whether a departure is deferred and due before `before`.
    #[inline(always)]
    pub(super) fn deferred_before(&self, before: SimTime) -> bool {
        matches!(self.next, NextDeparture::Deferred(at) if at < before)
    }

    /// The deferred departure, if it is due before `before`: it is then being made.
    #[inline]
    pub(super) fn take_deferred_before(&mut self, before: SimTime) -> Option<SimTime> {
        match self.next {
            NextDeparture::Deferred(at) if at < before => {
                self.next = NextDeparture::Idle;
                Some(at)
            }
            _ => None,
        }
    }

    /// The deferred departure becomes an event (the caller schedules it): its time.
    #[inline]
    pub(super) fn undefer(&mut self) -> SimTime {
        let NextDeparture::Deferred(at) = self.next else { panic!("no departure deferred") };
        self.next = NextDeparture::Event(at);
        at
    }
}
