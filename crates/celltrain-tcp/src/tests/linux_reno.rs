//! Linux's Reno on the wire against a receiver that delays its ACKs (one per two segments):
//! counting octets, it grows one segment per round trip in congestion avoidance, where
//! RFC 5681's per-ACK increase of SMSS²/cwnd grows half a segment.

use super::pair::{ms, Pair, Side};
use crate::{CcKind, DelayedAck, MssChoice, Policies, RecoveryKind, SeqNum, TcpConfig, TimerGranularity};
use celltrain_core::{SimDuration, SimTime};

/// MSS 1000, RFC 6298 timers, 8 MB buffers, 10-segment initial window, BSD delayed ACKs.
fn config(cc: CcKind) -> TcpConfig {
    TcpConfig {
        policies: Policies { cc, recovery: RecoveryKind::Sack },
        mss: MssChoice::Fixed(1000),
        timestamps: false,
        window_scaling: true,
        send_buffer_bytes: 8 << 20,
        recv_buffer_bytes: 8 << 20,
        delayed_ack: DelayedAck::Bsd,
        timer_granularity: TimerGranularity::Exact,
        initial_cwnd_segments: 10,
        ..TcpConfig::default()
    }
}

/// A bulk sender at 100 Mbit/s on a 200 ms round trip whose 600th data segment is lost once:
/// the window at the end of recovery and `after` later, octets.
fn growth_after_loss(cc: CcKind, after: SimDuration) -> (u32, u32) {
    let cfg = config(cc);
    let mut p = Pair::new(cfg.clone(), cfg, SimDuration::from_millis(100));
    p.rate_bps = Some(100_000_000);
    let lost = SeqNum(1001 + 599 * 1000);
    let mut done = false;
    p.drop = Box::new(move |side, s| {
        let hit = side == Side::A && s.seq == lost && s.payload_len > 0 && !done;
        done |= hit;
        hit
    });
    p.write(Side::A, 1 << 40);
    let mut recovered: Option<(SimTime, u32)> = None;
    while p.now < ms(60_000) && p.step() {
        match recovered {
            None if p.a.stats().fast_retransmits > 0 && p.a.cwnd() <= p.a.ssthresh() => {
                recovered = Some((p.now, p.a.cwnd()));
            }
            Some((t, w)) if p.now >= t + after => return (w, p.a.cwnd()),
            _ => {}
        }
    }
    panic!("{cc:?}: no recovery, or the run ended early: {recovered:?}");
}

#[test]
fn with_delayed_acks_linux_reno_grows_a_segment_per_round_trip_and_rfc5681_half() {
    let ten_s = SimDuration::from_secs(10);
    // 10 s is 50 round trips of 200 ms (the window, some 300 segments, never queues);
    // measured: 48 segments for Linux's Reno, 21 for RFC 5681.
    let (from, to) = growth_after_loss(CcKind::LinuxReno, ten_s);
    let linux = (to - from) / 1000;
    assert!((46..=51).contains(&linux), "Linux's Reno: {from} -> {to}");
    let (from, to) = growth_after_loss(CcKind::Rfc5681, ten_s);
    let rfc = (to - from) / 1000;
    assert!((20..=26).contains(&rfc), "RFC 5681: {from} -> {to}");
}
