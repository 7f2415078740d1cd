//! RACK-TLP (Cheng, Cardwell, Dukkipati, Jha, RFC 8985 "The RACK-TLP Loss Detection Algorithm
//! for TCP", 2021): time-based loss detection.
//!
//! RACK ("recent acknowledgment") calls a segment lost when a segment sent *later* has been
//! delivered and more than one round trip plus a reordering window has passed since the
//! segment's own (last) transmission; TLP ("tail loss probe") sends one probe segment when
//! the ACKs stop, so that a loss at the tail of a flight produces the SACK RACK needs instead
//! of waiting for the retransmission timeout.
//!
//! The sender keeps every segment in flight with its last transmission time
//! ([`SentSegment`]); a retransmission updates the time, so a lost retransmission is found
//! like any other loss. Which segments are lost is RACK's decision alone; how much to send
//! in the recovery that follows is PRR's ([`super::Prr`]), as Linux composes them.
//!
//! ```text
//! every ACK (RFC 8985 §6.2):
//!   for each segment newly delivered (cumulatively or selectively):
//!     min_RTT = min(min_RTT, now − xmit_ts)          (segments sent once)
//!     skip a retransmission whose RTT is below min_RTT (the ACK was for the original)
//!     RACK.rtt = now − xmit_ts;  RACK.(xmit_ts, end_seq) = the most recently sent delivered
//!     end_seq < RACK.fack and never retransmitted → reordering seen
//!   reo_wnd = 0 if no reordering seen and (in recovery or ≥ DupThresh segments SACKed),
//!             else min_RTT / 4
//!   for each segment not delivered, not lost, sent before RACK's:
//!     xmit_ts + RACK.rtt + reo_wnd ≤ now → lost; else the reordering timer waits for it
//! TLP (§7): after new data is sent or the cumulative ACK advances, outside recovery, with no
//!   probe outstanding and no reordering timer: PTO = 2·SRTT (+ WCDelAckT with one segment in
//!   flight; 1 s before any RTT sample), never past the RTO. On expiry send one new segment,
//!   else retransmit the last one; TLP.end_seq = snd_max. If the ACK of TLP.end_seq comes
//!   and the probe was a retransmission, the original was lost: reduce the window as fast
//!   recovery would (without DSACK the sender cannot tell that both arrived).
//! ```
//!
//! With D-SACK (RFC 2883, [`Rack::with_dsack`]) the reordering window grows by min_RTT/4 for
//! each round trip that brought a D-SACK (step 4: `reo_wnd_mult`, kept for 16 recoveries,
//! the window never above SRTT), and a probe whose retransmission is D-SACKed repaired
//! nothing; the window comes down only when the ACKs pass TLP.end_seq without one.
//!
//! Simplifications: RACK.min_RTT is the minimum over the connection (Linux keeps a windowed
//! minimum); without per-segment timestamps the "echo older than the retransmission" test of
//! §6.2 step 2 is the min_RTT test alone; SRTT is the estimator's as of the previous ACK.

use crate::sack::Scoreboard;
use crate::segment::SackBlock;
use crate::seq::SeqNum;
use celltrain_core::{SimDuration, SimTime};
use std::collections::VecDeque;

/// RFC 8985 §7.2 WCDelAckT: the worst-case delayed-ACK timer a probe waits for when only one
/// segment is in flight (the peer may be holding its ACK).
pub const WORST_CASE_DELAYED_ACK: SimDuration = SimDuration::from_millis(200);
/// RFC 8985 §7.2: the probe timeout before any RTT sample.
pub const PTO_WITHOUT_RTT: SimDuration = SimDuration::from_secs(1);
/// RFC 8985 §6.2 step 4: recoveries a widened reordering window lasts.
pub const REO_WND_PERSIST: u32 = 16;

/// What the endpoint tells the recovery when it asks for its timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimerCtx {
    /// Now.
    pub now: SimTime,
    /// The RTO estimator's smoothed RTT, if it has one.
    pub srtt: Option<SimDuration>,
    /// When the retransmission timer expires, if armed.
    pub rto_at: Option<SimTime>,
}

/// One segment in flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SentSegment {
    /// First sequence number.
    pub start: SeqNum,
    /// One past the last.
    pub end: SeqNum,
    /// Time of its last transmission (RACK's `xmit_ts`).
    pub xmit: SimTime,
    /// Sent more than once.
    pub retransmitted: bool,
    /// SACKed.
    pub sacked: bool,
    /// Marked lost by RACK and not retransmitted since.
    pub lost: bool,
}

impl SentSegment {
    fn len(&self) -> u32 {
        self.end - self.start
    }

    /// RFC 8985 `RACK_sent_after`: sent later than `(xmit, end)`, sequence breaking ties.
    fn sent_after(&self, xmit: SimTime, end: SeqNum) -> bool {
        self.xmit > xmit || (self.xmit == xmit && self.end.gt(end))
    }
}

/// The outstanding tail loss probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Probe {
    /// Where the probe started.
    start: SeqNum,
    /// TLP.end_seq: `snd_max` after the probe.
    end: SeqNum,
    /// The probe was a retransmission (TLP.is_retrans).
    retransmission: bool,
}

/// RACK-TLP's state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rack {
    /// The segments in flight, in sequence order; the ring keeps its capacity.
    sent: VecDeque<SentSegment>,
    /// How many of them are SACKed (RACK.segs_sacked, kept rather than counted per ACK).
    sacked: usize,
    /// RACK.min_RTT.
    min_rtt: Option<SimDuration>,
    /// RACK.xmit_ts and RACK.end_seq: the most recently sent segment delivered.
    latest: Option<(SimTime, SeqNum)>,
    /// RACK.rtt: that segment's round-trip time.
    rtt: SimDuration,
    /// RACK.fack: the highest end of a delivered segment.
    fack: Option<SeqNum>,
    /// RACK.reordering_seen.
    reordering_seen: bool,
    /// The reordering timer's deadline.
    reo_at: Option<SimTime>,
    /// The probe timeout's deadline.
    pto_at: Option<SimTime>,
    /// New data went out or the cumulative ACK advanced: (re)start the probe timeout.
    pto_due: bool,
    /// The probe timeout fired: the next transmission is the probe.
    probe_due: bool,
    /// The probe chosen is being sent.
    probe_sending: bool,
    /// The probe sent and not yet acknowledged.
    probe: Option<Probe>,
    /// D-SACKs are reported and read.
    dsack: bool,
    /// RACK.reo_wnd_mult, less one (so that the default state is the all-zero one).
    reo_wnd_extra: u32,
    /// RACK.reo_wnd_persist: recoveries left before the window shrinks back.
    reo_wnd_persist: u32,
    /// RACK.dsack_round: a D-SACK in the round trip ending here was counted.
    dsack_round: Option<SeqNum>,
    /// The estimator's SRTT as last told (caps the reordering window).
    srtt: Option<SimDuration>,
    /// TLP off (Linux's `tcp_early_retrans = 0`): RACK alone, no probe timeout.
    no_probe: bool,
}

impl Rack {
    /// No segment sent yet.
    pub fn new() -> Self {
        Rack::default()
    }

    /// Sends tail loss probes (the default) or not.
    pub fn set_tail_loss_probe(&mut self, on: bool) {
        self.no_probe = !on;
    }

    /// RACK-TLP reading D-SACK blocks.
    pub fn with_dsack() -> Self {
        Rack { dsack: true, ..Rack::new() }
    }

    /// The segments in flight (for tests and reports).
    pub fn segments(&self) -> impl Iterator<Item = &SentSegment> + '_ {
        self.sent.iter()
    }

    /// `[start, end)` was sent at `now`; `snd_max` is after the send.
    pub fn on_sent(&mut self, start: SeqNum, end: SeqNum, now: SimTime, snd_max: SeqNum) {
        if std::mem::take(&mut self.probe_sending) {
            let retransmission = self.sent.back().is_some_and(|s| start.lt(s.end));
            self.probe = Some(Probe { start, end: snd_max, retransmission });
        } else {
            self.pto_due = true;
        }
        let newest_end = self.sent.back().map_or(start, |s| s.end);
        for s in self.sent.iter_mut().filter(|s| s.end.gt(start) && s.start.lt(end)) {
            s.xmit = now;
            s.retransmitted = true;
            s.lost = false;
        }
        if end.gt(newest_end) {
            let start = start.max(newest_end);
            self.sent.push_back(SentSegment {
                start,
                end,
                xmit: now,
                retransmitted: false,
                sacked: false,
                lost: false,
            });
        }
    }

    /// An ACK arrived at `now` with cumulative acknowledgment `ack` (the scoreboard already
    /// holds its SACK blocks): RFC 8985 §6.2 steps 1–3 over the newly delivered segments.
    pub fn on_ack(&mut self, ack: SeqNum, sb: &Scoreboard, now: SimTime) {
        while let Some(&front) = self.sent.front() {
            if front.end.gt(ack) {
                break;
            }
            self.sent.pop_front();
            self.pto_due = true;
            if front.sacked {
                self.sacked -= 1;
            } else {
                self.delivered(front, now);
            }
        }
        if let Some(front) = self.sent.front_mut() {
            front.start = front.start.max(ack);
        }
        let Some(highest) = sb.highest_sacked() else { return };
        for i in 0..self.sent.len() {
            let s = self.sent[i];
            if !s.start.lt(highest) {
                break;
            }
            if !s.sacked && sb.sacked_end_at(s.start).is_some_and(|e| e.ge(s.end)) {
                // Delivered, even if RACK had given it up (the original arrived late).
                self.sent[i].sacked = true;
                self.sent[i].lost = false;
                self.sacked += 1;
                self.delivered(s, now);
            }
        }
    }

    fn delivered(&mut self, s: SentSegment, now: SimTime) {
        let rtt = now.saturating_since(s.xmit);
        if !s.retransmitted {
            self.min_rtt = Some(self.min_rtt.map_or(rtt, |m| m.min(rtt)));
        }
        // Step 3: delivered below the highest delivered, and never sent twice: reordered.
        match self.fack {
            Some(f) if s.end.lt(f) && !s.retransmitted => self.reordering_seen = true,
            Some(f) if !s.end.gt(f) => {}
            _ => self.fack = Some(s.end),
        }
        // Step 2: an ACK faster than any round trip cannot be for the retransmission.
        if s.retransmitted && self.min_rtt.is_some_and(|m| rtt < m) {
            return;
        }
        match self.latest {
            Some((xmit, end)) if !s.sent_after(xmit, end) => {}
            _ => {
                self.latest = Some((s.xmit, s.end));
                self.rtt = rtt;
            }
        }
    }

    /// RFC 8985 §6.2 step 4: no window before any reordering once DupThresh segments are
    /// SACKed or recovery has begun, else reo_wnd_mult quarters of min_RTT, at most SRTT.
    pub fn reo_wnd(&self, in_recovery: bool, dupthresh: u32) -> SimDuration {
        debug_assert_eq!(self.sacked, self.sent.iter().filter(|s| s.sacked).count());
        if !self.reordering_seen && (in_recovery || self.sacked >= dupthresh as usize) {
            return SimDuration::ZERO;
        }
        let quarter = self.min_rtt.map_or(0, |m| m.as_picos() / 4);
        let wnd = SimDuration::from_picos(quarter.saturating_mul(u64::from(self.reo_wnd_extra) + 1));
        self.srtt.map_or(wnd, |srtt| wnd.min(srtt))
    }

    /// RFC 8985 §6.2 step 4's adaptation: one more quarter of min_RTT for a round trip whose
    /// ACKs carried a D-SACK (`snd_una` after the ACK, `snd_max` the round's end).
    pub fn on_dsack(&mut self, dsack: Option<SackBlock>, snd_una: SeqNum, snd_max: SeqNum) {
        if !self.dsack {
            return;
        }
        if self.dsack_round.is_some_and(|r| snd_una.ge(r)) {
            self.dsack_round = None;
        }
        if self.dsack_round.is_none() && dsack.is_some() {
            self.reo_wnd_extra += 1;
            self.reo_wnd_persist = REO_WND_PERSIST;
            self.dsack_round = Some(snd_max);
        }
    }

    /// A recovery ended: a widened window lasts 16 of them.
    pub fn on_recovery_exit(&mut self) {
        self.reo_wnd_persist = self.reo_wnd_persist.saturating_sub(1);
        if self.reo_wnd_persist == 0 {
            self.reo_wnd_extra = 0;
        }
    }

    /// RFC 8985 §6.2 step 5: marks lost every segment sent before RACK's whose time is up,
    /// and arms the reordering timer for the latest deadline still ahead.
    pub fn detect_loss(&mut self, now: SimTime, reo_wnd: SimDuration) {
        let Some((xmit, end)) = self.latest else {
            self.reo_at = None;
            return;
        };
        let mut wait = SimDuration::ZERO;
        for s in self.sent.iter_mut().filter(|s| !s.sacked && !s.lost && !s.sent_after(xmit, end)) {
            if (s.xmit, s.end) == (xmit, end) {
                continue;
            }
            let deadline = s.xmit + self.rtt + reo_wnd;
            if deadline <= now {
                s.lost = true;
            } else {
                wait = wait.max(deadline - now);
            }
        }
        self.reo_at = (!wait.is_zero()).then(|| now + wait);
    }

    /// Some segment is marked lost and waits for its retransmission.
    pub fn has_lost(&self) -> bool {
        self.sent.iter().any(|s| s.lost)
    }

    /// The lowest lost segment, to retransmit.
    pub fn first_lost(&self) -> Option<(SeqNum, SeqNum)> {
        self.sent.iter().find(|s| s.lost).map(|s| (s.start, s.end))
    }

    /// Octets in the network: neither delivered nor lost (a retransmitted segment is in
    /// flight again until RACK says otherwise).
    pub fn pipe(&self) -> u32 {
        self.sent.iter().filter(|s| !s.sacked && !s.lost).map(SentSegment::len).sum()
    }

    /// RFC 8985 §7.4.2: the ACK reached TLP.end_seq. True if the probe repaired a loss: it was
    /// a retransmission and, without D-SACK, the ACK covers it; with D-SACK, no D-SACK for it
    /// came before the ACKs passed TLP.end_seq (a D-SACK means both copies arrived).
    pub fn probe_acked(&mut self, ack: SeqNum, dsack: Option<SackBlock>) -> bool {
        let Some(p) = self.probe.filter(|p| ack.ge(p.end)) else { return false };
        let redundant = dsack.is_some_and(|d| d.left.lt(p.end) && d.right.gt(p.start));
        let verdict = match (p.retransmission, self.dsack) {
            (false, _) => Some(false),
            (true, false) => Some(true),
            (true, true) if redundant => Some(false),
            (true, true) => ack.gt(p.end).then_some(true),
        };
        if verdict.is_some() {
            self.probe = None;
        }
        verdict.unwrap_or(false)
    }

    /// The retransmission timer expired: the scoreboard is forgotten, and so are RACK's marks
    /// and timers; every segment is sent again.
    pub fn on_rto(&mut self) {
        for s in &mut self.sent {
            s.sacked = false;
            s.lost = false;
        }
        self.sacked = 0;
        self.reo_at = None;
        self.pto_at = None;
        self.pto_due = false;
        self.probe_due = false;
        self.probe_sending = false;
        self.probe = None;
    }

    /// RACK's reordering timer, else TLP's probe timeout (armed only when `may_probe`).
    pub fn timer(&mut self, may_probe: bool, ctx: &TimerCtx) -> Option<SimTime> {
        self.srtt = ctx.srtt;
        if self.sent.is_empty() || !may_probe || self.no_probe || self.probe.is_some() || self.reo_at.is_some() {
            self.pto_at = None;
        } else if std::mem::take(&mut self.pto_due) {
            self.pto_at = Some(ctx.now + self.pto(ctx));
        }
        self.pto_due = false;
        self.reo_at.or(self.pto_at)
    }

    /// RFC 8985 §7.2 `PTO`, capped by the retransmission timer.
    fn pto(&self, ctx: &TimerCtx) -> SimDuration {
        let mut pto = match ctx.srtt {
            Some(srtt) => srtt.saturating_mul(2),
            None => PTO_WITHOUT_RTT,
        };
        if ctx.srtt.is_some() && self.sent.len() == 1 {
            pto += WORST_CASE_DELAYED_ACK;
        }
        match ctx.rto_at {
            Some(rto) => pto.min(rto.saturating_since(ctx.now)),
            None => pto,
        }
    }

    /// The recovery's timer fired at `now`: true if it was the reordering timer (detect
    /// losses again), false if it was the probe timeout (the next transmission probes).
    pub fn on_timer(&mut self, now: SimTime) -> bool {
        if self.reo_at.is_some_and(|t| t <= now) {
            self.reo_at = None;
            return true;
        }
        if self.pto_at.is_some_and(|t| t <= now) {
            self.pto_at = None;
            self.probe_due = true;
        }
        false
    }

    /// The probe to send now, if the probe timeout fired: one new segment if the window and
    /// the data allow, else the last segment sent again (RFC 8985 §7.3).
    pub fn take_probe(&mut self, snd_max: SeqNum, new_end: SeqNum) -> Option<(SeqNum, SeqNum)> {
        if !std::mem::take(&mut self.probe_due) {
            return None;
        }
        let probe =
            if snd_max.lt(new_end) { Some((snd_max, new_end)) } else { self.sent.back().map(|s| (s.start, s.end)) };
        self.probe_sending = probe.is_some();
        probe
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segment::SackBlock;

    fn t(ms: u64) -> SimTime {
        SimTime::ZERO + SimDuration::from_millis(ms)
    }

    /// Segment `n` (1-based): `[1000·n, 1000·(n + 1))`.
    fn seg(n: u32) -> (SeqNum, SeqNum) {
        (SeqNum(1000 * n), SeqNum(1000 * (n + 1)))
    }

    /// Segments 1..=`n` sent one per millisecond from time 0.
    fn sent(n: u32) -> Rack {
        let mut r = Rack::new();
        for k in 1..=n {
            let (s, e) = seg(k);
            r.on_sent(s, e, t(u64::from(k - 1)), e);
        }
        r
    }

    /// Segments 1..=5 sent; at 100 ms segment 1 is acknowledged (RTT 100 ms), at 104 ms
    /// segments 3, 4 and 5 are SACKed.
    fn segment_2_missing_under_three_sacks() -> (Rack, Scoreboard) {
        let mut r = sent(5);
        let mut sb = Scoreboard::new();
        r.on_ack(seg(2).0, &sb, t(100));
        for n in 3..=5 {
            sack(&mut sb, seg(2).0, n);
        }
        r.on_ack(seg(2).0, &sb, t(104));
        (r, sb)
    }

    fn sack(sb: &mut Scoreboard, una: SeqNum, n: u32) {
        let (left, right) = seg(n);
        sb.update(una, SeqNum(1_000_000), &[SackBlock { left, right }]);
    }

    /// RFC 8985 §6.2: segment 2 is missing when segment 3's SACK arrives 100 ms after it was
    /// sent. Before reordering is seen and with fewer than DupThresh segments SACKed, the
    /// window is min_RTT/4 = 25 ms: segment 2 (sent at 1 ms) is lost only at 1 + 100 + 25 ms.
    #[test]
    fn reordering_window_is_a_quarter_of_min_rtt() {
        let mut r = sent(5);
        let mut sb = Scoreboard::new();
        r.on_ack(seg(2).0, &sb, t(100)); // segment 1: RTT 100 ms
        sack(&mut sb, seg(2).0, 3);
        r.on_ack(seg(2).0, &sb, t(102));
        let reo_wnd = r.reo_wnd(false, 3);
        assert_eq!(reo_wnd, SimDuration::from_millis(25));
        r.detect_loss(t(102), reo_wnd);
        assert!(!r.has_lost());
        let ctx = TimerCtx { now: t(102), srtt: None, rto_at: None };
        assert_eq!(r.timer(true, &ctx), Some(t(126)), "the reordering timer, not a probe");
        // Segment 2 arrives late, within the window: reordering, not loss.
        sb.advance(seg(4).0);
        r.on_ack(seg(4).0, &sb, t(110));
        r.detect_loss(t(110), r.reo_wnd(false, 3));
        assert!(!r.has_lost());
        assert!(r.reordering_seen, "delivered below RACK.fack, sent once");
        assert_eq!(r.reo_wnd(true, 3), SimDuration::from_millis(25), "the window stays once reordering is seen");
    }

    #[test]
    fn the_reordering_timer_marks_what_did_not_arrive_in_time() {
        let mut r = sent(5);
        let mut sb = Scoreboard::new();
        r.on_ack(seg(2).0, &sb, t(100));
        sack(&mut sb, seg(2).0, 3);
        r.on_ack(seg(2).0, &sb, t(102));
        r.detect_loss(t(102), r.reo_wnd(false, 3));
        assert!(!r.on_timer(t(125)), "not yet");
        assert!(r.on_timer(t(126)));
        r.detect_loss(t(126), r.reo_wnd(false, 3));
        assert_eq!(r.first_lost(), Some(seg(2)));
        assert_eq!(r.pipe(), 2000, "segments 4 and 5: 2 lost, 3 SACKed");
    }

    /// A segment marked lost whose original then arrives is delivered, not retransmitted.
    #[test]
    fn a_lost_segment_sacked_late_is_no_longer_lost() {
        let (mut r, mut sb) = segment_2_missing_under_three_sacks();
        r.detect_loss(t(104), SimDuration::ZERO);
        assert_eq!(r.first_lost(), Some(seg(2)));
        sack(&mut sb, seg(2).0, 2);
        r.on_ack(seg(2).0, &sb, t(105));
        assert_eq!((r.first_lost(), r.has_lost()), (None, false));
        assert_eq!(r.pipe(), 0);
    }

    #[test]
    fn without_reordering_dupthresh_sacks_close_the_window() {
        let (mut r, _) = segment_2_missing_under_three_sacks();
        assert_eq!(r.reo_wnd(false, 3), SimDuration::ZERO);
        r.detect_loss(t(104), SimDuration::ZERO);
        assert_eq!(r.first_lost(), Some(seg(2)), "1 + RACK.rtt (100) ≤ 104");
    }

    /// A retransmission is a segment sent at its retransmission time: when data sent after
    /// it is SACKed and a round trip has passed, it is lost again.
    #[test]
    fn a_lost_retransmission_is_detected() {
        let (mut r, mut sb) = segment_2_missing_under_three_sacks();
        r.detect_loss(t(104), SimDuration::ZERO);
        let (s, e) = seg(2);
        r.on_sent(s, e, t(104), seg(5).1);
        assert!(!r.has_lost());
        assert_eq!(r.pipe(), 1000, "the retransmission is in flight");
        let (s6, e6) = seg(6);
        r.on_sent(s6, e6, t(105), e6);
        // Segment 6 is SACKed at 205 (RTT 100 ms); the retransmission sent at 104 is due by 204.
        sack(&mut sb, seg(2).0, 6);
        r.on_ack(seg(2).0, &sb, t(205));
        r.detect_loss(t(205), r.reo_wnd(true, 3));
        assert_eq!(r.first_lost(), Some(seg(2)));
    }

    /// An ACK quicker than min_RTT after a retransmission acknowledges the original: it does
    /// not become RACK's most recent delivery.
    #[test]
    fn an_ambiguous_ack_of_a_retransmission_is_not_taken() {
        let mut r = sent(3);
        let sb = Scoreboard::new();
        r.on_ack(seg(2).0, &sb, t(100));
        let (s, e) = seg(2);
        r.on_sent(s, e, t(150), e);
        r.on_ack(seg(3).0, &sb, t(160));
        assert_eq!(r.latest, Some((t(0), seg(1).1)));
    }

    /// RFC 8985 §7.2: PTO = 2·SRTT, + WCDelAckT with one segment in flight, 1 s without an
    /// RTT sample, never past the RTO.
    #[test]
    fn probe_timeout() {
        let srtt = Some(SimDuration::from_millis(20));
        let far = Some(t(10_000));
        let pto = |n: u32, srtt, rto_at| sent(n).timer(true, &TimerCtx { now: t(10), srtt, rto_at });
        assert_eq!(pto(2, srtt, far), Some(t(50)));
        assert_eq!(pto(1, srtt, far), Some(t(250)));
        assert_eq!(pto(1, srtt, Some(t(110))), Some(t(110)));
        assert_eq!(pto(2, None, far), Some(t(1010)));
        assert_eq!(sent(2).timer(false, &TimerCtx { now: t(10), srtt, rto_at: far }), None, "in recovery");
    }

    #[test]
    fn the_probe_is_new_data_else_the_last_segment() {
        let mut r = sent(3);
        assert_eq!(r.take_probe(seg(3).1, seg(4).1), None, "no probe before the timeout");
        r.timer(true, &TimerCtx { now: t(10), srtt: Some(SimDuration::from_millis(20)), rto_at: None });
        assert!(!r.on_timer(t(50)), "the probe timeout");
        assert_eq!(r.take_probe(seg(3).1, seg(4).1), Some(seg(4)));
        assert_eq!(r.take_probe(seg(3).1, seg(4).1), None, "one probe");
        let mut r = sent(3);
        r.probe_due = true;
        let probe = r.take_probe(seg(3).1, seg(3).1);
        assert_eq!(probe, Some(seg(3)), "nothing new to send");
        r.on_sent(seg(3).0, seg(3).1, t(50), seg(3).1);
        assert!(!r.probe_acked(seg(3).0, None));
        assert!(r.probe_acked(seg(3).1, None), "a retransmitted probe acknowledged: the original was lost");
        let ctx = TimerCtx { now: t(60), srtt: None, rto_at: None };
        assert_eq!(sent(0).timer(true, &ctx), None, "nothing in flight");
    }

    /// RFC 8985 §6.2 step 4: a D-SACK widens the window by min_RTT/4, once per round trip,
    /// for 16 recoveries; SRTT caps it.
    #[test]
    fn dsacks_widen_the_reordering_window() {
        let mut r = Rack { dsack: true, ..sent(5) };
        let mut sb = Scoreboard::new();
        r.on_ack(seg(2).0, &sb, t(100));
        sack(&mut sb, seg(2).0, 4);
        r.on_ack(seg(2).0, &sb, t(103)); // segment 4 delivered while 2 and 3 are not
        let q = SimDuration::from_millis(25);
        assert_eq!(r.reo_wnd(false, 3), q);
        let d = Some(SackBlock { left: SeqNum(0), right: SeqNum(1000) });
        r.on_dsack(d, seg(2).0, seg(5).1);
        assert_eq!(r.reo_wnd(false, 3), q.saturating_mul(2), "reo_wnd_mult 2");
        r.on_dsack(d, seg(2).0, seg(5).1);
        assert_eq!(r.reo_wnd(false, 3), q.saturating_mul(2), "one per round trip");
        r.on_dsack(d, seg(6).0, seg(5).1);
        assert_eq!(r.reo_wnd(false, 3), q.saturating_mul(3), "the next round trip");
        r.srtt = Some(SimDuration::from_millis(60));
        assert_eq!(r.reo_wnd(false, 3), SimDuration::from_millis(60), "at most SRTT");
        r.srtt = None;
        for _ in 0..15 {
            r.on_recovery_exit();
        }
        assert_eq!(r.reo_wnd(false, 3), q.saturating_mul(3));
        r.on_recovery_exit();
        assert_eq!(r.reo_wnd(false, 3), q, "back to one quarter after 16 recoveries");
        let mut plain = sent(5);
        plain.on_ack(seg(2).0, &Scoreboard::new(), t(100));
        plain.on_dsack(d, seg(2).0, seg(5).1);
        assert_eq!(plain.reo_wnd(false, 3), q, "without D-SACK support nothing changes");
    }

    /// RFC 8985 §7.4.2 with D-SACK: a D-SACK of the probe means both copies arrived; an ACK
    /// past TLP.end_seq without one means the probe repaired a loss.
    #[test]
    fn with_dsack_a_duplicated_probe_is_no_loss() {
        let probed = || {
            let mut r = Rack::with_dsack();
            let (s, e) = seg(1);
            r.on_sent(s, e, t(0), e);
            r.probe_due = true;
            assert_eq!(r.take_probe(e, e), Some(seg(1)));
            r.on_sent(s, e, t(50), e);
            r
        };
        let mut r = probed();
        assert!(!r.probe_acked(seg(1).1, None), "one copy arrived: wait for a D-SACK");
        assert!(!r.probe_acked(seg(1).1, Some(SackBlock { left: seg(1).0, right: seg(1).1 })));
        assert_eq!(r.probe, None, "both arrived: the episode ends without a loss");
        let mut r = probed();
        assert!(!r.probe_acked(seg(1).1, None));
        assert!(r.probe_acked(seg(2).1, None), "the ACKs went past TLP.end_seq without a D-SACK");
    }
}
