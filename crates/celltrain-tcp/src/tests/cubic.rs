//! CUBIC on the wire: after one loss on a long path it regains its window far sooner than
//! RFC 5681's linear increase, with the same loss recovery and the same slow start before.

use super::pair::{ms, Pair, Side};
use crate::{CcKind, DelayedAck, MssChoice, Policies, RecoveryKind, SeqNum, TcpConfig, TimerGranularity};
use celltrain_core::{SimDuration, SimTime};

/// MSS 1000, RFC 6298 timers, 8 MB buffers, 10-segment initial window, the receiver's ACKs
/// as `delayed_ack` says.
pub(super) fn config(cc: CcKind, delayed_ack: DelayedAck) -> TcpConfig {
    TcpConfig {
        policies: Policies { cc, recovery: RecoveryKind::Sack },
        mss: MssChoice::Fixed(1000),
        timestamps: false,
        window_scaling: true,
        send_buffer_bytes: 8 << 20,
        recv_buffer_bytes: 8 << 20,
        delayed_ack,
        timer_granularity: TimerGranularity::Exact,
        initial_cwnd_segments: 10,
        ..TcpConfig::default()
    }
}

/// A bulk sender at 100 Mbit/s on a 200 ms round trip whose 600th data segment is lost once,
/// in slow start.
pub(super) fn one_loss_on_a_long_path(cfg: TcpConfig) -> Pair {
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
    p
}

/// What one run showed.
#[derive(Debug, PartialEq)]
struct Regain {
    /// The window just before the fast retransmit, octets.
    before: u32,
    /// ssthresh set by the fast retransmit, octets.
    ssthresh: u32,
    /// When the fast retransmit happened.
    repaired: SimTime,
    /// When the window first stood at `before` again.
    back: Option<SimTime>,
}

/// [`one_loss_on_a_long_path`], an ACK per segment.
fn regain(cc: CcKind) -> Regain {
    let mut p = one_loss_on_a_long_path(config(cc, DelayedAck::Off));
    let mut r = Regain { before: 0, ssthresh: 0, repaired: SimTime::ZERO, back: None };
    while p.now < ms(40_000) && p.step() {
        if r.ssthresh == 0 {
            if p.a.stats().fast_retransmits > 0 {
                (r.repaired, r.ssthresh) = (p.now, p.a.ssthresh());
            } else {
                r.before = p.a.cwnd();
            }
        } else if p.a.cwnd() >= r.before {
            r.back = Some(p.now);
            break;
        }
    }
    r
}

#[test]
fn after_a_loss_cubic_regains_its_window_sooner_than_reno() {
    let cubic = regain(CcKind::Cubic);
    let reno = regain(CcKind::Rfc5681);
    assert_eq!((cubic.before, cubic.repaired), (reno.before, reno.repaired), "the same slow start");
    // Slow start from 10 segments doubles each round trip: segments 311..630 leave in the
    // sixth, so the duplicates for 600 come when the ACKs of 311..599 have raised cwnd from
    // 320 to about 609 segments, with about 630 in flight.
    assert!((600_000..=620_000).contains(&cubic.before), "{cubic:?}");
    // ssthresh = 0.7·FlightSize for CUBIC, 0.5·FlightSize for Reno.
    assert_eq!(f64::from(cubic.ssthresh) / f64::from(reno.ssthresh), 1.4, "{cubic:?} {reno:?}");
    // CUBIC: W_max = the window before, cwnd_epoch = ssthresh after a round trip of recovery,
    // K = ∛((W_max − cwnd_epoch)/C) ≈ 7.7 s from the end of recovery (a round trip or so
    // after the retransmission). The window aims one round trip ahead but closes only the
    // gap to that target each round trip, so it reaches W_max within a few round trips of K.
    let k = (f64::from(cubic.before - cubic.ssthresh) / 1000.0 / 0.4).cbrt();
    let took = (cubic.back.expect("CUBIC regains its window") - cubic.repaired).as_secs_f64();
    assert!((k..k + 0.8).contains(&took), "{took} s vs K = {k} s");
    // Reno adds one segment per round trip from about 315: some 290 round trips, 58 s.
    assert_eq!(reno.back, None, "Reno has not regained the window in 40 s: {reno:?}");
}
