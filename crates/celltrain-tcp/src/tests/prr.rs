//! Proportional Rate Reduction on the wire: one loss in a 20-segment flight, ACKs spaced by
//! the data segments' serialisation. PRR spreads the window reduction over the recovery's
//! round trip; RFC 6675 keeps silent for half of it and then sends one segment per ACK.

use super::pair::{Pair, Side};
use super::recovery::{deliver, lose_first_sends, rexmits};
use super::{millis, plain};
use crate::{CcKind, Policies, RecoveryKind, SeqNum, TcpConfig, Variant};
use celltrain_core::{SimDuration, SimTime};

/// One 512-octet segment (552 octets of IP) at 10 Mbit/s: the spacing of the receiver's ACKs.
const SEGMENT_TIME: SimDuration = SimDuration::from_picos(552 * 8 * 100_000);

/// Start of segment `n` (1-based) of A's data (ISS 1000).
fn seg(n: u32) -> SeqNum {
    SeqNum(1001 + (n - 1) * 512)
}

/// A 20-segment initial window whose first segment is lost, then 40 more segments.
fn one_loss(recovery: RecoveryKind) -> Pair {
    let policies = Policies { cc: CcKind::Rfc5681, recovery };
    let cfg = TcpConfig { policies, initial_cwnd_segments: 20, ..plain(Variant::Sack) };
    let mut p = Pair::new(cfg.clone(), cfg, millis(10));
    p.rate_bps = Some(10_000_000);
    lose_first_sends(&mut p, &[1]);
    deliver(p, Variant::Sack, 60)
}

/// A's first transmissions of new data after the fast retransmission and before its ACK
/// (20 ms later), as multiples of the ACK spacing after the retransmission.
fn new_data_during_recovery(p: &Pair) -> Vec<u64> {
    let (t_rexmt, _) = rexmits(p)[0];
    let until = t_rexmt + millis(20);
    p.data(Side::A)
        .filter(|r| r.t > t_rexmt && r.t < until && r.seg.seq.ge(seg(21)))
        .map(|r| spacings(r.t, t_rexmt))
        .collect()
}

fn spacings(t: SimTime, from: SimTime) -> u64 {
    let d = t - from;
    assert_eq!(d.as_picos() % SEGMENT_TIME.as_picos(), 0, "sent on an ACK's arrival");
    d.as_picos() / SEGMENT_TIME.as_picos()
}

#[test]
fn prr_sends_on_every_other_ack_from_the_start_of_recovery() {
    let p = one_loss(RecoveryKind::Prr);
    assert_eq!(rexmits(&p).into_iter().map(|(_, n)| n).collect::<Vec<_>>(), [1]);
    let s = p.a.stats();
    assert_eq!((s.fast_retransmits, s.timeouts), (1, 0));
    // The 3rd duplicate (SACK of segment 4) enters recovery: FlightSize = RecoverFS = 20
    // segments, ssthresh = 10. The 17 ACKs of the recovery (SACKs of 4..=20) deliver one
    // segment each. pipe counts neither the SACKed segments nor the lost one: 16 at the k = 1st
    // ACK, then 16 − (k − 1) + 1 (the retransmission) + the new segments sent before.
    // While pipe > ssthresh, ⌈k·10/20⌉ segments may have left after the k-th ACK: the
    // retransmission on the 1st, new segments on the 3rd, 5th, ..., 11th. At the 13th pipe
    // is 10 = ssthresh and the slow-start reduction bound takes over: min(ssthresh − pipe, ...)
    // sends nothing on it, then one segment per ACK (pipe 9) on the 14th to the 17th.
    assert_eq!(new_data_during_recovery(&p), [2, 4, 6, 8, 10, 13, 14, 15, 16]);
    assert_eq!(p.a.ssthresh(), 10 * 512);
}

#[test]
fn rfc6675_keeps_silent_for_half_the_recovery() {
    let p = one_loss(RecoveryKind::Sack);
    // cwnd = ssthresh = 10 segments at once; pipe is 17 after the retransmission and falls by
    // one per ACK: new data leaves only once pipe is 9, on the 8th ACK after the entering one,
    // then on every ACK.
    assert_eq!(new_data_during_recovery(&p), [8, 9, 10, 11, 12, 13, 14, 15, 16]);
}
