//! RTT estimation and retransmission-timeout computation.
//!
//! Two estimators, selected by [`crate::TimerGranularity`] and [`crate::RtoFormula`]:
//!
//! * [`BsdRtt`]: 4.4BSD-Lite2 `tcp_xmit_timer` in fixed point, on RTTs counted in slow-timer
//!   ticks (`t_srtt` scaled ×8, `t_rttvar` ×4, `TCP_REXMTVAL = (t_srtt >> 3) + t_rttvar`,
//!   `t_rttmin`, back-off table, give-up after `TCP_MAXRXTSHIFT`),
//!   `docs/references.md#bsd-rtt-estimator`. With [`BsdRto::Tahoe`] the same smoothing feeds
//!   4.3BSD-Tahoe's timeout `((t_srtt >> 2) + t_rttvar) >> 1` (srtt + 2·rttvar; 4.3BSD-Tahoe
//!   `tcp_input.c` 7.19 and `tcp_timer.c`, 1988, which SunOS 4.1.x derives from). The tick
//!   constants of 4.4BSD are defined in seconds × PR_SLOWHZ; for other periods they are
//!   converted with `hz = 1 s / period` (TCPTV_SRTTDFLT = 3 s, TCPTV_REXMTMAX = 64 s,
//!   TCPTV_PERSMIN = 5 s, TCPTV_PERSMAX = 60 s), except `t_rttmin`, which stays a tick count
//!   (2 by default: 20 ms with 10 ms ticks).
//! * [`Rfc6298Rtt`]: RFC 6298 on exact durations (α = 1/8, β = 1/4, K = 4), clamped to
//!   `[exact_rto_min, rto_max]`, with the same back-off multipliers.
//! * [`LinuxRtt`]: RFC 6298's smoothing as Linux runs it (P. Sarolahti, A. Kuznetsov,
//!   *Congestion Control in Linux TCP*, USENIX 2002): the deviation term never falls below
//!   `TCP_RTO_MIN` (200 ms) and follows the largest deviation of the last round trip, an RTT
//!   falling below the smoothed one moves the deviation eight times less, and the timeout is
//!   counted in jiffies of 1/HZ s (`docs/references.md#linux-timers`).
//!
//! Karn's rule and the choice of which segments are timed belong to the endpoint; these
//! types only turn samples and expiries into timeouts.

mod linux;

pub use linux::{LinuxRtt, LINUX_RTO_MAX, LINUX_RTO_MIN};

use celltrain_core::SimDuration;

/// Retransmissions before the connection is dropped (BSD `TCP_MAXRXTSHIFT`).
pub const TCP_MAXRXTSHIFT: u32 = 12;
/// RTO multiplier per retransmission count (BSD `tcp_backoff[]`).
pub const TCP_BACKOFF: [u32; 13] = [1, 2, 4, 8, 16, 32, 64, 64, 64, 64, 64, 64, 64];
/// `t_srtt` fractional bits (BSD `TCP_RTT_SHIFT`).
pub const TCP_RTT_SHIFT: u32 = 3;
/// `t_rttvar` fractional bits (BSD `TCP_RTTVAR_SHIFT`).
pub const TCP_RTTVAR_SHIFT: u32 = 2;

fn backoff(shift: u32) -> u32 {
    TCP_BACKOFF[(shift as usize).min(TCP_BACKOFF.len() - 1)]
}

/// BSD `TCPT_RANGESET`: clamp to `[lo, hi]`.
fn rangeset(v: u64, lo: u32, hi: u32) -> u32 {
    v.clamp(u64::from(lo), u64::from(hi.max(lo))) as u32
}

/// Which BSD release's retransmission-timeout formula a [`BsdRtt`] applies to its smoothed
/// estimates (the smoothing itself is the same in both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BsdRto {
    /// 4.4BSD-Lite2 `TCP_REXMTVAL`: `(t_srtt >> 3) + t_rttvar` (srtt + 4·rttvar); after the
    /// fourth expiry `t_rttvar += t_srtt >> 3`.
    #[default]
    Lite,
    /// 4.3BSD-Tahoe: `((t_srtt >> 2) + t_rttvar) >> 1` (srtt + 2·rttvar); after the fourth
    /// expiry `t_rttvar += t_srtt >> 2`, which keeps the same timeout with `t_srtt = 0`.
    Tahoe,
}

/// The 4.4BSD-Lite2 estimator, in slow-timer ticks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BsdRtt {
    /// Smoothed RTT, ticks × 8 (`t_srtt`; 0 = no estimate yet).
    pub t_srtt: i32,
    /// Smoothed mean deviation, ticks × 4 (`t_rttvar`).
    pub t_rttvar: i32,
    /// Minimum RTO, ticks (`t_rttmin`).
    pub t_rttmin: u32,
    /// Current (possibly backed-off) RTO, ticks (`t_rxtcur`).
    pub t_rxtcur: u32,
    /// Retransmissions of the current segment (`t_rxtshift`).
    pub t_rxtshift: u32,
    /// Maximum RTO, ticks (TCPTV_REXMTMAX = 64 s).
    pub rexmt_max: u32,
    /// Slow ticks per second (PR_SLOWHZ).
    pub hz: u32,
    /// The release whose timeout formula applies.
    pub formula: BsdRto,
}

impl BsdRtt {
    /// `tcp_newtcpcb`: `t_srtt = 0`, `t_rttvar = TCPTV_SRTTDFLT << 2` (3 s in ticks, ×4),
    /// `t_rxtcur = ((0 >> 2) + (TCPTV_SRTTDFLT << 2)) >> 1` (6 s: 12 ticks at 2 Hz).
    pub fn new(hz: u32, rttmin_ticks: u32, rto_max: SimDuration) -> Self {
        let srttdflt = 3 * hz;
        let rexmt_max = u32::try_from(
            u128::from(rto_max.as_picos()) * u128::from(hz) / u128::from(SimDuration::from_secs(1).as_picos()),
        )
        .unwrap_or(u32::MAX)
        .max(1);
        let t_rttvar = (srttdflt << TCP_RTTVAR_SHIFT) as i32;
        // ((TCPTV_SRTTBASE >> 2) + (TCPTV_SRTTDFLT << 2)) >> 1 with TCPTV_SRTTBASE = 0.
        let initial = u64::from((srttdflt << 2) >> 1);
        BsdRtt {
            t_srtt: 0,
            t_rttvar,
            t_rttmin: rttmin_ticks,
            t_rxtcur: rangeset(initial, rttmin_ticks, rexmt_max),
            t_rxtshift: 0,
            rexmt_max,
            hz,
            formula: BsdRto::Lite,
        }
    }

    /// The same estimator with another release's timeout formula. Before any sample both
    /// formulas give the same initial timeout (`t_srtt = 0`: `t_rttvar / 2` for Tahoe, and
    /// Lite's `tcp_newtcpcb` also sets `t_rxtcur` with Tahoe's expression).
    pub fn with_formula(mut self, formula: BsdRto) -> Self {
        self.formula = formula;
        self
    }

    /// Another initial RTO of `ticks` (before any sample). BSD derives its initial
    /// `t_rxtcur` from the initial deviation (`t_rxtcur = t_rttvar / 2` with `t_srtt = 0`);
    /// the same relation is kept (`t_rttvar = 2·ticks`), so the first back-off still gives
    /// four times the initial value with Lite's formula (12 → 48 ticks by default, vector
    /// 7.b) and twice with Tahoe's (12 → 24).
    pub fn set_initial_rto(&mut self, ticks: u32) {
        let ticks = rangeset(u64::from(ticks), self.t_rttmin, self.rexmt_max);
        self.t_rxtcur = ticks;
        self.t_rttvar = (2 * ticks).min(i32::MAX as u32) as i32;
    }

    /// The timeout before clamping and back-off, ticks: Lite's
    /// `TCP_REXMTVAL(tp) = (t_srtt >> 3) + t_rttvar` (= srtt + 4·rttvar) or Tahoe's
    /// `((t_srtt >> 2) + t_rttvar) >> 1` (= srtt + 2·rttvar).
    pub fn rexmtval(&self) -> u32 {
        let v = match self.formula {
            BsdRto::Lite => (self.t_srtt >> TCP_RTT_SHIFT) + self.t_rttvar,
            BsdRto::Tahoe => ((self.t_srtt >> 2) + self.t_rttvar) >> 1,
        };
        v.max(0) as u32
    }

    /// `tcp_xmit_timer(tp, rtt)`: a new sample of `rtt` ticks (as counted by `t_rtt`, ≥ 1).
    pub fn xmit_timer(&mut self, rtt: u32) {
        let rtt = rtt.min(i32::MAX as u32 >> 4) as i32;
        if self.t_srtt != 0 {
            // srtt ← srtt + (rtt − srtt)/8, with BSD's "rtt − 1" (t_rtt starts at 1).
            let mut delta = rtt - 1 - (self.t_srtt >> TCP_RTT_SHIFT);
            self.t_srtt += delta;
            if self.t_srtt <= 0 {
                self.t_srtt = 1;
            }
            // rttvar ← rttvar + (|err| − rttvar)/4.
            if delta < 0 {
                delta = -delta;
            }
            delta -= self.t_rttvar >> (TCP_RTTVAR_SHIFT);
            self.t_rttvar += delta;
            if self.t_rttvar <= 0 {
                self.t_rttvar = 1;
            }
        } else {
            // First sample: srtt = rtt, rttvar = rtt/2.
            self.t_srtt = rtt << TCP_RTT_SHIFT;
            self.t_rttvar = rtt << (TCP_RTTVAR_SHIFT - 1);
        }
        self.t_rxtshift = 0;
        self.t_rxtcur = rangeset(u64::from(self.rexmtval()), self.t_rttmin, self.rexmt_max);
    }

    /// TCPT_REXMT expiry (`tcp_timers`): returns false if the connection must be dropped
    /// (`++t_rxtshift > max_retransmissions`); otherwise backs off `t_rxtcur` and, after the
    /// fourth expiry, distrusts the smoothed RTT (`t_rttvar += t_srtt >> 3; t_srtt = 0`)
    /// while keeping the RTO value.
    pub fn on_timeout(&mut self, max_retransmissions: u32) -> bool {
        self.t_rxtshift += 1;
        if self.t_rxtshift > max_retransmissions {
            self.t_rxtshift = max_retransmissions;
            return false;
        }
        let rexmt = u64::from(self.rexmtval()) * u64::from(backoff(self.t_rxtshift));
        self.t_rxtcur = rangeset(rexmt, self.t_rttmin, self.rexmt_max);
        if self.t_rxtshift > TCP_MAXRXTSHIFT / 4 {
            // Moves srtt into rttvar so that the formula's value survives `t_srtt = 0`.
            self.t_rttvar += match self.formula {
                BsdRto::Lite => self.t_srtt >> TCP_RTT_SHIFT,
                BsdRto::Tahoe => self.t_srtt >> 2,
            };
            self.t_srtt = 0;
        }
        true
    }

    /// `tcp_setpersist`: the persist interval in ticks,
    /// `clamp((((t_srtt >> 2) + t_rttvar) >> 1) · tcp_backoff[t_rxtshift], 5 s, 60 s)`;
    /// then `t_rxtshift` advances (up to TCP_MAXRXTSHIFT).
    pub fn setpersist(&mut self) -> u32 {
        let t = (((self.t_srtt >> 2) + self.t_rttvar) >> 1).max(0) as u64;
        let v = rangeset(t * u64::from(backoff(self.t_rxtshift)), 5 * self.hz, 60 * self.hz);
        if self.t_rxtshift < TCP_MAXRXTSHIFT {
            self.t_rxtshift += 1;
        }
        v
    }
}

/// RFC 6298 estimator on exact durations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rfc6298Rtt {
    /// SRTT, `None` before the first sample.
    pub srtt: Option<SimDuration>,
    /// RTTVAR.
    pub rttvar: SimDuration,
    /// RTO before back-off (SRTT + max(G, K·RTTVAR), clamped).
    pub rto_base: SimDuration,
    /// Current RTO including back-off.
    pub rto: SimDuration,
    /// Retransmissions of the current segment (as BSD `t_rxtshift`).
    pub shift: u32,
    /// Lower clamp (RFC 6298 (2.4): 1 s).
    pub min: SimDuration,
    /// Upper clamp.
    pub max: SimDuration,
    /// Clock granularity G (zero: exact timers).
    pub granularity: SimDuration,
}

impl Rfc6298Rtt {
    /// Before any sample the RTO is 1 s (RFC 6298 (2.1)), clamped to `[min, max]`.
    pub fn new(min: SimDuration, max: SimDuration, granularity: SimDuration) -> Self {
        let rto = SimDuration::from_secs(1).max(min).min(max);
        Rfc6298Rtt { srtt: None, rttvar: SimDuration::ZERO, rto_base: rto, rto, shift: 0, min, max, granularity }
    }

    /// Another initial RTO (RFC 6298 (2.1) uses 1 s), clamped to `[min, max]`.
    pub fn set_initial_rto(&mut self, rto: SimDuration) {
        self.rto_base = rto.max(self.min).min(self.max);
        self.rto = self.rto_base;
    }

    /// RFC 6298 (2.2)/(2.3): a new measurement `r`.
    pub fn on_sample(&mut self, r: SimDuration) {
        let rp = u128::from(r.as_picos());
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = SimDuration::from_picos(r.as_picos() / 2);
            }
            Some(srtt) => {
                let s = u128::from(srtt.as_picos());
                let err = s.abs_diff(rp);
                // RTTVAR first (uses the old SRTT), then SRTT.
                let var = (3 * u128::from(self.rttvar.as_picos()) + err) / 4;
                let s = (7 * s + rp) / 8;
                self.rttvar = SimDuration::from_picos(var as u64);
                self.srtt = Some(SimDuration::from_picos(s as u64));
            }
        }
        self.rto_base = self.raw_rto().max(self.min).min(self.max);
        self.rto = self.rto_base;
        self.shift = 0;
    }

    /// SRTT + max(G, K·RTTVAR) before clamping.
    pub fn raw_rto(&self) -> SimDuration {
        let k_var = self.rttvar.saturating_mul(4);
        self.srtt.unwrap_or(SimDuration::ZERO) + k_var.max(self.granularity)
    }

    /// Timer expiry (RFC 6298 (5.5) back-off): false if the connection must be dropped.
    pub fn on_timeout(&mut self, max_retransmissions: u32) -> bool {
        self.shift += 1;
        if self.shift > max_retransmissions {
            self.shift = max_retransmissions;
            return false;
        }
        self.rto = self.rto_base.saturating_mul(u64::from(backoff(self.shift))).min(self.max);
        true
    }

    /// Persist interval: `clamp(rto_base · backoff, 5 s, 60 s)`, then the shift advances.
    pub fn setpersist(&mut self) -> SimDuration {
        let v = self
            .rto_base
            .saturating_mul(u64::from(backoff(self.shift)))
            .max(SimDuration::from_secs(5))
            .min(SimDuration::from_secs(60));
        if self.shift < TCP_MAXRXTSHIFT {
            self.shift += 1;
        }
        v
    }
}

/// The estimator an endpoint uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RttEstimator {
    /// Slow-timer ticks, BSD fixed point.
    Bsd(BsdRtt),
    /// Exact durations, RFC 6298.
    Rfc6298(Rfc6298Rtt),
    /// Exact samples, Linux's deviation term, jiffies.
    Linux(LinuxRtt),
}

impl RttEstimator {
    /// Retransmissions of the current segment so far (`t_rxtshift`).
    pub fn shift(&self) -> u32 {
        match self {
            RttEstimator::Bsd(b) => b.t_rxtshift,
            RttEstimator::Rfc6298(r) => r.shift,
            RttEstimator::Linux(l) => l.shift,
        }
    }

    /// Resets the back-off count (BSD does so when the persist state ends).
    pub fn reset_shift(&mut self) {
        match self {
            RttEstimator::Bsd(b) => b.t_rxtshift = 0,
            RttEstimator::Rfc6298(r) => {
                r.shift = 0;
                r.rto = r.rto_base;
            }
            RttEstimator::Linux(l) => {
                l.shift = 0;
                l.rto_jiffies = l.rto_base_jiffies;
            }
        }
    }

    /// Expiry bookkeeping; false if the connection must be dropped.
    pub fn on_timeout(&mut self, max_retransmissions: u32) -> bool {
        match self {
            RttEstimator::Bsd(b) => b.on_timeout(max_retransmissions),
            RttEstimator::Rfc6298(r) => r.on_timeout(max_retransmissions),
            RttEstimator::Linux(l) => l.on_timeout(max_retransmissions),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lite() -> BsdRtt {
        BsdRtt::new(2, 2, SimDuration::from_secs(64))
    }

    #[test]
    fn initial_rto_keeps_bsd_relation_to_the_deviation() {
        let mut b = BsdRtt::new(2, 2, SimDuration::from_secs(64));
        b.set_initial_rto(2);
        assert_eq!((b.t_rxtcur, b.t_rttvar), (2, 4));
        assert!(b.on_timeout(12));
        assert_eq!(b.t_rxtcur, 8, "rexmtval 4 × backoff 2");
        b.set_initial_rto(1);
        assert_eq!(b.t_rxtcur, 2, "never below t_rttmin");
        let mut r = Rfc6298Rtt::new(SimDuration::from_millis(200), SimDuration::from_secs(60), SimDuration::ZERO);
        r.set_initial_rto(SimDuration::from_millis(500));
        assert_eq!(r.rto, SimDuration::from_millis(500));
        r.set_initial_rto(SimDuration::from_millis(50));
        assert_eq!(r.rto, SimDuration::from_millis(200));
    }

    #[test]
    fn bsd_initial_values() {
        let r = lite();
        assert_eq!((r.t_srtt, r.t_rttvar, r.t_rxtcur), (0, 24, 12), "tcp_newtcpcb at PR_SLOWHZ 2");
        assert_eq!(r.rexmt_max, 128);
        assert_eq!(r.rexmtval(), 24);
        let fine = BsdRtt::new(100, 2, SimDuration::from_secs(64));
        assert_eq!((fine.t_rttvar, fine.t_rxtcur, fine.rexmt_max), (1200, 600, 6400), "6 s initial RTO at 10 ms ticks");
    }

    #[test]
    fn reference_vector_7a_samples() {
        // Vector 7.a (docs/references.md#test-vectors): samples 3, 2, 2, 5, 1 ticks.
        let expect = [(3, 24, 6, 9), (2, 22, 7, 9), (2, 21, 7, 9), (5, 23, 8, 10), (1, 21, 8, 10)];
        assert_samples(lite(), &expect);
    }

    /// Feeds vector 7.a's samples (the first of each tuple) and checks (t_srtt, t_rttvar,
    /// t_rxtcur) after each.
    fn assert_samples(mut r: BsdRtt, expect: &[(u32, i64, i64, i64)]) {
        for &(rtt, srtt, var, rto) in expect {
            r.xmit_timer(rtt);
            assert_eq!(
                (i64::from(r.t_srtt), i64::from(r.t_rttvar), i64::from(r.t_rxtcur)),
                (srtt, var, rto),
                "after sample {rtt}"
            );
        }
    }

    #[test]
    fn reference_vector_7a_backoff_after_first_sample_2() {
        let mut r = lite();
        r.xmit_timer(2);
        assert_eq!((r.t_srtt, r.t_rttvar, r.t_rxtcur), (16, 4, 6));
        let mut seq = vec![r.t_rxtcur];
        for _ in 0..7 {
            assert!(r.on_timeout(12));
            seq.push(r.t_rxtcur);
        }
        assert_eq!(seq, [6, 12, 24, 48, 96, 128, 128, 128]);
    }

    #[test]
    fn reference_vector_7b_syn_backoff_and_give_up() {
        let mut r = lite();
        let mut seq = vec![r.t_rxtcur];
        for _ in 0..12 {
            assert!(r.on_timeout(12));
            seq.push(r.t_rxtcur);
        }
        assert_eq!(&seq[..5], &[12, 48, 96, 128, 128]);
        assert!(seq[5..].iter().all(|&t| t == 128));
        assert!(!r.on_timeout(12), "13th expiry drops the connection");
    }

    #[test]
    fn one_tick_rtts_settle_at_three_ticks_and_rttmin_clamps() {
        let mut r = lite();
        r.xmit_timer(1);
        // First sample: srtt 8 (1 tick), rttvar 2: REXMTVAL = 1 + 2 = 3 ticks.
        assert_eq!((r.t_srtt, r.t_rttvar, r.t_rxtcur), (8, 2, 3));
        // Next: delta = 1 − 1 − 1 = −1 → srtt 7; |−1| − (2 >> 2) = 1 → rttvar 3; RTO 0 + 3.
        r.xmit_timer(1);
        assert_eq!((r.t_srtt, r.t_rttvar, r.t_rxtcur), (7, 3, 3));
        // From then on delta = 0 and 3 >> 2 = 0: BSD's truncation keeps the RTO at 3 ticks.
        for _ in 0..20 {
            r.xmit_timer(1);
        }
        assert_eq!((r.t_srtt, r.t_rttvar, r.t_rxtcur), (7, 3, 3));
        let mut slow_min = BsdRtt::new(2, 4, SimDuration::from_secs(64));
        slow_min.xmit_timer(1);
        assert_eq!(slow_min.t_rxtcur, 4, "t_rttmin clamps REXMTVAL = 3 up to 4 ticks");
    }

    #[test]
    fn persist_interval_is_clamped() {
        let mut r = lite();
        // ((0 >> 2) + 24) >> 1 = 12 ticks = 6 s; then x2 = 12 s ...
        assert_eq!(r.setpersist(), 12);
        assert_eq!(r.setpersist(), 24);
        assert_eq!(r.setpersist(), 48);
        assert_eq!(r.setpersist(), 96);
        assert_eq!(r.setpersist(), 120, "TCPTV_PERSMAX = 60 s");
        let mut fast = lite();
        fast.xmit_timer(1);
        assert_eq!(fast.setpersist(), 10, "TCPTV_PERSMIN = 5 s");
    }

    fn tahoe() -> BsdRtt {
        lite().with_formula(BsdRto::Tahoe)
    }

    /// 4.3BSD-Tahoe's `((t_srtt >> 2) + t_rttvar) >> 1`, worked by hand on the samples of
    /// vector 7.a (the smoothing is Lite's; only the timeout differs).
    #[test]
    fn tahoe_rto_on_vector_7a_samples() {
        let r = tahoe();
        assert_eq!(r.t_rxtcur, 12, "initial timeout as Lite's: 24 >> 1");
        // (sample, t_srtt, t_rttvar, ((t_srtt >> 2) + t_rttvar) >> 1)
        let expect = [(3, 24, 6, 6), (2, 22, 7, 6), (2, 21, 7, 6), (5, 23, 8, 6), (1, 21, 8, 6)];
        assert_samples(r, &expect);
    }

    /// One-tick RTTs: Lite settles at 3 ticks, Tahoe at the 2-tick minimum (BKD97: "the
    /// minimum value for TCP's retransmission timer is two 500 msec periods").
    #[test]
    fn tahoe_one_tick_rtts_settle_at_two_ticks() {
        let mut r = tahoe();
        r.xmit_timer(1);
        // srtt 8, rttvar 2: ((8 >> 2) + 2) >> 1 = 2.
        assert_eq!((r.t_srtt, r.t_rttvar, r.t_rxtcur), (8, 2, 2));
        r.xmit_timer(1);
        // srtt 7, rttvar 3: ((7 >> 2) + 3) >> 1 = (1 + 3) >> 1 = 2.
        assert_eq!((r.t_srtt, r.t_rttvar, r.t_rxtcur), (7, 3, 2));
        for _ in 0..20 {
            r.xmit_timer(1);
        }
        assert_eq!((r.t_srtt, r.t_rttvar, r.t_rxtcur), (7, 3, 2));
        // At 10 ms ticks an RTT of 2 ticks: Tahoe 3 ticks where Lite gives 4.
        let mut fine_lite = BsdRtt::new(100, 2, SimDuration::from_secs(64));
        let mut fine_tahoe = fine_lite.clone().with_formula(BsdRto::Tahoe);
        for _ in 0..30 {
            fine_lite.xmit_timer(2);
            fine_tahoe.xmit_timer(2);
        }
        // Both settle at srtt 15 (×8), rttvar 3 (×4): Lite 1 + 3 = 4, Tahoe (3 + 3) >> 1 = 3.
        assert_eq!((fine_lite.t_srtt, fine_lite.t_rttvar, fine_lite.t_rxtcur), (15, 3, 4));
        assert_eq!((fine_tahoe.t_srtt, fine_tahoe.t_rttvar, fine_tahoe.t_rxtcur), (15, 3, 3));
    }

    #[test]
    fn tahoe_backoff_and_distrust_keep_the_timeout() {
        let mut r = tahoe();
        r.xmit_timer(2);
        // srtt 16, rttvar 4: ((16 >> 2) + 4) >> 1 = 4 ticks.
        assert_eq!((r.t_srtt, r.t_rttvar, r.t_rxtcur), (16, 4, 4));
        let mut seq = vec![r.t_rxtcur];
        for _ in 0..7 {
            assert!(r.on_timeout(12));
            seq.push(r.t_rxtcur);
        }
        // 4 × {1, 2, 4, 8, 16, 32, 64, 64}, clamped to 128; after the 4th expiry rttvar
        // takes srtt >> 2 = 4 (8 in all) and srtt = 0: (0 + 8) >> 1 = 4 still.
        assert_eq!(seq, [4, 8, 16, 32, 64, 128, 128, 128]);
        assert_eq!((r.t_srtt, r.t_rttvar), (0, 8));
        let mut syn = tahoe();
        let mut seq = vec![syn.t_rxtcur];
        for _ in 0..4 {
            assert!(syn.on_timeout(12));
            seq.push(syn.t_rxtcur);
        }
        assert_eq!(seq, [12, 24, 48, 96, 128], "Tahoe doubles where Lite quadruples first");
    }

    fn ms(x: u64) -> SimDuration {
        SimDuration::from_millis(x)
    }

    #[test]
    fn reference_vector_7c_rfc6298() {
        let g = SimDuration::from_micros(500);
        let mut r = Rfc6298Rtt::new(SimDuration::from_secs(1), SimDuration::from_secs(64), g);
        assert_eq!(r.rto, SimDuration::from_secs(1));
        r.on_sample(ms(100));
        assert_eq!((r.srtt, r.rttvar, r.raw_rto()), (Some(ms(100)), ms(50), ms(300)));
        r.on_sample(ms(200));
        assert_eq!(r.srtt, Some(SimDuration::from_micros(112_500)));
        assert_eq!(r.rttvar, SimDuration::from_micros(62_500));
        assert_eq!(r.raw_rto(), SimDuration::from_micros(362_500));
        r.on_sample(ms(100));
        assert_eq!(r.srtt, Some(SimDuration::from_nanos(110_937_500)));
        assert_eq!(r.rttvar, ms(50));
        assert_eq!(r.raw_rto(), SimDuration::from_nanos(310_937_500));
        assert_eq!(r.rto, SimDuration::from_secs(1), "clamped to 1 s");

        let mut s = Rfc6298Rtt::new(SimDuration::from_secs(1), SimDuration::from_secs(64), g);
        s.on_sample(ms(500));
        assert_eq!(s.rto, ms(1500));
        s.on_sample(ms(600));
        assert_eq!((s.srtt, s.rttvar), (Some(SimDuration::from_micros(512_500)), SimDuration::from_micros(212_500)));
        assert_eq!(s.rto, SimDuration::from_micros(1_362_500));
        // Back-off doubles and caps at 64 s.
        assert!(s.on_timeout(12));
        assert_eq!(s.rto, SimDuration::from_micros(2_725_000));
        for _ in 0..5 {
            assert!(s.on_timeout(12));
        }
        assert_eq!(s.rto, SimDuration::from_micros(1_362_500 * 64).min(SimDuration::from_secs(64)));
    }
}
