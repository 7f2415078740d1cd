//! RACK-TLP on the wire (RFC 8985): a tail loss repaired by a probe instead of a timeout,
//! reordering within the window not taken for loss, a lost retransmission found by time.

use super::pair::{ms, Pair, Side};
use super::recovery::rexmits;
use super::{millis, plain};
use crate::{CcKind, Policies, RecoveryKind, Segment, SeqNum, TcpConfig, TimerGranularity, Variant};
use celltrain_core::SimDuration;

/// Start of segment `n` (1-based) of A's data (ISS 1000).
fn seg(n: u32) -> SeqNum {
    SeqNum(1001 + (n - 1) * 512)
}

/// MSS 512, ACK every segment, RFC 6298 timers (1 s minimum RTO), a 10-segment initial window.
fn config(recovery: RecoveryKind) -> TcpConfig {
    TcpConfig {
        policies: Policies { cc: CcKind::Rfc5681, recovery },
        timer_granularity: TimerGranularity::Exact,
        initial_cwnd_segments: 10,
        ..plain(Variant::Sack)
    }
}

/// A's data segments numbered `n` are dropped the first `times` times they are sent.
fn lose(p: &mut Pair, n: u32, times: u32) {
    let mut dropped = 0;
    p.drop = Box::new(move |side, s: &Segment| {
        let hit = side == Side::A && s.payload_len > 0 && s.seq == seg(n) && dropped < times;
        dropped += u32::from(hit);
        hit
    });
}

fn run(mut p: Pair, segments: u64) -> Pair {
    p.write(Side::A, segments * 512);
    p.run(ms(100_000));
    assert_eq!(p.apps[1].read, segments * 512, "everything delivered");
    p
}

/// A flight of ten segments, all the data there is, whose last segment is lost: no ACK will
/// ever show the hole.
fn tail_loss(recovery: RecoveryKind) -> Pair {
    let mut p = Pair::new(config(recovery), config(recovery), millis(10));
    lose(&mut p, 10, 1);
    run(p, 10)
}

#[test]
fn a_tail_loss_is_repaired_by_the_probe_without_a_timeout() {
    let p = tail_loss(RecoveryKind::RackTlp);
    // The data leave at 20 ms (after the handshake); the ACKs of 1..=9 arrive at 40 ms
    // (SRTT 20 ms). One segment stays in flight, so PTO = 2·20 + WCDelAckT 200 = 240 ms (the
    // RTO, 1 s, is later): the probe retransmits the last segment at 280 ms.
    assert_eq!(rexmits(&p), [(ms(280), 10)]);
    let s = p.a.stats();
    assert_eq!((s.timeouts, s.fast_retransmits, s.loss_probes), (0, 0, 1));
    // The probe was a retransmission and its ACK carried no DSACK: the original was lost,
    // and the window comes down as in fast recovery (RFC 5681: FlightSize 0 → 2·SMSS).
    assert_eq!(p.a.ssthresh(), 2 * 512);
}

#[test]
fn without_the_probe_the_same_tail_loss_waits_for_the_timeout() {
    let p = tail_loss(RecoveryKind::Prr);
    assert_eq!(rexmits(&p), [(ms(1040), 10)], "RTO 1 s after the last ACK");
    assert_eq!((p.a.stats().timeouts, p.a.stats().loss_probes), (1, 0));
}

/// RACK with its probe switched off (Linux's `tcp_early_retrans = 0`): the same tail loss
/// waits for the timeout, as with no RACK at all.
#[test]
fn rack_without_its_probe_waits_for_the_timeout() {
    let cfg = TcpConfig { tail_loss_probe: false, ..config(RecoveryKind::RackTlp) };
    let mut p = Pair::new(cfg.clone(), cfg, millis(10));
    lose(&mut p, 10, 1);
    let p = run(p, 10);
    assert_eq!(rexmits(&p), [(ms(1040), 10)], "RTO 1 s after the last ACK");
    assert_eq!((p.a.stats().timeouts, p.a.stats().loss_probes), (1, 0));
    let no_rack = TcpConfig { tail_loss_probe: false, ..config(RecoveryKind::Prr) };
    assert_eq!(no_rack.validate(), Err(crate::TcpConfigError::TailLossProbeNeedsRack(RecoveryKind::Prr)));
}

/// Two segments lost at the tail: the probe (segment 10 again) is SACKed above segment 9,
/// and RACK, knowing a later-sent segment arrived, marks 9 lost: fast recovery, no timeout.
#[test]
fn a_probe_turns_a_deeper_tail_loss_into_fast_recovery() {
    let mut p = Pair::new(config(RecoveryKind::RackTlp), config(RecoveryKind::RackTlp), millis(10));
    let mut dropped = 0;
    p.drop = Box::new(move |side, s: &Segment| {
        let hit = side == Side::A && s.payload_len > 0 && (s.seq == seg(9) || s.seq == seg(10)) && dropped < 2;
        dropped += u32::from(hit);
        hit
    });
    let p = run(p, 10);
    // Two segments in flight after the ACKs at 40 ms: PTO = 2·SRTT = 40 ms. The probe's SACK
    // comes back at 100 ms: segment 9, sent at 20 ms, is past RACK.rtt (20 ms) + reo_wnd
    // (min_RTT/4 = 5 ms).
    assert_eq!(rexmits(&p), [(ms(80), 10), (ms(100), 9)]);
    let s = p.a.stats();
    assert_eq!((s.timeouts, s.fast_retransmits), (0, 1));
}

/// 100 segments at 10 Mbit/s (a segment every 441.6 µs while slow start keeps the line
/// busy): segment 15 is held back 1 ms (two segments overtake it), segment 45 is held back
/// 3 ms (six overtake it), both less than min_RTT/4 (over 5 ms on this 20 ms path).
fn reordered(recovery: RecoveryKind) -> Pair {
    let mut p = Pair::new(config(recovery), config(recovery), millis(10));
    p.rate_bps = Some(10_000_000);
    p.hold = Box::new(|side, s: &Segment| match (side, s.payload_len > 0, s.seq) {
        (Side::A, true, q) if q == seg(15) => millis(1),
        (Side::A, true, q) if q == seg(45) => millis(3),
        _ => SimDuration::ZERO,
    });
    run(p, 100)
}

#[test]
fn reordering_within_the_window_is_not_taken_for_loss() {
    let p = reordered(RecoveryKind::RackTlp);
    // The first reordering (two SACKs, below DupThresh) teaches RACK that the path reorders;
    // from then on the window is min_RTT/4 even with DupThresh segments SACKed, and segment
    // 45 arrives inside it.
    let s = p.a.stats();
    assert_eq!((s.segments_retransmitted, s.fast_retransmits, s.timeouts), (0, 0, 0));
}

#[test]
fn dupthresh_takes_the_same_reordering_for_loss() {
    let p = reordered(RecoveryKind::Prr);
    let s = p.a.stats();
    assert_eq!(s.fast_retransmits, 1);
    // Segment 45 needlessly, then (all data sent, nothing lost above it) RFC 6675's rescue
    // retransmission of the last segment.
    let r: Vec<u32> = rexmits(&p).into_iter().map(|(_, n)| n).collect();
    assert_eq!(r, [45, 100]);
}

/// Segment 20 and its first retransmission are both lost in a 60-segment transfer.
fn lost_retransmission(recovery: RecoveryKind) -> Pair {
    let mut p = Pair::new(config(recovery), config(recovery), millis(10));
    p.rate_bps = Some(10_000_000);
    lose(&mut p, 20, 2);
    run(p, 60)
}

#[test]
fn a_lost_retransmission_is_found_by_rack() {
    let p = lost_retransmission(RecoveryKind::RackTlp);
    // PRR sends new data after the retransmission; when it is SACKed a round trip later,
    // RACK sees that the retransmission, sent before it, is overdue.
    let r: Vec<u32> = rexmits(&p).into_iter().map(|(_, n)| n).collect();
    assert_eq!(r, [20, 20]);
    let s = p.a.stats();
    assert_eq!((s.timeouts, s.fast_retransmits), (0, 1), "one recovery, no timeout");
}

#[test]
fn rfc6675_waits_for_the_timeout_after_a_lost_retransmission() {
    let p = lost_retransmission(RecoveryKind::Prr);
    assert_eq!(p.a.stats().timeouts, 1);
}

/// The last of ten segments is held back 300 ms, longer than the probe timeout: the probe
/// retransmits it at 280 ms and arrives first, the original follows at 330 ms.
fn late_tail(recovery: RecoveryKind) -> Pair {
    let mut p = Pair::new(config(recovery), config(recovery), millis(10));
    let mut held = false;
    p.hold = Box::new(move |side, s: &Segment| {
        let hit = side == Side::A && s.payload_len > 0 && s.seq == seg(10) && !held;
        held |= hit;
        if hit {
            millis(300)
        } else {
            SimDuration::ZERO
        }
    });
    run(p, 10)
}

/// B's ACKs whose first SACK block lies below their cumulative ACK (RFC 2883 D-SACKs).
fn dsacks(p: &Pair) -> Vec<(SeqNum, SeqNum, SeqNum)> {
    p.sent(Side::B).filter_map(|r| r.seg.options.dsack(r.seg.ack).map(|d| (r.seg.ack, d.left, d.right))).collect()
}

#[test]
fn linux_reports_the_duplicate_and_keeps_its_window() {
    let p = late_tail(RecoveryKind::Linux);
    assert_eq!(rexmits(&p), [(ms(280), 10)], "the probe");
    // The original arrives second, at 330 ms: B reports it in a D-SACK block.
    assert_eq!(dsacks(&p), [(seg(11), seg(10), seg(11))]);
    // Both copies arrived: the probe repaired nothing, the window stays.
    assert_eq!(p.a.ssthresh(), crate::tcb::INITIAL_SSTHRESH);
    assert_eq!(p.a.stats().timeouts, 0);
}

#[test]
fn without_dsack_the_same_probe_costs_the_window() {
    let p = late_tail(RecoveryKind::RackTlp);
    assert_eq!(rexmits(&p), [(ms(280), 10)]);
    assert!(dsacks(&p).is_empty(), "rack-tlp's receiver reports no D-SACK");
    assert_eq!(p.a.ssthresh(), 2 * 512, "the sender cannot tell both copies arrived");
}

/// Random loss (0–10 %) and random reordering (a fifth of the segments held back up to
/// 30 ms, in both directions) on a 10 Mbit/s, 20 ms path: every SACK-based recovery, with
/// Linux's controls, delivers exactly what was written and closes.
#[test]
fn random_loss_and_reordering_deliver_everything_with_every_sack_recovery() {
    use crate::State;
    use celltrain_core::RngStream;
    let recoveries = [RecoveryKind::Sack, RecoveryKind::Prr, RecoveryKind::RackTlp, RecoveryKind::Linux];
    let (mut probes, mut spared) = (0, 0);
    for recovery in recoveries {
        for seed in 0..40 {
            let cfg = TcpConfig { policies: Policies { cc: CcKind::Cubic, recovery }, ..config(recovery) };
            let mut p = Pair::new(cfg.clone(), cfg, millis(10)).bulk(300 * 512);
            p.rate_bps = Some(10_000_000);
            let mut rng = RngStream::derive(seed, recovery.name());
            let loss = rng.uniform() * 0.1;
            let mut drops = RngStream::derive(seed, "drops");
            p.drop = Box::new(move |_, _| drops.uniform() < loss);
            let mut holds = RngStream::derive(seed, "holds");
            p.hold = Box::new(move |_, _| {
                let held = holds.below(5) == 0;
                SimDuration::from_micros(if held { holds.below(30_000) } else { 0 })
            });
            p.start();
            p.run(ms(100_000_000));
            let what = format!("seed {seed} {}", recovery.name());
            assert_eq!(p.apps[1].read, 300 * 512, "{what}: delivered");
            assert_eq!((p.a.state(), p.b.state()), (State::Closed, State::Closed), "{what}: closed");
            probes += p.a.stats().loss_probes;
            spared += u64::from(recovery == RecoveryKind::Linux && p.a.stats().timeouts == 0);
        }
    }
    assert!(probes > 0 && spared > 0, "{probes} probes; {spared} linux runs without a timeout");
}
