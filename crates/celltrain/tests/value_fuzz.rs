//! The value fuzzer: the built-in scenarios with their numbers changed to edge values (zero,
//! negative, tiny, huge, not-a-number, past every integer width), compiled and run. Every
//! outcome must be a one-line error naming the file, or a run — never a panic, and never an
//! allocation that aborts the process (which fails this test binary).
//!
//! Bounded in time for CI (a few seconds, fixed seed; each run stops after a short wall-clock
//! budget). A longer search, as a documented command:
//!
//! ```text
//! CELLTRAIN_FUZZ_SECONDS=600 CELLTRAIN_FUZZ_SEED=7 \
//!     cargo test --release -p celltrain --test value_fuzz -- --nocapture
//! ```
//!
//! On Unix the search runs in a child process of this test binary under a limit on its address
//! space ([`MEMORY_LIMIT_MB`], `ulimit -v`; `CELLTRAIN_FUZZ_MEMORY_MB` changes it): an
//! allocation past it aborts the child, which fails the test, instead of passing on a machine
//! with memory to spare (or swapping on one without).

mod common;

use celltrain::builtin;
use celltrain::scenario::{compile_source, Source};
use common::Draws;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// What replaces a number: edge values of every kind the parser and the model meet.
const EDGES: &[&str] = &[
    "0",
    "1",
    "2",
    "-1",
    "0.5",
    "1e-12",
    "1e-300",
    "1e12",
    "1e300",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "100001",
    "nan",
    "inf",
    "-0",
];

/// Edges that build very large networks (tens of seconds each): only in longer searches.
const LONG_EDGES: &[&str] = &["65536", "99999"];

/// Byte spans of the numbers written as values (after a line's `=`, bare or at the start of
/// a quoted quantity such as `"5 ms"`), outside comments.
fn number_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let code = line.split('#').next().unwrap_or("");
        if let Some(eq) = code.find('=') {
            let bytes = code.as_bytes();
            let mut i = eq + 1;
            while i < bytes.len() {
                let starts = (bytes[i].is_ascii_digit()
                    || (bytes[i] == b'-' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)))
                    && i > 0
                    && matches!(bytes[i - 1], b'"' | b' ' | b'=' | b'[' | b',' | b'{');
                if starts {
                    let end = (i + 1..bytes.len())
                        .find(|&j| !(bytes[j].is_ascii_digit() || matches!(bytes[j], b'.' | b'e' | b'E' | b'+' | b'-')))
                        .unwrap_or(bytes.len());
                    spans.push((offset + i, offset + end));
                    i = end;
                } else {
                    i += 1;
                }
            }
        }
        offset += line.len();
    }
    spans
}

/// A panic payload that ends a run whose wall-clock budget is spent (not a failure).
struct OutOfTime;

/// Compiles and runs `text` for at most `budget` of wall-clock time; `Err` with the panic
/// message if anything panicked.
fn compile_and_run(text: &str, budget: Duration) -> Result<bool, String> {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let compiled = match compile_source(Source::new("fuzz.toml", text.to_string()), &[], None) {
            Ok(c) => c,
            Err(e) => {
                let msg = e.to_string();
                assert!(msg.starts_with("fuzz.toml"), "error not naming the file: {msg}");
                assert_eq!(msg.lines().count(), 1, "multi-line error: {msg}");
                return false;
            }
        };
        let mut net = compiled.network;
        let started = Instant::now();
        net.run(&mut |_| {
            if started.elapsed() > budget {
                std::panic::panic_any(OutOfTime);
            }
        });
        true
    }));
    match outcome {
        Ok(ran) => Ok(ran),
        Err(payload) if payload.is::<OutOfTime>() => Ok(true),
        Err(payload) => Err(payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()),
    }
}

/// The address space the search may use, MB: the whole test binary, compiling and running
/// each scenario for its 300 ms, peaks near 10 MB resident (and under 512 MB of address
/// space); a scenario that needs more than this has memory bounded by its input, not its run.
const MEMORY_LIMIT_MB: u64 = 1024;

/// Set in the child process that runs under the memory limit: what it runs.
const CHILD_ENV: &str = "CELLTRAIN_FUZZ_CHILD";

/// Runs the test `test` of this binary in a child process whose address space is limited to
/// `limit_mb`, with `CHILD_ENV` set to `role`; returns its exit status and standard error.
#[cfg(unix)]
fn run_limited(test: &str, role: &str, limit_mb: u64) -> (std::process::ExitStatus, String) {
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new("sh")
        .arg("-c")
        // (A hard limit below this one already holds the child to less.)
        .arg(format!(
            "ulimit -v {} 2>/dev/null || test \"$(ulimit -H -v)\" != unlimited || exit 97; exec \"$@\"",
            limit_mb * 1024
        ))
        .arg("sh")
        .arg(exe)
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, role)
        .output()
        .expect("runs the test binary under a memory limit");
    (out.status, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn builtins_with_edge_values_never_panic() {
    #[cfg(unix)]
    if std::env::var_os(CHILD_ENV).is_none() {
        let limit_mb =
            std::env::var("CELLTRAIN_FUZZ_MEMORY_MB").ok().and_then(|s| s.parse().ok()).unwrap_or(MEMORY_LIMIT_MB);
        let (status, err) = run_limited("builtins_with_edge_values_never_panic", "fuzz", limit_mb);
        eprint!("{err}");
        assert!(
            status.success(),
            "the value fuzzer failed under a {limit_mb} MB memory limit ({status}; an abort is an allocation past it)"
        );
        return;
    }
    let seconds: u64 = std::env::var("CELLTRAIN_FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(8);
    let seed: u64 = std::env::var("CELLTRAIN_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5EED_F422);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    // Quiet the expected out-of-time unwinds; report every other panic.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !info.payload().is::<OutOfTime>() {
            default_hook(info);
        }
    }));
    let edges: Vec<&str> = EDGES.iter().chain(if seconds > 60 { LONG_EDGES } else { &[] }).copied().collect();
    let mut rng = Draws(seed | 1);
    let builtins = builtin::all();
    let (mut rounds, mut ran, mut refused) = (0u64, 0u64, 0u64);
    let mut failures = Vec::new();
    while Instant::now() < deadline {
        let b = &builtins[rounds as usize % builtins.len()];
        let mut text = b.text.to_string();
        let spans = number_spans(&text);
        assert!(!spans.is_empty(), "{}: no number to mutate", b.name);
        // One or two numbers changed; replaced from the end so earlier spans stay valid.
        let mut chosen: Vec<(usize, usize)> = (0..1 + rng.below(2)).map(|_| spans[rng.below(spans.len())]).collect();
        chosen.sort_unstable();
        chosen.dedup();
        let mut changes = Vec::new();
        for &(a, z) in chosen.iter().rev() {
            let edge = edges[rng.below(edges.len())];
            changes.push(format!("{:?} -> {edge}", &text[a..z]));
            text.replace_range(a..z, edge);
        }
        let round_started = Instant::now();
        let outcome = compile_and_run(&text, Duration::from_millis(300));
        if round_started.elapsed() > Duration::from_secs(2) {
            eprintln!("slow: {} with {changes:?}: {:?}", b.name, round_started.elapsed());
        }
        match outcome {
            Ok(true) => ran += 1,
            Ok(false) => refused += 1,
            Err(msg) => failures.push(format!("{} with {changes:?}: {msg}", b.name)),
        }
        rounds += 1;
    }
    let _ = std::panic::take_hook();
    eprintln!("value fuzzer: {rounds} scenarios, {ran} ran, {refused} refused, {} panicked", failures.len());
    assert!(failures.is_empty(), "panics:\n{}", failures.join("\n"));
    assert!(ran > 0 && refused > 0, "the mutations should exercise both outcomes ({ran} ran, {refused} refused)");
}

#[test]
fn numbers_in_values_are_found() {
    let text = "[a]\nx = 3\ny = \"5 ms\" # 7\nz = [\"h1\", \"s{0..3}\"]\nw = { a = -2, b = \"1e3 cells\" }\n";
    let found: Vec<&str> = number_spans(text).into_iter().map(|(a, z)| &text[a..z]).collect();
    assert_eq!(found, ["3", "5", "0..3", "-2", "1e3"]);
}

/// The limit holds: a child that asks for more than it is stopped (so the fuzzer's limit is
/// not a number that nothing enforces).
#[cfg(unix)]
#[test]
fn the_memory_limit_is_enforced() {
    if std::env::var(CHILD_ENV).is_ok_and(|r| r == "allocate") {
        // (`black_box`: a release build would otherwise leave out an allocation never used.)
        let big: Vec<u8> = std::hint::black_box(Vec::with_capacity(2 * MEMORY_LIMIT_MB as usize * 1024 * 1024));
        eprintln!("allocated {} bytes", big.capacity());
        return;
    }
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    let (status, err) = run_limited("the_memory_limit_is_enforced", "allocate", MEMORY_LIMIT_MB);
    assert!(!status.success(), "an allocation of twice the limit succeeded: {err}");
    assert!(err.contains("memory allocation"), "{err}");
}
