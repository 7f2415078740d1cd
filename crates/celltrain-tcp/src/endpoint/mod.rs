//! The sans-IO TCP endpoint: segments in, segments out, "when do you next need waking?".
//!
//! Heads up, required reading: `docs/references.md#bsd-tcp` (BSD TCP as modelled), RFC 793 §3.9 event
//! processing, 4.4BSD-Lite2 `tcp_input.c` / `tcp_output.c` / `tcp_timer.c`. Variable names
//! are BSD's (`snd_una`, `snd_max`, `rcv_adv`, `t_rxtcur`, `TF_ACKNOW`, ...).
//!
//! ```text
//!  app ── write(n) / close() ──►┌──────────────────────────┐── poll_transmit() ──► Segment
//!                               │ TcpEndpoint              │
//!  app ◄──────── read() ────────│  input.rs  (tcp_input)   │◄── on_segment(now, &Segment)
//!                               │  output.rs (tcp_output)  │
//!  sim ── on_timeout(now) ─────►│  timer.rs  (tcp_timers)  │── poll_timeout() ──► Option<SimTime>
//!                               │  cc + recovery policies  │
//!                               └──────────────────────────┘
//! ```
//!
//! # Driving contract
//! The simulator keeps one pending wake-up per endpoint at [`TcpEndpoint::poll_timeout`].
//! After **every** call to `on_segment`, `on_timeout`, `write`, `close` or `read` it drains
//! [`TcpEndpoint::poll_transmit`] until `None` (each drain is one BSD `tcp_output` call: the
//! Nagle "idle" test is evaluated once per drain). An application that reads promptly calls
//! `read()` before draining; the BSD window-update rule then produces ACK-every-other-segment.
//!
//! `poll_timeout` can change only when one of those methods (or `poll_transmit`) is called;
//! between calls it is stable, so the simulator re-reads it after each drain. It is the
//! earliest of: the retransmission timer, the persist timer, the delayed-ACK release and the
//! TIME_WAIT end. Calling `on_timeout` early or spuriously is harmless: only deadlines `≤ now`
//! fire. Timers due at `now` also fire at the start of `on_segment(now, …)` (a BSD slow tick
//! at `T` is processed before segments at `T`), so the order in which a simulator delivers a
//! wake-up and a segment for the same instant does not matter.
//!
//! # Modelled
//! Three-way handshake with MSS / window-scale / SACK-permitted / timestamp negotiation, SYN
//! retransmission, data transfer with Nagle and sender/receiver silly-window avoidance,
//! delayed ACKs (BSD, SunOS, Linux) or none, the reassembly queue with immediate ACKs for
//! out-of-order data, SACK blocks, the retransmission timer on BSD slow ticks, Linux's jiffies
//! or exact, sender pacing,
//! Karn's rule, timestamps RTTM, idle restart, the persist timer, FIN handshake, TIME_WAIT,
//! give-up after too many retransmissions (then one RST), RST reception.
//!
//! # Abstracted away
//! Payload bytes, checksums, urgent data, IP options, PAWS, keep-alives, the connection-
//! establishment (75 s) and FIN_WAIT_2 timers, RSTs for unacceptable segments in the
//! synchronized states (only a CLOSED endpoint and a dropped connection send RSTs), listen
//! queues (one endpoint = one connection), MSS clamping for off-subnet peers.
//!
//! A CLOSED endpoint stands for the host's TCP with no TCB: it answers every arriving
//! non-RST segment with an RST (RFC 793 §3.9, "If the state is CLOSED"), so a peer whose
//! FIN retransmission arrives after our TIME_WAIT ended is reset rather than left retrying.

mod input;
mod output;
mod timer;

use crate::cc::CongestionControl;
use crate::config::{Policies, RtoFormula, TcpConfig, TimerGranularity};
use crate::delack::LinuxDelack;
use crate::policy::{CcPolicy, RecoveryPolicy};
use crate::reass::Reassembly;
use crate::recovery::{LossRecovery, TimerCtx};
use crate::rtt::{BsdRto, BsdRtt, LinuxRtt, Rfc6298Rtt, RttEstimator, LINUX_RTO_MIN};
use crate::sack::Scoreboard;
use crate::segment::{SackBlock, Segment};
use crate::send_log::SendLog;
use crate::seq::SeqNum;
use crate::stats::TcpStats;
use crate::tcb::{CaState, Tcb};
use crate::timers::{TickClock, TickMemo, Timers};
use celltrain_core::{SimDuration, SimTime};
use std::fmt;

/// Connection state (RFC 793 §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum State {
    /// No connection (never opened, finished, aborted or reset).
    Closed,
    /// Passive open, waiting for a SYN.
    Listen,
    /// Active open, SYN sent.
    SynSent,
    /// SYN received, SYN-ACK sent.
    SynReceived,
    /// Data transfer.
    Established,
    /// We closed; our FIN not yet acknowledged.
    FinWait1,
    /// Our FIN acknowledged; waiting for the peer's FIN.
    FinWait2,
    /// The peer closed; we may still send.
    CloseWait,
    /// Both closed simultaneously; our FIN not yet acknowledged.
    Closing,
    /// The peer closed first, then we did; waiting for the ACK of our FIN.
    LastAck,
    /// Both FINs acknowledged; waiting 2·MSL.
    TimeWait,
}

impl State {
    /// RFC 793 synchronized states (the peer's ISN is known and ours was sent).
    pub const fn is_synchronized(self) -> bool {
        !matches!(self, State::Closed | State::Listen | State::SynSent)
    }
    /// States in which buffered data may be sent (BSD `TCPS_HAVEESTABLISHED`, not closed).
    const fn can_send_data(self) -> bool {
        matches!(self, State::Established | State::CloseWait | State::FinWait1 | State::Closing | State::LastAck)
    }
    /// States whose output carries our FIN once the data is out (`tcp_outflags`).
    const fn sends_fin(self) -> bool {
        matches!(self, State::FinWait1 | State::Closing | State::LastAck)
    }
    /// States in which arriving data is accepted (BSD: `TCPS_HAVERCVDFIN` is false).
    const fn accepts_data(self) -> bool {
        matches!(self, State::SynReceived | State::Established | State::FinWait1 | State::FinWait2)
    }
}

/// A sans-IO TCP endpoint (one connection).
pub struct TcpEndpoint {
    /// Immutable configuration.
    cfg: TcpConfig,
    /// Our port.
    local_port: u16,
    /// The peer's port (learned from the SYN when listening).
    remote_port: u16,
    /// Connection state.
    state: State,
    /// Slow-timer clock (`None` with exact timers).
    slow: Option<TickClock>,
    /// Fast-timer (delayed-ACK) clock.
    fast: TickClock,
    /// The last tick span asked of `slow` (or of Linux's jiffies) and of `fast` (see
    /// [`TickClock::ticks_through_memo`]).
    slow_memo: TickMemo,
    fast_memo: TickMemo,

    // ---- send side ----
    /// Initial send sequence number.
    iss: SeqNum,
    /// Windows and send sequence variables shared with the policies.
    tcb: Tcb,
    /// Segment sequence number used for the last window update (`snd_wl1`).
    snd_wl1: SeqNum,
    /// Segment acknowledgment number used for the last window update (`snd_wl2`).
    snd_wl2: SeqNum,
    /// Largest window the peer has offered (`max_sndwnd`), octets.
    max_sndwnd: u32,
    /// One past the last octet written by the application (`snd_una + sb_cc` in data space).
    snd_data_end: SeqNum,
    /// Octets in the send buffer: written and not yet acknowledged (`so_snd.sb_cc`).
    sb_cc: u64,
    /// The application closed: a FIN follows the data.
    close_requested: bool,
    /// `close()` was called before ESTABLISHED; apply it on reaching ESTABLISHED.
    close_deferred: bool,
    /// MSS we offered on our SYN, octets.
    own_mss: u32,

    // ---- receive side ----
    /// Peer's initial sequence number.
    irs: SeqNum,
    /// Next sequence number expected (`rcv_nxt`).
    rcv_nxt: SeqNum,
    /// Right edge of the window we last advertised (`rcv_adv`).
    rcv_adv: SeqNum,
    /// In-order octets not yet read by the application (`so_rcv.sb_cc`).
    rcv_unread: u64,
    /// Out-of-order data.
    reass: Reassembly,
    /// Sequence number of a received FIN not yet reached by `rcv_nxt`.
    rcv_fin: Option<SeqNum>,
    /// The peer's FIN has been received in order (BSD `TCPS_HAVERCVDFIN`).
    fin_rcvd: bool,
    /// Acknowledgment number of the last segment we sent (`last_ack_sent`).
    last_ack_sent: SeqNum,
    /// Linux's quick-ACK mode and delayed-ACK timeout (with `DelayedAck::Linux` only).
    linux_delack: LinuxDelack,

    // ---- options ----
    /// Shift applied to windows we advertise (`rcv_scale`).
    rcv_scale: u8,
    /// Window scaling negotiated (both SYNs carried the option).
    ws_ok: bool,
    /// Timestamps negotiated.
    ts_ok: bool,
    /// SACK negotiated.
    sack_ok: bool,
    /// Most recent timestamp to echo (`ts_recent`).
    ts_recent: u32,
    /// Duplicate data to report in the next ACK's D-SACK block (RFC 2883).
    dsack: Option<SackBlock>,

    // ---- flags ----
    /// Send an ACK now (`TF_ACKNOW`).
    ack_now: bool,
    /// An ACK is being delayed (`TF_DELACK`).
    delack: bool,
    /// Force one transmission despite the window (`t_force`, persist probe).
    force: bool,
    /// An RST must be sent (connection dropped).
    rst_pending: bool,
    /// An RST answering a segment that arrived while CLOSED (RFC 793: no TCB).
    rst_reply: Option<Segment>,
    /// One segment to retransmit at once (fast retransmit / partial ACK).
    pending_rexmt: Option<SeqNum>,
    /// After `pending_rexmt`, retransmit the segment behind it too (adaptive fast retransmit).
    pending_rexmt_next: bool,
    /// The next `poll_transmit` starts a new `tcp_output` call.
    output_fresh: bool,
    /// `snd_max == snd_una` at the start of the current `tcp_output` call (Nagle's "idle").
    idle_at_output: bool,

    // ---- timers and RTT ----
    /// Pending deadlines.
    timers: Timers,
    /// RTO estimator.
    rtt: RttEstimator,
    /// Segment being timed (`t_rtt != 0`): when timing started and `t_rtseq`.
    rtt_timing: Option<(SimTime, SeqNum)>,
    /// The last raw RTT sample (see [`TcpStats::rtt_raw_sum_ps`]).
    last_rtt: Option<SimDuration>,
    /// Arrival time of the last segment (BSD `t_idle` counts slow ticks since then).
    last_rcv: SimTime,
    /// Per-segment send times on the sender's clock (Vegas family only).
    send_log: Option<SendLog>,
    /// With pacing, the earliest time the next data segment may leave.
    pace_next: SimTime,

    // ---- policies ----
    /// Window arithmetic.
    cc: CcPolicy,
    /// Loss recovery.
    recovery: RecoveryPolicy,
    /// SACK scoreboard (empty unless SACK is negotiated).
    scoreboard: Scoreboard,
    /// Congestion state (written only by `set_ca_state`).
    ca_state: CaState,
    /// `snd_max` at the last timeout: the Loss state ends when it is acknowledged.
    loss_point: SeqNum,

    /// Counters.
    stats: TcpStats,
}

impl fmt::Debug for TcpEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TcpEndpoint")
            .field("state", &self.state)
            .field("policies", &self.cfg.policies)
            .field("snd_una", &self.tcb.snd_una)
            .field("snd_nxt", &self.tcb.snd_nxt)
            .field("snd_max", &self.tcb.snd_max)
            .field("cwnd", &self.tcb.cwnd)
            .field("ssthresh", &self.tcb.ssthresh)
            .field("rcv_nxt", &self.rcv_nxt)
            .field("timers", &self.timers)
            .finish_non_exhaustive()
    }
}

impl TcpEndpoint {
    fn new(cfg: TcpConfig, local_port: u16, remote_port: u16, iss: SeqNum, state: State, now: SimTime) -> Self {
        if let Err(e) = cfg.validate() {
            panic!("invalid TcpConfig: {e}");
        }
        let (slow, mut rtt) = match cfg.timer_granularity {
            TimerGranularity::Ticks(period) => {
                let hz = (SimDuration::from_secs(1).as_picos() / period.as_picos()) as u32;
                (
                    Some(TickClock::new(period, cfg.tick_phase)),
                    RttEstimator::Bsd(BsdRtt::new(hz, cfg.rttmin_ticks, cfg.rto_max).with_formula(
                        if cfg.rto_formula() == RtoFormula::Tahoe { BsdRto::Tahoe } else { BsdRto::Lite },
                    )),
                )
            }
            TimerGranularity::Exact => {
                (None, RttEstimator::Rfc6298(Rfc6298Rtt::new(cfg.exact_rto_min, cfg.rto_max, SimDuration::ZERO)))
            }
            TimerGranularity::Linux { .. } => {
                let jiffy = cfg.timer_granularity.jiffy().expect("validated hz");
                let clock = TickClock::new(jiffy, cfg.tick_phase);
                (None, RttEstimator::Linux(LinuxRtt::new(clock, LINUX_RTO_MIN, cfg.rto_max)))
            }
        };
        if let Some(d) = cfg.initial_rto {
            match (&mut rtt, slow) {
                (RttEstimator::Bsd(b), Some(c)) => {
                    let ticks = d.as_picos().div_ceil(c.period().as_picos());
                    b.set_initial_rto(u32::try_from(ticks).unwrap_or(u32::MAX));
                }
                (RttEstimator::Rfc6298(r), _) => r.set_initial_rto(d),
                (RttEstimator::Linux(l), _) => l.set_initial_rto(d),
                (RttEstimator::Bsd(_), None) => {}
            }
        }
        let own_mss = cfg.mss.offer();
        let iw = cfg.initial_cwnd_segments.saturating_mul(own_mss);
        let cc = cfg.policies.congestion_control(&cfg);
        let recovery = cfg.policies.loss_recovery(iss, cfg.tail_loss_probe);
        TcpEndpoint {
            fast: TickClock::new(cfg.delayed_ack_timeout, cfg.tick_phase),
            slow,
            slow_memo: TickMemo::default(),
            fast_memo: TickMemo::default(),
            local_port,
            remote_port,
            state,
            iss,
            tcb: Tcb::new(iss, own_mss, iw, cfg.dupack_threshold),
            snd_wl1: SeqNum(0),
            snd_wl2: iss,
            max_sndwnd: 0,
            snd_data_end: iss + 1,
            sb_cc: 0,
            close_requested: false,
            close_deferred: false,
            own_mss,
            irs: SeqNum(0),
            rcv_nxt: SeqNum(0),
            rcv_adv: SeqNum(0),
            rcv_unread: 0,
            reass: Reassembly::new(),
            rcv_fin: None,
            fin_rcvd: false,
            last_ack_sent: SeqNum(0),
            linux_delack: LinuxDelack::default(),
            rcv_scale: 0,
            ws_ok: false,
            ts_ok: false,
            sack_ok: false,
            ts_recent: 0,
            dsack: None,
            ack_now: false,
            delack: false,
            force: false,
            rst_pending: false,
            rst_reply: None,
            pending_rexmt: None,
            pending_rexmt_next: false,
            output_fresh: true,
            idle_at_output: true,
            timers: Timers::default(),
            rtt,
            rtt_timing: None,
            last_rtt: None,
            last_rcv: now,
            send_log: cfg.keeps_send_times().then(SendLog::new),
            pace_next: SimTime::ZERO,
            cc,
            recovery,
            scoreboard: Scoreboard::new(),
            ca_state: CaState::Open,
            loss_point: iss,
            stats: TcpStats::default(),
            cfg,
        }
    }

    /// Active open: the first `poll_transmit` returns the SYN.
    ///
    /// # Panics
    /// If `cfg.validate()` fails (validate configurations when building a scenario).
    pub fn connect(cfg: TcpConfig, local_port: u16, remote_port: u16, iss: SeqNum, now: SimTime) -> Self {
        TcpEndpoint::new(cfg, local_port, remote_port, iss, State::SynSent, now)
    }

    /// Passive open: waits for a SYN to `local_port` from any port.
    ///
    /// # Panics
    /// If `cfg.validate()` fails.
    pub fn listen(cfg: TcpConfig, local_port: u16, iss: SeqNum) -> Self {
        TcpEndpoint::new(cfg, local_port, 0, iss, State::Listen, SimTime::ZERO)
    }

    /// Processes an arriving segment. Timers due at or before `now` fire first.
    pub fn on_segment(&mut self, now: SimTime, seg: &Segment) {
        self.run_timers(now);
        self.output_fresh = true;
        self.input(now, seg);
        self.sync_loss_timer(now);
    }

    /// The next segment to send at `now`, if any; call until `None`. Timers due at or before
    /// `now` fire first. One drain (calls until `None`) is one BSD `tcp_output` call.
    pub fn poll_transmit(&mut self, now: SimTime) -> Option<Segment> {
        self.run_timers(now);
        // (Counted in place: unwrapping and rewrapping copied the segment twice.)
        let seg = self.output(now);
        if let Some(s) = &seg {
            self.count_sent(s);
        }
        seg
    }

    /// The earliest time this endpoint needs `on_timeout`, or `None` if no timer is armed.
    ///
    /// The value can change only inside `on_segment`, `on_timeout`, `poll_transmit`,
    /// `write`, `close` and `read`; re-read it after draining `poll_transmit`. It may move
    /// earlier (a timer armed by a transmission) or later (an ACK restarting the
    /// retransmission timer); a wake-up at a stale, earlier time is harmless.
    pub fn poll_timeout(&self) -> Option<SimTime> {
        self.timers.earliest()
    }

    /// Fires every timer due at or before `now`; harmless if nothing is due.
    pub fn on_timeout(&mut self, now: SimTime) {
        self.run_timers(now);
    }

    /// The application writes `bytes`; returns how many the send buffer accepted (0 after
    /// `close()` or once the connection is gone).
    pub fn write(&mut self, bytes: u64) -> u64 {
        let open = matches!(self.state, State::SynSent | State::SynReceived | State::Established | State::CloseWait);
        if !open || self.close_requested || self.close_deferred {
            return 0;
        }
        let n = bytes.min(self.send_buffer_free());
        self.sb_cc += n;
        self.snd_data_end += n as u32;
        self.stats.bytes_written += n;
        self.output_fresh = true;
        n
    }

    /// The application closes its sending direction: a FIN follows the buffered data
    /// (BSD `tcp_usrclosed`). In SYN_SENT / SYN_RECEIVED the close takes effect when the
    /// connection is established (as a blocking `connect()` followed by `close()` would);
    /// closing a listener abandons it.
    pub fn close(&mut self) {
        self.output_fresh = true;
        match self.state {
            State::Listen => {
                self.state = State::Closed;
                self.timers.cancel_all();
            }
            State::SynSent | State::SynReceived => self.close_deferred = true,
            State::Established => {
                self.close_requested = true;
                self.state = State::FinWait1;
            }
            State::CloseWait => {
                self.close_requested = true;
                self.state = State::LastAck;
            }
            _ => {}
        }
    }

    /// In-order octets received since the last call; the application consumes them (which
    /// may open the advertised window and cause a window update on the next drain).
    pub fn read(&mut self) -> u64 {
        let n = std::mem::take(&mut self.rcv_unread);
        self.stats.bytes_read += n;
        if n > 0 {
            self.output_fresh = true;
        }
        n
    }

    /// Counters.
    pub fn stats(&self) -> &TcpStats {
        &self.stats
    }

    /// Congestion window, octets.
    pub fn cwnd(&self) -> u32 {
        self.tcb.cwnd
    }

    /// Slow-start threshold, octets.
    pub fn ssthresh(&self) -> u32 {
        self.tcb.ssthresh
    }

    /// Current (backed-off) retransmission timeout. With ticks: `t_rxtcur` ticks × period.
    pub fn rto(&self) -> SimDuration {
        match (&self.rtt, self.slow) {
            (RttEstimator::Bsd(b), Some(clock)) => clock.period().saturating_mul(u64::from(b.t_rxtcur)),
            (RttEstimator::Rfc6298(r), _) => r.rto,
            (RttEstimator::Linux(l), _) => l.rto(),
            (RttEstimator::Bsd(_), None) => unreachable!("BSD estimator without a slow clock"),
        }
    }

    /// The smoothed RTT the estimator holds (None before its first sample). With ticks:
    /// `t_srtt` / 8 ticks × period.
    pub fn srtt(&self) -> Option<SimDuration> {
        match (&self.rtt, self.slow) {
            (RttEstimator::Bsd(b), Some(clock)) => (b.t_srtt > 0).then(|| {
                let eighths = u64::try_from(b.t_srtt).unwrap_or(0);
                SimDuration::from_picos(clock.period().as_picos().saturating_mul(eighths) / 8)
            }),
            (RttEstimator::Rfc6298(r), _) => r.srtt,
            (RttEstimator::Linux(l), _) => l.srtt,
            (RttEstimator::Bsd(_), None) => unreachable!("BSD estimator without a slow clock"),
        }
    }

    /// The last raw RTT sample, as measured before the estimator's rounding (None before any).
    pub fn last_rtt_sample(&self) -> Option<SimDuration> {
        self.last_rtt
    }

    /// Connection state.
    pub fn state(&self) -> State {
        self.state
    }

    /// Free space in the send buffer, octets.
    pub fn send_buffer_free(&self) -> u64 {
        u64::from(self.cfg.send_buffer_bytes).saturating_sub(self.sb_cc)
    }

    /// The local port.
    pub fn local_port(&self) -> u16 {
        self.local_port
    }

    /// The remote port (for a listener, the last peer's; 0 before any).
    pub fn remote_port(&self) -> u16 {
        self.remote_port
    }

    /// The configuration.
    pub fn config(&self) -> &TcpConfig {
        &self.cfg
    }

    /// The policies configured (an endpoint with `sack` recovery whose peer refused SACK
    /// keeps reporting `sack` while it recovers like `newreno`).
    pub fn policies(&self) -> Policies {
        self.cfg.policies
    }

    /// Congestion state.
    pub fn ca_state(&self) -> CaState {
        self.ca_state
    }

    /// Segment size in use (`t_maxseg`), octets.
    pub fn maxseg(&self) -> u32 {
        self.tcb.maxseg
    }

    /// The peer's advertised (scaled) window, octets.
    pub fn snd_wnd(&self) -> u32 {
        self.tcb.snd_wnd
    }

    /// Octets sent and not yet acknowledged (FlightSize).
    pub fn flight_size(&self) -> u32 {
        self.tcb.flight_size()
    }

    /// Which options the handshake negotiated, and the two window-scale shifts.
    pub fn negotiated(&self) -> Negotiated {
        Negotiated {
            window_scaling: self.ws_ok,
            timestamps: self.ts_ok,
            sack: self.sack_ok,
            snd_scale: self.tcb.snd_scale,
            rcv_scale: self.rcv_scale,
        }
    }

    /// True once the peer's FIN has been received (no more data will arrive).
    pub fn fin_received(&self) -> bool {
        self.fin_rcvd
    }

    // ---- shared helpers ----

    /// Our timestamp clock: slow ticks since time zero (BSD `tcp_now`), or microseconds with
    /// exact and Linux timers (Linux's own is 1 ms, but it takes RTTs from its microsecond
    /// send times whenever it can, so the samples are as fine as these).
    fn ts_now(&self, now: SimTime) -> u32 {
        match self.slow {
            Some(c) => c.ticks_through(now) as u32,
            None => (now.as_picos() / 1_000_000) as u32,
        }
    }

    /// Arms the retransmission timer with the current `t_rxtcur` from `now`.
    #[inline(always)]
    fn arm_rexmt(&mut self, now: SimTime) {
        self.timers.rexmt = Some(match (&self.rtt, self.slow) {
            (RttEstimator::Bsd(b), Some(clock)) => {
                clock.nth_tick_after_memo(now, u64::from(b.t_rxtcur), &mut self.slow_memo)
            }
            (RttEstimator::Rfc6298(r), _) => now + r.rto,
            (RttEstimator::Linux(l), _) => l.expiry(now, l.rto_jiffies, &mut self.slow_memo),
            (RttEstimator::Bsd(_), None) => unreachable!("BSD estimator without a slow clock"),
        });
    }

    /// Re-reads the loss recovery's own timer (only RACK-TLP keeps one; the others never
    /// need the estimator's SRTT asked for).
    #[inline]
    fn sync_loss_timer(&mut self, now: SimTime) {
        if !self.cfg.policies.recovery.has_loss_timer() {
            return;
        }
        let ctx = TimerCtx { now, srtt: self.srtt(), rto_at: self.timers.rexmt };
        self.timers.loss = self.recovery.loss_timer(&self.tcb, &ctx);
    }

    /// Changes the congestion state, telling the congestion control first.
    fn set_ca_state(&mut self, to: CaState) {
        if to != self.ca_state {
            self.cc.on_ca_state(&self.tcb, self.ca_state, to);
            self.ca_state = to;
        }
    }

    /// Whether the retransmission timer is armed (BSD `t_timer[TCPT_REXMT] != 0`).
    fn rexmt_armed(&self) -> bool {
        self.timers.rexmt.is_some()
    }

    fn count_sent(&mut self, seg: &Segment) {
        self.stats.segments_sent += 1;
        if seg.payload_len > 0 {
            self.stats.data_segments_sent += 1;
            self.stats.bytes_sent += u64::from(seg.payload_len);
        } else if !seg.flags.syn() && !seg.flags.fin() && !seg.flags.rst() {
            self.stats.acks_sent += 1;
        }
    }
}

/// Options negotiated on the handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Negotiated {
    /// RFC 7323 window scaling in use.
    pub window_scaling: bool,
    /// RFC 7323 timestamps in use.
    pub timestamps: bool,
    /// RFC 2018 SACK in use.
    pub sack: bool,
    /// Shift applied to the peer's window field.
    pub snd_scale: u8,
    /// Shift applied to the window field we send.
    pub rcv_scale: u8,
}

#[cfg(test)]
impl TcpEndpoint {
    /// Test hook: the shared block (to set up a window state without a long prelude).
    pub(crate) fn tcb_mut(&mut self) -> &mut Tcb {
        &mut self.tcb
    }

    /// Test hook: the pending retransmission deadline.
    pub(crate) fn rexmt_deadline(&self) -> Option<SimTime> {
        self.timers.rexmt
    }
}
