//! Loss recovery on the wire: one 16-segment flight (MSS 512, cwnd 8192, peer window
//! 65535, RTT 20 ms, ACK every segment) with chosen first transmissions dropped.

use super::pair::{ms, Pair, Rec, Side};
use super::{millis, plain};
use crate::{Segment, SeqNum, TcpConfig, Variant};
use celltrain_core::SimTime;

/// Start of segment `n` (1-based) of A's data (ISS 1000).
fn seg(n: u32) -> SeqNum {
    SeqNum(1001 + (n - 1) * 512)
}

/// A 16-segment initial window from A, with the first transmissions of `lost` dropped.
fn flight(variant: Variant, lost: &'static [u32], segments: u64) -> Pair {
    let cfg = TcpConfig { initial_cwnd_segments: 16, ..plain(variant) };
    let mut p = Pair::new(cfg.clone(), cfg, millis(10));
    lose_first_sends(&mut p, lost);
    deliver(p, variant, segments)
}

/// A's data segments numbered in `lost` (1-based) are dropped the first time they are sent.
pub(super) fn lose_first_sends(p: &mut Pair, lost: &'static [u32]) {
    let mut done: Vec<u32> = vec![];
    p.drop = Box::new(move |side, s: &Segment| {
        let hit = side == Side::A && s.payload_len > 0 && lost.iter().any(|&n| s.seq == seg(n) && !done.contains(&n));
        if hit {
            done.push((s.seq - seg(1)) / 512 + 1);
        }
        hit
    });
}

/// Runs a transfer of `segments` segments from A to the end; every byte must arrive.
pub(super) fn deliver(mut p: Pair, variant: Variant, segments: u64) -> Pair {
    p.write(Side::A, segments * 512);
    p.run(ms(100_000));
    assert_eq!(p.apps[1].read, segments * 512, "{variant}: everything delivered");
    p
}

/// Retransmitted segments of A: (time, segment number).
pub(super) fn rexmits(p: &Pair) -> Vec<(SimTime, u32)> {
    let mut high = seg(1);
    let mut out = vec![];
    for r in p.data(Side::A) {
        if r.seg.seq.lt(high) {
            out.push((r.t, (r.seg.seq - seg(1)) / 512 + 1));
        }
        high = high.max(r.seg.seq + r.seg.payload_len);
    }
    out
}

/// A's cwnd after each segment A received at time `t`.
fn cwnd_at(p: &Pair, t: SimTime) -> Vec<u32> {
    p.cwnd_trace.iter().filter(|&&(at, s, _)| at == t && s == Side::A).map(|&(_, _, c)| c).collect()
}

fn new_at(p: &Pair, t: SimTime) -> usize {
    let high = p.data(Side::A).filter(|r| r.t < t).map(|r| r.seg.seq + r.seg.payload_len).fold(seg(1), SeqNum::max);
    p.data(Side::A).filter(|r: &&Rec| r.t == t && r.seg.seq.ge(high)).count()
}

#[test]
fn lite_fast_retransmit_and_recovery_match_reference_vector_7e() {
    // 16 segments at 20 ms; segment 1 lost; 15 duplicate ACKs arrive at 40 ms.
    let p = flight(Variant::Lite, &[1], 40);
    let c = cwnd_at(&p, ms(40));
    assert_eq!(c.len(), 15);
    // Dups 1–2 change nothing; the 3rd: ssthresh = 4096, cwnd = 4096 + 3·512 = 5632;
    // each further dup inflates by 512: 6144, ..., 11776 after the 15th.
    assert_eq!(&c[..3], &[8192, 8192, 5632]);
    assert_eq!(c[14], 11_776);
    assert_eq!(rexmits(&p)[0], (ms(40), 1), "retransmitted at the 3rd duplicate");
    // cwnd 8704 at the 9th dup opens one new segment, ..., 11776: 7 new segments.
    assert_eq!(new_at(&p, ms(40)), 7);
    // The ACK of the retransmission (60 ms) deflates to 4096 and adds a full 512.
    assert_eq!(cwnd_at(&p, ms(60))[0], 4608);
    assert_eq!(p.a.ssthresh(), 4096);
    let s = p.a.stats();
    assert_eq!((s.fast_retransmits, s.timeouts, s.segments_retransmitted), (1, 0, 1));
    assert_eq!(s.dup_acks, 15);
}

#[test]
fn rfc5681_reno_deflates_exactly_to_ssthresh() {
    let p = flight(Variant::Reno, &[1], 40);
    let c = cwnd_at(&p, ms(40));
    // ssthresh = max(FlightSize/2, 2·SMSS) = 8192/2: the same numbers during recovery.
    assert_eq!(&c[..3], &[8192, 8192, 5632]);
    assert_eq!(c[14], 11_776);
    assert_eq!(cwnd_at(&p, ms(60))[0], 4096, "cwnd = ssthresh, no increment on that ACK");
}

#[test]
fn lite_with_exactly_three_dupacks_keeps_the_inflated_window() {
    // 4-segment window, segment 1 lost: exactly three duplicates (from 2, 3, 4).
    let run = |v| {
        let cfg = TcpConfig { initial_cwnd_segments: 4, ..plain(v) };
        let mut p = Pair::new(cfg.clone(), cfg, millis(10));
        let mut once = false;
        p.drop = Box::new(move |side, s| {
            let hit = side == Side::A && s.seq == seg(1) && s.payload_len > 0 && !once;
            once |= hit;
            hit
        });
        p.write(Side::A, 8 * 512);
        p.run(ms(10_000));
        p
    };
    let lite = run(Variant::Lite);
    // ssthresh = max(2048/2/512, 2)·512 = 1024; cwnd = 1024 + 3·512 = 2560.
    assert_eq!(cwnd_at(&lite, ms(40)), [2048, 2048, 2560]);
    // New ACK at 60 ms: t_dupacks = 3 is not > 3, no deflation; 2560 > ssthresh so the
    // congestion-avoidance increment 512·512/2560 = 102 applies.
    assert_eq!(cwnd_at(&lite, ms(60))[0], 2662);
    let reno = run(Variant::Reno);
    assert_eq!(cwnd_at(&reno, ms(60))[0], 1024, "RFC 5681 deflates to ssthresh");
}

#[test]
fn tahoe_fast_retransmit_restarts_from_one_segment() {
    let p = flight(Variant::Tahoe, &[1], 40);
    let c = cwnd_at(&p, ms(40));
    assert_eq!(&c[..3], &[8192, 8192, 512]);
    assert!(c[3..].iter().all(|&w| w == 512), "further duplicates ignored");
    assert_eq!(new_at(&p, ms(40)), 0);
    assert_eq!(p.a.ssthresh(), 4096, "max(min(65535, 8192)/2/512, 2)·512");
    // The ACK of the retransmission acknowledges 1..=16: slow start, cwnd 1024, two new.
    assert_eq!(cwnd_at(&p, ms(60))[0], 1024);
    assert_eq!(new_at(&p, ms(60)), 2);
    assert_eq!(p.a.stats().fast_retransmits, 1);
}

#[test]
fn newreno_partial_ack_retransmits_the_next_hole_at_once() {
    // Segments 2 and 6 lost (losing segment 1 would not fast-retransmit at all: RFC 6582
    // initialises recover to the ISS, and ack − 1 = ISS is not "more than recover").
    let p = flight(Variant::NewReno, &[2, 6], 40);
    let c = cwnd_at(&p, ms(40));
    // 40 ms: ACK of 1 (slow start 8192 → 8704, sends 17, 18); 3 dups (from 3, 4, 5) → FR of 2:
    // FlightSize = 17 segments → ssthresh = 4352, cwnd = 4352 + 3·512 = 5888; 10 more dups
    // (7..=16) → 11008, the last four of which open 19..=22.
    assert_eq!((c[0], c[3], c[13]), (8704, 5888, 11_008));
    assert_eq!(new_at(&p, ms(40)), 6);
    // 60 ms: two dups (17, 18) → 12032; the partial ACK up to 6 (4 segments) retransmits 6
    // at once and deflates: 12032 − 2048 + 512 = 10496.
    let c = cwnd_at(&p, ms(60));
    assert_eq!((c[1], c[2]), (12_032, 10_496));
    assert_eq!(rexmits(&p), [(ms(40), 2), (ms(60), 6)]);
    // 80 ms: two dups (23, 24), then the ACK of the retransmitted 6 covers recover (the
    // end of 18): full ACK, cwnd = ssthresh = 4352; the next ACK is congestion avoidance.
    let c = cwnd_at(&p, ms(80));
    assert_eq!((c[2], c[3]), (4352, 4352 + 512 * 512 / 4352));
    assert_eq!(p.a.ssthresh(), 4352);
    let s = p.a.stats();
    assert_eq!((s.fast_retransmits, s.timeouts, s.segments_retransmitted), (1, 0, 2));
}

#[test]
fn newreno_does_not_fast_retransmit_the_first_segment() {
    let p = flight(Variant::NewReno, &[1], 40);
    let s = p.a.stats();
    assert_eq!((s.fast_retransmits, s.timeouts), (0, 1));
}

#[test]
fn sack_repairs_three_holes_in_one_recovery() {
    let p = flight(Variant::Sack, &[1, 4, 7], 40);
    let r: Vec<u32> = rexmits(&p).into_iter().map(|(_, n)| n).collect();
    assert_eq!(r, [1, 4, 7], "each hole retransmitted once, in order");
    let s = p.a.stats();
    assert_eq!((s.fast_retransmits, s.timeouts), (1, 0));
    // The receiver's ACKs carried SACK blocks, most recent first.
    let acks: Vec<&Segment> = p.sent(Side::B).map(|r| &r.seg).filter(|s| s.options.sack_count > 0).collect();
    let blocks = |s: &Segment| -> Vec<(u32, u32)> {
        s.options.sack_blocks().iter().map(|b| ((b.left - seg(1)) / 512 + 1, (b.right - seg(1)) / 512 + 1)).collect()
    };
    // After 2, 3 (segments 2..=3 held: block [2, 4)), then 5, 6, then 8.
    assert_eq!(blocks(acks[0]), [(2, 3)]);
    assert_eq!(blocks(acks[1]), [(2, 4)]);
    assert_eq!(blocks(acks[2]), [(5, 6), (2, 4)]);
    assert_eq!(blocks(acks[4]), [(8, 9), (5, 7), (2, 4)]);
}

#[test]
fn sack_without_peer_permission_recovers_like_newreno() {
    let cfg = TcpConfig { initial_cwnd_segments: 16, ..plain(Variant::Sack) };
    let peer = plain(Variant::NewReno);
    let mut p = Pair::new(cfg, peer, millis(10));
    let mut n = 0;
    p.drop = Box::new(move |side, s| {
        let hit = side == Side::A && s.payload_len > 0 && (s.seq == seg(2) || s.seq == seg(6)) && n < 2;
        n += u32::from(hit);
        hit
    });
    p.write(Side::A, 40 * 512);
    p.run(ms(10_000));
    assert!(!p.a.negotiated().sack);
    assert_eq!(rexmits(&p), [(ms(40), 2), (ms(60), 6)]);
    assert_eq!(p.a.stats().timeouts, 0);
}
