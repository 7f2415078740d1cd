//! Linux's RTT estimator and timeout: RFC 6298's smoothing as Linux runs it (P. Sarolahti,
//! A. Kuznetsov, *Congestion Control in Linux TCP*, USENIX 2002), in jiffies of 1/HZ s.

use super::TCP_MAXRXTSHIFT;
use crate::seq::SeqNum;
use crate::timers::{TickClock, TickMemo};
use celltrain_core::{SimDuration, SimTime};

/// Linux's `TCP_RTO_MIN`: the least deviation term, so the least timeout is SRTT + 200 ms.
pub const LINUX_RTO_MIN: SimDuration = SimDuration::from_millis(200);
/// Linux's `TCP_RTO_MAX`.
pub const LINUX_RTO_MAX: SimDuration = SimDuration::from_secs(120);

/// Linux's estimator on exact samples, its timeout in jiffies (`docs/references.md#linux-timers`).
///
/// The deviation is kept as four times the mean deviation (`mdev4`, RFC 6298's K·RTTVAR).
/// What the timeout adds to SRTT is `rttvar4`, which rises at once to the largest `mdev4` of
/// the current round trip (`mdev4_max`, which starts each round trip at `rto_min`) and, when a
/// round trip ends, falls by a quarter of its distance to that maximum: one sample's spike does
/// not go away at the next sample, and the term never goes below `rto_min`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinuxRtt {
    /// SRTT, `None` before the first sample.
    pub srtt: Option<SimDuration>,
    /// Four times the smoothed mean deviation.
    pub mdev4: SimDuration,
    /// The largest `mdev4` of the current round trip, at least `rto_min`.
    pub mdev4_max: SimDuration,
    /// The deviation term of the timeout (at least `rto_min`).
    pub rttvar4: SimDuration,
    /// The current round trip ends once `snd_una` passes this.
    pub rtt_seq: SeqNum,
    /// Least deviation term (`TCP_RTO_MIN`).
    pub rto_min: SimDuration,
    /// Largest timeout, back-off included (`TCP_RTO_MAX`).
    pub rto_max: SimDuration,
    /// The host's jiffies: timeouts are whole jiffies, expiring on jiffy ticks.
    pub clock: TickClock,
    /// Timeout before back-off, jiffies (rounded up, as converting microseconds to jiffies does).
    pub rto_base_jiffies: u64,
    /// Current timeout including back-off, jiffies.
    pub rto_jiffies: u64,
    /// Expiries of the current segment (as BSD `t_rxtshift`).
    pub shift: u32,
}

impl LinuxRtt {
    /// Before any sample the timeout is 1 s (`TCP_TIMEOUT_INIT`, RFC 6298 (2.1)).
    pub fn new(clock: TickClock, rto_min: SimDuration, rto_max: SimDuration) -> Self {
        let rto_min = rto_min.min(rto_max);
        let mut r = LinuxRtt {
            srtt: None,
            mdev4: SimDuration::ZERO,
            mdev4_max: rto_min,
            rttvar4: rto_min,
            rtt_seq: SeqNum(0),
            rto_min,
            rto_max,
            clock,
            rto_base_jiffies: 0,
            rto_jiffies: 0,
            shift: 0,
        };
        r.set_initial_rto(SimDuration::from_secs(1));
        r
    }

    /// Whole jiffies covering `d` (never zero: a timer is at least one tick away).
    fn jiffies(&self, d: SimDuration) -> u64 {
        d.as_picos().div_ceil(self.clock.period().as_picos()).max(1)
    }

    fn max_jiffies(&self) -> u64 {
        self.jiffies(self.rto_max)
    }

    /// Another timeout before any sample, rounded up to jiffies and at most `rto_max`.
    pub fn set_initial_rto(&mut self, rto: SimDuration) {
        self.rto_base_jiffies = self.jiffies(rto).min(self.max_jiffies());
        self.rto_jiffies = self.rto_base_jiffies;
    }

    /// A measurement `r`, taken on an ACK that leaves `snd_una`, with `snd_nxt` the next
    /// sequence number to send (a round trip of the deviation's bookkeeping ends when
    /// `snd_una` passes the `snd_nxt` of its start).
    pub fn on_sample(&mut self, r: SimDuration, snd_una: SeqNum, snd_nxt: SeqNum) {
        let rp = i128::from(r.as_picos());
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.mdev4 = SimDuration::from_picos(r.as_picos().saturating_mul(2));
                self.rttvar4 = self.mdev4.max(self.rto_min);
                self.mdev4_max = self.rttvar4;
                self.rtt_seq = snd_nxt;
            }
            Some(srtt) => {
                let s = i128::from(srtt.as_picos());
                let err = rp - s;
                let mdev = i128::from(self.mdev4.as_picos()) / 4;
                // RFC 6298's RTTVAR ← RTTVAR + (|err| − RTTVAR)/4, except that an RTT below
                // SRTT − RTTVAR raises the deviation at an eighth of that pace: a sudden fall in
                // the RTT is no reason to widen the timeout.
                let mut step = err.abs() - mdev;
                if err < 0 && step > 0 {
                    step /= 8;
                }
                let mdev4 = (i128::from(self.mdev4.as_picos()) + step).max(0);
                self.mdev4 = SimDuration::from_picos(mdev4 as u64);
                self.srtt = Some(SimDuration::from_picos((s + err / 8).max(1) as u64));
                self.mdev4_max = self.mdev4_max.max(self.mdev4);
                self.rttvar4 = self.rttvar4.max(self.mdev4_max);
                if snd_una.gt(self.rtt_seq) {
                    self.end_round_trip(snd_nxt);
                }
            }
        }
        self.rto_base_jiffies = self.jiffies(self.raw_rto()).min(self.max_jiffies());
        self.rto_jiffies = self.rto_base_jiffies;
        self.shift = 0;
    }

    /// The deviation term decays a quarter of the way to this round trip's largest deviation,
    /// and a new round trip starts.
    fn end_round_trip(&mut self, snd_nxt: SeqNum) {
        if self.mdev4_max < self.rttvar4 {
            self.rttvar4 = self.rttvar4 - SimDuration::from_picos((self.rttvar4 - self.mdev4_max).as_picos() / 4);
        }
        self.rtt_seq = snd_nxt;
        self.mdev4_max = self.rto_min;
    }

    /// SRTT + the deviation term, before rounding to jiffies and clamping.
    pub fn raw_rto(&self) -> SimDuration {
        self.srtt.unwrap_or(SimDuration::ZERO) + self.rttvar4
    }

    /// The current timeout, back-off included.
    pub fn rto(&self) -> SimDuration {
        self.clock.period().saturating_mul(self.rto_jiffies)
    }

    /// When a timer of `jiffies` armed at `now` expires: on the `jiffies`-th tick after `now`.
    pub fn expiry(&self, now: SimTime, jiffies: u64, memo: &mut TickMemo) -> SimTime {
        self.clock.nth_tick_after_memo(now, jiffies.max(1), memo)
    }

    /// When the timer armed at `now` for a duration `d` (rounded up to jiffies) expires.
    pub fn expiry_after(&self, now: SimTime, d: SimDuration, memo: &mut TickMemo) -> SimTime {
        self.expiry(now, self.jiffies(d), memo)
    }

    /// Timer expiry: the timeout doubles up to `rto_max`; false if the connection must be
    /// dropped.
    pub fn on_timeout(&mut self, max_retransmissions: u32) -> bool {
        self.shift += 1;
        if self.shift > max_retransmissions {
            self.shift = max_retransmissions;
            return false;
        }
        self.rto_jiffies = self.backed_off(self.rto_base_jiffies);
        true
    }

    /// `jiffies` doubled once per expiry so far, at most `rto_max`.
    fn backed_off(&self, jiffies: u64) -> u64 {
        jiffies.saturating_mul(1u64 << self.shift.min(40)).min(self.max_jiffies())
    }

    /// Zero-window probe interval, jiffies: the timeout (at least `rto_min`) doubled per probe
    /// so far, at most `rto_max`; then the count advances.
    pub fn setpersist(&mut self) -> u64 {
        let v = self.backed_off(self.rto_base_jiffies.max(self.jiffies(self.rto_min)));
        if self.shift < TCP_MAXRXTSHIFT {
            self.shift += 1;
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> SimDuration {
        SimDuration::from_millis(x)
    }

    fn linux(hz: u64) -> LinuxRtt {
        let jiffy = SimDuration::from_picos(SimDuration::from_secs(1).as_picos() / hz);
        LinuxRtt::new(TickClock::new(jiffy, SimDuration::ZERO), LINUX_RTO_MIN, LINUX_RTO_MAX)
    }

    fn us(x: u64) -> SimDuration {
        SimDuration::from_micros(x)
    }

    /// RFC 6298's rules with Linux's floor on the deviation term and HZ 250 (4 ms jiffies),
    /// worked by hand: (2.1) 1 s before any sample; (2.2) SRTT = R, 4·RTTVAR = 2R; (2.3)
    /// the smoothing; the timeout rounded up to whole jiffies.
    #[test]
    fn linux_rfc6298_rules_with_the_200_ms_floor_and_hz_rounding() {
        let mut r = linux(250);
        assert_eq!((r.rto_jiffies, r.rto()), (250, ms(1_000)), "TCP_TIMEOUT_INIT");
        // R = 100 ms: SRTT 100, 4·RTTVAR 200 = the floor: 300 ms = 75 jiffies exactly.
        r.on_sample(ms(100), SeqNum(1), SeqNum(11));
        assert_eq!((r.srtt, r.mdev4, r.rttvar4, r.rto()), (Some(ms(100)), ms(200), ms(200), ms(300)));
        // R = 200 ms, same round trip: err 100, mdev 50 + (100 − 50)/4 → 4·62.5 = 250;
        // SRTT 112.5; 362.5 ms = 90.6 jiffies → 91 = 364 ms (RFC 6298 alone: 362.5 ms).
        r.on_sample(ms(200), SeqNum(6), SeqNum(11));
        assert_eq!((r.srtt, r.mdev4, r.rttvar4), (Some(us(112_500)), ms(250), ms(250)));
        assert_eq!((r.raw_rto(), r.rto_jiffies, r.rto()), (us(362_500), 91, ms(364)));
        // R = 100 ms ending the round trip: err −12.5 < mdev, so the usual step: 4·mdev 200;
        // SRTT 110.9375; the round's largest deviation (250) is the term already: no decay.
        r.on_sample(ms(100), SeqNum(12), SeqNum(21));
        assert_eq!((r.srtt, r.mdev4, r.rttvar4), (Some(SimDuration::from_nanos(110_937_500)), ms(200), ms(250)));
        assert_eq!(r.rto(), ms(364), "360.9375 ms → 91 jiffies");
        assert_eq!((r.rtt_seq, r.mdev4_max), (SeqNum(21), ms(200)), "a new round trip from the floor");
        // R = 100 ms ending that round: 4·mdev 160.9375; the round's largest deviation was
        // the floor, 200: the term falls a quarter of the way, 250 − 12.5 = 237.5;
        // SRTT 109.5703125; 347.07 ms → 87 jiffies = 348 ms.
        r.on_sample(ms(100), SeqNum(22), SeqNum(31));
        assert_eq!((r.mdev4, r.rttvar4), (SimDuration::from_nanos(160_937_500), us(237_500)));
        assert_eq!((r.rto_jiffies, r.rto()), (87, ms(348)));
        // A short RTT: 30 ms gives SRTT 30, 4·RTTVAR 60, but the term is the floor: 230 ms
        // → 57.5 jiffies → 58 = 232 ms (RFC 6298 alone would clamp 90 ms to 1 s).
        let mut s = linux(250);
        s.on_sample(ms(30), SeqNum(1), SeqNum(2));
        assert_eq!((s.raw_rto(), s.rto()), (ms(230), ms(232)));
        // With HZ 100 the same is 23 jiffies of 10 ms exactly; with HZ 1000, 230.
        let mut t = linux(100);
        t.on_sample(ms(30), SeqNum(1), SeqNum(2));
        assert_eq!((t.rto_jiffies, t.rto()), (23, ms(230)));
        let mut u = linux(1000);
        u.on_sample(ms(30), SeqNum(1), SeqNum(2));
        assert_eq!((u.rto_jiffies, u.rto()), (230, ms(230)));
    }

    /// An RTT falling well below SRTT moves the deviation at 1/32 instead of RFC 6298's 1/4.
    #[test]
    fn linux_falling_rtt_barely_widens_the_timeout() {
        let mut r = linux(250);
        r.on_sample(ms(100), SeqNum(1), SeqNum(11));
        // R = 10 ms: err −90, mdev 50: the step |err| − mdev = 40 is cut to 5, so 4·mdev =
        // 200 + 5 = 205 (RFC 6298: 4·(50 + 40/4) = 240). SRTT 100 − 11.25 = 88.75;
        // 293.75 ms → 73.4 → 74 jiffies = 296 ms.
        r.on_sample(ms(10), SeqNum(2), SeqNum(11));
        assert_eq!((r.srtt, r.mdev4, r.rttvar4), (Some(us(88_750)), ms(205), ms(205)));
        assert_eq!(r.rto(), ms(296));
    }

    /// Back-off doubles the timeout in jiffies up to TCP_RTO_MAX (120 s); a persist probe
    /// waits at least TCP_RTO_MIN; an expiry fires on the jiffy tick.
    #[test]
    fn linux_backoff_persist_and_expiry_on_jiffies() {
        let mut r = linux(250);
        r.on_sample(ms(100), SeqNum(1), SeqNum(11));
        let mut seq = vec![r.rto_jiffies];
        for _ in 0..10 {
            assert!(r.on_timeout(15));
            seq.push(r.rto_jiffies);
        }
        // 75 · 2^k jiffies, capped at 120 s = 30 000 jiffies from 75 · 512 = 38 400 on.
        assert_eq!(seq, [75, 150, 300, 600, 1200, 2400, 4800, 9600, 19_200, 30_000, 30_000]);
        assert!(!linux(250).clone().on_timeout(0), "no retransmission allowed");
        let mut p = linux(250);
        p.on_sample(ms(100), SeqNum(1), SeqNum(11));
        assert_eq!([p.setpersist(), p.setpersist(), p.setpersist()], [75, 150, 300]);
        // Jiffies at 1 ms + k·4 ms: a 75-jiffy timer armed at 10 ms (after the ticks at 1, 5
        // and 9 ms) expires on the 75th tick after it, 1 + (3 + 74)·4 = 309 ms.
        let phased = TickClock::new(ms(4), ms(1));
        let mut q = LinuxRtt::new(phased, LINUX_RTO_MIN, LINUX_RTO_MAX);
        q.on_sample(ms(100), SeqNum(1), SeqNum(11));
        let at = SimTime::ZERO + ms(10);
        assert_eq!(q.expiry(at, q.rto_jiffies, &mut TickMemo::default()), SimTime::ZERO + ms(309));
        assert_eq!(q.expiry_after(at, ms(40), &mut TickMemo::default()), SimTime::ZERO + ms(49), "10 jiffies");
    }
}
