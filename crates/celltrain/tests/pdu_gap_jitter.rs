//! Adapter service jitter (`pdu_gap_jitter`): each PDU gap of a host's adapter drawn around its
//! mean. Without it the runs are those of fixed gaps; with it the seeds differ and the same
//! seed gives the same run again; a value outside [0, 1] is refused with the key's name.

mod common;

use celltrain::metrics::Summary;
use celltrain::scenario::compile;

fn run(sets: &[(&str, &str)], seed: u64) -> Summary {
    common::run_builtin("V5", sets, seed)
}

#[test]
fn gap_jitter_makes_seeds_differ_and_stays_reproducible() {
    // V5's PDU-level rate control at 9188 B: eq. (3)'s 7.618 ms between PDUs.
    let base = [("duration", "30 s"), ("bytes", "500 kB"), ("mtu", "9188 B"), ("pdu_gap", "7618 us")];
    let fixed = run(&base, 1);
    let zero = [base.as_slice(), &[("pdu_gap_jitter", "0")]].concat();
    assert_eq!(run(&zero, 1).trace_hash, fixed.trace_hash, "0 is no jitter");
    let jittered = [base.as_slice(), &[("pdu_gap_jitter", "0.3")]].concat();
    let a = run(&jittered, 1);
    let b = run(&jittered, 2);
    assert_ne!(a.trace_hash, fixed.trace_hash, "the jitter changes the run");
    assert_ne!(a.trace_hash, b.trace_hash, "two seeds, two draws");
    assert_ne!(b.trace_hash, run(&base, 2).trace_hash, "the jitter changes seed 2's run too");
    assert_eq!(run(&jittered, 1).trace_hash, a.trace_hash, "same seed, same run");
    assert!(a.flows[0].completion_s.is_some() && b.flows[0].completion_s.is_some());
}

#[test]
fn gap_jitter_outside_zero_to_one_is_refused() {
    for bad in ["1.5", "-0.1", "\"a lot\""] {
        let sets = vec![("pdu_gap".to_string(), "1 ms".to_string()), ("pdu_gap_jitter".to_string(), bad.to_string())];
        let e = compile("V1", &sets, None).err().expect("refused").to_string();
        assert!(e.contains("pdu_gap_jitter"), "{bad}: {e}");
    }
}
