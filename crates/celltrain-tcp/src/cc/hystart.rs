//! HyStart++, RFC 9406 "HyStart++: Modified Slow Start for TCP" (Balasubramanian, Huang,
//! Olson, 2023): slow start that leaves early when the round trip grows, before the
//! bottleneck's buffer overflows.
//!
//! ```text
//! each round (ends when snd_una reaches windowEnd = SND.NXT at its start):
//!     lastRoundMinRTT = currentRoundMinRTT; currentRoundMinRTT = ∞; rttSampleCount = 0
//! each ACK of N octets in slow start:  cwnd += min(N, L·SMSS)                       (L = 8)
//!     after N_RTT_SAMPLE samples this round, with RttThresh =
//!     clamp(lastRoundMinRTT / 8, 4 ms, 16 ms):
//!     currentRoundMinRTT ≥ lastRoundMinRTT + RttThresh → Conservative Slow Start (CSS),
//!                                                        cssBaselineMinRtt = currentRoundMinRTT
//! each ACK in CSS:  cwnd += min(N, L·SMSS) / CSS_GROWTH_DIVISOR
//!     after N_RTT_SAMPLE samples, currentRoundMinRTT < cssBaselineMinRtt → back to slow start
//!     CSS_ROUNDS rounds in CSS → ssthresh = cwnd (congestion avoidance)
//! a loss in slow start or CSS: the control's own ssthresh, and HyStart++ is over
//! ```
//! Choices where the RFC leaves room: HyStart++ runs in the initial slow start only (§4.3
//! recommends it; later slow starts have the ssthresh a loss set); L is 8 since the sender
//! does not pace; the round in which CSS starts counts as its first; the RTT sample of an
//! ACK is the time since the newest segment it acknowledges was sent, for segments sent once
//! (Karn's rule), on the sender's clock. CSS's quarter increase carries its remainder.

use crate::seq::SeqNum;
use crate::tcb::{AckInfo, Tcb};
use celltrain_core::SimDuration;

/// RTT samples a round needs before its minimum is trusted.
pub const N_RTT_SAMPLE: u32 = 8;
/// The smallest RTT increase that ends slow start.
pub const MIN_RTT_THRESH: SimDuration = SimDuration::from_millis(4);
/// The largest RTT increase needed to end slow start.
pub const MAX_RTT_THRESH: SimDuration = SimDuration::from_millis(16);
/// RttThresh is this fraction of the last round's minimum RTT (before clamping).
pub const MIN_RTT_DIVISOR: u64 = 8;
/// CSS grows the window this many times slower than slow start.
pub const CSS_GROWTH_DIVISOR: u32 = 4;
/// Rounds of CSS before congestion avoidance.
pub const CSS_ROUNDS: u32 = 5;
/// The per-ACK growth limit of a sender that does not pace, segments.
pub const L_UNPACED: u32 = 8;

/// RttThresh for a previous round's minimum RTT: an eighth of it, within [4 ms, 16 ms].
pub fn rtt_thresh(last_round_min: SimDuration) -> SimDuration {
    let eighth = SimDuration::from_picos(last_round_min.as_picos() / MIN_RTT_DIVISOR);
    eighth.clamp(MIN_RTT_THRESH, MAX_RTT_THRESH)
}

/// Where the initial slow start stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Standard slow start, watching the RTT.
    SlowStart,
    /// Conservative Slow Start since the RTT rose above `baseline`'s round; `rounds` started.
    Css {
        /// cssBaselineMinRtt.
        baseline: SimDuration,
        /// Rounds of CSS so far, the one it started in included.
        rounds: u32,
    },
    /// Not in use: switched off, or the initial slow start is over.
    Off,
}

/// HyStart++ state of one sender.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HyStart {
    phase: Phase,
    /// The round ends when this is acknowledged; `None` before the first ACK.
    window_end: Option<SeqNum>,
    /// lastRoundMinRTT; `None` = ∞.
    last_round_min: Option<SimDuration>,
    /// currentRoundMinRTT; `None` = ∞.
    round_min: Option<SimDuration>,
    /// rttSampleCount.
    samples: u32,
    /// Octets of CSS growth not yet a whole octet (× CSS_GROWTH_DIVISOR).
    css_carry: u32,
}

impl Default for HyStart {
    fn default() -> Self {
        HyStart::new(false)
    }
}

impl HyStart {
    /// HyStart++ on or off.
    pub fn new(enabled: bool) -> Self {
        HyStart {
            phase: if enabled { Phase::SlowStart } else { Phase::Off },
            window_end: None,
            last_round_min: None,
            round_min: None,
            samples: 0,
            css_carry: 0,
        }
    }

    /// Where slow start stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// A loss ends the initial slow start, and with it HyStart++.
    pub fn on_loss(&mut self) {
        self.phase = Phase::Off;
    }

    /// An ACK of new data while `cwnd < ssthresh`: the window's growth in octets, or `None`
    /// when HyStart++ is not in use and the control's own slow start applies. Sets
    /// `ssthresh = cwnd` when CSS has run its rounds.
    pub fn on_ack(&mut self, tcb: &mut Tcb, ack: &AckInfo) -> Option<u32> {
        if self.phase == Phase::Off {
            return None;
        }
        if self.window_end.is_none_or(|end| ack.ack.ge(end)) {
            self.start_round(tcb);
            if self.phase == Phase::Off {
                return Some(0);
            }
        }
        if let Some(rtt) = ack.fine_rtt {
            self.round_min = Some(self.round_min.map_or(rtt, |m| m.min(rtt)));
            self.samples += 1;
        }
        let step = ack.acked.min(L_UNPACED.saturating_mul(tcb.maxseg));
        let growth = match self.phase {
            Phase::Css { .. } => self.css_share(step),
            _ => step,
        };
        self.check_rtt();
        Some(growth)
    }

    /// A new round: the minimum RTT moves to the last round's, and CSS counts its rounds.
    fn start_round(&mut self, tcb: &mut Tcb) {
        self.window_end = Some(tcb.snd_max);
        self.last_round_min = self.round_min.take();
        self.samples = 0;
        if let Phase::Css { baseline, rounds } = self.phase {
            if rounds >= CSS_ROUNDS {
                tcb.ssthresh = tcb.cwnd;
                self.phase = Phase::Off;
            } else {
                self.phase = Phase::Css { baseline, rounds: rounds + 1 };
            }
        }
    }

    /// A quarter of slow start's growth, the fraction of an octet carried.
    fn css_share(&mut self, step: u32) -> u32 {
        let total = step + self.css_carry;
        self.css_carry = total % CSS_GROWTH_DIVISOR;
        total / CSS_GROWTH_DIVISOR
    }

    /// The RTT test of a round with enough samples: into CSS when the minimum rose by
    /// RttThresh, back to slow start when it fell below CSS's baseline.
    fn check_rtt(&mut self) {
        let (Some(current), true) = (self.round_min, self.samples >= N_RTT_SAMPLE) else {
            return;
        };
        match self.phase {
            Phase::SlowStart => {
                if let Some(last) = self.last_round_min {
                    if current >= last + rtt_thresh(last) {
                        self.phase = Phase::Css { baseline: current, rounds: 1 };
                    }
                }
            }
            Phase::Css { baseline, .. } if current < baseline => self.phase = Phase::SlowStart,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::testing::{ack, tcb};

    const SMSS: u32 = 1000;

    fn us(x: u64) -> SimDuration {
        SimDuration::from_micros(x)
    }

    /// A sender in its initial slow start with 10 segments in flight.
    fn start() -> (HyStart, Tcb) {
        let mut t = tcb(SMSS, 10 * SMSS, u32::MAX);
        t.snd_max = t.snd_una + 10 * SMSS;
        (HyStart::new(true), t)
    }

    /// One round: an ACK of one segment per RTT sample (µs), the first of them acknowledging
    /// the last round's end; the window's growth, octets.
    fn round(h: &mut HyStart, t: &mut Tcb, rtts_us: &[u64]) -> u32 {
        let first_ack = t.snd_una + SMSS;
        let mut grown = 0;
        for (i, &rtt) in rtts_us.iter().enumerate() {
            t.snd_una += SMSS;
            if i == 0 {
                t.snd_max = first_ack + rtts_us.len() as u32 * SMSS;
            }
            let a = AckInfo { ack: t.snd_una, fine_rtt: Some(us(rtt)), ..ack(SMSS) };
            let g = h.on_ack(t, &a).expect("HyStart++ in use");
            t.cwnd += g;
            grown += g;
        }
        grown
    }

    #[test]
    fn rtt_thresh_is_an_eighth_of_the_last_minimum_within_4_and_16_ms() {
        assert_eq!(rtt_thresh(SimDuration::from_millis(20)), SimDuration::from_millis(4), "2.5 ms → 4");
        assert_eq!(rtt_thresh(SimDuration::from_millis(80)), SimDuration::from_millis(10));
        assert_eq!(rtt_thresh(SimDuration::from_millis(200)), SimDuration::from_millis(16), "25 ms → 16");
    }

    #[test]
    fn slow_start_grows_by_the_octets_acknowledged_up_to_eight_segments() {
        let (mut h, mut t) = start();
        let a = AckInfo { ack: t.snd_una + 3 * SMSS, ..ack(3 * SMSS) };
        assert_eq!(h.on_ack(&mut t, &a), Some(3 * SMSS));
        let a = AckInfo { ack: t.snd_una + 10 * SMSS, ..ack(10 * SMSS) };
        assert_eq!(h.on_ack(&mut t, &a), Some(8 * SMSS), "L = 8 without pacing");
        assert_eq!(HyStart::new(false).on_ack(&mut t, &a), None, "off: the control's own");
    }

    #[test]
    fn a_round_whose_minimum_rose_by_rtt_thresh_enters_css_after_eight_samples() {
        // Round 1: minimum 80 ms, so RttThresh = 10 ms. Round 2: every sample 90 ms.
        let (mut h, mut t) = start();
        round(&mut h, &mut t, &[80_000; 10]);
        assert_eq!(h.phase(), Phase::SlowStart);
        round(&mut h, &mut t, &[90_000; 7]);
        assert_eq!(h.phase(), Phase::SlowStart, "seven samples are not enough");
        let (mut h, mut t) = start();
        round(&mut h, &mut t, &[80_000; 10]);
        let grown = round(&mut h, &mut t, &[90_000; 10]);
        assert_eq!(h.phase(), Phase::Css { baseline: SimDuration::from_millis(90), rounds: 1 });
        // Eight ACKs at the slow-start rate, the two after at a quarter.
        assert_eq!(grown, 8 * SMSS + 2 * 250);
        // 9.999 ms more is not enough.
        let (mut h, mut t) = start();
        round(&mut h, &mut t, &[80_000; 10]);
        round(&mut h, &mut t, &[89_999; 10]);
        assert_eq!(h.phase(), Phase::SlowStart);
    }

    #[test]
    fn css_grows_a_quarter_as_fast_and_carries_the_remainder() {
        let (mut h, mut t) = start();
        h.phase = Phase::Css { baseline: us(90_000), rounds: 1 };
        h.window_end = Some(t.snd_max);
        let a = |n: u32| AckInfo { ack: t.snd_una + n, ..ack(n) };
        let (first, second) = (a(1001), a(1003));
        assert_eq!(h.on_ack(&mut t, &first), Some(250));
        assert_eq!(h.on_ack(&mut t, &second), Some(251), "1 + 1003 = 1004 octets: 251");
    }

    #[test]
    fn css_returns_to_slow_start_when_the_minimum_falls_below_its_baseline() {
        let (mut h, mut t) = start();
        round(&mut h, &mut t, &[80_000; 10]);
        round(&mut h, &mut t, &[90_000; 10]);
        round(&mut h, &mut t, &[89_000; 10]);
        assert_eq!(h.phase(), Phase::SlowStart, "a false alarm (jitter)");
    }

    #[test]
    fn after_five_rounds_of_css_ssthresh_is_the_window() {
        let (mut h, mut t) = start();
        round(&mut h, &mut t, &[80_000; 10]);
        round(&mut h, &mut t, &[90_000; 10]);
        for r in 2..=CSS_ROUNDS {
            round(&mut h, &mut t, &[95_000; 10]);
            assert_eq!(h.phase(), Phase::Css { baseline: us(90_000), rounds: r });
            assert_eq!(t.ssthresh, u32::MAX);
        }
        let cwnd = t.cwnd;
        let a = AckInfo { ack: t.snd_una + SMSS, ..ack(SMSS) };
        assert_eq!(h.on_ack(&mut t, &a), Some(0));
        assert_eq!((h.phase(), t.ssthresh), (Phase::Off, cwnd), "congestion avoidance from here");
    }

    #[test]
    fn a_loss_ends_it() {
        let (mut h, mut t) = start();
        round(&mut h, &mut t, &[80_000; 10]);
        h.on_loss();
        assert_eq!(h.phase(), Phase::Off);
        let a = AckInfo { ack: t.snd_una + SMSS, ..ack(SMSS) };
        assert_eq!(h.on_ack(&mut t, &a), None);
    }
}
