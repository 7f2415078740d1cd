//! What an AAL5 frame carries: an IP datagram, described, not materialised.

use celltrain_core::ids::FlowId;
use celltrain_core::time::SimTime;

/// Bytes of an IPv4 header without options.
pub const IPV4_HEADER_BYTES: u64 = 20;
/// Bytes of a UDP header.
pub const UDP_HEADER_BYTES: u64 = 8;

/// An IP datagram in flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    pub flow: FlowId,
    /// Sequence number of the datagram within its flow, from 0.
    pub seq: u64,
    /// Application bytes carried.
    pub app_bytes: u64,
    /// Bytes of the whole IP datagram (headers included).
    pub ip_bytes: u64,
    /// When the source handed it to the NIC.
    pub sent_at: SimTime,
}
