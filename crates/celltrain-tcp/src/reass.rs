//! The receiver's reassembly queue (BSD `tcp_reass`) and RFC 2018 SACK block generation.
//!
//! Out-of-order data is kept as merged sequence ranges; payload bytes are not stored. Each
//! range remembers when a segment last landed in it, so SACK blocks can be reported most
//! recent first (RFC 2018 §4: the first block MUST contain the segment that triggered the
//! ACK; the remaining blocks SHOULD repeat the most recently reported ones). Reporting the
//! most recently *received-into* ranges satisfies both rules, because every received
//! out-of-order segment is reported in the ACK it triggers.
//!
//! Memory: the queue lives within the receive window; its vector reuses its capacity.

use crate::segment::{SackBlock, TcpOptions};
use crate::seq::SeqNum;

/// One contiguous block of out-of-order data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OooBlock {
    /// First sequence number held.
    start: SeqNum,
    /// One past the last sequence number held.
    end: SeqNum,
    /// Arrival counter value of the most recent segment merged into this block.
    touched: u64,
}

/// Out-of-order ranges above `rcv_nxt`, sorted and disjoint.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reassembly {
    /// Sorted, disjoint, non-adjacent blocks.
    blocks: Vec<OooBlock>,
    /// Counter incremented on every insertion (recency order for SACK).
    clock: u64,
}

impl Reassembly {
    /// An empty queue.
    pub fn new() -> Self {
        Reassembly::default()
    }

    /// True if nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// Octets held out of order.
    pub fn queued_bytes(&self) -> u64 {
        self.blocks.iter().map(|b| u64::from(b.end - b.start)).sum()
    }

    /// Queues `[start, end)`; returns how many of its octets were not already queued.
    pub fn insert(&mut self, start: SeqNum, end: SeqNum) -> u32 {
        if !start.lt(end) {
            return 0;
        }
        self.clock += 1;
        let before = self.queued_bytes();
        let i = self.blocks.partition_point(|b| b.end.lt(start));
        let mut j = i;
        let (mut s, mut e) = (start, end);
        while j < self.blocks.len() && self.blocks[j].start.le(e) {
            s = s.min(self.blocks[j].start);
            e = e.max(self.blocks[j].end);
            j += 1;
        }
        let merged = OooBlock { start: s, end: e, touched: self.clock };
        if i == j {
            self.blocks.insert(i, merged);
        } else {
            self.blocks[i] = merged;
            self.blocks.drain(i + 1..j);
        }
        (self.queued_bytes() - before) as u32
    }

    /// Removes the data that `rcv_nxt` has reached and returns the new `rcv_nxt`: the end of
    /// every block starting at or before it (BSD `tcp_reass` "present" loop).
    pub fn advance(&mut self, mut rcv_nxt: SeqNum) -> SeqNum {
        let mut k = 0;
        while k < self.blocks.len() && self.blocks[k].start.le(rcv_nxt) {
            rcv_nxt = rcv_nxt.max(self.blocks[k].end);
            k += 1;
        }
        self.blocks.drain(..k);
        rcv_nxt
    }

    /// Whether `[start, end)` is already queued (a duplicate of out-of-order data).
    pub fn covers(&self, start: SeqNum, end: SeqNum) -> bool {
        self.blocks.iter().any(|b| b.start.le(start) && end.le(b.end))
    }

    /// Fills `opts` with up to `max` SACK blocks, most recently received-into first.
    pub fn write_sack(&self, opts: &mut TcpOptions, max: usize) {
        opts.sack_count = 0;
        self.push_sack_blocks(opts, max);
    }

    /// Fills `opts` with a D-SACK block (RFC 2883 §4: first, the duplicate the last segment
    /// brought) and then up to `max` blocks in all.
    pub fn write_dsack(&self, opts: &mut TcpOptions, dsack: SackBlock, max: usize) {
        opts.sack_count = 0;
        opts.push_sack(dsack);
        self.push_sack_blocks(opts, max);
    }

    fn push_sack_blocks(&self, opts: &mut TcpOptions, max: usize) {
        let mut last_taken = u64::MAX;
        while usize::from(opts.sack_count) < max {
            // Next most recent block (touched values are unique per insertion).
            let next = self.blocks.iter().filter(|b| b.touched < last_taken).max_by_key(|b| b.touched);
            let Some(b) = next else { break };
            last_taken = b.touched;
            opts.push_sack(SackBlock { left: b.start, right: b.end });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_merge_and_present() {
        let mut q = Reassembly::new();
        assert_eq!(q.insert(SeqNum(200), SeqNum(300)), 100);
        assert_eq!(q.insert(SeqNum(400), SeqNum(500)), 100);
        assert_eq!(q.insert(SeqNum(250), SeqNum(450)), 100, "fills the gap 300..400");
        assert_eq!(q.queued_bytes(), 300);
        assert_eq!(q.advance(SeqNum(100)), SeqNum(100), "hole at 100..200 remains");
        assert_eq!(q.advance(SeqNum(200)), SeqNum(500));
        assert!(q.is_empty());
    }

    #[test]
    fn sack_blocks_most_recent_first() {
        let mut q = Reassembly::new();
        q.insert(SeqNum(200), SeqNum(300));
        q.insert(SeqNum(600), SeqNum(700));
        q.insert(SeqNum(400), SeqNum(500));
        q.insert(SeqNum(800), SeqNum(900));
        q.insert(SeqNum(1000), SeqNum(1100));
        let mut o = TcpOptions::default();
        q.write_sack(&mut o, 3);
        let got: Vec<(u32, u32)> = o.sack_blocks().iter().map(|b| (b.left.raw(), b.right.raw())).collect();
        assert_eq!(got, [(1000, 1100), (800, 900), (400, 500)]);
        // A segment extending the oldest block makes it first.
        q.insert(SeqNum(300), SeqNum(350));
        q.write_sack(&mut o, 4);
        let got: Vec<(u32, u32)> = o.sack_blocks().iter().map(|b| (b.left.raw(), b.right.raw())).collect();
        assert_eq!(got, [(200, 350), (1000, 1100), (800, 900), (400, 500)]);
    }

    #[test]
    fn a_dsack_block_goes_first() {
        let mut q = Reassembly::new();
        q.insert(SeqNum(200), SeqNum(300));
        q.insert(SeqNum(400), SeqNum(500));
        assert!(q.covers(SeqNum(420), SeqNum(500)) && !q.covers(SeqNum(250), SeqNum(450)));
        let mut o = TcpOptions::default();
        q.write_dsack(&mut o, SackBlock { left: SeqNum(50), right: SeqNum(100) }, 2);
        let got: Vec<(u32, u32)> = o.sack_blocks().iter().map(|b| (b.left.raw(), b.right.raw())).collect();
        assert_eq!(got, [(50, 100), (400, 500)], "then the most recent block, up to the limit");
    }
}
