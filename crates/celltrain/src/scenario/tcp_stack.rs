//! A TCP app's `stack`: the host whose defaults its other keys start from. `bsd` (the
//! default) is the 1997 host every earlier scenario ran; `linux` is today's Linux
//! ([`TcpConfig::linux`]). Every other key given still replaces its part.

use super::{ScenarioError, TableView};
use celltrain_tcp::{DelayedAck, Policies, TcpConfig, Variant};

/// The host a TCP app's defaults come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stack {
    /// 4.4BSD-like ([`TcpConfig::default`]) with `variant = "reno"` and timestamps and
    /// delayed ACKs off, MSc98's common set-up.
    Bsd,
    /// Linux's documented defaults.
    Linux,
}

impl Stack {
    /// The `stack` key (default `bsd`).
    pub(super) fn read(app: &TableView<'_>) -> Result<Stack, ScenarioError> {
        let linux = app.opt_keyword("stack", &["bsd", "linux"])?.is_some_and(|s| s == "linux");
        Ok(if linux { Stack::Linux } else { Stack::Bsd })
    }

    /// The configuration the keys start from.
    pub(super) fn base(self) -> TcpConfig {
        match self {
            Stack::Bsd => TcpConfig {
                policies: Variant::Reno.policies(),
                timestamps: false,
                delayed_ack: DelayedAck::Off,
                ..TcpConfig::default()
            },
            Stack::Linux => TcpConfig::linux(),
        }
    }

    /// The initial window when `initial_window` is not given: Linux's ten segments whatever
    /// the control; on the BSD host, the policies' own.
    pub(super) fn initial_window(self, policies: Policies) -> u32 {
        match self {
            Stack::Bsd => policies.default_initial_window(),
            Stack::Linux => TcpConfig::linux().initial_cwnd_segments,
        }
    }

    /// Whether Linux's timers run when neither `timers` nor `timer_granularity` is given.
    pub(super) fn linux_timers(self) -> bool {
        self == Stack::Linux
    }
}
