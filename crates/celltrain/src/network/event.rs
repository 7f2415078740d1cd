//! The events of a run: what must happen when simulated time reaches an entry of the queue,
//! encoded in the queue's 24-bit codes (4 bits of kind, 20 of id).

use celltrain_core::ids::{ConnId, NodeId, PortId, SourceId, VcId};
use celltrain_core::EventCode;

/// What must happen when simulated time reaches an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Event {
    /// A port's transmitter is free and its queue is not empty.
    PortFree(PortId),
    /// The oldest cell on a port's outgoing pipe reaches the far end.
    PipeHead(PortId),
    /// A source emits its next unit.
    Source(SourceId),
    /// The warm-up ends: counters restart.
    OpenWindow,
    /// A TCP endpoint asked to be woken.
    TcpWake(ConnId),
    /// A host finished send processing of a packet.
    HostSend(NodeId),
    /// A host finished receive processing of a packet.
    HostRecv(NodeId),
    /// A time-series sampling instant.
    Sample,
    /// A port's explicit-rate algorithm ends an averaging interval.
    RmInterval(PortId),
    /// An ABR source end system's next in-rate (or out-of-rate) cell opportunity.
    AbrSend(VcId),
    /// The earliest pipe head of a fan-in group is due (it stands in that head's place; see
    /// `fan_in`). Not an event of the run itself: the heads it hands out are.
    FanIn(u32),
    /// The step at the explicit-rate algorithm of an RM cell carried across a link into ports
    /// answering as of an instant, due at its arrival (see `as_of`).
    RmStep(PortId),
}

/// Event codes: 4 bits of kind (room for the kinds ABR and GFR will add), 20 bits of id (a
/// million components of each kind).
const KIND_SHIFT: u32 = 20;
const ID_MASK: u32 = (1 << KIND_SHIFT) - 1;
/// Kinds of event (one more per new variant of [`Event`]: `trace_key` and `decode` list them).
pub(super) const EVENT_KINDS: u32 = 12;
const _: () = assert!(EVENT_KINDS <= 1 << (celltrain_core::event_queue::CODE_BITS - KIND_SHIFT), "event kinds fit");
/// The most ports, sources or flows a network may have (ids must fit an event code).
pub const MAX_COMPONENTS: usize = ID_MASK as usize;

impl EventCode for Event {
    #[inline]
    fn encode(self) -> u32 {
        let (kind, id) = self.trace_key();
        (kind << KIND_SHIFT) | id
    }
    #[inline]
    fn decode(code: u32) -> Self {
        let id = code & ID_MASK;
        match code >> KIND_SHIFT {
            0 => Event::PortFree(PortId(id)),
            1 => Event::PipeHead(PortId(id)),
            2 => Event::Source(SourceId(id)),
            3 => Event::OpenWindow,
            4 => Event::TcpWake(ConnId(id)),
            5 => Event::HostSend(NodeId(id)),
            6 => Event::HostRecv(NodeId(id)),
            7 => Event::Sample,
            8 => Event::RmInterval(PortId(id)),
            9 => Event::AbrSend(VcId(id)),
            10 => Event::FanIn(id),
            11 => Event::RmStep(PortId(id)),
            kind => unreachable!("event kind {kind} was never encoded"),
        }
    }
}

impl Event {
    #[inline]
    pub(super) fn trace_key(self) -> (u32, u32) {
        match self {
            Event::PortFree(p) => (0, p.0),
            Event::PipeHead(p) => (1, p.0),
            Event::Source(s) => (2, s.0),
            Event::OpenWindow => (3, 0),
            Event::TcpWake(c) => (4, c.0),
            Event::HostSend(h) => (5, h.0),
            Event::HostRecv(h) => (6, h.0),
            Event::Sample => (7, 0),
            Event::RmInterval(p) => (8, p.0),
            Event::AbrSend(v) => (9, v.0),
            Event::FanIn(g) => (10, g),
            Event::RmStep(p) => (11, p.0),
        }
    }
}
