//! Per-endpoint counters (BSD `tcpstat`, per connection) for the simulator's reports.
//!
//! Identities (checked in tests): `segments_sent = data_segments_sent + control segments`,
//! `bytes_retransmitted ≤ bytes_sent`, `segments_retransmitted ≤ data_segments_sent`.

/// Counters of one endpoint since it was created.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TcpStats {
    /// Every segment handed out by `poll_transmit` (data, pure ACKs, SYN, FIN, RST).
    pub segments_sent: u64,
    /// Segments carrying payload (including retransmissions and persist probes).
    pub data_segments_sent: u64,
    /// Payload octets sent, including retransmissions.
    pub bytes_sent: u64,
    /// Segments carrying payload that had been sent before (BSD `tcps_sndrexmitpack`).
    pub segments_retransmitted: u64,
    /// Payload octets sent again (BSD `tcps_sndrexmitbyte`).
    pub bytes_retransmitted: u64,
    /// SYN or SYN-ACK retransmissions.
    pub syn_retransmits: u64,
    /// Pure acknowledgments sent (no payload, SYN, FIN or RST).
    pub acks_sent: u64,
    /// Of `acks_sent`, those released by the delayed-ACK timer.
    pub delayed_acks_sent: u64,
    /// Zero-window / SWS persist probes sent.
    pub persist_probes: u64,
    /// Retransmission-timer expirations, including SYN timeouts (BSD `tcps_rexmttimeo`).
    pub timeouts: u64,
    /// Fast retransmissions that started a loss-recovery episode.
    pub fast_retransmits: u64,
    /// Successors sent right behind a fast retransmission by adaptive fast retransmit's
    /// "double" mode (also counted in `segments_retransmitted`).
    pub afr_second_segments: u64,
    /// Tail loss probes sent (RFC 8985 TLP; also in `segments_retransmitted` when the probe
    /// resends the last segment).
    pub loss_probes: u64,
    /// Duplicate ACKs received (under the variant's definition).
    pub dup_acks: u64,
    /// RTT samples fed to the estimator.
    pub rtt_samples: u64,
    /// Sum of those samples' raw RTTs, picoseconds: the exact time from sending the timed
    /// segment to its ACK (with timestamps, at the timestamp clock's resolution), before the
    /// estimator rounds them to its ticks.
    pub rtt_raw_sum_ps: u128,
    /// Segments received.
    pub segments_received: u64,
    /// Received segments queued out of order (reassembly queue).
    pub ooo_segments: u64,
    /// Received segments whose data had all been received before.
    pub duplicate_segments: u64,
    /// In-order payload octets delivered to the receive buffer (goodput numerator,
    /// `docs/references.md#metrics`).
    pub bytes_delivered: u64,
    /// Octets the application consumed with `read()`.
    pub bytes_read: u64,
    /// Octets the application handed to `write()` and the buffer accepted.
    pub bytes_written: u64,
    /// The connection was dropped after too many retransmissions (ETIMEDOUT).
    pub aborted: bool,
    /// The connection was closed by a received RST.
    pub reset_received: bool,
}

impl TcpStats {
    /// Retransmitted data segments / data segments sent (0 if none were sent).
    pub fn retransmission_ratio(&self) -> f64 {
        ratio(self.segments_retransmitted, self.data_segments_sent)
    }

    /// Retransmitted payload octets / payload octets sent (`docs/references.md#metrics`), 0 if none.
    pub fn byte_retransmission_ratio(&self) -> f64 {
        ratio(self.bytes_retransmitted, self.bytes_sent)
    }
}

fn ratio(n: u64, d: u64) -> f64 {
    if d == 0 {
        0.0
    } else {
        n as f64 / d as f64
    }
}
