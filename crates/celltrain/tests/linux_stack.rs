//! Linux's TCP as a scenario runs it: its timers (`timers = "linux"`, `hz`), its delayed
//! ACKs, and the `stack = "linux"` preset that bundles them with CUBIC, `recovery = "linux"`
//! and IW10, each key still overridable.

use celltrain::scenario::{compile_source, Compiled, Source};
use celltrain_core::SimDuration;
use celltrain_tcp::{
    CcKind, DelayedAck, MssChoice, Policies, RecoveryKind, RtoFormula, TcpConfig, TimerGranularity, Variant,
};

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
    assert_eq!(cfg.rto_max, SimDuration::from_secs(120), "TCP_RTO_MAX");
    let cfg = config(&t1_app(r#"timers = "linux", max_rto = "60 s","#, &[]).unwrap());
    assert_eq!(cfg.rto_max, SimDuration::from_secs(60));
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
    assert!(phases.iter().all(|p| *p < SimDuration::from_millis(10)), "{phases:?}");
    assert!(phases.iter().any(|p| !p.is_zero()), "{phases:?}");
    c.network.run(&mut |_| {});
    for conn in c.network.conns().iter().filter(|c| c.endpoint.stats().bytes_written > 0) {
        let srtt = conn.endpoint.srtt().expect("sampled");
        // The RTO is SRTT + at least 200 ms, in whole 10 ms jiffies.
        let rto = conn.endpoint.rto();
        assert!(rto >= srtt + SimDuration::from_millis(200), "{rto:?} {srtt:?}");
        assert_eq!(rto.as_picos() % 10_000_000_000, 0, "{rto:?}");
    }
}

#[test]
fn linux_delayed_acks_are_a_choice() {
    let cfg = config(&t1_app(r#"delayed_ack = "linux", timers = "linux","#, &[]).unwrap());
    assert_eq!(cfg.delayed_ack, DelayedAck::Linux);
    assert_key_error(r#"delayed_ack = "linus","#, "delayed_ack");
}

/// `config(c)` with the phase of the tick clock left out (it is drawn per host).
fn without_phase(c: &Compiled) -> TcpConfig {
    TcpConfig { tick_phase: SimDuration::ZERO, ..config(c) }
}

#[test]
fn stack_linux_bundles_linux_defaults() {
    let linux = without_phase(&t1_app(r#"stack = "linux","#, &[]).unwrap());
    assert_eq!(linux, TcpConfig { mss: MssChoice::Fixed(9112), ..TcpConfig::linux() });
    assert_eq!(linux.policies, Policies { cc: CcKind::Cubic, recovery: RecoveryKind::Linux });
    assert_eq!(
        (linux.timer_granularity, linux.delayed_ack, linux.initial_cwnd_segments, linux.timestamps, linux.hystart),
        (TimerGranularity::Linux { hz: 250 }, DelayedAck::Linux, 10, true, true)
    );
    assert_eq!((linux.recv_buffer_bytes, linux.send_buffer_bytes), (6 << 20, 4 << 20));
    assert_eq!(linux.rto_max, SimDuration::from_secs(120));
}

#[test]
fn stack_bsd_is_the_1997_default_untouched() {
    let bsd = without_phase(&t1_app(r#"stack = "bsd","#, &[]).unwrap());
    assert_eq!(bsd, without_phase(&t1_app("", &[]).unwrap()));
    let expected = TcpConfig {
        policies: Variant::Reno.policies(),
        mss: MssChoice::Fixed(9112),
        timestamps: false,
        delayed_ack: DelayedAck::Off,
        ..TcpConfig::default()
    };
    assert_eq!(bsd, expected);
    assert_key_error(r#"stack = "freebsd","#, "stack");
}

#[test]
fn every_key_still_overrides_the_linux_stack() {
    let linux = || TcpConfig { mss: MssChoice::Fixed(9112), ..TcpConfig::linux() };
    let reno = Variant::Reno.policies();
    let cases: Vec<(&str, TcpConfig)> = vec![
        (
            r#"cc = "linux-reno","#,
            TcpConfig { policies: Policies { cc: CcKind::LinuxReno, recovery: RecoveryKind::Linux }, ..linux() },
        ),
        (r#"variant = "reno","#, TcpConfig { policies: reno, hystart: false, ..linux() }),
        (
            r#"recovery = "sack","#,
            TcpConfig { policies: Policies { recovery: RecoveryKind::Sack, ..linux().policies }, ..linux() },
        ),
        (r#"timestamps = false,"#, TcpConfig { timestamps: false, ..linux() }),
        (r#"delayed_ack = "bsd","#, TcpConfig { delayed_ack: DelayedAck::Bsd, ..linux() }),
        (r#"hystart = false,"#, TcpConfig { hystart: false, ..linux() }),
        (r#"hz = 1000,"#, TcpConfig { timer_granularity: TimerGranularity::Linux { hz: 1000 }, ..linux() }),
        (
            r#"timer_granularity = "exact","#,
            TcpConfig { timer_granularity: TimerGranularity::Exact, rto_max: SimDuration::from_secs(64), ..linux() },
        ),
        (
            r#"timers = "bsd","#,
            TcpConfig {
                timer_granularity: TimerGranularity::BSD_500MS,
                rto_max: SimDuration::from_secs(64),
                ..linux()
            },
        ),
        (r#"max_rto = "60 s","#, TcpConfig { rto_max: SimDuration::from_secs(60), ..linux() }),
        (r#"initial_window = 4,"#, TcpConfig { initial_cwnd_segments: 4, ..linux() }),
        (r#"window = "1 MB","#, TcpConfig { send_buffer_bytes: 1_000_000, recv_buffer_bytes: 1_000_000, ..linux() }),
    ];
    for (key, expected) in cases {
        let got = without_phase(&t1_app(&format!(r#"stack = "linux", {key}"#), &[]).unwrap());
        assert_eq!(got, expected, "{key}");
    }
}

/// Linux's stack through T1's drop-tail bottleneck (500 cells), two senders: both lose
/// segments and recover, and each receiving application reads exactly the bytes written,
/// once, in the ATM network and in the packet network alike.
#[test]
fn a_linux_stack_transfer_delivers_exactly_its_bytes_in_cell_and_packet_mode() {
    for mode in ["cell", "packet"] {
        let sets =
            [("mode", mode), ("n_senders", "2"), ("bytes", "20 MB"), ("duration", "10 s"), ("buffer", "500 cells")];
        let mut c = t1_app(r#"stack = "linux","#, &sets).unwrap();
        c.network.run(&mut |_| {});
        let (senders, receivers): (Vec<_>, Vec<_>) =
            c.network.conns().iter().map(|c| c.endpoint.stats()).partition(|s| s.bytes_written > 0);
        assert_eq!((senders.len(), receivers.len()), (2, 2), "{mode}");
        for s in senders {
            assert!(s.segments_retransmitted > 0, "{mode}: no loss: {s:?}");
            assert_eq!(s.bytes_written, 20_000_000, "{mode}");
        }
        for r in receivers {
            assert_eq!((r.bytes_read, r.bytes_delivered), (20_000_000, 20_000_000), "{mode}: {r:?}");
        }
    }
}

/// `max_pacing_rate` paces each sender (Linux's `SO_MAX_PACING_RATE`): two Linux senders
/// through T1's 141 Mbit/s bottleneck send 2 MB each within 0.7 s unpaced, overflowing its
/// buffer in slow start; at 20 Mbit/s each they lose nothing and deliver no more than
/// 0.7 s × 20 Mbit/s = 1.75 MB of payload by then; given the time, every byte arrives.
#[test]
fn max_pacing_rate_paces_a_linux_sender() {
    // (octets each receiver read, segments each sender retransmitted)
    let run = |keys: &str, duration: &str| -> (Vec<u64>, Vec<u64>) {
        let sets = [("n_senders", "2"), ("bytes", "2 MB"), ("duration", duration)];
        let mut c = t1_app(keys, &sets).unwrap();
        c.network.run(&mut |_| {});
        let (senders, receivers): (Vec<_>, Vec<_>) =
            c.network.conns().iter().map(|c| c.endpoint.stats()).partition(|s| s.bytes_written > 0);
        (receivers.iter().map(|s| s.bytes_read).collect(), senders.iter().map(|s| s.segments_retransmitted).collect())
    };
    let (read, rexmt) = run(r#"stack = "linux","#, "0.7 s");
    assert_eq!(read, [2_000_000; 2], "unpaced");
    assert!(rexmt.iter().all(|&n| n > 0), "unpaced: {rexmt:?}");
    let paced = r#"stack = "linux", max_pacing_rate = "20 Mbit/s","#;
    let (read, rexmt) = run(paced, "0.7 s");
    assert!(read.iter().all(|&r| r > 1_000_000 && r <= 1_750_000), "{read:?}");
    assert_eq!(rexmt, [0, 0]);
    assert_eq!(run(paced, "10 s"), (vec![2_000_000; 2], vec![0, 0]));
    assert_eq!(config(&t1_app(paced, &[]).unwrap()).max_pacing_rate_bps, Some(20_000_000));
    assert_key_error(r#"max_pacing_rate = "0 bit/s","#, "max_pacing_rate");
    assert_key_error(r#"max_pacing_rate = "fast","#, "max_pacing_rate");
}
