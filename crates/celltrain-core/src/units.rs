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
        self.tx_time_ceil(n * CELL_BITS)
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
        let v = u128::from(d.as_picos()) * u128::from(self.0)
            / (u128::from(CELL_BITS) * u128::from(PS_PER_SEC));
        u64::try_from(v).unwrap_or(u64::MAX)
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
    fn oc3_cell_time() {
        // 424 bit / 149.76 Mbit/s = 2.8311 us (reference §1.5)
        let t = BitRate::from_bps(149_760_000).cell_time_ceil();
        assert_eq!(t.as_picos(), 2_831_197);
    }
}
