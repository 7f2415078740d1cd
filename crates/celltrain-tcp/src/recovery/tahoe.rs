//! 4.3BSD-Tahoe fast retransmit (`docs/references.md#tahoe`; the Tahoe-only details are not
//! confirmed from Tahoe's code, see `docs/references.md#unconfirmed-points`).

use super::{LossRecovery, RecoveryStep};
use crate::cc::CongestionControl;
use crate::sack::Scoreboard;
use crate::tcb::{AckInfo, CaState, LossKind, Tcb};

/// Tahoe: on the third duplicate ACK, `ssthresh` drops (BSD formula via the congestion
/// control), `cwnd = 1 MSS`, the segment at `snd_una` is retransmitted, `snd_nxt` is kept
/// (BSD restores `onxt`), further duplicates are ignored, and the next new ACK continues in
/// slow start. No window inflation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TahoeRecovery {
    /// A fast retransmit happened and no new data has been acknowledged since.
    in_fr: bool,
}

impl TahoeRecovery {
    /// A Tahoe recovery policy.
    pub fn new() -> Self {
        TahoeRecovery::default()
    }
}

impl LossRecovery for TahoeRecovery {
    fn name(&self) -> &'static str {
        "tahoe"
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
            let mut step = RecoveryStep::normal(ack);
            if std::mem::take(&mut self.in_fr) {
                step.ca_state = Some(CaState::Open);
            }
            return step;
        }
        if !ack.is_dup {
            tcb.dupacks = 0;
            return RecoveryStep::default();
        }
        tcb.dupacks += 1;
        if tcb.dupacks != tcb.dupack_threshold {
            return RecoveryStep::default();
        }
        tcb.ssthresh = cc.ssthresh_after_loss(tcb, LossKind::DupAcks);
        tcb.cwnd = tcb.maxseg;
        self.in_fr = true;
        RecoveryStep {
            retransmit: Some(tcb.snd_una),
            entered: true,
            ca_state: Some(CaState::Recovery),
            ..RecoveryStep::default()
        }
    }

    fn on_rto(&mut self, _tcb: &Tcb) {
        self.in_fr = false;
    }

    fn in_recovery(&self) -> bool {
        self.in_fr
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::BsdCc;
    use crate::config::BsdCaIncrement;
    use crate::recovery::testing::*;
    use celltrain_core::SimTime;

    #[test]
    fn third_dupack_sets_cwnd_to_one_segment_then_slow_start() {
        let mut cc = BsdCc::new(BsdCaIncrement::MaxsegSquaredOverCwnd);
        let mut r = TahoeRecovery::new();
        let sb = Scoreboard::new();
        let mut t = tcb(1, 16, 16 * SMSS);
        for i in 1..=2 {
            let s = {
                let a = dup(&t);
                r.on_ack(&mut t, &mut cc, &sb, &a)
            };
            assert_eq!((s.retransmit, t.dupacks, t.cwnd), (None, i, 16 * SMSS));
        }
        let s = {
            let a = dup(&t);
            r.on_ack(&mut t, &mut cc, &sb, &a)
        };
        assert_eq!(s.retransmit, Some(seg(1)));
        assert!(s.entered);
        assert_eq!((t.ssthresh, t.cwnd), (8 * SMSS, SMSS));
        let s = {
            let a = dup(&t);
            r.on_ack(&mut t, &mut cc, &sb, &a)
        };
        assert_eq!((s.retransmit, t.cwnd), (None, SMSS), "further duplicates ignored");
        let a = new_ack(&mut t, 17);
        let s = r.on_ack(&mut t, &mut cc, &sb, &a);
        assert!(s.grow_window && s.restart_rto);
        assert_eq!(s.ca_state, Some(CaState::Open));
        cc.on_ack(&mut t, &a, SimTime::ZERO);
        assert_eq!((t.cwnd, t.dupacks), (2 * SMSS, 0), "slow start from one segment");
    }
}
