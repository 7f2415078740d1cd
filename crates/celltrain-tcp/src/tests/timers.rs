//! Retransmission timing: tick quantisation and phase, the 7.a/7.b vectors
//! (`docs/references.md#test-vectors`) on the
//! wire, back-off, Karn's rule and timestamps, exact timers, give-up, spurious wake-ups.

use super::pair::{ms, Pair, Side};
use super::{millis, plain};
use crate::{Flags, SeqNum, State, TcpConfig, TimerGranularity, Variant};
use celltrain_core::{SimDuration, SimTime};

/// Times (ms) at which A sent segments carrying data.
fn data_times(p: &Pair) -> Vec<u64> {
    p.data(Side::A).map(|r| r.t.as_picos() / 1_000_000_000).collect()
}

/// Drops every data segment A sends.
fn drop_a_data(p: &mut Pair) {
    p.drop = Box::new(|side, s| side == Side::A && s.payload_len > 0);
}

#[test]
fn rto_armed_between_ticks_fires_on_a_tick_boundary() {
    for (phase, first) in [(0, 1_500), (123, 1_123)] {
        let cfg = TcpConfig { tick_phase: millis(phase), ..plain(Variant::Lite) };
        let mut p = Pair::new(cfg.clone(), cfg, millis(1)).bulk(512);
        drop_a_data(&mut p);
        p.start();
        p.run(ms(2_000));
        // The SYN is timed from 0 to 2 ms: no tick in (0, 2 ms], t_rtt = 1 → srtt 8,
        // rttvar 2, t_rxtcur = 3 ticks. Data leaves at 2 ms; the counter reaches zero on
        // the 3rd tick after it: 1.5 s with ticks at k·500 ms, 1.123 s with phase 123 ms
        // (1.121 s after arming: between (3−1)·0.5 and 3·0.5 s).
        assert_eq!(data_times(&p), [2, first], "phase {phase}");
        assert_eq!(p.a.rto(), millis(3_000), "backed off: REXMTVAL 3 × tcp_backoff[1] = 6 ticks");
    }
}

#[test]
fn tahoe_rto_retransmits_after_two_ticks_on_the_wire() {
    // As above with 4.3BSD-Tahoe's timeout: the SYN's 1-tick sample gives srtt 8, rttvar 2,
    // ((8 >> 2) + 2) >> 1 = 2 ticks, so the lost data (sent at 2 ms) goes again on the 2nd
    // tick, at 1 s; the backed-off timeout is 2 × tcp_backoff[1] = 4 ticks.
    let cfg = TcpConfig { rto: Some(crate::RtoFormula::Tahoe), ..plain(Variant::Lite) };
    let mut p = Pair::new(cfg.clone(), cfg, millis(1)).bulk(512);
    drop_a_data(&mut p);
    p.start();
    p.run(ms(1_200));
    assert_eq!(data_times(&p), [2, 1_000]);
    assert_eq!(p.a.rto(), millis(2_000));
}

#[test]
fn reference_vector_7a_first_sample_two_ticks_then_backoff() {
    // SYN at 0.1 s, one-way delay 0.3 s: the SYN-ACK arrives at 0.7 s and the tick at
    // 0.5 s lies in between, so t_rtt = 2 → srtt 16, rttvar 4, RTO 6 ticks (3 s).
    let mut p = Pair::with(
        plain(Variant::Lite),
        plain(Variant::Lite),
        millis(300),
        SeqNum(1000),
        SeqNum(5000),
        SimTime::ZERO + millis(100),
    )
    .bulk(512);
    drop_a_data(&mut p);
    p.start();
    p.run(ms(800));
    assert_eq!(p.a.rto(), millis(3_000));
    let mut rtos = vec![];
    let mut last = 0;
    while p.step() && p.now <= ms(300_000) {
        if p.a.stats().timeouts != last {
            last = p.a.stats().timeouts;
            rtos.push(p.a.rto().as_picos() / 500_000_000_000);
        }
    }
    // Timeouts back off 6 → 12, 24, 48, 96, 128, 128 ticks (vector 7.a).
    assert_eq!(&rtos[..6], &[12, 24, 48, 96, 128, 128]);
    // Data sent at 0.7 s; expiries on ticks: 0.7 + (6 ticks → 3.5 s), +6 s, +12, +24, +48, +64.
    assert_eq!(&data_times(&p)[..7], &[700, 3_500, 9_500, 21_500, 45_500, 93_500, 157_500]);
}

#[test]
fn karn_no_sample_from_a_retransmission_unless_timestamps() {
    for timestamps in [false, true] {
        let cfg = TcpConfig { timestamps, ..plain(Variant::Lite) };
        let mut p = Pair::new(cfg.clone(), cfg, millis(10));
        let mut once = false;
        p.drop = Box::new(move |side, s| {
            let hit = side == Side::A && s.payload_len > 0 && !once;
            once |= hit;
            hit
        });
        // One full segment: 512, or 500 when 12 octets go to the timestamp option.
        p.write(Side::A, if timestamps { 500 } else { 512 });
        // SYN RTT 20 ms: t_rtt = 1, RTO 3 ticks; data at 20 ms lost, retransmitted at 1.5 s.
        p.run(ms(1_600));
        assert_eq!(data_times(&p), [20, 1_500]);
        let s = p.a.stats();
        if timestamps {
            // RTTM: the ACK echoes the retransmission's TSval: tcp_now − tsecr + 1 = 1 tick.
            assert_eq!(s.rtt_samples, 2);
            assert_eq!(p.a.rto(), millis(1_500), "back-off cleared by tcp_xmit_timer");
        } else {
            // Karn: the retransmitted segment is not timed, the backed-off RTO stays.
            assert_eq!(s.rtt_samples, 1, "only the SYN's");
            assert_eq!(p.a.rto(), millis(3_000));
        }
    }
}

#[test]
fn finer_granularities_scale_the_bsd_constants() {
    for (period, initial, after) in [(200, 6_000, 600), (10, 6_000, 30)] {
        let cfg = TcpConfig { timer_granularity: TimerGranularity::Ticks(millis(period)), ..plain(Variant::Lite) };
        let mut p = Pair::new(cfg.clone(), cfg, millis(1));
        assert_eq!(p.a.rto(), millis(initial), "TCPTV_SRTTDFLT: 6 s whatever the tick");
        p.start();
        p.run(ms(5));
        // t_rtt = 1 → REXMTVAL = 3 ticks.
        assert_eq!(p.a.rto(), millis(after), "{period} ms ticks");
    }
}

#[test]
fn exact_timers_are_continuous_rfc6298() {
    let cfg =
        TcpConfig { timer_granularity: TimerGranularity::Exact, exact_rto_min: millis(10), ..plain(Variant::Lite) };
    let mut p = Pair::new(cfg.clone(), cfg, millis(5));
    assert_eq!(p.a.rto(), millis(1_000), "RFC 6298 (2.1)");
    let mut n = 0;
    p.drop = Box::new(move |side, s| {
        let hit = side == Side::A && s.payload_len > 0 && n < 2;
        n += u32::from(hit);
        hit
    });
    p.write(Side::A, 512);
    p.run(ms(1_000));
    // SYN sample 10 ms: SRTT 10, RTTVAR 5, RTO 30 ms. Data at 10 ms, lost; retransmitted
    // at exactly 40 ms; lost again; RTO doubled to 60 ms → 100 ms.
    assert_eq!(data_times(&p), [10, 40, 100]);
    assert_eq!(p.a.stats().timeouts, 2);
}

#[test]
fn gives_up_after_12_retransmissions_and_sends_rst() {
    let mut p = Pair::new(plain(Variant::Lite), plain(Variant::Lite), millis(1)).bulk(512);
    drop_a_data(&mut p);
    p.start();
    p.run(ms(10_000_000));
    assert_eq!(p.a.state(), State::Closed);
    let s = p.a.stats();
    assert!(s.aborted);
    assert_eq!((s.timeouts, s.segments_retransmitted), (12, 12));
    assert_eq!(data_times(&p).len(), 13);
    let last = p.sent(Side::A).last().unwrap().seg;
    assert!(last.flags.contains(Flags::RST));
    // The RST reached B, which was still ESTABLISHED: reset.
    assert_eq!(p.b.state(), State::Closed);
    assert!(p.b.stats().reset_received);
    // RTO 3 ticks, then 6, 12, 24, 48, 96, 128 × 7: 1.5 + 3 + ... expiries; the 13th drops.
    let t = data_times(&p);
    assert_eq!(&t[..4], &[2, 1_500, 4_500, 10_500]);
}

#[test]
fn spurious_and_early_wakeups_are_harmless() {
    let mut p = Pair::new(plain(Variant::Lite), plain(Variant::Lite), millis(1)).bulk(512);
    drop_a_data(&mut p);
    p.start();
    p.run(ms(10));
    let deadline = p.a.poll_timeout().unwrap();
    assert_eq!(deadline, ms(1_500));
    let sent = p.log.len();
    for t in [10, 11, 499, 500, 1_000, 1_499] {
        p.a.on_timeout(ms(t));
        assert_eq!(p.a.poll_transmit(ms(t)), None, "nothing due at {t} ms");
        assert_eq!(p.a.poll_timeout(), Some(deadline));
    }
    assert_eq!(p.log.len(), sent);
    // A late wake-up fires the timer as of its deadline (re-armed from 1.5 s, not from now).
    p.a.on_timeout(ms(1_700));
    let seg = p.a.poll_transmit(ms(1_700)).unwrap();
    assert_eq!(seg.payload_len, 512);
    assert_eq!(p.a.poll_timeout(), Some(ms(1_500) + SimDuration::from_millis(3_000)));
    assert_eq!(p.a.rexmt_deadline(), p.a.poll_timeout());
}

/// A receiver that drops out-of-order segments (no `tcp_reass`): after the first data segment
/// is lost, the three behind it must be sent again; with reassembly only the lost one is.
#[test]
fn a_receiver_without_reassembly_makes_the_sender_go_back_n() {
    let mut retransmitted = vec![];
    for reassemble in [true, false] {
        let cfg = TcpConfig { reassemble_out_of_order: reassemble, initial_cwnd_segments: 4, ..plain(Variant::Tahoe) };
        let mut p = Pair::new(cfg.clone(), cfg, millis(1));
        let mut once = false;
        p.drop = Box::new(move |side, s| {
            let hit = side == Side::A && s.payload_len > 0 && !once;
            once |= hit;
            hit
        });
        p.write(Side::A, 4 * 512);
        p.run(ms(10_000));
        assert_eq!(p.b.stats().bytes_delivered, 4 * 512, "reassemble = {reassemble}");
        assert_eq!(p.b.stats().ooo_segments, 3);
        retransmitted.push(p.a.stats().segments_retransmitted);
    }
    assert_eq!(retransmitted[0], 1, "reassembly keeps the three out-of-order segments");
    assert_eq!(retransmitted[1], 4, "go-back-N: the lost segment and the three dropped behind it");
}

/// Linux's timers (HZ 250, jiffies at 1 ms + k·4 ms).
fn linux_timers() -> TcpConfig {
    TcpConfig { timer_granularity: TimerGranularity::LINUX_HZ_250, tick_phase: millis(1), ..plain(Variant::Reno) }
}

#[test]
fn linux_rto_is_srtt_plus_200_ms_in_jiffies_and_fires_on_a_jiffy() {
    let cfg = linux_timers();
    let mut p = Pair::new(cfg.clone(), cfg, millis(10)).bulk(512);
    drop_a_data(&mut p);
    p.start();
    p.run(ms(800));
    // The SYN's RTT, 20 ms: SRTT 20, 4·RTTVAR 40 below the 200 ms floor, so 220 ms = 55
    // jiffies. Data leaves at 20 ms, after the jiffies at 1, 5, …, 17 ms (5 of them): the
    // timer expires on the 55th jiffy after, 1 + (5 + 54)·4 = 237 ms. Backed off to 110
    // jiffies from the jiffy at 237 ms (the 60th): 1 + (60 + 109)·4 = 677 ms.
    assert_eq!(data_times(&p), [20, 237, 677]);
    assert_eq!(p.a.rto(), millis(880), "the next back-off: 220 jiffies");
    assert_eq!(p.a.srtt(), Some(millis(20)));
}

#[test]
fn linux_initial_rto_is_one_second_on_jiffies() {
    let cfg = linux_timers();
    let mut p = Pair::new(cfg.clone(), cfg, millis(10));
    let mut first = true;
    p.drop = Box::new(move |side, s| side == Side::A && s.flags.syn() && std::mem::take(&mut first));
    p.start();
    p.run(ms(2_000));
    // TCP_TIMEOUT_INIT = 250 jiffies: the 250th jiffy after 0 is at 1 + 249·4 = 997 ms.
    let syns: Vec<u64> =
        p.sent(Side::A).filter(|r| r.seg.flags.syn()).map(|r| r.t.as_picos() / 1_000_000_000).collect();
    assert_eq!(syns, [0, 997]);
    assert_eq!(p.a.state(), State::Established);
}
