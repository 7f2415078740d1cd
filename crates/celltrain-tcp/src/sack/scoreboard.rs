//! The RFC 6675 scoreboard of a SACK sender.
//!
//! Kept as sorted, disjoint, non-adjacent SACKed ranges above the cumulative ACK point, not
//! per segment: the endpoint does not materialise segments, and RFC 6675 is written per
//! octet (`IsLost`, `SetPipe`), which ranges evaluate exactly: within one un-SACKed gap every
//! octet has the same SACKed data above it, so `IsLost` is constant across the gap.
//!
//! "DupThresh discontiguous SACKed sequences" (RFC 6675 §4 IsLost) is counted in segments:
//! each SACKed range of length L counts ⌈L / SMSS⌉ segments.
//!
//! The vector reuses its capacity: after warm-up, updates do not allocate.

use crate::segment::SackBlock;
use crate::seq::SeqNum;

/// SACKed sequence ranges above `snd_una`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scoreboard {
    /// Sorted, disjoint, non-adjacent half-open ranges `[start, end)`, all at or above the
    /// cumulative ACK point and below `snd_max`.
    ranges: Vec<(SeqNum, SeqNum)>,
}

impl Scoreboard {
    /// An empty scoreboard.
    pub fn new() -> Self {
        Scoreboard::default()
    }

    /// Forgets every SACK (RFC 2018 §8: after a timeout the sender SHOULD expunge SACK state).
    pub fn clear(&mut self) {
        self.ranges.clear();
    }

    /// True if nothing is SACKed.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The SACKed ranges, lowest first.
    pub fn ranges(&self) -> &[(SeqNum, SeqNum)] {
        &self.ranges
    }

    /// RFC 6675 `Update()`: records the blocks of an ACK (clipped to `[snd_una, snd_max)`,
    /// where `snd_una` is the cumulative ACK of that same segment) and returns the number of
    /// octets newly SACKed.
    pub fn update(&mut self, snd_una: SeqNum, snd_max: SeqNum, blocks: &[SackBlock]) -> u32 {
        self.advance(snd_una);
        let before = self.sacked_bytes();
        for b in blocks {
            let start = b.left.max(snd_una);
            let end = b.right.min(snd_max);
            if start.lt(end) {
                self.insert(start, end);
            }
        }
        self.sacked_bytes() - before
    }

    fn insert(&mut self, start: SeqNum, end: SeqNum) {
        // First range whose end reaches `start` (merge candidates are contiguous from here).
        let i = self.ranges.partition_point(|&(_, e)| e.lt(start));
        let mut j = i;
        let (mut s, mut e) = (start, end);
        while j < self.ranges.len() && self.ranges[j].0.le(e) {
            s = s.min(self.ranges[j].0);
            e = e.max(self.ranges[j].1);
            j += 1;
        }
        if i == j {
            self.ranges.insert(i, (s, e));
        } else {
            self.ranges[i] = (s, e);
            self.ranges.drain(i + 1..j);
        }
    }

    /// Drops SACK state below the cumulative ACK point `snd_una`.
    pub fn advance(&mut self, snd_una: SeqNum) {
        let k = self.ranges.partition_point(|&(_, e)| e.le(snd_una));
        self.ranges.drain(..k);
        if let Some(first) = self.ranges.first_mut() {
            first.0 = first.0.max(snd_una);
        }
    }

    /// Total SACKed octets.
    pub fn sacked_bytes(&self) -> u32 {
        self.ranges.iter().map(|&(s, e)| e - s).sum()
    }

    /// One past the highest SACKed octet.
    pub fn highest_sacked(&self) -> Option<SeqNum> {
        self.ranges.last().map(|&(_, e)| e)
    }

    /// If `seq` is SACKed, the end of its range.
    pub fn sacked_end_at(&self, seq: SeqNum) -> Option<SeqNum> {
        let i = self.ranges.partition_point(|&(_, e)| e.le(seq));
        self.ranges.get(i).filter(|&&(s, _)| s.le(seq)).map(|&(_, e)| e)
    }

    /// Start of the first SACKed range strictly above `seq`.
    pub fn next_sacked_after(&self, seq: SeqNum) -> Option<SeqNum> {
        let i = self.ranges.partition_point(|&(s, _)| s.le(seq));
        self.ranges.get(i).map(|&(s, _)| s)
    }

    /// The first octet at or after `seq` that is not SACKed.
    pub fn first_unsacked_from(&self, seq: SeqNum) -> SeqNum {
        self.sacked_end_at(seq).unwrap_or(seq)
    }

    /// SACKed octets and segments (⌈len/SMSS⌉ per range) strictly above `seq`, counting
    /// only ranges entirely above it (the caller asks about un-SACKed octets).
    fn sacked_above(&self, seq: SeqNum, smss: u32) -> (u64, u64) {
        let i = self.ranges.partition_point(|&(s, _)| s.le(seq));
        self.ranges[i..].iter().fold((0, 0), |(b, n), &(s, e)| {
            let len = u64::from(e - s);
            (b + len, n + len.div_ceil(u64::from(smss.max(1))))
        })
    }

    /// RFC 6675 `IsLost(seq)`: true if at least DupThresh SACKed segments lie above `seq`,
    /// or more than (DupThresh − 1)·SMSS octets above it are SACKed.
    pub fn is_lost(&self, seq: SeqNum, smss: u32, dupthresh: u32) -> bool {
        let (bytes, segs) = self.sacked_above(seq, smss);
        segs >= u64::from(dupthresh) || bytes > u64::from(dupthresh.saturating_sub(1)) * u64::from(smss)
    }

    /// RFC 6675 `SetPipe()`: for every un-SACKed octet in `[snd_una, snd_max)`, one if it is
    /// not lost (still in flight) plus one if it is below `high_rxt` (its retransmission is
    /// in flight). `high_rxt` is one past RFC 6675's HighRxt.
    pub fn pipe(&self, snd_una: SeqNum, snd_max: SeqNum, high_rxt: SeqNum, smss: u32, dupthresh: u32) -> u32 {
        let mut pipe: u64 = 0;
        let mut cursor = snd_una;
        let mut gap = |a: SeqNum, b: SeqNum| {
            if !a.lt(b) {
                return;
            }
            if !self.is_lost(a, smss, dupthresh) {
                pipe += u64::from(b - a);
            }
            let rx_end = high_rxt.min(b);
            if a.lt(rx_end) {
                pipe += u64::from(rx_end - a);
            }
        };
        for &(s, e) in &self.ranges {
            if s.ge(snd_max) {
                break;
            }
            gap(cursor, s);
            cursor = cursor.max(e);
        }
        gap(cursor, snd_max);
        pipe.min(u64::from(u32::MAX)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blk(l: u32, r: u32) -> SackBlock {
        SackBlock { left: SeqNum(l), right: SeqNum(r) }
    }

    /// Segment n (1-based) of SMSS 100 starting at sequence 0: [100(n-1), 100n).
    fn seg(n: u32) -> SackBlock {
        blk(100 * (n - 1), 100 * n)
    }

    #[test]
    fn update_merges_and_counts_new_octets() {
        let mut sb = Scoreboard::new();
        assert_eq!(sb.update(SeqNum(0), SeqNum(1000), &[blk(200, 300)]), 100);
        assert_eq!(sb.update(SeqNum(0), SeqNum(1000), &[blk(200, 300)]), 0, "repeat");
        assert_eq!(sb.update(SeqNum(0), SeqNum(1000), &[blk(400, 500), blk(300, 400)]), 200);
        assert_eq!(sb.ranges(), &[(SeqNum(200), SeqNum(500))], "adjacent ranges merge");
        assert_eq!(sb.update(SeqNum(0), SeqNum(1000), &[blk(600, 700), blk(100, 250)]), 200);
        assert_eq!(sb.ranges(), &[(SeqNum(100), SeqNum(500)), (SeqNum(600), SeqNum(700))]);
        assert_eq!(sb.update(SeqNum(0), SeqNum(800), &[blk(750, 900)]), 50, "clipped at snd_max");
        sb.advance(SeqNum(300));
        assert_eq!(sb.ranges()[0], (SeqNum(300), SeqNum(500)));
        assert_eq!(sb.sacked_bytes(), 200 + 100 + 50);
        assert_eq!(sb.highest_sacked(), Some(SeqNum(800)));
        assert_eq!(sb.sacked_end_at(SeqNum(450)), Some(SeqNum(500)));
        assert_eq!(sb.sacked_end_at(SeqNum(500)), None);
        assert_eq!(sb.next_sacked_after(SeqNum(500)), Some(SeqNum(600)));
        assert_eq!(sb.first_unsacked_from(SeqNum(300)), SeqNum(500));
        sb.advance(SeqNum(2000));
        assert!(sb.is_empty());
    }

    #[test]
    fn update_across_sequence_wrap() {
        let base = SeqNum(u32::MAX - 150);
        let mut sb = Scoreboard::new();
        let b = SackBlock { left: base + 100, right: base + 300 };
        assert_eq!(sb.update(base, base + 1000, &[b]), 200);
        assert_eq!(sb.sacked_end_at(base + 250), Some(base + 300));
        assert!(!sb.is_lost(base, 100, 3), "exactly 2 segments / 200 octets above");
        assert_eq!(sb.update(base, base + 1000, &[SackBlock { left: base + 400, right: base + 500 }]), 100);
        assert!(sb.is_lost(base, 100, 3));
    }

    #[test]
    fn reference_vector_7g_islost_and_pipe() {
        // SMSS 100, segments 1..=6 sent, {3, 5, 6} SACKed, HighACK = 0 (seg 1 first unacked).
        let mut sb = Scoreboard::new();
        let (una, max) = (SeqNum(0), SeqNum(600));
        sb.update(una, max, &[seg(3), seg(5), seg(6)]);
        let lost = |n: u32| sb.is_lost(SeqNum(100 * (n - 1)), 100, 3);
        assert!(lost(1));
        assert!(lost(2));
        assert!(!lost(4));
        assert_eq!(sb.pipe(una, max, una, 100, 3), 100, "pipe = segment 4 only");
        assert_eq!(sb.pipe(una, max, SeqNum(100), 100, 3), 200, "after retransmitting segment 1");
    }

    #[test]
    fn islost_counts_small_discontiguous_segments() {
        let mut sb = Scoreboard::new();
        // Three 10-octet SACKed pieces above 0: 30 octets < 2*100 but 3 segments.
        sb.update(SeqNum(0), SeqNum(1000), &[blk(100, 110), blk(200, 210), blk(300, 310)]);
        assert!(sb.is_lost(SeqNum(0), 100, 3));
        assert!(!sb.is_lost(SeqNum(150), 100, 3));
    }
}
