//! TCP Vegas's retransmission mechanism ("Vegas-RM"; Brakmo & Peterson 1995, as Aron &
//! Druschel 1997 isolate it; `docs/references.md#vegas`).
//!
//! ```text
//! fine timeout  v_timeout = srtt + 2·mdev, + 1/16   (Jacobson's estimator on the sender's
//!               fine-grained clock, segments sent once only)
//! duplicate ACK: retransmit the oldest unacknowledged segment if it was last sent more than
//!               v_timeout ago, or on the dupack_threshold-th duplicate unless it has already
//!               been resent (then only the fine timeout resends it again)
//! first and second new ACK after a retransmission: the same check on the (new) oldest segment
//! window:       cut to 3/4 (to 1/2 if the segment had been retransmitted before; 2 segments if
//!               that leaves ≤ 3), only if the lost segment was sent after the last cut — so at
//!               most once per round trip; then Reno-style inflation per duplicate ACK and
//!               deflation on the next new ACK
//! after a fine-timeout retransmission: v_timeout × 2 if the segment had been retransmitted
//!               before, else + 1/8 (until the next RTT sample)
//! ```
//! Everything time-related comes with the ACK ([`AckInfo::now`], [`AckInfo::fine_rtt`],
//! [`AckInfo::una_sent`]): the policy keeps no clock of its own.

use super::{LossRecovery, RecoveryStep};
use crate::cc::CongestionControl;
use crate::sack::Scoreboard;
use crate::tcb::{AckInfo, CaState, SentAt, Tcb};
use celltrain_core::{SimDuration, SimTime};

/// Jacobson's estimator in picoseconds, for Vegas's fine-grained timeout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FineTimeout {
    /// Smoothed RTT, picoseconds (`None` before the first sample).
    srtt_ps: Option<u64>,
    /// Smoothed mean deviation, picoseconds.
    mdev_ps: u64,
    /// Current timeout (after any back-off), picoseconds.
    timeout_ps: u64,
}

impl FineTimeout {
    /// A sample: srtt += (r − srtt)/8, mdev += (|r − srtt| − mdev)/4; the first sets
    /// srtt = r, mdev = r/2. The timeout is srtt + 2·mdev plus 1/16 of it (ns-2).
    pub fn sample(&mut self, rtt: SimDuration) {
        let r = rtt.as_picos();
        match self.srtt_ps {
            None => {
                self.srtt_ps = Some(r);
                self.mdev_ps = r / 2;
            }
            Some(s) => {
                let err = r.abs_diff(s);
                self.mdev_ps = (3 * self.mdev_ps + err) / 4;
                self.srtt_ps = Some((7 * s + r) / 8);
            }
        }
        let t = self.srtt_ps.unwrap_or(0) + 2 * self.mdev_ps;
        self.timeout_ps = t + t / 16;
    }

    /// The timeout, once a sample has been taken.
    pub fn timeout(&self) -> Option<SimDuration> {
        self.srtt_ps.map(|_| SimDuration::from_picos(self.timeout_ps))
    }

    /// Whether a segment last sent as `sent` has waited longer than the timeout at `now`.
    pub fn expired(&self, sent: Option<SentAt>, now: SimTime) -> bool {
        match (self.timeout(), sent) {
            (Some(t), Some(s)) => now.saturating_since(s.at) > t,
            _ => false,
        }
    }

    /// After a fine-timeout retransmission of a segment sent `transmissions` times before.
    fn back_off(&mut self, transmissions: u32) {
        if transmissions > 1 {
            self.timeout_ps = self.timeout_ps.saturating_mul(2);
        } else {
            self.timeout_ps += self.timeout_ps / 8;
        }
    }
}

/// The Vegas window after a loss: 3/4 (1/2 for a segment retransmitted before) of
/// `window_segments`, and 2 if that leaves 3 or fewer.
pub fn vegas_decrease(window_segments: u32, retransmitted_before: bool) -> u32 {
    let w = if retransmitted_before { window_segments >> 1 } else { window_segments - (window_segments >> 2) };
    if w <= 3 {
        2
    } else {
        w
    }
}

/// Vegas's retransmission mechanism.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VegasRmRecovery {
    /// Fine-grained timeout.
    fine: FineTimeout,
    /// Duplicate-ACK inflation in progress (deflate on the next new ACK).
    in_recovery: bool,
    /// When the window was last cut.
    last_decrease: Option<SimTime>,
    /// New ACKs after a retransmission still to be checked (ns-2 `v_worried_`).
    worried: u8,
}

impl VegasRmRecovery {
    /// A Vegas-RM policy with no RTT sample yet.
    pub fn new() -> Self {
        VegasRmRecovery::default()
    }

    /// The fine-grained timeout, once known.
    pub fn fine_timeout(&self) -> Option<SimDuration> {
        self.fine.timeout()
    }

    /// Cuts the window for a loss of the oldest segment, if it was sent after the last cut.
    /// Returns whether it did.
    fn decrease(&mut self, tcb: &mut Tcb, sent: Option<SentAt>, now: SimTime) -> bool {
        let after_last = match (self.last_decrease, sent) {
            (Some(d), Some(s)) => s.at > d,
            _ => true,
        };
        if !after_last {
            return false;
        }
        let seg = tcb.maxseg;
        let before = sent.is_some_and(|s| s.transmissions > 1);
        let w = vegas_decrease(tcb.snd_wnd.min(tcb.cwnd) / seg, before);
        tcb.ssthresh = w * seg;
        tcb.cwnd = tcb.ssthresh;
        self.last_decrease = Some(now);
        true
    }

    /// A fine-timeout (or threshold) retransmission of the oldest segment.
    fn retransmit_oldest(&mut self, tcb: &Tcb, ack: &AckInfo, fine: bool) -> RecoveryStep {
        if fine {
            self.fine.back_off(ack.una_sent.map_or(1, |s| s.transmissions));
        }
        self.worried = 2;
        RecoveryStep { retransmit: Some(tcb.snd_una), ..RecoveryStep::default() }
    }
}

impl LossRecovery for VegasRmRecovery {
    fn name(&self) -> &'static str {
        "vegas-rm"
    }

    fn on_ack(
        &mut self,
        tcb: &mut Tcb,
        _cc: &mut dyn CongestionControl,
        _sb: &Scoreboard,
        ack: &AckInfo,
    ) -> RecoveryStep {
        if let Some(r) = ack.fine_rtt {
            self.fine.sample(r);
        }
        if ack.acked > 0 {
            tcb.dupacks = 0;
            let mut step = if std::mem::take(&mut self.in_recovery) {
                tcb.cwnd = tcb.ssthresh;
                RecoveryStep { restart_rto: true, ca_state: Some(CaState::Open), ..RecoveryStep::default() }
            } else {
                RecoveryStep::normal(ack)
            };
            if self.worried > 0 && tcb.snd_una.lt(tcb.snd_max) {
                self.worried -= 1;
                if self.fine.expired(ack.una_sent, ack.now) {
                    self.decrease(tcb, ack.una_sent, ack.now);
                    let r = self.retransmit_oldest(tcb, ack, true);
                    step.retransmit = r.retransmit;
                    step.grow_window = false;
                }
            }
            return step;
        }
        if !ack.is_dup {
            tcb.dupacks = 0;
            return RecoveryStep::default();
        }
        tcb.dupacks += 1;
        let expired = self.fine.expired(ack.una_sent, ack.now);
        if self.in_recovery {
            tcb.cwnd = tcb.cwnd.saturating_add(tcb.maxseg);
            // A lost retransmission shows up as a second timeout during the same episode.
            return if expired { self.retransmit_oldest(tcb, ack, true) } else { RecoveryStep::default() };
        }
        // The threshold does not resend a segment whose retransmission is younger than the
        // fine timeout (the duplicates then come from data sent behind the first copy).
        let resent_recently = ack.una_sent.is_some_and(|s| s.transmissions > 1) && self.fine.timeout().is_some();
        let threshold = tcb.dupacks == tcb.dupack_threshold && !resent_recently;
        if !(threshold || expired) {
            return RecoveryStep::default();
        }
        if !self.decrease(tcb, ack.una_sent, ack.now) {
            // Already cut for this round trip: keep the window, recover within it.
            tcb.ssthresh = tcb.cwnd.max(2 * tcb.maxseg);
        }
        tcb.cwnd = tcb.ssthresh + tcb.dupacks * tcb.maxseg;
        self.in_recovery = true;
        let mut step = self.retransmit_oldest(tcb, ack, expired && !threshold);
        step.entered = true;
        step.ca_state = Some(CaState::Recovery);
        step
    }

    fn on_rto(&mut self, _tcb: &Tcb) {
        self.in_recovery = false;
        self.worried = 0;
    }

    fn in_recovery(&self) -> bool {
        self.in_recovery
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::BsdCc;
    use crate::config::BsdCaIncrement;
    use crate::recovery::testing::*;

    fn at_ms(x: u64) -> SimTime {
        SimTime::ZERO + SimDuration::from_millis(x)
    }

    #[test]
    fn reference_vector_8d_loss_decrease() {
        assert_eq!(vegas_decrease(16, false), 12);
        assert_eq!(vegas_decrease(12, false), 9);
        assert_eq!(vegas_decrease(3, false), 2);
        assert_eq!(vegas_decrease(2, false), 2);
        assert_eq!(vegas_decrease(16, true), 8);
    }

    #[test]
    fn fine_timeout_is_srtt_plus_two_mdev_plus_a_sixteenth() {
        let mut f = FineTimeout::default();
        assert_eq!(f.timeout(), None);
        f.sample(SimDuration::from_millis(64));
        // 64 + 2·32 = 128, + 8.
        assert_eq!(f.timeout(), Some(SimDuration::from_millis(136)));
        f.sample(SimDuration::from_millis(64));
        // mdev = 3·32/4 = 24: 64 + 48 = 112, + 7.
        assert_eq!(f.timeout(), Some(SimDuration::from_millis(119)));
    }

    /// A Vegas-RM sender with segments 1..=10 out, each sent at `sent_ms`, and a fine timeout
    /// of 136 ms (one 64 ms sample).
    fn setup(sent_ms: u64) -> (VegasRmRecovery, Tcb, SentAt) {
        let mut r = VegasRmRecovery::new();
        r.fine.sample(SimDuration::from_millis(64));
        (r, tcb(1, 10, 10 * SMSS), SentAt { at: at_ms(sent_ms), transmissions: 1 })
    }

    fn dup_at(t: &Tcb, now: SimTime, sent: SentAt) -> AckInfo {
        AckInfo { now, una_sent: Some(sent), ..dup(t) }
    }

    #[test]
    fn first_duplicate_retransmits_once_the_fine_timeout_has_passed_and_not_before() {
        let mut cc = BsdCc::new(BsdCaIncrement::default());
        let sb = Scoreboard::new();
        // Sent at 0, timeout 136 ms: a first duplicate at 136 ms is not late enough.
        let (mut r, mut t, sent) = setup(0);
        let a = dup_at(&t, at_ms(136), sent);
        let s = r.on_ack(&mut t, &mut cc, &sb, &a);
        assert_eq!(s, RecoveryStep::default());
        assert_eq!((t.dupacks, t.cwnd), (1, 10 * SMSS));
        // At 137 ms it is: retransmit at once, window 10 → 10 − 10/4 = 8 (+1 inflation).
        let (mut r, mut t, sent) = setup(0);
        let a = dup_at(&t, at_ms(137), sent);
        let s = r.on_ack(&mut t, &mut cc, &sb, &a);
        assert_eq!(s.retransmit, Some(seg(1)));
        assert!(s.entered);
        assert_eq!((t.ssthresh, t.cwnd), (8 * SMSS, 9 * SMSS));
        // The fine timeout backs off by 1/8 after a retransmission of a segment sent once.
        assert_eq!(r.fine_timeout(), Some(SimDuration::from_millis(153)));
        // Without any RTT sample there is no fine timeout: only the third duplicate counts.
        let mut r = VegasRmRecovery::new();
        let mut t = tcb(1, 10, 10 * SMSS);
        let steps: Vec<bool> = (0..3)
            .map(|_| {
                let a = dup_at(&t, at_ms(10_000), sent);
                r.on_ack(&mut t, &mut cc, &sb, &a).retransmit.is_some()
            })
            .collect();
        assert_eq!(steps, [false, false, true]);
    }

    /// Recovery entered by three duplicate ACKs at 50 ms (segment 1 sent at 0).
    fn after_three_dups_at_50_ms(cc: &mut BsdCc, sb: &Scoreboard) -> (VegasRmRecovery, Tcb, SentAt) {
        let (mut r, mut t, sent) = setup(0);
        for _ in 0..3 {
            let a = dup_at(&t, at_ms(50), sent);
            r.on_ack(&mut t, cc, sb, &a);
        }
        (r, t, sent)
    }

    #[test]
    fn first_two_new_acks_after_a_retransmission_check_the_oldest_segment() {
        let (mut cc, sb) = (BsdCc::new(BsdCaIncrement::default()), Scoreboard::new());
        let (mut r, mut t, sent) = after_three_dups_at_50_ms(&mut cc, &sb);
        assert!(r.in_recovery());
        assert_eq!(t.ssthresh, 8 * SMSS);
        // New ACK for segment 1 at 200 ms: segment 2 (sent at 0) is overdue → resend, no
        // second cut (it was sent before the cut at 50 ms).
        let mut a = new_ack(&mut t, 2);
        a.now = at_ms(200);
        a.una_sent = Some(sent);
        let s = r.on_ack(&mut t, &mut cc, &sb, &a);
        assert_eq!(s.retransmit, Some(seg(2)));
        assert!(!s.entered);
        assert_eq!(t.cwnd, 8 * SMSS, "deflated to ssthresh, not cut again");
        // That retransmission arms the check for two more new ACKs (here not overdue); the
        // third new ACK no longer looks, however late its oldest segment.
        let fresh = SentAt { at: at_ms(9_990), transmissions: 1 };
        let late = SentAt { at: at_ms(0), transmissions: 1 };
        let checks: Vec<bool> = [(3, fresh), (4, fresh), (5, late)]
            .into_iter()
            .map(|(n, sent)| {
                let mut a = new_ack(&mut t, n);
                a.now = at_ms(10_000);
                a.una_sent = Some(sent);
                r.on_ack(&mut t, &mut cc, &sb, &a).retransmit.is_some()
            })
            .collect();
        assert_eq!(checks, [false, false, false]);
    }

    #[test]
    fn window_is_cut_at_most_once_per_round_trip() {
        let (mut cc, sb) = (BsdCc::new(BsdCaIncrement::default()), Scoreboard::new());
        let (mut r, mut t, _) = after_three_dups_at_50_ms(&mut cc, &sb);
        assert_eq!(t.ssthresh, 8 * SMSS);
        let mut a = new_ack(&mut t, 4);
        a.now = at_ms(60);
        a.una_sent = Some(SentAt { at: at_ms(1), transmissions: 1 });
        r.on_ack(&mut t, &mut cc, &sb, &a);
        // A second episode for a segment sent before the cut at 50 ms: window kept.
        for _ in 0..3 {
            let a = dup_at(&t, at_ms(70), SentAt { at: at_ms(1), transmissions: 1 });
            r.on_ack(&mut t, &mut cc, &sb, &a);
        }
        assert_eq!(t.ssthresh, 8 * SMSS);
        let mut a = new_ack(&mut t, 6);
        a.now = at_ms(80);
        r.on_ack(&mut t, &mut cc, &sb, &a);
        // A loss of a segment sent after the cut: cut again, 8 → 6.
        for _ in 0..3 {
            let a = dup_at(&t, at_ms(200), SentAt { at: at_ms(55), transmissions: 1 });
            r.on_ack(&mut t, &mut cc, &sb, &a);
        }
        assert_eq!(t.ssthresh, 6 * SMSS);
    }
}
