//! celltrain-tcp: a sans-IO TCP endpoint as 4.4BSD really ran it, for a cell-level
//! simulator of TCP/IP over ATM.
//!
//! ```text
//!   application ── write(bytes) / close() ─┐            ┌── read() ──► application
//!                                          ▼            │
//!   TcpEndpoint (A) ── poll_transmit() ──► Segment ──► [IP / AAL5 / cells / switches] ──►
//!        ▲   ▲                                                                         │
//!        │   └── on_timeout(now) ◄── simulator (one wake-up at poll_timeout())         │
//!        └────── on_segment(now, &seg) ◄── [… ACKs back the same way …] ◄── TcpEndpoint (B)
//! ```
//!
//! # What is modelled
//! * Byte sequence numbers with wrap-around ([`SeqNum`], serial-number comparisons), real
//!   header fields and options ([`Segment`], [`TcpOptions`]: MSS, window scale,
//!   SACK-permitted, timestamps, up to four SACK blocks), but no payload bytes: the
//!   application writes and reads byte *counts*.
//! * BSD timing: a host slow timer (`timer_granularity`: 500/200/10 ms or exact) with a
//!   host-wide phase, RTTs counted in ticks, the 4.4BSD fixed-point estimator, `t_rttmin`,
//!   back-off, 64 s cap, give-up after 12 retransmissions; the 200 ms fast timer for delayed
//!   ACKs (`docs/references.md#bsd-timers`, `docs/references.md#bsd-rtt-estimator`,
//!   `docs/references.md#delayed-acks`).
//! * Congestion control and loss recovery as separate pluggable policies sharing a small
//!   [`Tcb`] ([`CongestionControl`], [`LossRecovery`]), chosen independently ([`Policies`]);
//!   named variants for the classic pairs `tahoe`, `reno`, `lite`, `newreno`, `sack`, and the
//!   TCP Vegas family with adaptive fast retransmit (`lite-afr`, `vegas-rm`, `vegas-rm-afr`,
//!   `vegas`, `vegas-afr`) ([`Variant`]).
//! * Linux's loss recovery pieces as recoveries of their own: `prr` (RFC 6675's detection
//!   with RFC 6937 Proportional Rate Reduction) and `rack-tlp` (RFC 8985 RACK-TLP deciding
//!   what is lost, PRR how much to send), with RACK's reordering timer and TLP's probe
//!   timeout as the recovery's own timer ([`recovery::Rack`]).
//! * Linux's host ([`TcpConfig::linux`]): its timers on jiffies of 1/HZ s with the
//!   200 ms-floored deviation term ([`rtt::LinuxRtt`]), its delayed ACKs with quick-ACK mode
//!   ([`delack::LinuxDelack`]), IW10, and optional sender pacing (`max_pacing_rate_bps`)
//!   (`docs/references.md#linux-stack`).
//! * Vegas's fine-grained clock is the simulator's own: the endpoint stamps each segment
//!   with the `now` it is sent at and hands the policies the ACK's `now`
//!   ([`send_log::SendLog`], [`tcb::AckInfo`]), so the sans-IO contract is unchanged.
//! * The receiver: reassembly queue, immediate ACKs for out-of-order data, delayed ACKs
//!   (BSD / SunOS rules), RFC 2018 SACK blocks, receiver SWS avoidance, window updates.
//!
//! # What is abstracted away
//! Payload bytes, checksums, urgent data, IP, PAWS, keep-alive and the connection-
//! establishment timer, listen queues. See [`endpoint`] for the driving contract.
//!
//! # Choices and deviations (sources: `docs/references.md`, section "TCP")
//! * `reno` is RFC 5681 Reno (ssthresh = max(FlightSize/2, 2·SMSS), deflate to ssthresh);
//!   the 4.4BSD code, with its `min(snd_wnd, cwnd)` ssthresh rounded to whole segments and
//!   its exit at ssthresh + 1 MSS (vector 7.e), is `lite`. `tahoe` uses the BSD
//!   arithmetic; its Tahoe-only details are not confirmed from Tahoe's code
//!   (`docs/references.md#unconfirmed-points`).
//! * `lite` also models 4.4BSD-Lite's header-prediction pure-ACK path (no window update,
//!   no `t_dupacks` reset, no deflation when `snd_cwnd >= snd_wnd`), and the
//!   `t_dupacks > tcprexmtthresh` deflation guard (no deflation after exactly three).
//! * With timestamps, `t_maxseg` itself is 12 octets smaller (as FreeBSD does);
//!   4.4BSD-Lite2 kept `t_maxseg` and trimmed each segment by the option length instead.
//! * `t_rttmin` stays a tick count for every granularity (2 ticks, 4.4BSD's `TCPTV_MIN`); the
//!   other BSD constants are seconds × ticks-per-second.
//! * NewReno: full-ACK option (2) `cwnd = ssthresh` (vector 7.f), "Impatient" timer,
//!   `recover` initialised to the ISS, so loss of the very first data segment is repaired
//!   by the RTO, as RFC 6582 reads.
//! * SACK blocks are sent on pure ACKs only (data segments keep their full payload).
//! * A window update is never taken from a segment carrying SYN (its window is unscaled).
//! * `close()` before the handshake completes takes effect on reaching ESTABLISHED.
//! * A CLOSED endpoint answers stray segments with an RST (the host without a TCB).
//!
//! # Determinism
//! Everything is integer arithmetic on [`celltrain_core::SimTime`] picoseconds and 32-bit
//! sequence numbers; there is no hidden clock, randomness or hash iteration. The same
//! inputs give the same outputs.
#![forbid(unsafe_code)]

pub mod cc;
pub mod config;
pub mod delack;
pub mod endpoint;
pub mod policy;
pub mod reass;
pub mod recovery;
pub mod rtt;
pub mod sack;
pub mod segment;
pub mod send_log;
pub mod seq;
pub mod stats;
pub mod tcb;
pub mod timers;

#[cfg(test)]
mod tests;

pub use cc::CongestionControl;
pub use config::{
    BsdCaIncrement, CcKind, DelayedAck, MssChoice, Policies, RecoveryKind, RtoFormula, TcpConfig, TcpConfigError,
    TimerGranularity, Variant,
};
pub use endpoint::{Negotiated, State, TcpEndpoint};
pub use recovery::LossRecovery;
pub use segment::{Flags, SackBlock, Segment, TcpOptions};
pub use seq::SeqNum;
pub use stats::TcpStats;
pub use tcb::{CaState, Tcb};
