//! The policies an endpoint composes, as enums: every ACK and every segment sent asks them
//! something (most answers are the traits' do-nothing defaults), and a match on the variant
//! lets those calls inline where a `Box<dyn>` made each one an indirect call.

use crate::cc::{BsdCc, CongestionControl, CubicCc, LinuxRenoCc, Rfc5681Cc, VegasCc};
use crate::recovery::{
    Afr, DupAckRule, LiteRecovery, LossRecovery, NewRenoRecovery, RecoveryStep, RenoRecovery, SackRecovery,
    TahoeRecovery, TimerCtx, TxChoice, TxLimits, VegasRmRecovery,
};
use crate::sack::Scoreboard;
use crate::seq::SeqNum;
use crate::tcb::{AckInfo, CaState, LossKind, Tcb};
use celltrain_core::{SimDuration, SimTime};

/// One of the congestion-control policies.
#[derive(Debug)]
pub enum CcPolicy {
    /// 4.4BSD window arithmetic.
    Bsd(BsdCc),
    /// RFC 5681.
    Rfc5681(Rfc5681Cc),
    /// TCP Vegas.
    Vegas(VegasCc),
    /// CUBIC (RFC 9438).
    Cubic(CubicCc),
    /// Linux's Reno.
    LinuxReno(LinuxRenoCc),
}

/// Evaluates `$call` with `$p` bound to whichever policy `$self` holds.
macro_rules! each_cc {
    ($self:expr, $p:ident => $call:expr) => {
        match $self {
            CcPolicy::Bsd($p) => $call,
            CcPolicy::Rfc5681($p) => $call,
            CcPolicy::Vegas($p) => $call,
            CcPolicy::Cubic($p) => $call,
            CcPolicy::LinuxReno($p) => $call,
        }
    };
}

impl CongestionControl for CcPolicy {
    fn name(&self) -> &'static str {
        each_cc!(self, p => p.name())
    }
    #[inline]
    fn ssthresh_after_loss(&mut self, tcb: &Tcb, loss: LossKind) -> u32 {
        each_cc!(self, p => p.ssthresh_after_loss(tcb, loss))
    }
    #[inline]
    fn on_ack(&mut self, tcb: &mut Tcb, ack: &AckInfo, now: SimTime) {
        each_cc!(self, p => p.on_ack(tcb, ack, now))
    }
    #[inline]
    fn on_rtt_sample(&mut self, tcb: &Tcb, rtt: SimDuration, now: SimTime) {
        each_cc!(self, p => p.on_rtt_sample(tcb, rtt, now))
    }
    #[inline]
    fn on_send(&mut self, tcb: &Tcb, seq: SeqNum, len: u32, now: SimTime) {
        each_cc!(self, p => p.on_send(tcb, seq, len, now))
    }
    #[inline]
    fn on_fine_rtt(&mut self, tcb: &Tcb, rtt: SimDuration, now: SimTime) {
        each_cc!(self, p => p.on_fine_rtt(tcb, rtt, now))
    }
    #[inline]
    fn on_ca_state(&mut self, tcb: &Tcb, from: CaState, to: CaState) {
        each_cc!(self, p => p.on_ca_state(tcb, from, to))
    }
}

/// One of the loss-recovery policies.
#[derive(Debug)]
pub enum RecoveryPolicy {
    /// 4.3BSD-Tahoe.
    Tahoe(TahoeRecovery),
    /// RFC 5681 Reno.
    Reno(RenoRecovery),
    /// 4.4BSD-Lite2 Reno.
    Lite(LiteRecovery),
    /// RFC 6582 NewReno.
    NewReno(NewRenoRecovery),
    /// RFC 6675 SACK-based recovery.
    Sack(SackRecovery),
    /// Lite with adaptive fast retransmit.
    LiteAfr(Afr<LiteRecovery>),
    /// Vegas's retransmission mechanism.
    VegasRm(VegasRmRecovery),
    /// Vegas's retransmission mechanism with adaptive fast retransmit.
    VegasRmAfr(Afr<VegasRmRecovery>),
}

/// Evaluates `$call` with `$p` bound to whichever policy `$self` holds.
macro_rules! each_recovery {
    ($self:expr, $p:ident => $call:expr) => {
        match $self {
            RecoveryPolicy::Tahoe($p) => $call,
            RecoveryPolicy::Reno($p) => $call,
            RecoveryPolicy::Lite($p) => $call,
            RecoveryPolicy::NewReno($p) => $call,
            RecoveryPolicy::Sack($p) => $call,
            RecoveryPolicy::LiteAfr($p) => $call,
            RecoveryPolicy::VegasRm($p) => $call,
            RecoveryPolicy::VegasRmAfr($p) => $call,
        }
    };
}

impl LossRecovery for RecoveryPolicy {
    fn name(&self) -> &'static str {
        each_recovery!(self, p => p.name())
    }
    #[inline]
    fn dupack_rule(&self) -> DupAckRule {
        each_recovery!(self, p => p.dupack_rule())
    }
    // (Always: every ACK asks, from two places, and left to itself the compiler kept the
    // dispatch out of line.)
    #[inline(always)]
    fn on_ack(
        &mut self,
        tcb: &mut Tcb,
        cc: &mut dyn CongestionControl,
        sb: &Scoreboard,
        ack: &AckInfo,
    ) -> RecoveryStep {
        each_recovery!(self, p => p.on_ack(tcb, cc, sb, ack))
    }
    #[inline]
    fn on_rto(&mut self, tcb: &Tcb) {
        each_recovery!(self, p => p.on_rto(tcb))
    }
    #[inline]
    fn in_recovery(&self) -> bool {
        each_recovery!(self, p => p.in_recovery())
    }
    #[inline]
    fn choose_tx(&mut self, tcb: &Tcb, sb: &Scoreboard, lim: &TxLimits) -> TxChoice {
        each_recovery!(self, p => p.choose_tx(tcb, sb, lim))
    }
    #[inline]
    fn on_sent(&mut self, tcb: &Tcb, sb: &Scoreboard, start: SeqNum, end: SeqNum, retransmission: bool, now: SimTime) {
        each_recovery!(self, p => p.on_sent(tcb, sb, start, end, retransmission, now))
    }
    #[inline]
    fn loss_timer(&mut self, tcb: &Tcb, ctx: &TimerCtx) -> Option<SimTime> {
        each_recovery!(self, p => p.loss_timer(tcb, ctx))
    }
    fn on_loss_timer(
        &mut self,
        tcb: &mut Tcb,
        cc: &mut dyn CongestionControl,
        sb: &Scoreboard,
        now: SimTime,
    ) -> RecoveryStep {
        each_recovery!(self, p => p.on_loss_timer(tcb, cc, sb, now))
    }
}
