//! Which policies an endpoint composes: a congestion control ([`CcKind`]) and a loss recovery
//! ([`RecoveryKind`]), chosen independently ([`Policies`]); a [`Variant`] is a name for one pair.

use super::{TcpConfig, TcpConfigError};
use crate::cc::{BsdCc, CubicCc, LinuxRenoCc, Rfc5681Cc, VegasCc, VegasParams};
use crate::policy::{CcPolicy, RecoveryPolicy};
use crate::recovery::{Afr, LiteRecovery, NewRenoRecovery, RenoRecovery, SackRecovery, TahoeRecovery, VegasRmRecovery};
use crate::seq::SeqNum;
use std::fmt;

/// A named TCP variant: one congestion-control policy plus one loss-recovery policy.
///
/// | variant | window arithmetic ([`CongestionControl`](crate::cc::CongestionControl)) | loss recovery ([`LossRecovery`](crate::recovery::LossRecovery)) |
/// |---|---|---|
/// | `tahoe` | BSD ([`BsdCc`]) | 4.3BSD-Tahoe fast retransmit, cwnd = 1 MSS, slow start |
/// | `reno` | RFC 5681 ([`Rfc5681Cc`]) | RFC 5681 §3.2 fast retransmit / fast recovery |
/// | `lite` | BSD ([`BsdCc`]) | 4.4BSD-Lite2 `tcp_input.c` Reno code, exact (`docs/references.md#reno`), plus its header-prediction fast path |
/// | `newreno` | RFC 5681 | RFC 6582 (partial ACKs, "Impatient" timer) |
/// | `sack` | RFC 5681 | RFC 2018 blocks + RFC 6675 conservative recovery (falls back to `newreno` if the peer does not permit SACK) |
/// | `lite-afr` | BSD | `lite` with adaptive fast retransmit ([`Afr`]) |
/// | `vegas-rm` | BSD | Vegas's retransmission mechanism ([`VegasRmRecovery`]) |
/// | `vegas-rm-afr` | BSD | Vegas-RM with adaptive fast retransmit |
/// | `vegas` | Vegas slow start and congestion avoidance ([`VegasCc`]) | Vegas-RM |
/// | `vegas-afr` | Vegas ([`VegasCc`]) | Vegas-RM with adaptive fast retransmit |
///
/// The Vegas family (Brakmo & Peterson 1995; the combinations of Aron & Druschel 1997) keeps
/// per-segment send times on the sender's clock, starts with a two-segment window and
/// restarts from two segments after a timeout; `lite-afr` keeps Lite's one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// 4.3BSD-Tahoe: fast retransmit, then slow start from one segment.
    Tahoe,
    /// RFC 5681 Reno: ssthresh = max(FlightSize/2, 2·SMSS), inflate, deflate to ssthresh.
    Reno,
    /// 4.4BSD-Lite(2) exactly as its code ran (`docs/references.md#bsd-window-arithmetic` and
    /// `docs/references.md#reno`).
    Lite,
    /// RFC 6582 NewReno.
    NewReno,
    /// RFC 2018 SACK with RFC 6675 loss recovery.
    Sack,
    /// `lite` with adaptive fast retransmit.
    LiteAfr,
    /// Vegas's retransmission mechanism on BSD window arithmetic.
    VegasRm,
    /// Vegas-RM with adaptive fast retransmit.
    VegasRmAfr,
    /// TCP Vegas: Vegas slow start, congestion avoidance and retransmission mechanism.
    Vegas,
    /// TCP Vegas with adaptive fast retransmit.
    VegasAfr,
}

impl Variant {
    /// Every variant, in a fixed order (for sweeps and tests).
    pub const ALL: [Variant; 10] = [
        Variant::Tahoe,
        Variant::Reno,
        Variant::Lite,
        Variant::NewReno,
        Variant::Sack,
        Variant::LiteAfr,
        Variant::VegasRm,
        Variant::VegasRmAfr,
        Variant::Vegas,
        Variant::VegasAfr,
    ];

    /// The configuration name (`tahoe`, `reno`, `lite`, `newreno`, `sack`, `lite-afr`,
    /// `vegas-rm`, `vegas-rm-afr`, `vegas`, `vegas-afr`).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Tahoe => "tahoe",
            Variant::Reno => "reno",
            Variant::Lite => "lite",
            Variant::NewReno => "newreno",
            Variant::Sack => "sack",
            Variant::LiteAfr => "lite-afr",
            Variant::VegasRm => "vegas-rm",
            Variant::VegasRmAfr => "vegas-rm-afr",
            Variant::Vegas => "vegas",
            Variant::VegasAfr => "vegas-afr",
        }
    }

    /// Parses a configuration name (case-insensitive).
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name().eq_ignore_ascii_case(name))
    }

    /// The congestion control and loss recovery this name stands for.
    pub const fn policies(self) -> Policies {
        let (cc, recovery) = match self {
            Variant::Tahoe => (CcKind::Bsd, RecoveryKind::Tahoe),
            Variant::Reno => (CcKind::Rfc5681, RecoveryKind::Reno),
            Variant::Lite => (CcKind::Bsd, RecoveryKind::Lite),
            Variant::NewReno => (CcKind::Rfc5681, RecoveryKind::NewReno),
            Variant::Sack => (CcKind::Rfc5681, RecoveryKind::Sack),
            Variant::LiteAfr => (CcKind::Bsd, RecoveryKind::LiteAfr),
            Variant::VegasRm => (CcKind::Bsd, RecoveryKind::VegasRm),
            Variant::VegasRmAfr => (CcKind::Bsd, RecoveryKind::VegasRmAfr),
            Variant::Vegas => (CcKind::Vegas, RecoveryKind::VegasRm),
            Variant::VegasAfr => (CcKind::Vegas, RecoveryKind::VegasRmAfr),
        };
        Policies { cc, recovery }
    }
}

/// Window arithmetic, chosen independently of the loss recovery (scenario key `cc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CcKind {
    /// 4.4BSD per-ACK arithmetic ([`BsdCc`]).
    Bsd,
    /// RFC 5681 slow start and congestion avoidance ([`Rfc5681Cc`]).
    Rfc5681,
    /// Vegas slow start and congestion avoidance ([`VegasCc`]).
    Vegas,
    /// CUBIC, RFC 9438 ([`CubicCc`]), with Linux's initial window.
    Cubic,
    /// RFC 5681 Reno as Linux runs it ([`LinuxRenoCc`]), with Linux's initial window.
    LinuxReno,
}

impl CcKind {
    /// Every congestion control, in a fixed order.
    pub const ALL: [CcKind; 5] = [CcKind::Bsd, CcKind::Rfc5681, CcKind::Vegas, CcKind::Cubic, CcKind::LinuxReno];

    /// The configuration name (`bsd`, `rfc5681`, `vegas`, `cubic`, `linux-reno`).
    pub const fn name(self) -> &'static str {
        match self {
            CcKind::Bsd => "bsd",
            CcKind::Rfc5681 => "rfc5681",
            CcKind::Vegas => "vegas",
            CcKind::Cubic => "cubic",
            CcKind::LinuxReno => "linux-reno",
        }
    }

    /// Parses a configuration name (case-insensitive).
    pub fn from_name(name: &str) -> Option<CcKind> {
        CcKind::ALL.into_iter().find(|c| c.name().eq_ignore_ascii_case(name))
    }

    /// Linux's controls, which bring Linux's defaults with them.
    pub const fn is_linux(self) -> bool {
        matches!(self, CcKind::Cubic | CcKind::LinuxReno)
    }
}

/// Loss recovery, chosen independently of the window arithmetic (scenario key `recovery`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RecoveryKind {
    /// 4.3BSD-Tahoe: fast retransmit, then slow start from one segment.
    Tahoe,
    /// RFC 5681 §3.2 fast retransmit / fast recovery.
    Reno,
    /// 4.4BSD-Lite2's Reno code, with its header-prediction fast path.
    Lite,
    /// RFC 6582 NewReno.
    NewReno,
    /// RFC 2018 SACK blocks with RFC 6675 recovery.
    Sack,
    /// `lite` with adaptive fast retransmit.
    LiteAfr,
    /// Vegas's retransmission mechanism.
    VegasRm,
    /// Vegas's retransmission mechanism with adaptive fast retransmit.
    VegasRmAfr,
    /// RFC 6675's SACK loss detection with RFC 6937 Proportional Rate Reduction.
    Prr,
    /// RFC 8985 RACK-TLP loss detection with PRR's sending, on SACK.
    RackTlp,
    /// Linux's default: SACK with D-SACK (RFC 2883), RACK-TLP and PRR.
    Linux,
}

impl RecoveryKind {
    /// Every loss recovery, in a fixed order.
    pub const ALL: [RecoveryKind; 11] = [
        RecoveryKind::Tahoe,
        RecoveryKind::Reno,
        RecoveryKind::Lite,
        RecoveryKind::NewReno,
        RecoveryKind::Sack,
        RecoveryKind::LiteAfr,
        RecoveryKind::VegasRm,
        RecoveryKind::VegasRmAfr,
        RecoveryKind::Prr,
        RecoveryKind::RackTlp,
        RecoveryKind::Linux,
    ];

    /// The configuration name (`tahoe`, `reno`, `lite`, `newreno`, `sack`, `lite-afr`,
    /// `vegas-rm`, `vegas-rm-afr`, `prr`, `rack-tlp`, `linux`).
    pub const fn name(self) -> &'static str {
        match self {
            RecoveryKind::Tahoe => "tahoe",
            RecoveryKind::Reno => "reno",
            RecoveryKind::Lite => "lite",
            RecoveryKind::NewReno => "newreno",
            RecoveryKind::Sack => "sack",
            RecoveryKind::LiteAfr => "lite-afr",
            RecoveryKind::VegasRm => "vegas-rm",
            RecoveryKind::VegasRmAfr => "vegas-rm-afr",
            RecoveryKind::Prr => "prr",
            RecoveryKind::RackTlp => "rack-tlp",
            RecoveryKind::Linux => "linux",
        }
    }

    /// Parses a configuration name (case-insensitive).
    pub fn from_name(name: &str) -> Option<RecoveryKind> {
        RecoveryKind::ALL.into_iter().find(|r| r.name().eq_ignore_ascii_case(name))
    }

    /// Whether the recovery keeps a timer of its own (RACK's reordering timer, TLP's probe).
    pub const fn has_loss_timer(self) -> bool {
        matches!(self, RecoveryKind::RackTlp | RecoveryKind::Linux)
    }

    /// Vegas's retransmission mechanism, with or without adaptive fast retransmit.
    const fn is_vegas_rm(self) -> bool {
        matches!(self, RecoveryKind::VegasRm | RecoveryKind::VegasRmAfr)
    }
}

/// A congestion control and a loss recovery, the two policies an endpoint composes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Policies {
    /// Window arithmetic.
    pub cc: CcKind,
    /// Loss recovery.
    pub recovery: RecoveryKind,
}

impl Policies {
    /// Whether the two can run together. Vegas's retransmission mechanism makes its own
    /// window decrease and never asks the congestion control, so a control with a loss
    /// response of its own would silently lose it; and Vegas's window arithmetic is modelled
    /// only with its own retransmission mechanism, as Brakmo and Peterson built it.
    pub fn check(self) -> Result<(), TcpConfigError> {
        let ok = match (self.cc, self.recovery.is_vegas_rm()) {
            (CcKind::Vegas, vegas_rm) => vegas_rm,
            (CcKind::Bsd, _) => true,
            (_, vegas_rm) => !vegas_rm,
        };
        if ok {
            Ok(())
        } else {
            Err(TcpConfigError::IncompatiblePolicies(self))
        }
    }

    /// The named variant with exactly these two policies, if there is one.
    pub fn variant(self) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.policies() == self)
    }

    /// Whether the sender keeps per-segment send times on its clock (the Vegas family:
    /// fine-grained RTTs and Vegas's retransmission checks; HyStart++ also needs them, see
    /// [`TcpConfig::keeps_send_times`]).
    pub const fn fine_timing(self) -> bool {
        matches!(self.cc, CcKind::Vegas) || self.recovery.is_vegas_rm()
    }

    /// The initial congestion window, segments (Vegas: 2, Aron & Druschel §5.3; the BSD
    /// and RFC 5681 controls: 1; Linux's controls: 10, RFC 6928, whatever the MSS, as Linux
    /// counts it).
    pub const fn default_initial_window(self) -> u32 {
        if self.cc.is_linux() {
            10
        } else if self.fine_timing() {
            2
        } else {
            1
        }
    }

    /// The congestion window after a retransmission timeout, segments (Vegas restarts from
    /// two, ns-2 `v_slowstart_`; BSD from one).
    pub const fn cwnd_after_timeout_segments(self) -> u32 {
        if self.fine_timing() {
            2
        } else {
            1
        }
    }

    /// Whether the endpoint offers SACK-permitted on its SYN (and so generates SACK blocks
    /// as a receiver when the peer offers it too).
    pub const fn offers_sack(self) -> bool {
        matches!(self.recovery, RecoveryKind::Sack | RecoveryKind::Prr | RecoveryKind::RackTlp | RecoveryKind::Linux)
    }

    /// Whether the endpoint reports data it receives twice in D-SACK blocks (RFC 2883) when
    /// SACK is in use, and its recovery reads them.
    pub const fn reports_dsack(self) -> bool {
        matches!(self.recovery, RecoveryKind::Linux)
    }

    /// Whether the 4.4BSD-Lite header-prediction pure-ACK fast path is modelled (it bypasses
    /// the congestion-window update and the fast-recovery deflation; see [`LiteRecovery`]).
    pub const fn header_prediction(self) -> bool {
        matches!(self.recovery, RecoveryKind::Lite | RecoveryKind::LiteAfr)
    }

    /// Builds the congestion-control policy.
    pub fn congestion_control(self, cfg: &TcpConfig) -> CcPolicy {
        match self.cc {
            CcKind::Bsd => CcPolicy::Bsd(BsdCc::new(cfg.bsd_ca_increment)),
            CcKind::Rfc5681 => CcPolicy::Rfc5681(Rfc5681Cc::new()),
            CcKind::Vegas => CcPolicy::Vegas(VegasCc::new(VegasParams::default(), true, true, cfg.bsd_ca_increment)),
            CcKind::Cubic => CcPolicy::Cubic(CubicCc::default().with_hystart(cfg.hystart)),
            CcKind::LinuxReno => CcPolicy::LinuxReno(LinuxRenoCc::new().with_hystart(cfg.hystart)),
        }
    }

    /// Builds the loss-recovery policy for a connection whose initial send sequence number
    /// is `iss` (RFC 6582 initialises `recover` to it), with RACK's tail loss probe or not. Adaptive fast retransmit reports the
    /// variant's name when the pair is one (`vegas-afr`), else the recovery's.
    pub fn loss_recovery(self, iss: SeqNum, tail_loss_probe: bool) -> RecoveryPolicy {
        let name = self.variant().map_or(self.recovery.name(), Variant::name);
        match self.recovery {
            RecoveryKind::Tahoe => RecoveryPolicy::Tahoe(TahoeRecovery::new()),
            RecoveryKind::Reno => RecoveryPolicy::Reno(RenoRecovery::new()),
            RecoveryKind::Lite => RecoveryPolicy::Lite(LiteRecovery::new()),
            RecoveryKind::NewReno => RecoveryPolicy::NewReno(NewRenoRecovery::new(iss)),
            RecoveryKind::Sack => RecoveryPolicy::Sack(SackRecovery::new()),
            RecoveryKind::LiteAfr => RecoveryPolicy::LiteAfr(Afr::new(LiteRecovery::new(), name)),
            RecoveryKind::VegasRm => RecoveryPolicy::VegasRm(VegasRmRecovery::new()),
            RecoveryKind::VegasRmAfr => RecoveryPolicy::VegasRmAfr(Afr::new(VegasRmRecovery::new(), name)),
            RecoveryKind::Prr => RecoveryPolicy::Sack(SackRecovery::with_prr()),
            RecoveryKind::RackTlp => RecoveryPolicy::Sack(SackRecovery::with_rack_tlp().probing(tail_loss_probe)),
            RecoveryKind::Linux => RecoveryPolicy::Sack(SackRecovery::with_linux().probing(tail_loss_probe)),
        }
    }
}

impl From<Variant> for Policies {
    fn from(v: Variant) -> Self {
        v.policies()
    }
}

impl fmt::Display for Policies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cc = {}, recovery = {}", self.cc.name(), self.recovery.name())
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
