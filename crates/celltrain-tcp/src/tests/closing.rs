//! Data transfer to the end, FIN handshake, TIME_WAIT, sequence-number wrap.

use super::pair::{ms, Pair, Side};
use super::{millis, plain};
use crate::{SeqNum, State, TcpConfig, Variant};
use celltrain_core::SimTime;

#[test]
fn active_and_passive_close_walk_the_rfc793_states() {
    let mut p = Pair::new(plain(Variant::Lite), plain(Variant::Lite), millis(1)).bulk(5000);
    p.apps[1].close_on_fin = false;
    p.start();
    let mut seen_a = vec![p.a.state()];
    let mut seen_b = vec![p.b.state()];
    let track = |p: &mut Pair, seen_a: &mut Vec<State>, seen_b: &mut Vec<State>| {
        while p.step() {
            for (side, seen) in [(Side::A, &mut *seen_a), (Side::B, &mut *seen_b)] {
                let s = p.ep_ref(side).state();
                if seen.last() != Some(&s) {
                    seen.push(s);
                }
            }
        }
    };
    track(&mut p, &mut seen_a, &mut seen_b);
    // B has not closed yet: A waits in FIN_WAIT_2 (no FIN_WAIT_2 timer is modelled).
    assert_eq!((p.a.state(), p.b.state()), (State::FinWait2, State::CloseWait));
    assert!(p.b.fin_received() && !p.a.fin_received());
    p.b.close();
    p.drain(Side::B);
    track(&mut p, &mut seen_a, &mut seen_b);
    use State::*;
    // The application wrote and closed during SYN_SENT: the close takes effect on the
    // SYN-ACK, so A goes straight from SYN_SENT to FIN_WAIT_1.
    assert_eq!(seen_a, [SynSent, FinWait1, FinWait2, TimeWait, Closed]);
    assert_eq!(seen_b, [Listen, SynReceived, Established, CloseWait, LastAck, Closed]);
    assert_eq!(p.apps[1].read, 5000);
    // TIME_WAIT lasts 2·MSL = 60 s = 120 ticks, counted on the tick grid.
    let fin_ack_at = p.sent(Side::A).last().unwrap().t;
    assert!(p.now > fin_ack_at + millis(59_500) && p.now <= fin_ack_at + millis(60_000));
    assert_eq!(p.a.poll_timeout(), None);
    assert_eq!(p.b.poll_timeout(), None);
}

#[test]
fn simultaneous_fin_and_ack_go_from_fin_wait_1_to_time_wait() {
    let mut p = Pair::new(plain(Variant::Lite), plain(Variant::Lite), millis(1)).bulk(100);
    p.start();
    let mut seen = vec![p.a.state()];
    while p.step() {
        if seen.last() != Some(&p.a.state()) {
            seen.push(p.a.state());
        }
    }
    // B's application closes as soon as the FIN arrives: its ACK and FIN share a segment.
    let fin_ack = p.sent(Side::B).find(|r| r.seg.flags.fin()).unwrap().seg;
    assert!(fin_ack.flags.ack());
    assert_eq!(fin_ack.ack, SeqNum(1000 + 1 + 100 + 1));
    assert_eq!(seen, [State::SynSent, State::FinWait1, State::TimeWait, State::Closed]);
}

#[test]
fn transfer_across_the_sequence_wrap() {
    let cfg = TcpConfig { recv_buffer_bytes: 100_000, ..TcpConfig::with_variant(Variant::Sack) };
    let mut p = Pair::with(cfg.clone(), cfg, millis(2), SeqNum(u32::MAX - 20_000), SeqNum(u32::MAX - 3), SimTime::ZERO)
        .bulk(300_000);
    let mut n = 0;
    // Lose a few segments after the wrap to exercise SACK ranges across it.
    p.drop = Box::new(move |side, seg| {
        if side == Side::A && seg.payload_len > 0 && seg.seq.raw() < 200_000 {
            n += 1;
            return n % 7 == 3;
        }
        false
    });
    p.start();
    p.run(ms(1_000_000));
    assert_eq!(p.apps[1].read, 300_000);
    assert_eq!((p.a.state(), p.b.state()), (State::Closed, State::Closed));
    assert!(p.a.stats().segments_retransmitted > 0);
    let last_a = p.sent(Side::A).last().unwrap().seg;
    // ISS + 1 + 300000 + FIN, modulo 2^32.
    assert_eq!(last_a.seq, SeqNum((u32::MAX - 20_000).wrapping_add(300_002)));
}

#[test]
fn write_is_bounded_by_the_send_buffer() {
    let cfg = TcpConfig { send_buffer_bytes: 3000, ..plain(Variant::Lite) };
    let mut p = Pair::new(cfg.clone(), cfg, millis(10));
    assert_eq!(p.a.write(5000), 3000, "only what fits");
    assert_eq!(p.a.send_buffer_free(), 0);
    assert_eq!(p.a.write(1), 0);
    p.drain(Side::A);
    // After the handshake and one RTT of data (cwnd 1 MSS): 512 octets acknowledged.
    p.run(ms(40));
    assert_eq!(p.a.send_buffer_free(), 512);
    p.a.close();
    assert_eq!(p.a.write(100), 0, "no writes after close");
    assert_eq!(p.a.stats().bytes_written, 3000);
}

#[test]
fn a_closed_endpoint_answers_with_rst_and_rsts_outside_the_window_are_ignored() {
    let mut p = Pair::new(plain(Variant::Lite), plain(Variant::Lite), millis(1)).bulk(1000);
    p.start();
    p.run(ms(1_000_000));
    assert_eq!((p.a.state(), p.b.state()), (State::Closed, State::Closed));
    // A stray segment to the closed A: RFC 793 CLOSED → <SEQ=SEG.ACK><CTL=RST>.
    let stray = crate::Segment {
        src_port: 80,
        dst_port: 1000,
        seq: SeqNum(7),
        ack: SeqNum(99),
        flags: crate::Flags::ACK,
        payload_len: 10,
        ..Default::default()
    };
    p.a.on_segment(p.now, &stray);
    let rst = p.a.poll_transmit(p.now).unwrap();
    assert_eq!((rst.flags, rst.seq, rst.dst_port), (crate::Flags::RST, SeqNum(99), 80));
    assert_eq!(p.a.poll_transmit(p.now), None);
    // Without ACK: <SEQ=0><ACK=SEG.SEQ+SEG.LEN><CTL=RST,ACK>.
    let syn = crate::Segment { flags: crate::Flags::SYN, ..stray };
    p.a.on_segment(p.now, &syn);
    let rst = p.a.poll_transmit(p.now).unwrap();
    assert_eq!((rst.flags, rst.seq, rst.ack), (crate::Flags::RST | crate::Flags::ACK, SeqNum(0), SeqNum(7 + 11)));

    // An RST outside the receive window leaves an established connection alone.
    let mut q = Pair::new(plain(Variant::Lite), plain(Variant::Lite), millis(1));
    q.start();
    q.run(ms(10));
    assert_eq!(q.b.state(), State::Established);
    let bad = crate::Segment {
        src_port: 1000,
        dst_port: 80,
        seq: SeqNum(1001 + 70_000),
        flags: crate::Flags::RST,
        ..Default::default()
    };
    q.b.on_segment(q.now, &bad);
    assert_eq!(q.b.poll_transmit(q.now), None, "never ACK an RST");
    assert_eq!(q.b.state(), State::Established);
    q.b.on_segment(q.now, &crate::Segment { seq: SeqNum(1001), ..bad });
    assert_eq!(q.b.state(), State::Closed);
    assert!(q.b.stats().reset_received);
}
