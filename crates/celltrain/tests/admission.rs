//! Connection admission control inside a network: a switch with `cac = {...}` admits VCs in
//! file order, reports the ones it refuses, and a large request yields the largest admissible
//! mix — the same edge `celltrain_atm::cac` computes for the port.

use celltrain::metrics::Summary;
use celltrain::scenario::{compile_source, Source};
use celltrain_atm::cac::{DelayPriority, EbMethod, LossCriterion, OnOff, Rule};

fn e1(cac: &str, n_rt: u32, n_nrt: u32) -> Summary {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/E1-mux.toml")).unwrap();
    let text = text.replace("queueing = \"fifo\"", &format!("queueing = \"fifo\"\n{cac}"));
    let overrides = [
        ("n_rt".to_string(), n_rt.to_string()),
        ("n_nrt".to_string(), n_nrt.to_string()),
        ("duration".to_string(), "0.2 s".to_string()),
        ("warmup".to_string(), "0.1 s".to_string()),
    ];
    let compiled = compile_source(Source::new("E1-mux.toml", text), &overrides, None).expect("compiles");
    let mut network = compiled.network;
    network.run(&mut |_| {});
    Summary::from_network(&network, compiled.meta, 0.0)
}

fn edge(rule: Rule, n_rt: u32) -> Option<u32> {
    let s = OnOff::from_periods(31.1e6, 0.020, 0.080);
    let port = DelayPriority {
        capacity_bps: 149.76e6,
        rt_buffer_bits: 48.0 * 424.0,
        nrt_buffer_bits: 4000.0 * 424.0,
        target: 1e-4,
        criterion: LossCriterion::FluidClr,
        eb: EbMethod::Fluid,
    };
    port.largest_nrt(rule, s, n_rt, s, 1000).unwrap()
}

#[test]
fn a_large_request_gives_the_largest_admissible_mix_and_reports_the_rest() {
    let s = e1("cac = { rule = \"combined\", target = 1e-4 }", 2, 12);
    let admitted_nrt = edge(Rule::Combined, 2).unwrap();
    assert!(admitted_nrt > 0 && admitted_nrt < 12);
    assert_eq!(s.flows.len() as u32, 2 + admitted_nrt);
    assert_eq!(s.refused_vcs.len() as u32, 12 - admitted_nrt);
    let first = &s.refused_vcs[0];
    assert_eq!(first.flow, format!("nrt{}", admitted_nrt + 1));
    assert_eq!(
        (first.port.as_str(), first.rule.as_str(), first.category.as_str()),
        ("mux->sink", "combined", "nrt-vbr")
    );
    assert!(s.refused_vcs.iter().all(|r| r.category == "nrt-vbr"));
    // Reported in the summary's JSON, not lost.
    let json = serde_json::to_string(&s).unwrap();
    assert!(json.contains("\"refused_vcs\"") && json.contains("\"port\":\"mux->sink\""));
}

#[test]
fn rt_vcs_are_refused_by_the_rt_boundary() {
    let s = e1("cac = { rule = \"rt\", target = 1e-4 }", 8, 0);
    // The RT boundary admits rt sources while their convolution stays within the target.
    let admitted = (0..=8).take_while(|&n| edge(Rule::RtBoundary, n).is_some()).last().unwrap();
    assert_eq!(s.flows.len() as u32, admitted);
    assert_eq!(s.refused_vcs.len() as u32, 8 - admitted);
    assert_eq!(s.refused_vcs[0].flow, format!("rt{}", admitted + 1));
}

#[test]
fn without_a_cac_nothing_is_refused_and_nothing_is_reported() {
    let s = e1("", 2, 12);
    assert_eq!(s.flows.len(), 14);
    assert!(s.refused_vcs.is_empty());
    assert!(!serde_json::to_string(&s).unwrap().contains("refused_vcs"));
}

#[test]
fn a_bad_cac_table_is_a_one_line_error_naming_the_key() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/E1-mux.toml")).unwrap();
    for (cac, key) in [
        ("cac = { rule = \"best\" }", "cac.rule"),
        ("cac = { rule = \"nrt\", target = 2.0 }", "cac.target"),
        ("cac = { rule = \"nrt\", criterion = \"median\" }", "cac.criterion"),
        ("cac = { rule = \"nrt\", colour = \"red\" }", "cac.colour"),
    ] {
        let text = text.replace("queueing = \"fifo\"", &format!("queueing = \"fifo\"\n{cac}"));
        let e = compile_source(Source::new("E1-mux.toml", text), &[], None).err().expect("an error");
        let line = e.to_string();
        assert_eq!(line.lines().count(), 1, "{line}");
        assert!(line.contains(key), "{cac}: {line}");
    }
}
