//! Reno fast retransmit / fast recovery: the RFC 5681 §3.2 text ([`RenoRecovery`]) and the
//! 4.4BSD-Lite2 code ([`LiteRecovery`]), which differ in their window arithmetic.

use super::{LossRecovery, RecoveryStep};
use crate::cc::CongestionControl;
use crate::sack::Scoreboard;
use crate::tcb::{AckInfo, CaState, LossKind, Tcb};

/// RFC 5681 §3.2 fast retransmit / fast recovery.
///
/// ```text
/// (2) 3rd duplicate ACK: ssthresh = max(FlightSize/2, 2·SMSS)          (congestion control)
/// (3) retransmit the lost segment; cwnd = ssthresh + 3·SMSS            (DupThresh·SMSS)
/// (4) each further duplicate ACK: cwnd += SMSS
/// (6) next ACK acknowledging new data: cwnd = ssthresh ("deflating"), leave recovery
/// ```
/// The deflating ACK does not also grow the window. Any duplicate-ACK run reaching the
/// threshold outside recovery starts a new episode (no `recover` guard: that is NewReno).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RenoRecovery {
    /// Fast recovery in progress.
    in_recovery: bool,
}

impl RenoRecovery {
    /// An RFC 5681 Reno recovery policy.
    pub fn new() -> Self {
        RenoRecovery::default()
    }
}

impl LossRecovery for RenoRecovery {
    fn name(&self) -> &'static str {
        "reno"
    }

    fn on_ack(
        &mut self,
        tcb: &mut Tcb,
        cc: &mut dyn CongestionControl,
        _sb: &Scoreboard,
        ack: &AckInfo,
    ) -> RecoveryStep {
        if ack.acked > 0 {
            tcb.dupacks = 0;
            if std::mem::take(&mut self.in_recovery) {
                // RFC 5681 (6): "set cwnd to ssthresh ... deflating the window".
                tcb.cwnd = tcb.ssthresh;
                return RecoveryStep { restart_rto: true, ca_state: Some(CaState::Open), ..RecoveryStep::default() };
            }
            return RecoveryStep::normal(ack);
        }
        if !ack.is_dup {
            tcb.dupacks = 0;
            return RecoveryStep::default();
        }
        tcb.dupacks += 1;
        if self.in_recovery {
            // RFC 5681 (4): "increment cwnd by SMSS" per additional duplicate.
            tcb.cwnd = tcb.cwnd.saturating_add(tcb.maxseg);
            return RecoveryStep::default();
        }
        if tcb.dupacks != tcb.dupack_threshold {
            return RecoveryStep::default();
        }
        tcb.ssthresh = cc.ssthresh_after_loss(tcb, LossKind::DupAcks);
        tcb.cwnd = tcb.ssthresh + tcb.dupack_threshold * tcb.maxseg;
        self.in_recovery = true;
        RecoveryStep {
            retransmit: Some(tcb.snd_una),
            entered: true,
            ca_state: Some(CaState::Recovery),
            ..RecoveryStep::default()
        }
    }

    fn on_rto(&mut self, _tcb: &Tcb) {
        self.in_recovery = false;
    }

    fn in_recovery(&self) -> bool {
        self.in_recovery
    }
}

/// 4.4BSD-Lite2 `tcp_input.c`, exactly (`docs/references.md#reno`):
///
/// ```text
/// on dup ACK:  if ++t_dupacks == tcprexmtthresh:
///                  snd_ssthresh = max(min(snd_wnd, snd_cwnd)/2/t_maxseg, 2)·t_maxseg
///                  retransmit the segment at ack (cwnd = t_maxseg around tcp_output)
///                  snd_cwnd = snd_ssthresh + t_maxseg·t_dupacks
///              elif t_dupacks > tcprexmtthresh: snd_cwnd += t_maxseg
/// on new ACK:  if t_dupacks > tcprexmtthresh && snd_cwnd > snd_ssthresh: snd_cwnd = snd_ssthresh
///              t_dupacks = 0, then the ordinary per-ACK window growth
/// ```
///
/// What 4.4BSD-Lite does on leaving recovery, and what this models:
/// * the deflation is guarded by `t_dupacks > tcprexmtthresh` (strictly): after exactly
///   three duplicates the window is *not* deflated and stays `ssthresh + 3·MSS`;
/// * the deflating ACK then gets the ordinary increment, and since `cwnd == ssthresh` is not
///   `> ssthresh` that is a full `t_maxseg`: Lite leaves recovery with
///   **cwnd = ssthresh + 1 MSS** (vector 7.e, `docs/references.md#test-vectors`: 4096 → 4608);
/// * any non-duplicate ACK that acknowledges nothing (a window update) resets `t_dupacks`
///   and so cancels the later deflation;
/// * the header-prediction fast path of Lite's `tcp_input` (modelled by the endpoint for
///   this variant) handles a pure in-sequence ACK with `snd_cwnd >= snd_wnd` without
///   calling this policy at all: no deflation, no `t_dupacks` reset, no window growth.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LiteRecovery;

impl LiteRecovery {
    /// The 4.4BSD-Lite2 Reno code.
    pub fn new() -> Self {
        LiteRecovery
    }
}

impl LossRecovery for LiteRecovery {
    fn name(&self) -> &'static str {
        "lite"
    }

    fn on_ack(
        &mut self,
        tcb: &mut Tcb,
        cc: &mut dyn CongestionControl,
        _sb: &Scoreboard,
        ack: &AckInfo,
    ) -> RecoveryStep {
        if ack.acked > 0 {
            let mut step = RecoveryStep::normal(ack);
            if tcb.dupacks >= tcb.dupack_threshold {
                step.ca_state = Some(CaState::Open);
            }
            // "If the congestion window was inflated to account for the other side's
            // cached packets, retract it."
            if tcb.dupacks > tcb.dupack_threshold && tcb.cwnd > tcb.ssthresh {
                tcb.cwnd = tcb.ssthresh;
            }
            tcb.dupacks = 0;
            return step;
        }
        if !ack.is_dup {
            tcb.dupacks = 0;
            return RecoveryStep::default();
        }
        tcb.dupacks += 1;
        if tcb.dupacks == tcb.dupack_threshold {
            tcb.ssthresh = cc.ssthresh_after_loss(tcb, LossKind::DupAcks);
            tcb.cwnd = tcb.ssthresh + tcb.maxseg * tcb.dupacks;
            RecoveryStep {
                retransmit: Some(tcb.snd_una),
                entered: true,
                ca_state: Some(CaState::Recovery),
                ..RecoveryStep::default()
            }
        } else {
            if tcb.dupacks > tcb.dupack_threshold {
                tcb.cwnd = tcb.cwnd.saturating_add(tcb.maxseg);
            }
            RecoveryStep::default()
        }
    }

    fn on_rto(&mut self, _tcb: &Tcb) {}

    fn in_recovery(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::{BsdCc, Rfc5681Cc};
    use crate::config::BsdCaIncrement;
    use crate::recovery::testing::*;
    use crate::seq::SeqNum;
    use celltrain_core::SimTime;

    /// Vector 7.e in units of MSS 512 (segments of 512 starting at 1001).
    fn lite_tcb(cwnd: u32) -> Tcb {
        let mut t = Tcb::new(SeqNum(1000), 512, cwnd, 3);
        t.snd_wnd = 65_535;
        t.snd_una = SeqNum(1001);
        t.snd_max = SeqNum(1001 + 16 * 512);
        t.snd_nxt = t.snd_max;
        t
    }

    fn apply(r: &mut dyn LossRecovery, cc: &mut dyn CongestionControl, t: &mut Tcb, a: &AckInfo) -> RecoveryStep {
        let s = r.on_ack(t, cc, &Scoreboard::new(), a);
        if a.acked > 0 && s.grow_window {
            cc.on_ack(t, a, SimTime::ZERO);
        }
        s
    }

    fn ack_to(t: &mut Tcb, to: SeqNum) -> AckInfo {
        let acked = to - t.snd_una;
        t.snd_una = to;
        AckInfo { ack: to, ..crate::cc::testing::ack(acked) }
    }

    #[test]
    fn reference_vector_7e_lite_exits_at_ssthresh_plus_one_mss() {
        let mut cc = BsdCc::new(BsdCaIncrement::MaxsegSquaredOverCwnd);
        let mut r = LiteRecovery::new();
        let mut t = lite_tcb(8192);
        {
            let a = dup(&t);
            apply(&mut r, &mut cc, &mut t, &a)
        };
        {
            let a = dup(&t);
            apply(&mut r, &mut cc, &mut t, &a)
        };
        let s = {
            let a = dup(&t);
            apply(&mut r, &mut cc, &mut t, &a)
        };
        assert_eq!(s.retransmit, Some(SeqNum(1001)));
        assert_eq!((t.ssthresh, t.cwnd), (4096, 5632));
        {
            let a = dup(&t);
            apply(&mut r, &mut cc, &mut t, &a)
        };
        {
            let a = dup(&t);
            apply(&mut r, &mut cc, &mut t, &a)
        };
        assert_eq!(t.cwnd, 6656);
        let a = ack_to(&mut t, SeqNum(1001 + 16 * 512));
        let s = apply(&mut r, &mut cc, &mut t, &a);
        assert!(s.grow_window);
        assert_eq!(t.cwnd, 4608, "deflate to 4096, then the same ACK's slow-start increment");
        assert_eq!(t.dupacks, 0);
    }

    #[test]
    fn lite_does_not_deflate_after_exactly_three_duplicates() {
        let mut cc = BsdCc::new(BsdCaIncrement::MaxsegSquaredOverCwnd);
        let mut r = LiteRecovery::new();
        let mut t = lite_tcb(8192);
        for _ in 0..3 {
            {
                let a = dup(&t);
                apply(&mut r, &mut cc, &mut t, &a)
            };
        }
        assert_eq!(t.cwnd, 5632);
        let a = ack_to(&mut t, SeqNum(1001 + 16 * 512));
        apply(&mut r, &mut cc, &mut t, &a);
        // 5632 > 4096: congestion avoidance, 512*512/5632 = 46.
        assert_eq!(t.cwnd, 5632 + 46);
    }

    #[test]
    fn lite_window_update_cancels_deflation() {
        let mut cc = BsdCc::new(BsdCaIncrement::MaxsegSquaredOverCwnd);
        let mut r = LiteRecovery::new();
        let mut t = lite_tcb(8192);
        for _ in 0..5 {
            {
                let a = dup(&t);
                apply(&mut r, &mut cc, &mut t, &a)
            };
        }
        let mut upd = dup(&t);
        upd.is_dup = false;
        apply(&mut r, &mut cc, &mut t, &upd);
        assert_eq!(t.dupacks, 0);
        let a = ack_to(&mut t, SeqNum(1001 + 16 * 512));
        apply(&mut r, &mut cc, &mut t, &a);
        assert_eq!(t.cwnd, 6656 + 512 * 512 / 6656, "still inflated, CA increment 39");
    }

    #[test]
    fn rfc5681_reno_deflates_to_ssthresh_without_growth() {
        let mut cc = Rfc5681Cc::new();
        let mut r = RenoRecovery::new();
        let mut t = tcb(1, 10, 10 * SMSS);
        for _ in 0..3 {
            {
                let a = dup(&t);
                apply(&mut r, &mut cc, &mut t, &a)
            };
        }
        assert_eq!((t.ssthresh, t.cwnd), (5 * SMSS, 8 * SMSS), "FlightSize 10 → 5, + 3");
        assert!(r.in_recovery());
        {
            let a = dup(&t);
            apply(&mut r, &mut cc, &mut t, &a)
        };
        assert_eq!(t.cwnd, 9 * SMSS);
        let a = new_ack(&mut t, 5);
        let s = apply(&mut r, &mut cc, &mut t, &a);
        assert!(!s.grow_window);
        assert_eq!(s.ca_state, Some(CaState::Open));
        assert_eq!(t.cwnd, 5 * SMSS);
        assert!(!r.in_recovery());
        // A fresh run of three duplicates starts a new episode (no recover guard).
        for _ in 0..3 {
            {
                let a = dup(&t);
                apply(&mut r, &mut cc, &mut t, &a)
            };
        }
        assert!(r.in_recovery());
    }
}
