//! Random Early Detection (S. Floyd, V. Jacobson, "Random Early Detection Gateways for
//! Congestion Avoidance", IEEE/ACM Transactions on Networking 1(4), 1993): an exponentially
//! weighted average of the queue, decayed over idle time, and a drop probability that rises
//! linearly from 0 at min_th to max_p at max_th, spread by the count of arrivals since the last
//! drop (pa = pb / (1 − count·pb)); at or above max_th every arrival is dropped.

use celltrain_core::rng::RngStream;
use celltrain_core::time::{SimDuration, SimTime};

/// RED's parameters (thresholds in cells).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RedParams {
    pub min_th: f64,
    pub max_th: f64,
    pub max_p: f64,
    /// Weight of a new sample in the average, w_q.
    pub weight: f64,
    /// The "small packet" time s of the idle decay: an empty queue for m·s decays the average
    /// by (1 − w_q)^m.
    pub idle_unit: SimDuration,
}

/// RED's state: the average, the count since the last drop, when the queue last emptied.
#[derive(Clone, Debug)]
pub struct Red {
    params: RedParams,
    average: f64,
    /// Arrivals since the last drop while the average was between the thresholds; −1 outside.
    count: i64,
    /// When the queue last became empty.
    idle_since: SimTime,
    rng: RngStream,
}

impl Red {
    pub fn new(params: RedParams, rng: RngStream) -> Self {
        Red { params, average: 0.0, count: -1, idle_since: SimTime::ZERO, rng }
    }

    pub fn average(&self) -> f64 {
        self.average
    }

    /// The idle unit s.
    pub fn idle_unit(&self) -> SimDuration {
        self.params.idle_unit
    }

    /// A sample of the queue, `queue_cells`, at `now`.
    pub fn update(&mut self, queue_cells: u32, now: SimTime) {
        let w = self.params.weight;
        if queue_cells > 0 {
            self.average = (1.0 - w) * self.average + w * f64::from(queue_cells);
        } else {
            let unit = self.params.idle_unit.as_picos().max(1);
            let m = now.saturating_since(self.idle_since).as_picos() as f64 / unit as f64;
            self.average *= (1.0 - w).powf(m);
        }
    }

    /// The queue became empty at `now` (a time not before the previous one).
    pub fn on_empty(&mut self, now: SimTime) {
        self.idle_since = now;
    }

    /// The probability of dropping the next arrival, and RED's count after it (before the
    /// draw): pb = max_p·(avg − min_th)/(max_th − min_th), pa = pb/(1 − count·pb), 1 once
    /// count·pb ≥ 1; 1 at or above max_th; 0 below min_th.
    pub fn drop_probability(&self) -> (f64, i64) {
        let p = &self.params;
        if self.average < p.min_th {
            return (0.0, -1);
        }
        if self.average >= p.max_th {
            return (1.0, self.count);
        }
        let count = self.count + 1;
        let pb = p.max_p * (self.average - p.min_th) / (p.max_th - p.min_th);
        let spread = count as f64 * pb;
        let pa = if spread >= 1.0 { 1.0 } else { pb / (1.0 - spread) };
        (pa, count)
    }

    /// Decides for one arrival on the current average: true to drop.
    pub fn decide(&mut self) -> bool {
        let (pa, count) = self.drop_probability();
        let drop = pa >= 1.0 || (pa > 0.0 && self.rng.uniform() < pa);
        self.count = if drop { 0 } else { count };
        drop
    }

    /// Sets the average (tests: RED on a fixed average).
    #[cfg(test)]
    pub fn set_average(&mut self, average: f64) {
        self.average = average;
    }

    /// Sets the count (tests).
    #[cfg(test)]
    pub fn set_count(&mut self, count: i64) {
        self.count = count;
    }
}
