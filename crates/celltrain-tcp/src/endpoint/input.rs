//! Segment arrival (BSD `tcp_input`, RFC 793 §3.9 "SEGMENT ARRIVES").

use super::{State, TcpEndpoint};
use crate::cc::CongestionControl;
use crate::config::DelayedAck;
use crate::policy::RecoveryPolicy;
use crate::recovery::LossRecovery;
use crate::recovery::{DupAckRule, NewRenoRecovery, RecoveryStep};
use crate::rtt::RttEstimator;
use crate::segment::{Flags, SackBlock, Segment};
use crate::seq::SeqNum;
use crate::tcb::{AckInfo, CaState};
use celltrain_core::{SimDuration, SimTime};

/// Octets the timestamp option takes from each segment (10, NOP-padded to 12).
const TS_OPTION_SPACE: u32 = 12;
/// Smallest MSS BSD accepts (`tcp_mss`: "mss = max(mss, 32)").
const MIN_MSS: u32 = 32;

impl TcpEndpoint {
    pub(super) fn input(&mut self, now: SimTime, seg: &Segment) {
        self.stats.segments_received += 1;
        if seg.dst_port != self.local_port {
            return;
        }
        match self.state {
            State::Closed => self.reset_reply(seg),
            State::Listen => self.input_listen(now, seg),
            State::SynSent if seg.src_port == self.remote_port => self.input_syn_sent(now, seg),
            State::SynSent => {}
            _ if seg.src_port == self.remote_port => self.input_synchronized(now, seg),
            _ => {}
        }
    }

    /// RFC 793 CLOSED: "An incoming segment not containing a RST causes a RST to be sent in
    /// response": `<SEQ=SEG.ACK><CTL=RST>` if it had an ACK, else
    /// `<SEQ=0><ACK=SEG.SEQ+SEG.LEN><CTL=RST,ACK>`.
    fn reset_reply(&mut self, seg: &Segment) {
        if seg.flags.rst() {
            return;
        }
        let (seq, ack, flags) = if seg.flags.ack() {
            (seg.ack, SeqNum(0), Flags::RST)
        } else {
            (SeqNum(0), seg.seq_end(), Flags::RST | Flags::ACK)
        };
        self.rst_reply =
            Some(Segment { src_port: self.local_port, dst_port: seg.src_port, seq, ack, flags, ..Segment::default() });
    }

    /// Applies the options of the peer's SYN (or SYN-ACK). An option is in use when both
    /// ends sent it (RFC 7323 §2.2/§3.2, RFC 2018 §2); we offer what the config allows.
    fn take_syn_options(&mut self, seg: &Segment) {
        let o = &seg.options;
        match (self.cfg.window_scaling, o.window_scale) {
            (true, Some(shift)) => {
                self.ws_ok = true;
                self.tcb.snd_scale = shift.min(crate::tcb::TCP_MAX_WINSHIFT);
                self.rcv_scale = self.cfg.requested_window_scale();
            }
            _ => {
                self.ws_ok = false;
                self.tcb.snd_scale = 0;
                self.rcv_scale = 0;
            }
        }
        self.ts_ok = false;
        if let (true, Some((tsval, _))) = (self.cfg.timestamps, o.timestamps) {
            self.ts_ok = true;
            self.ts_recent = tsval;
        }
        self.sack_ok = self.cfg.policies.offers_sack() && o.sack_permitted;
        if self.cfg.policies.offers_sack() && !self.sack_ok {
            // RFC 6675 needs SACK; without it the recovery falls back to NewReno.
            self.recovery = RecoveryPolicy::NewReno(NewRenoRecovery::new(self.iss));
        }
        // tcp_mss: min(own, offer), at least 32; then room for the timestamp option.
        let peer = o.mss.map_or(self.own_mss, u32::from);
        let mut mss = self.own_mss.min(peer).max(MIN_MSS);
        if self.ts_ok {
            mss -= TS_OPTION_SPACE;
        }
        self.tcb.maxseg = mss;
        self.tcb.cwnd = self.cfg.initial_cwnd_segments.saturating_mul(mss);
    }

    fn input_listen(&mut self, now: SimTime, seg: &Segment) {
        if seg.flags.rst() || seg.flags.ack() || !seg.flags.syn() {
            return;
        }
        self.remote_port = seg.src_port;
        self.irs = seg.seq;
        self.rcv_nxt = seg.seq + 1;
        self.rcv_adv = self.rcv_nxt;
        self.last_ack_sent = self.rcv_nxt;
        self.take_syn_options(seg);
        // The window of a SYN is never scaled.
        self.tcb.snd_wnd = u32::from(seg.window);
        self.max_sndwnd = self.tcb.snd_wnd;
        self.snd_wl1 = seg.seq;
        self.snd_wl2 = self.iss;
        self.last_rcv = now;
        self.state = State::SynReceived;
    }

    fn input_syn_sent(&mut self, now: SimTime, seg: &Segment) {
        let has_ack = seg.flags.ack();
        let ack_ok = has_ack && seg.ack.gt(self.iss) && seg.ack.le(self.tcb.snd_max);
        if has_ack && !ack_ok {
            return;
        }
        if seg.flags.rst() {
            if ack_ok {
                self.stats.reset_received = true;
                self.state = State::Closed;
                self.timers.cancel_all();
            }
            return;
        }
        if !seg.flags.syn() {
            return;
        }
        self.last_rcv = now;
        self.irs = seg.seq;
        self.rcv_nxt = seg.seq + 1;
        self.rcv_adv = self.rcv_nxt;
        self.take_syn_options(seg);
        self.tcb.snd_wnd = u32::from(seg.window);
        self.max_sndwnd = self.max_sndwnd.max(self.tcb.snd_wnd);
        self.snd_wl1 = seg.seq;
        self.snd_wl2 = seg.ack;
        if ack_ok {
            self.tcb.snd_una = seg.ack;
            self.tcb.snd_nxt = self.tcb.snd_nxt.max(seg.ack);
            self.state = State::Established;
            if std::mem::take(&mut self.close_deferred) {
                self.close_requested = true;
                self.state = State::FinWait1;
            }
            // "if (tp->t_rtt) tcp_xmit_timer(tp, tp->t_rtt)": the SYN's RTT, if it was timed.
            if let Some((t0, _)) = self.rtt_timing.take() {
                self.rtt_sample_timed(now, t0);
            }
            if self.tcb.snd_una == self.tcb.snd_max {
                self.timers.rexmt = None;
            }
            self.ack_now = true;
        } else {
            // Simultaneous open: answer with a SYN-ACK.
            self.state = State::SynReceived;
            self.tcb.snd_nxt = self.iss;
            self.timers.rexmt = None;
        }
    }

    /// Receive window used to trim arriving data: `max(sbspace, rcv_adv − rcv_nxt)`.
    fn rcv_wnd(&self) -> u32 {
        let space = u64::from(self.cfg.recv_buffer_bytes).saturating_sub(self.rcv_unread) as u32;
        space.max(self.rcv_adv.saturating_since(self.rcv_nxt))
    }

    fn input_synchronized(&mut self, now: SimTime, seg: &Segment) {
        self.last_rcv = now;
        if self.state == State::SynReceived && seg.flags.syn() && !seg.flags.ack() {
            // The peer retransmitted its SYN; our retransmission timer resends the SYN-ACK.
            return;
        }
        let tiwin = if seg.flags.syn() { u32::from(seg.window) } else { u32::from(seg.window) << self.tcb.snd_scale };
        if seg.flags.rst() {
            // RFC 793: an RST is valid if its sequence number is in the window; otherwise
            // it is dropped silently (never acknowledged).
            let wnd = self.rcv_wnd().max(1);
            if seg.seq.in_range(self.rcv_nxt, self.rcv_nxt + wnd) {
                self.stats.reset_received = true;
                self.state = State::Closed;
                self.timers.cancel_all();
            }
            return;
        }
        if self.header_prediction(now, seg, tiwin) {
            return;
        }

        // ---- Trim to the receive window (RFC 793 acceptability, BSD "trimthenstep6"). ----
        let rcv_wnd = self.rcv_wnd();
        let mut seq = seg.seq;
        let mut len = seg.payload_len;
        let mut syn = seg.flags.syn();
        let mut fin = seg.flags.fin();
        let mut todrop = i64::from(self.rcv_nxt.diff(seq));
        if todrop > 0 {
            if syn {
                syn = false;
                seq += 1;
                todrop -= 1;
            }
            let duplicate_end = seq + (todrop.max(0) as u32).min(len);
            self.note_duplicate(seq, duplicate_end);
            if todrop >= i64::from(len) {
                if len > 0 {
                    self.stats.duplicate_segments += 1;
                }
                if fin && todrop == i64::from(len) + 1 {
                    // Only an old FIN: re-ACK it, but keep processing the ACK field
                    // (avoids "FIN wars" when both sides are CLOSING).
                    todrop = i64::from(len);
                    fin = false;
                    self.ack_now = true;
                } else if todrop != 0 || !seg.flags.ack() {
                    // Entirely old: "dropafterack".
                    self.ack_now = true;
                    return;
                }
            }
            seq += todrop as u32;
            len -= todrop as u32;
        }
        let beyond = i64::from((seq + len).diff(self.rcv_nxt + rcv_wnd));
        if beyond > 0 {
            if beyond >= i64::from(len) {
                if rcv_wnd == 0 && seq == self.rcv_nxt {
                    // A window probe: ACK it, process its ACK field.
                    self.ack_now = true;
                } else {
                    self.ack_now = true;
                    return;
                }
            }
            len -= (beyond as u32).min(len);
            fin = false;
        }

        // RFC 7323 §4.3: "If SEG.TSval ≥ TS.Recent and SEG.SEQ ≤ Last.ACK.sent <
        // SEG.SEQ + SEG.LEN, then record its timestamp as TS.Recent" (BSD: SYN/FIN count).
        if let (true, Some((tsval, _))) = (self.ts_ok, seg.options.timestamps) {
            let seg_end = seq + len + u32::from(syn || fin);
            if seq.le(self.last_ack_sent) && self.last_ack_sent.lt(seg_end) {
                self.ts_recent = tsval;
            }
        }
        if syn || !seg.flags.ack() {
            return;
        }
        if self.state == State::SynReceived {
            // "If the ACK acks our SYN then enter ESTABLISHED state and continue processing".
            if seg.ack.le(self.tcb.snd_una) || seg.ack.gt(self.tcb.snd_max) {
                return;
            }
            self.state = State::Established;
            self.snd_wl1 = seq - 1;
            if std::mem::take(&mut self.close_deferred) {
                self.close_requested = true;
                self.state = State::FinWait1;
            }
        }
        if !self.process_ack(now, seg, len, tiwin) {
            return;
        }
        // ---- Step 6: window update (not from a duplicate SYN-ACK, whose window field is
        // unscaled). ----
        if !seg.flags.syn()
            && (self.snd_wl1.lt(seq)
                || (self.snd_wl1 == seq
                    && (self.snd_wl2.lt(seg.ack) || (self.snd_wl2 == seg.ack && tiwin > self.tcb.snd_wnd))))
        {
            self.tcb.snd_wnd = tiwin;
            self.snd_wl1 = seq;
            self.snd_wl2 = seg.ack;
            self.max_sndwnd = self.max_sndwnd.max(tiwin);
        }
        // ---- Data and FIN. ----
        if (len > 0 || fin) && self.state.accepts_data() {
            self.receive_data(now, seq, len, fin);
        }
    }

    /// 4.4BSD-Lite header prediction, pure-ACK case (`lite` only): an in-sequence pure ACK
    /// of new data with unchanged window, nothing being retransmitted and `cwnd ≥ snd_wnd`
    /// is handled here, *without* the window update, the dup-ACK reset or the fast-recovery
    /// deflation of the slow path.
    fn header_prediction(&mut self, now: SimTime, seg: &Segment, tiwin: u32) -> bool {
        let control = Flags::SYN | Flags::FIN | Flags::RST | Flags::URG | Flags::ACK;
        if !self.cfg.policies.header_prediction()
            || self.state != State::Established
            || seg.flags.bits() & control.bits() != Flags::ACK.bits()
            || seg.seq != self.rcv_nxt
            || tiwin == 0
            || tiwin != self.tcb.snd_wnd
            || self.tcb.snd_nxt != self.tcb.snd_max
            || seg.payload_len != 0
            || !seg.ack.gt(self.tcb.snd_una)
            || !seg.ack.le(self.tcb.snd_max)
            || self.tcb.cwnd < self.tcb.snd_wnd
            || self.recovery.in_recovery()
        {
            return false;
        }
        if let (true, Some((tsval, _))) = (self.ts_ok, seg.options.timestamps) {
            if (tsval.wrapping_sub(self.ts_recent) as i32) < 0 {
                return false;
            }
            if seg.seq.le(self.last_ack_sent) {
                self.ts_recent = tsval;
            }
        }
        self.rtt_on_ack(now, seg, seg.ack);
        if let Some(log) = &mut self.send_log {
            if let Some(rtt) = log.on_ack(seg.ack, now) {
                self.cc.on_fine_rtt(&self.tcb, rtt, now);
            }
        }
        let acked = seg.ack - self.tcb.snd_una;
        self.sb_cc -= u64::from(acked);
        self.tcb.snd_una = seg.ack;
        if self.tcb.snd_una == self.tcb.snd_max {
            self.timers.rexmt = None;
        } else if self.timers.persist.is_none() {
            self.arm_rexmt(now);
        }
        if self.ca_state == CaState::Loss && self.tcb.snd_una.ge(self.loss_point) {
            self.set_ca_state(CaState::Open);
        }
        true
    }

    /// ACK processing (BSD "Ack processing" through the FIN-acknowledged state changes).
    /// Returns false if the segment is to be dropped afterwards.
    fn process_ack(&mut self, now: SimTime, seg: &Segment, len: u32, tiwin: u32) -> bool {
        let ack = seg.ack;
        if ack.gt(self.tcb.snd_max) {
            // ACK for data never sent: "dropafterack".
            self.ack_now = true;
            return false;
        }
        let flight_before = self.tcb.flight_size();
        let newly_sacked = if self.sack_ok && seg.options.sack_count > 0 {
            self.scoreboard.update(ack.max(self.tcb.snd_una), self.tcb.snd_max, seg.options.sack_blocks())
        } else {
            0
        };
        let rule = self.recovery.dupack_rule();
        let dsack = if self.sack_ok { seg.options.dsack(ack) } else { None };

        if ack.le(self.tcb.snd_una) {
            let is_dup = match rule {
                // BSD: "ti_len == 0 && tiwin == snd_wnd", REXMT armed, "ti_ack == snd_una".
                DupAckRule::Classic => {
                    len == 0
                        && !seg.flags.fin()
                        && tiwin == self.tcb.snd_wnd
                        && self.rexmt_armed()
                        && ack == self.tcb.snd_una
                }
                DupAckRule::Sack => newly_sacked > 0 && ack == self.tcb.snd_una,
            };
            if is_dup {
                self.stats.dup_acks += 1;
                if self.ca_state == CaState::Open {
                    self.set_ca_state(CaState::Disorder);
                }
            }
            let una_sent = self.send_log.as_ref().and_then(|l| l.oldest(self.tcb.snd_una));
            let info = AckInfo {
                ack,
                acked: 0,
                is_dup,
                newly_sacked,
                flight_before,
                syn_acked: false,
                now,
                fine_rtt: None,
                una_sent,
                dsack,
            };
            let step = self.recovery.on_ack(&mut self.tcb, &mut self.cc, &self.scoreboard, &info);
            self.apply_step(step);
            if self.ca_state == CaState::Disorder && self.tcb.dupacks == 0 {
                self.set_ca_state(CaState::Open);
            }
            return true;
        }

        // ---- New data acknowledged. ----
        let acked = ack - self.tcb.snd_una;
        let syn_acked = self.tcb.snd_una == self.iss;
        let mut data_acked = u64::from(acked - u32::from(syn_acked));
        // BSD "ourfinisacked": more acknowledged than there is data.
        let fin_acked = data_acked > self.sb_cc;
        if fin_acked {
            data_acked = self.sb_cc;
        }
        self.sb_cc -= data_acked;
        self.tcb.snd_una = ack;
        self.tcb.snd_nxt = self.tcb.snd_nxt.max(ack);
        self.scoreboard.advance(ack);
        self.rtt_on_ack(now, seg, ack);
        let is_dup = rule == DupAckRule::Sack && newly_sacked > 0;
        if is_dup {
            self.stats.dup_acks += 1;
        }
        let (fine_rtt, una_sent) = match &mut self.send_log {
            Some(log) => (log.on_ack(ack, now), log.oldest(ack)),
            None => (None, None),
        };
        if let Some(rtt) = fine_rtt {
            self.cc.on_fine_rtt(&self.tcb, rtt, now);
        }
        let info =
            AckInfo { ack, acked, is_dup, newly_sacked, flight_before, syn_acked, now, fine_rtt, una_sent, dsack };
        let step = self.recovery.on_ack(&mut self.tcb, &mut self.cc, &self.scoreboard, &info);
        // "If all outstanding data is acked, stop the retransmit timer, otherwise restart it
        // using the current (possibly backed-off) value."
        if ack == self.tcb.snd_max {
            self.timers.rexmt = None;
        } else if step.restart_rto && self.timers.persist.is_none() {
            self.arm_rexmt(now);
        }
        if step.grow_window {
            self.cc.on_ack(&mut self.tcb, &info, now);
        }
        self.apply_step(step);
        if self.ca_state == CaState::Disorder && self.tcb.dupacks == 0 {
            self.set_ca_state(CaState::Open);
        }
        if self.ca_state == CaState::Loss && self.tcb.snd_una.ge(self.loss_point) {
            self.set_ca_state(CaState::Open);
        }
        if fin_acked {
            match self.state {
                State::FinWait1 => self.state = State::FinWait2,
                State::Closing => self.enter_time_wait(now),
                State::LastAck => {
                    self.state = State::Closed;
                    self.timers.cancel_all();
                    return false;
                }
                _ => {}
            }
        }
        true
    }

    /// Performs what the loss recovery asked for.
    pub(super) fn apply_step(&mut self, step: RecoveryStep) {
        if step.entered {
            self.stats.fast_retransmits += 1;
            // BSD: "t_timer[TCPT_REXMT] = 0; t_rtt = 0" before retransmitting.
            self.rtt_timing = None;
            self.timers.rexmt = None;
        }
        if let Some(seq) = step.retransmit {
            self.pending_rexmt = Some(seq);
            self.pending_rexmt_next = step.also_next;
        }
        if let Some(s) = step.ca_state {
            self.set_ca_state(s);
        }
    }

    /// In-order data, reassembly, FIN (BSD `TCP_REASS` and the FIN switch).
    #[inline(always)]
    fn receive_data(&mut self, now: SimTime, seq: SeqNum, len: u32, fin: bool) {
        if len > 0 {
            if seq == self.rcv_nxt && self.cfg.delayed_ack == DelayedAck::Linux {
                self.linux_delack.on_data(now, self.rto(), self.rcv_wnd(), self.tcb.maxseg);
            }
            if seq == self.rcv_nxt && self.reass.is_empty() && self.state == State::Established {
                // In order, nothing queued: deliver and delay the ACK.
                self.deliver(len);
                match self.cfg.delayed_ack {
                    DelayedAck::Off => self.ack_now = true,
                    DelayedAck::Bsd | DelayedAck::SunOs => {
                        self.delack = true;
                        if self.timers.delack.is_none() {
                            self.timers.delack = Some(match self.slow {
                                Some(_) => self.fast.nth_tick_after_memo(now, 1, &mut self.fast_memo),
                                None => now + self.cfg.delayed_ack_timeout,
                            });
                        }
                    }
                    DelayedAck::Linux => self.linux_ack_or_delay(now),
                }
            } else {
                // Out of order, or filling a hole: queue / present, and ACK at once.
                if seq == self.rcv_nxt {
                    self.deliver(len);
                } else {
                    if self.reass.covers(seq, seq + len) {
                        self.note_duplicate(seq, seq + len);
                    }
                    // A receiver without reassembly drops it (go-back-N); the ACK still goes.
                    if self.cfg.reassemble_out_of_order {
                        self.reass.insert(seq, seq + len);
                    }
                    self.stats.ooo_segments += 1;
                }
                let next = self.reass.advance(self.rcv_nxt);
                let gained = next - self.rcv_nxt;
                if gained > 0 {
                    self.deliver(gained);
                }
                self.ack_now = true;
            }
        }
        if fin {
            self.rcv_fin = Some(seq + len);
            if seq + len != self.rcv_nxt {
                self.ack_now = true;
            }
        }
        if let Some(f) = self.rcv_fin {
            if f == self.rcv_nxt && !self.fin_rcvd {
                self.fin_rcvd = true;
                self.rcv_nxt += 1;
                self.ack_now = true;
                match self.state {
                    State::SynReceived | State::Established => self.state = State::CloseWait,
                    State::FinWait1 => self.state = State::Closing,
                    State::FinWait2 => self.enter_time_wait(now),
                    _ => {}
                }
            }
        }
    }

    /// Linux: in quick-ACK mode, or with more than one full-sized segment unacknowledged,
    /// an ACK at once; otherwise one held for the delayed-ACK timeout (on a jiffy with
    /// Linux's timers).
    fn linux_ack_or_delay(&mut self, now: SimTime) {
        let unacked = self.rcv_nxt.saturating_since(self.last_ack_sent);
        if self.linux_delack.take_quick() || unacked > self.tcb.maxseg {
            self.ack_now = true;
            return;
        }
        self.delack = true;
        if self.timers.delack.is_none() {
            let d = self.linux_delack.timeout(self.srtt());
            self.timers.delack = Some(match &self.rtt {
                RttEstimator::Linux(l) => l.expiry_after(now, d, &mut self.slow_memo),
                _ => now + d,
            });
        }
    }

    /// Data `[start, end)` arrived a second time: report it in a D-SACK block (RFC 2883) on
    /// an immediate ACK, if this host reports them.
    fn note_duplicate(&mut self, start: SeqNum, end: SeqNum) {
        if self.sack_ok && self.cfg.policies.reports_dsack() && start.lt(end) {
            self.dsack = Some(SackBlock { left: start, right: end });
            self.ack_now = true;
        }
    }

    fn deliver(&mut self, len: u32) {
        self.rcv_nxt += len;
        self.rcv_unread += u64::from(len);
        self.stats.bytes_delivered += u64::from(len);
    }

    /// TIME_WAIT: cancel timers, wait 2·MSL (BSD: `t_timer[TCPT_2MSL] = 2 * TCPTV_MSL`).
    fn enter_time_wait(&mut self, now: SimTime) {
        self.state = State::TimeWait;
        self.timers.cancel_all();
        self.delack = false;
        let two_msl = self.cfg.msl.saturating_mul(2);
        self.timers.msl2 = Some(match self.slow {
            Some(c) => c.nth_tick_after(now, (two_msl.as_picos() / c.period().as_picos()).max(1)),
            None => now + two_msl,
        });
    }

    /// RTT measurement on an ACK of new data: timestamps if present (RFC 7323 RTTM, every
    /// such ACK, retransmissions included), else the timed segment (Karn: only new data is
    /// timed, and timing stops on a retransmission).
    #[inline(always)]
    fn rtt_on_ack(&mut self, now: SimTime, seg: &Segment, ack: SeqNum) {
        if let (true, Some((_, tsecr))) = (self.ts_ok, seg.options.timestamps) {
            let elapsed = self.ts_now(now).wrapping_sub(tsecr);
            if elapsed < 1 << 30 {
                match (&self.rtt, self.slow) {
                    // tcp_xmit_timer(tp, tcp_now − ts_ecr + 1)
                    (RttEstimator::Bsd(_), clock) => {
                        if let Some(c) = clock {
                            self.note_raw_rtt(c.period().saturating_mul(u64::from(elapsed)));
                        }
                        self.rtt_sample_ticks(now, elapsed + 1)
                    }
                    (RttEstimator::Rfc6298(_) | RttEstimator::Linux(_), _) => {
                        let d = SimDuration::from_micros(u64::from(elapsed));
                        self.note_raw_rtt(d);
                        self.rtt_sample_duration(now, d)
                    }
                }
                self.rtt_timing = None;
                return;
            }
        }
        if let Some((t0, rtseq)) = self.rtt_timing {
            if ack.gt(rtseq) {
                self.rtt_timing = None;
                self.rtt_sample_timed(now, t0);
            }
        }
    }

    /// A sample from the timed segment sent at `t0`: BSD `t_rtt` = 1 + slow ticks since.
    fn rtt_sample_timed(&mut self, now: SimTime, t0: SimTime) {
        self.note_raw_rtt(now - t0);
        match self.slow {
            Some(c) => self.rtt_sample_ticks(now, 1 + c.ticks_between(t0, now) as u32),
            None => self.rtt_sample_duration(now, now - t0),
        }
    }

    fn rtt_sample_ticks(&mut self, now: SimTime, ticks: u32) {
        if let (RttEstimator::Bsd(b), Some(c)) = (&mut self.rtt, self.slow) {
            b.xmit_timer(ticks);
            self.stats.rtt_samples += 1;
            let d = c.period().saturating_mul(u64::from(ticks));
            self.cc.on_rtt_sample(&self.tcb, d, now);
        }
    }

    fn rtt_sample_duration(&mut self, now: SimTime, d: SimDuration) {
        match &mut self.rtt {
            RttEstimator::Rfc6298(r) => r.on_sample(d),
            RttEstimator::Linux(l) => l.on_sample(d, self.tcb.snd_una, self.tcb.snd_nxt),
            RttEstimator::Bsd(_) => return,
        }
        self.stats.rtt_samples += 1;
        self.cc.on_rtt_sample(&self.tcb, d, now);
    }

    /// A raw RTT sample as measured, before the estimator takes it (for reports).
    fn note_raw_rtt(&mut self, d: SimDuration) {
        self.stats.rtt_raw_sum_ps += u128::from(d.as_picos());
        self.last_rtt = Some(d);
    }
}
