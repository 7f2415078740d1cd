//! CUBIC congestion control, RFC 9438 "CUBIC for Fast and Long-Distance Networks" (Xu, Ha,
//! Rhee, Goel, Eggert, 2023).
//!
//! ```text
//! W_cubic(t) = C·(t − K)³ + W_max          K = ∛((W_max − cwnd_epoch) / C)        (eq. 1, 2)
//! target     = W_cubic(t + RTT), clamped to [cwnd, 1.5·cwnd]                        (§4.2)
//! W_est     += α_cubic · segments_acked / cwnd,   α_cubic = 3(1 − β)/(1 + β)        (§4.3)
//! per ACK in congestion avoidance:  W_cubic(t) < W_est → cwnd = W_est (Reno-friendly)
//!                                   else cwnd += (target − cwnd)/cwnd per segment acked
//! on a loss:  W_max = cwnd, or cwnd·(1 + β)/2 below the last W_max (fast convergence, §4.7)
//!             ssthresh = max(FlightSize·β, 2·SMSS)                                    (§4.6)
//! ```
//! C = 0.4 segments/s³, β_cubic = 0.7. `t` runs from the first ACK of the current congestion
//! avoidance stage on the sender's clock (the simulator's `now`); RTT is this control's own
//! smoothed RTT (RFC 6298 gains) of the samples the retransmission timer takes. The window
//! stays in octets: W_max and W_est are octets and C is scaled by the SMSS, so only the cubic
//! and its root are floating point (IEEE operations, the same on every run).
//!
//! Slow start is RFC 5681's (§4.10 allows it), or HyStart++ (RFC 9406) with `hystart`. After a timeout the
//! next stage starts with K = 0 and W_max = W_est = its starting window (§4.8). Choices where
//! the RFC leaves room: the per-ACK increase counts the octets the ACK acknowledges (so
//! delayed ACKs do not halve it), and the Reno-friendly window never lowers cwnd.

use super::{CongestionControl, HyStart};
use crate::tcb::{AckInfo, LossKind, Tcb};
use celltrain_core::{SimDuration, SimTime};

/// C, segments per second cubed (RFC 9438 §5).
pub const C: f64 = 0.4;
/// β_cubic as a fraction: 7/10 (RFC 9438 §4.6).
const BETA_NUM: u64 = 7;
const BETA_DEN: u64 = 10;
/// α_cubic = 3(1 − 0.7)/(1 + 0.7) = 9/17 (RFC 9438 §4.3).
pub const ALPHA_CUBIC: f64 = 9.0 / 17.0;

/// The current congestion-avoidance stage.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Epoch {
    /// When it started (its first ACK).
    start: SimTime,
    /// Seconds until W_cubic reaches W_max.
    k_s: f64,
}

/// CUBIC window arithmetic (RFC 9438).
#[derive(Clone, Debug, PartialEq)]
pub struct CubicCc {
    /// Fast convergence (§4.7; Linux's `fast_convergence`, on by default).
    fast_convergence: bool,
    /// Window before the last reduction, octets; 0 = none (then the next stage starts at K = 0).
    w_max: f64,
    /// cwnd when ssthresh was last set, octets.
    cwnd_prior: f64,
    /// Reno-friendly estimate, octets.
    w_est: f64,
    /// α_cubic is 1 once W_est has reached `cwnd_prior` (§4.3).
    alpha_is_one: bool,
    /// The stage in progress; `None` until its first ACK.
    epoch: Option<Epoch>,
    /// Smoothed RTT (RFC 6298, α = 1/8); `None` before any sample.
    srtt: Option<SimDuration>,
    /// Octet·octet remainder of the per-ACK increase not yet a whole octet (× cwnd).
    carry: u64,
    /// HyStart++ in the initial slow start (off unless asked for).
    hystart: HyStart,
}

impl Default for CubicCc {
    fn default() -> Self {
        CubicCc::new(true)
    }
}

/// W_cubic(t) in octets for a window of `w_max` octets and segments of `smss` octets.
pub fn w_cubic(t_s: f64, k_s: f64, w_max: f64, smss: u32) -> f64 {
    let d = t_s - k_s;
    C * f64::from(smss) * d * d * d + w_max
}

/// K in seconds: the time W_cubic takes from `cwnd_epoch` to `w_max` (eq. 2; 0 if already there).
pub fn k_seconds(w_max: f64, cwnd_epoch: f64, smss: u32) -> f64 {
    ((w_max - cwnd_epoch).max(0.0) / (C * f64::from(smss))).cbrt()
}

impl CubicCc {
    /// CUBIC with or without fast convergence.
    pub fn new(fast_convergence: bool) -> Self {
        CubicCc {
            fast_convergence,
            w_max: 0.0,
            cwnd_prior: 0.0,
            w_est: 0.0,
            alpha_is_one: false,
            epoch: None,
            srtt: None,
            carry: 0,
            hystart: HyStart::default(),
        }
    }

    /// With HyStart++ (RFC 9406) in the initial slow start, or without.
    pub fn with_hystart(self, on: bool) -> Self {
        CubicCc { hystart: HyStart::new(on), ..self }
    }

    /// HyStart++'s state.
    pub fn hystart(&self) -> &HyStart {
        &self.hystart
    }

    /// W_max, octets (0 before the first loss and after a timeout).
    pub fn w_max(&self) -> f64 {
        self.w_max
    }

    /// The Reno-friendly estimate W_est, octets.
    pub fn w_est(&self) -> f64 {
        self.w_est
    }

    /// K of the current stage, seconds.
    pub fn k_s(&self) -> Option<f64> {
        self.epoch.map(|e| e.k_s)
    }

    /// The first ACK of a congestion-avoidance stage: t, K, W_max and W_est start from here.
    fn start_epoch(&mut self, cwnd: u32, now: SimTime, smss: u32) -> Epoch {
        let cwnd_epoch = f64::from(cwnd);
        // No earlier loss, a timeout, or a window already past W_max: K = 0 (§4.8).
        self.w_max = self.w_max.max(cwnd_epoch);
        self.w_est = cwnd_epoch;
        self.carry = 0;
        let e = Epoch { start: now, k_s: k_seconds(self.w_max, cwnd_epoch, smss) };
        self.epoch = Some(e);
        e
    }

    /// The Reno-friendly estimate after an ACK of `acked` octets (eq. 4, in octets).
    fn grow_w_est(&mut self, cwnd: u32, acked: u32, smss: u32) {
        let alpha = if self.alpha_is_one { 1.0 } else { ALPHA_CUBIC };
        self.w_est += alpha * f64::from(smss) * f64::from(acked) / f64::from(cwnd);
        if self.w_est >= self.cwnd_prior {
            self.alpha_is_one = true;
        }
    }

    /// cwnd + (target − cwnd)·acked/cwnd, the fraction of an octet carried to the next ACK.
    fn step_towards(&mut self, cwnd: u32, target: f64, acked: u32) -> u32 {
        let gap = (target - f64::from(cwnd)).max(0.0) as u64;
        let num = gap * u64::from(acked) + self.carry;
        self.carry = num % u64::from(cwnd);
        cwnd.saturating_add(u32::try_from(num / u64::from(cwnd)).unwrap_or(u32::MAX))
    }
}

impl CongestionControl for CubicCc {
    fn name(&self) -> &'static str {
        "cubic"
    }

    fn ssthresh_after_loss(&mut self, tcb: &Tcb, loss: LossKind) -> u32 {
        self.epoch = None;
        self.hystart.on_loss();
        if let LossKind::Timeout { retransmissions } = loss {
            if retransmissions > 1 {
                // The same data timed out again: Reno keeps ssthresh (RFC 5681 §3.1).
                return tcb.ssthresh;
            }
        }
        let cwnd = f64::from(tcb.cwnd);
        self.w_max = match loss {
            LossKind::Timeout { .. } => 0.0,
            LossKind::DupAcks if self.fast_convergence && cwnd < self.w_max => cwnd * (1.0 + 0.7) / 2.0,
            LossKind::DupAcks => cwnd,
        };
        self.cwnd_prior = cwnd;
        self.alpha_is_one = false;
        let reduced = u64::from(tcb.flight_size()) * BETA_NUM / BETA_DEN;
        (reduced as u32).max(2 * tcb.maxseg)
    }

    fn on_ack(&mut self, tcb: &mut Tcb, ack: &AckInfo, now: SimTime) {
        if ack.syn_acked {
            return;
        }
        let smss = tcb.maxseg;
        if tcb.cwnd < tcb.ssthresh {
            let step = self.hystart.on_ack(tcb, ack).unwrap_or(ack.acked.min(smss));
            let grown = u64::from(tcb.cwnd) + u64::from(step);
            tcb.cwnd = grown.min(u64::from(tcb.cwnd_cap())) as u32;
            return;
        }
        let epoch = match self.epoch {
            Some(e) => e,
            None => self.start_epoch(tcb.cwnd, now, smss),
        };
        let t_s = (now - epoch.start).as_secs_f64();
        let rtt_s = self.srtt.map_or(0.0, SimDuration::as_secs_f64);
        self.grow_w_est(tcb.cwnd, ack.acked, smss);
        let now_cubic = w_cubic(t_s, epoch.k_s, self.w_max, smss);
        let cwnd = if now_cubic < self.w_est {
            (self.w_est as u32).max(tcb.cwnd)
        } else {
            let cw = f64::from(tcb.cwnd);
            let target = w_cubic(t_s + rtt_s, epoch.k_s, self.w_max, smss).clamp(cw, 1.5 * cw);
            self.step_towards(tcb.cwnd, target, ack.acked)
        };
        tcb.cwnd = cwnd.min(tcb.cwnd_cap());
    }

    fn on_rtt_sample(&mut self, _tcb: &Tcb, rtt: SimDuration, _now: SimTime) {
        self.srtt = Some(match self.srtt {
            None => rtt,
            Some(s) => SimDuration::from_picos(s.as_picos() - s.as_picos() / 8 + rtt.as_picos() / 8),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::testing::{ack, tcb};

    const SMSS: u32 = 1000;

    fn secs(s: f64) -> SimTime {
        SimTime::ZERO + SimDuration::from_picos((s * 1e12) as u64)
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// A CUBIC sender that lost at `w_max` segments (flight = cwnd) and now sits at the start
    /// of congestion avoidance with cwnd = ssthresh = 0.7·W_max.
    fn after_loss(w_max_segments: u32) -> (CubicCc, Tcb) {
        let mut cc = CubicCc::new(true);
        let mut t = tcb(SMSS, w_max_segments * SMSS, u32::MAX);
        t.snd_scale = 14;
        t.snd_max = t.snd_una + t.cwnd;
        t.ssthresh = cc.ssthresh_after_loss(&t, LossKind::DupAcks);
        t.cwnd = t.ssthresh;
        (cc, t)
    }

    #[test]
    fn k_is_the_cube_root_of_the_reduction_over_c() {
        // W_max = 100 segments, cwnd_epoch = 70: K = ∛(30 / 0.4) = ∛75 = 4.217163 s.
        let k = k_seconds(100_000.0, 70_000.0, SMSS);
        assert!(close(k, 4.217_163, 1e-6), "{k}");
        // With cwnd_epoch = β·W_max, eq. 2 is ∛(W_max·(1 − β)/C).
        assert!(close(k, (100.0 * 0.3 / 0.4_f64).cbrt(), 1e-12));
        assert_eq!(k_seconds(50_000.0, 70_000.0, SMSS), 0.0, "already past W_max");
    }

    #[test]
    fn w_cubic_starts_at_cwnd_epoch_and_reaches_w_max_at_k() {
        let k = k_seconds(100_000.0, 70_000.0, SMSS);
        assert!(close(w_cubic(0.0, k, 100_000.0, SMSS), 70_000.0, 1e-6));
        assert_eq!(w_cubic(k, k, 100_000.0, SMSS), 100_000.0);
        // Concave before K: below W_max, each second adds less. Convex after: above, more.
        let at = |t: f64| w_cubic(t, k, 100_000.0, SMSS);
        assert!(at(1.0) - at(0.0) > at(2.0) - at(1.0) && at(k - 0.5) < 100_000.0);
        assert!(at(k + 2.0) - at(k + 1.0) > at(k + 1.0) - at(k) && at(k + 0.5) > 100_000.0);
        // One second past K: W_max + 0.4 segments.
        assert!(close(at(k + 1.0), 100_400.0, 1e-6));
    }

    #[test]
    fn a_loss_sets_ssthresh_to_beta_of_the_flight_and_remembers_w_max() {
        let (cc, t) = after_loss(100);
        assert_eq!(t.ssthresh, 70_000);
        assert_eq!(cc.w_max(), 100_000.0);
        let mut cc = CubicCc::new(true);
        let mut t = tcb(SMSS, 2 * SMSS, 0);
        t.snd_max = t.snd_una + 2 * SMSS;
        assert_eq!(cc.ssthresh_after_loss(&t, LossKind::DupAcks), 2 * SMSS, "at least 2 SMSS");
        t.ssthresh = 5000;
        assert_eq!(cc.ssthresh_after_loss(&t, LossKind::Timeout { retransmissions: 2 }), 5000, "held");
    }

    #[test]
    fn fast_convergence_lowers_w_max_when_the_window_did_not_regain_it() {
        let (mut cc, mut t) = after_loss(100);
        // A second loss at 90 segments, below W_max = 100: W_max = 90·(1 + 0.7)/2 = 76.5.
        t.cwnd = 90 * SMSS;
        t.snd_max = t.snd_una + t.cwnd;
        cc.ssthresh_after_loss(&t, LossKind::DupAcks);
        assert_eq!(cc.w_max(), 76_500.0);
        let (mut slow, mut t) = after_loss(100);
        slow.fast_convergence = false;
        t.cwnd = 90 * SMSS;
        slow.ssthresh_after_loss(&t, LossKind::DupAcks);
        assert_eq!(slow.w_max(), 90_000.0, "without fast convergence W_max is the window");
        t.cwnd = 120 * SMSS;
        cc.ssthresh_after_loss(&t, LossKind::DupAcks);
        assert_eq!(cc.w_max(), 120_000.0, "above the old W_max: no convergence");
    }

    /// One RTT of per-segment ACKs at `rtt_s`, starting at `t0`: the ACK times spread evenly.
    fn one_rtt(cc: &mut CubicCc, t: &mut Tcb, t0: f64, rtt_s: f64) {
        let n = t.cwnd / SMSS;
        for i in 0..n {
            cc.on_ack(t, &ack(SMSS), secs(t0 + rtt_s * f64::from(i) / f64::from(n)));
        }
    }

    #[test]
    fn at_a_long_rtt_the_window_follows_the_cubic_to_w_max_by_k() {
        // W_max = 100 segments, RTT 100 ms: K = ∛75 = 4.22 s; W_cubic(t + RTT) leads.
        let (mut cc, mut t) = after_loss(100);
        cc.on_rtt_sample(&t, SimDuration::from_millis(100), SimTime::ZERO);
        let mut time = 0.0;
        let mut trace = vec![];
        while time < 6.0 {
            one_rtt(&mut cc, &mut t, time, 0.1);
            time += 0.1;
            trace.push((time, t.cwnd));
        }
        let k = cc.k_s().unwrap();
        assert!(close(k, 4.217_163, 1e-6));
        // At K the window is within a segment of W_max (it aims one RTT ahead).
        let at_k = trace.iter().find(|&&(s, _)| s >= k).unwrap().1;
        assert!((99_000..=101_500).contains(&at_k), "{at_k}");
        // Concave then convex: the growth per RTT falls towards K, then rises again.
        let growth = |a: usize| trace[a + 1].1 - trace[a].1;
        assert!(growth(2) > growth(20) && growth(55) > growth(40), "{trace:?}");
        // Far faster than Reno's one segment per RTT from 70 to 100 (30 RTTs = 3 s).
        assert!(trace[29].1 > 90_000, "{trace:?}");
    }

    #[test]
    fn at_a_small_rtt_the_reno_friendly_window_takes_over() {
        // RTT 1 ms: in 50 ms the cubic barely moves (W_cubic(0.05) = 100 + 0.4·(0.05 − 4.2172)³
        // = 71.05 segments), while W_est gains up to α = 9/17 segment per RTT: at most
        // 70 + 50·0.529 = 96.5 segments (each RTT's cwnd/SMSS ACKs, rounded down, add
        // α·SMSS/cwnd each).
        let (mut cc, mut t) = after_loss(100);
        cc.on_rtt_sample(&t, SimDuration::from_millis(1), SimTime::ZERO);
        let mut time = 0.0;
        for _ in 0..50 {
            one_rtt(&mut cc, &mut t, time, 0.001);
            time += 0.001;
        }
        let cubic = w_cubic(time, cc.k_s().unwrap(), cc.w_max(), SMSS);
        assert!(cubic < 71_100.0, "{cubic}");
        assert_eq!(t.cwnd, cc.w_est() as u32, "cwnd is the Reno-friendly window");
        assert!((95_000..=98_000).contains(&t.cwnd), "{}", t.cwnd);
    }

    #[test]
    fn alpha_becomes_one_once_w_est_reaches_the_window_before_the_loss() {
        let (mut cc, mut t) = after_loss(100);
        cc.on_rtt_sample(&t, SimDuration::from_millis(1), SimTime::ZERO);
        cc.on_ack(&mut t, &ack(SMSS), secs(0.0));
        let first = cc.w_est() - 70_000.0;
        assert!(close(first, ALPHA_CUBIC * 1000.0 * 1000.0 / 70_000.0, 1e-9), "{first}");
        assert!(!cc.alpha_is_one);
        cc.w_est = 100_000.0 - 1.0;
        t.cwnd = 100_000;
        cc.on_ack(&mut t, &ack(SMSS), secs(0.0001));
        assert!(cc.alpha_is_one);
        let (before, cwnd) = (cc.w_est(), t.cwnd);
        cc.on_ack(&mut t, &ack(SMSS), secs(0.0002));
        assert!(close(cc.w_est() - before, 1000.0 * 1000.0 / f64::from(cwnd), 1e-9), "α = 1: one SMSS per window");
    }

    #[test]
    fn after_a_timeout_the_next_stage_starts_at_k_zero_from_its_own_window() {
        let (mut cc, mut t) = after_loss(100);
        t.snd_max = t.snd_una + 50 * SMSS;
        t.ssthresh = cc.ssthresh_after_loss(&t, LossKind::Timeout { retransmissions: 1 });
        assert_eq!((t.ssthresh, cc.w_max()), (35_000, 0.0));
        t.cwnd = 40 * SMSS;
        cc.on_ack(&mut t, &ack(SMSS), secs(1.0));
        assert_eq!((cc.k_s(), cc.w_max(), cc.w_est()), (Some(0.0), 40_000.0, 40_000.0 + ALPHA_CUBIC * 25.0));
    }

    #[test]
    fn slow_start_is_rfc5681s_and_the_syn_ack_does_not_grow() {
        let mut cc = CubicCc::new(true);
        let mut t = tcb(SMSS, 10 * SMSS, u32::MAX);
        cc.on_ack(&mut t, &ack(3 * SMSS), SimTime::ZERO);
        assert_eq!(t.cwnd, 11 * SMSS, "min(N, SMSS)");
        let mut syn = ack(1);
        syn.syn_acked = true;
        cc.on_ack(&mut t, &syn, SimTime::ZERO);
        assert_eq!(t.cwnd, 11 * SMSS);
        assert_eq!(cc.k_s(), None, "no congestion-avoidance stage yet");
    }
}
