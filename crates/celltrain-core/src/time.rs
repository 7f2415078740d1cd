//! Integer simulated time in picoseconds.

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// Picoseconds per second.
pub const PS_PER_SEC: u64 = 1_000_000_000_000;

/// An instant of simulated time: picoseconds since the start of the run.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct SimTime(u64);

/// A span of simulated time in picoseconds.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct SimDuration(u64);

impl SimTime {
    pub const ZERO: SimTime = SimTime(0);
    pub const MAX: SimTime = SimTime(u64::MAX);

    pub const fn from_picos(ps: u64) -> Self {
        SimTime(ps)
    }
    pub const fn as_picos(self) -> u64 {
        self.0
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / PS_PER_SEC as f64
    }
    /// `self + d` for a time on a cell's path, which cannot reach the end of time (2⁶⁴ ps, 213
    /// days): no test for saturation, which `+` makes on every cell's several sums (checked
    /// in debug builds).
    #[inline(always)]
    pub fn later_by(self, d: SimDuration) -> SimTime {
        debug_assert!(self.0.checked_add(d.0).is_some(), "time past 2^64 ps");
        SimTime(self.0.wrapping_add(d.0))
    }
    /// Time elapsed since `earlier`; zero if `earlier` is later (never wraps).
    pub fn saturating_since(self, earlier: SimTime) -> SimDuration {
        SimDuration(self.0.saturating_sub(earlier.0))
    }
}

impl SimDuration {
    pub const ZERO: SimDuration = SimDuration(0);

    pub const fn from_picos(ps: u64) -> Self {
        SimDuration(ps)
    }
    pub const fn from_nanos(ns: u64) -> Self {
        SimDuration(ns * 1_000)
    }
    pub const fn from_micros(us: u64) -> Self {
        SimDuration(us * 1_000_000)
    }
    pub const fn from_millis(ms: u64) -> Self {
        SimDuration(ms * 1_000_000_000)
    }
    pub const fn from_secs(s: u64) -> Self {
        SimDuration(s * PS_PER_SEC)
    }
    /// Seconds as a float, rounded to the nearest picosecond (for configuration only;
    /// never used in event ordering).
    pub fn from_secs_f64_round(s: f64) -> Self {
        SimDuration((s * PS_PER_SEC as f64).round() as u64)
    }
    pub const fn as_picos(self) -> u64 {
        self.0
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / PS_PER_SEC as f64
    }
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }
    pub const fn saturating_mul(self, n: u64) -> SimDuration {
        SimDuration(self.0.saturating_mul(n))
    }
}

impl Add<SimDuration> for SimTime {
    type Output = SimTime;
    fn add(self, d: SimDuration) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }
}
impl AddAssign<SimDuration> for SimTime {
    fn add_assign(&mut self, d: SimDuration) {
        *self = *self + d;
    }
}
impl Sub<SimTime> for SimTime {
    type Output = SimDuration;
    /// Panics in debug builds if `rhs` is later than `self`: a negative span is a model bug.
    fn sub(self, rhs: SimTime) -> SimDuration {
        debug_assert!(rhs.0 <= self.0, "negative time span: {self:?} - {rhs:?}");
        SimDuration(self.0.saturating_sub(rhs.0))
    }
}
impl Add for SimDuration {
    type Output = SimDuration;
    fn add(self, d: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_add(d.0))
    }
}
impl AddAssign for SimDuration {
    fn add_assign(&mut self, d: SimDuration) {
        *self = *self + d;
    }
}
impl Sub for SimDuration {
    type Output = SimDuration;
    fn sub(self, d: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_sub(d.0))
    }
}

fn fmt_ps(ps: u64, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match ps {
        0 => write!(f, "0s"),
        p if p % PS_PER_SEC == 0 => write!(f, "{}s", p / PS_PER_SEC),
        p if p >= 1_000_000_000 => write!(f, "{}ms", p as f64 / 1e9),
        p if p >= 1_000_000 => write!(f, "{}us", p as f64 / 1e6),
        p if p >= 1_000 => write!(f, "{}ns", p as f64 / 1e3),
        p => write!(f, "{p}ps"),
    }
}
impl fmt::Debug for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t=")?;
        fmt_ps(self.0, f)
    }
}
impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}
impl fmt::Debug for SimDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_ps(self.0, f)
    }
}
impl fmt::Display for SimDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_ps(self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_and_display() {
        let t = SimTime::ZERO + SimDuration::from_millis(5);
        assert_eq!(t.as_picos(), 5_000_000_000);
        assert_eq!(t - SimTime::ZERO, SimDuration::from_micros(5000));
        assert_eq!(format!("{:?}", SimDuration::from_secs(2)), "2s");
        assert_eq!(format!("{:?}", SimDuration::from_micros(50)), "50us");
        assert_eq!(SimTime::from_picos(3).saturating_since(SimTime::from_picos(9)), SimDuration::ZERO);
    }
}
