//! Classic pcap capture files of simulated IPv4 traffic, for Wireshark, tshark and tcptrace.
//!
//! Format: libpcap 2.4 with **nanosecond** timestamps (magic `0xa1b23c4d`), link type 101
//! (`LINKTYPE_RAW`: each record starts with the IPv4 header), snaplen 65535. All fields are
//! written little-endian; readers detect the byte order from the magic, and a fixed order
//! keeps files byte-identical across hosts (determinism checks can hash them).
//!
//! The simulator carries headers as described fields and payloads as byte counts only, so
//! each record is a real IPv4 header (correct header checksum, DF set) and a real TCP or UDP
//! header (options encoded exactly, correct checksum), followed by the payload *as zeros*.
//! By default only the headers are captured: the record's `orig_len` is the full datagram and
//! `incl_len` the headers, as a capture taken with a short snaplen, which keeps long runs small.
//! Wireshark still takes segment lengths from the IP total length, so its sequence analysis
//! (retransmissions, duplicate ACKs, SACK) works on such files. Checksums are computed as if
//! the payload were zeros, so they are also correct when [`PcapWriter::set_snap_payload`]
//! writes the zeros out.
//!
//! Timestamps: [`SimTime`] picoseconds are truncated to nanoseconds (pcap cannot hold finer);
//! truncation keeps the order of records, which is all a reader depends on.

use celltrain_core::SimTime;
use celltrain_tcp::{Segment, TcpOptions};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::net::Ipv4Addr;
use std::path::Path;

/// Magic number of a classic pcap file with nanosecond timestamps.
pub const PCAP_MAGIC_NANOS: u32 = 0xa1b2_3c4d;
/// `LINKTYPE_RAW`: records begin with an IPv4 (or IPv6) header, no link-layer header.
pub const LINKTYPE_RAW: u32 = 101;
/// Largest record the file declares it may hold; an IPv4 datagram cannot be longer.
pub const SNAPLEN: u32 = 65_535;
/// TTL used by the [`PacketRecord`] constructors (the common BSD/Linux default).
pub const DEFAULT_TTL: u8 = 64;

const IPV4_HEADER_LEN: usize = 20;
const TCP_BASE_LEN: usize = 20;
const UDP_HEADER_LEN: usize = 8;
/// The TCP data-offset field is 4 bits of 32-bit words: at most 60 octets, 40 of options.
const MAX_TCP_OPTIONS_LEN: usize = 40;
const MAX_HEADERS_LEN: usize = IPV4_HEADER_LEN + TCP_BASE_LEN + MAX_TCP_OPTIONS_LEN;
const IPPROTO_TCP: u8 = 6;
const IPPROTO_UDP: u8 = 17;
const IP_FLAG_DF: u16 = 0x4000;
const NS_PER_SEC: u64 = 1_000_000_000;
const PS_PER_NS: u64 = 1_000;

// TCP option kinds (RFC 793, RFC 7323, RFC 2018).
const OPT_NOP: u8 = 1;
const OPT_MSS: u8 = 2;
const OPT_WSCALE: u8 = 3;
const OPT_SACK_PERMITTED: u8 = 4;
const OPT_SACK: u8 = 5;
const OPT_TIMESTAMPS: u8 = 8;

/// The transport header carried by a [`PacketRecord`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// A TCP segment: ports, sequence numbers, flags, window and options are taken from it.
    Tcp(Segment),
    /// A UDP datagram header.
    Udp {
        /// Source port.
        src_port: u16,
        /// Destination port.
        dst_port: u16,
    },
}

/// One IPv4 datagram to capture: header fields plus the transport header and a payload
/// length (payload bytes are not materialised).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PacketRecord {
    /// IPv4 source address.
    pub src: Ipv4Addr,
    /// IPv4 destination address.
    pub dst: Ipv4Addr,
    /// IPv4 identification field.
    pub ip_id: u16,
    /// IPv4 time to live.
    pub ttl: u8,
    /// Transport header.
    pub transport: Transport,
    /// Transport payload length, octets. For TCP it must equal the segment's `payload_len`
    /// (checked by [`PcapWriter::write`]), so the two can never tell different stories.
    pub payload_len: u32,
}

impl PacketRecord {
    /// A TCP datagram carrying `seg`, with IP id 0 and TTL [`DEFAULT_TTL`].
    pub fn tcp(src: Ipv4Addr, dst: Ipv4Addr, seg: Segment) -> Self {
        PacketRecord {
            src,
            dst,
            ip_id: 0,
            ttl: DEFAULT_TTL,
            transport: Transport::Tcp(seg),
            payload_len: seg.payload_len,
        }
    }

    /// A UDP datagram with `payload_len` octets of payload, IP id 0 and TTL [`DEFAULT_TTL`].
    pub fn udp(src: Ipv4Addr, dst: Ipv4Addr, src_port: u16, dst_port: u16, payload_len: u32) -> Self {
        PacketRecord {
            src,
            dst,
            ip_id: 0,
            ttl: DEFAULT_TTL,
            transport: Transport::Udp { src_port, dst_port },
            payload_len,
        }
    }
}

/// TCP header length as this writer encodes `seg`: 20 octets plus the options, packed and
/// padded to a 4-octet boundary. `None` if the options exceed the 40 octets a TCP header can
/// hold (e.g. timestamps with four SACK blocks), which [`PcapWriter::write`] rejects.
///
/// Agrees with [`Segment::header_len`] whenever it returns `Some`, so octet and cell counts
/// in the simulator match the captured headers.
pub fn segment_header_len(seg: &Segment) -> Option<u32> {
    let mut buf = [0u8; MAX_TCP_OPTIONS_LEN];
    encode_tcp_options(&seg.options, &mut buf).ok().map(|n| (TCP_BASE_LEN + n) as u32)
}

/// Writes [`PacketRecord`]s to a classic nanosecond pcap stream.
///
/// Records should be written in non-decreasing time order: readers accept any order, but
/// Wireshark's TCP analysis assumes capture order is time order.
#[derive(Debug)]
pub struct PcapWriter<W: Write> {
    w: W,
    snap_payload: bool,
    records: u64,
}

impl PcapWriter<BufWriter<File>> {
    /// Creates (truncates) the file at `path` and writes the global header. Buffered: call
    /// [`PcapWriter::finish`] to flush and see write errors.
    pub fn create(path: impl AsRef<Path>) -> io::Result<Self> {
        PcapWriter::new(BufWriter::new(File::create(path)?))
    }
}

impl<W: Write> PcapWriter<W> {
    /// Writes the 24-octet global header to `w`. Payloads are not captured (see
    /// [`PcapWriter::set_snap_payload`]).
    pub fn new(mut w: W) -> io::Result<Self> {
        let mut h = [0u8; 24];
        h[0..4].copy_from_slice(&PCAP_MAGIC_NANOS.to_le_bytes());
        h[4..6].copy_from_slice(&2u16.to_le_bytes()); // version major
        h[6..8].copy_from_slice(&4u16.to_le_bytes()); // version minor
                                                      // 8..16: thiszone and sigfigs, both 0 (times are simulation-relative).
        h[16..20].copy_from_slice(&SNAPLEN.to_le_bytes());
        h[20..24].copy_from_slice(&LINKTYPE_RAW.to_le_bytes());
        w.write_all(&h)?;
        Ok(PcapWriter { w, snap_payload: false, records: 0 })
    }

    /// When true, later records include the payload as zero octets (`incl_len == orig_len`);
    /// when false (the default) only the headers are captured.
    pub fn set_snap_payload(&mut self, snap_payload: bool) {
        self.snap_payload = snap_payload;
    }

    /// Whether payloads are written out (see [`PcapWriter::set_snap_payload`]).
    pub fn snap_payload(&self) -> bool {
        self.snap_payload
    }

    /// Number of records written so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Appends one record stamped `time`.
    ///
    /// Fails with `InvalidInput` (writing nothing) if the datagram exceeds 65535 octets, the
    /// TCP options exceed 40 octets, or a TCP record's `payload_len` differs from its
    /// segment's.
    pub fn write(&mut self, time: SimTime, rec: &PacketRecord) -> io::Result<()> {
        let mut hdr = [0u8; MAX_HEADERS_LEN];
        let hdr_len = encode_headers(rec, &mut hdr)?;
        // encode_headers has checked that the whole datagram fits in 16 bits.
        let orig_len = hdr_len as u32 + rec.payload_len;
        let incl_len = if self.snap_payload { orig_len } else { hdr_len as u32 };

        let ns = time.as_picos() / PS_PER_NS; // truncation: see the module docs
        let secs = u32::try_from(ns / NS_PER_SEC)
            .map_err(|_| invalid("timestamp beyond the 32-bit seconds of classic pcap"))?;
        let mut rh = [0u8; 16];
        rh[0..4].copy_from_slice(&secs.to_le_bytes());
        rh[4..8].copy_from_slice(&((ns % NS_PER_SEC) as u32).to_le_bytes());
        rh[8..12].copy_from_slice(&incl_len.to_le_bytes());
        rh[12..16].copy_from_slice(&orig_len.to_le_bytes());
        self.w.write_all(&rh)?;
        self.w.write_all(&hdr[..hdr_len])?;
        if self.snap_payload {
            write_zeros(&mut self.w, rec.payload_len as usize)?;
        }
        self.records += 1;
        Ok(())
    }

    /// Flushes and returns the underlying writer (surfacing any buffered write error).
    pub fn finish(mut self) -> io::Result<W> {
        self.w.flush()?;
        Ok(self.w)
    }

    /// Returns the underlying writer without flushing it.
    pub fn into_inner(self) -> W {
        self.w
    }
}

fn invalid(msg: &'static str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, msg)
}

fn write_zeros<W: Write>(w: &mut W, mut n: usize) -> io::Result<()> {
    // A static block: no allocation per record.
    static ZEROS: [u8; 1024] = [0; 1024];
    while n > 0 {
        let k = n.min(ZEROS.len());
        w.write_all(&ZEROS[..k])?;
        n -= k;
    }
    Ok(())
}

/// Encodes the IPv4 and transport headers of `rec` into `out`; returns their length.
fn encode_headers(rec: &PacketRecord, out: &mut [u8; MAX_HEADERS_LEN]) -> io::Result<usize> {
    let (proto, l4_len) = match &rec.transport {
        Transport::Tcp(seg) => {
            if seg.payload_len != rec.payload_len {
                return Err(invalid("PacketRecord.payload_len differs from the TCP segment's payload_len"));
            }
            let l4 = &mut out[IPV4_HEADER_LEN..];
            (IPPROTO_TCP, encode_tcp(seg, l4)?)
        }
        Transport::Udp { src_port, dst_port } => {
            let l4 = &mut out[IPV4_HEADER_LEN..IPV4_HEADER_LEN + UDP_HEADER_LEN];
            l4[0..2].copy_from_slice(&src_port.to_be_bytes());
            l4[2..4].copy_from_slice(&dst_port.to_be_bytes());
            // Length (4..6) is filled below once checked; checksum (6..8) stays 0 for now.
            (IPPROTO_UDP, UDP_HEADER_LEN)
        }
    };
    let total = u16::try_from(IPV4_HEADER_LEN as u64 + l4_len as u64 + u64::from(rec.payload_len))
        .map_err(|_| invalid("IPv4 datagram longer than 65535 octets"))?;
    // Transport length (header + payload) for the UDP length field and the pseudo-header;
    // cannot overflow since `total` fitted.
    let seg_len = total - IPV4_HEADER_LEN as u16;

    let ip = &mut out[..IPV4_HEADER_LEN];
    ip[0] = 0x45; // version 4, IHL 5 words: no IP options
    ip[1] = 0; // DSCP/ECN
    ip[2..4].copy_from_slice(&total.to_be_bytes());
    ip[4..6].copy_from_slice(&rec.ip_id.to_be_bytes());
    // DF: TCP does path-MTU discovery and AAL5 never fragments, so no datagram is fragmented.
    ip[6..8].copy_from_slice(&IP_FLAG_DF.to_be_bytes());
    ip[8] = rec.ttl;
    ip[9] = proto;
    ip[10..12].fill(0);
    ip[12..16].copy_from_slice(&rec.src.octets());
    ip[16..20].copy_from_slice(&rec.dst.octets());
    let ip_sum = !fold(sum_be16(ip, 0));
    ip[10..12].copy_from_slice(&ip_sum.to_be_bytes());

    let l4 = &mut out[IPV4_HEADER_LEN..IPV4_HEADER_LEN + l4_len];
    if proto == IPPROTO_UDP {
        l4[4..6].copy_from_slice(&seg_len.to_be_bytes());
    }
    // Pseudo-header (RFC 793 §3.1, RFC 768): addresses, protocol, transport length. The
    // payload is zeros and adds nothing to a ones'-complement sum, so the header suffices.
    let mut pseudo = [0u8; 12];
    pseudo[0..4].copy_from_slice(&rec.src.octets());
    pseudo[4..8].copy_from_slice(&rec.dst.octets());
    pseudo[9] = proto;
    pseudo[10..12].copy_from_slice(&seg_len.to_be_bytes());
    let mut csum = !fold(sum_be16(l4, sum_be16(&pseudo, 0)));
    if proto == IPPROTO_UDP && csum == 0 {
        // RFC 768: a computed zero is sent as all ones; zero means "no checksum".
        csum = 0xffff;
    }
    let at = if proto == IPPROTO_TCP { 16 } else { 6 };
    l4[at..at + 2].copy_from_slice(&csum.to_be_bytes());
    Ok(IPV4_HEADER_LEN + l4_len)
}

/// Encodes the TCP header of `seg` with a zero checksum into `out`; returns its length.
fn encode_tcp(seg: &Segment, out: &mut [u8]) -> io::Result<usize> {
    let mut opts = [0u8; MAX_TCP_OPTIONS_LEN];
    let opt_len = encode_tcp_options(&seg.options, &mut opts)?;
    let len = TCP_BASE_LEN + opt_len;
    let h = &mut out[..len];
    h[0..2].copy_from_slice(&seg.src_port.to_be_bytes());
    h[2..4].copy_from_slice(&seg.dst_port.to_be_bytes());
    h[4..8].copy_from_slice(&seg.seq.raw().to_be_bytes());
    // The ACK field is meaningless without the ACK flag; real stacks send zero there and
    // Wireshark warns about a nonzero one, so the capture shows zero too.
    let ack = if seg.flags.ack() { seg.ack.raw() } else { 0 };
    h[8..12].copy_from_slice(&ack.to_be_bytes());
    h[12] = ((len / 4) as u8) << 4; // data offset in words; reserved bits zero
    h[13] = seg.flags.bits();
    h[14..16].copy_from_slice(&seg.window.to_be_bytes());
    h[16..20].fill(0); // checksum, filled by the caller; urgent pointer (URG never set)
    h[20..].copy_from_slice(&opts[..opt_len]);
    Ok(len)
}

/// Appends options, spending padding octets on BSD-style NOP alignment only while they last.
struct OptWriter<'a> {
    buf: &'a mut [u8; MAX_TCP_OPTIONS_LEN],
    len: usize,
    spare: usize,
}

impl OptWriter<'_> {
    fn put(&mut self, bytes: &[u8]) {
        self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }
    /// NOPs until `len % modulus == rem` (FreeBSD `tcp_addoptions`), if padding remains.
    fn align(&mut self, modulus: usize, rem: usize) {
        while self.len % modulus != rem && self.spare > 0 {
            self.put(&[OPT_NOP]);
            self.spare -= 1;
        }
    }
}

/// Encodes `opts` into `out`; returns the padded length (a multiple of 4).
///
/// The length is exactly the packed size rounded up to 4, as [`Segment::header_len`] counts
/// it. Within that, options follow FreeBSD's order and alignment (MSS, NOP WS, SACK-permitted,
/// NOP NOP TS, NOP NOP SACK) as far as the rounding slack allows: a full SYN comes out as
/// FreeBSD sends it and timestamps alone as "NOP NOP TS", while timestamps plus SACK blocks
/// are sent unaligned ("TS SACK"), where FreeBSD would spend 4 more octets.
fn encode_tcp_options(opts: &TcpOptions, out: &mut [u8; MAX_TCP_OPTIONS_LEN]) -> io::Result<usize> {
    let unpadded = opts.unpadded_len() as usize;
    let total = unpadded.div_ceil(4) * 4;
    if total > MAX_TCP_OPTIONS_LEN {
        return Err(invalid("TCP options exceed 40 octets"));
    }
    let mut w = OptWriter { buf: out, len: 0, spare: total - unpadded };
    if let Some(mss) = opts.mss {
        let [hi, lo] = mss.to_be_bytes();
        w.put(&[OPT_MSS, 4, hi, lo]);
    }
    if let Some(shift) = opts.window_scale {
        w.align(2, 1);
        w.put(&[OPT_WSCALE, 3, shift]);
    }
    if opts.sack_permitted {
        w.align(2, 0);
        w.put(&[OPT_SACK_PERMITTED, 2]);
    }
    if let Some((val, ecr)) = opts.timestamps {
        w.align(4, 2);
        w.put(&[OPT_TIMESTAMPS, 10]);
        w.put(&val.to_be_bytes());
        w.put(&ecr.to_be_bytes());
    }
    let blocks = opts.sack_blocks();
    if !blocks.is_empty() {
        w.align(4, 2);
        w.put(&[OPT_SACK, (2 + 8 * blocks.len()) as u8]);
        for b in blocks {
            w.put(&b.left.raw().to_be_bytes());
            w.put(&b.right.raw().to_be_bytes());
        }
    }
    // End-of-option-list then padding: both are zero octets (RFC 793 §3.1).
    let end = w.len;
    out[end..total].fill(0);
    Ok(total)
}

/// Adds `data` as big-endian 16-bit words (odd tail padded with a zero octet) to `acc`.
fn sum_be16(data: &[u8], mut acc: u32) -> u32 {
    let mut words = data.chunks_exact(2);
    for w in &mut words {
        acc += u32::from(u16::from_be_bytes([w[0], w[1]]));
    }
    if let [last] = words.remainder() {
        acc += u32::from(*last) << 8;
    }
    acc
}

/// Folds the carries of a 32-bit accumulator into a 16-bit ones'-complement sum.
fn fold(mut acc: u32) -> u16 {
    while acc > 0xffff {
        acc = (acc & 0xffff) + (acc >> 16);
    }
    acc as u16
}
