//! RFC 7323 window scaling and timestamps on the wire; segment sizes against the MTU.

use super::millis;
use super::pair::{ms, Pair, Side};
use crate::{SeqNum, TcpConfig, Variant};

#[test]
fn window_scaling_lets_more_than_64_kib_fly() {
    for scaling in [true, false] {
        let cfg = TcpConfig {
            recv_buffer_bytes: 512 * 1024,
            send_buffer_bytes: 1024 * 1024,
            window_scaling: scaling,
            ..TcpConfig::with_variant(Variant::Lite)
        };
        let mut p = Pair::new(cfg.clone(), cfg, millis(50)).bulk(4_000_000);
        p.start();
        let mut max_flight = 0;
        while p.step() {
            max_flight = max_flight.max(p.a.flight_size());
        }
        assert_eq!(p.apps[1].read, 4_000_000);
        let fields: Vec<u16> = p.sent(Side::B).skip(1).map(|r| r.seg.window).collect();
        if scaling {
            assert!(max_flight > 400_000, "flight {max_flight}");
            assert_eq!(p.a.snd_wnd(), 524_288);
            // The field carries 524288 >> 4 while the prompt reader keeps the buffer empty.
            assert!(fields.iter().all(|&w| w == 32_768), "{fields:?}");
        } else {
            assert!(max_flight <= 65_535, "flight {max_flight}");
            assert!(fields.iter().all(|&w| w == 65_535));
        }
    }
}

#[test]
fn timestamps_are_echoed_and_every_new_ack_is_an_rtt_sample() {
    let cfg = TcpConfig::with_variant(Variant::Reno);
    let mut p = Pair::new(cfg.clone(), cfg, millis(120)).bulk(200_000);
    p.start();
    p.run(ms(100_000));
    assert_eq!(p.apps[1].read, 200_000);
    // TSval is tcp_now: slow ticks (500 ms, phase 0) up to and including the send time.
    for r in p.log.iter() {
        let (tsval, _) = r.seg.options.timestamps.unwrap();
        assert_eq!(u64::from(tsval), r.t.as_picos() / 500_000_000_000 + 1);
    }
    // B echoes the TSval of the segment that advanced its window: for in-order data with
    // an ACK per segment pair, the one most recently received.
    let b_ack = p.sent(Side::B).filter(|r| r.seg.payload_len == 0).nth(5).unwrap();
    let echoed = b_ack.seg.options.timestamps.unwrap().1;
    let covered = p.data(Side::A).filter(|r| r.t < b_ack.t && (r.seg.seq + r.seg.payload_len).le(b_ack.seg.ack));
    let last_tsval = covered.last().unwrap().seg.options.timestamps.unwrap().0;
    assert!(echoed <= last_tsval);
    // One RTT sample from the SYN (t_rtt) plus one per ACK of new data (RTTM).
    let mut high = SeqNum(1001);
    let mut new_acks = 0;
    for r in p.sent(Side::B).filter(|r| !r.seg.flags.syn()) {
        if r.seg.ack.gt(high) {
            new_acks += 1;
            high = r.seg.ack;
        }
    }
    assert_eq!(p.a.stats().rtt_samples, 1 + new_acks);
}

#[test]
fn full_sized_segments_fill_the_mtu() {
    for timestamps in [true, false] {
        let cfg = TcpConfig { timestamps, ..TcpConfig::default() };
        let mut p = Pair::new(cfg.clone(), cfg, millis(1)).bulk(100_000);
        p.start();
        p.run(ms(10_000));
        let full = p.data(Side::A).next().unwrap().seg;
        assert_eq!(full.ip_len(), 9180, "timestamps {timestamps}");
        assert_eq!(full.header_len(), if timestamps { 32 } else { 20 });
        assert_eq!(full.payload_len, if timestamps { 9128 } else { 9140 });
    }
}

#[test]
fn sack_blocks_share_the_option_space_with_timestamps() {
    let cfg = TcpConfig {
        initial_cwnd_segments: 16,
        mss: crate::MssChoice::Fixed(512),
        ..TcpConfig::with_variant(Variant::Sack)
    };
    let mut p = Pair::new(cfg.clone(), cfg, millis(10));
    // Lose every other segment of the first flight: up to eight SACK blocks' worth of holes.
    let mut lost = 0;
    p.drop = Box::new(move |side, s| {
        if side == Side::B || s.payload_len == 0 {
            return false;
        }
        let n = (s.seq - SeqNum(1001)) / 500;
        let hit = n.is_multiple_of(2) && n < 16 && lost < 8;
        lost += u32::from(hit);
        hit
    });
    p.write(Side::A, 40 * 500);
    p.run(ms(100_000));
    assert_eq!(p.apps[1].read, 40 * 500);
    let sacks: Vec<_> = p.sent(Side::B).map(|r| r.seg).filter(|s| s.options.sack_count > 0).collect();
    // 10 octets of timestamps leave room for three blocks (2 + 3·8 = 26 ≤ 30).
    assert_eq!(sacks.iter().map(|s| s.options.sack_count).max(), Some(3));
    assert!(sacks.iter().all(|s| s.header_len() <= 60));
    assert_eq!(sacks.iter().map(|s| s.header_len()).max(), Some(20 + 36));
}
