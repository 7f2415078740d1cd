//! `CellInterval`: time per cell, the GCRA increment I = 1/rate, in integer picoseconds.
//!
//! Rates in celltrain are cell-stream rates in bit/s counting all 53 octets of a cell
//! ([`BitRate`]): SCR = 10 Mbit/s is one cell every 424 bit / 10 Mbit/s = 42.4 µs, as in BKD97.
//! Converting a rate to an interval is lossy; every constructor names its rounding direction.
//!
//! # Which rounding where
//! ```text
//!   shaped (Strict)  ⊆  exact real-valued contract  ⊆  policed (Lenient)
//!   ceil T, floor τ                                      floor T, ceil τ
//! ```
//! A sequence conforming to GCRA(T₁, τ₁) also conforms to GCRA(T₂, τ₂) whenever T₂ ≤ T₁ and
//! τ₂ ≥ τ₁ (window form: (n−m)·T ≤ t_n − t_m + τ). Hence a shaper must round its increments
//! **up** and its tolerances **down** ([`Rounding::Strict`]), and a policer must round its
//! increments **down** and its tolerances **up** ([`Rounding::Lenient`]); then a shaped stream
//! always passes the policer, whatever the rates. A policer that rounds T up drifts: a link
//! sending exactly at PCR = line rate spaces cells by ⌈n·424/R⌉ − ⌈(n−1)·424/R⌉ ∈ {⌊I⌋, ⌈I⌉}
//! and with CDVT = 0 would see a cell "too early" every few cells (tested in `tests/upc.rs`).

use celltrain_core::{BitRate, SimDuration, CELL_BITS};
use std::fmt;

/// Picoseconds per second.
const PS_PER_SEC: u128 = 1_000_000_000_000;

/// Rounding direction used when a traffic descriptor (real-valued rates) is turned into integer
/// GCRA parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rounding {
    /// Network policer (UPC): increments rounded down, tolerances rounded up, so that a source
    /// exactly conforming to the real-valued contract is never discarded.
    Lenient,
    /// Source shaper: increments rounded up, tolerances rounded down, so that the shaped
    /// stream always conforms to the real-valued contract.
    Strict,
}

/// Time per cell (the GCRA increment I, e.g. T_PCR = 1/PCR), in picoseconds.
///
/// Invariant: none beyond `u64`; a zero interval means "infinite rate" and makes a GCRA accept
/// every cell, which only a degenerate configuration produces.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct CellInterval(u64);

impl CellInterval {
    /// An interval of exactly `ps` picoseconds (test vectors use small integers as "slots").
    pub const fn from_picos(ps: u64) -> Self {
        CellInterval(ps)
    }

    /// The interval as picoseconds.
    pub const fn as_picos(self) -> u64 {
        self.0
    }

    /// The interval as a span of simulated time.
    pub const fn as_duration(self) -> SimDuration {
        SimDuration::from_picos(self.0)
    }

    /// 424 bit / `rate`, rounded **up** to the next picosecond: never faster than `rate`,
    /// the safe direction for a shaper ([`Rounding::Strict`]). `None` if the rate is zero.
    pub fn from_rate_ceil(rate: BitRate) -> Option<Self> {
        Self::ratio(CELL_BITS, rate.as_bps(), true)
    }

    /// 424 bit / `rate`, rounded **down**: never slower than `rate`, the safe direction for a
    /// policer ([`Rounding::Lenient`]). `None` if the rate is zero.
    pub fn from_rate_floor(rate: BitRate) -> Option<Self> {
        Self::ratio(CELL_BITS, rate.as_bps(), false)
    }

    /// 1 s / `cells_per_sec`, rounded **up** (shaper side). `None` if the rate is zero.
    pub fn from_cells_per_sec_ceil(cells_per_sec: u64) -> Option<Self> {
        Self::ratio(1, cells_per_sec, true)
    }

    /// 1 s / `cells_per_sec`, rounded **down** (policer side). `None` if the rate is zero.
    pub fn from_cells_per_sec_floor(cells_per_sec: u64) -> Option<Self> {
        Self::ratio(1, cells_per_sec, false)
    }

    /// The interval of a bit rate with the given rounding.
    pub fn from_rate(rate: BitRate, rounding: Rounding) -> Option<Self> {
        match rounding {
            Rounding::Lenient => Self::from_rate_floor(rate),
            Rounding::Strict => Self::from_rate_ceil(rate),
        }
    }

    /// `seconds_num` seconds / `den`, in picoseconds, rounded as asked.
    fn ratio(seconds_num: u64, den: u64, ceil: bool) -> Option<Self> {
        if den == 0 {
            return None;
        }
        let num = u128::from(seconds_num) * PS_PER_SEC;
        let den = u128::from(den);
        let ps = if ceil { num.div_ceil(den) } else { num / den };
        Some(CellInterval(u64::try_from(ps).ok()?))
    }

    /// `n` intervals back to back (n·I), saturating.
    pub const fn times(self, n: u64) -> SimDuration {
        SimDuration::from_picos(self.0.saturating_mul(n))
    }

    /// `self − other`, or zero if `other` is longer (used for T_SCR − T_PCR, which
    /// [`super::TrafficDescriptor::validate`] guarantees is not negative).
    pub const fn saturating_sub(self, other: CellInterval) -> SimDuration {
        SimDuration::from_picos(self.0.saturating_sub(other.0))
    }
}

impl fmt::Debug for CellInterval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}/cell", self.as_duration())
    }
}

impl fmt::Display for CellInterval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}
