//! Three-way handshake, option negotiation, SYN retransmission.

use super::pair::{ms, Pair, Side};
use super::{millis, plain};
use crate::{DelayedAck, Flags, MssChoice, SeqNum, State, TcpConfig, Variant};

#[test]
fn handshake_negotiates_all_options() {
    let cfg = TcpConfig { policies: Variant::Sack.policies(), recv_buffer_bytes: 512 * 1024, ..TcpConfig::default() };
    let mut p = Pair::new(cfg.clone(), cfg, millis(1));
    p.start();
    p.run(ms(10));
    let syn = p.log[0].seg;
    assert_eq!(syn.flags, Flags::SYN);
    assert_eq!(syn.seq, SeqNum(1000));
    assert_eq!(syn.options.mss, Some(9140), "MTU 9180 − 40");
    assert_eq!(syn.options.window_scale, Some(4), "65535 << 4 ≥ 512 KiB");
    assert!(syn.options.sack_permitted);
    assert_eq!(syn.options.timestamps, Some((1, 0)), "tcp_now = 1 (the tick at t = 0 has happened)");
    assert_eq!(syn.window, 65_535, "a SYN's window is not scaled");
    assert_eq!(syn.header_len(), 40);
    let synack = p.log[1].seg;
    assert_eq!((synack.is_from_b(), synack.flags), (true, Flags::SYN | Flags::ACK));
    assert_eq!((synack.seq, synack.ack), (SeqNum(5000), SeqNum(1001)));
    assert_eq!(synack.options.window_scale, Some(4));
    assert!(synack.options.sack_permitted);
    assert_eq!(synack.options.timestamps, Some((1, 1)), "TSecr echoes the SYN's TSval");
    let ack = p.log[2].seg;
    assert_eq!((ack.flags, ack.seq, ack.ack), (Flags::ACK, SeqNum(1001), SeqNum(5001)));
    assert_eq!(ack.window, 32_768, "524288 >> 4");
    assert_eq!(ack.header_len(), 32, "timestamps on every segment");
    for side in [Side::A, Side::B] {
        let ep = p.ep_ref(side);
        assert_eq!(ep.state(), State::Established);
        assert_eq!(ep.maxseg(), 9128, "9140 − 12 for the timestamp option");
        let n = ep.negotiated();
        assert!(n.window_scaling && n.timestamps && n.sack);
        assert_eq!((n.snd_scale, n.rcv_scale), (4, 4));
    }
    assert_eq!(p.a.snd_wnd(), 524_288, "32768 << 4");
}

trait FromB {
    fn is_from_b(&self) -> bool;
}
impl FromB for crate::Segment {
    fn is_from_b(&self) -> bool {
        self.src_port == 80
    }
}

#[test]
fn options_are_used_only_when_both_sides_offer_them() {
    let a = TcpConfig {
        policies: Variant::Tahoe.policies(),
        timestamps: false,
        window_scaling: false,
        mss: MssChoice::Fixed(1460),
        ..TcpConfig::default()
    };
    let b = TcpConfig { policies: Variant::Sack.policies(), recv_buffer_bytes: 200_000, ..TcpConfig::default() };
    let mut p = Pair::new(a, b, millis(1));
    p.start();
    p.run(ms(10));
    let synack = p.log[1].seg;
    assert_eq!(synack.options.window_scale, None);
    assert_eq!(synack.options.timestamps, None);
    assert!(!synack.options.sack_permitted);
    assert_eq!(synack.options.mss, Some(9140));
    assert_eq!(synack.window, 65_535, "unscaled: min(buffer, 65535)");
    for side in [Side::A, Side::B] {
        let n = p.ep_ref(side).negotiated();
        assert!(!n.window_scaling && !n.timestamps && !n.sack);
        assert_eq!(p.ep_ref(side).maxseg(), 1460, "min(1460, 9140), no timestamp deduction");
    }
}

#[test]
fn bsd_rounding_of_mss_to_mclbytes() {
    let cfg = TcpConfig {
        mss: MssChoice::FromMtu { mtu: 9180, mclbytes: Some(1024) },
        timestamps: false,
        ..TcpConfig::default()
    };
    let mut p = Pair::new(cfg.clone(), cfg, millis(1));
    p.start();
    p.run(ms(10));
    assert_eq!(p.log[0].seg.options.mss, Some(8192));
    assert_eq!(p.a.maxseg(), 8192);
}

#[test]
fn syn_retransmissions_follow_reference_vector_7b_then_give_up() {
    let mut p = Pair::new(plain(Variant::Lite), plain(Variant::Lite), millis(1));
    p.drop = Box::new(|_, _| true);
    p.start();
    p.run(ms(1_000_000));
    let syn_times: Vec<u64> = p.sent(Side::A).map(|r| r.t.as_picos() / 1_000_000_000).collect();
    // t_rxtcur 12, 48, 96, then 128 ticks (×500 ms): 0, 6, 30, 78, 142, 206, ... s.
    assert_eq!(&syn_times[..6], &[0, 6_000, 30_000, 78_000, 142_000, 206_000]);
    assert_eq!(syn_times.len(), 13, "the SYN plus 12 retransmissions");
    assert!(p.sent(Side::A).all(|r| r.seg.flags == Flags::SYN));
    assert_eq!(*syn_times.last().unwrap(), 654_000);
    assert_eq!(p.a.state(), State::Closed);
    let s = p.a.stats();
    assert!(s.aborted);
    assert_eq!((s.timeouts, s.syn_retransmits), (12, 12));
    assert_eq!(p.a.poll_timeout(), None);
    assert!(p.now == ms(718_000), "13th expiry at 1436 ticks = 718 s drops the connection");
}

#[test]
fn lost_syn_ack_is_recovered_by_timers() {
    let mut p = Pair::new(plain(Variant::Lite), plain(Variant::Lite), millis(1));
    let mut dropped = false;
    p.drop = Box::new(move |side, seg| {
        let hit = side == Side::B && seg.flags.syn() && !dropped;
        dropped |= hit;
        hit
    });
    p.start();
    p.run(ms(20_000));
    assert_eq!(p.a.state(), State::Established);
    assert_eq!(p.b.state(), State::Established);
    // Both SYN and SYN-ACK time out after 12 ticks; B's SYN-ACK went out at 1 ms, so its
    // timer fires at 6 s as well; A's retransmitted SYN is ignored by B in SYN_RECEIVED.
    let synacks: Vec<u64> =
        p.sent(Side::B).filter(|r| r.seg.flags.syn()).map(|r| r.t.as_picos() / 1_000_000_000).collect();
    assert_eq!(synacks, [1, 6_000]);
    assert_eq!(p.b.stats().syn_retransmits, 1);
}

#[test]
fn lost_handshake_ack_carrying_data_is_recovered_by_the_rto() {
    let cfg = TcpConfig { delayed_ack: DelayedAck::Bsd, ..plain(Variant::Lite) };
    let mut p = Pair::new(cfg.clone(), cfg, millis(1)).bulk(1000);
    let mut dropped = false;
    // The ACK completing the handshake rides on the first data segment (written during
    // SYN_SENT); losing it leaves B in SYN_RECEIVED until A's retransmission timer fires.
    p.drop = Box::new(move |side, seg| {
        let hit = side == Side::A && !dropped && seg.payload_len > 0;
        dropped |= hit;
        hit
    });
    p.start();
    p.run(ms(1_000));
    assert_eq!(p.b.state(), State::SynReceived);
    p.run(ms(100_000));
    // SYN timed from 0 to 2 ms: t_rtt = 1 → RTO = 3 ticks; data sent at 2 ms → the 3rd
    // tick after it is 1.5 s.
    let data: Vec<u64> = p.data(Side::A).map(|r| r.t.as_picos() / 1_000_000_000).collect();
    assert_eq!(&data[..2], &[2, 1_500]);
    assert_eq!(p.a.stats().timeouts, 1);
    assert_eq!(p.apps[1].read, 1000);
    assert_eq!(p.b.stats().bytes_delivered, 1000);
}
