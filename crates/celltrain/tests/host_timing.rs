//! Host timing variability (`processing_jitter`): with fixed processing times every seed of a
//! deterministic scenario gives the same run; with jitter the seeds differ, and the same seed
//! gives the same run again.

mod common;

use celltrain::metrics::Summary;
use celltrain::scenario::compile;

fn run(sets: &[(&str, &str)], seed: u64) -> Summary {
    common::run_builtin("V1", sets, seed)
}

#[test]
fn jitter_makes_seeds_differ_and_stays_reproducible() {
    let base = [("duration", "60 s"), ("bytes", "300 kB"), ("mbs", "2000")];
    let fixed = run(&base, 1).trace_hash;
    let jittered = [base.as_slice(), &[("processing_jitter", "0.3")]].concat();
    let a = run(&jittered, 1);
    let b = run(&jittered, 2);
    assert_ne!(a.trace_hash, b.trace_hash, "two seeds, two draws");
    assert_eq!(run(&jittered, 1).trace_hash, a.trace_hash, "same seed, same run");
    assert_ne!(a.trace_hash, fixed, "jitter changes the run");
    // The sender's mean inter-PDU time is kept: the transfer still completes.
    assert!(a.flows[0].completion_s.is_some() && b.flows[0].completion_s.is_some());
}

#[test]
fn jitter_outside_zero_to_one_is_refused() {
    let sets = vec![("processing_jitter".to_string(), "1.5".to_string())];
    let e = compile("V1", &sets, None).err().expect("refused").to_string();
    assert!(e.contains("processing_jitter"), "{e}");
}
