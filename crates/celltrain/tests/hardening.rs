//! Accepted input that once exhausted memory or panicked: each case runs, bounded by the run.

use celltrain::metrics::Summary;
use celltrain::network::{NodeKind, SimOptions};
use celltrain::scenario::compile;

fn owned(sets: &[(&str, &str)]) -> Vec<(String, String)> {
    sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

fn summary(name: &str, sets: &[(&str, &str)], options: SimOptions) -> Summary {
    let c = compile(name, &owned(sets), None).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut net = c.network;
    net.set_options(options);
    net.run(&mut |_| {});
    Summary::from_network(&net, c.meta, 0.0)
}

/// An on/off burst far longer than the run (once: a 3 GB allocation for `on = "1000 s"` in a
/// 60 ms run, a panic for `on = "1e5 s"`) is cut at the run's end, and counts exactly what the
/// reference (one event per cell) counts.
#[test]
fn an_on_off_burst_longer_than_the_run_is_bounded_by_the_run() {
    for on in ["1000 s", "1e5 s"] {
        let sets = [("on", on), ("duration", "60 ms"), ("warmup", "10 ms")];
        let mut fast = summary("E1-mux", &sets, SimOptions::default());
        let reference = summary("E1-mux", &sets, SimOptions::reference());
        assert!(fast.vcs.iter().map(|v| v.cells_sent).sum::<u64>() > 0, "on = {on}: the sources sent nothing");
        fast.events = reference.events;
        fast.trace_hash = reference.trace_hash.clone();
        assert!(fast == reference, "on = {on}: the cut burst differs from the reference");
    }
}

/// A router given no buffer once queued without bound (a fast link into a slow one: 980 MB
/// after 100 simulated seconds); now its packet ports hold at most a stated default.
#[test]
fn a_router_without_a_buffer_has_a_finite_default() {
    let c = compile("A10-udp", &[], None).expect("compiles");
    let net = &c.network;
    let from_router = |p: &&celltrain::network::Port| net.nodes()[p.from.index()].kind == NodeKind::Router;
    let limits: Vec<Option<u64>> =
        net.ports().iter().filter(from_router).filter_map(|p| p.packets.as_ref()).map(|q| q.limit_packets()).collect();
    assert!(!limits.is_empty(), "A10-udp has routers");
    assert!(limits.iter().all(|l| l.is_some_and(|n| n <= 10_000_000)), "{limits:?}");
}
