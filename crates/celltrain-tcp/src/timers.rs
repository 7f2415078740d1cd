//! Host timer clocks and the endpoint's pending deadlines.
//!
//! BSD drives TCP timers from two host-wide periodic routines: `tcp_slowtimo` (every 500 ms
//! in 4.4BSD) decrements each connection's `t_timer[]` counters and `t_rtt`, and
//! `tcp_fasttimo` (every 200 ms) releases delayed ACKs. A counter armed with `n` at time `t`
//! therefore fires at the n-th slow tick *after* `t`, i.e. between (n−1)·period and
//! n·period later (`docs/references.md#bsd-timers`).
//!
//! The sans-IO endpoint does not get woken on every tick. A [`TickClock`] computes tick
//! instants from the host phase, so a counter is stored as the absolute time of the tick on
//! which it reaches zero, and tick counts (BSD `t_rtt`, `t_idle`, `tcp_now`) are computed
//! from timestamps. Convention for ties: a tick at exactly time `T` is processed *before*
//! any segment handled at `T` (so it counts towards an RTT measured at `T`, and a timer
//! due at `T` fires before a segment at `T` is processed).

use celltrain_core::{SimDuration, SimTime};

/// A periodic host clock: ticks at `phase + k·period` for every k ≥ 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TickClock {
    /// Time between ticks (> 0).
    period: SimDuration,
    /// Offset of tick 0 from time zero, reduced modulo `period`.
    phase: SimDuration,
}

impl TickClock {
    /// A clock ticking every `period` (must be positive), first at `phase mod period`.
    pub fn new(period: SimDuration, phase: SimDuration) -> Self {
        assert!(!period.is_zero(), "tick period must be positive");
        TickClock { period, phase: SimDuration::from_picos(phase.as_picos() % period.as_picos()) }
    }

    /// The tick period.
    pub fn period(&self) -> SimDuration {
        self.period
    }

    /// Number of ticks at times ≤ `t` (BSD `tcp_now` if counted from boot at time 0).
    pub fn ticks_through(&self, t: SimTime) -> u64 {
        let (t, p) = (t.as_picos(), self.phase.as_picos());
        if t < p {
            0
        } else {
            (t - p) / self.period.as_picos() + 1
        }
    }

    /// Number of ticks in the half-open interval `(a, b]`.
    pub fn ticks_between(&self, a: SimTime, b: SimTime) -> u64 {
        self.ticks_through(b).saturating_sub(self.ticks_through(a))
    }

    /// Time of the `n`-th tick strictly after `t` (`n ≥ 1`): when a BSD timer counter armed
    /// with `n` at `t` reaches zero.
    pub fn nth_tick_after(&self, t: SimTime, n: u64) -> SimTime {
        debug_assert!(n >= 1, "a timer armed with 0 ticks is disarmed");
        let k = self.ticks_through(t) + n.max(1) - 1;
        SimTime::ZERO + self.phase + self.period.saturating_mul(k)
    }

    /// Time of the first tick strictly after `t`.
    pub fn next_tick_after(&self, t: SimTime) -> SimTime {
        self.nth_tick_after(t, 1)
    }

    /// [`ticks_through`](Self::ticks_through), answered from `memo` when `t` lies between the
    /// same two ticks as the last time asked (a timer re-armed on every ACK asks thousands of
    /// times per tick, and the count is a 64-bit division).
    #[inline]
    pub fn ticks_through_memo(&self, t: SimTime, memo: &mut TickMemo) -> u64 {
        if memo.from <= t && t < memo.until {
            return memo.ticks;
        }
        let ticks = self.ticks_through(t);
        // The ticks bounding `t`: the `ticks`-th (or time zero) and the next one.
        let tick = |k: u64| self.period.as_picos().checked_mul(k).and_then(|x| x.checked_add(self.phase.as_picos()));
        let from = if ticks == 0 { Some(0) } else { tick(ticks - 1) };
        if let (Some(from), Some(until)) = (from, tick(ticks)) {
            *memo = TickMemo { from: SimTime::from_picos(from), until: SimTime::from_picos(until), ticks };
        }
        ticks
    }

    /// [`ticks_between`](Self::ticks_between) through [`ticks_through_memo`](Self::ticks_through_memo).
    #[inline]
    pub fn ticks_between_memo(&self, a: SimTime, b: SimTime, memo: &mut TickMemo) -> u64 {
        self.ticks_through_memo(b, memo).saturating_sub(self.ticks_through_memo(a, memo))
    }

    /// [`nth_tick_after`](Self::nth_tick_after) through [`ticks_through_memo`](Self::ticks_through_memo).
    #[inline]
    pub fn nth_tick_after_memo(&self, t: SimTime, n: u64, memo: &mut TickMemo) -> SimTime {
        debug_assert!(n >= 1, "a timer armed with 0 ticks is disarmed");
        let k = self.ticks_through_memo(t, memo) + n.max(1) - 1;
        SimTime::ZERO + self.phase + self.period.saturating_mul(k)
    }
}

/// The span between two ticks of a [`TickClock`] and the tick count through any time in it
/// (empty at first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TickMemo {
    /// The span's start (a tick, or time zero), inclusive.
    from: SimTime,
    /// The next tick, exclusive.
    until: SimTime,
    /// Ticks at times ≤ any time in the span.
    ticks: u64,
}

/// The endpoint's pending deadlines (BSD `t_timer[]` plus the delayed-ACK flag's tick).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timers {
    /// Retransmission timer (TCPT_REXMT) expiry.
    pub rexmt: Option<SimTime>,
    /// Persist timer (TCPT_PERSIST) expiry; never armed together with `rexmt`.
    pub persist: Option<SimTime>,
    /// Delayed-ACK release (next fast tick after TF_DELACK was set).
    pub delack: Option<SimTime>,
    /// TIME_WAIT end (TCPT_2MSL).
    pub msl2: Option<SimTime>,
    /// The loss recovery's own timer (RACK's reordering timer or TLP's probe timeout).
    pub loss: Option<SimTime>,
    /// When pacing next lets data leave (armed only while data waits for it).
    pub pace: Option<SimTime>,
}

impl Timers {
    /// The earliest pending deadline.
    pub fn earliest(&self) -> Option<SimTime> {
        // (Written out, as words: every TCP service asks, and neither the iterator chain nor a
        // `min` of `Option`s folded into plain comparisons.)
        let t = [self.rexmt, self.persist, self.delack, self.msl2, self.loss, self.pace];
        let at = |i: usize| t[i].map_or(u64::MAX, SimTime::as_picos);
        let least = at(0).min(at(1)).min(at(2)).min(at(3)).min(at(4)).min(at(5));
        let any = t.iter().fold(false, |any, d| any | d.is_some());
        any.then(|| SimTime::from_picos(least))
    }

    /// Disarms everything (BSD `tcp_canceltimers`).
    pub fn cancel_all(&mut self) {
        *self = Timers::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> SimTime {
        SimTime::ZERO + SimDuration::from_millis(x)
    }

    #[test]
    fn ticks_with_phase() {
        let c = TickClock::new(SimDuration::from_millis(500), SimDuration::from_millis(120));
        assert_eq!(c.ticks_through(ms(0)), 0);
        assert_eq!(c.ticks_through(ms(119)), 0);
        assert_eq!(c.ticks_through(ms(120)), 1, "a tick at t counts as done at t");
        assert_eq!(c.ticks_through(ms(619)), 1);
        assert_eq!(c.ticks_through(ms(620)), 2);
        assert_eq!(c.ticks_between(ms(120), ms(620)), 1, "(a, b] excludes a tick at a");
        assert_eq!(c.next_tick_after(ms(100)), ms(120));
        assert_eq!(c.next_tick_after(ms(120)), ms(620));
        // A counter of 12 armed 100 ms before a tick fires after 5.5 s, not 6 s.
        assert_eq!(c.nth_tick_after(ms(20), 12), ms(120 + 11 * 500));
        // Phase larger than the period is reduced.
        let d = TickClock::new(SimDuration::from_millis(200), SimDuration::from_millis(450));
        assert_eq!(d.next_tick_after(ms(0)), ms(50));
    }

    /// The memo answers as the division does, at and around ticks, before the first tick,
    /// and when asked out of order.
    #[test]
    fn memo_matches_the_division() {
        let c = TickClock::new(SimDuration::from_millis(500), SimDuration::from_millis(120));
        let mut memo = TickMemo::default();
        let times = [0, 1, 119, 120, 121, 619, 620, 5, 621, 1119, 1120, 620, 619, 100_000, 99_999, 120];
        for t in times {
            for dt_ps in [0, 1] {
                let t = ms(t) + SimDuration::from_picos(dt_ps);
                assert_eq!(c.ticks_through_memo(t, &mut memo), c.ticks_through(t), "at {t:?}");
                assert_eq!(c.nth_tick_after_memo(t, 3, &mut memo), c.nth_tick_after(t, 3), "at {t:?}");
                let a = ms(600);
                assert_eq!(c.ticks_between_memo(a, t, &mut memo), c.ticks_between(a, t), "at {t:?}");
                assert_eq!(c.ticks_between_memo(t, a, &mut memo), c.ticks_between(t, a), "at {t:?}");
            }
        }
    }

    #[test]
    fn earliest_deadline() {
        let mut t = Timers::default();
        assert_eq!(t.earliest(), None);
        t.rexmt = Some(ms(900));
        t.delack = Some(ms(200));
        assert_eq!(t.earliest(), Some(ms(200)));
        t.cancel_all();
        assert_eq!(t.earliest(), None);
        // Each deadline counts, alone and as the least; one at the end of time is one too.
        for k in 0..6 {
            let mut t = Timers { rexmt: Some(ms(50)), ..Timers::default() };
            fn field(t: &mut Timers, k: usize) -> &mut Option<SimTime> {
                match k {
                    0 => &mut t.rexmt,
                    1 => &mut t.persist,
                    2 => &mut t.delack,
                    3 => &mut t.msl2,
                    4 => &mut t.loss,
                    _ => &mut t.pace,
                }
            }
            *field(&mut t, k) = Some(ms(10));
            assert_eq!(t.earliest(), Some(ms(10)), "deadline {k}");
            let mut alone = Timers::default();
            *field(&mut alone, k) = Some(SimTime::MAX);
            assert_eq!(alone.earliest(), Some(SimTime::MAX), "deadline {k} alone");
        }
    }
}
