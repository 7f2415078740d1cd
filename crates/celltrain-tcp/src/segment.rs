//! The TCP segment as the simulator carries it: real header fields and options, no payload bytes.
//!
//! Modelled: every header field a TCP implementation acts on (ports, sequence and
//! acknowledgment numbers, flags, the 16-bit window field as sent on the wire, i.e. already
//! right-shifted by the sender's window scale), the options of RFC 793/7323/2018 (MSS, window
//! scale, SACK-permitted, timestamps, up to four SACK blocks) and the payload length.
//! Abstracted away: payload bytes (the application writes byte *counts*), checksum, urgent
//! pointer, IP header. [`Segment::header_len`] gives the TCP header length so the IP/AAL5
//! layers can count octets and cells exactly.
//!
//! A `Segment` is `Copy` and holds no heap data: SACK blocks live in a fixed array.

use crate::seq::SeqNum;
use std::fmt;

/// TCP header flags (RFC 793 control bits), as a bit set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Flags(u8);

impl Flags {
    /// No more data from sender.
    pub const FIN: Flags = Flags(0x01);
    /// Synchronise sequence numbers.
    pub const SYN: Flags = Flags(0x02);
    /// Reset the connection.
    pub const RST: Flags = Flags(0x04);
    /// Push function.
    pub const PSH: Flags = Flags(0x08);
    /// Acknowledgment field significant.
    pub const ACK: Flags = Flags(0x10);
    /// Urgent pointer significant (never set by this model).
    pub const URG: Flags = Flags(0x20);
    /// The empty set.
    pub const NONE: Flags = Flags(0);

    /// The raw bits (as in the header's flag octet).
    pub const fn bits(self) -> u8 {
        self.0
    }
    /// True if every flag of `other` is set in `self`.
    pub const fn contains(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }
    /// The union of both sets.
    pub const fn union(self, other: Flags) -> Flags {
        Flags(self.0 | other.0)
    }
    /// `self` without the flags of `other`.
    pub const fn without(self, other: Flags) -> Flags {
        Flags(self.0 & !other.0)
    }
    /// True if FIN is set.
    pub const fn fin(self) -> bool {
        self.contains(Flags::FIN)
    }
    /// True if SYN is set.
    pub const fn syn(self) -> bool {
        self.contains(Flags::SYN)
    }
    /// True if RST is set.
    pub const fn rst(self) -> bool {
        self.contains(Flags::RST)
    }
    /// True if ACK is set.
    pub const fn ack(self) -> bool {
        self.contains(Flags::ACK)
    }
}

impl std::ops::BitOr for Flags {
    type Output = Flags;
    fn bitor(self, rhs: Flags) -> Flags {
        self.union(rhs)
    }
}

impl fmt::Debug for Flags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = [
            (Flags::SYN, "S"),
            (Flags::FIN, "F"),
            (Flags::RST, "R"),
            (Flags::PSH, "P"),
            (Flags::ACK, "."),
            (Flags::URG, "U"),
        ];
        let mut any = false;
        for (flag, name) in names {
            if self.contains(flag) {
                f.write_str(name)?;
                any = true;
            }
        }
        if !any {
            f.write_str("-")?;
        }
        Ok(())
    }
}

/// One SACK block (RFC 2018 §3): the half-open sequence range `[left, right)` received.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct SackBlock {
    /// Left edge: first sequence number of the block.
    pub left: SeqNum,
    /// Right edge: the sequence number just past the block.
    pub right: SeqNum,
}

impl fmt::Debug for SackBlock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {})", self.left, self.right)
    }
}

/// Most SACK blocks that fit in the 40-octet option space (RFC 2018 §3: 2 + 8·4 = 34).
pub const MAX_SACK_BLOCKS: usize = 4;

/// TCP options carried by a segment.
///
/// Option sizes (kind + length + data, RFC 793/7323/2018): MSS 4, window scale 3,
/// SACK-permitted 2, timestamps 10, SACK 2 + 8·n octets.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct TcpOptions {
    /// Maximum segment size option (kind 2), octets; SYN segments only.
    pub mss: Option<u16>,
    /// Window scale option (kind 3): shift count 0–14; SYN segments only.
    pub window_scale: Option<u8>,
    /// SACK-permitted option (kind 4); SYN segments only.
    pub sack_permitted: bool,
    /// Timestamps option (kind 8): (TSval, TSecr) in the sender's timestamp-clock units.
    pub timestamps: Option<(u32, u32)>,
    /// SACK blocks (kind 5); only the first `sack_count` entries are meaningful.
    pub sack: [SackBlock; MAX_SACK_BLOCKS],
    /// Number of valid entries in `sack` (0–4).
    pub sack_count: u8,
}

impl TcpOptions {
    /// The valid SACK blocks, first block first.
    pub fn sack_blocks(&self) -> &[SackBlock] {
        &self.sack[..usize::from(self.sack_count)]
    }

    /// The first block if it is a D-SACK (RFC 2883 §4): below the cumulative acknowledgment
    /// `ack`, or inside the second block.
    pub fn dsack(&self, ack: SeqNum) -> Option<SackBlock> {
        let (first, second) = match self.sack_blocks() {
            [first] => (*first, None),
            [first, second, ..] => (*first, Some(*second)),
            [] => return None,
        };
        let inside_second = second.is_some_and(|s| s.left.le(first.left) && first.right.le(s.right));
        (first.right.le(ack) || inside_second).then_some(first)
    }

    /// Appends a SACK block; returns false (and does nothing) if four are already present.
    pub fn push_sack(&mut self, block: SackBlock) -> bool {
        let n = usize::from(self.sack_count);
        if n >= MAX_SACK_BLOCKS {
            return false;
        }
        self.sack[n] = block;
        self.sack_count += 1;
        true
    }

    /// Octets of option data before padding: the sum of the options' kind+length+data sizes.
    pub fn unpadded_len(&self) -> u32 {
        let mut n = 0;
        if self.mss.is_some() {
            n += 4;
        }
        if self.window_scale.is_some() {
            n += 3;
        }
        if self.sack_permitted {
            n += 2;
        }
        if self.timestamps.is_some() {
            n += 10;
        }
        if self.sack_count > 0 {
            n += 2 + 8 * u32::from(self.sack_count);
        }
        n
    }
}

impl fmt::Debug for TcpOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut l = f.debug_struct("Opt");
        if let Some(m) = self.mss {
            l.field("mss", &m);
        }
        if let Some(w) = self.window_scale {
            l.field("ws", &w);
        }
        if self.sack_permitted {
            l.field("sackOK", &true);
        }
        if let Some((v, e)) = self.timestamps {
            l.field("ts", &(v, e));
        }
        if self.sack_count > 0 {
            l.field("sack", &self.sack_blocks());
        }
        l.finish()
    }
}

/// Size of the fixed TCP header, octets.
pub const TCP_HEADER_BASE: u32 = 20;
/// Size of an IPv4 header without options, octets (for MTU/MSS arithmetic).
pub const IP_HEADER: u32 = 20;

/// One TCP segment. Payload bytes are not materialised: `payload_len` counts them.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct Segment {
    /// Source port.
    pub src_port: u16,
    /// Destination port.
    pub dst_port: u16,
    /// Sequence number of the first octet (of the SYN if SYN is set).
    pub seq: SeqNum,
    /// Acknowledgment number: next sequence number expected; meaningful if `flags.ack()`.
    pub ack: SeqNum,
    /// Control bits.
    pub flags: Flags,
    /// Window field as on the wire: receive window in octets right-shifted by the sender's
    /// window-scale shift (never scaled in a SYN segment, RFC 7323 §2.2).
    pub window: u16,
    /// Payload length, octets.
    pub payload_len: u32,
    /// Options.
    pub options: TcpOptions,
}

impl Segment {
    /// TCP header length in octets: 20 + options, padded up to a multiple of 4.
    ///
    /// Options are counted packed (kind+length+data, then NOP/EOL padding of the total to a
    /// 32-bit boundary), the way a SYN carrying MSS, SACK-permitted, timestamps and window
    /// scale fills exactly 20 octets. Implementations that NOP-align each option separately
    /// (e.g. "NOP NOP SACK") would report up to 4 octets more for a segment with SACK blocks.
    pub fn header_len(&self) -> u32 {
        TCP_HEADER_BASE + self.options.unpadded_len().div_ceil(4) * 4
    }

    /// Sequence space occupied: payload plus one for each of SYN and FIN.
    pub fn seq_len(&self) -> u32 {
        self.payload_len + u32::from(self.flags.syn()) + u32::from(self.flags.fin())
    }

    /// One past the last sequence number occupied.
    pub fn seq_end(&self) -> SeqNum {
        self.seq + self.seq_len()
    }

    /// Octets of the IP datagram carrying this segment (20-octet IPv4 header, no IP options).
    pub fn ip_len(&self) -> u32 {
        IP_HEADER + self.header_len() + self.payload_len
    }
}

impl fmt::Debug for Segment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}>{} {:?} seq={} ack={} win={} len={}",
            self.src_port, self.dst_port, self.flags, self.seq, self.ack, self.window, self.payload_len
        )?;
        if self.options != TcpOptions::default() {
            write!(f, " {:?}", self.options)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lengths() {
        let mut s = Segment::default();
        assert_eq!(s.header_len(), 20);
        s.options.timestamps = Some((1, 2));
        assert_eq!(s.header_len(), 32, "timestamps: 10 octets padded to 12");
        s.options.mss = Some(1460);
        s.options.window_scale = Some(3);
        s.options.sack_permitted = true;
        assert_eq!(s.header_len(), 40, "full SYN: 4+3+2+10 = 19 -> 20 octets of options");
        let mut a = Segment::default();
        a.options.timestamps = Some((1, 2));
        for i in 0..3 {
            assert!(a.options.push_sack(SackBlock { left: SeqNum(i * 10), right: SeqNum(i * 10 + 5) }));
        }
        assert_eq!(a.header_len(), 20 + 36, "TS + 3 SACK blocks = 10 + 26");
        assert_eq!(a.options.sack_blocks().len(), 3);
        let mut b = Segment::default();
        for i in 0..4 {
            assert!(b.options.push_sack(SackBlock { left: SeqNum(i), right: SeqNum(i + 1) }));
        }
        assert!(!b.options.push_sack(SackBlock::default()), "a fifth block does not fit");
        assert_eq!(b.header_len(), 20 + 36, "4 SACK blocks = 34 octets -> 36");
    }

    #[test]
    fn sequence_length_counts_syn_and_fin() {
        let s =
            Segment { seq: SeqNum(u32::MAX), flags: Flags::SYN | Flags::FIN, payload_len: 10, ..Segment::default() };
        assert_eq!(s.seq_len(), 12);
        assert_eq!(s.seq_end(), SeqNum(11));
        assert_eq!(format!("{:?}", s.flags), "SF");
        assert_eq!(s.ip_len(), 20 + 20 + 10);
    }

    #[test]
    fn a_dsack_is_a_first_block_below_the_ack_or_inside_the_second() {
        let b = |l, r| SackBlock { left: SeqNum(l), right: SeqNum(r) };
        let opts = |blocks: &[SackBlock]| {
            let mut o = TcpOptions::default();
            for &x in blocks {
                o.push_sack(x);
            }
            o
        };
        assert_eq!(opts(&[b(100, 200)]).dsack(SeqNum(200)), Some(b(100, 200)), "below the ACK");
        assert_eq!(opts(&[b(100, 200)]).dsack(SeqNum(150)), None, "an ordinary SACK");
        assert_eq!(opts(&[b(500, 600), b(400, 700)]).dsack(SeqNum(300)), Some(b(500, 600)), "inside the 2nd");
        assert_eq!(opts(&[b(500, 600), b(700, 800)]).dsack(SeqNum(300)), None);
        assert_eq!(opts(&[]).dsack(SeqNum(300)), None);
    }
}
