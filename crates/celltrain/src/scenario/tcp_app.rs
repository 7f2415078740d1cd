//! The TCP keys of an `app = { kind = "tcp", ... }` table: the stack's defaults, then every
//! key that overrides them (timers, delayed ACKs, loss recovery, pacing), validated so that
//! errors name the key.

use super::tcp_stack::Stack;
use super::{ScenarioError, TableView};
use celltrain_tcp::{CcKind, DelayedAck, MssChoice, RecoveryKind, RtoFormula, TcpConfig, TimerGranularity};

/// The TCP configuration of an `app = { kind = "tcp", ... }` table; defaults are the `stack`'s:
/// 4.4BSD-like except where MSc98's common set-up is the better default, or Linux's (see
/// docs/scenarios.md).
pub(super) fn tcp_config(app: &TableView<'_>) -> Result<TcpConfig, ScenarioError> {
    let stack = Stack::read(app)?;
    let base = stack.base();
    let mut cfg = TcpConfig { policies: super::tcp_policies::read(app, base.policies)?, ..base.clone() };
    let initial_window = stack.initial_window(cfg.policies);
    tcp_loss_keys(app, &mut cfg, initial_window)?;
    cfg.hystart = hystart(app, cfg.policies.cc)?;
    cfg.tail_loss_probe = tail_loss_probe(app, cfg.policies.recovery)?;
    cfg.timestamps = app.opt_bool("timestamps")?.unwrap_or(base.timestamps);
    cfg.window_scaling = app.opt_bool("window_scaling")?.unwrap_or(base.window_scaling);
    let mtu = u32::try_from(app.opt_bytes("mtu")?.unwrap_or(9180)).unwrap_or(u32::MAX);
    let round = app.opt_bytes("mss_rounding")?.map(|b| u32::try_from(b).unwrap_or(u32::MAX));
    cfg.mss = match app.opt_bytes("mss")? {
        Some(m) => MssChoice::Fixed(u32::try_from(m).unwrap_or(u32::MAX)),
        None => MssChoice::FromMtu { mtu, mclbytes: round },
    };
    let mss = u64::from(cfg.mss.offer());
    let window = match (app.opt_bytes("window")?, app.opt_u64("window_segments")?) {
        (Some(_), Some(_)) => return Err(app.key_error("window_segments", "give either window or window_segments")),
        (Some(w), None) => Some(w),
        (None, Some(n)) => Some(n * mss),
        (None, None) => None,
    };
    if let Some(w) = window {
        let w = u32::try_from(w).map_err(|_| app.key_error("window", "too large (max 4294967295)"))?;
        cfg.send_buffer_bytes = w;
        cfg.recv_buffer_bytes = w;
    }
    if let Some(w) = app.opt_bytes("send_buffer")? {
        cfg.send_buffer_bytes =
            u32::try_from(w).map_err(|_| app.key_error("send_buffer", "too large (max 4294967295)"))?;
    }
    if let Some(w) = app.opt_bytes("recv_buffer")? {
        cfg.recv_buffer_bytes =
            u32::try_from(w).map_err(|_| app.key_error("recv_buffer", "too large (max 4294967295)"))?;
    }
    tcp_timers(app, &mut cfg, stack.linux_timers())?;
    cfg.delayed_ack = match app.opt_keyword("delayed_ack", &["off", "bsd", "sunos", "linux"])? {
        Some("bsd") => DelayedAck::Bsd,
        Some("sunos") => DelayedAck::SunOs,
        Some("linux") => DelayedAck::Linux,
        Some(_) => DelayedAck::Off,
        None => base.delayed_ack,
    };
    if let Some(t) = app.opt_duration("delayed_ack_timeout")? {
        cfg.delayed_ack_timeout = t;
    }
    cfg.max_pacing_rate_bps = max_pacing_rate(app)?;
    cfg.reassemble_out_of_order = app.opt_keyword("out_of_order", &["queue", "discard"])?.is_none_or(|k| k == "queue");
    if let Some(name) = app.opt_keyword("rto", &["tahoe", "lite", "rfc6298", "linux"])? {
        cfg.rto = RtoFormula::from_name(name);
    }
    cfg.validate().map_err(|e| app.error(format!("invalid TCP configuration: {e}")))?;
    Ok(cfg)
}

/// `max_pacing_rate`: a positive rate, or `"off"` (as absent) for a scenario whose parameter
/// chooses whether the sender paces.
fn max_pacing_rate(app: &TableView<'_>) -> Result<Option<u64>, ScenarioError> {
    if app.get("max_pacing_rate").is_some_and(|v| v.as_str().is_ok_and(|s| s == "off")) {
        return Ok(None);
    }
    match app.opt_rate("max_pacing_rate")? {
        Some(r) if r.as_bps() == 0 => Err(app.key_error("max_pacing_rate", "must be positive")),
        r => Ok(r.map(|r| r.as_bps())),
    }
}

/// The timers of a TCP app: `timers = "bsd"` ticks as `timer_granularity` says (500 ms by
/// default); `timers = "linux"` runs Linux's estimator on jiffies of 1/`hz` s (default 250).
/// Without `timers`, Linux's run when `linux_default` and no `timer_granularity` is given.
/// The largest timeout follows the timers unless `max_rto` is given.
fn tcp_timers(app: &TableView<'_>, cfg: &mut TcpConfig, linux_default: bool) -> Result<(), ScenarioError> {
    let linux = match app.opt_keyword("timers", &["bsd", "linux"])? {
        Some(t) => t == "linux",
        None => linux_default && app.get("timer_granularity").is_none(),
    };
    if app.get("max_rto").is_none() {
        cfg.rto_max = if linux { celltrain_tcp::rtt::LINUX_RTO_MAX } else { TcpConfig::default().rto_max };
    }
    if linux {
        if app.get("timer_granularity").is_some() {
            return Err(app.key_error("timer_granularity", "give either timers = \"linux\" or timer_granularity"));
        }
        let hz = app.opt_u64("hz")?.unwrap_or(250);
        if !(1..=10_000).contains(&hz) {
            return Err(app.key_error("hz", "must be in 1..=10000"));
        }
        cfg.timer_granularity = TimerGranularity::Linux { hz: hz as u32 };
        return Ok(());
    }
    if app.get("hz").is_some() {
        return Err(app.key_error("hz", "needs timers = \"linux\""));
    }
    cfg.timer_granularity = TcpConfig::default().timer_granularity;
    if let Some(g) = app.get("timer_granularity") {
        cfg.timer_granularity = if g.as_str().is_ok_and(|s| s == "exact") {
            TimerGranularity::Exact
        } else {
            let d = g.duration()?;
            if d.is_zero() {
                return Err(g.error("must be positive, or \"exact\""));
            }
            TimerGranularity::Ticks(d)
        };
    }
    Ok(())
}

/// `hystart`: HyStart++ in the initial slow start, on by default with Linux's controls and
/// only possible with them.
fn hystart(app: &TableView<'_>, cc: CcKind) -> Result<bool, ScenarioError> {
    match app.opt_bool("hystart")? {
        Some(true) if !cc.is_linux() => Err(app
            .key_error("hystart", format!("HyStart++ needs cc = \"cubic\" or \"linux-reno\", not \"{}\"", cc.name()))),
        Some(on) => Ok(on),
        None => Ok(cc.is_linux()),
    }
}

/// `tail_loss_probe`: RACK-TLP's probe (on by default), as Linux's `tcp_early_retrans`; only
/// with a recovery that runs RACK.
fn tail_loss_probe(app: &TableView<'_>, recovery: RecoveryKind) -> Result<bool, ScenarioError> {
    match app.opt_bool("tail_loss_probe")? {
        Some(_) if !recovery.has_loss_timer() => Err(app.key_error(
            "tail_loss_probe",
            format!("applies with recovery = \"rack-tlp\" or \"linux\", not \"{}\"", recovery.name()),
        )),
        Some(on) => Ok(on),
        None => Ok(true),
    }
}

/// The keys of a TCP app that AD97 varies: `initial_window` (segments; default
/// `initial_window`, the stack's), `dupack_threshold` (duplicate ACKs that
/// trigger fast retransmit, default 3), `initial_rto` (the retransmission timeout before
/// any RTT sample; default BSD's 6 s, or RFC 6298's 1 s with exact timers) and `max_rto` (the
/// largest timeout back-off reaches; default BSD's 64 s).
fn tcp_loss_keys(app: &TableView<'_>, cfg: &mut TcpConfig, initial_window: u32) -> Result<(), ScenarioError> {
    cfg.initial_cwnd_segments = initial_window;
    let count = |key: &str| -> Result<Option<u32>, ScenarioError> {
        match app.opt_u64(key)? {
            Some(0) => Err(app.key_error(key, "must be at least 1")),
            Some(n) => u32::try_from(n).map(Some).map_err(|_| app.key_error(key, "too large (max 4294967295)")),
            None => Ok(None),
        }
    };
    if let Some(n) = count("initial_window")? {
        cfg.initial_cwnd_segments = n;
    }
    if let Some(n) = count("dupack_threshold")? {
        cfg.dupack_threshold = n;
    }
    if let Some(d) = app.opt_duration("initial_rto")? {
        if d.is_zero() {
            return Err(app.key_error("initial_rto", "must be positive"));
        }
        cfg.initial_rto = Some(d);
    }
    if let Some(d) = app.opt_duration("max_rto")? {
        if d.is_zero() {
            return Err(app.key_error("max_rto", "must be positive"));
        }
        cfg.rto_max = d;
        // With exact timers the RFC 6298 floor (1 s) may not exceed the maximum asked for.
        cfg.exact_rto_min = cfg.exact_rto_min.min(d);
    }
    Ok(())
}
