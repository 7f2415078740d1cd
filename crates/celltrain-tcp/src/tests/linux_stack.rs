//! Linux's defaults together ([`TcpConfig::linux`]): the first flight is ten segments, the
//! receiver acknowledges each of them at once, and a transfer arrives whole.

use super::pair::{ms, Pair, Side};
use crate::{MssChoice, TcpConfig};
use celltrain_core::SimDuration;

fn linux_1000() -> TcpConfig {
    TcpConfig { mss: MssChoice::Fixed(1000), ..TcpConfig::linux() }
}

#[test]
fn linux_defaults_validate_and_send_ten_segments_in_the_first_flight() {
    TcpConfig::linux().validate().unwrap();
    let cfg = linux_1000();
    let mut p = Pair::new(cfg.clone(), cfg, SimDuration::from_millis(10));
    p.write(Side::A, 1 << 20);
    // Data leaves at 20 ms; the first ACK is back at 40 ms. Timestamps take 12 octets of
    // each segment: IW10 = 10 × 988 = 9880 octets before any ACK.
    p.run(ms(39));
    let first: u64 = p.data(Side::A).map(|r| u64::from(r.seg.payload_len)).sum();
    assert_eq!((p.data(Side::A).count(), first), (10, 9_880));
    assert_eq!(p.a.maxseg(), 988);
    // Quick-ACK mode (16 segments with a 6 MiB window): one ACK per segment, at 30 ms.
    let acks = p.sent(Side::B).filter(|r| r.seg.payload_len == 0 && !r.seg.flags.syn()).count();
    assert_eq!(acks, 10);
}

#[test]
fn a_linux_transfer_arrives_whole() {
    let cfg = linux_1000();
    let mut p = Pair::new(cfg.clone(), cfg, SimDuration::from_millis(10)).bulk(3_000_000);
    p.rate_bps = Some(100_000_000);
    let mut n = 0u32;
    // Every 97th data segment sent is lost (retransmissions included).
    p.drop = Box::new(move |side, s| {
        n += u32::from(side == Side::A && s.payload_len > 0);
        side == Side::A && s.payload_len > 0 && n.is_multiple_of(97)
    });
    p.start();
    p.run(ms(60_000));
    assert_eq!(p.apps[1].read, 3_000_000, "{:?}", p.b.stats());
    assert_eq!(p.b.stats().bytes_delivered, 3_000_000);
    assert!(p.a.stats().segments_retransmitted > 0);
}
