//! A running hash of every processed event, so two runs can be compared at a glance.

use crate::time::SimTime;

/// Folds (time, event kind, target id) of each processed event into 64 bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TraceHash(u64);

impl TraceHash {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;

    #[inline]
    pub fn fold(&mut self, now: SimTime, kind: u32, target: u32) {
        let word = now.as_picos() ^ (u64::from(kind) << 56) ^ (u64::from(target) << 24).rotate_left(29);
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(Self::K);
    }

    pub fn value(self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_and_content_matter() {
        let t = SimTime::from_picos;
        let mut a = TraceHash::default();
        a.fold(t(1), 0, 1);
        a.fold(t(2), 1, 1);
        let mut b = TraceHash::default();
        b.fold(t(2), 1, 1);
        b.fold(t(1), 0, 1);
        let mut c = TraceHash::default();
        c.fold(t(1), 0, 1);
        c.fold(t(2), 1, 2);
        assert_ne!(a, b);
        assert_ne!(a, c);
    }
}
