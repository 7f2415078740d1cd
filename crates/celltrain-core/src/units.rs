//! Units that the type can carry: bit rates and byte counts, with named rounding.

use crate::time::{SimDuration, PS_PER_SEC};
use std::fmt;

/// Octets in one ATM cell (5 header + 48 payload).
pub const CELL_BYTES: u64 = 53;
/// Payload octets in one ATM cell.
pub const CELL_PAYLOAD_BYTES: u64 = 48;
/// Bits in one ATM cell on the wire.
pub const CELL_BITS: u64 = CELL_BYTES * 8;

/// A byte count (octets).
pub type Bytes = u64;

/// A line or cell rate in bits per second (integer: configuration rounds to the nearest bit/s).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct BitRate(u64);

impl BitRate {
    pub const fn from_bps(bps: u64) -> Self {
        BitRate(bps)
    }
    pub const fn as_bps(self) -> u64 {
        self.0
    }
    pub fn as_mbps(self) -> f64 {
        self.0 as f64 / 1e6
    }
    /// Time to serialise `bits`, rounded **up** to the next picosecond, so that a transmitter
    /// never runs faster than its rate.
    pub fn tx_time_ceil(self, bits: u64) -> SimDuration {
        debug_assert!(self.0 > 0, "zero rate");
        let ps = (u128::from(bits) * u128::from(PS_PER_SEC)).div_ceil(u128::from(self.0));
        SimDuration::from_picos(u64::try_from(ps).unwrap_or(u64::MAX))
    }
    /// Offset of the start of the `n`-th back-to-back cell (n = 0, 1, …) from the start of a busy
    /// period. Computed from `n` each time, never by adding rounded per-cell times, so a link
    /// does not drift: after one second it has sent exactly ⌊R/424⌋ cells.
    pub fn cell_offset_ceil(self, n: u64) -> SimDuration {
        self.tx_time_ceil(n.saturating_mul(CELL_BITS))
    }
    /// How many back-to-back cells after the first (n = 1, 2, …) start less than `span` after
    /// the first: the largest n with ⌈n·424·10¹²/R⌉ < span, i.e. n·424·10¹²/R ≤ span − 1 ps,
    /// the whole cell slots in `span` − 1 ps.
    pub fn cells_starting_within(self, span: SimDuration) -> u64 {
        span.as_picos().checked_sub(1).map_or(0, |last| self.cell_slots_floor(SimDuration::from_picos(last)))
    }
    /// Duration of one cell at this rate, rounded up (for display and bounds only).
    pub fn cell_time_ceil(self) -> SimDuration {
        self.tx_time_ceil(CELL_BITS)
    }
    /// Cells per second as a float (reporting only).
    pub fn cells_per_sec(self) -> f64 {
        self.0 as f64 / CELL_BITS as f64
    }
    /// Whole cell slots in `d`, rounded down.
    pub fn cell_slots_floor(self, d: SimDuration) -> u64 {
        let v = u128::from(d.as_picos()) * u128::from(self.0) / (u128::from(CELL_BITS) * u128::from(PS_PER_SEC));
        u64::try_from(v).unwrap_or(u64::MAX)
    }
}

/// Start offsets of back-to-back cells at a rate, advanced one cell at a time with exact
/// integer arithmetic: offset(n) = ceil(n · 424 · 10¹² / R) ps, as
/// [`BitRate::cell_offset_ceil`] computes it, but with a quotient and a remainder carried
/// from cell to cell (two additions instead of a 128-bit division per cell), so it never
/// drifts however long the busy period.
#[derive(Clone, Copy, Debug)]
pub struct SlotCounter {
    rate_bps: u64,
    /// ⌊424·10¹² / R⌋ and its remainder: the exact cell time is step_q + step_r / R.
    step_q: u64,
    step_r: u64,
    /// n · 424·10¹² = q · R + r for the current n.
    q: u64,
    r: u64,
}

impl SlotCounter {
    pub fn new(rate: BitRate) -> Self {
        debug_assert!(rate.0 > 0, "zero rate");
        let cell_ps = u128::from(CELL_BITS) * u128::from(PS_PER_SEC);
        let rate_bps = rate.0.max(1);
        let step_q = u64::try_from(cell_ps / u128::from(rate_bps)).unwrap_or(u64::MAX);
        let step_r = u64::try_from(cell_ps % u128::from(rate_bps)).expect("remainder below the rate");
        SlotCounter { rate_bps, step_q, step_r, q: 0, r: 0 }
    }
    /// Back to n = 0.
    pub fn reset(&mut self) {
        self.q = 0;
        self.r = 0;
    }
    /// Advances to n + `k` and returns offset(n + `k`): as `k` calls of
    /// [`advance`](Self::advance), in one step.
    pub fn advance_by(&mut self, k: u64) -> SimDuration {
        let r = u128::from(self.r) + u128::from(k) * u128::from(self.step_r);
        let rate = u128::from(self.rate_bps);
        let carry = u64::try_from(r / rate).expect("a carry per cell at most");
        self.r = u64::try_from(r % rate).expect("below the rate");
        let whole = u64::try_from(u128::from(k) * u128::from(self.step_q)).expect("a busy period within 2^64 ps");
        self.q += whole + carry;
        SimDuration::from_picos(self.q + u64::from(self.r > 0))
    }

    /// The count n it stands at (n · 424·10¹² = q · R + r).
    fn count(&self) -> u128 {
        (u128::from(self.q) * u128::from(self.rate_bps) + u128::from(self.r)) / cell_ps()
    }

    /// How many of the next slots start no later than `limit` after the origin: the k with
    /// offset(n + k) ≤ `limit` (offset(m) ≤ L exactly when m · 424·10¹² ≤ L · R).
    pub fn slots_within(&self, limit: SimDuration) -> u128 {
        (u128::from(limit.as_picos()) * u128::from(self.rate_bps) / cell_ps()).saturating_sub(self.count())
    }

    /// offset(n + 1) + … + offset(n + `k`): the sum of what `k` calls of
    /// [`advance`](Self::advance) would return, without moving (a sum of ceilings, by
    /// [`floor_sum`]).
    pub fn sum_next(&self, k: u128) -> u128 {
        let (c, rate) = (cell_ps(), u128::from(self.rate_bps));
        // offset(m) = ⌈m·C/R⌉ = ⌊(m·C + R − 1)/R⌋, for m = n + 1 + i, i < k.
        floor_sum(k, rate, c, (self.count() + 1) * c + rate - 1)
    }

    /// Advances to n + 1 and returns offset(n + 1), rounded up to the picosecond.
    #[inline]
    pub fn advance(&mut self) -> SimDuration {
        self.r += self.step_r;
        // The carry follows the rate's digits, which a branch predictor cannot: no branch.
        let carry = u64::from(self.r >= self.rate_bps);
        self.r -= carry * self.rate_bps;
        self.q += self.step_q + carry;
        SimDuration::from_picos(self.q + u64::from(self.r > 0))
    }
}

/// 424 · 10¹²: a cell's bits times picoseconds a second (a slot's length is this over the rate).
fn cell_ps() -> u128 {
    u128::from(CELL_BITS) * u128::from(PS_PER_SEC)
}

/// Σ_{i=0}^{n−1} ⌊(a·i + b) / m⌋, in O(log) steps (the Euclid-like reduction: take whole
/// multiples of `m` out of `a` and `b`, then count the lattice points under the line by
/// swapping its axes). `m` > 0; every partial sum must fit in a u128.
pub fn floor_sum(n: u128, m: u128, a: u128, b: u128) -> u128 {
    debug_assert!(m > 0);
    let (mut n, mut m, mut a, mut b) = (n, m, a, b);
    let mut sum = 0u128;
    loop {
        if n == 0 {
            return sum;
        }
        if a >= m {
            sum += n * (n - 1) / 2 * (a / m);
            a %= m;
        }
        if b >= m {
            sum += n * (b / m);
            b %= m;
        }
        let y_max = a * n + b;
        if y_max < m {
            return sum;
        }
        // The points under y = (a·x + b)/m counted by rows: ⌊y_max / m⌋ rows, each a line of
        // the same kind with the roles of a and m exchanged.
        n = y_max / m;
        b = y_max % m;
        std::mem::swap(&mut m, &mut a);
    }
}

impl fmt::Debug for BitRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} Mbit/s", self.as_mbps())
    }
}
impl fmt::Display for BitRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimTime;

    #[test]
    fn floor_sum_is_the_sum_of_floors() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut draw = |below: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % below
        };
        for _ in 0..2000 {
            let (n, m, a, b) = (draw(60), 1 + draw(1000), draw(5000), draw(100_000));
            let brute: u128 = (0..n).map(|i| u128::from((a * i + b) / m)).sum();
            assert_eq!(floor_sum(n.into(), m.into(), a.into(), b.into()), brute, "n {n} m {m} a {a} b {b}");
        }
    }

    /// The slots' sums and counts against the slots themselves, at rates whose cell time is
    /// and is not a whole number of picoseconds, from a counter already under way.
    #[test]
    fn slot_sums_and_counts_follow_the_slots() {
        for rate in [155_520_000u64, 149_760_000, 106_000_000, 1_000_000, 31_104_001, 622_080_000] {
            let mut counter = SlotCounter::new(BitRate::from_bps(rate));
            for _ in 0..(rate % 97) {
                counter.advance();
            }
            let ahead = counter;
            let offsets: Vec<u64> = (0..500).map(|_| counter.advance().as_picos()).collect();
            for k in [0usize, 1, 2, 3, 17, 191, 500] {
                let sum: u128 = offsets[..k].iter().map(|&o| u128::from(o)).sum();
                assert_eq!(ahead.sum_next(k as u128), sum, "rate {rate}, {k} slots");
            }
            for &o in offsets.iter().step_by(37) {
                for limit in [o - 1, o, o + 1] {
                    let within = offsets.iter().take_while(|&&x| x <= limit).count() as u128;
                    assert_eq!(
                        ahead.slots_within(SimDuration::from_picos(limit)),
                        within,
                        "rate {rate}, limit {limit}"
                    );
                }
            }
        }
    }

    #[test]
    fn advancing_by_k_is_k_advances() {
        for rate in [BitRate::from_bps(155_520_000), BitRate::from_bps(31_104_000), BitRate::from_bps(7)] {
            let (mut one, mut many) = (SlotCounter::new(rate), SlotCounter::new(rate));
            for k in [0u64, 1, 2, 3, 17, 1000, 12_345] {
                let mut last = SimDuration::ZERO;
                for _ in 0..k {
                    last = one.advance();
                }
                let jumped = many.advance_by(k);
                if k > 0 {
                    assert_eq!(jumped, last, "rate {rate:?}, k {k}");
                }
                assert_eq!(one.advance(), many.advance(), "rate {rate:?}, after {k}");
            }
        }
    }

    /// Count back-to-back cells whose transmission completes within one second.
    fn cells_in_one_second(rate: BitRate) -> u64 {
        let end = SimTime::ZERO + SimDuration::from_secs(1);
        let mut n = 0;
        while SimTime::ZERO + rate.cell_offset_ceil(n + 1) <= end {
            n += 1;
        }
        n
    }

    #[test]
    fn link_never_drifts() {
        for bps in [149_760_000u64, 155_520_000, 141_330_000, 37_440_000, 31_100_000, 10_000_000, 1_000_003] {
            let r = BitRate::from_bps(bps);
            assert_eq!(cells_in_one_second(r), bps / CELL_BITS, "rate {bps}");
            assert_eq!(r.cell_slots_floor(SimDuration::from_secs(1)), bps / CELL_BITS);
        }
    }

    #[test]
    fn cells_starting_within_a_span_are_counted_by_one_division() {
        for bps in [149_760_000u64, 31_100_000, 10_000_000, 1_000_003, 7] {
            let r = BitRate::from_bps(bps);
            // Spans around each of the first cell offsets: one below, at and above.
            for n in 1..=300u64 {
                let at = r.cell_offset_ceil(n).as_picos();
                for span in [at - 1, at, at + 1] {
                    let by_steps = (1..=n + 1).filter(|&k| r.cell_offset_ceil(k).as_picos() < span).count() as u64;
                    let got = r.cells_starting_within(SimDuration::from_picos(span));
                    assert_eq!(got, by_steps, "rate {bps}, span {span} ps");
                }
            }
            assert_eq!(r.cells_starting_within(SimDuration::ZERO), 0);
        }
        // A rate whose cell time is a whole number of picoseconds (1 µs): offsets fall exactly on
        // span boundaries, and a span of n µs holds n − 1 cells after the first.
        let exact = BitRate::from_bps(424_000_000);
        for n in 1..=1000u64 {
            assert_eq!(exact.cells_starting_within(SimDuration::from_micros(n)), n - 1);
            assert_eq!(exact.cells_starting_within(SimDuration::from_picos(n * 1_000_000 + 1)), n);
        }
        // The longest span: the count is the boundary of the exact offsets there too.
        for bps in [31_100_000u64, 149_760_000, 424_000_000] {
            let r = BitRate::from_bps(bps);
            let span = SimDuration::from_picos(u64::MAX);
            let n = r.cells_starting_within(span);
            assert!(r.cell_offset_ceil(n) < span && r.cell_offset_ceil(n + 1) >= span, "rate {bps}: {n}");
        }
    }

    #[test]
    fn slot_counter_matches_the_exact_formula() {
        for bps in [149_760_000u64, 155_520_000, 31_100_000, 10_000_000, 1_000_003, 7] {
            let r = BitRate::from_bps(bps);
            let mut c = SlotCounter::new(r);
            for n in 1..=20_000u64 {
                assert_eq!(c.advance(), r.cell_offset_ceil(n), "rate {bps}, n {n}");
            }
            c.reset();
            assert_eq!(c.advance(), r.cell_offset_ceil(1));
        }
    }

    #[test]
    fn oc3_cell_time() {
        // 424 bit / 149.76 Mbit/s = 2.8311 us (docs/references.md#cell-and-link-rates)
        let t = BitRate::from_bps(149_760_000).cell_time_ceil();
        assert_eq!(t.as_picos(), 2_831_197);
    }
}
