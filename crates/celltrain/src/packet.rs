//! What an AAL5 frame carries: an IP datagram, described, not materialised.

use celltrain_core::ids::{ConnId, FlowId, RouteId};
use celltrain_core::time::SimTime;
use celltrain_tcp::Segment;

/// Bytes of an IPv4 header without options.
pub const IPV4_HEADER_BYTES: u64 = 20;
/// Bytes of a UDP header.
pub const UDP_HEADER_BYTES: u64 = 8;

/// The transport part of a datagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payload {
    /// A UDP datagram, numbered within its flow from 0.
    Udp { seq: u64 },
    /// A TCP segment for the endpoint `to`.
    Tcp { segment: Segment, to: ConnId },
}

/// An IP datagram in flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    pub flow: FlowId,
    pub payload: Payload,
    /// Application bytes carried.
    pub app_bytes: u64,
    /// Bytes of the whole IP datagram (headers included).
    pub ip_bytes: u64,
    /// When the source handed it to the network layer.
    pub sent_at: SimTime,
    /// Its way through the network, set when it is sent.
    pub route: RouteId,
    /// Index of the hop of its route it is on.
    pub hop: u8,
    /// A data packet counted in its flow's `packets_sent` of the measurement window: its
    /// delivery or loss is counted too, so that the three counts are of the same packets.
    pub counted: bool,
}
