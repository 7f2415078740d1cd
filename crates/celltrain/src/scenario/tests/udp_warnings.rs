//! Constant-rate UDP sources whose run is not what it looks like: faster than their first hop,
//! or identical and in phase on an overloaded port. Each gets one warning naming the flows.

use super::super::compile_source;
use super::*;

fn warnings(name: &str, sets: &[(&str, &str)]) -> Vec<String> {
    let text = crate::builtin::find(name).expect("built in").text;
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let c = compile_source(Source::new("s.toml", text), &sets, None).unwrap_or_else(|e| panic!("{e}"));
    c.meta.warnings
}

#[test]
fn identical_sources_starting_together_on_a_shared_overloaded_port_are_named_once() {
    let w = warnings("A5-udp", &[("n_sources", "15")]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].starts_with("s.toml:") && w[0].contains("flow[1].app"), "{w:?}");
    assert!(w[0].contains("15 identical UDP sources (udp1, udp2, ..., udp15)"), "{w:?}");
    assert!(w[0].contains("sw1->sw2") && w[0].contains("start_jitter"), "{w:?}");
}

#[test]
fn sources_that_start_apart_or_fit_the_shared_port_are_not_in_phase() {
    assert!(warnings("A5-udp", &[("start_jitter", "\"1 ms\"")]).is_empty());
    // Ten sources of 10 Mbit/s fit the 149.76 Mbit/s link together.
    assert!(warnings("A5-udp", &[("udp_rate", "\"10 Mbit/s\"")]).is_empty());
    assert!(warnings("A1-udp", &[]).is_empty());
}

#[test]
fn a_udp_source_above_its_pcr_or_first_link_is_named() {
    let w = warnings("A4", &[("n_sources", "1"), ("udp_rate", "\"200 Mbit/s\"")]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("flow 'udp1' sends at 200 Mbit/s, above its first link's rate (149.76 Mbit/s)"), "{w:?}");
    let text = crate::builtin::find("A4").unwrap().text.replace("pcr = \"line\"", "pcr = \"50 Mbit/s\"");
    let sets = [("n_sources".to_string(), "1".to_string()), ("udp_rate".to_string(), "\"60 Mbit/s\"".to_string())];
    let c = compile_source(Source::new("s.toml", text), &sets, None).unwrap_or_else(|e| panic!("{e}"));
    assert!(c.meta.warnings.iter().any(|w| w.contains("above its VC's PCR (50 Mbit/s)")), "{:?}", c.meta.warnings);
    assert!(warnings("A4", &[("n_sources", "1"), ("udp_rate", "\"149.76 Mbit/s\"")]).is_empty());
}
