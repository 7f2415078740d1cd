//! Segment output (BSD `tcp_output`): what to send next, one segment per call.

use super::{State, TcpEndpoint};
use crate::cc::CongestionControl;
use crate::config::DelayedAck;
use crate::recovery::LossRecovery;
use crate::recovery::{TxChoice, TxLimits};
use crate::rtt::RttEstimator;
use crate::segment::{Flags, Segment, TcpOptions, MAX_SACK_BLOCKS};
use crate::seq::SeqNum;
use crate::tcb::TCP_MAXWIN;
use celltrain_core::{SimDuration, SimTime};

/// Why a data-space segment is being sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// From `snd_nxt` under the ordinary window (advances `snd_nxt`).
    Window,
    /// One-shot retransmission requested by the loss recovery.
    Rexmt,
    /// Chosen by the loss recovery's `NextSeg` (SACK).
    Recovery,
    /// Persist probe into a zero window (`snd_nxt` not advanced, not timed).
    Probe,
}

impl TcpEndpoint {
    pub(super) fn output(&mut self, now: SimTime) -> Option<Segment> {
        if std::mem::take(&mut self.rst_pending) {
            return Some(self.make_rst());
        }
        // (Tested before taking: `take` would move the whole segment on every call.)
        if self.rst_reply.is_some() {
            return self.rst_reply.take();
        }
        match self.state {
            State::Closed | State::Listen => return None,
            State::SynSent | State::SynReceived => {
                return (self.tcb.snd_nxt == self.iss).then(|| self.send_syn(now));
            }
            _ => {}
        }
        if std::mem::take(&mut self.output_fresh) {
            self.start_output_call(now);
        }
        let can_send = self.state.can_send_data();
        if can_send && now < self.pace_next {
            return self.output_while_paced(now);
        }
        if let Some(seq) = self.pending_rexmt.take() {
            if can_send && seq.ge(self.tcb.snd_una) && seq.lt(self.tcb.snd_max) {
                let end = (seq + self.tcb.maxseg).min(self.tcb.snd_max);
                if std::mem::take(&mut self.pending_rexmt_next) && end.lt(self.tcb.snd_max) {
                    self.pending_rexmt = Some(end);
                    self.stats.afr_second_segments += 1;
                }
                return Some(self.emit_range(now, seq, end, Kind::Rexmt));
            }
            self.pending_rexmt_next = false;
        }
        let mut allow_data = can_send;
        if can_send {
            let lim = TxLimits { data_end: self.data_end_with_fin(), rwnd_end: self.tcb.snd_una + self.tcb.snd_wnd };
            match self.recovery.choose_tx(&self.tcb, &self.scoreboard, &lim) {
                TxChoice::Window => {}
                TxChoice::Send { start, end } => return Some(self.emit_range(now, start, end, Kind::Recovery)),
                TxChoice::Probe { start, end } => {
                    self.stats.loss_probes += 1;
                    return Some(self.emit_range(now, start, end, Kind::Recovery));
                }
                TxChoice::Hold => allow_data = false,
            }
        }
        self.output_window(now, allow_data)
    }

    /// Pacing holds data back until `pace_next` (and wakes the endpoint then); an ACK due
    /// still goes.
    fn output_while_paced(&mut self, now: SimTime) -> Option<Segment> {
        self.timers.pace = Some(self.pace_next);
        (self.ack_now || self.window_update_due()).then(|| self.emit_ack(now))
    }

    /// With pacing, the next data segment leaves `ip_bytes` at the pacing rate after this one.
    fn pace_after(&mut self, now: SimTime, ip_bytes: u32) {
        if let Some(bps) = self.cfg.max_pacing_rate_bps {
            let ps = (u128::from(ip_bytes) * 8 * 1_000_000_000_000).div_ceil(u128::from(bps));
            self.pace_next = now.max(self.pace_next) + SimDuration::from_picos(ps.min(u128::from(u64::MAX)) as u64);
        }
    }

    /// Start of a BSD `tcp_output` call: Nagle's "idle" and the idle restart.
    fn start_output_call(&mut self, now: SimTime) {
        self.idle_at_output = self.tcb.snd_max == self.tcb.snd_una;
        if !self.idle_at_output {
            return;
        }
        // "if (idle && tp->t_idle >= tp->t_rxtcur) tp->snd_cwnd = tp->t_maxseg": restart
        // from the initial window after an idle period of at least one RTO.
        let idle_long = match (&self.rtt, self.slow) {
            (RttEstimator::Bsd(b), Some(c)) => {
                c.ticks_between_memo(self.last_rcv, now, &mut self.slow_memo) >= u64::from(b.t_rxtcur)
            }
            (RttEstimator::Rfc6298(r), _) => now.saturating_since(self.last_rcv) >= r.rto,
            (RttEstimator::Linux(l), _) => now.saturating_since(self.last_rcv) >= l.rto(),
            (RttEstimator::Bsd(_), None) => false,
        };
        if idle_long {
            let iw = self.cfg.initial_cwnd_segments.saturating_mul(self.tcb.maxseg);
            self.tcb.cwnd = self.tcb.cwnd.min(iw);
        }
    }

    /// One past the last sequence number to send: data end, plus one for our FIN.
    fn data_end_with_fin(&self) -> SeqNum {
        self.snd_data_end + u32::from(self.close_requested && self.state.sends_fin())
    }

    /// The ordinary `tcp_output` decision from `snd_nxt`.
    fn output_window(&mut self, now: SimTime, allow_data: bool) -> Option<Segment> {
        if !allow_data {
            self.force = false;
            return (self.ack_now || self.window_update_due()).then(|| self.emit_ack(now));
        }
        let mut win = self.tcb.snd_wnd.min(self.tcb.cwnd);
        let mut probe = false;
        if self.force {
            if win == 0 {
                // Persist probe: "win = 1".
                win = 1;
                probe = true;
            } else {
                self.timers.persist = None;
                self.rtt.reset_shift();
            }
        }
        // After a timeout, skip what the receiver has SACKed since (RFC 2018: the sender
        // keeps SACKed data until it is cumulatively acknowledged, but need not resend it).
        if self.sack_ok {
            while self.tcb.snd_nxt.lt(self.tcb.snd_max) {
                match self.scoreboard.sacked_end_at(self.tcb.snd_nxt) {
                    Some(e) => self.tcb.snd_nxt = e.min(self.tcb.snd_max),
                    None => break,
                }
            }
        }
        let off = self.tcb.snd_nxt - self.tcb.snd_una;
        let sb_cc = self.sb_cc.min(u64::from(u32::MAX)) as u32;
        let avail = i64::from(sb_cc.min(win)) - i64::from(off);
        let mut len = 0;
        if avail < 0 {
            // "Window shrank after we sent into it. If window shrank to 0, cancel pending
            // retransmit and pull snd_nxt back to (closed) window." (Not when only our FIN
            // is beyond the data.)
            if win == 0 && sb_cc > 0 && !probe {
                self.timers.rexmt = None;
                self.tcb.snd_nxt = self.tcb.snd_una;
            }
        } else {
            len = (avail as u32).min(self.tcb.maxseg);
        }
        let off = self.tcb.snd_nxt - self.tcb.snd_una;
        let fin =
            self.close_requested && self.state.sends_fin() && !probe && self.tcb.snd_nxt + len == self.snd_data_end;
        // Sender silly-window avoidance and Nagle.
        let mut send = len > 0
            && (len == self.tcb.maxseg
                || ((self.idle_at_output || !self.cfg.nagle) && u64::from(len) + u64::from(off) >= self.sb_cc)
                || self.force
                || (self.max_sndwnd > 0 && len >= self.max_sndwnd / 2)
                || self.tcb.snd_nxt.lt(self.tcb.snd_max));
        // "If our state indicates that FIN should be sent and we have not yet done so,
        // or we're retransmitting the FIN, then we need to send."
        let fin_never_sent = self.tcb.snd_max.le(self.snd_data_end);
        if fin && (fin_never_sent || self.tcb.snd_nxt == self.tcb.snd_una) {
            send = true;
        }
        if send || self.ack_now || self.window_update_due() {
            self.force = false;
            if len == 0 && !fin {
                return Some(self.emit_ack(now));
            }
            let start = self.tcb.snd_nxt;
            let kind = if probe { Kind::Probe } else { Kind::Window };
            return Some(self.emit_data(now, start, len, fin, kind));
        }
        // No reason to send: enter persist if data waits and nothing is outstanding.
        if self.sb_cc > 0 && self.timers.rexmt.is_none() && self.timers.persist.is_none() {
            self.rtt.reset_shift();
            self.set_persist(now);
        }
        self.force = false;
        None
    }

    /// BSD `tcp_output` window-update rule: the window that could newly be advertised is
    /// ≥ 2·MSS, or ≥ 50 % (BSD) / 35 % (SunOS) of the receive buffer.
    fn window_update_due(&self) -> bool {
        if !self.state.accepts_data() {
            return false;
        }
        let buf = u64::from(self.cfg.recv_buffer_bytes);
        let space = buf.saturating_sub(self.rcv_unread);
        if space == 0 {
            return false;
        }
        let maxwin = u64::from(TCP_MAXWIN) << self.rcv_scale;
        let adv = space.min(maxwin) as i64 - i64::from(self.rcv_adv.saturating_since(self.rcv_nxt));
        if adv <= 0 {
            return false;
        }
        let adv = adv as u64;
        if adv >= 2 * u64::from(self.tcb.maxseg) {
            return true;
        }
        match self.cfg.delayed_ack {
            DelayedAck::SunOs => 100 * adv >= 35 * buf,
            DelayedAck::Bsd | DelayedAck::Off | DelayedAck::Linux => 2 * adv >= buf,
        }
    }

    /// The window to advertise (receiver SWS avoidance, never shrinking), as the scaled
    /// 16-bit field; updates `rcv_adv`.
    fn advertise_window(&mut self) -> u16 {
        let buf = self.cfg.recv_buffer_bytes;
        let space = u64::from(buf).saturating_sub(self.rcv_unread) as u32;
        let mut win = space;
        // "if (win < so_rcv.sb_hiwat / 4 && win < t_maxseg) win = 0".
        if win < buf / 4 && win < self.tcb.maxseg {
            win = 0;
        }
        win = win.min(TCP_MAXWIN << self.rcv_scale);
        // Never shrink the window already offered.
        win = win.max(self.rcv_adv.saturating_since(self.rcv_nxt));
        if win > 0 && (self.rcv_nxt + win).gt(self.rcv_adv) {
            self.rcv_adv = self.rcv_nxt + win;
        }
        (win >> self.rcv_scale).min(u32::from(u16::MAX)) as u16
    }

    /// A segment from us acknowledging `rcv_nxt`, with the window advertised now (which
    /// updates `rcv_adv`) and our timestamp if in use. The callers build it last, after their
    /// bookkeeping (none of which the window or the timestamp depend on), so that it is
    /// written once, where it is returned, rather than copied there.
    #[inline]
    fn segment(&mut self, now: SimTime, seq: SeqNum, flags: Flags, payload_len: u32, options: TcpOptions) -> Segment {
        let mut options = options;
        if self.ts_ok {
            options.timestamps = Some((self.ts_now(now), self.ts_recent));
        }
        Segment {
            src_port: self.local_port,
            dst_port: self.remote_port,
            seq,
            ack: self.rcv_nxt,
            flags: flags | Flags::ACK,
            window: self.advertise_window(),
            payload_len,
            options,
        }
    }

    /// Bookkeeping for every segment that carries our current ACK.
    fn ack_sent(&mut self) {
        self.last_ack_sent = self.rcv_nxt;
        self.ack_now = false;
        self.delack = false;
        self.timers.delack = None;
    }

    /// A pure ACK (BSD uses `snd_max` as its sequence number, `snd_nxt` while persisting).
    #[inline(always)]
    fn emit_ack(&mut self, now: SimTime) -> Segment {
        let seq = if self.timers.persist.is_some() { self.tcb.snd_nxt } else { self.tcb.snd_max };
        let mut options = TcpOptions::default();
        let max = if self.ts_ok { MAX_SACK_BLOCKS - 1 } else { MAX_SACK_BLOCKS };
        if let Some(dsack) = self.dsack.take() {
            self.reass.write_dsack(&mut options, dsack, max);
        } else if self.sack_ok && !self.reass.is_empty() {
            self.reass.write_sack(&mut options, max);
        }
        self.ack_sent();
        self.segment(now, seq, Flags::NONE, 0, options)
    }

    /// A segment covering `[start, end)` of sequence space (payload and maybe our FIN).
    fn emit_range(&mut self, now: SimTime, start: SeqNum, end: SeqNum, kind: Kind) -> Segment {
        let data_end = end.min(self.snd_data_end);
        let len = data_end.saturating_since(start);
        let fin = self.close_requested && self.state.sends_fin() && end.gt(self.snd_data_end);
        self.emit_data(now, start, len, fin, kind)
    }

    /// Sends `len` octets from `start` (plus FIN), updating the send state as BSD does.
    #[inline(always)]
    fn emit_data(&mut self, now: SimTime, start: SeqNum, len: u32, fin: bool, kind: Kind) -> Segment {
        let mut flags = if fin { Flags::FIN } else { Flags::NONE };
        if len > 0 && start + len == self.snd_data_end {
            flags = flags | Flags::PSH;
        }
        let end = start + len + u32::from(fin);
        let old_max = self.tcb.snd_max;
        let retransmission = start.lt(old_max);
        if kind == Kind::Probe {
            self.stats.persist_probes += 1;
        } else if len > 0 && retransmission {
            self.stats.segments_retransmitted += 1;
            self.stats.bytes_retransmitted += u64::from((start + len).min(old_max) - start);
        }
        match kind {
            Kind::Window => self.tcb.snd_nxt = end,
            Kind::Recovery => self.tcb.snd_nxt = self.tcb.snd_nxt.max(end),
            Kind::Rexmt | Kind::Probe => {}
        }
        if end.gt(old_max) {
            self.tcb.snd_max = end;
            // Time this transmission if it is new data and nothing is being timed.
            if kind != Kind::Probe && self.rtt_timing.is_none() {
                self.rtt_timing = Some((now, start));
            }
        }
        if kind != Kind::Probe && self.timers.rexmt.is_none() && self.tcb.snd_max != self.tcb.snd_una {
            self.arm_rexmt(now);
            if self.timers.persist.take().is_some() {
                self.rtt.reset_shift();
            }
        }
        self.ack_sent();
        if len > 0 || fin {
            self.recovery.on_sent(&self.tcb, &self.scoreboard, start, end, retransmission, now);
            self.sync_loss_timer(now);
        }
        if len > 0 {
            self.cc.on_send(&self.tcb, start, len, now);
            if let Some(log) = &mut self.send_log {
                log.on_send(start, start + len, now);
            }
            if self.cfg.max_pacing_rate_bps.is_some() {
                let seg = self.segment(now, start, flags, len, TcpOptions::default());
                self.pace_after(now, seg.ip_len());
                return seg;
            }
        }
        self.segment(now, start, flags, len, TcpOptions::default())
    }

    /// SYN (active) or SYN-ACK (passive), with the options we offer.
    fn send_syn(&mut self, now: SimTime) -> Segment {
        let synack = self.state == State::SynReceived;
        let mut options =
            TcpOptions { mss: Some(self.own_mss.min(u32::from(u16::MAX)) as u16), ..TcpOptions::default() };
        if synack {
            if self.ws_ok {
                options.window_scale = Some(self.rcv_scale);
            }
            options.sack_permitted = self.sack_ok;
            if self.ts_ok {
                options.timestamps = Some((self.ts_now(now), self.ts_recent));
            }
        } else {
            if self.cfg.window_scaling {
                options.window_scale = Some(self.cfg.requested_window_scale());
            }
            options.sack_permitted = self.cfg.policies.offers_sack();
            if self.cfg.timestamps {
                options.timestamps = Some((self.ts_now(now), 0));
            }
        }
        // The window of a SYN is never scaled.
        let win = self.cfg.recv_buffer_bytes.min(TCP_MAXWIN);
        let seg = Segment {
            src_port: self.local_port,
            dst_port: self.remote_port,
            seq: self.iss,
            ack: if synack { self.rcv_nxt } else { SeqNum(0) },
            flags: if synack { Flags::SYN | Flags::ACK } else { Flags::SYN },
            window: win as u16,
            payload_len: 0,
            options,
        };
        if synack {
            self.rcv_adv = self.rcv_nxt + win;
            self.ack_sent();
        }
        self.tcb.snd_nxt = self.iss + 1;
        if self.tcb.snd_max == self.iss {
            self.tcb.snd_max = self.iss + 1;
            if self.rtt_timing.is_none() {
                self.rtt_timing = Some((now, self.iss));
            }
        }
        if self.timers.rexmt.is_none() {
            self.arm_rexmt(now);
        }
        seg
    }

    /// RST after giving up (`tcp_drop`).
    fn make_rst(&mut self) -> Segment {
        Segment {
            src_port: self.local_port,
            dst_port: self.remote_port,
            seq: self.tcb.snd_max,
            ack: self.rcv_nxt,
            flags: Flags::RST | Flags::ACK,
            window: 0,
            payload_len: 0,
            options: TcpOptions::default(),
        }
    }
}
