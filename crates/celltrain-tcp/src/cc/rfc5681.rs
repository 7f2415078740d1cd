//! RFC 5681 §3.1 slow start and congestion avoidance.

use super::CongestionControl;
use crate::tcb::{AckInfo, LossKind, Tcb};
use celltrain_core::SimTime;

/// RFC 5681 window arithmetic.
///
/// * Slow start while `cwnd < ssthresh`: `cwnd += min(N, SMSS)` per ACK of N new octets
///   (RFC 5681 (2)).
/// * Congestion avoidance otherwise: `cwnd += max(1, SMSS·SMSS / cwnd)` per ACK
///   (RFC 5681 (3)).
/// * The ACK of a SYN does not grow the window (RFC 5681 §3.1: "the SYN/ACK and the
///   acknowledgment of the SYN/ACK MUST NOT increase the size of the congestion window").
/// * Loss: `ssthresh = max(FlightSize / 2, 2·SMSS)` (RFC 5681 (4)); a repeated timeout of
///   the same data keeps ssthresh (RFC 5681 §3.1, implementation note on ssthresh after
///   repeated RTOs).
///
/// `cwnd` is bounded by `TCP_MAXWIN << snd_scale` as in BSD (more could never be used).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rfc5681Cc;

impl Rfc5681Cc {
    /// The RFC 5681 arithmetic.
    pub fn new() -> Self {
        Rfc5681Cc
    }
}

impl CongestionControl for Rfc5681Cc {
    fn name(&self) -> &'static str {
        "rfc5681"
    }

    fn ssthresh_after_loss(&mut self, tcb: &Tcb, loss: LossKind) -> u32 {
        reno_ssthresh(tcb, loss)
    }

    fn on_ack(&mut self, tcb: &mut Tcb, ack: &AckInfo, _now: SimTime) {
        if ack.syn_acked {
            return;
        }
        let cw = u64::from(tcb.cwnd);
        let smss = u64::from(tcb.maxseg);
        let incr = if tcb.cwnd < tcb.ssthresh { u64::from(ack.acked).min(smss) } else { (smss * smss / cw).max(1) };
        tcb.cwnd = (cw + incr).min(u64::from(tcb.cwnd_cap())) as u32;
    }
}

/// RFC 5681 (4): half the flight, at least two segments; held when the same data times out
/// again.
pub(super) fn reno_ssthresh(tcb: &Tcb, loss: LossKind) -> u32 {
    if let LossKind::Timeout { retransmissions } = loss {
        if retransmissions > 1 {
            return tcb.ssthresh;
        }
    }
    (tcb.flight_size() / 2).max(2 * tcb.maxseg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::testing::{ack, tcb};
    use crate::seq::SeqNum;

    #[test]
    fn slow_start_and_avoidance() {
        let mut cc = Rfc5681Cc::new();
        let mut t = tcb(1000, 1000, 3000);
        cc.on_ack(&mut t, &ack(1000), SimTime::ZERO);
        assert_eq!(t.cwnd, 2000);
        cc.on_ack(&mut t, &ack(400), SimTime::ZERO);
        assert_eq!(t.cwnd, 2400, "min(N, SMSS)");
        cc.on_ack(&mut t, &ack(3000), SimTime::ZERO);
        assert_eq!(t.cwnd, 3400, "at most one SMSS per ACK");
        cc.on_ack(&mut t, &ack(1000), SimTime::ZERO);
        assert_eq!(t.cwnd, 3400 + 1_000_000 / 3400, "cwnd >= ssthresh: SMSS^2/cwnd = 294");
        let mut syn = ack(1);
        syn.syn_acked = true;
        cc.on_ack(&mut t, &syn, SimTime::ZERO);
        assert_eq!(t.cwnd, 3694, "SYN ack does not grow cwnd");
    }

    #[test]
    fn ssthresh_is_half_the_flight() {
        let mut cc = Rfc5681Cc::new();
        let mut t = tcb(1000, 20_000, 50_000);
        t.snd_max = t.snd_una + 10_000;
        assert_eq!(cc.ssthresh_after_loss(&t, LossKind::DupAcks), 5000);
        t.snd_max = t.snd_una + 3000;
        assert_eq!(cc.ssthresh_after_loss(&t, LossKind::DupAcks), 2000, "at least 2 SMSS");
        t.snd_max = SeqNum(t.snd_una.raw() + 10_000);
        assert_eq!(cc.ssthresh_after_loss(&t, LossKind::Timeout { retransmissions: 1 }), 5000);
        assert_eq!(cc.ssthresh_after_loss(&t, LossKind::Timeout { retransmissions: 2 }), 50_000, "held");
    }
}
