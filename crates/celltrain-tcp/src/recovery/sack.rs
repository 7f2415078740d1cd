//! Conservative SACK-based loss recovery (RFC 6675) on the RFC 2018 scoreboard, sending
//! under RFC 6675's window or under Proportional Rate Reduction ([`Prr`], RFC 6937).

use super::prr::Prr;
use super::rack::{Rack, TimerCtx};
use super::{DupAckRule, LossRecovery, RecoveryStep, TxChoice, TxLimits};
use crate::cc::CongestionControl;
use crate::sack::Scoreboard;
use crate::seq::SeqNum;
use crate::tcb::{AckInfo, CaState, LossKind, Tcb};
use celltrain_core::SimTime;

/// RFC 6675 §5 (`docs/references.md#sack`).
///
/// Sequence variables are stored one past RFC 6675's inclusive octets: `recovery_point` is
/// RecoveryPoint + 1 (= `snd_max` at entry), `high_rxt` is HighRxt + 1.
///
/// ```text
/// dup ACK (SACKs new data), not in recovery, snd_una ≥ guard:
///   (1)/(2) DupAcks ≥ DupThresh or IsLost(HighACK+1) →
///   (4.1) RecoveryPoint = HighData   (4.2) ssthresh = cwnd = max(FlightSize/2, 2·SMSS)
///   (4.3) retransmit HighACK+1, HighRxt = its end   (4.4) SetPipe()   (4.5) → (C)
/// in recovery: (A) cumulative ACK > RecoveryPoint → leave; (B) SetPipe()
/// (C) while cwnd − pipe ≥ SMSS: send NextSeg(), pipe += its length
/// timeout: leave; RecoveryPoint = HighData; no new recovery until HighACK ≥ it (§5.1)
/// ```
/// The exiting ACK does not grow the window (cwnd is already ssthresh).
///
/// With PRR ([`SackRecovery::with_prr`]) the loss detection and `NextSeg()` stay RFC 6675's;
/// only (4.2) and every later ACK of the episode set `cwnd = pipe + sndcnt` instead of
/// `cwnd = ssthresh`, and the exit sets `cwnd = ssthresh` (RFC 6937 §3).
///
/// With RACK-TLP ([`SackRecovery::with_rack_tlp`], always with PRR) RACK's marks replace
/// `IsLost()`: recovery starts when RACK marks a segment lost (on an ACK or when its
/// reordering timer expires), `pipe` counts the segments neither delivered nor lost,
/// `NextSeg()` is the lowest lost segment, else new data (no rescue retransmission: the tail
/// loss probe covers the tail), and a lost retransmission is lost like any other segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SackRecovery {
    /// Loss recovery in progress.
    in_recovery: bool,
    /// RecoveryPoint + 1: recovery ends when the cumulative ACK reaches it.
    recovery_point: SeqNum,
    /// A new recovery may start only once `snd_una` reaches this (after a timeout).
    guard: Option<SeqNum>,
    /// HighRxt + 1: one past the highest octet retransmitted in this episode.
    high_rxt: SeqNum,
    /// RFC 6675 `pipe`, octets.
    pipe: u32,
    /// The rescue retransmission (NextSeg rule 4) of this episode has been chosen.
    rescue_used: bool,
    /// The next `on_sent` is the rescue retransmission (HighRxt is not advanced by it).
    rescue_pending: bool,
    /// The (4.3) retransmission has not been sent yet.
    awaiting_first_rexmt: bool,
    /// Proportional Rate Reduction decides how much to send in recovery.
    prr: bool,
    /// PRR's state for the current episode.
    episode: Prr,
    /// SACKed octets after the previous ACK (PRR's DeliveredData counts the change).
    sacked_before: u32,
    /// RACK-TLP decides which segments are lost (None: RFC 6675's `IsLost()`).
    rack: Option<Rack>,
}

impl SackRecovery {
    /// An RFC 6675 policy.
    pub fn new() -> Self {
        SackRecovery {
            in_recovery: false,
            recovery_point: SeqNum(0),
            guard: None,
            high_rxt: SeqNum(0),
            pipe: 0,
            rescue_used: false,
            rescue_pending: false,
            awaiting_first_rexmt: false,
            prr: false,
            episode: Prr::default(),
            sacked_before: 0,
            rack: None,
        }
    }

    /// RACK-TLP's loss detection (RFC 8985) with PRR's sending, as Linux composes them.
    pub fn with_rack_tlp() -> Self {
        SackRecovery { rack: Some(Rack::new()), ..SackRecovery::with_prr() }
    }

    /// Linux's default recovery: RACK-TLP reading D-SACKs (RFC 2883), with PRR.
    pub fn with_linux() -> Self {
        SackRecovery { rack: Some(Rack::with_dsack()), ..SackRecovery::with_prr() }
    }

    /// The same recovery, its RACK sending tail loss probes or not (Linux's
    /// `tcp_early_retrans`); without RACK, the same.
    pub fn probing(mut self, tail_loss_probe: bool) -> Self {
        if let Some(rack) = &mut self.rack {
            rack.set_tail_loss_probe(tail_loss_probe);
        }
        self
    }

    /// RACK-TLP's state, if this recovery uses it.
    pub fn rack(&self) -> Option<&Rack> {
        self.rack.as_ref()
    }

    /// Not in recovery, past the post-timeout guard (§5.1), data outstanding.
    fn may_enter(&self, tcb: &Tcb) -> bool {
        !self.in_recovery && self.guard.is_none_or(|g| tcb.snd_una.ge(g)) && tcb.snd_una.lt(tcb.snd_max)
    }

    /// RFC 6675's loss detection with RFC 6937's Proportional Rate Reduction (and its
    /// slow-start reduction bound) deciding how much to send.
    pub fn with_prr() -> Self {
        SackRecovery { prr: true, ..SackRecovery::new() }
    }

    /// RFC 6937 DeliveredData = Δsnd.una + ΔSACKed: what this ACK told us arrived, counting
    /// once the SACKed octets a cumulative ACK now covers.
    fn delivered_data(&mut self, sb: &Scoreboard, ack: &AckInfo) -> u32 {
        let sacked = sb.sacked_bytes();
        let delivered = i64::from(ack.acked) + i64::from(sacked) - i64::from(self.sacked_before);
        self.sacked_before = sacked;
        delivered.clamp(0, i64::from(u32::MAX)) as u32
    }

    /// PRR's window for this ACK: `pipe + sndcnt` (SetPipe() already ran).
    fn prr_cwnd(&mut self, tcb: &Tcb, delivered: u32) -> u32 {
        let sndcnt = self.episode.on_ack(delivered, self.pipe, tcb.ssthresh, tcb.maxseg);
        self.pipe.saturating_add(sndcnt)
    }

    /// RFC 6675 `pipe`, octets (meaningful in recovery).
    pub fn pipe(&self) -> u32 {
        self.pipe
    }

    fn set_pipe(&mut self, tcb: &Tcb, sb: &Scoreboard) {
        self.high_rxt = self.high_rxt.max(tcb.snd_una);
        self.pipe = match &self.rack {
            Some(rack) => rack.pipe(),
            None => sb.pipe(tcb.snd_una, tcb.snd_max, self.high_rxt, tcb.maxseg, tcb.dupack_threshold),
        };
    }

    /// Whether this ACK starts a recovery: RACK has marked a segment lost, or (RFC 6675 (1)
    /// and (2)) DupThresh duplicates or `IsLost(HighACK + 1)` on a duplicate.
    fn loss_detected(&self, tcb: &Tcb, sb: &Scoreboard, ack: &AckInfo) -> bool {
        match &self.rack {
            Some(rack) => rack.has_lost(),
            None => {
                ack.is_dup
                    && (tcb.dupacks >= tcb.dupack_threshold
                        || sb.is_lost(tcb.snd_una, tcb.maxseg, tcb.dupack_threshold))
            }
        }
    }

    /// RACK's steps on an ACK: what was delivered, the probe's outcome, which segments are lost.
    /// Returns true if a retransmitted probe was acknowledged outside recovery, so that the
    /// window must come down as fast recovery would bring it (RFC 8985 §7.4.2).
    fn rack_on_ack(&mut self, tcb: &Tcb, sb: &Scoreboard, ack: &AckInfo) -> bool {
        let in_recovery = self.in_recovery;
        let Some(rack) = &mut self.rack else { return false };
        rack.on_ack(ack.ack, sb, ack.now);
        rack.on_dsack(ack.dsack, tcb.snd_una, tcb.snd_max);
        let probe_repaired_a_loss = rack.probe_acked(ack.ack, ack.dsack) && !in_recovery;
        let reo_wnd = rack.reo_wnd(in_recovery, tcb.dupack_threshold);
        rack.detect_loss(ack.now, reo_wnd);
        probe_repaired_a_loss
    }

    /// RFC 6675 (4.1)–(4.4): the recovery starts; (4.3)'s retransmission is the first lost
    /// segment (RACK) or HighACK + 1.
    fn enter(
        &mut self,
        tcb: &mut Tcb,
        cc: &mut dyn CongestionControl,
        sb: &Scoreboard,
        delivered: u32,
    ) -> RecoveryStep {
        // (4.1) RecoveryPoint = HighData.
        self.recovery_point = tcb.snd_max;
        // (4.2) ssthresh = cwnd = (FlightSize / 2), per RFC 5681.
        tcb.ssthresh = cc.ssthresh_after_loss(tcb, LossKind::DupAcks);
        tcb.cwnd = tcb.ssthresh;
        self.in_recovery = true;
        self.high_rxt = tcb.snd_una;
        self.rescue_used = false;
        self.rescue_pending = false;
        self.awaiting_first_rexmt = true;
        self.set_pipe(tcb, sb);
        if self.prr {
            // RecoverFS = snd.nxt − snd.una; the entering ACK is the episode's first.
            self.episode = Prr::start(tcb.flight_size());
            tcb.cwnd = self.prr_cwnd(tcb, delivered);
        }
        let first_lost = self.rack.as_ref().and_then(Rack::first_lost).map(|(start, _)| start);
        // (4.3) Retransmit the first data segment presumed dropped.
        RecoveryStep {
            retransmit: Some(first_lost.unwrap_or(tcb.snd_una)),
            entered: true,
            restart_rto: true,
            ca_state: Some(CaState::Recovery),
            ..RecoveryStep::default()
        }
    }

    /// RFC 6675 `NextSeg()`.
    fn next_seg(&mut self, tcb: &Tcb, sb: &Scoreboard, lim: &TxLimits) -> Option<(SeqNum, SeqNum)> {
        let smss = tcb.maxseg;
        let from = self.high_rxt.max(tcb.snd_una);
        let mut rule3 = None;
        if let Some(rack) = &self.rack {
            if let Some(lost) = rack.first_lost() {
                return Some(lost);
            }
        } else if let Some(highest) = sb.highest_sacked() {
            let s = sb.first_unsacked_from(from);
            if s.lt(highest) {
                let end = (s + smss).min(sb.next_sacked_after(s).unwrap_or(highest));
                // (1) S2 > HighRxt, S2 < highest SACKed octet, IsLost(S2).
                if sb.is_lost(s, smss, tcb.dupack_threshold) {
                    return Some((s, end));
                }
                rule3 = Some((s, end));
            }
        }
        // (2) Previously unsent data, if the receiver's window allows.
        if tcb.snd_max.lt(lim.data_end) && tcb.snd_max.lt(lim.rwnd_end) {
            let end = (tcb.snd_max + smss).min(lim.data_end).min(lim.rwnd_end);
            return Some((tcb.snd_max, end));
        }
        // (3) Un-SACKed data above HighRxt below the highest SACKed octet, not yet lost.
        if rule3.is_some() {
            return rule3;
        }
        // (4) One rescue retransmission per episode, ending at the highest un-SACKed octet.
        if !self.rescue_used && self.rack.is_none() && tcb.snd_una.lt(tcb.snd_max) {
            let mut top = tcb.snd_max;
            for &(s, e) in sb.ranges().iter().rev() {
                if e == top {
                    top = s;
                } else {
                    break;
                }
            }
            if tcb.snd_una.lt(top) {
                let mut start = (top - smss).max(tcb.snd_una);
                if top - tcb.snd_una < smss {
                    start = tcb.snd_una;
                }
                for &(_, e) in sb.ranges() {
                    if e.le(top) && e.gt(start) {
                        start = e;
                    }
                }
                self.rescue_used = true;
                self.rescue_pending = true;
                return Some((start, top));
            }
        }
        None
    }
}

impl Default for SackRecovery {
    fn default() -> Self {
        SackRecovery::new()
    }
}

impl LossRecovery for SackRecovery {
    fn name(&self) -> &'static str {
        if self.prr {
            "prr"
        } else {
            "sack"
        }
    }

    fn dupack_rule(&self) -> DupAckRule {
        DupAckRule::Sack
    }

    fn on_ack(
        &mut self,
        tcb: &mut Tcb,
        cc: &mut dyn CongestionControl,
        sb: &Scoreboard,
        ack: &AckInfo,
    ) -> RecoveryStep {
        // §5: "If the incoming ACK is a cumulative acknowledgment, the TCP MUST reset DupAcks
        // to zero. If the incoming ACK is a duplicate acknowledgment ... increase DupAcks by one".
        if ack.acked > 0 {
            tcb.dupacks = 0;
        }
        if ack.is_dup {
            tcb.dupacks += 1;
        }
        let delivered = if self.prr { self.delivered_data(sb, ack) } else { 0 };
        let probe_repaired_a_loss = self.rack_on_ack(tcb, sb, ack);
        if self.in_recovery {
            if ack.ack.ge(self.recovery_point) {
                // (A) "An incoming cumulative ACK for a sequence number greater than
                // RecoveryPoint signals the end of loss recovery".
                self.in_recovery = false;
                self.guard = Some(self.recovery_point);
                if self.prr {
                    tcb.cwnd = tcb.ssthresh;
                }
                if let Some(rack) = &mut self.rack {
                    rack.on_recovery_exit();
                }
                return RecoveryStep { restart_rto: true, ca_state: Some(CaState::Open), ..RecoveryStep::default() };
            }
            // (B.2) SetPipe(); (C) happens in choose_tx.
            self.set_pipe(tcb, sb);
            if self.prr {
                tcb.cwnd = self.prr_cwnd(tcb, delivered);
            }
            return RecoveryStep { restart_rto: true, ..RecoveryStep::default() };
        }
        if self.may_enter(tcb) && self.loss_detected(tcb, sb, ack) {
            return self.enter(tcb, cc, sb, delivered);
        }
        if probe_repaired_a_loss {
            tcb.ssthresh = cc.ssthresh_after_loss(tcb, LossKind::DupAcks);
            tcb.cwnd = tcb.ssthresh;
            return RecoveryStep { restart_rto: true, ..RecoveryStep::default() };
        }
        RecoveryStep::normal(ack)
    }

    fn on_rto(&mut self, tcb: &Tcb) {
        if let Some(rack) = &mut self.rack {
            rack.on_rto();
        }
        self.in_recovery = false;
        self.guard = Some(tcb.snd_max);
        self.pipe = 0;
        self.awaiting_first_rexmt = false;
        self.rescue_pending = false;
        // The endpoint forgets the SACKs (RFC 2018 §8).
        self.sacked_before = 0;
    }

    fn in_recovery(&self) -> bool {
        self.in_recovery
    }

    fn loss_timer(&mut self, tcb: &Tcb, ctx: &TimerCtx) -> Option<SimTime> {
        // RFC 8985 §7.2: no probe in fast recovery or in the recovery after a timeout.
        let may_probe = !self.in_recovery && self.guard.is_none_or(|g| tcb.snd_una.ge(g));
        self.rack.as_mut()?.timer(may_probe, ctx)
    }

    fn on_loss_timer(
        &mut self,
        tcb: &mut Tcb,
        cc: &mut dyn CongestionControl,
        sb: &Scoreboard,
        now: SimTime,
    ) -> RecoveryStep {
        let in_recovery = self.in_recovery;
        let Some(rack) = &mut self.rack else { return RecoveryStep::default() };
        if !rack.on_timer(now) {
            // The probe goes out on the next transmission; the RTO restarts behind it.
            return RecoveryStep { restart_rto: true, ..RecoveryStep::default() };
        }
        let reo_wnd = rack.reo_wnd(in_recovery, tcb.dupack_threshold);
        rack.detect_loss(now, reo_wnd);
        if in_recovery {
            self.set_pipe(tcb, sb);
            return RecoveryStep::default();
        }
        if self.may_enter(tcb) && self.rack.as_ref().is_some_and(Rack::has_lost) {
            return self.enter(tcb, cc, sb, 0);
        }
        RecoveryStep::default()
    }

    fn choose_tx(&mut self, tcb: &Tcb, sb: &Scoreboard, lim: &TxLimits) -> TxChoice {
        if !self.in_recovery {
            // RFC 8985 §7.3: the probe goes whatever the congestion window.
            let new_end = (tcb.snd_max + tcb.maxseg).min(lim.data_end).min(lim.rwnd_end);
            return match self.rack.as_mut().and_then(|r| r.take_probe(tcb.snd_max, new_end)) {
                Some((start, end)) => TxChoice::Probe { start, end },
                None => TxChoice::Window,
            };
        }
        // (C) "If cwnd − pipe >= 1 SMSS, the sender SHOULD transmit one or more segments".
        if u64::from(self.pipe) + u64::from(tcb.maxseg) > u64::from(tcb.cwnd) {
            return TxChoice::Hold;
        }
        match self.next_seg(tcb, sb, lim) {
            Some((start, end)) => TxChoice::Send { start, end },
            None => TxChoice::Hold,
        }
    }

    fn on_sent(&mut self, tcb: &Tcb, sb: &Scoreboard, start: SeqNum, end: SeqNum, retransmission: bool, now: SimTime) {
        if let Some(rack) = &mut self.rack {
            rack.on_sent(start, end, now, tcb.snd_max);
        }
        if !self.in_recovery {
            return;
        }
        if self.prr {
            self.episode.on_sent(end - start);
        }
        if std::mem::take(&mut self.awaiting_first_rexmt) {
            // (4.3) HighRxt = end of the retransmitted segment; (4.4) SetPipe().
            self.high_rxt = self.high_rxt.max(end);
            self.set_pipe(tcb, sb);
            return;
        }
        // (C.2) "HighRxt MUST be set to the highest octet retransmitted" (not for the rescue).
        if retransmission && !self.rescue_pending {
            self.high_rxt = self.high_rxt.max(end);
        }
        self.rescue_pending = false;
        // (C.4) pipe += octets transmitted.
        self.pipe = self.pipe.saturating_add(end - start);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::Rfc5681Cc;
    use crate::recovery::testing::*;
    use crate::segment::SackBlock;

    fn sack_seg(sb: &mut Scoreboard, t: &Tcb, n: u32) -> u32 {
        sb.update(t.snd_una, t.snd_max, &[SackBlock { left: seg(n), right: seg(n + 1) }])
    }

    fn sack_dup(t: &Tcb, newly: u32) -> AckInfo {
        let mut a = dup(t);
        a.newly_sacked = newly;
        a.is_dup = newly > 0;
        a
    }

    fn limits(t: &Tcb, data_segments: u32) -> TxLimits {
        TxLimits { data_end: seg(data_segments + 1), rwnd_end: t.snd_una + (1 << 20) }
    }

    #[test]
    fn reference_vector_7g_entry_by_islost_and_nextseg() {
        // Segments 1..=6 sent; one ACK (the others were lost) SACKs 3, 5 and 6.
        let mut cc = Rfc5681Cc::new();
        let mut sb = Scoreboard::new();
        let mut r = SackRecovery::new();
        let mut t = tcb(1, 6, 6 * SMSS);
        let newly = sb.update(
            t.snd_una,
            t.snd_max,
            &[SackBlock { left: seg(5), right: seg(7) }, SackBlock { left: seg(3), right: seg(4) }],
        );
        assert_eq!(newly, 3 * SMSS);
        let s = {
            let a = sack_dup(&t, newly);
            r.on_ack(&mut t, &mut cc, &sb, &a)
        };
        assert_eq!(t.dupacks, 1);
        assert!(s.entered, "DupAcks < DupThresh but IsLost(HighACK+1)");
        assert_eq!(s.retransmit, Some(seg(1)));
        assert_eq!((t.ssthresh, t.cwnd), (3 * SMSS, 3 * SMSS), "FlightSize 6 → 3");
        assert_eq!(r.pipe(), SMSS, "segment 4 only");
        r.on_sent(&t, &sb, seg(1), seg(2), true, SimTime::ZERO);
        assert_eq!(r.pipe(), 2 * SMSS, "after retransmitting segment 1");
        // (C): cwnd − pipe = 1 SMSS → NextSeg rule (1) gives segment 2 (lost).
        let lim = limits(&t, 6);
        assert_eq!(r.choose_tx(&t, &sb, &lim), TxChoice::Send { start: seg(2), end: seg(3) });
        r.on_sent(&t, &sb, seg(2), seg(3), true, SimTime::ZERO);
        assert_eq!(r.pipe(), 3 * SMSS);
        assert_eq!(r.choose_tx(&t, &sb, &lim), TxChoice::Hold, "cwnd − pipe < SMSS");
        // A partial ACK for 1..=3 (3 was SACKed): SetPipe = seg 2 (retransmitted) + seg 4.
        let a = new_ack(&mut t, 4);
        sb.advance(t.snd_una);
        let s = r.on_ack(&mut t, &mut cc, &sb, &a);
        assert!(!s.grow_window && s.restart_rto);
        assert_eq!(r.pipe(), SMSS, "only segment 4 is un-SACKed and not lost (2 was acked)");
        // Rule (3): segment 4 is not lost (only 2 SACKed segments above) but below the highest SACK.
        assert_eq!(r.choose_tx(&t, &sb, &lim), TxChoice::Send { start: seg(4), end: seg(5) });
        r.on_sent(&t, &sb, seg(4), seg(5), true, SimTime::ZERO);
        assert_eq!(r.pipe(), 2 * SMSS);
        // Exit when the cumulative ACK passes RecoveryPoint.
        let a = new_ack(&mut t, 7);
        sb.advance(t.snd_una);
        let s = r.on_ack(&mut t, &mut cc, &sb, &a);
        assert_eq!(s.ca_state, Some(CaState::Open));
        assert!(!s.grow_window);
        assert!(!r.in_recovery());
        assert_eq!(r.choose_tx(&t, &sb, &lim), TxChoice::Window);
    }

    #[test]
    fn entry_on_third_sack_dupack_and_new_data_rule_2() {
        let mut cc = Rfc5681Cc::new();
        let mut sb = Scoreboard::new();
        let mut r = SackRecovery::new();
        let mut t = tcb(1, 10, 10 * SMSS);
        for n in 2..=3 {
            let newly = sack_seg(&mut sb, &t, n);
            assert!(
                !{
                    let a = sack_dup(&t, newly);
                    r.on_ack(&mut t, &mut cc, &sb, &a)
                }
                .entered
            );
        }
        // An ACK repeating old SACK information is not a duplicate under RFC 6675.
        let s = {
            let a = sack_dup(&t, 0);
            r.on_ack(&mut t, &mut cc, &sb, &a)
        };
        assert_eq!((s.entered, t.dupacks), (false, 2));
        let newly = sack_seg(&mut sb, &t, 4);
        let s = {
            let a = sack_dup(&t, newly);
            r.on_ack(&mut t, &mut cc, &sb, &a)
        };
        assert!(s.entered);
        assert_eq!((t.ssthresh, t.cwnd), (5 * SMSS, 5 * SMSS));
        r.on_sent(&t, &sb, seg(1), seg(2), true, SimTime::ZERO);
        // pipe: segment 1 retransmitted (1) + segments 5..=10 not lost (6) = 7 > cwnd 5.
        assert_eq!(r.pipe(), 7 * SMSS);
        let lim = limits(&t, 20);
        assert_eq!(r.choose_tx(&t, &sb, &lim), TxChoice::Hold);
        // Four more segments SACKed (5..=8): pipe = 1 + 2 (9, 10) = 3 → two sends allowed.
        for n in 5..=8 {
            let newly = sack_seg(&mut sb, &t, n);
            {
                let a = sack_dup(&t, newly);
                r.on_ack(&mut t, &mut cc, &sb, &a)
            };
        }
        assert_eq!(r.pipe(), 3 * SMSS);
        // Nothing lost above HighRxt below the highest SACK → rule (2): new data at snd_max.
        assert_eq!(r.choose_tx(&t, &sb, &lim), TxChoice::Send { start: seg(11), end: seg(12) });
        t.snd_max = seg(12);
        t.snd_nxt = t.snd_max;
        r.on_sent(&t, &sb, seg(11), seg(12), false, SimTime::ZERO);
        assert_eq!(r.pipe(), 4 * SMSS);
    }

    #[test]
    fn rescue_retransmission_once_per_episode() {
        let mut cc = Rfc5681Cc::new();
        let mut sb = Scoreboard::new();
        let mut r = SackRecovery::new();
        let mut t = tcb(1, 6, 6 * SMSS);
        // SACK 2, 3, 4: segment 1 lost; 5 and 6 un-SACKed at the top.
        let newly = sb.update(t.snd_una, t.snd_max, &[SackBlock { left: seg(2), right: seg(5) }]);
        assert!(
            {
                let a = sack_dup(&t, newly);
                r.on_ack(&mut t, &mut cc, &sb, &a)
            }
            .entered
        );
        r.on_sent(&t, &sb, seg(1), seg(2), true, SimTime::ZERO);
        // No more new data (data_end = snd_max), nothing lost above HighRxt, no rule-3 data:
        // rule (4) retransmits the segment holding the highest un-SACKed octet (segment 6).
        t.cwnd = 10 * SMSS;
        let lim = limits(&t, 6);
        assert_eq!(r.choose_tx(&t, &sb, &lim), TxChoice::Send { start: seg(6), end: seg(7) });
        r.on_sent(&t, &sb, seg(6), seg(7), true, SimTime::ZERO);
        assert_eq!(r.choose_tx(&t, &sb, &lim), TxChoice::Hold, "only one rescue");
    }

    #[test]
    fn no_new_recovery_before_the_post_timeout_recovery_point() {
        let mut cc = Rfc5681Cc::new();
        let mut sb = Scoreboard::new();
        let mut r = SackRecovery::new();
        let mut t = tcb(1, 10, 10 * SMSS);
        r.on_rto(&t);
        for n in 2..=5 {
            let newly = sack_seg(&mut sb, &t, n);
            assert!(
                !{
                    let a = sack_dup(&t, newly);
                    r.on_ack(&mut t, &mut cc, &sb, &a)
                }
                .entered
            );
        }
        assert_eq!(t.dupacks, 4);
    }

    #[test]
    fn prr_sets_cwnd_to_pipe_plus_sndcnt_and_ssthresh_at_the_exit() {
        let mut cc = Rfc5681Cc::new();
        let mut sb = Scoreboard::new();
        let mut r = SackRecovery::with_prr();
        let mut t = tcb(1, 20, 20 * SMSS);
        let mut step = RecoveryStep::default();
        for n in 2..=4 {
            let newly = sack_seg(&mut sb, &t, n);
            let a = sack_dup(&t, newly);
            step = r.on_ack(&mut t, &mut cc, &sb, &a);
        }
        assert!(step.entered && step.retransmit == Some(seg(1)));
        // ssthresh = 10 segments; pipe = segments 5..=20; the entering ACK delivered one
        // segment: sndcnt = ⌈1·10/20⌉ segments = 1, so cwnd = 16 + 1 (RFC 6675: 10).
        assert_eq!(t.ssthresh, 10 * SMSS);
        assert_eq!(r.pipe(), 16 * SMSS);
        assert_eq!(t.cwnd, 17 * SMSS);
        r.on_sent(&t, &sb, seg(1), seg(2), true, SimTime::ZERO);
        assert_eq!(r.choose_tx(&t, &sb, &limits(&t, 40)), TxChoice::Hold, "the retransmission used sndcnt");
        // The next SACK: ⌈2·10/20⌉ − 1 = 0 more; pipe = 15 + the retransmission.
        let newly = sack_seg(&mut sb, &t, 5);
        let a = sack_dup(&t, newly);
        r.on_ack(&mut t, &mut cc, &sb, &a);
        assert_eq!((r.pipe(), t.cwnd), (16 * SMSS, 16 * SMSS));
        // A cumulative ACK past RecoveryPoint ends the episode at cwnd = ssthresh.
        let a = new_ack(&mut t, 21);
        sb.advance(t.snd_una);
        let s = r.on_ack(&mut t, &mut cc, &sb, &a);
        assert_eq!(s.ca_state, Some(CaState::Open));
        assert_eq!(t.cwnd, 10 * SMSS);
    }
}
