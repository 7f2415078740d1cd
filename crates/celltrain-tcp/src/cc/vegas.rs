//! TCP Vegas window arithmetic (Brakmo & Peterson, SIGCOMM 1994 / IEEE JSAC 1995;
//! `docs/references.md#vegas`): congestion avoidance ("Vegas-CA") and the modified slow start
//! ("Vegas-SS"), each switchable so that the parts can be studied apart (Aron & Druschel 1997).
//!
//! Once per round trip (when the ACK for the first segment sent in the previous round trip
//! arrives) Vegas compares the rate it expects with the rate it got:
//!
//! ```text
//! BaseRTT  = the smallest fine-grained RTT seen
//! RTT      = mean of the fine-grained samples of the last round trip (elapsed time if none)
//! Expected = cwnd / BaseRTT          Actual = (octets sent in the last round trip) / RTT
//! Diff     = (Expected − Actual) · BaseRTT / MSS          "segments queued in the network"
//! congestion avoidance:  Diff < α → cwnd + 1 MSS;  Diff > β → cwnd − 1 MSS (≥ 2 MSS);  else hold
//! slow start:            Diff > γ → leave slow start (ssthresh = 2 MSS, cwnd − cwnd/8);
//!                        else grow by 1 MSS per ACK in every other round trip only
//! ```
//! Diff is compared exactly (ns-2 rounds it to an integer first; Brakmo's thresholds are on
//! the real difference). The +1/−1 MSS step is taken at the round-trip boundary, so the
//! window moves by exactly one segment per round trip, whatever the ACK pattern (delayed ACKs
//! would halve a per-ACK increment). A part that is switched off falls back to the BSD
//! arithmetic ([`BsdCc`]) for its phase.

use super::{BsdCc, CongestionControl};
use crate::config::BsdCaIncrement;
use crate::seq::SeqNum;
use crate::tcb::{AckInfo, CaState, LossKind, Tcb};
use celltrain_core::{SimDuration, SimTime};

/// Vegas's thresholds, segments (ns-2 `v_alpha_`, `v_beta_`, `v_gamma_`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VegasParams {
    /// Below α extra segments queued: grow.
    pub alpha: u32,
    /// Above β: shrink.
    pub beta: u32,
    /// Above γ in slow start: leave slow start.
    pub gamma: u32,
}

impl Default for VegasParams {
    /// α = 1, β = 3, γ = 1 (Brakmo & Peterson; ns-2 defaults).
    fn default() -> Self {
        VegasParams { alpha: 1, beta: 3, gamma: 1 }
    }
}

/// Where Diff lies against a threshold pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiffBand {
    /// Diff < low.
    Below,
    /// low ≤ Diff ≤ high.
    Within,
    /// Diff > high.
    Above,
}

/// Classifies Diff = (cwnd/BaseRTT − sent/RTT)·BaseRTT/MSS against `[low, high]` segments,
/// in exact integer arithmetic: Diff·MSS·RTT = cwnd·RTT − sent·BaseRTT.
pub fn diff_band(
    cwnd_bytes: u32,
    sent_bytes: u32,
    maxseg: u32,
    base_rtt: SimDuration,
    rtt: SimDuration,
    low: u32,
    high: u32,
) -> DiffBand {
    let rtt = i128::from(rtt.as_picos().max(1));
    let scaled = i128::from(cwnd_bytes) * rtt - i128::from(sent_bytes) * i128::from(base_rtt.as_picos());
    let unit = i128::from(maxseg) * rtt;
    if scaled < i128::from(low) * unit {
        DiffBand::Below
    } else if scaled > i128::from(high) * unit {
        DiffBand::Above
    } else {
        DiffBand::Within
    }
}

/// The round trip being measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Measure {
    /// `snd_max` when it began: its ACK ends the round trip.
    beg_seq: SeqNum,
    /// When it began.
    beg_time: SimTime,
    /// Sum of the fine-grained samples in it, picoseconds.
    sum_rtt_ps: u64,
    /// Number of samples.
    cnt_rtt: u32,
}

/// Vegas congestion avoidance and slow start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VegasCc {
    /// Thresholds.
    params: VegasParams,
    /// Vegas-SS on (else BSD slow start).
    slow_start: bool,
    /// Vegas-CA on (else BSD congestion avoidance).
    avoidance: bool,
    /// The BSD arithmetic for the parts switched off and for ssthresh after a timeout.
    bsd: BsdCc,
    /// Smallest fine-grained RTT seen.
    base_rtt: Option<SimDuration>,
    /// Current round trip, once the first ACK has started one.
    measure: Option<Measure>,
    /// Slow start grows in this round trip (it alternates with a frozen one).
    grow_this_rtt: bool,
}

impl VegasCc {
    /// Vegas with the chosen parts; `increment` is the BSD rule of the parts switched off.
    pub fn new(params: VegasParams, slow_start: bool, avoidance: bool, increment: BsdCaIncrement) -> Self {
        VegasCc {
            params,
            slow_start,
            avoidance,
            bsd: BsdCc::new(increment),
            base_rtt: None,
            measure: None,
            grow_this_rtt: true,
        }
    }

    /// The smallest RTT seen so far.
    pub fn base_rtt(&self) -> Option<SimDuration> {
        self.base_rtt
    }

    fn start_measure(&mut self, tcb: &Tcb, now: SimTime) {
        self.measure = Some(Measure { beg_seq: tcb.snd_max, beg_time: now, sum_rtt_ps: 0, cnt_rtt: 0 });
    }

    /// The once-per-round-trip decision at the end of `m`.
    fn decide(&mut self, tcb: &mut Tcb, m: Measure, now: SimTime) {
        let Some(base) = self.base_rtt else { return };
        let rtt = if m.cnt_rtt > 0 {
            SimDuration::from_picos(m.sum_rtt_ps / u64::from(m.cnt_rtt))
        } else {
            now.saturating_since(m.beg_time)
        };
        let sent = tcb.snd_max.saturating_since(m.beg_seq);
        let p = self.params;
        let seg = tcb.maxseg;
        let in_slow_start = tcb.cwnd <= tcb.ssthresh;
        if in_slow_start && self.slow_start {
            if diff_band(tcb.cwnd, sent, seg, base, rtt, 0, p.gamma) == DiffBand::Above {
                tcb.ssthresh = 2 * seg;
                tcb.cwnd = (tcb.cwnd - tcb.cwnd / 8).max(2 * seg);
                self.grow_this_rtt = true;
            } else {
                self.grow_this_rtt = !self.grow_this_rtt;
            }
        } else if !in_slow_start && self.avoidance {
            match diff_band(tcb.cwnd, sent, seg, base, rtt, p.alpha, p.beta) {
                DiffBand::Below => tcb.cwnd = tcb.cwnd.saturating_add(seg).min(tcb.cwnd_cap()),
                DiffBand::Above => tcb.cwnd = tcb.cwnd.saturating_sub(seg).max(2 * seg),
                DiffBand::Within => {}
            }
        }
    }
}

impl CongestionControl for VegasCc {
    fn name(&self) -> &'static str {
        "vegas"
    }

    /// A timeout halves as BSD does; Vegas's own loss decrease is its retransmission
    /// mechanism's ([`crate::recovery::VegasRmRecovery`]).
    fn ssthresh_after_loss(&mut self, tcb: &Tcb, loss: LossKind) -> u32 {
        self.bsd.ssthresh_after_loss(tcb, loss)
    }

    fn on_ack(&mut self, tcb: &mut Tcb, ack: &AckInfo, now: SimTime) {
        match self.measure {
            None => self.start_measure(tcb, now),
            Some(m) if ack.ack.gt(m.beg_seq) => {
                self.decide(tcb, m, now);
                self.start_measure(tcb, now);
            }
            Some(_) => {}
        }
        let in_slow_start = tcb.cwnd <= tcb.ssthresh;
        if in_slow_start && self.slow_start {
            if self.grow_this_rtt {
                tcb.cwnd = tcb.cwnd.saturating_add(tcb.maxseg).min(tcb.cwnd_cap());
            }
        } else if (in_slow_start && !self.slow_start) || (!in_slow_start && !self.avoidance) {
            self.bsd.on_ack(tcb, ack, now);
        }
    }

    fn on_fine_rtt(&mut self, _tcb: &Tcb, rtt: SimDuration, _now: SimTime) {
        self.base_rtt = Some(self.base_rtt.map_or(rtt, |b| b.min(rtt)));
        if let Some(m) = &mut self.measure {
            m.sum_rtt_ps = m.sum_rtt_ps.saturating_add(rtt.as_picos());
            m.cnt_rtt += 1;
        }
    }

    /// A loss interrupts the round trip being measured: start afresh afterwards.
    fn on_ca_state(&mut self, _tcb: &Tcb, _from: CaState, to: CaState) {
        if matches!(to, CaState::Recovery | CaState::Loss) {
            self.measure = None;
            self.grow_this_rtt = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::testing::tcb;

    fn ms(x: u64) -> SimDuration {
        SimDuration::from_millis(x)
    }

    /// Diff of vectors 8.a–8.c: `cwnd` segments all sent in the last round trip.
    fn band(cwnd: u32, base: u64, rtt: u64) -> DiffBand {
        diff_band(cwnd * 1000, cwnd * 1000, 1000, ms(base), ms(rtt), 1, 3)
    }

    #[test]
    fn reference_vectors_8a_to_8c() {
        // 8.a: Expected 100 seg/s, Actual 83.33 seg/s, Diff 1.667 → hold.
        assert_eq!(band(10, 100, 120), DiffBand::Within);
        // 8.b: Diff = 20 − 20·100/200 = 10 > 3 → shrink.
        assert_eq!(band(20, 100, 200), DiffBand::Above);
        // 8.c: Diff = 10 − 10·100/105 = 0.476 < 1 → grow.
        assert_eq!(band(10, 100, 105), DiffBand::Below);
        // The boundaries themselves are inside [α, β]: Diff = 1 exactly and 3 exactly.
        assert_eq!(band(10, 90, 100), DiffBand::Within);
        assert_eq!(band(10, 70, 100), DiffBand::Within);
        assert_eq!(band(10, 69, 100), DiffBand::Above);
    }

    /// Runs `rtts` round trips of a Vegas sender whose every segment takes `rtt`, with a
    /// base RTT of `base`, and returns cwnd (in segments) after each round trip's ACKs.
    fn run(cc: &mut VegasCc, t: &mut Tcb, base: u64, rtt: u64, rtts: usize) -> Vec<(u32, Vec<u32>)> {
        let mut now = SimTime::ZERO;
        cc.on_fine_rtt(t, ms(base), now);
        let mut out = vec![];
        for _ in 0..rtts {
            // The window goes out at the start of the round trip and is ACKed segment by segment.
            let segs = t.cwnd / t.maxseg;
            t.snd_max = t.snd_una + segs * t.maxseg;
            now += ms(rtt);
            let mut within = vec![];
            for _ in 0..segs {
                t.snd_una += t.maxseg;
                let a = AckInfo { ack: t.snd_una, acked: t.maxseg, ..AckInfo::default() };
                cc.on_fine_rtt(t, ms(rtt), now);
                cc.on_ack(t, &a, now);
                within.push(t.cwnd / t.maxseg);
            }
            out.push((t.cwnd / t.maxseg, within));
        }
        out
    }

    #[test]
    fn avoidance_moves_one_segment_per_rtt_only_outside_alpha_beta() {
        let vegas = || VegasCc::new(VegasParams::default(), true, true, BsdCaIncrement::default());
        // Diff = 10 − 10·100/105 = 0.48 < α: +1 segment per round trip.
        let mut cc = vegas();
        let mut t = tcb(1000, 10_000, 2000);
        let r = run(&mut cc, &mut t, 100, 105, 4);
        let ends: Vec<u32> = r.iter().map(|x| x.0).collect();
        assert_eq!(ends, [10, 11, 12, 13], "the first round trip only starts the measurement");
        // Inside a round trip the window moves once, at the boundary ACK (the first one).
        assert_eq!(r[1].1, [11; 10]);
        // Diff = 10 − 10·100/120 = 1.67 ∈ [1, 3]: unchanged.
        let mut cc = vegas();
        let mut t = tcb(1000, 10_000, 2000);
        assert!(run(&mut cc, &mut t, 100, 120, 4).iter().all(|x| x.0 == 10 && x.1.iter().all(|&w| w == 10)));
        // Diff = 20 − 20·100/200 = 10 > β: −1 per round trip, never below 2.
        let mut cc = vegas();
        let mut t = tcb(1000, 20_000, 2000);
        let ends: Vec<u32> = run(&mut cc, &mut t, 100, 200, 3).iter().map(|x| x.0).collect();
        assert_eq!(ends, [20, 19, 18]);
        // Never below two segments (reachable with a small β: Diff = 3 − 3/4 > 1, then 2 − 2/4 > 1).
        let mut cc = VegasCc::new(VegasParams { alpha: 0, beta: 1, gamma: 1 }, true, true, BsdCaIncrement::default());
        let mut t = tcb(1000, 3_000, 1000);
        let ends: Vec<u32> = run(&mut cc, &mut t, 100, 400, 3).iter().map(|x| x.0).collect();
        assert_eq!(ends, [3, 2, 2]);
    }

    #[test]
    fn slow_start_grows_every_other_rtt_and_leaves_above_gamma() {
        let mut cc = VegasCc::new(VegasParams::default(), true, true, BsdCaIncrement::default());
        let mut t = tcb(1000, 2000, u32::MAX);
        // No queueing at all (RTT = BaseRTT): double, hold, double, hold.
        let ends: Vec<u32> = run(&mut cc, &mut t, 100, 100, 4).iter().map(|x| x.0).collect();
        assert_eq!(ends, [4, 4, 8, 8]);
        // Now every RTT is twice the base. The first decision still sees mostly the old
        // samples (mean 112.5 ms: Diff 0.89 ≤ γ) and opens a growth round trip; the next sees
        // Diff = 16 − 16·100/200 = 8 > γ: ssthresh = 2 segments, cwnd − cwnd/8.
        let ends: Vec<u32> = run(&mut cc, &mut t, 100, 200, 2).iter().map(|x| x.0).collect();
        assert_eq!(ends, [16, 14]);
        assert_eq!(t.ssthresh, 2000);
    }

    #[test]
    fn parts_switched_off_fall_back_to_bsd() {
        let mut cc = VegasCc::new(VegasParams::default(), false, false, BsdCaIncrement::default());
        let mut t = tcb(1000, 2000, u32::MAX);
        let ends: Vec<u32> = run(&mut cc, &mut t, 100, 100, 3).iter().map(|x| x.0).collect();
        assert_eq!(ends, [4, 8, 16], "BSD slow start doubles every round trip");
        // BSD avoidance grows on every ACK whatever Diff (here 6.7 > β): 1000²/cwnd each.
        let mut t = tcb(1000, 10_000, 2000);
        let r = run(&mut cc, &mut t, 100, 300, 1);
        assert_eq!(r[0].1[..3], [10, 10, 10]);
        assert_eq!(t.cwnd, 10_956, "+100, 99, 98, 97, 96, 95, 94, 93, 92, 92");
    }
}
