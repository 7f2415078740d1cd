//! Loss recovery: what happens between "loss inferred" and "recovery point acknowledged"
//! (ns-3 `TcpRecoveryOps`).
//!
//! A [`LossRecovery`] sees every acknowledgment after the endpoint has applied it to the
//! send sequence variables (`snd_una` is already the new value) and the SACK scoreboard.
//! It owns the duplicate-ACK counter, decides when to fast-retransmit, and adjusts `cwnd` /
//! `ssthresh` during recovery (asking the [`CongestionControl`] for the post-loss
//! `ssthresh`, which lets the control update its own state). It answers with a
//! [`RecoveryStep`]; the endpoint performs it (sends the retransmission outside the window,
//! restarts or keeps the retransmission timer, applies the normal window growth or not,
//! changes the congestion state).
//!
//! SACK-based recovery also decides *what* to send while recovering ([`LossRecovery::choose_tx`],
//! RFC 6675 `NextSeg()` under the `cwnd − pipe ≥ SMSS` rule); the other variants leave
//! sending to the ordinary window (`snd_una + min(cwnd, snd_wnd)`).
//!
//! TCP Vegas's retransmission mechanism is [`VegasRmRecovery`]; adaptive fast retransmit
//! (Aron & Druschel) is a wrapper, [`Afr`], around a Reno-like recovery: it asks for the
//! successor of a fast-retransmitted segment too ([`RecoveryStep::also_next`]).

mod afr;
mod newreno;
mod prr;
mod rack;
mod reno;
mod sack;
mod tahoe;
mod vegas_rm;

pub use afr::{Afr, AfrPredictor};
pub use newreno::NewRenoRecovery;
pub use prr::Prr;
pub use rack::{Rack, SentSegment, TimerCtx};
pub use reno::{LiteRecovery, RenoRecovery};
pub use sack::SackRecovery;
pub use tahoe::TahoeRecovery;
pub use vegas_rm::{vegas_decrease, FineTimeout, VegasRmRecovery};

use crate::cc::CongestionControl;
use crate::sack::Scoreboard;
use crate::seq::SeqNum;
use crate::tcb::{AckInfo, CaState, Tcb};
use celltrain_core::SimTime;
use std::fmt;

/// Which acknowledgments count as duplicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DupAckRule {
    /// BSD / RFC 5681: no data, window unchanged, data outstanding (retransmit timer
    /// armed), `ack == snd_una`; any other ACK resets the count.
    Classic,
    /// RFC 6675 §2: the ACK SACKs octets not SACKed before (even if it also advances the
    /// cumulative ACK); a cumulative ACK resets the count first.
    Sack,
}

/// What the endpoint must do after an ACK (or a timeout) went through the recovery policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecoveryStep {
    /// Send one segment starting here at once, whatever the window (fast retransmit, or a
    /// NewReno partial-ACK retransmission).
    pub retransmit: Option<SeqNum>,
    /// Also retransmit the segment after `retransmit` (adaptive fast retransmit's "double"
    /// mode), right behind it.
    pub also_next: bool,
    /// A new loss-recovery episode started (fast retransmit): counted in the stats, the
    /// retransmission timer restarts when the retransmission is sent (BSD
    /// `t_timer[TCPT_REXMT] = 0` before `tcp_output`), RTT timing stops (BSD `t_rtt = 0`).
    pub entered: bool,
    /// Apply [`CongestionControl::on_ack`] to this ACK of new data.
    pub grow_window: bool,
    /// Restart the retransmission timer for this ACK of new data (if data stays outstanding).
    pub restart_rto: bool,
    /// Change the congestion state.
    pub ca_state: Option<CaState>,
}

impl RecoveryStep {
    /// Ordinary processing: grow the window on new data and restart the timer.
    pub fn normal(ack: &AckInfo) -> Self {
        RecoveryStep { grow_window: ack.acked > 0, restart_rto: true, ..RecoveryStep::default() }
    }
}

/// Bounds for a recovery-chosen transmission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TxLimits {
    /// One past the last sequence number that could be sent (data written, plus the FIN if
    /// the application closed).
    pub data_end: SeqNum,
    /// One past the right edge of the peer's window (`snd_una + snd_wnd`).
    pub rwnd_end: SeqNum,
}

/// What to send next, as decided by the recovery policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TxChoice {
    /// Not this policy's decision: use the ordinary window from `snd_nxt`.
    Window,
    /// Send `[start, end)` now (a retransmission or new data).
    Send {
        /// First sequence number.
        start: SeqNum,
        /// One past the last.
        end: SeqNum,
    },
    /// Send no data now.
    Hold,
    /// Send `[start, end)` now as a tail loss probe, whatever the window.
    Probe {
        /// First sequence number.
        start: SeqNum,
        /// One past the last.
        end: SeqNum,
    },
}

/// Loss-recovery policy of a TCP sender.
pub trait LossRecovery: fmt::Debug {
    /// Short name for reports.
    fn name(&self) -> &'static str;

    /// Which ACKs count as duplicates.
    fn dupack_rule(&self) -> DupAckRule {
        DupAckRule::Classic
    }

    /// An acknowledgment arrived: new data (`ack.acked > 0`), a duplicate (`ack.is_dup`),
    /// both (SACK), or neither (window update, old ACK).
    fn on_ack(&mut self, tcb: &mut Tcb, cc: &mut dyn CongestionControl, sb: &Scoreboard, ack: &AckInfo)
        -> RecoveryStep;

    /// The retransmission timer expired; the endpoint has already set `cwnd`, `ssthresh`,
    /// `snd_nxt` and cleared `dupacks`. Leave recovery.
    fn on_rto(&mut self, tcb: &Tcb);

    /// Whether a fast-recovery episode is in progress.
    fn in_recovery(&self) -> bool;

    /// What to transmit next (see [`TxChoice`]).
    fn choose_tx(&mut self, _tcb: &Tcb, _sb: &Scoreboard, _lim: &TxLimits) -> TxChoice {
        TxChoice::Window
    }

    /// A data segment `[start, end)` has been sent at `now` (`tcb` already updated);
    /// `retransmission` is true if it started below the previous `snd_max`.
    fn on_sent(
        &mut self,
        _tcb: &Tcb,
        _sb: &Scoreboard,
        _start: SeqNum,
        _end: SeqNum,
        _retransmission: bool,
        _now: SimTime,
    ) {
    }

    /// The deadline of the recovery's own timer (RACK's reordering timer, TLP's probe
    /// timeout), asked after every ACK, transmission and timer expiry.
    fn loss_timer(&mut self, _tcb: &Tcb, _ctx: &TimerCtx) -> Option<SimTime> {
        None
    }

    /// The recovery's own timer expired.
    fn on_loss_timer(
        &mut self,
        _tcb: &mut Tcb,
        _cc: &mut dyn CongestionControl,
        _sb: &Scoreboard,
        _now: SimTime,
    ) -> RecoveryStep {
        RecoveryStep::default()
    }
}

#[cfg(test)]
pub(crate) mod testing {
    use crate::seq::SeqNum;
    use crate::tcb::{AckInfo, Tcb};

    /// SMSS used by the recovery tests.
    pub const SMSS: u32 = 1000;

    /// Start of segment `n` (1-based) when segment 1 starts at 1001.
    pub fn seg(n: u32) -> SeqNum {
        SeqNum(1001 + (n - 1) * SMSS)
    }

    /// A block with segments `[first, last]` outstanding and `cwnd` octets.
    pub fn tcb(first: u32, last: u32, cwnd: u32) -> Tcb {
        let mut t = Tcb::new(SeqNum(1000), SMSS, cwnd, 3);
        t.snd_wnd = 1 << 20;
        t.snd_una = seg(first);
        t.snd_nxt = seg(last + 1);
        t.snd_max = seg(last + 1);
        t
    }

    /// A classic duplicate ACK of `snd_una`.
    pub fn dup(t: &Tcb) -> AckInfo {
        AckInfo {
            ack: t.snd_una,
            acked: 0,
            is_dup: true,
            newly_sacked: 0,
            flight_before: t.flight_size(),
            syn_acked: false,
            ..AckInfo::default()
        }
    }

    /// Applies a cumulative ACK up to the start of segment `n` and returns its info.
    pub fn new_ack(t: &mut Tcb, n: u32) -> AckInfo {
        let flight_before = t.flight_size();
        let acked = seg(n) - t.snd_una;
        t.snd_una = seg(n);
        t.snd_nxt = t.snd_nxt.max(t.snd_una);
        AckInfo {
            ack: seg(n),
            acked,
            is_dup: false,
            newly_sacked: 0,
            flight_before,
            syn_acked: false,
            ..AckInfo::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use super::*;
    use crate::tcb::LossKind;
    use celltrain_core::SimTime;

    /// A control that keeps state in its loss hook, as CUBIC must (it remembers the window
    /// a loss happened at).
    #[derive(Debug, Default)]
    struct Remembering {
        windows_at_loss: Vec<u32>,
    }

    impl CongestionControl for Remembering {
        fn name(&self) -> &'static str {
            "remembering"
        }
        fn ssthresh_after_loss(&mut self, tcb: &Tcb, _loss: LossKind) -> u32 {
            self.windows_at_loss.push(tcb.cwnd);
            3 * SMSS
        }
        fn on_ack(&mut self, _tcb: &mut Tcb, _ack: &AckInfo, _now: SimTime) {}
    }

    #[test]
    fn every_dupack_recovery_lets_the_control_remember_the_loss() {
        let policies: [Box<dyn LossRecovery>; 5] = [
            Box::new(TahoeRecovery::new()),
            Box::new(RenoRecovery::new()),
            Box::new(LiteRecovery::new()),
            Box::new(NewRenoRecovery::new(SeqNum(1000))),
            Box::new(SackRecovery::new()),
        ];
        for mut r in policies {
            let mut cc = Remembering::default();
            // Past the first segments: NewReno's `recover` starts at the ISS.
            let mut t = tcb(3, 18, 16 * SMSS);
            let sb = crate::sack::Scoreboard::new();
            for _ in 0..3 {
                let mut a = dup(&t);
                if r.dupack_rule() == DupAckRule::Sack {
                    a.newly_sacked = SMSS;
                }
                r.on_ack(&mut t, &mut cc, &sb, &a);
            }
            assert_eq!(cc.windows_at_loss, [16 * SMSS], "{}", r.name());
            assert_eq!(t.ssthresh, 3 * SMSS, "{}", r.name());
        }
    }
}
