//! Reno as Linux runs it: RFC 5681's congestion control with the defaults where Linux
//! departs from the RFC's recommended formulas.
//!
//! * Initial window 10 segments (RFC 6928 "Increasing TCP's Initial Window", Chu, Dukkipati,
//!   Cheng, Mathis, 2013), the policies' default for `cc = "linux-reno"`.
//! * Linux counts segments, not ACKs (RFC 3465 "TCP Congestion Control with Appropriate Byte
//!   Counting", Allman, 2003): in slow start `cwnd` grows by every octet an ACK acknowledges,
//!   so a delayed ACK of two segments adds two (RFC 5681 (2) adds at most one SMSS); octets
//!   past `ssthresh` count towards congestion avoidance.
//! * Congestion avoidance adds one SMSS per `cwnd` octets acknowledged (RFC 3465 §2.1, the
//!   byte-counting form RFC 5681 §3.1 allows), carrying the remainder.
//! * Loss: `ssthresh = max(FlightSize / 2, 2·SMSS)` (RFC 5681 (4)), held when the same data
//!   times out again; after a timeout the endpoint restarts from one segment (RFC 5681 §3.1,
//!   the loss window, which Linux also uses).

use super::rfc5681::reno_ssthresh;
use super::{CongestionControl, HyStart};
use crate::tcb::{AckInfo, LossKind, Tcb};
use celltrain_core::SimTime;

/// Linux's Reno window arithmetic.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinuxRenoCc {
    /// Octets acknowledged in congestion avoidance since `cwnd` last grew.
    acked_in_ca: u64,
    /// HyStart++ in the initial slow start (off unless asked for).
    hystart: HyStart,
}

impl LinuxRenoCc {
    /// Linux's Reno.
    pub fn new() -> Self {
        LinuxRenoCc::default()
    }

    /// With HyStart++ (RFC 9406) in the initial slow start, or without.
    pub fn with_hystart(self, on: bool) -> Self {
        LinuxRenoCc { hystart: HyStart::new(on), ..self }
    }

    /// HyStart++'s state.
    pub fn hystart(&self) -> &HyStart {
        &self.hystart
    }

    /// Slow start up to `ssthresh`; returns the octets of `acked` left over above it.
    fn slow_start(tcb: &mut Tcb, acked: u32) -> u32 {
        let step = acked.min(tcb.ssthresh.saturating_sub(tcb.cwnd));
        tcb.cwnd = tcb.cwnd.saturating_add(step);
        acked - step
    }

    /// One SMSS per window of octets acknowledged (RFC 3465 §2.1).
    fn congestion_avoidance(&mut self, tcb: &mut Tcb, acked: u32) {
        self.acked_in_ca += u64::from(acked);
        let cwnd = u64::from(tcb.cwnd.max(1));
        if self.acked_in_ca >= cwnd {
            self.acked_in_ca -= cwnd;
            tcb.cwnd = tcb.cwnd.saturating_add(tcb.maxseg);
        }
    }
}

impl CongestionControl for LinuxRenoCc {
    fn name(&self) -> &'static str {
        "linux-reno"
    }

    fn ssthresh_after_loss(&mut self, tcb: &Tcb, loss: LossKind) -> u32 {
        self.acked_in_ca = 0;
        self.hystart.on_loss();
        reno_ssthresh(tcb, loss)
    }

    fn on_ack(&mut self, tcb: &mut Tcb, ack: &AckInfo, _now: SimTime) {
        if ack.syn_acked {
            return;
        }
        let mut acked = ack.acked;
        if tcb.cwnd < tcb.ssthresh {
            // HyStart++ caps and, in CSS, quarters the growth; what does not fit under
            // ssthresh still counts towards congestion avoidance.
            let growth = self.hystart.on_ack(tcb, ack).unwrap_or(acked);
            acked = Self::slow_start(tcb, growth);
        }
        if acked > 0 {
            self.congestion_avoidance(tcb, acked);
        }
        tcb.cwnd = tcb.cwnd.min(tcb.cwnd_cap());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::testing::{ack, tcb};

    const SMSS: u32 = 1000;

    #[test]
    fn slow_start_counts_every_octet_acknowledged() {
        let mut cc = LinuxRenoCc::new();
        let mut t = tcb(SMSS, 10 * SMSS, u32::MAX);
        cc.on_ack(&mut t, &ack(2 * SMSS), SimTime::ZERO);
        assert_eq!(t.cwnd, 12 * SMSS, "a delayed ACK of two segments adds two");
        cc.on_ack(&mut t, &ack(5 * SMSS), SimTime::ZERO);
        assert_eq!(t.cwnd, 17 * SMSS, "a stretch ACK adds all it covers");
        let mut syn = ack(1);
        syn.syn_acked = true;
        cc.on_ack(&mut t, &syn, SimTime::ZERO);
        assert_eq!(t.cwnd, 17 * SMSS, "the ACK of the SYN does not grow cwnd");
    }

    #[test]
    fn octets_past_ssthresh_count_towards_congestion_avoidance() {
        let mut cc = LinuxRenoCc::new();
        let mut t = tcb(SMSS, 9 * SMSS, 10 * SMSS);
        cc.on_ack(&mut t, &ack(2 * SMSS), SimTime::ZERO);
        assert_eq!((t.cwnd, cc.acked_in_ca), (10 * SMSS, 1000), "stops at ssthresh, one SMSS carried");
    }

    #[test]
    fn congestion_avoidance_adds_one_segment_per_window_acknowledged() {
        let mut cc = LinuxRenoCc::new();
        let mut t = tcb(SMSS, 10 * SMSS, 10 * SMSS);
        for i in 1..=9 {
            cc.on_ack(&mut t, &ack(SMSS), SimTime::ZERO);
            assert_eq!(t.cwnd, 10 * SMSS, "after {i} segments");
        }
        cc.on_ack(&mut t, &ack(SMSS), SimTime::ZERO);
        assert_eq!(t.cwnd, 11 * SMSS, "ten segments acknowledged: one more");
        // Delayed ACKs of two segments grow it just as fast (RFC 5681 (3) would take twice
        // as long: one increment of SMSS²/cwnd per ACK).
        for _ in 0..5 {
            cc.on_ack(&mut t, &ack(2 * SMSS), SimTime::ZERO);
        }
        assert_eq!((t.cwnd, cc.acked_in_ca), (11 * SMSS, 10_000));
        cc.on_ack(&mut t, &ack(2 * SMSS), SimTime::ZERO);
        assert_eq!((t.cwnd, cc.acked_in_ca), (12 * SMSS, 1000), "the remainder carries over");
    }

    #[test]
    fn a_loss_halves_the_flight_and_restarts_the_count() {
        let mut cc = LinuxRenoCc::new();
        let mut t = tcb(SMSS, 20 * SMSS, 10 * SMSS);
        cc.on_ack(&mut t, &ack(5 * SMSS), SimTime::ZERO);
        t.snd_max = t.snd_una + 16 * SMSS;
        assert_eq!(cc.ssthresh_after_loss(&t, LossKind::DupAcks), 8 * SMSS);
        assert_eq!(cc.acked_in_ca, 0);
        t.snd_max = t.snd_una + 3 * SMSS;
        assert_eq!(cc.ssthresh_after_loss(&t, LossKind::Timeout { retransmissions: 1 }), 2 * SMSS, "at least 2 SMSS");
        t.ssthresh = 7 * SMSS;
        assert_eq!(cc.ssthresh_after_loss(&t, LossKind::Timeout { retransmissions: 2 }), 7 * SMSS, "held");
    }
}
