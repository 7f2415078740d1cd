//! Adaptive fast retransmit (AFR; Aron & Druschel, "End-to-End TCP Congestion Control over
//! ATM Networks", Rice TR97-273, 1997, §5.1.1; `docs/references.md#adaptive-fast-retransmit`).
//!
//! A 2-bit predictor learns whether losses come as pairs of consecutive segments (as cell
//! loss across segment boundaries makes them on plain ATM). In its "double" states a fast
//! retransmit sends the lost segment *and its successor*.
//!
//! ```text
//! state p ∈ {0, 1, 2, 3}, p = 0 at connection start; "double" when p ≥ 2
//! after each fast-retransmit episode: consecutive loss → p = min(p + 1, 3)
//!                                     single loss      → p = max(p − 1, 0)
//! ```
//! So two back-to-back consecutive-loss episodes from the start make the next fast
//! retransmit send two segments, and two single losses from state 3 make it send one again.
//! (The paper's state diagram, its Fig. 9, did not survive in our copy; the saturating
//! counter is the reading that fits its text.)
//!
//! An episode's kind is read from the first ACK that advances past the retransmitted segment
//! `X`: the receiver acknowledges up to its first hole, so an ACK of exactly `X + 1 segment`,
//! with more data sent beyond it, means the next segment was lost too — whether or not AFR
//! resent it (a resent successor arrives after `X`). An episode ended by a timeout instead
//! teaches nothing, and a fast retransmit of the second segment of a pair just counted
//! (Reno-like recoveries find it in an episode of its own) is the same loss, not a new one. AFR wraps any Reno-like recovery ([`Afr::new`]): `lite-afr` wraps
//! [`crate::recovery::LiteRecovery`], `vegas-rm-afr` and `vegas-afr` wrap
//! [`crate::recovery::VegasRmRecovery`].

use super::{LossRecovery, RecoveryStep, TxChoice, TxLimits};
use crate::cc::CongestionControl;
use crate::sack::Scoreboard;
use crate::seq::SeqNum;
use crate::tcb::{AckInfo, Tcb};
use celltrain_core::SimTime;

/// The 2-bit saturating predictor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AfrPredictor {
    /// 0..=3.
    state: u8,
}

impl AfrPredictor {
    /// State 0: single fast retransmit.
    pub fn new() -> Self {
        AfrPredictor::default()
    }

    /// The current state, 0..=3.
    pub fn state(&self) -> u8 {
        self.state
    }

    /// Whether the next fast retransmit sends two segments.
    pub fn double(&self) -> bool {
        self.state >= 2
    }

    /// One loss episode's outcome.
    pub fn record(&mut self, consecutive: bool) {
        self.state = if consecutive { (self.state + 1).min(3) } else { self.state.saturating_sub(1) };
    }
}

/// An episode waiting for its first ACK past the retransmitted segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Episode {
    /// The retransmitted segment's first sequence number.
    lost: SeqNum,
    /// `snd_max` when the episode began.
    sent_end: SeqNum,
    /// False for the second segment of a pair already counted as a consecutive loss.
    counts: bool,
}

/// A loss recovery `R` with adaptive fast retransmit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Afr<R> {
    /// The wrapped recovery.
    inner: R,
    /// The predictor.
    predictor: AfrPredictor,
    /// The episode in progress, if its outcome is not known yet.
    episode: Option<Episode>,
    /// The successor of the last consecutive loss: a fast retransmit of it repairs the same
    /// loss, not a new one.
    pair_tail: Option<SeqNum>,
    /// Name for reports.
    name: &'static str,
}

impl<R: LossRecovery> Afr<R> {
    /// `inner` with AFR, reported as `name`.
    pub fn new(inner: R, name: &'static str) -> Self {
        Afr { inner, predictor: AfrPredictor::new(), episode: None, pair_tail: None, name }
    }

    /// The predictor.
    pub fn predictor(&self) -> AfrPredictor {
        self.predictor
    }
}

impl<R: LossRecovery> LossRecovery for Afr<R> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn dupack_rule(&self) -> super::DupAckRule {
        self.inner.dupack_rule()
    }

    fn on_ack(
        &mut self,
        tcb: &mut Tcb,
        cc: &mut dyn CongestionControl,
        sb: &Scoreboard,
        ack: &AckInfo,
    ) -> RecoveryStep {
        if ack.acked > 0 {
            if let Some(e) = self.episode {
                if ack.ack.gt(e.lost) {
                    let next = e.lost + tcb.maxseg;
                    let consecutive = ack.ack == next && next.lt(e.sent_end);
                    if e.counts {
                        self.predictor.record(consecutive);
                    }
                    self.pair_tail = consecutive.then_some(next);
                    self.episode = None;
                }
            }
        }
        let mut step = self.inner.on_ack(tcb, cc, sb, ack);
        if step.entered {
            if let Some(lost) = step.retransmit {
                let counts = self.pair_tail != Some(lost);
                self.episode = Some(Episode { lost, sent_end: tcb.snd_max, counts });
                step.also_next = self.predictor.double() && (lost + tcb.maxseg).lt(tcb.snd_max);
            }
        }
        step
    }

    fn on_rto(&mut self, tcb: &Tcb) {
        self.episode = None;
        self.inner.on_rto(tcb);
    }

    /// Also true while an episode's outcome is pending, so that a header-prediction fast
    /// path never hides the ACK that tells it.
    fn in_recovery(&self) -> bool {
        self.episode.is_some() || self.inner.in_recovery()
    }

    fn choose_tx(&mut self, tcb: &Tcb, sb: &Scoreboard, lim: &TxLimits) -> TxChoice {
        self.inner.choose_tx(tcb, sb, lim)
    }

    fn on_sent(&mut self, tcb: &Tcb, sb: &Scoreboard, start: SeqNum, end: SeqNum, retransmission: bool, now: SimTime) {
        self.inner.on_sent(tcb, sb, start, end, retransmission, now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::BsdCc;
    use crate::config::BsdCaIncrement;
    use crate::recovery::testing::*;
    use crate::recovery::LiteRecovery;

    #[test]
    fn reference_vector_8e_predictor() {
        let mut p = AfrPredictor::new();
        let mut trace = vec![(p.state(), p.double())];
        for consecutive in [true, true, true, false, false] {
            p.record(consecutive);
            trace.push((p.state(), p.double()));
        }
        assert_eq!(trace, [(0, false), (1, false), (2, true), (3, true), (2, true), (1, false)]);
    }

    #[test]
    fn predictor_over_hand_made_loss_sequences() {
        let run = |seq: &str| {
            let mut p = AfrPredictor::new();
            seq.chars()
                .map(|c| {
                    p.record(c == 'C');
                    p.double()
                })
                .collect::<Vec<_>>()
        };
        // Alternating single and consecutive losses never reach "double".
        assert_eq!(run("CSCSCS"), [false; 6]);
        // Two back-to-back consecutive episodes do, whatever came before.
        assert_eq!(run("SSSCC"), [false, false, false, false, true]);
        // Saturation: after many consecutive episodes two single ones go back to single.
        assert_eq!(run("CCCCCSS"), [false, true, true, true, true, true, false]);
        // Many single losses keep it at 0: one consecutive episode is not enough.
        assert_eq!(run("SSSSSSC"), [false; 7]);
    }

    /// Three duplicates of segment `first`, then the first new ACK up to `acked_to`.
    fn episode(r: &mut Afr<LiteRecovery>, t: &mut Tcb, acked_to: u32) -> RecoveryStep {
        let mut cc = BsdCc::new(BsdCaIncrement::default());
        let sb = Scoreboard::new();
        let mut entry = RecoveryStep::default();
        for _ in 0..3 {
            let a = dup(t);
            let s = r.on_ack(t, &mut cc, &sb, &a);
            if s.entered {
                entry = s;
            }
        }
        let a = new_ack(t, acked_to);
        r.on_ack(t, &mut cc, &sb, &a);
        entry
    }

    #[test]
    fn episodes_are_classified_from_the_first_new_ack_and_double_mode_resends_two() {
        let mut r = Afr::new(LiteRecovery::new(), "lite-afr");
        let mut t = tcb(1, 40, 20 * SMSS);
        // Segments 1 and 2 lost: the retransmitted 1 is acknowledged up to 2 only.
        let s = episode(&mut r, &mut t, 2);
        assert_eq!((s.retransmit, s.also_next), (Some(seg(1)), false));
        assert_eq!(r.predictor().state(), 1);
        // Segment 2's own episode repairs the same pair: not counted again.
        let s = episode(&mut r, &mut t, 10);
        assert_eq!((s.retransmit, s.also_next), (Some(seg(2)), false));
        assert_eq!(r.predictor().state(), 1);
        // 10 and 11 lost: the second consecutive-loss episode → "double".
        episode(&mut r, &mut t, 11);
        assert_eq!(r.predictor().state(), 2);
        // 11's own episode: resent with its successor; not counted.
        let s = episode(&mut r, &mut t, 20);
        assert_eq!((s.retransmit, s.also_next), (Some(seg(11)), true));
        assert_eq!(r.predictor().state(), 2);
        // A single loss, still resent in pairs, moves the predictor back towards single.
        let s = episode(&mut r, &mut t, 30);
        assert_eq!((s.retransmit, s.also_next), (Some(seg(20)), true));
        assert_eq!(r.predictor().state(), 1);
        // The successor is never resent beyond what was sent.
        r.predictor.state = 3;
        let mut t = tcb(20, 20, 20 * SMSS);
        let s = episode(&mut r, &mut t, 21);
        assert_eq!((s.retransmit, s.also_next), (Some(seg(20)), false));
        assert_eq!(r.predictor().state(), 2, "an ACK of everything sent is a single loss");
    }

    #[test]
    fn a_timeout_abandons_the_episode() {
        let mut r = Afr::new(LiteRecovery::new(), "lite-afr");
        let mut t = tcb(1, 40, 20 * SMSS);
        let mut cc = BsdCc::new(BsdCaIncrement::default());
        for _ in 0..3 {
            let a = dup(&t);
            r.on_ack(&mut t, &mut cc, &Scoreboard::new(), &a);
        }
        assert!(r.in_recovery());
        r.on_rto(&t);
        assert!(!r.in_recovery());
        let a = new_ack(&mut t, 2);
        r.on_ack(&mut t, &mut cc, &Scoreboard::new(), &a);
        assert_eq!(r.predictor().state(), 0);
    }
}
