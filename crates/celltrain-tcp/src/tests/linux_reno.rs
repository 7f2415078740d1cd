//! Linux's Reno on the wire against a receiver that delays its ACKs (one per two segments):
//! counting octets, it grows one segment per round trip in congestion avoidance, where
//! RFC 5681's per-ACK increase of SMSS²/cwnd grows half a segment.

use super::cubic::{config, one_loss_on_a_long_path};
use super::pair::ms;
use crate::{CcKind, DelayedAck};
use celltrain_core::{SimDuration, SimTime};

/// [`one_loss_on_a_long_path`] with a receiver that delays its ACKs: the window at the end
/// of recovery and `after` later, octets.
fn growth_after_loss(cc: CcKind, after: SimDuration) -> (u32, u32) {
    let mut p = one_loss_on_a_long_path(config(cc, DelayedAck::Bsd));
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
