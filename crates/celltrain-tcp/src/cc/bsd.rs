//! 4.4BSD window arithmetic (`docs/references.md#bsd-window-arithmetic`, `tcp_input.c` "open the
//! congestion window").

use super::CongestionControl;
use crate::config::BsdCaIncrement;
use crate::tcb::{AckInfo, LossKind, Tcb};
use celltrain_core::SimTime;

/// BSD congestion-window arithmetic, per ACK.
///
/// ```text
/// incr = t_maxseg
/// if snd_cwnd > snd_ssthresh: incr = t_maxseg * t_maxseg / snd_cwnd   (+ t_maxseg/8, Net/3)
/// snd_cwnd = min(snd_cwnd + incr, TCP_MAXWIN << snd_scale)
/// ```
/// Slow start therefore runs while `cwnd <= ssthresh` (note `>` in the test), and every
/// ACK of new data counts once whatever it acknowledges, including the ACK of our SYN
/// (so a BSD passive opener starts sending with two segments).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BsdCc {
    /// Congestion-avoidance increment rule.
    increment: BsdCaIncrement,
}

impl BsdCc {
    /// BSD arithmetic with the given congestion-avoidance increment.
    pub fn new(increment: BsdCaIncrement) -> Self {
        BsdCc { increment }
    }
}

impl CongestionControl for BsdCc {
    fn name(&self) -> &'static str {
        "bsd"
    }

    /// `win = max(min(snd_wnd, snd_cwnd) / 2 / t_maxseg, 2); snd_ssthresh = win * t_maxseg`
    /// (integer division: rounded down to whole segments), for timeouts and fast
    /// retransmits alike.
    fn ssthresh_after_loss(&mut self, tcb: &Tcb, _loss: LossKind) -> u32 {
        let win = (tcb.snd_wnd.min(tcb.cwnd) / 2 / tcb.maxseg).max(2);
        win * tcb.maxseg
    }

    fn on_ack(&mut self, tcb: &mut Tcb, _ack: &AckInfo, _now: SimTime) {
        let cw = u64::from(tcb.cwnd);
        let maxseg = u64::from(tcb.maxseg);
        let mut incr = maxseg;
        if tcb.cwnd > tcb.ssthresh {
            incr = maxseg * maxseg / cw;
            if self.increment == BsdCaIncrement::PlusMaxsegOver8 {
                incr += maxseg / 8;
            }
        }
        tcb.cwnd = (cw + incr).min(u64::from(tcb.cwnd_cap())) as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::testing::{ack, tcb};

    #[test]
    fn slow_start_adds_one_segment_per_ack_until_above_ssthresh() {
        let mut cc = BsdCc::new(BsdCaIncrement::MaxsegSquaredOverCwnd);
        let mut t = tcb(512, 512, 2048);
        let mut seen = vec![];
        for _ in 0..5 {
            cc.on_ack(&mut t, &ack(512), SimTime::ZERO);
            seen.push(t.cwnd);
        }
        // 1024, 1536, 2048, then 2048 == ssthresh is still slow start → 2560,
        // then 2560 > 2048: + 512*512/2560 = 102.
        assert_eq!(seen, [1024, 1536, 2048, 2560, 2662]);
    }

    #[test]
    fn reference_vector_7d_congestion_avoidance_increment() {
        let mut lite2 = BsdCc::new(BsdCaIncrement::MaxsegSquaredOverCwnd);
        let mut t = tcb(512, 8192, 4096);
        lite2.on_ack(&mut t, &ack(512), SimTime::ZERO);
        assert_eq!(t.cwnd, 8192 + 32, "512*512/8192 = 32 bytes per ACK");
        let mut net3 = BsdCc::new(BsdCaIncrement::PlusMaxsegOver8);
        let mut t = tcb(512, 8192, 4096);
        net3.on_ack(&mut t, &ack(512), SimTime::ZERO);
        assert_eq!(t.cwnd, 8192 + 96, "32 + 512/8");
        // A whole window of ACKs: 16 ACKs from 8192 grows by 32,31,31,... (hand-computed):
        // 8192→8224→8255→8286→8317→8348→8379→8410→8441→8472→8502→8532→8562→8592→8622→8652→8682
        let mut t = tcb(512, 8192, 4096);
        let mut cc = BsdCc::new(BsdCaIncrement::MaxsegSquaredOverCwnd);
        let mut trace = vec![];
        for _ in 0..16 {
            cc.on_ack(&mut t, &ack(512), SimTime::ZERO);
            trace.push(t.cwnd);
        }
        assert_eq!(
            trace,
            [8224, 8255, 8286, 8317, 8348, 8379, 8410, 8441, 8472, 8502, 8532, 8562, 8592, 8622, 8652, 8682]
        );
    }

    #[test]
    fn window_is_capped_by_scaled_maxwin() {
        let mut cc = BsdCc::new(BsdCaIncrement::MaxsegSquaredOverCwnd);
        let mut t = tcb(1460, 65_000, u32::MAX);
        cc.on_ack(&mut t, &ack(1460), SimTime::ZERO);
        assert_eq!(t.cwnd, 65_535, "TCP_MAXWIN << 0");
        t.snd_scale = 2;
        cc.on_ack(&mut t, &ack(1460), SimTime::ZERO);
        assert_eq!(t.cwnd, 65_535 + 1460);
    }

    #[test]
    fn ssthresh_rounds_down_to_whole_segments() {
        let mut cc = BsdCc::new(BsdCaIncrement::MaxsegSquaredOverCwnd);
        let t = tcb(512, 8192, 0);
        assert_eq!(cc.ssthresh_after_loss(&t, LossKind::DupAcks), 4096);
        let t = tcb(512, 40_000, 0);
        assert_eq!(cc.ssthresh_after_loss(&t, LossKind::DupAcks), 19_968, "39 segments (ref 7.e)");
        let mut t = tcb(512, 40_000, 0);
        t.snd_wnd = 3000;
        assert_eq!(cc.ssthresh_after_loss(&t, LossKind::Timeout { retransmissions: 1 }), 1024, "min 2 segments");
    }
}
