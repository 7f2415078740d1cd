//! TCP app keys of a scenario that bound the retransmission timer.

use celltrain::metrics::Summary;
use celltrain::scenario::{compile_source, Source};

fn a3(app_extra: &str) -> Summary {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/A3.toml")).unwrap();
    let text =
        text.replace("initial_rto = \"${initial_rto}\",", &format!("initial_rto = \"${{initial_rto}}\",{app_extra}"));
    let sets = [("duration".to_string(), "3 s".to_string())];
    let compiled = compile_source(Source::new("A3.toml", text), &sets, Some(1)).expect("compiles");
    let mut net = compiled.network;
    net.run(&mut |_| {});
    Summary::from_network(&net, compiled.meta, 0.0)
}

/// `max_rto` caps the timeout: with 200 ms ticks, 0.5 s allows 2 ticks (BSD's TCPT_RANGESET
/// between t_rttmin = 2 ticks and the maximum in whole ticks), so every sender holds 0.4 s,
/// where BSD's own 64 s maximum lets the estimate reach 3 ticks.
#[test]
fn max_rto_caps_the_retransmission_timeout() {
    let capped = a3(" max_rto = \"0.5 s\",");
    assert!(
        capped.flows.iter().all(|f| f.rto_s == Some(0.4)),
        "{:?}",
        capped.flows.iter().map(|f| f.rto_s).collect::<Vec<_>>()
    );
    let default = a3("");
    assert!(default.flows.iter().any(|f| f.rto_s.unwrap() > 0.5));
}
