//! Cell transfer delay and cell delay variation, measured as ITU-T Recommendation I.356 (1996),
//! "B-ISDN ATM layer cell transfer performance", defines them: the delay of a cell from its
//! VC's first link (the source's UNI) to its destination, and the 1-point CDV at the
//! destination against the VC's peak emission interval.
//!
//! Each VC keeps the exact count, sum, minimum and maximum of its cells' delays and, for the
//! quantiles, a log-linear histogram (constant memory per octave) of each delay *above the VC's
//! floor*: the least delay any of its cells can have, its route's propagation delays and one
//! cell time on each link's wire. A delay is the floor plus the part that varies (queueing,
//! spacing), and only that part is bucketed, 64 buckets an octave: a quantile's error is
//! bounded by 1/64 of the varying part, whatever the propagation delay, and each summary states
//! the bound it achieved (`resolution_s`). A histogram of the whole delay would round the
//! quantiles, and the 2-point CDV made of them, to 1/64 of the propagation delay.

use celltrain_core::time::{SimDuration, SimTime};
use serde::{Deserialize, Serialize};

/// Sub-buckets per octave: 2^6, so a quantile is within 1/64 (1.6 %) of the true value.
const SUB_BITS: u32 = 6;
const SUB: u64 = 1 << SUB_BITS;

/// A histogram of picosecond values whose buckets are exact below 64 ps and 1/64 of an octave
/// wide above. Only the buckets between the least and the largest value seen are stored, so a
/// VC whose delays span a few octaves holds a few hundred counters whatever the run's length.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogHistogram {
    /// Bucket index of `counts[0]`.
    base: usize,
    counts: Vec<u64>,
}

/// The bucket of `v`: `v` itself below 64; above, 64 buckets per octave.
#[inline]
fn bucket(v: u64) -> usize {
    if v < SUB {
        return v as usize;
    }
    let octave = 63 - v.leading_zeros(); // ≥ SUB_BITS
    let shift = octave - SUB_BITS;
    let mantissa = (v >> shift) - SUB; // in [0, SUB)
    (SUB + u64::from(shift) * SUB + mantissa) as usize
}

/// The least value of bucket `b` and the number of values it holds.
fn bucket_span(b: usize) -> (u64, u64) {
    let b = b as u64;
    if b < SUB {
        return (b, 1);
    }
    let shift = (b - SUB) / SUB;
    let mantissa = (b - SUB) % SUB;
    ((SUB + mantissa) << shift, 1 << shift)
}

impl LogHistogram {
    #[inline]
    pub fn record(&mut self, v: u64) {
        let i = bucket(v).wrapping_sub(self.base);
        match self.counts.get_mut(i) {
            Some(n) => *n += 1,
            None => self.record_outside(bucket(v)),
        }
    }

    /// A value outside the stored buckets: the store grows to reach it.
    #[cold]
    fn record_outside(&mut self, b: usize) {
        if self.counts.is_empty() {
            self.base = b;
        } else if b < self.base {
            self.counts.splice(0..0, std::iter::repeat_n(0, self.base - b));
            self.base = b;
        }
        let i = b - self.base;
        if i >= self.counts.len() {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] += 1;
    }

    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The stored buckets that hold values: (least value, number of values it spans, count),
    /// in increasing order.
    fn buckets(&self) -> impl Iterator<Item = (u64, u64, u64)> + '_ {
        let base = self.base;
        self.counts.iter().enumerate().filter(|&(_, &n)| n > 0).map(move |(i, &n)| {
            let (low, width) = bucket_span(base + i);
            (low, width, n)
        })
    }
}

/// I.356's 1-point CDV at the destination: the reference clock c advances by the peak
/// emission interval T from each cell's reference time, and restarts from a cell that arrives
/// late (c_{k+1} = max(c_k, a_k) + T); y_k = c_k − a_k > 0 is the cell's clumping.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OnePointCdv {
    /// The next cell's reference time, in picoseconds.
    next_ref_ps: u64,
    max_clumping_ps: u64,
}

impl OnePointCdv {
    /// `next_ref_ps` is 0 before the first cell, which then finds itself on time (a
    /// reference of 0 is never later than an arrival).
    #[inline]
    fn on_cell(&mut self, arrival: SimTime, period: SimDuration) {
        let (reference, arrival) = (self.next_ref_ps, arrival.as_picos());
        self.max_clumping_ps = self.max_clumping_ps.max(reference.saturating_sub(arrival));
        self.next_ref_ps = reference.max(arrival) + period.as_picos();
    }
}

/// The delays of one VC's user cells (not RM cells) delivered in the measurement window.
///
/// Laid out in the order written (`repr(C)`), the 128-bit sum first so that no padding splits
/// what each delivered cell changes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct CellDelays {
    pub sum_ps: u128,
    pub cells: u64,
    /// `u64::MAX` before the first cell (so that each cell takes the minimum without a test).
    pub min_ps: u64,
    pub max_ps: u64,
    /// The least delay a cell of the VC can have (see the module's text); the histogram holds
    /// each delay less this.
    floor_ps: u64,
    histogram: LogHistogram,
    pub cdv: OnePointCdv,
}

impl Default for CellDelays {
    fn default() -> Self {
        CellDelays::above(SimDuration::ZERO)
    }
}

impl CellDelays {
    /// No delays yet, of a VC whose cells take at least `floor` to arrive.
    pub fn above(floor: SimDuration) -> CellDelays {
        CellDelays {
            cells: 0,
            sum_ps: 0,
            min_ps: u64::MAX,
            max_ps: 0,
            floor_ps: floor.as_picos(),
            histogram: LogHistogram::default(),
            cdv: OnePointCdv::default(),
        }
    }

    /// The floor the histogram counts from.
    pub fn floor(&self) -> SimDuration {
        SimDuration::from_picos(self.floor_ps)
    }

    /// A user cell that entered the network at `entered` reaches its destination at `now`;
    /// its VC's peak emission interval is `period`.
    #[inline]
    pub fn on_delivery(&mut self, entered: SimTime, now: SimTime, period: SimDuration) {
        let delay = now.as_picos() - entered.as_picos();
        self.min_ps = self.min_ps.min(delay);
        self.max_ps = self.max_ps.max(delay);
        self.cells += 1;
        self.sum_ps += u128::from(delay);
        // The floor is a physical lower bound; were it ever wrong, the cell counts at the floor
        // and the exact minimum still bounds the quantiles.
        debug_assert!(delay >= self.floor_ps, "a cell's delay {delay} ps under its VC's floor {} ps", self.floor_ps);
        self.histogram.record(delay.saturating_sub(self.floor_ps));
        self.cdv.on_cell(now, period);
    }

    /// The summary's figures, in seconds; None when no cell was delivered.
    pub fn summary(&self) -> Option<DelaySummary> {
        DelaySummary::of(std::iter::once(self))
    }
}

/// Cell transfer delay over the measurement window (seconds), and the cell delay variation.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct DelaySummary {
    /// User cells delivered in the window (the delays' count).
    pub cells: u64,
    pub mean_s: f64,
    pub min_s: f64,
    pub p50_s: f64,
    pub p99_s: f64,
    pub p999_s: f64,
    pub max_s: f64,
    /// 2-point (peak-to-peak) CDV: the 0.999 quantile of delay less the least delay.
    pub cdv_2pt_999_s: f64,
    /// 1-point CDV: the largest clumping of a cell against the VC's peak emission interval
    /// (per VC; for a category, the largest of its VCs').
    pub cdv_1pt_max_s: f64,
    /// The quantiles' (and so the 2-point CDV's) bound: each lies within this many seconds of
    /// the exact order statistic of the delays (min, mean and max are exact).
    #[serde(default)]
    pub resolution_s: f64,
}

impl DelaySummary {
    /// The figures of the delays of `parts` together (one VC's, or a category's VCs'); None
    /// when no cell was delivered.
    pub fn of<'a>(parts: impl IntoIterator<Item = &'a CellDelays>) -> Option<DelaySummary> {
        let parts: Vec<&CellDelays> = parts.into_iter().filter(|d| d.cells > 0).collect();
        let cells: u64 = parts.iter().map(|d| d.cells).sum();
        if cells == 0 {
            return None;
        }
        let min_ps = parts.iter().map(|d| d.min_ps).min().expect("a part");
        let max_ps = parts.iter().map(|d| d.max_ps).max().expect("a part");
        let sum_ps: u128 = parts.iter().map(|d| d.sum_ps).sum();
        let ranks = QuantileBounds::new(&parts, min_ps, max_ps);
        let s = |ps: f64| ps / 1e12;
        let [p50, p99, p999] = [0.5, 0.99, 0.999].map(|q| ranks.at(q));
        let resolution_ps = [p50, p99, p999].iter().map(|b| b.half_width()).fold(0.0, f64::max);
        Some(DelaySummary {
            cells,
            mean_s: sum_ps as f64 / 1e12 / cells as f64,
            min_s: s(min_ps as f64),
            p50_s: s(p50.mid()),
            p99_s: s(p99.mid()),
            p999_s: s(p999.mid()),
            max_s: s(max_ps as f64),
            cdv_2pt_999_s: s(p999.mid() - min_ps as f64),
            cdv_1pt_max_s: s(parts.iter().map(|d| d.cdv.max_clumping_ps).max().expect("a part") as f64),
            resolution_s: s(resolution_ps),
        })
    }
}

/// Where the delays' order statistics lie, from their buckets: each delay is at least its
/// bucket's least value and at most its greatest, so the r-th least delay is at least the r-th
/// least of the buckets' least values and at most the r-th least of their greatest values
/// (counted with multiplicity), and within the exact extremes.
struct QuantileBounds {
    /// (value, count), increasing: the buckets' least values, and their greatest.
    lows: Vec<(u64, u64)>,
    highs: Vec<(u64, u64)>,
    total: u64,
    min_ps: u64,
    max_ps: u64,
}

/// The interval, in picoseconds, that holds an order statistic.
#[derive(Clone, Copy)]
struct Bound {
    low: u64,
    high: u64,
}

impl Bound {
    fn mid(self) -> f64 {
        (self.low as f64 + self.high as f64) / 2.0
    }
    fn half_width(self) -> f64 {
        (self.high - self.low) as f64 / 2.0
    }
}

impl QuantileBounds {
    fn new(parts: &[&CellDelays], min_ps: u64, max_ps: u64) -> QuantileBounds {
        let (mut lows, mut highs) = (Vec::new(), Vec::new());
        for d in parts {
            for (low, width, n) in d.histogram.buckets() {
                lows.push((d.floor_ps.saturating_add(low), n));
                highs.push((d.floor_ps.saturating_add(low).saturating_add(width - 1), n));
            }
        }
        // One VC's buckets are in order already; a category's interleave.
        if parts.len() > 1 {
            lows.sort_unstable();
            highs.sort_unstable();
        }
        let total = lows.iter().map(|&(_, n)| n).sum();
        QuantileBounds { lows, highs, total, min_ps, max_ps }
    }

    /// The bounds of the `q`-quantile (0 < q ≤ 1): the ⌈q·n⌉-th least delay.
    fn at(&self, q: f64) -> Bound {
        let rank = ((q * self.total as f64).ceil() as u64).clamp(1, self.total);
        let nth = |values: &[(u64, u64)]| {
            let mut seen = 0;
            for &(v, n) in values {
                seen += n;
                if seen >= rank {
                    return v;
                }
            }
            unreachable!("the ranks add up to the total")
        };
        let clamp = |v: u64| v.clamp(self.min_ps, self.max_ps);
        Bound { low: clamp(nth(&self.lows)), high: clamp(nth(&self.highs)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_contiguous_and_cover_every_value() {
        let mut expected_low = 0u64;
        for b in 0..(SUB as usize * 40) {
            let (low, width) = bucket_span(b);
            assert_eq!(low, expected_low, "bucket {b} starts where the previous ended");
            assert_eq!(bucket(low), b);
            assert_eq!(bucket(low + width - 1), b);
            expected_low = low + width;
        }
        let (low, width) = bucket_span(bucket(u64::MAX));
        assert_eq!(low + (width - 1), u64::MAX, "the last bucket ends at the largest value");
    }

    /// Exact order statistics of `delays_ps`, as the summary defines them (the ⌈q·n⌉-th least).
    fn exact_quantile(delays_ps: &mut [u64], q: f64) -> f64 {
        delays_ps.sort_unstable();
        let rank = ((q * delays_ps.len() as f64).ceil() as usize).clamp(1, delays_ps.len());
        delays_ps[rank - 1] as f64 / 1e12
    }

    fn delays_of(floor_ps: u64, excess_ps: &[u64]) -> CellDelays {
        let mut d = CellDelays::above(SimDuration::from_picos(floor_ps));
        for (k, &x) in excess_ps.iter().enumerate() {
            let entered = SimTime::from_picos(k as u64 * 1_000_000);
            d.on_delivery(entered, entered + SimDuration::from_picos(floor_ps + x), SimDuration::from_picos(1));
        }
        d
    }

    /// Pseudo-random queueing delays, 0 to 2 ms, most of them small.
    fn queueing_ps(n: usize) -> Vec<u64> {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        (0..n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let r = state % 2_000_000_000;
                r * r / 2_000_000_000
            })
            .collect()
    }

    /// The same queueing behind 10 us and behind 50 ms of propagation: the quantiles move by
    /// the propagation exactly, and the 2-point CDV does not move at all (a histogram of the
    /// whole delay rounded it to 1/64 of 50 ms).
    #[test]
    fn delay_variation_does_not_depend_on_the_fixed_delay() {
        let excess = queueing_ps(50_000);
        let near = delays_of(10_000_000, &excess).summary().unwrap();
        let far = delays_of(50_000_000_000, &excess).summary().unwrap();
        assert_eq!(near.cdv_2pt_999_s, far.cdv_2pt_999_s);
        assert_eq!(near.resolution_s, far.resolution_s);
        for (a, b) in [(near.p50_s, far.p50_s), (near.p99_s, far.p99_s), (near.p999_s, far.p999_s)] {
            assert!((b - a - (50e-3 - 10e-6)).abs() < 1e-12, "{a} and {b}");
        }
    }

    /// Each quantile lies within the stated resolution of the exact order statistic, the
    /// resolution is at most 1/64 of the largest queueing delay, and the figures are ordered.
    #[test]
    fn quantiles_are_within_the_stated_resolution() {
        let floor_ps = 10_000_000_000; // 10 ms
        let excess = queueing_ps(20_000);
        let s = delays_of(floor_ps, &excess).summary().unwrap();
        let mut all: Vec<u64> = excess.iter().map(|x| x + floor_ps).collect();
        for (q, got) in [(0.5, s.p50_s), (0.99, s.p99_s), (0.999, s.p999_s)] {
            let want = exact_quantile(&mut all, q);
            assert!((got - want).abs() <= s.resolution_s + 1e-15, "q = {q}: {got} vs {want} ± {}", s.resolution_s);
        }
        let largest = *excess.iter().max().unwrap() as f64 / 1e12;
        assert!(s.resolution_s > 0.0 && s.resolution_s <= largest / 64.0, "{} against {largest}", s.resolution_s);
        assert!(s.min_s <= s.p50_s && s.p50_s <= s.p99_s && s.p99_s <= s.p999_s && s.p999_s <= s.max_s);
        assert!(s.mean_s <= s.max_s && s.mean_s >= s.min_s);
    }

    /// Without queueing, every cell at the floor: the figures are exact.
    #[test]
    fn delays_at_the_floor_are_exact() {
        let s = delays_of(3_000_000, &[0; 100]).summary().unwrap();
        assert_eq!((s.p50_s, s.p999_s, s.cdv_2pt_999_s, s.resolution_s), (3e-6, 3e-6, 0.0, 0.0));
    }

    /// A category's VCs have floors of their own: its quantiles still bound the exact ones.
    #[test]
    fn a_category_bounds_its_vcs_delays_together() {
        let (a, b) = (queueing_ps(3_000), queueing_ps(5_000));
        let (near, far) = (delays_of(1_000_000, &a), delays_of(7_000_000_000, &b[..]));
        let s = DelaySummary::of([&near, &far, &CellDelays::default()]).unwrap();
        let mut all: Vec<u64> = a.iter().map(|x| x + 1_000_000).chain(b.iter().map(|x| x + 7_000_000_000)).collect();
        assert_eq!(s.cells, 8_000);
        for (q, got) in [(0.5, s.p50_s), (0.99, s.p99_s), (0.999, s.p999_s)] {
            let want = exact_quantile(&mut all, q);
            assert!((got - want).abs() <= s.resolution_s + 1e-15, "q = {q}: {got} vs {want} ± {}", s.resolution_s);
        }
        assert_eq!(DelaySummary::of([&CellDelays::default()]), None);
    }

    #[test]
    fn recording_below_the_first_value_keeps_every_count() {
        let mut h = LogHistogram::default();
        for v in [1_000_000u64, 5, 70, 1_000_000, 3] {
            h.record(v);
        }
        assert_eq!(h.total(), 5);
        let lows: Vec<u64> = h.buckets().map(|(low, _, n)| low * 10 + n).collect();
        assert_eq!(lows[..3], [31, 51, 701]);
        assert_eq!(
            h.buckets().last().map(|(low, width, n)| (low <= 1_000_000 && 1_000_000 < low + width, n)),
            Some((true, 2))
        );
    }

    /// Cells at the peak interval T = 10 have no clumping; a cell delayed by 25 restarts the
    /// reference clock, and the two cells behind it, arriving back to back 1 apart, clump by
    /// 9 and 18.
    #[test]
    fn one_point_cdv_follows_i356_reference_clock() {
        let t = SimDuration::from_picos(10);
        let mut cdv = OnePointCdv::default();
        for a in [0u64, 10, 20, 55, 56, 57] {
            cdv.on_cell(SimTime::from_picos(a), t);
        }
        assert_eq!(cdv.max_clumping_ps, 18);
        let mut even = OnePointCdv::default();
        for k in 0..100u64 {
            even.on_cell(SimTime::from_picos(k * 10 + 3), t);
        }
        assert_eq!(even.max_clumping_ps, 0);
    }

    #[test]
    fn delays_summarise_exactly() {
        let mut d = CellDelays::default();
        let t = SimDuration::from_picos(1);
        for (entered, now) in [(0u64, 100u64), (10, 210), (20, 320)] {
            d.on_delivery(SimTime::from_picos(entered), SimTime::from_picos(now), t);
        }
        let s = d.summary().unwrap();
        assert_eq!((s.cells, s.min_s, s.max_s), (3, 100e-12, 300e-12));
        assert!((s.mean_s - 200e-12).abs() < 1e-24);
        assert_eq!(CellDelays::default().summary(), None);
    }
}
