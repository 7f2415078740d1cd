//! Linux's TCP as a scenario runs it: its timers (`timers = "linux"`, `hz`), its delayed
//! ACKs, and the `stack = "linux"` preset that bundles them with CUBIC, `recovery = "linux"`
//! and IW10, each key still overridable.

use celltrain::scenario::{compile_source, Compiled, Source};
use celltrain_tcp::{DelayedAck, RtoFormula, TcpConfig, TimerGranularity};

/// T1 (AD97 topology 1) with its TCP app replaced by one holding `keys` (and T1's MSS, bytes
/// and stagger), with `sets` for T1's parameters.
fn t1_app(keys: &str, sets: &[(&str, &str)]) -> Result<Compiled, String> {
    let text = celltrain::builtin::find("T1").unwrap().text;
    let app_line = text.lines().find(|l| l.starts_with("app = {")).unwrap();
    let app = format!(
        "app = {{ kind = \"tcp\", {keys} mss = \"9112 B\", bytes = \"${{bytes}}\", start_stagger = \"10 ms\" }}"
    );
    let text = text.replace(app_line, &app);
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    compile_source(Source::new("t1.toml", text), &sets, None).map_err(|e| e.to_string())
}

/// The configuration every connection of `c` runs with (all alike in these tests).
fn config(c: &Compiled) -> TcpConfig {
    let conns = c.network.conns();
    let cfg = conns[0].endpoint.config().clone();
    let alike = |c: &TcpConfig| *c == TcpConfig { tick_phase: c.tick_phase, ..cfg.clone() };
    assert!(conns.iter().all(|c| alike(c.endpoint.config())));
    cfg
}

/// A one-line error naming `key`.
fn assert_key_error(keys: &str, key: &str) {
    let e = t1_app(keys, &[]).err().unwrap_or_else(|| panic!("{keys} accepted"));
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.starts_with("t1.toml:") && e.contains(&format!(".{key}: ")), "{keys}: {e}");
}

#[test]
fn linux_timers_are_a_choice_with_their_hz() {
    let cfg = config(&t1_app(r#"timers = "linux","#, &[]).unwrap());
    assert_eq!(cfg.timer_granularity, TimerGranularity::Linux { hz: 250 }, "HZ 250 by default");
    assert_eq!(cfg.rto_formula(), RtoFormula::Linux);
    assert_eq!(cfg.rto_max, celltrain_core::SimDuration::from_secs(120), "TCP_RTO_MAX");
    let cfg = config(&t1_app(r#"timers = "linux", max_rto = "60 s","#, &[]).unwrap());
    assert_eq!(cfg.rto_max, celltrain_core::SimDuration::from_secs(60));
    let cfg = config(&t1_app(r#"timers = "linux", hz = 1000, rto = "linux","#, &[]).unwrap());
    assert_eq!(cfg.timer_granularity, TimerGranularity::Linux { hz: 1000 });
    let cfg = config(&t1_app(r#"timers = "bsd", timer_granularity = "200 ms","#, &[]).unwrap());
    assert_eq!(cfg.timer_granularity, TimerGranularity::TICKS_200MS);
    for (keys, key) in [
        (r#"timers = "linux", timer_granularity = "exact","#, "timer_granularity"),
        (r#"hz = 100,"#, "hz"),
        (r#"timers = "linux", hz = 0,"#, "hz"),
        (r#"timers = "solaris","#, "timers"),
    ] {
        assert_key_error(keys, key);
    }
    let e = t1_app(r#"timers = "linux", rto = "lite","#, &[]).err().expect("rejected");
    assert!(e.contains("needs a tick timer granularity"), "{e}");
}

/// Each host's jiffies have a phase of their own within one jiffy, drawn from the seed.
#[test]
fn linux_timers_run_with_a_phase_within_one_jiffy() {
    let mut c = t1_app(r#"timers = "linux", hz = 100,"#, &[("n_senders", "2"), ("bytes", "2 MB")]).unwrap();
    let phases: Vec<_> = c.network.conns().iter().map(|c| c.endpoint.config().tick_phase).collect();
    assert!(phases.iter().all(|p| *p < celltrain_core::SimDuration::from_millis(10)), "{phases:?}");
    assert!(phases.iter().any(|p| !p.is_zero()), "{phases:?}");
    c.network.run(&mut |_| {});
    for conn in c.network.conns().iter().filter(|c| c.endpoint.stats().bytes_written > 0) {
        let srtt = conn.endpoint.srtt().expect("sampled");
        // The RTO is SRTT + at least 200 ms, in whole 10 ms jiffies.
        let rto = conn.endpoint.rto();
        assert!(rto >= srtt + celltrain_core::SimDuration::from_millis(200), "{rto:?} {srtt:?}");
        assert_eq!(rto.as_picos() % 10_000_000_000, 0, "{rto:?}");
    }
}

#[test]
fn linux_delayed_acks_are_a_choice() {
    let cfg = config(&t1_app(r#"delayed_ack = "linux", timers = "linux","#, &[]).unwrap());
    assert_eq!(cfg.delayed_ack, DelayedAck::Linux);
    assert_key_error(r#"delayed_ack = "linus","#, "delayed_ack");
}
