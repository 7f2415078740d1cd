//! Congestion control: window arithmetic only (ns-3 `TcpCongestionOps`).
//!
//! A [`CongestionControl`] never sends and never schedules. It answers two questions: how
//! far `ssthresh` drops after a loss, and how `cwnd` grows when an ACK acknowledges new data
//! outside loss recovery. Loss recovery (what happens between "loss inferred" and "recovery
//! point acknowledged") is the separate [`crate::recovery::LossRecovery`] trait.
//!
//! Five implementations:
//! * [`BsdCc`]: the 4.4BSD `tcp_input.c` arithmetic (per ACK, not per byte;
//!   `docs/references.md#bsd-window-arithmetic`),
//!   used by `tahoe`, `lite`, `lite-afr`, `vegas-rm` and `vegas-rm-afr`;
//! * [`Rfc5681Cc`]: RFC 5681 §3.1 (`reno`, `newreno`, `sack`);
//! * [`VegasCc`]: Vegas congestion avoidance and slow start (`vegas`, `vegas-afr`), fed by
//!   `on_fine_rtt` from the endpoint's per-segment send times;
//! * [`CubicCc`]: CUBIC, RFC 9438 (`cc = "cubic"`), which keeps W_max across losses;
//! * [`LinuxRenoCc`]: RFC 5681 Reno with Linux's byte counting (`cc = "linux-reno"`).
//!
//! The two Linux controls run their initial slow start through [`HyStart`] (RFC 9406) when
//! `hystart` is on.

mod bsd;
mod cubic;
mod hystart;
mod linux_reno;
mod rfc5681;
mod vegas;

pub use bsd::BsdCc;
pub use cubic::{k_seconds, w_cubic, CubicCc};
pub use hystart::{rtt_thresh, HyStart, Phase as HyStartPhase};
pub use linux_reno::LinuxRenoCc;
pub use rfc5681::Rfc5681Cc;
pub use vegas::{diff_band, DiffBand, VegasCc, VegasParams};

use crate::seq::SeqNum;
use crate::tcb::{AckInfo, CaState, LossKind, Tcb};
use celltrain_core::{SimDuration, SimTime};
use std::fmt;

/// Window arithmetic of a TCP sender.
pub trait CongestionControl: fmt::Debug {
    /// Short name for reports.
    fn name(&self) -> &'static str;

    /// The slow-start threshold after a loss event; the caller applies it. Called once per
    /// loss event, before `cwnd` is reduced, so a control that keeps state across losses
    /// (CUBIC remembers the window the loss happened at) updates it here.
    fn ssthresh_after_loss(&mut self, tcb: &Tcb, loss: LossKind) -> u32;

    /// An ACK acknowledged new data and the loss recovery allowed window growth.
    fn on_ack(&mut self, tcb: &mut Tcb, ack: &AckInfo, now: SimTime);

    /// Every RTT sample fed to the retransmission-timer estimator (Vegas needs them all).
    fn on_rtt_sample(&mut self, _tcb: &Tcb, _rtt: SimDuration, _now: SimTime) {}

    /// A data segment `[seq, seq + len)` was transmitted (Vegas timestamps it).
    fn on_send(&mut self, _tcb: &Tcb, _seq: SeqNum, _len: u32, _now: SimTime) {}

    /// A round-trip time measured on the sender's fine-grained clock (per-segment send
    /// times; variants that keep them only), for every ACK of a segment sent once.
    fn on_fine_rtt(&mut self, _tcb: &Tcb, _rtt: SimDuration, _now: SimTime) {}

    /// The congestion state is about to change from `from` to `to`.
    fn on_ca_state(&mut self, _tcb: &Tcb, _from: CaState, _to: CaState) {}
}

#[cfg(test)]
pub(crate) mod testing {
    use crate::seq::SeqNum;
    use crate::tcb::{AckInfo, Tcb};

    /// A block in steady state: `cwnd` octets, `maxseg` MSS, peer window 65535.
    pub fn tcb(maxseg: u32, cwnd: u32, ssthresh: u32) -> Tcb {
        let mut t = Tcb::new(SeqNum(1000), maxseg, cwnd, 3);
        t.ssthresh = ssthresh;
        t.snd_wnd = 65_535;
        t.snd_una = SeqNum(1001);
        t.snd_nxt = SeqNum(1001);
        t.snd_max = SeqNum(1001);
        t
    }

    /// An ACK of `acked` new octets.
    pub fn ack(acked: u32) -> AckInfo {
        AckInfo {
            ack: SeqNum(0),
            acked,
            is_dup: false,
            newly_sacked: 0,
            flight_before: 0,
            syn_acked: false,
            ..AckInfo::default()
        }
    }
}
