//! Endpoint configuration: named TCP variants, MSS choice, BSD timer granularity, delayed-ACK
//! policy, buffers and options. [`TcpConfig::default`] is a 4.4BSD-Lite(2)-like host on a
//! Classical-IP-over-ATM interface (MTU 9180).
//!
//! A configuration is a factory: [`Policies`] chooses which
//! [`CongestionControl`](crate::cc::CongestionControl) ([`CcKind`]) and which
//! [`LossRecovery`](crate::recovery::LossRecovery) ([`RecoveryKind`]) an endpoint composes
//! (policies, not flags), independently of each other; a [`Variant`] is a name for one pair.
//! Adding a policy means a policy file, its arm in [`CcPolicy`](crate::policy::CcPolicy) or [`RecoveryPolicy`](crate::policy::RecoveryPolicy), and a
//! `CcKind` or `RecoveryKind` arm.

mod choice;

pub use choice::{CcKind, Policies, RecoveryKind, Variant};

use crate::segment::IP_HEADER;
use crate::tcb::{TCP_MAXWIN, TCP_MAX_WINSHIFT};
use celltrain_core::SimDuration;
use std::fmt;

/// How the endpoint chooses the MSS it offers on its SYN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MssChoice {
    /// Offer exactly this many octets.
    Fixed(u32),
    /// Derive from the interface MTU as 4.4BSD `tcp_mss()` does: `mss = mtu − 40`; if
    /// `mclbytes` is given and the result exceeds it, round down to a multiple of it
    /// (4.4BSD: MCLBYTES 1024 on i386, 2048 on hp300; 9180 → 8192 either way).
    FromMtu {
        /// Interface MTU, octets (IP datagram size).
        mtu: u32,
        /// Mbuf cluster size for the BSD rounding, octets; `None` = use the MTU exactly.
        mclbytes: Option<u32>,
    },
}

impl MssChoice {
    /// The MSS offered on the SYN, octets (before the timestamp-option deduction, which
    /// applies once timestamps are negotiated).
    pub fn offer(self) -> u32 {
        match self {
            MssChoice::Fixed(m) => m,
            MssChoice::FromMtu { mtu, mclbytes } => {
                let mss = mtu.saturating_sub(IP_HEADER + crate::segment::TCP_HEADER_BASE);
                match mclbytes {
                    Some(c) if c > 0 && mss > c => mss / c * c,
                    _ => mss,
                }
            }
        }
    }
}

/// The slow (retransmission) timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimerGranularity {
    /// BSD `tcp_slowtimo`: a host-wide tick every `period` (phase [`TcpConfig::tick_phase`]).
    /// RTTs are counted in ticks, RTOs expire on tick boundaries, the estimator is BSD's
    /// fixed-point `tcp_xmit_timer` (`docs/references.md#bsd-rtt-estimator`). `period` must divide
    /// one second.
    Ticks(SimDuration),
    /// No tick quantisation: RFC 6298 estimator on exact durations, RTO is a continuous
    /// deadline, delayed ACKs wait exactly `delayed_ack_timeout`.
    Exact,
    /// Linux's timers: exact RTT samples, RFC 6298's smoothing with Linux's deviation term
    /// (at least 200 ms, `TCP_RTO_MIN`), timeouts in whole jiffies of 1/`hz` s expiring on
    /// the host's jiffy ticks (phase [`TcpConfig::tick_phase`]), 1 s before any sample
    /// (`docs/references.md#linux-timers`).
    Linux {
        /// Jiffies per second (Linux's `CONFIG_HZ`: 100, 250, 300 or 1000).
        hz: u32,
    },
}

impl TimerGranularity {
    /// 4.4BSD: PR_SLOWHZ = 2.
    pub const BSD_500MS: TimerGranularity = TimerGranularity::Ticks(SimDuration::from_millis(500));
    /// Solaris 2.x-style 200 ms granularity.
    pub const TICKS_200MS: TimerGranularity = TimerGranularity::Ticks(SimDuration::from_millis(200));
    /// SunOS `softclock` resolution, 10 ms.
    pub const TICKS_10MS: TimerGranularity = TimerGranularity::Ticks(SimDuration::from_millis(10));
    /// Linux with its default `CONFIG_HZ` of 250 (4 ms jiffies).
    pub const LINUX_HZ_250: TimerGranularity = TimerGranularity::Linux { hz: 250 };

    /// The length of one jiffy (1 s / hz, to the picosecond below) with Linux's timers.
    pub fn jiffy(self) -> Option<SimDuration> {
        match self {
            TimerGranularity::Linux { hz } if hz > 0 => {
                Some(SimDuration::from_picos(SimDuration::from_secs(1).as_picos() / u64::from(hz)))
            }
            _ => None,
        }
    }
}

/// The retransmission-timeout formula, named after the stack that used it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RtoFormula {
    /// 4.3BSD-Tahoe (and SunOS 4.1.x, which derives from it): BSD fixed point on slow ticks,
    /// timeout `((t_srtt >> 2) + t_rttvar) >> 1` = srtt + 2·rttvar. Ticks only.
    Tahoe,
    /// 4.4BSD-Lite2: BSD fixed point on slow ticks, `(t_srtt >> 3) + t_rttvar` =
    /// srtt + 4·rttvar. Ticks only.
    Lite,
    /// RFC 6298 on exact durations. Exact timers only.
    Rfc6298,
    /// RFC 6298 with Linux's deviation term and 200 ms floor, on jiffies. Linux timers only.
    Linux,
}

impl RtoFormula {
    /// The configuration name (`tahoe`, `lite`, `rfc6298`).
    pub const fn name(self) -> &'static str {
        match self {
            RtoFormula::Tahoe => "tahoe",
            RtoFormula::Lite => "lite",
            RtoFormula::Rfc6298 => "rfc6298",
            RtoFormula::Linux => "linux",
        }
    }

    /// Parses a configuration name.
    pub fn from_name(name: &str) -> Option<RtoFormula> {
        [RtoFormula::Tahoe, RtoFormula::Lite, RtoFormula::Rfc6298, RtoFormula::Linux]
            .into_iter()
            .find(|f| f.name() == name)
    }
}

/// When the receiver acknowledges in-order data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DelayedAck {
    /// Acknowledge every segment at once.
    Off,
    /// 4.4BSD: `TF_DELACK`, answered at the next fast-timer tick, unless `tcp_output`'s
    /// window-update rule fires first: the window that could newly be advertised is
    /// ≥ 2·MSS or ≥ half the receive buffer. With an application that reads promptly this
    /// is "ACK every second full segment".
    Bsd,
    /// SunOS 4.1.x: as `Bsd`, but the window-update rule is "slid by ≥ 2 maximum segments
    /// or ≥ 35 % of the maximum window (the receive buffer)".
    SunOs,
    /// Linux: quick-ACK mode (every segment acknowledged at once) for the first segments
    /// and after an idle period, then an ACK for every second full-sized segment or after a
    /// delay that follows the data's inter-arrival time, 40 ms to 200 ms
    /// ([`crate::delack::LinuxDelack`]); on jiffies with Linux's timers.
    Linux,
}

/// Congestion-avoidance increment of the BSD window arithmetic
/// (`docs/references.md#bsd-window-arithmetic`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BsdCaIncrement {
    /// 4.4BSD-Lite2 code: `incr = maxseg·maxseg / cwnd` per ACK.
    #[default]
    MaxsegSquaredOverCwnd,
    /// 4.3BSD-Reno / Net/3, from secondary descriptions (not confirmed from source,
    /// `docs/references.md#unconfirmed-points`):
    /// `incr = maxseg·maxseg / cwnd + maxseg / 8`.
    PlusMaxsegOver8,
}

/// Configuration of one TCP endpoint. Every field has a unit; `validate()` checks ranges.
#[derive(Clone, Debug, PartialEq)]
pub struct TcpConfig {
    /// Congestion control and loss recovery.
    pub policies: Policies,
    /// MSS offered on the SYN.
    pub mss: MssChoice,
    /// Send socket buffer (`so_snd.sb_hiwat`), octets: the most data written but not yet
    /// acknowledged.
    pub send_buffer_bytes: u32,
    /// Receive socket buffer (`so_rcv.sb_hiwat`), octets: bounds the advertised window.
    pub recv_buffer_bytes: u32,
    /// Slow-timer granularity (or exact timers).
    pub timer_granularity: TimerGranularity,
    /// Retransmission-timeout formula; `None` = the one of the granularity (Lite's with
    /// ticks, RFC 6298 with exact timers).
    pub rto: Option<RtoFormula>,
    /// Phase of the host's timers: slow ticks happen at `tick_phase + k·period`, fast ticks
    /// at `tick_phase + k·delayed_ack_timeout` (k ≥ 0; taken modulo the period). All
    /// connections of one host share it, which is what synchronises them.
    pub tick_phase: SimDuration,
    /// Delayed-ACK policy of the receiver.
    pub delayed_ack: DelayedAck,
    /// Fast-timer period (`tcp_fasttimo`, BSD 200 ms); with `TimerGranularity::Exact`, the
    /// exact delay of a delayed ACK.
    pub delayed_ack_timeout: SimDuration,
    /// Offer RFC 7323 timestamps (BSD `tcp_do_rfc1323`).
    pub timestamps: bool,
    /// Offer RFC 7323 window scaling (BSD `tcp_do_rfc1323`).
    pub window_scaling: bool,
    /// Initial congestion window, segments (BSD: 1).
    pub initial_cwnd_segments: u32,
    /// Duplicate ACKs that trigger fast retransmit (BSD `tcprexmtthresh`, RFC DupThresh: 3).
    pub dupack_threshold: u32,
    /// Nagle's algorithm (BSD default on, i.e. `TF_NODELAY` off).
    pub nagle: bool,
    /// Minimum RTO `t_rttmin`, slow ticks (BSD TCPTV_MIN = 2 ticks). Ticks mode only.
    pub rttmin_ticks: u32,
    /// Minimum RTO with exact timers (RFC 6298 (2.4): 1 s); with Linux's timers the least
    /// deviation term is Linux's 200 ms instead, capped by `rto_max`.
    pub exact_rto_min: SimDuration,
    /// Maximum RTO (BSD TCPTV_REXMTMAX = 64 s).
    pub rto_max: SimDuration,
    /// Retransmissions before the connection is dropped (BSD TCP_MAXRXTSHIFT = 12; the
    /// next expiry aborts).
    pub max_retransmissions: u32,
    /// Maximum segment lifetime; TIME_WAIT lasts 2·MSL (BSD TCPTV_MSL = 30 s).
    pub msl: SimDuration,
    /// Congestion-avoidance increment of the BSD arithmetic (`tahoe`, `lite`).
    pub bsd_ca_increment: BsdCaIncrement,
    /// Whether the receiver queues out-of-order segments for reassembly (BSD `tcp_reass`);
    /// false: it drops them and the sender must send them again (go-back-N).
    pub reassemble_out_of_order: bool,
    /// Retransmission timeout before any RTT sample; `None` = BSD's 6 s (3 s default RTT),
    /// or RFC 6298's 1 s with exact timers. With ticks it is rounded up to whole ticks.
    pub initial_rto: Option<SimDuration>,
    /// HyStart++ (RFC 9406) in the initial slow start; Linux's controls only
    /// ([`CcKind::is_linux`]), where it is the default.
    pub hystart: bool,
    /// RACK-TLP's tail loss probe (RFC 8985 §7), on by default; off, RACK detects losses
    /// without probing, as Linux with `tcp_early_retrans = 0`. Only with a recovery that runs
    /// RACK ([`RecoveryKind::has_loss_timer`]).
    pub tail_loss_probe: bool,
    /// Sender pacing, bit/s of IP datagrams (Linux's `SO_MAX_PACING_RATE`): a data segment
    /// leaves no sooner than its predecessor's IP length at this rate after it. `None`: no
    /// pacing.
    pub max_pacing_rate_bps: Option<u64>,
}

impl Default for TcpConfig {
    /// 4.4BSD-Lite2 on Classical IP over ATM: `lite`, MSS from MTU 9180 (no MCLBYTES
    /// rounding), 500 ms slow timer at phase 0, BSD delayed ACKs with a 200 ms fast timer,
    /// RFC 1323 options on (`tcp_do_rfc1323 = 1`), one-segment initial window, three dup
    /// ACKs, Nagle on, `t_rttmin` 2 ticks, RTO ≤ 64 s, give-up after 12 retransmissions,
    /// MSL 30 s. Buffers are 64 KB − 1 rather than Lite's 8 KB, which would be smaller
    /// than one ATM-sized segment.
    fn default() -> Self {
        TcpConfig {
            policies: Variant::Lite.policies(),
            mss: MssChoice::FromMtu { mtu: 9180, mclbytes: None },
            send_buffer_bytes: 65_535,
            recv_buffer_bytes: 65_535,
            timer_granularity: TimerGranularity::BSD_500MS,
            rto: None,
            tick_phase: SimDuration::ZERO,
            delayed_ack: DelayedAck::Bsd,
            delayed_ack_timeout: SimDuration::from_millis(200),
            timestamps: true,
            window_scaling: true,
            initial_cwnd_segments: 1,
            dupack_threshold: 3,
            nagle: true,
            rttmin_ticks: 2,
            exact_rto_min: SimDuration::from_secs(1),
            rto_max: SimDuration::from_secs(64),
            max_retransmissions: 12,
            msl: SimDuration::from_secs(30),
            bsd_ca_increment: BsdCaIncrement::MaxsegSquaredOverCwnd,
            initial_rto: None,
            reassemble_out_of_order: true,
            hystart: false,
            tail_loss_probe: true,
            max_pacing_rate_bps: None,
        }
    }
}

/// Why a [`TcpConfig`] was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TcpConfigError {
    /// The MSS offered is outside 32..=65495 octets (BSD floor 32; IP limit 65535 − 40).
    MssOutOfRange(u32),
    /// `mclbytes` must be a power of two ≥ 32.
    BadMclbytes(u32),
    /// A buffer size is zero or above the largest scaled window (65535 << 14).
    BufferOutOfRange(&'static str, u32),
    /// The timer period must be positive, at most 1 s, and divide 1 s.
    BadTimerPeriod(SimDuration),
    /// Linux's HZ must be 1..=10000.
    BadHz(u32),
    /// The delayed-ACK timeout must be positive.
    ZeroDelayedAckTimeout,
    /// A count that must be at least one is zero.
    ZeroCount(&'static str),
    /// The RTO bounds are inconsistent (zero minimum or minimum above maximum).
    BadRtoBounds,
    /// The MSL must be positive.
    ZeroMsl,
    /// The RTO formula does not fit the timer granularity (BSD formulas need ticks, RFC 6298
    /// exact timers).
    RtoFormulaVsGranularity(RtoFormula),
    /// The congestion control cannot run with the loss recovery ([`Policies::check`]).
    IncompatiblePolicies(Policies),
    /// HyStart++ is modelled only in Linux's controls.
    HyStartNeedsLinuxCc(CcKind),
    /// The tail loss probe switched off with a recovery that has none.
    TailLossProbeNeedsRack(RecoveryKind),
    /// A pacing rate must be positive.
    ZeroPacingRate,
}

impl fmt::Display for TcpConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TcpConfigError::MssOutOfRange(m) => write!(f, "MSS {m} outside 32..=65495 octets"),
            TcpConfigError::BadMclbytes(c) => write!(f, "mclbytes {c} is not a power of two >= 32"),
            TcpConfigError::BufferOutOfRange(which, v) => {
                write!(f, "{which} = {v} outside 1..=1073725440 octets")
            }
            TcpConfigError::BadTimerPeriod(d) => {
                write!(f, "timer period {d} must be positive, at most 1 s, and divide 1 s")
            }
            TcpConfigError::ZeroPacingRate => write!(f, "max_pacing_rate must be positive"),
            TcpConfigError::BadHz(hz) => write!(f, "hz = {hz} outside 1..=10000"),
            TcpConfigError::ZeroDelayedAckTimeout => write!(f, "delayed_ack_timeout must be positive"),
            TcpConfigError::ZeroCount(which) => write!(f, "{which} must be at least 1"),
            TcpConfigError::BadRtoBounds => write!(f, "RTO bounds: need 0 < minimum <= maximum"),
            TcpConfigError::ZeroMsl => write!(f, "msl must be positive"),
            TcpConfigError::RtoFormulaVsGranularity(r) => match r {
                RtoFormula::Rfc6298 => write!(f, "rto = \"rfc6298\" needs timer_granularity = \"exact\""),
                RtoFormula::Linux => write!(f, "rto = \"linux\" needs timers = \"linux\""),
                _ => write!(f, "rto = \"{}\" needs a tick timer granularity (BSD timers)", r.name()),
            },
            TcpConfigError::TailLossProbeNeedsRack(r) => {
                write!(f, "tail_loss_probe applies with recovery = \"rack-tlp\" or \"linux\", not \"{}\"", r.name())
            }
            TcpConfigError::HyStartNeedsLinuxCc(cc) => {
                write!(f, "hystart = true needs cc = \"cubic\" or \"linux-reno\", not \"{}\"", cc.name())
            }
            TcpConfigError::IncompatiblePolicies(p) if p.cc == CcKind::Vegas => write!(
                f,
                "cc = \"vegas\" runs only with recovery = \"vegas-rm\" or \"vegas-rm-afr\", not \"{}\"",
                p.recovery.name()
            ),
            TcpConfigError::IncompatiblePolicies(p) => write!(
                f,
                "recovery = \"{}\" never consults the congestion control, so it runs only with cc = \"bsd\" \
                 or \"vegas\", not \"{}\"",
                p.recovery.name(),
                p.cc.name()
            ),
        }
    }
}

impl std::error::Error for TcpConfigError {}

/// Linux's largest default receive buffer (`tcp_rmem`'s maximum, 6 MiB).
pub const LINUX_RMEM_MAX_BYTES: u32 = 6 << 20;
/// Linux's largest default send buffer (`tcp_wmem`'s maximum, 4 MiB).
pub const LINUX_WMEM_MAX_BYTES: u32 = 4 << 20;

/// The largest window a receiver can advertise with scaling: 65535 << 14 octets.
pub const MAX_SCALED_WINDOW: u32 = TCP_MAXWIN << TCP_MAX_WINSHIFT;

impl TcpConfig {
    /// Linux's defaults as its documentation gives them (`docs/references.md#linux-stack`):
    /// CUBIC with HyStart++, `recovery = linux` (SACK, D-SACK, RACK-TLP, PRR), Linux's timers
    /// at HZ 250 (200 ms `TCP_RTO_MIN`, 120 s `TCP_RTO_MAX`), Linux's delayed ACKs, an initial
    /// window of 10 segments (RFC 6928), timestamps and window scaling, `tcp_retries2` = 15
    /// retransmissions. The buffers are the largest `tcp_rmem` and `tcp_wmem` default to
    /// (6 MiB, 4 MiB) from the start: receive-window auto-tuning grows toward them, and
    /// starting there is the simplification (the window never limits where auto-tuning
    /// would not either). The MSS, Nagle and the 30 s MSL (60 s TIME_WAIT) are the default's.
    pub fn linux() -> Self {
        TcpConfig {
            policies: Policies { cc: CcKind::Cubic, recovery: RecoveryKind::Linux },
            send_buffer_bytes: LINUX_WMEM_MAX_BYTES,
            recv_buffer_bytes: LINUX_RMEM_MAX_BYTES,
            timer_granularity: TimerGranularity::LINUX_HZ_250,
            delayed_ack: DelayedAck::Linux,
            timestamps: true,
            window_scaling: true,
            initial_cwnd_segments: 10,
            rto_max: crate::rtt::LINUX_RTO_MAX,
            max_retransmissions: 15,
            hystart: true,
            ..TcpConfig::default()
        }
    }

    /// A default configuration with another variant.
    pub fn with_variant(variant: Variant) -> Self {
        TcpConfig::with_policies(variant.policies())
    }

    /// A default configuration with other policies, and their initial window.
    pub fn with_policies(policies: Policies) -> Self {
        TcpConfig {
            policies,
            initial_cwnd_segments: policies.default_initial_window(),
            hystart: policies.cc.is_linux(),
            ..TcpConfig::default()
        }
    }

    /// Checks every field's range.
    pub fn validate(&self) -> Result<(), TcpConfigError> {
        if let MssChoice::FromMtu { mclbytes: Some(c), .. } = self.mss {
            if c < 32 || !c.is_power_of_two() {
                return Err(TcpConfigError::BadMclbytes(c));
            }
        }
        let mss = self.mss.offer();
        if !(32..=65_495).contains(&mss) {
            return Err(TcpConfigError::MssOutOfRange(mss));
        }
        for (name, v) in [("send_buffer_bytes", self.send_buffer_bytes), ("recv_buffer_bytes", self.recv_buffer_bytes)]
        {
            if v == 0 || v > MAX_SCALED_WINDOW {
                return Err(TcpConfigError::BufferOutOfRange(name, v));
            }
        }
        if let TimerGranularity::Ticks(p) = self.timer_granularity {
            let one_s = SimDuration::from_secs(1).as_picos();
            if p.is_zero() || p.as_picos() > one_s || !one_s.is_multiple_of(p.as_picos()) {
                return Err(TcpConfigError::BadTimerPeriod(p));
            }
        }
        if let TimerGranularity::Linux { hz } = self.timer_granularity {
            if !(1..=10_000).contains(&hz) {
                return Err(TcpConfigError::BadHz(hz));
            }
        }
        if self.delayed_ack_timeout.is_zero() {
            return Err(TcpConfigError::ZeroDelayedAckTimeout);
        }
        for (name, v) in [
            ("initial_cwnd_segments", self.initial_cwnd_segments),
            ("dupack_threshold", self.dupack_threshold),
            ("rttmin_ticks", self.rttmin_ticks),
            ("max_retransmissions", self.max_retransmissions),
        ] {
            if v == 0 {
                return Err(TcpConfigError::ZeroCount(name));
            }
        }
        if self.exact_rto_min.is_zero() || self.exact_rto_min > self.rto_max {
            return Err(TcpConfigError::BadRtoBounds);
        }
        if self.msl.is_zero() {
            return Err(TcpConfigError::ZeroMsl);
        }
        if self.max_pacing_rate_bps == Some(0) {
            return Err(TcpConfigError::ZeroPacingRate);
        }
        self.policies.check()?;
        if self.hystart && !self.policies.cc.is_linux() {
            return Err(TcpConfigError::HyStartNeedsLinuxCc(self.policies.cc));
        }
        if !self.tail_loss_probe && !self.policies.recovery.has_loss_timer() {
            return Err(TcpConfigError::TailLossProbeNeedsRack(self.policies.recovery));
        }
        if self.rto.is_some_and(|r| r != self.rto_formula()) {
            return Err(TcpConfigError::RtoFormulaVsGranularity(self.rto.unwrap_or(RtoFormula::Lite)));
        }
        Ok(())
    }

    /// Whether the sender keeps per-segment send times: the Vegas family, and HyStart++ for
    /// the RTT of every ACK.
    pub const fn keeps_send_times(&self) -> bool {
        self.policies.fine_timing() || self.hystart
    }

    /// The RTO formula in force: the configured one if it fits the granularity, otherwise
    /// (and when none is configured) Lite's with ticks and RFC 6298's with exact timers.
    pub fn rto_formula(&self) -> RtoFormula {
        match (self.timer_granularity, self.rto) {
            (TimerGranularity::Ticks(_), Some(RtoFormula::Tahoe)) => RtoFormula::Tahoe,
            (TimerGranularity::Ticks(_), _) => RtoFormula::Lite,
            (TimerGranularity::Exact, _) => RtoFormula::Rfc6298,
            (TimerGranularity::Linux { .. }, _) => RtoFormula::Linux,
        }
    }

    /// The window-scale shift this host requests: the smallest with
    /// `65535 << shift ≥ recv_buffer_bytes`, at most 14 (4.4BSD `request_r_scale`).
    pub fn requested_window_scale(&self) -> u8 {
        let mut s = 0u8;
        while s < TCP_MAX_WINSHIFT && (TCP_MAXWIN << s) < self.recv_buffer_bytes {
            s += 1;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mss_from_mtu_with_and_without_bsd_rounding() {
        let exact = MssChoice::FromMtu { mtu: 9180, mclbytes: None };
        assert_eq!(exact.offer(), 9140);
        let i386 = MssChoice::FromMtu { mtu: 9180, mclbytes: Some(1024) };
        let hp300 = MssChoice::FromMtu { mtu: 9180, mclbytes: Some(2048) };
        assert_eq!(i386.offer(), 8192, "4.4BSD tcp_mss: 9140 rounds down to 8192");
        assert_eq!(hp300.offer(), 8192);
        let small = MssChoice::FromMtu { mtu: 576, mclbytes: Some(1024) };
        assert_eq!(small.offer(), 536, "no rounding below MCLBYTES");
        assert_eq!(MssChoice::Fixed(512).offer(), 512);
    }

    #[test]
    fn default_is_valid_and_variant_names_round_trip() {
        TcpConfig::default().validate().unwrap();
        for v in Variant::ALL {
            assert_eq!(Variant::from_name(v.name()), Some(v));
            TcpConfig::with_variant(v).validate().unwrap();
        }
        assert_eq!(Variant::from_name("NewReno"), Some(Variant::NewReno));
        assert_eq!(Variant::from_name("Vegas-AFR"), Some(Variant::VegasAfr));
        assert_eq!(Variant::from_name("vegas-ss"), None);
        assert_eq!(TcpConfig::with_variant(Variant::Vegas).initial_cwnd_segments, 2);
        assert_eq!(TcpConfig::with_variant(Variant::LiteAfr).initial_cwnd_segments, 1);
    }

    #[test]
    fn variants_are_names_for_a_congestion_control_and_a_recovery() {
        use CcKind::{Bsd, Rfc5681, Vegas};
        use RecoveryKind as R;
        let pairs = Variant::ALL.map(|v| (v.policies().cc, v.policies().recovery));
        assert_eq!(
            pairs,
            [
                (Bsd, R::Tahoe),
                (Rfc5681, R::Reno),
                (Bsd, R::Lite),
                (Rfc5681, R::NewReno),
                (Rfc5681, R::Sack),
                (Bsd, R::LiteAfr),
                (Bsd, R::VegasRm),
                (Bsd, R::VegasRmAfr),
                (Vegas, R::VegasRm),
                (Vegas, R::VegasRmAfr),
            ]
        );
        for v in Variant::ALL {
            assert_eq!(v.policies().variant(), Some(v));
            v.policies().check().unwrap();
        }
        for c in CcKind::ALL {
            assert_eq!(CcKind::from_name(&c.name().to_uppercase()), Some(c));
        }
        for r in RecoveryKind::ALL {
            assert_eq!(RecoveryKind::from_name(r.name()), Some(r));
        }
        let mixed = Policies { cc: Rfc5681, recovery: R::Tahoe };
        assert_eq!(mixed.variant(), None);
        mixed.check().unwrap();
        assert_eq!(TcpConfig::with_policies(mixed).initial_cwnd_segments, 1);
        for cc in [CcKind::Cubic, CcKind::LinuxReno] {
            let linux = Policies { cc, recovery: R::Sack };
            assert_eq!(TcpConfig::with_policies(linux).initial_cwnd_segments, 10, "{cc:?}: RFC 6928");
            assert_eq!(linux.cwnd_after_timeout_segments(), 1, "{cc:?}: RFC 5681 loss window");
        }
        assert_eq!(CcKind::from_name("Linux-Reno"), Some(CcKind::LinuxReno));
        assert!(TcpConfig::with_policies(Policies { cc: CcKind::Cubic, recovery: R::Sack }).hystart);
        assert!(Variant::ALL.iter().all(|v| !TcpConfig::with_variant(*v).hystart), "no result changes");
        let bad = TcpConfig { hystart: true, ..TcpConfig::with_variant(Variant::Sack) };
        assert_eq!(bad.validate(), Err(TcpConfigError::HyStartNeedsLinuxCc(CcKind::Rfc5681)));
        assert!(bad.keeps_send_times() && !TcpConfig::with_variant(Variant::Sack).keeps_send_times());
        let fine = Policies { cc: Bsd, recovery: R::VegasRm };
        assert!(fine.fine_timing() && !mixed.fine_timing());
        assert!(Policies { cc: Bsd, recovery: R::Sack }.offers_sack());
        assert!(Policies { cc: Rfc5681, recovery: R::LiteAfr }.header_prediction());
    }

    #[test]
    fn vegas_and_its_retransmission_mechanism_only_run_together_or_on_bsd() {
        use RecoveryKind as R;
        let bad = |cc, recovery| {
            let p = Policies { cc, recovery };
            let e = TcpConfig::with_policies(p).validate().unwrap_err();
            assert_eq!(e, TcpConfigError::IncompatiblePolicies(p));
            e.to_string()
        };
        let e = bad(CcKind::Vegas, R::Reno);
        assert!(e.contains("cc = \"vegas\"") && e.contains("\"reno\""), "{e}");
        let e = bad(CcKind::Rfc5681, R::VegasRmAfr);
        assert!(e.contains("recovery = \"vegas-rm-afr\"") && e.contains("\"rfc5681\""), "{e}");
        assert_eq!(e.lines().count(), 1);
    }

    #[test]
    fn validation_rejects_bad_values() {
        let bad = |f: fn(&mut TcpConfig)| {
            let mut c = TcpConfig::default();
            f(&mut c);
            c.validate().unwrap_err()
        };
        assert_eq!(bad(|c| c.mss = MssChoice::Fixed(16)), TcpConfigError::MssOutOfRange(16));
        assert_eq!(
            bad(|c| c.mss = MssChoice::FromMtu { mtu: 9180, mclbytes: Some(1000) }),
            TcpConfigError::BadMclbytes(1000)
        );
        assert!(matches!(bad(|c| c.recv_buffer_bytes = 0), TcpConfigError::BufferOutOfRange(..)));
        assert!(matches!(bad(|c| c.send_buffer_bytes = MAX_SCALED_WINDOW + 1), TcpConfigError::BufferOutOfRange(..)));
        assert!(matches!(
            bad(|c| c.timer_granularity = TimerGranularity::Ticks(SimDuration::from_millis(300))),
            TcpConfigError::BadTimerPeriod(_)
        ));
        assert!(matches!(
            bad(|c| c.timer_granularity = TimerGranularity::Ticks(SimDuration::ZERO)),
            TcpConfigError::BadTimerPeriod(_)
        ));
        assert_eq!(bad(|c| c.delayed_ack_timeout = SimDuration::ZERO), TcpConfigError::ZeroDelayedAckTimeout);
        assert_eq!(bad(|c| c.dupack_threshold = 0), TcpConfigError::ZeroCount("dupack_threshold"));
        assert_eq!(bad(|c| c.exact_rto_min = SimDuration::from_secs(65)), TcpConfigError::BadRtoBounds);
        assert_eq!(bad(|c| c.msl = SimDuration::ZERO), TcpConfigError::ZeroMsl);
        assert_eq!(
            bad(|c| c.rto = Some(RtoFormula::Rfc6298)),
            TcpConfigError::RtoFormulaVsGranularity(RtoFormula::Rfc6298)
        );
        assert_eq!(
            bad(|c| {
                c.timer_granularity = TimerGranularity::Exact;
                c.rto = Some(RtoFormula::Tahoe);
            }),
            TcpConfigError::RtoFormulaVsGranularity(RtoFormula::Tahoe)
        );
        let tahoe = TcpConfig { rto: Some(RtoFormula::Tahoe), ..TcpConfig::default() };
        tahoe.validate().unwrap();
        assert_eq!(tahoe.rto_formula(), RtoFormula::Tahoe);
        assert_eq!(TcpConfig::default().rto_formula(), RtoFormula::Lite);
        for f in [RtoFormula::Tahoe, RtoFormula::Lite, RtoFormula::Rfc6298] {
            assert_eq!(RtoFormula::from_name(f.name()), Some(f));
        }
        let ok = TcpConfig { timer_granularity: TimerGranularity::TICKS_10MS, ..TcpConfig::default() };
        ok.validate().unwrap();
    }

    #[test]
    fn requested_window_scale_is_smallest_sufficient_shift() {
        let mut c = TcpConfig { recv_buffer_bytes: 65_535, ..TcpConfig::default() };
        assert_eq!(c.requested_window_scale(), 0);
        c.recv_buffer_bytes = 65_536;
        assert_eq!(c.requested_window_scale(), 1);
        c.recv_buffer_bytes = 512 * 1024;
        assert_eq!(c.requested_window_scale(), 4, "65535 << 3 < 524288 <= 65535 << 4");
        c.recv_buffer_bytes = MAX_SCALED_WINDOW;
        assert_eq!(c.requested_window_scale(), 14);
    }
}
