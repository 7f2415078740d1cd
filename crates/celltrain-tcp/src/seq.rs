//! TCP sequence numbers: 32-bit, wrapping, compared in serial-number arithmetic.
//!
//! `SeqNum` deliberately implements neither `PartialOrd` nor `Ord`: the integer order of
//! two sequence numbers says nothing once the space has wrapped, so every comparison goes
//! through [`SeqNum::lt`] and friends, which are BSD's `SEQ_LT` / `SEQ_GT` macros
//! (`tcp_seq.h`: `((int)((a)-(b)) < 0)`), i.e. RFC 1982 serial-number comparison with
//! SERIAL_BITS = 32. RFC 1982 leaves two numbers exactly 2^31 apart incomparable; BSD's
//! signed difference makes each "less" than the other. TCP never has that much data in
//! flight (the window is at most 2^30), so the case cannot arise on a live connection.

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// A 32-bit TCP sequence (or acknowledgment) number. Arithmetic wraps modulo 2^32.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SeqNum(pub u32);

impl SeqNum {
    /// The raw 32-bit value as carried in the header.
    pub const fn raw(self) -> u32 {
        self.0
    }
    /// Signed distance `self − other` (BSD: `(int)(a − b)`).
    pub const fn diff(self, other: SeqNum) -> i32 {
        self.0.wrapping_sub(other.0) as i32
    }
    /// `SEQ_LT(self, other)`.
    pub const fn lt(self, other: SeqNum) -> bool {
        self.diff(other) < 0
    }
    /// `SEQ_LEQ(self, other)`.
    pub const fn le(self, other: SeqNum) -> bool {
        self.diff(other) <= 0
    }
    /// `SEQ_GT(self, other)`.
    pub const fn gt(self, other: SeqNum) -> bool {
        self.diff(other) > 0
    }
    /// `SEQ_GEQ(self, other)`.
    pub const fn ge(self, other: SeqNum) -> bool {
        self.diff(other) >= 0
    }
    /// The later of the two in sequence space.
    pub const fn max(self, other: SeqNum) -> SeqNum {
        if self.lt(other) {
            other
        } else {
            self
        }
    }
    /// The earlier of the two in sequence space.
    pub const fn min(self, other: SeqNum) -> SeqNum {
        if self.lt(other) {
            self
        } else {
            other
        }
    }
    /// Bytes from `earlier` up to `self`, or 0 if `self` is not after `earlier`.
    pub const fn saturating_since(self, earlier: SeqNum) -> u32 {
        let d = self.diff(earlier);
        if d > 0 {
            d as u32
        } else {
            0
        }
    }
    /// True if `self` lies in the half-open range `[start, end)`.
    pub const fn in_range(self, start: SeqNum, end: SeqNum) -> bool {
        self.ge(start) && self.lt(end)
    }
}

impl Add<u32> for SeqNum {
    type Output = SeqNum;
    fn add(self, n: u32) -> SeqNum {
        SeqNum(self.0.wrapping_add(n))
    }
}
impl AddAssign<u32> for SeqNum {
    fn add_assign(&mut self, n: u32) {
        self.0 = self.0.wrapping_add(n);
    }
}
impl Sub<u32> for SeqNum {
    type Output = SeqNum;
    fn sub(self, n: u32) -> SeqNum {
        SeqNum(self.0.wrapping_sub(n))
    }
}
impl Sub<SeqNum> for SeqNum {
    type Output = u32;
    /// Bytes from `rhs` to `self`; `self` must not be before `rhs` (checked in debug builds).
    fn sub(self, rhs: SeqNum) -> u32 {
        debug_assert!(self.ge(rhs), "sequence distance negative: {self:?} - {rhs:?}");
        self.0.wrapping_sub(rhs.0)
    }
}

impl fmt::Debug for SeqNum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seq:{}", self.0)
    }
}
impl fmt::Display for SeqNum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons_across_the_wrap() {
        let a = SeqNum(u32::MAX - 10);
        let b = a + 20; // wrapped to 9
        assert_eq!(b.raw(), 9);
        assert!(a.lt(b) && a.le(b) && b.gt(a) && b.ge(a));
        assert!(!b.lt(a) && !a.gt(b));
        assert_eq!(b - a, 20);
        assert_eq!(b.diff(a), 20);
        assert_eq!(a.diff(b), -20);
        assert_eq!(a.max(b), b);
        assert_eq!(b.min(a), a);
        assert_eq!(b - 20, a);
        assert_eq!(b.saturating_since(a), 20);
        assert_eq!(a.saturating_since(b), 0);
        assert!(SeqNum(u32::MAX).in_range(a, b));
        assert!(SeqNum(0).in_range(a, b));
        assert!(!b.in_range(a, b));
    }

    #[test]
    fn equal_numbers() {
        let a = SeqNum(5);
        assert!(a.le(a) && a.ge(a) && !a.lt(a) && !a.gt(a));
        assert_eq!(a - a, 0);
    }

    #[test]
    fn half_space_boundary_follows_bsd_signed_difference() {
        // RFC 1982 leaves a distance of exactly 2^31 undefined; BSD's (int)(a-b) makes it negative.
        let a = SeqNum(0);
        let b = SeqNum(1 << 31);
        assert!(a.lt(b) && b.lt(a));
        // One less than half the space is unambiguous.
        let c = SeqNum((1 << 31) - 1);
        assert!(a.lt(c) && c.gt(a));
    }
}
