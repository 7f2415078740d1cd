//! The transmission control block shared with the pluggable policies.
//!
//! Only what congestion control and loss recovery need lives here (ns-3's
//! `TcpSocketState` idea): the segment size, the windows and the send sequence variables.
//! Everything else (receive side, timers, options, buffers) stays private to the endpoint,
//! which is the only writer of the sequence variables; policies write `cwnd`, `ssthresh`
//! and `dupacks`.

use crate::segment::SackBlock;
use crate::seq::SeqNum;
use celltrain_core::{SimDuration, SimTime};

/// Largest unscaled window (BSD `TCP_MAXWIN`).
pub const TCP_MAXWIN: u32 = 65_535;
/// Largest window-scale shift (BSD `TCP_MAX_WINSHIFT`, RFC 7323 §2.3).
pub const TCP_MAX_WINSHIFT: u8 = 14;
/// Initial `snd_ssthresh` ("effectively infinite", BSD `TCP_MAXWIN << TCP_MAX_WINSHIFT`).
pub const INITIAL_SSTHRESH: u32 = TCP_MAXWIN << TCP_MAX_WINSHIFT;

/// Congestion state of the sender (Linux/ns-3 vocabulary). Owned by the endpoint; changed
/// only through its `set_ca_state`, which tells the congestion control first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CaState {
    /// Normal operation.
    #[default]
    Open,
    /// Duplicate ACKs seen, below the fast-retransmit threshold.
    Disorder,
    /// Fast retransmit / fast recovery in progress.
    Recovery,
    /// After a retransmission timeout, until everything sent before it is acknowledged.
    Loss,
}

/// Window and sequence state shared by the endpoint and its policies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tcb {
    /// Maximum segment size in use (BSD `t_maxseg`, RFC SMSS), octets of payload.
    pub maxseg: u32,
    /// Congestion window (`snd_cwnd`), octets.
    pub cwnd: u32,
    /// Slow-start threshold (`snd_ssthresh`), octets.
    pub ssthresh: u32,
    /// Oldest unacknowledged sequence number (`snd_una`; RFC 6675 HighACK + 1).
    pub snd_una: SeqNum,
    /// Next sequence number to send (`snd_nxt`); pulled back to `snd_una` on a timeout.
    pub snd_nxt: SeqNum,
    /// One past the highest sequence number ever sent (`snd_max`; RFC 6675 HighData + 1).
    pub snd_max: SeqNum,
    /// Peer's advertised window, scaled (`snd_wnd`), octets.
    pub snd_wnd: u32,
    /// Shift applied to the peer's window field (`snd_scale`, 0–14).
    pub snd_scale: u8,
    /// Consecutive duplicate ACKs (`t_dupacks`; RFC 6675 DupAcks). Written by the recovery.
    pub dupacks: u32,
    /// Duplicate ACKs that trigger fast retransmit (`tcprexmtthresh`; DupThresh).
    pub dupack_threshold: u32,
}

impl Tcb {
    /// A block for a connection whose first sequence number is `iss`, with segment size
    /// `maxseg` and initial window `initial_cwnd` octets.
    pub fn new(iss: SeqNum, maxseg: u32, initial_cwnd: u32, dupack_threshold: u32) -> Self {
        Tcb {
            maxseg,
            cwnd: initial_cwnd,
            ssthresh: INITIAL_SSTHRESH,
            snd_una: iss,
            snd_nxt: iss,
            snd_max: iss,
            snd_wnd: 0,
            snd_scale: 0,
            dupacks: 0,
            dupack_threshold,
        }
    }

    /// RFC 5681 FlightSize: sequence space sent but not yet cumulatively acknowledged, octets.
    pub fn flight_size(&self) -> u32 {
        self.snd_max - self.snd_una
    }

    /// Upper bound BSD puts on `snd_cwnd`: `TCP_MAXWIN << snd_scale`, octets.
    pub fn cwnd_cap(&self) -> u32 {
        TCP_MAXWIN << self.snd_scale
    }
}

/// When the oldest unacknowledged segment was last sent, by the sender's own clock
/// (Vegas's fine-grained timestamps), and how often it has been sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SentAt {
    /// Time of its last transmission.
    pub at: SimTime,
    /// Transmissions so far (1 = sent once).
    pub transmissions: u32,
}

/// What an arriving acknowledgment told the sender, as handed to the policies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct AckInfo {
    /// The cumulative acknowledgment number.
    pub ack: SeqNum,
    /// Sequence space newly acknowledged cumulatively, octets (0 if the ACK did not advance
    /// `snd_una`). Includes one for an acknowledged SYN or FIN.
    pub acked: u32,
    /// Whether the ACK counts as a duplicate under the recovery's rule
    /// ([`crate::recovery::DupAckRule`]).
    pub is_dup: bool,
    /// Octets newly marked SACKed by this ACK's SACK blocks.
    pub newly_sacked: u32,
    /// FlightSize before this ACK was applied, octets.
    pub flight_before: u32,
    /// True if this ACK acknowledged our SYN (the connection's first ACK of data space).
    pub syn_acked: bool,
    /// Arrival time of the ACK: the sender's clock, handed in by the simulator with the
    /// segment (no policy reads a clock of its own).
    pub now: SimTime,
    /// Round-trip time of the newest segment this ACK acknowledged in full, if it was sent
    /// only once, measured on the sender's fine-grained clock (variants that keep
    /// per-segment send times only; `None` otherwise).
    pub fine_rtt: Option<SimDuration>,
    /// The segment now at `snd_una` (after this ACK), if per-segment send times are kept.
    pub una_sent: Option<SentAt>,
    /// The ACK's D-SACK block (RFC 2883): data the receiver got twice.
    pub dsack: Option<SackBlock>,
}

/// The kind of loss event a new ssthresh is computed for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossKind {
    /// Fast retransmit after `dupack_threshold` duplicate ACKs.
    DupAcks,
    /// Retransmission timeout; `retransmissions` counts this expiry (1 = first).
    Timeout {
        /// BSD `t_rxtshift` after this expiry.
        retransmissions: u32,
    },
}
