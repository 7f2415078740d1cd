//! Receiver acknowledgment policy: no delay, BSD, SunOS; immediate ACKs for out-of-order
//! data and hole fills; window updates for a lazy reader and the persist timer.

use super::pair::{ms, Pair, Side};
use super::{millis, plain};
use crate::{DelayedAck, MssChoice, SeqNum, TcpConfig, Variant};

fn seg(n: u32) -> SeqNum {
    SeqNum(1001 + (n - 1) * 512)
}

/// (time ms, ack) of B's pure ACKs after the handshake.
fn b_acks(p: &Pair) -> Vec<(u64, SeqNum)> {
    p.sent(Side::B)
        .filter(|r| r.seg.payload_len == 0 && !r.seg.flags.syn() && !r.seg.flags.fin())
        .map(|r| (r.t.as_picos() / 1_000_000_000, r.seg.ack))
        .collect()
}

fn four_segments(delayed_ack: DelayedAck) -> Pair {
    let cfg = TcpConfig { delayed_ack, initial_cwnd_segments: 4, ..plain(Variant::Lite) };
    let mut p = Pair::new(cfg.clone(), cfg, millis(10));
    p.write(Side::A, 4 * 512);
    p.run(ms(25));
    assert_eq!(p.data(Side::A).count(), 4);
    p.run(ms(35));
    p
}

#[test]
fn no_delay_acks_every_segment() {
    let p = four_segments(DelayedAck::Off);
    assert_eq!(b_acks(&p), [(30, seg(2)), (30, seg(3)), (30, seg(4)), (30, seg(5))]);
}

#[test]
fn bsd_acks_every_second_full_segment() {
    // With a prompt reader the window that could newly be advertised reaches 2·t_maxseg
    // after every second segment: tcp_output's window-update rule sends the ACK.
    let p = four_segments(DelayedAck::Bsd);
    assert_eq!(b_acks(&p), [(30, seg(3)), (30, seg(5))]);
}

#[test]
fn bsd_single_segment_waits_for_the_fast_timer_tick() {
    for (phase, at) in [(0, 200), (130, 130), (450, 50)] {
        let cfg = TcpConfig { delayed_ack: DelayedAck::Bsd, tick_phase: millis(phase), ..plain(Variant::Lite) };
        let mut p = Pair::new(cfg.clone(), cfg, millis(10));
        p.write(Side::A, 100);
        p.run(ms(1_000));
        // Data arrives at 30 ms; tcp_fasttimo runs every 200 ms from the host phase
        // (taken modulo the period: 450 ms → ticks at 50, 250, ... ms).
        assert_eq!(b_acks(&p), [(at, seg(1) + 100)], "phase {phase}");
        assert_eq!(p.b.stats().delayed_acks_sent, 1);
    }
}

#[test]
fn sunos_acks_at_35_percent_of_the_window_bsd_at_50() {
    for (mode, at) in [(DelayedAck::SunOs, 30), (DelayedAck::Bsd, 200)] {
        let cfg = TcpConfig {
            delayed_ack: mode,
            mss: MssChoice::Fixed(9140),
            recv_buffer_bytes: 24_000,
            ..plain(Variant::Lite)
        };
        let mut p = Pair::new(cfg.clone(), cfg, millis(10));
        p.write(Side::A, 9140);
        p.run(ms(1_000));
        // One 9140-octet segment opens adv = 9140 < 2·MSS: SunOS sends since
        // 100·9140 ≥ 35·24000; BSD does not (2·9140 < 24000) and waits for the tick.
        assert_eq!(b_acks(&p), [(at, SeqNum(1001 + 9140))], "{mode:?}");
    }
}

#[test]
fn out_of_order_and_hole_filling_segments_are_acked_at_once() {
    let cfg = TcpConfig { delayed_ack: DelayedAck::Bsd, initial_cwnd_segments: 4, ..plain(Variant::Lite) };
    let mut p = Pair::new(cfg.clone(), cfg, millis(10));
    let mut once = false;
    p.drop = Box::new(move |side, s| {
        let hit = side == Side::A && s.seq == seg(2) && s.payload_len > 0 && !once;
        once |= hit;
        hit
    });
    p.write(Side::A, 4 * 512);
    p.run(ms(2_000));
    // 30 ms: 1 is delayed; 3 and 4 are out of order → immediate (duplicate) ACKs of 2.
    // Two duplicates do not trigger fast retransmit: the RTO (3 ticks) resends 2 at 1.5 s
    // and the hole fill is acknowledged at once on arrival.
    assert_eq!(b_acks(&p), [(30, seg(2)), (30, seg(2)), (1_510, seg(5))]);
    assert_eq!(p.b.stats().ooo_segments, 2);
}

#[test]
fn lazy_reader_closes_the_window_then_updates_it_when_reading() {
    let cfg = TcpConfig { recv_buffer_bytes: 4096, ..plain(Variant::Lite) };
    let mut p = Pair::new(cfg.clone(), cfg, millis(10));
    p.apps[1].reads = false;
    p.write(Side::A, 20_000);
    p.run(ms(6_000));
    // Eight segments fill B's 4096-octet buffer; its last ACK offers a zero window.
    assert_eq!(p.b.stats().bytes_delivered, 4096);
    let zero = p.sent(Side::B).filter(|r| r.seg.window == 0).map(|r| r.t).next().unwrap();
    // A persists: ((t_srtt >> 2) + t_rttvar) >> 1 is below TCPTV_PERSMIN, so the first
    // probe goes 5 s (10 ticks) later, on a tick, carrying one octet at snd_una.
    let probe = p.data(Side::A).find(|r| r.t > zero).unwrap();
    assert_eq!(probe.seg.payload_len, 1);
    assert_eq!(probe.seg.seq, SeqNum(1001 + 4096));
    assert!(probe.t > zero + millis(4_500) && probe.t <= zero + millis(5_000));
    assert_eq!(probe.t.as_picos() % 500_000_000_000, 0);
    assert_eq!(p.a.stats().persist_probes, 1);
    // The application reads at 6 s: the window opens by 4096 ≥ 2·MSS → window update.
    p.apps[1].reads = true;
    p.service(Side::B);
    let update = p.sent(Side::B).last().unwrap().seg;
    assert_eq!((update.window, update.payload_len), (4096, 0));
    p.run(ms(60_000));
    assert_eq!(p.apps[1].read, 20_000);
}

#[test]
fn exact_timers_delay_acks_by_exactly_the_timeout() {
    let cfg = TcpConfig {
        delayed_ack: DelayedAck::Bsd,
        timer_granularity: crate::TimerGranularity::Exact,
        delayed_ack_timeout: millis(40),
        ..plain(Variant::Lite)
    };
    let mut p = Pair::new(cfg.clone(), cfg, millis(10));
    p.write(Side::A, 100);
    p.run(ms(1_000));
    // Data arrives at 30 ms; no tick grid: the ACK leaves 40 ms later.
    assert_eq!(b_acks(&p), [(70, seg(1) + 100)]);
}

/// Linux's delayed ACKs and timers (HZ 250, jiffies at k·4 ms), 4 KB buffers (so quick-ACK
/// mode lasts 4096 / (2·512) = 4 segments), `n` segments in the first flight.
fn linux_flight(n: u32) -> Pair {
    let cfg = TcpConfig {
        delayed_ack: DelayedAck::Linux,
        timer_granularity: crate::TimerGranularity::LINUX_HZ_250,
        initial_cwnd_segments: 8,
        send_buffer_bytes: 4096,
        recv_buffer_bytes: 4096,
        ..plain(Variant::Reno)
    };
    let mut p = Pair::new(cfg.clone(), cfg, millis(10));
    p.write(Side::A, u64::from(n) * 512);
    p.run(ms(1_000));
    assert_eq!(p.data(Side::A).count(), n as usize);
    p
}

#[test]
fn linux_quickacks_the_first_segments_then_acks_every_second() {
    // Data leaves at 20 ms, arrives at 30 ms: segments 1–4 are acknowledged one by one
    // (quick-ACK mode), then 5 is held and 6 makes two unacknowledged full segments, and so
    // on.
    let p = linux_flight(8);
    assert_eq!(b_acks(&p), [(30, seg(2)), (30, seg(3)), (30, seg(4)), (30, seg(5)), (30, seg(7)), (30, seg(9))]);
    assert_eq!(p.b.stats().delayed_acks_sent, 0);
}

#[test]
fn linux_holds_a_lone_segment_for_40_ms_on_a_jiffy() {
    // The 5th segment, past quick-ACK mode, waits ato = 40 ms (the receiver's SRTT, 20 ms,
    // is below 40 ms and does not shorten it) = 10 jiffies: armed at 30 ms, after the
    // jiffies at 0, 4, …, 28 ms (8 of them), it expires on the 10th after, (8 + 9)·4 = 68 ms.
    let p = linux_flight(5);
    assert_eq!(b_acks(&p), [(30, seg(2)), (30, seg(3)), (30, seg(4)), (30, seg(5)), (68, seg(6))]);
    assert_eq!(p.b.stats().delayed_acks_sent, 1);
}
