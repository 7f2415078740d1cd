//! Window growth on the wire: slow start, congestion avoidance, the BSD passive-opener
//! quirk, idle restart, and the 4.4BSD-Lite header-prediction path.

use super::pair::{ms, Pair, Side};
use super::{millis, plain};
use crate::{BsdCaIncrement, TcpConfig, Variant};

/// A's cwnd after each segment it received after the SYN-ACK.
fn a_cwnds(p: &Pair) -> Vec<u32> {
    p.cwnd_trace.iter().filter(|(_, s, _)| *s == Side::A).skip(1).map(|&(_, _, c)| c).collect()
}

#[test]
fn slow_start_adds_one_mss_per_ack() {
    let mut p = Pair::new(plain(Variant::Lite), plain(Variant::Lite), millis(10)).bulk(200_000);
    p.start();
    p.run(ms(1_000));
    let c = a_cwnds(&p);
    // The active opener starts at 1 MSS (the SYN-ACK does not grow it); every ACK of one
    // segment adds t_maxseg = 512 while cwnd <= ssthresh (initially 65535 << 14).
    let expect: Vec<u32> = (2..=40).map(|k| 512 * k).collect();
    assert_eq!(&c[..39], &expect[..]);
    assert!(c.iter().all(|&w| w <= 65_535), "capped at TCP_MAXWIN << 0");
}

#[test]
fn one_segment_per_window_is_timed() {
    let mut p = Pair::new(plain(Variant::Lite), plain(Variant::Lite), millis(10)).bulk(200_000);
    p.start();
    // Without timestamps only one segment per round trip is timed (t_rtt/t_rtseq): the
    // SYN (sample at 20 ms), segment 1 (40 ms), segment 2 (60 ms), segment 4 (80 ms),
    // segment 8 (100 ms) — the first new segment sent after each sample; ACKs that do not
    // pass t_rtseq give no sample.
    p.run(ms(100));
    assert_eq!(p.a.stats().rtt_samples, 5);
    // With timestamps every ACK of new data is a sample (RFC 7323 RTTM): 1 + 1 + 2 + 4 + 8.
    let ts = TcpConfig { timestamps: true, ..plain(Variant::Lite) };
    let mut q = Pair::new(ts.clone(), ts, millis(10)).bulk(200_000);
    q.start();
    q.run(ms(100));
    assert_eq!(q.a.stats().rtt_samples, 16);
}

#[test]
fn bsd_passive_opener_starts_with_two_segments() {
    for (variant, burst) in [(Variant::Lite, 2), (Variant::Tahoe, 2), (Variant::Reno, 1), (Variant::NewReno, 1)] {
        let mut p = Pair::new(plain(variant), plain(variant), millis(10));
        p.apps[1].to_write = 10_000;
        p.start();
        p.run(ms(35));
        // B's first data leaves when the handshake ACK arrives (t = 30 ms): BSD counts the
        // ACK of its SYN as an ACK of new data (cwnd 512 → 1024); RFC 5681 does not.
        let first: Vec<_> = p.data(Side::B).filter(|r| r.t == ms(30)).collect();
        assert_eq!(first.len(), burst, "{variant}");
        assert_eq!(p.b.cwnd(), 512 * burst as u32, "{variant}");
    }
}

#[test]
fn congestion_avoidance_follows_the_bsd_per_ack_arithmetic() {
    for (inc, expect) in [
        (
            BsdCaIncrement::MaxsegSquaredOverCwnd,
            // 512²/cwnd per ACK, by hand: 8192+32, +31 (262144/8224 = 31.9), +31, ...
            vec![8224, 8255, 8286, 8317, 8348, 8379, 8410, 8441, 8472, 8502, 8532, 8562],
        ),
        (
            BsdCaIncrement::PlusMaxsegOver8,
            // + 512/8 = 64 each: 8192+32+64 = 8288, +31+64 = 8383, +31+64 = 8478,
            // +30+64 = 8572 (262144/8478 = 30.9), ..., 9039+29+64 = 9132, +28+64 = 9224, ...
            vec![8288, 8383, 8478, 8572, 8666, 8760, 8853, 8946, 9039, 9132, 9224, 9316],
        ),
    ] {
        let cfg = TcpConfig { bsd_ca_increment: inc, ..plain(Variant::Lite) };
        let mut p = Pair::new(cfg.clone(), cfg, millis(10)).bulk(200_000);
        p.start();
        p.run(ms(20));
        let tcb = p.a.tcb_mut();
        tcb.cwnd = 8192;
        tcb.ssthresh = 4096;
        let before = p.cwnd_trace.len();
        p.run(ms(200));
        let got: Vec<u32> =
            p.cwnd_trace[before..].iter().filter(|(_, s, _)| *s == Side::A).map(|&(_, _, c)| c).take(12).collect();
        assert_eq!(got, expect, "{inc:?}");
    }
}

#[test]
fn idle_restart_after_an_rto_of_silence() {
    let mut p = Pair::new(plain(Variant::Lite), plain(Variant::Lite), millis(10));
    p.write(Side::A, 100_000);
    p.run(ms(5_000));
    assert!(p.a.cwnd() > 20 * 512);
    // Idle for 10 s ≥ t_rxtcur: "if (idle && t_idle >= t_rxtcur) snd_cwnd = t_maxseg".
    p.run_until(ms(15_000));
    p.write(Side::A, 10_000);
    assert_eq!(p.a.cwnd(), 512);
    assert_eq!(p.data(Side::A).filter(|r| r.t == ms(15_000)).count(), 1);
}

#[test]
fn lite_header_prediction_stops_window_growth_at_the_peer_window() {
    let small_rcv = |v| TcpConfig { recv_buffer_bytes: 4096, ..plain(v) };
    // No close: FIN_WAIT_1 is not ESTABLISHED, so header prediction would stop applying.
    let run = |v| {
        let mut p = Pair::new(plain(v), small_rcv(v), millis(10));
        p.write(Side::A, 300_000);
        p.run(ms(60_000));
        p
    };
    let (lite, tahoe) = (run(Variant::Lite), run(Variant::Tahoe));
    assert_eq!(lite.apps[1].read, 300_000);
    assert_eq!(tahoe.apps[1].read, 300_000);
    let max = |p: &Pair| a_cwnds(p).into_iter().max().unwrap();
    // Lite: once snd_cwnd >= snd_wnd (4096) the pure in-sequence ACKs take the predicted
    // path, which does not touch snd_cwnd; Tahoe keeps slow-starting up to TCP_MAXWIN.
    assert_eq!(max(&lite), 4096);
    assert_eq!(max(&tahoe), 65_535);
}
