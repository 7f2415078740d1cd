//! Cell transfer delay and cell delay variation, measured as ITU-T Recommendation I.356 (1996),
//! "B-ISDN ATM layer cell transfer performance", defines them: the delay of a cell from its
//! VC's first link (the source's UNI) to its destination, and the 1-point CDV at the
//! destination against the VC's peak emission interval.
//!
//! Each VC keeps the exact count, sum, minimum and maximum of its cells' delays and a
//! log-linear histogram (constant memory per octave of delay) for the quantiles: a quantile is
//! exact to within one bucket, 1/64 of its value.

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

    /// Adds every count of `other` (per category: the sum of its VCs' histograms).
    pub fn merge(&mut self, other: &LogHistogram) {
        for (i, &n) in other.counts.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let (low, _) = bucket_span(other.base + i);
            self.record(low);
            let j = bucket(low) - self.base;
            self.counts[j] += n - 1;
        }
    }

    /// The `q`-quantile (0 < q ≤ 1): the midpoint of the bucket holding the ⌈q·n⌉-th least
    /// value, clamped to [`min`, `max`], the exact extremes. None when empty.
    pub fn quantile(&self, q: f64, min: u64, max: u64) -> Option<u64> {
        let total = self.total();
        if total == 0 {
            return None;
        }
        let rank = ((q * total as f64).ceil() as u64).clamp(1, total);
        let mut seen = 0;
        for (i, &n) in self.counts.iter().enumerate() {
            seen += n;
            if seen >= rank {
                let (low, width) = bucket_span(self.base + i);
                return Some((low + (width - 1) / 2).clamp(min, max));
            }
        }
        unreachable!("the ranks add up to the total")
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellDelays {
    pub cells: u64,
    pub sum_ps: u128,
    /// `u64::MAX` before the first cell (so that each cell takes the minimum without a test).
    pub min_ps: u64,
    pub max_ps: u64,
    pub histogram: LogHistogram,
    pub cdv: OnePointCdv,
}

impl Default for CellDelays {
    fn default() -> Self {
        CellDelays {
            cells: 0,
            sum_ps: 0,
            min_ps: u64::MAX,
            max_ps: 0,
            histogram: LogHistogram::default(),
            cdv: OnePointCdv::default(),
        }
    }
}

impl CellDelays {
    /// A user cell that entered the network at `entered` reaches its destination at `now`;
    /// its VC's peak emission interval is `period`.
    #[inline]
    pub fn on_delivery(&mut self, entered: SimTime, now: SimTime, period: SimDuration) {
        let delay = now.as_picos() - entered.as_picos();
        self.min_ps = self.min_ps.min(delay);
        self.max_ps = self.max_ps.max(delay);
        self.cells += 1;
        self.sum_ps += u128::from(delay);
        self.histogram.record(delay);
        self.cdv.on_cell(now, period);
    }

    /// Adds `other`'s delays (for a category's figures; the CDV is per VC and not merged).
    pub fn merge(&mut self, other: &CellDelays) {
        if other.cells == 0 {
            return;
        }
        self.min_ps = self.min_ps.min(other.min_ps);
        self.max_ps = self.max_ps.max(other.max_ps);
        self.cells += other.cells;
        self.sum_ps += other.sum_ps;
        self.histogram.merge(&other.histogram);
        self.cdv.max_clumping_ps = self.cdv.max_clumping_ps.max(other.cdv.max_clumping_ps);
    }

    /// The summary's figures, in seconds; None when no cell was delivered.
    pub fn summary(&self) -> Option<DelaySummary> {
        if self.cells == 0 {
            return None;
        }
        let s = |ps: u64| ps as f64 / 1e12;
        let q = |p: f64| s(self.histogram.quantile(p, self.min_ps, self.max_ps).expect("cells were delivered"));
        let p999 = q(0.999);
        Some(DelaySummary {
            cells: self.cells,
            mean_s: self.sum_ps as f64 / 1e12 / self.cells as f64,
            min_s: s(self.min_ps),
            p50_s: q(0.5),
            p99_s: q(0.99),
            p999_s: p999,
            max_s: s(self.max_ps),
            cdv_2pt_999_s: p999 - s(self.min_ps),
            cdv_1pt_max_s: s(self.cdv.max_clumping_ps),
        })
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

    #[test]
    fn quantiles_are_within_one_sixty_fourth() {
        let mut h = LogHistogram::default();
        // 1..=100 000 ns in ps: the q-quantile is q·10^5 ns.
        for v in 1..=100_000u64 {
            h.record(v * 1000);
        }
        for q in [0.5, 0.99, 0.999] {
            let got = h.quantile(q, 1000, 100_000_000).unwrap() as f64;
            let want = q * 1e8;
            assert!((got - want).abs() / want < 1.0 / 64.0, "q = {q}: {got} vs {want}");
        }
        assert_eq!(h.total(), 100_000);
    }

    #[test]
    fn recording_below_the_first_value_keeps_every_count() {
        let mut h = LogHistogram::default();
        for v in [1_000_000u64, 5, 70, 1_000_000, 3] {
            h.record(v);
        }
        assert_eq!(h.quantile(0.2, 3, 1_000_000), Some(3));
        assert_eq!(h.quantile(0.4, 3, 1_000_000), Some(5));
        assert_eq!(h.quantile(1.0, 3, 1_000_000), Some(1_000_000));
        let mut merged = LogHistogram::default();
        merged.merge(&h);
        merged.merge(&h);
        assert_eq!(merged.total(), 10);
        assert_eq!(merged.quantile(0.6, 3, 1_000_000), h.quantile(0.6, 3, 1_000_000));
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
