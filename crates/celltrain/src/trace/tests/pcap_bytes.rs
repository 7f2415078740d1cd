//! Byte-exact checks of the pcap writer: global header, record headers, IPv4/TCP/UDP headers,
//! option encodings and checksums.

use super::super::pcap::{segment_header_len, PacketRecord, PcapWriter};
use super::ones_sum;
use celltrain_core::{SimDuration, SimTime};
use celltrain_tcp::{Flags, SackBlock, Segment, SeqNum, TcpOptions};
use std::io::ErrorKind;
use std::net::Ipv4Addr;

const A: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 1);
const B: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);

/// A parsed record: (seconds, nanoseconds, incl_len, orig_len, captured bytes).
type Rec = (u32, u32, u32, u32, Vec<u8>);

fn le32(b: &[u8]) -> u32 {
    u32::from_le_bytes(b[..4].try_into().unwrap())
}

/// Splits a whole pcap stream (after the 24-octet global header) into records.
fn records(file: &[u8]) -> Vec<Rec> {
    let mut out = Vec::new();
    let mut p = 24;
    while p < file.len() {
        let (s, ns, incl, orig) = (le32(&file[p..]), le32(&file[p + 4..]), le32(&file[p + 8..]), le32(&file[p + 12..]));
        out.push((s, ns, incl, orig, file[p + 16..p + 16 + incl as usize].to_vec()));
        p += 16 + incl as usize;
    }
    assert_eq!(p, file.len(), "records must tile the file exactly");
    out
}

/// Writes `recs` (each at its time) into an in-memory capture.
fn capture(snap_payload: bool, recs: &[(SimTime, PacketRecord)]) -> Vec<u8> {
    let mut w = PcapWriter::new(Vec::new()).unwrap();
    w.set_snap_payload(snap_payload);
    for (t, r) in recs {
        w.write(*t, r).unwrap();
    }
    assert_eq!(w.records(), recs.len() as u64);
    w.finish().unwrap()
}

/// Ones'-complement sum over pseudo-header + transport bytes (captured part, then zeros).
fn transport_sum(pkt: &[u8], orig_len: usize) -> u16 {
    let mut buf = Vec::new();
    buf.extend_from_slice(&pkt[12..20]); // src, dst
    buf.extend_from_slice(&[0, pkt[9]]);
    buf.extend_from_slice(&((orig_len - 20) as u16).to_be_bytes());
    buf.extend_from_slice(&pkt[20..]);
    buf.resize(12 + orig_len - 20, 0); // the uncaptured payload is zeros by definition
    ones_sum(&buf)
}

fn full_syn() -> Segment {
    let mut s = Segment {
        src_port: 40_000,
        dst_port: 80,
        seq: SeqNum(0x0102_0304),
        ack: SeqNum(99), // must not appear: no ACK flag
        flags: Flags::SYN,
        window: 0xffff,
        ..Segment::default()
    };
    s.options.mss = Some(1460);
    s.options.window_scale = Some(7);
    s.options.sack_permitted = true;
    s.options.timestamps = Some((0x1122_3344, 0));
    s
}

#[test]
fn global_header_bytes() {
    let file = PcapWriter::new(Vec::new()).unwrap().into_inner();
    #[rustfmt::skip]
    let expected = [
        0x4d, 0x3c, 0xb2, 0xa1, // magic 0xa1b23c4d (nanosecond), little-endian
        2, 0, 4, 0,             // version 2.4
        0, 0, 0, 0,             // thiszone
        0, 0, 0, 0,             // sigfigs
        0xff, 0xff, 0, 0,       // snaplen 65535
        101, 0, 0, 0,           // LINKTYPE_RAW
    ];
    assert_eq!(file, expected);
}

#[test]
fn tcp_syn_with_all_options_is_byte_exact() {
    let seg = full_syn();
    let mut rec = PacketRecord::tcp(A, B, seg);
    rec.ip_id = 0x1234;
    let t = SimTime::ZERO + SimDuration::from_millis(1500) + SimDuration::from_picos(7);
    let file = capture(false, &[(t, rec)]);
    let recs = records(&file);
    assert_eq!(recs.len(), 1);
    let (s, ns, incl, orig, p) = &recs[0];
    assert_eq!((*s, *ns), (1, 500_000_000), "1.5 s + 7 ps truncates to 1 s 500000000 ns");
    assert_eq!((*incl, *orig), (60, 60), "20 IP + 40 TCP, no payload");
    assert_eq!(segment_header_len(&seg), Some(40));
    assert_eq!(seg.header_len(), 40);

    #[rustfmt::skip]
    let ip_expected = [
        0x45, 0x00, 0x00, 60,   // v4 IHL 5, TOS, total length 60
        0x12, 0x34, 0x40, 0x00, // id, DF
        64, 6, p[10], p[11],    // TTL, TCP, checksum (verified below)
        10, 0, 0, 1, 10, 0, 0, 2,
    ];
    assert_eq!(p[..20], ip_expected);
    assert_eq!(ones_sum(&p[..20]), 0xffff, "IPv4 header checksum must verify");
    assert_ne!(u16::from_be_bytes([p[10], p[11]]), 0);

    #[rustfmt::skip]
    let tcp_expected = [
        0x9c, 0x40, 0x00, 80,   // ports 40000 -> 80
        1, 2, 3, 4,             // seq
        0, 0, 0, 0,             // ack: zero without the ACK flag
        0xa0, 0x02, 0xff, 0xff, // data offset 10 words, SYN, window
        p[36], p[37], 0, 0,     // checksum (verified below), urgent pointer
        2, 4, 0x05, 0xb4,       // MSS 1460
        1, 3, 3, 7,             // NOP, window scale 7
        4, 2,                   // SACK permitted
        8, 10, 0x11, 0x22, 0x33, 0x44, 0, 0, 0, 0, // timestamps
    ];
    assert_eq!(p[20..], tcp_expected);
    assert_eq!(transport_sum(p, 60), 0xffff, "TCP checksum must verify over the pseudo-header");
}

#[test]
fn udp_datagram_matches_a_known_ipv4_checksum() {
    // The worked example of the IPv4 header checksum (Wikipedia, "Internet checksum"):
    // 4500 0073 0000 4000 4011 ____ c0a8 0001 c0a8 00c7 has checksum 0xb861.
    let rec = PacketRecord {
        ttl: 64,
        ..PacketRecord::udp(Ipv4Addr::new(192, 168, 0, 1), Ipv4Addr::new(192, 168, 0, 199), 5000, 53, 0x73 - 28)
    };
    for snap in [false, true] {
        let file = capture(snap, &[(SimTime::from_picos(2_000_000_000_001), rec)]);
        let (s, ns, incl, orig, p) = records(&file).remove(0);
        assert_eq!((s, ns), (2, 0));
        assert_eq!(orig, 0x73);
        assert_eq!(incl, if snap { 0x73 } else { 28 });
        assert_eq!(p[..4], [0x45, 0, 0, 0x73]);
        assert_eq!(p[9], 17);
        assert_eq!(p[10..12], [0xb8, 0x61], "known IPv4 checksum");
        assert_eq!(p[20..26], [0x13, 0x88, 0, 53, 0, 0x73 - 20], "ports and UDP length");
        assert_eq!(transport_sum(&p, 0x73), 0xffff, "UDP checksum must verify (snap={snap})");
        if snap {
            assert!(p[28..].iter().all(|&b| b == 0), "payload is written as zeros");
        }
    }
}

#[test]
fn record_timestamps_split_into_seconds_and_nanoseconds() {
    let ps = |p: u64| SimTime::from_picos(p);
    let cases = [
        (ps(0), (0, 0)),
        (ps(999), (0, 0)),
        (ps(1_000_000_000_000 - 1), (0, 999_999_999)),
        (ps(1_000_000_000_000), (1, 0)),
        (ps(3_123_456_789_999), (3, 123_456_789)),
        (ps(86_400 * 1_000_000_000_000 + 5_000), (86_400, 5)),
        (SimTime::MAX, (18_446_744, 73_709_551)),
    ];
    let udp = PacketRecord::udp(A, B, 1, 2, 0);
    let recs: Vec<_> = cases.iter().map(|(t, _)| (*t, udp)).collect();
    let got: Vec<_> = records(&capture(false, &recs)).into_iter().map(|r| (r.0, r.1)).collect();
    let want: Vec<_> = cases.iter().map(|c| c.1).collect();
    assert_eq!(got, want);
}

#[test]
fn data_segment_checksum_is_right_with_and_without_payload() {
    for payload_len in [1000, 1001] {
        let mut seg = Segment {
            src_port: 40_000,
            dst_port: 5001,
            seq: SeqNum(0xffff_ff00),
            ack: SeqNum(0x8000_0001),
            flags: Flags::ACK | Flags::PSH,
            window: 513,
            payload_len,
            ..Segment::default()
        };
        seg.options.timestamps = Some((7, 6));
        let rec = PacketRecord::tcp(A, B, seg);
        let short = records(&capture(false, &[(SimTime::ZERO, rec)])).remove(0);
        let full = records(&capture(true, &[(SimTime::ZERO, rec)])).remove(0);
        let orig = 20 + 32 + payload_len;
        assert_eq!((short.2, short.3), (52, orig), "headers only: incl_len < orig_len");
        assert_eq!((full.2, full.3), (orig, orig));
        assert_eq!(short.4[..], full.4[..52], "same headers either way");
        assert_eq!(short.4[2..4], (orig as u16).to_be_bytes(), "IP total length counts the payload");
        assert_eq!(short.4[32], 0x80, "data offset 8 words");
        assert_eq!(short.4[33], 0x18, "PSH|ACK");
        assert_eq!(short.4[28..32], [0x80, 0, 0, 1], "ack number");
        assert_eq!(short.4[40..52], [1, 1, 8, 10, 0, 0, 0, 7, 0, 0, 0, 6], "NOP NOP TS");
        assert_eq!(transport_sum(&full.4, orig as usize), 0xffff, "checksum over real zero payload");
        assert_eq!(transport_sum(&short.4, orig as usize), 0xffff);
    }
}

/// Decodes an option block (test-side parser, independent of the writer).
fn decode_options(b: &[u8]) -> TcpOptions {
    let mut o = TcpOptions::default();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            0 => {
                assert!(b[i..].iter().all(|&x| x == 0), "only zero padding after EOL: {b:?}");
                break;
            }
            1 => i += 1,
            kind => {
                let len = usize::from(b[i + 1]);
                let d = &b[i + 2..i + len];
                let be = |k: usize| u32::from_be_bytes(d[k..k + 4].try_into().unwrap());
                match (kind, len) {
                    (2, 4) => o.mss = Some(u16::from_be_bytes([d[0], d[1]])),
                    (3, 3) => o.window_scale = Some(d[0]),
                    (4, 2) => o.sack_permitted = true,
                    (8, 10) => o.timestamps = Some((be(0), be(4))),
                    (5, _) if len % 8 == 2 => {
                        for k in 0..(len - 2) / 8 {
                            assert!(o.push_sack(SackBlock { left: SeqNum(be(8 * k)), right: SeqNum(be(8 * k + 4)) }));
                        }
                    }
                    _ => panic!("bad option kind {kind} len {len} in {b:?}"),
                }
                i += len;
            }
        }
    }
    o
}

#[test]
fn header_len_agrees_with_segment_and_options_round_trip() {
    let mut checked = 0;
    for bits in 0..16u8 {
        for sacks in 0..=4u32 {
            let mut seg = Segment { flags: Flags::ACK, ..Segment::default() };
            let o = &mut seg.options;
            o.mss = (bits & 1 != 0).then_some(536);
            o.window_scale = (bits & 2 != 0).then_some(14);
            o.sack_permitted = bits & 4 != 0;
            o.timestamps = (bits & 8 != 0).then_some((0xdead_beef, 0x0102_0304));
            for k in 0..sacks {
                o.push_sack(SackBlock { left: SeqNum(1000 * k), right: SeqNum(1000 * k + 500) });
            }
            let fits = seg.header_len() <= 60;
            assert_eq!(segment_header_len(&seg), fits.then_some(seg.header_len()), "{seg:?}");
            let mut w = PcapWriter::new(Vec::new()).unwrap();
            let res = w.write(SimTime::ZERO, &PacketRecord::tcp(A, B, seg));
            if !fits {
                assert_eq!(res.unwrap_err().kind(), ErrorKind::InvalidInput);
                assert_eq!(w.into_inner().len(), 24, "a rejected record writes nothing");
                continue;
            }
            res.unwrap();
            let p = records(&w.finish().unwrap()).remove(0).4;
            assert_eq!(p.len() as u32, 20 + seg.header_len());
            assert_eq!(u32::from(p[32] >> 4) * 4, seg.header_len(), "data offset");
            assert_eq!(decode_options(&p[40..]), seg.options, "options round trip");
            assert_eq!(transport_sum(&p, p.len()), 0xffff);
            checked += 1;
        }
    }
    // 14 of the 80 combinations exceed 40 octets (counted by hand: TS with 4 blocks, and
    // SYN-only options piled onto 3 or 4 blocks); the rest must all have been checked.
    assert_eq!(checked, 80 - 14);
}

#[test]
fn option_layouts_follow_bsd_where_the_padding_allows() {
    let layout = |f: &dyn Fn(&mut TcpOptions)| {
        let mut seg = Segment::default();
        f(&mut seg.options);
        records(&capture(false, &[(SimTime::ZERO, PacketRecord::tcp(A, B, seg))])).remove(0).4[40..].to_vec()
    };
    let blk = SackBlock { left: SeqNum(0x0a0b_0c0d), right: SeqNum(0x0a0b_0e0d) };
    assert_eq!(layout(&|o| o.timestamps = Some((1, 2))), [1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2]);
    assert_eq!(layout(&|o| assert!(o.push_sack(blk))), [1, 1, 5, 10, 10, 11, 12, 13, 10, 11, 14, 13]);
    assert_eq!(layout(&|o| o.mss = Some(1460)), [2, 4, 5, 0xb4]);
    assert_eq!(
        layout(&|o| {
            o.mss = Some(1460);
            o.window_scale = Some(2);
            o.timestamps = Some((1, 0));
        }),
        [2, 4, 5, 0xb4, 1, 3, 3, 2, 1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 0]
    );
    assert_eq!(
        layout(&|o| {
            o.mss = Some(1460);
            o.window_scale = Some(0);
            o.sack_permitted = true;
        }),
        [2, 4, 5, 0xb4, 1, 3, 3, 0, 4, 2, 0, 0],
        "EOL and zero padding at the end"
    );
    // Timestamps with SACK have no slack (10 + 2 + 8n is a multiple of 4): packed, unaligned.
    let ts_sack = layout(&|o| {
        o.timestamps = Some((1, 2));
        o.push_sack(blk);
    });
    assert_eq!(ts_sack[..12], [8, 10, 0, 0, 0, 1, 0, 0, 0, 2, 5, 10]);
    assert_eq!(ts_sack.len(), 20);
}

#[test]
fn invalid_records_are_rejected_without_writing() {
    let mut w = PcapWriter::new(Vec::new()).unwrap();
    w.set_snap_payload(true);
    let seg = Segment { payload_len: 10, ..Segment::default() };
    let mismatch = PacketRecord { payload_len: 11, ..PacketRecord::tcp(A, B, seg) };
    let too_long_udp = PacketRecord::udp(A, B, 1, 2, 65_535 - 28 + 1);
    let too_long_tcp = PacketRecord::tcp(A, B, Segment { payload_len: 65_535 - 40 + 1, ..Segment::default() });
    for r in [mismatch, too_long_udp, too_long_tcp] {
        assert_eq!(w.write(SimTime::ZERO, &r).unwrap_err().kind(), ErrorKind::InvalidInput, "{r:?}");
    }
    assert_eq!(w.records(), 0);
    w.write(SimTime::ZERO, &PacketRecord::udp(A, B, 1, 2, 65_535 - 28)).unwrap();
    assert_eq!(w.finish().unwrap().len(), 24 + 16 + 65_535, "largest datagram is accepted");
}

#[test]
fn udp_checksum_zero_is_sent_as_all_ones() {
    let mut seen_ffff = 0;
    for dst_port in 0..=u16::MAX {
        let file = capture(false, &[(SimTime::ZERO, PacketRecord::udp(A, B, 7, dst_port, 3))]);
        let p = &records(&file)[0].4;
        let c = u16::from_be_bytes([p[26], p[27]]);
        assert_ne!(c, 0, "zero would mean 'no checksum' (port {dst_port})");
        assert_eq!(transport_sum(p, 31), 0xffff, "port {dst_port}");
        seen_ffff += u32::from(c == 0xffff);
    }
    assert!(seen_ffff >= 1, "some port must hit the computed-zero case");
}

#[test]
fn create_writes_the_same_bytes_to_a_file() {
    let path = std::env::temp_dir().join(format!("trace_scratch_create_{}.pcap", std::process::id()));
    let rec = PacketRecord::tcp(A, B, full_syn());
    let mut w = PcapWriter::create(&path).unwrap();
    w.write(SimTime::from_picos(42_000), &rec).unwrap();
    w.finish().unwrap();
    let on_disk = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(on_disk, capture(false, &[(SimTime::from_picos(42_000), rec)]));
}
