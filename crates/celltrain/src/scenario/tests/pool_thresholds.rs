//! Pool thresholds (CLP = 1, GFR's low and high, frame-level RED's) against reserved pools: a
//! reserved pool no larger than a threshold gets a warning naming its file, line and key.

use super::super::compile_source;
use super::*;

fn e1_mux_with(switch_keys: &str) -> String {
    let text = crate::builtin::find("E1-mux").expect("E1-mux is built in").text;
    text.replace("discard = \"tail-drop\"", switch_keys)
}

fn warnings(text: &str) -> Vec<String> {
    let sets = [("duration".into(), "\"2 s\"".into())];
    let c = compile_source(Source::new("e1.toml", text), &sets, None).unwrap_or_else(|e| panic!("{e}"));
    c.meta.warnings
}

#[test]
fn a_clp1_threshold_above_a_reserved_pool_is_named_with_its_line() {
    let text = e1_mux_with("discard = \"tail-drop\"\nclp1_threshold = \"3000 cells\"");
    let w = warnings(&text);
    let line = text.lines().position(|l| l.starts_with("reserved")).expect("a reserved line") + 1;
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].starts_with(&format!("e1.toml:{line}:")), "{w:?}");
    assert!(
        w[0].contains("rt-vbr") && w[0].contains("48 cells") && w[0].contains("clp1_threshold = 3000 cells"),
        "{w:?}"
    );
}

#[test]
fn a_threshold_that_fits_every_pool_or_belongs_to_another_design_gives_no_warning() {
    assert!(warnings(&e1_mux_with("discard = \"tail-drop\"\nclp1_threshold = \"40 cells\"")).is_empty());
    // The simple switch's thresholds kept in the file for another design: not used by
    // frame-level RED, whose own thresholds fit the 48-cell pool.
    let red = "discard = \"frame-red\"\nlow_threshold = \"2000 cells\"\nred_min_th = \"10 cells\"\n\
               red_max_th = \"40 cells\"\nred_max_p = 0.1\nvc_low_threshold = \"100 cells\"\nvc_high_threshold = \"200 cells\"";
    assert!(warnings(&e1_mux_with(red)).is_empty());
    assert!(warnings(&e1_mux_with("discard = \"tail-drop\"")).is_empty());
}

#[test]
fn gfr_thresholds_are_checked_under_their_design() {
    let w = warnings(&e1_mux_with(
        "discard = \"gfr-fifo\"\nlow_threshold = \"2000 cells\"\nhigh_threshold = \"3000 cells\"",
    ));
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w.iter().any(|m| m.contains("low_threshold")) && w.iter().any(|m| m.contains("high_threshold")));
}

/// Each design names its own pool thresholds (`AcceptancePolicy::POOL_THRESHOLDS`): the per-VC
/// threshold switch's are the simple switch's, frame-level RED's are its own.
#[test]
fn each_design_warns_of_its_own_thresholds() {
    let per_vc = "discard = \"per-vc-threshold\"\nlow_threshold = \"2000 cells\"\nhigh_threshold = \"3000 cells\"\n\
                  vc_threshold = \"100 cells\"";
    let w = warnings(&e1_mux_with(per_vc));
    assert!(w.len() == 2 && w[0].contains("low_threshold") && w[1].contains("high_threshold"), "{w:?}");
    let red = "discard = \"frame-red\"\nred_min_th = \"100 cells\"\nred_max_th = \"400 cells\"\nred_max_p = 0.1\n\
               vc_low_threshold = \"100 cells\"\nvc_high_threshold = \"200 cells\"\nclp1_threshold = \"50 cells\"";
    let w = warnings(&e1_mux_with(red));
    assert_eq!(w.len(), 3, "{w:?}");
    for (m, key) in w.iter().zip(["clp1_threshold", "red_min_th", "red_max_th"]) {
        assert!(m.contains(&format!("{key} = ")), "{key}: {m}");
    }
}
