//! Timer expirations (BSD `tcp_timers`, `tcp_fasttimo`).

use super::{State, TcpEndpoint};
use crate::cc::CongestionControl;
use crate::recovery::LossRecovery;
use crate::rtt::RttEstimator;
use crate::tcb::{CaState, LossKind};
use celltrain_core::SimTime;

/// Which timer fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Which {
    Rexmt,
    Persist,
    Delack,
    Msl2,
    Loss,
    Pace,
}

impl TcpEndpoint {
    /// Fires, in time order, every deadline at or before `now`. A re-armed timer is armed
    /// from its own expiry instant (the tick on which it fired), not from `now`.
    #[inline]
    pub(super) fn run_timers(&mut self, now: SimTime) {
        // Most calls (every `poll_transmit`) find nothing due: one pass over the deadlines,
        // inlined into the caller; the firing loop stays out of line.
        let due = |t: Option<SimTime>| t.is_some_and(|t| t <= now);
        let t = &self.timers;
        if due(t.rexmt) || due(t.persist) || due(t.delack) || due(t.msl2) || due(t.loss) || due(t.pace) {
            self.fire_due_timers(now);
        }
    }

    /// The firing loop of [`run_timers`](Self::run_timers).
    #[cold]
    #[inline(never)]
    fn fire_due_timers(&mut self, now: SimTime) {
        // Bounded: every firing either disarms its timer, moves it strictly later, or (after
        // max_retransmissions) closes the connection.
        for _ in 0..10_000 {
            let due = [
                (self.timers.rexmt, Which::Rexmt),
                (self.timers.persist, Which::Persist),
                (self.timers.delack, Which::Delack),
                (self.timers.msl2, Which::Msl2),
                (self.timers.loss, Which::Loss),
                (self.timers.pace, Which::Pace),
            ]
            .into_iter()
            .filter_map(|(t, w)| t.filter(|&t| t <= now).map(|t| (t, w)))
            .min_by_key(|&(t, _)| t);
            let Some((at, which)) = due else { return };
            self.output_fresh = true;
            match which {
                Which::Rexmt => {
                    self.timers.rexmt = None;
                    self.rexmt_expired(at);
                }
                Which::Persist => {
                    self.timers.persist = None;
                    self.persist_expired(at);
                }
                Which::Delack => {
                    // tcp_fasttimo: "if (tp->t_flags & TF_DELACK) { clear; TF_ACKNOW; tcp_output }".
                    self.timers.delack = None;
                    if std::mem::take(&mut self.delack) {
                        self.ack_now = true;
                        self.stats.delayed_acks_sent += 1;
                    }
                }
                Which::Msl2 => {
                    self.timers.msl2 = None;
                    self.state = State::Closed;
                    self.timers.cancel_all();
                }
                Which::Loss => {
                    self.timers.loss = None;
                    self.loss_timer_expired(at);
                }
                // Nothing to do but let the next drain send what pacing held back.
                Which::Pace => self.timers.pace = None,
            }
        }
        debug_assert!(false, "timer loop did not terminate");
    }

    /// TCPT_REXMT (`docs/references.md#bsd-rtt-estimator`).
    fn rexmt_expired(&mut self, at: SimTime) {
        // "if (++t_rxtshift > TCP_MAXRXTSHIFT) drop connection".
        if !self.rtt.on_timeout(self.cfg.max_retransmissions) {
            self.abort();
            return;
        }
        self.stats.timeouts += 1;
        if matches!(self.state, State::SynSent | State::SynReceived) {
            self.stats.syn_retransmits += 1;
        }
        // t_timer[REXMT] = t_rxtcur (backed off inside on_timeout).
        self.arm_rexmt(at);
        // "snd_nxt = snd_una": go back N. "t_rtt = 0": Karn.
        self.tcb.snd_nxt = self.tcb.snd_una;
        self.rtt_timing = None;
        self.pending_rexmt = None;
        self.pending_rexmt_next = false;
        // win = max(min(snd_wnd, snd_cwnd)/2/t_maxseg, 2); snd_cwnd = t_maxseg;
        // snd_ssthresh = win·t_maxseg; t_dupacks = 0 (the congestion control's formula).
        let retransmissions = self.rtt.shift();
        self.tcb.ssthresh = self.cc.ssthresh_after_loss(&self.tcb, LossKind::Timeout { retransmissions });
        self.tcb.cwnd = self.tcb.maxseg * self.cfg.policies.cwnd_after_timeout_segments();
        self.tcb.dupacks = 0;
        self.recovery.on_rto(&self.tcb);
        // RFC 2018 §8: after a timeout the sender SHOULD ignore prior SACK information.
        self.scoreboard.clear();
        self.loss_point = self.tcb.snd_max;
        self.set_ca_state(CaState::Loss);
        self.sync_loss_timer(at);
    }

    /// The loss recovery's own timer: RACK's reordering timer may start a recovery, TLP's
    /// probe timeout sends a probe and restarts the retransmission timer behind it.
    fn loss_timer_expired(&mut self, at: SimTime) {
        let step = self.recovery.on_loss_timer(&mut self.tcb, &mut self.cc, &self.scoreboard, at);
        if step.restart_rto && self.tcb.snd_una != self.tcb.snd_max && self.timers.persist.is_none() {
            self.arm_rexmt(at);
        }
        self.apply_step(step);
        self.sync_loss_timer(at);
    }

    /// TCPT_PERSIST: `tcp_setpersist(); t_force = 1; tcp_output(); t_force = 0`.
    fn persist_expired(&mut self, at: SimTime) {
        self.set_persist(at);
        self.force = true;
    }

    /// `tcp_setpersist`: arms the persist timer with back-off.
    pub(super) fn set_persist(&mut self, now: SimTime) {
        debug_assert!(self.timers.rexmt.is_none(), "tcp_output REXMT");
        self.timers.persist = Some(match (&mut self.rtt, self.slow) {
            (RttEstimator::Bsd(b), Some(clock)) => clock.nth_tick_after(now, u64::from(b.setpersist())),
            (RttEstimator::Rfc6298(r), _) => now + r.setpersist(),
            (RttEstimator::Linux(l), _) => {
                let jiffies = l.setpersist();
                l.expiry(now, jiffies, &mut self.slow_memo)
            }
            (RttEstimator::Bsd(_), None) => unreachable!("BSD estimator without a slow clock"),
        });
    }

    /// `tcp_drop(tp, ETIMEDOUT)`: close, and send an RST if the peer knows us.
    fn abort(&mut self) {
        self.stats.aborted = true;
        self.rst_pending = self.state.is_synchronized();
        self.state = State::Closed;
        self.timers.cancel_all();
        self.pending_rexmt = None;
        self.ack_now = false;
        self.delack = false;
    }
}
