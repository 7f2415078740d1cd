//! Proportional Rate Reduction (Mathis, Dukkipati, Cheng, RFC 6937 "Proportional Rate
//! Reduction for TCP", 2013): how much a sender may send on each ACK of a fast recovery, so
//! that the data in flight falls smoothly to `ssthresh` over one round trip instead of halving
//! at once (RFC 6675's half window of silence) or overshooting.
//!
//! ```text
//! entering recovery:  prr_delivered = prr_out = 0;  RecoverFS = snd.nxt − snd.una
//! every ACK in recovery (the entering one too):
//!   DeliveredData = Δsnd.una + ΔSACKed;   prr_delivered += DeliveredData
//!   pipe > ssthresh:  sndcnt = ⌈prr_delivered · ssthresh / RecoverFS⌉ − prr_out    (proportional)
//!   else (SSRB):      sndcnt = min(ssthresh − pipe, max(prr_delivered − prr_out, DeliveredData) + SMSS)
//!   cwnd = pipe + sndcnt
//! every transmission: prr_out += octets sent
//! ```
//! The slow-start reduction bound (SSRB) is the variant Linux runs by default. The
//! proportional part is rounded up to whole segments, as Linux counts it in packets: in
//! octets, the share of a one-segment delivery is below a segment whenever ssthresh is below
//! RecoverFS, and the sender would wait an extra ACK before every transmission.

/// PRR's state during one recovery episode, octets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Prr {
    /// RecoverFS: FlightSize when the episode started.
    recover_fs: u32,
    /// `prr_delivered`: octets the receiver got since the episode started.
    delivered: u64,
    /// `prr_out`: octets sent since the episode started.
    out: u64,
}

impl Prr {
    /// A new episode with `recover_fs` octets in flight.
    pub fn start(recover_fs: u32) -> Self {
        Prr { recover_fs: recover_fs.max(1), delivered: 0, out: 0 }
    }

    /// An ACK delivered `delivered_data` octets; returns `sndcnt`, the octets that may be sent
    /// on it, given RFC 6675's `pipe` after the ACK.
    pub fn on_ack(&mut self, delivered_data: u32, pipe: u32, ssthresh: u32, smss: u32) -> u32 {
        self.delivered += u64::from(delivered_data);
        let sndcnt = if pipe > ssthresh {
            let share = (self.delivered * u64::from(ssthresh)).div_ceil(u64::from(self.recover_fs));
            round_up_to(share, u64::from(smss)).saturating_sub(self.out)
        } else {
            let limit = self.delivered.saturating_sub(self.out).max(u64::from(delivered_data)) + u64::from(smss);
            u64::from(ssthresh - pipe).min(limit)
        };
        sndcnt.min(u64::from(u32::MAX)) as u32
    }

    /// `len` octets were sent (new data or a retransmission).
    pub fn on_sent(&mut self, len: u32) {
        self.out += u64::from(len);
    }
}

fn round_up_to(x: u64, unit: u64) -> u64 {
    x.div_ceil(unit.max(1)) * unit.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMSS: u32 = 1000;

    /// RFC 6937's single-loss example: FlightSize 20 segments, ssthresh 10, every ACK in
    /// recovery delivers one segment and pipe stays above ssthresh. PRR sends on every
    /// second ACK, the fast retransmit on the first, so that the flight falls from 19 to 10
    /// over the 17 ACKs of the round trip (RFC 6675 would send nothing for 10 ACKs, then one
    /// per ACK).
    #[test]
    fn single_loss_sends_on_every_other_ack() {
        let mut prr = Prr::start(20 * SMSS);
        let mut pipe = 19 * SMSS; // one segment lost, one SACKed by the entering ACK
        let mut sends = vec![];
        for k in 1..=17u32 {
            let sndcnt = prr.on_ack(SMSS, pipe, 10 * SMSS, SMSS);
            let n = sndcnt / SMSS;
            prr.on_sent(n * SMSS);
            sends.push(n);
            // After k ACKs, ⌈k · 10 / 20⌉ segments have been sent: the rate is ssthresh/RecoverFS.
            assert_eq!(sends.iter().sum::<u32>(), (k * 10).div_ceil(20), "after ACK {k}");
            pipe = pipe + n * SMSS - SMSS; // the next ACK takes one segment out of the network
        }
        assert_eq!(sends, [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
        assert!(pipe > 10 * SMSS, "proportional all along: pipe stayed above ssthresh");
    }

    /// The proportional part is ⌈prr_delivered · ssthresh / RecoverFS⌉ − prr_out; with
    /// CUBIC's β = 0.7 (ssthresh 14 of 20) it sends 7 segments for every 10 delivered.
    #[test]
    fn proportional_share_follows_ssthresh_over_recoverfs() {
        let mut prr = Prr::start(20 * SMSS);
        let mut total = 0;
        for _ in 0..10 {
            let n = prr.on_ack(SMSS, 18 * SMSS, 14 * SMSS, SMSS) / SMSS;
            prr.on_sent(n * SMSS);
            total += n;
        }
        assert_eq!(total, 7);
        // An ACK delivering three segments at once (a stretch ACK): ⌈13·14/20⌉ = 10 → 3 more.
        assert_eq!(prr.on_ack(3 * SMSS, 18 * SMSS, 14 * SMSS, SMSS), 3 * SMSS);
    }

    /// RFC 6937's burst-loss case: after many losses pipe is far below ssthresh, and the
    /// slow-start reduction bound lets PRR send one segment more than each ACK delivered
    /// (as slow start would), never more, until pipe reaches ssthresh.
    #[test]
    fn ssrb_grows_like_slow_start_below_ssthresh() {
        let mut prr = Prr::start(20 * SMSS);
        let mut pipe = 4 * SMSS; // 15 of 20 lost, the 5th SACK ends up with 4 in flight
        let mut sends = vec![];
        for _ack in 0..8 {
            let n = prr.on_ack(SMSS, pipe, 10 * SMSS, SMSS) / SMSS;
            prr.on_sent(n * SMSS);
            sends.push(n);
            pipe = pipe + n * SMSS - SMSS;
        }
        // pipe after the sends: 5, 6, ..., 10, then it holds at ssthresh.
        assert_eq!(sends, [2, 2, 2, 2, 2, 1, 1, 1], "one more than delivered per ACK, up to ssthresh");
        assert_eq!(pipe, 9 * SMSS, "ssthresh less the segment the next ACK takes out");
        // The bound is ssthresh − pipe when that is smaller than the slow-start allowance.
        let mut prr = Prr::start(20 * SMSS);
        assert_eq!(prr.on_ack(SMSS, 9 * SMSS + 500, 10 * SMSS, SMSS), 500);
        // With nothing delivered yet beyond what was sent, SSRB still allows DeliveredData + SMSS.
        let mut prr = Prr::start(20 * SMSS);
        prr.on_sent(5 * SMSS);
        assert_eq!(prr.on_ack(2 * SMSS, 2 * SMSS, 10 * SMSS, SMSS), 3 * SMSS);
    }
}
