//! NewReno (RFC 6582): partial acknowledgments keep the sender in fast recovery.

use super::{LossRecovery, RecoveryStep};
use crate::cc::CongestionControl;
use crate::sack::Scoreboard;
use crate::seq::SeqNum;
use crate::tcb::{AckInfo, CaState, LossKind, Tcb};

/// RFC 6582 §3.2 (`docs/references.md#newreno`), with the "Impatient" timer variant (§4: reset the
/// retransmit timer on the first partial ACK only) and full-ACK option (2)
/// ("Set cwnd to ssthresh").
///
/// ```text
/// (2) 3rd dup ACK, ack − 1 > recover:  recover = snd_max − 1; ssthresh = max(FlightSize/2, 2·SMSS)
///                                      retransmit snd_una; cwnd = ssthresh + 3·SMSS
///     3rd dup ACK otherwise:           no fast retransmit, ssthresh unchanged
/// (3) further dup ACK in recovery:     cwnd += SMSS
/// (5) partial ACK (ack − 1 < recover): retransmit the first unacknowledged segment;
///                                      cwnd −= newly acked; if newly acked ≥ SMSS: cwnd += SMSS
/// (5) full ACK (ack − 1 ≥ recover):    cwnd = ssthresh; leave recovery
/// (4) timeout:                         recover = snd_max − 1; leave recovery
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewRenoRecovery {
    /// RFC 6582 `recover`: the highest sequence number sent when recovery last started
    /// (inclusive; initialised to the ISS).
    recover: SeqNum,
    /// Fast recovery in progress.
    in_recovery: bool,
    /// No partial ACK seen yet in this episode (Impatient timer rule).
    first_partial: bool,
}

impl NewRenoRecovery {
    /// A NewReno policy for a connection with initial send sequence number `iss`.
    pub fn new(iss: SeqNum) -> Self {
        NewRenoRecovery { recover: iss, in_recovery: false, first_partial: true }
    }

    /// RFC 6582 `recover` (inclusive).
    pub fn recover(&self) -> SeqNum {
        self.recover
    }
}

impl LossRecovery for NewRenoRecovery {
    fn name(&self) -> &'static str {
        "newreno"
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
            if !self.in_recovery {
                return RecoveryStep::normal(ack);
            }
            if ack.ack.gt(self.recover) {
                // Full acknowledgment: "the ACK acknowledges all of the data up to and
                // including recover" → option (2): cwnd = ssthresh.
                self.in_recovery = false;
                tcb.cwnd = tcb.ssthresh;
                return RecoveryStep { restart_rto: true, ca_state: Some(CaState::Open), ..RecoveryStep::default() };
            }
            // Partial acknowledgment: retransmit the first unacknowledged segment, deflate
            // by the amount acknowledged, add back one SMSS if at least one was acknowledged.
            tcb.cwnd = tcb.cwnd.saturating_sub(ack.acked);
            if ack.acked >= tcb.maxseg {
                tcb.cwnd += tcb.maxseg;
            }
            let restart = std::mem::take(&mut self.first_partial);
            return RecoveryStep { retransmit: Some(tcb.snd_una), restart_rto: restart, ..RecoveryStep::default() };
        }
        if !ack.is_dup {
            tcb.dupacks = 0;
            return RecoveryStep::default();
        }
        tcb.dupacks += 1;
        if self.in_recovery {
            tcb.cwnd = tcb.cwnd.saturating_add(tcb.maxseg);
            return RecoveryStep::default();
        }
        // "covers more than recover": ack − 1 > recover.
        if tcb.dupacks != tcb.dupack_threshold || !(ack.ack - 1).gt(self.recover) {
            return RecoveryStep::default();
        }
        self.recover = tcb.snd_max - 1;
        self.in_recovery = true;
        self.first_partial = true;
        tcb.ssthresh = cc.ssthresh_after_loss(tcb, LossKind::DupAcks);
        tcb.cwnd = tcb.ssthresh + tcb.dupack_threshold * tcb.maxseg;
        RecoveryStep {
            retransmit: Some(tcb.snd_una),
            entered: true,
            ca_state: Some(CaState::Recovery),
            ..RecoveryStep::default()
        }
    }

    fn on_rto(&mut self, tcb: &Tcb) {
        // RFC 6582 (4): "record the highest sequence number transmitted in recover".
        self.recover = tcb.snd_max - 1;
        self.in_recovery = false;
    }

    fn in_recovery(&self) -> bool {
        self.in_recovery
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::Rfc5681Cc;
    use crate::recovery::testing::*;

    #[test]
    fn reference_vector_7f_partial_and_full_acks() {
        // Vector 7.f (docs/references.md#test-vectors) in SMSS units. Segments 1 and 2 were
        // acknowledged and 11, 12 sent in
        // their place, so 3..=12 (ten segments) are outstanding when the duplicates for 4, 5
        // and 7 arrive; 3 and 6 are lost; recover = 12 (the vector's "10").
        let mut cc = Rfc5681Cc::new();
        let sb = Scoreboard::new();
        let mut r = NewRenoRecovery::new(SeqNum(1000));
        let mut t = tcb(3, 12, 10 * SMSS);
        {
            let a = dup(&t);
            r.on_ack(&mut t, &mut cc, &sb, &a)
        };
        {
            let a = dup(&t);
            r.on_ack(&mut t, &mut cc, &sb, &a)
        };
        let s = {
            let a = dup(&t);
            r.on_ack(&mut t, &mut cc, &sb, &a)
        };
        assert_eq!((s.retransmit, s.entered), (Some(seg(3)), true));
        assert_eq!((t.ssthresh, t.cwnd), (5 * SMSS, 8 * SMSS));
        assert_eq!(r.recover(), seg(13) - 1);
        for _ in 0..3 {
            assert_eq!(
                {
                    let a = dup(&t);
                    r.on_ack(&mut t, &mut cc, &sb, &a)
                }
                .retransmit,
                None
            );
        }
        assert_eq!(t.cwnd, 11 * SMSS);
        // ACK for the retransmitted 3 covers 3, 4, 5: partial.
        let a = new_ack(&mut t, 6);
        let s = r.on_ack(&mut t, &mut cc, &sb, &a);
        assert_eq!(s.retransmit, Some(seg(6)));
        assert!(s.restart_rto && !s.grow_window);
        assert_eq!(t.cwnd, 9 * SMSS, "11 − 3 + 1");
        // A second partial ACK does not restart the timer (Impatient).
        let a = new_ack(&mut t, 7);
        let s = r.on_ack(&mut t, &mut cc, &sb, &a);
        assert_eq!((s.retransmit, s.restart_rto), (Some(seg(7)), false));
        assert_eq!(t.cwnd, 9 * SMSS, "9 − 1 + 1");
        // Full ACK.
        let a = new_ack(&mut t, 13);
        let s = r.on_ack(&mut t, &mut cc, &sb, &a);
        assert_eq!((s.retransmit, s.grow_window, s.ca_state), (None, false, Some(CaState::Open)));
        assert_eq!(t.cwnd, 5 * SMSS);
        assert!(!r.in_recovery());
    }

    #[test]
    fn no_second_fast_retransmit_below_recover() {
        let mut cc = Rfc5681Cc::new();
        let sb = Scoreboard::new();
        let mut r = NewRenoRecovery::new(SeqNum(1000));
        let mut t = tcb(2, 10, 9 * SMSS);
        for _ in 0..3 {
            {
                let a = dup(&t);
                r.on_ack(&mut t, &mut cc, &sb, &a)
            };
        }
        assert!(r.in_recovery());
        let a = new_ack(&mut t, 11);
        r.on_ack(&mut t, &mut cc, &sb, &a);
        // A timeout records recover = snd_max − 1; duplicates for data below it never trigger.
        t.snd_max = seg(21);
        r.on_rto(&t);
        let a = new_ack(&mut t, 15);
        r.on_ack(&mut t, &mut cc, &sb, &a);
        let ssthresh = t.ssthresh;
        for _ in 0..5 {
            assert_eq!(
                {
                    let a = dup(&t);
                    r.on_ack(&mut t, &mut cc, &sb, &a)
                }
                .retransmit,
                None
            );
        }
        assert_eq!(t.ssthresh, ssthresh, "ssthresh not reset");
        assert!(!r.in_recovery());
    }

    #[test]
    fn loss_of_the_first_data_segment_follows_rfc_recover_initialisation() {
        // recover = ISS, so duplicates of ack ISS+1 do not "cover more than recover".
        let mut cc = Rfc5681Cc::new();
        let sb = Scoreboard::new();
        let mut r = NewRenoRecovery::new(SeqNum(1000));
        let mut t = tcb(1, 10, 10 * SMSS);
        assert_eq!(t.snd_una, SeqNum(1001));
        for _ in 0..3 {
            {
                let a = dup(&t);
                r.on_ack(&mut t, &mut cc, &sb, &a)
            };
        }
        assert!(!r.in_recovery(), "ack − 1 = 1000 = recover: not more than recover");
        assert_eq!(t.ssthresh, crate::tcb::INITIAL_SSTHRESH);
    }
}
