//! Sender pacing (`max_pacing_rate_bps`, Linux's `SO_MAX_PACING_RATE`): data segments leave
//! no faster than the rate, each its IP length's time after the one before; ACKs are not held.

use super::pair::{ms, Pair, Side};
use super::{millis, plain};
use crate::{MssChoice, TcpConfig, Variant};

/// MSS 1000 without options (1040-octet IP datagrams), ten segments in the first flight.
fn paced(rate_bps: Option<u64>) -> TcpConfig {
    TcpConfig {
        mss: MssChoice::Fixed(1000),
        initial_cwnd_segments: 10,
        max_pacing_rate_bps: rate_bps,
        ..plain(Variant::Reno)
    }
}

/// Departure times of A's data segments, µs.
fn data_us(p: &Pair) -> Vec<u64> {
    p.data(Side::A).map(|r| r.t.as_picos() / 1_000_000).collect()
}

#[test]
fn the_first_flight_leaves_one_datagram_time_apart() {
    let mut p = Pair::new(paced(Some(10_000_000)), paced(None), millis(10));
    p.write(Side::A, 10_000);
    p.run(ms(39));
    // 1040 octets at 10 Mbit/s: 832 µs. The flight starts at 20 ms (the SYN-ACK's arrival).
    let expected: Vec<u64> = (0..10).map(|k| 20_000 + 832 * k).collect();
    assert_eq!(data_us(&p), expected);
    let mut unpaced = Pair::new(paced(None), paced(None), millis(10));
    unpaced.write(Side::A, 10_000);
    unpaced.run(ms(39));
    assert_eq!(data_us(&unpaced), [20_000; 10], "without pacing the flight is one burst");
}

#[test]
fn a_paced_transfer_never_exceeds_the_rate_and_arrives_whole() {
    let mut p = Pair::new(paced(Some(10_000_000)), paced(None), millis(10)).bulk(1_000_000);
    p.start();
    p.run(ms(5_000));
    assert_eq!(p.apps[1].read, 1_000_000);
    let t = data_us(&p);
    assert_eq!(t.len(), 1000);
    assert!(t.windows(2).all(|w| w[1] - w[0] >= 832), "a gap below 832 µs");
    // 1000 datagrams: the last leaves at least 999 × 832 µs after the first; beyond that only
    // slow start's first round trips hold the sender back (the 65 535-octet window allows
    // 26 Mbit/s on the 20 ms round trip). Measured: 846.208 ms.
    let span = t[999] - t[0];
    assert!((999 * 832..900_000).contains(&span), "{span} µs");
    // B's ACKs are not paced: B acknowledges each segment as it arrives.
    assert!(p.sent(Side::B).filter(|r| r.seg.payload_len == 0).count() >= 1000);
}
