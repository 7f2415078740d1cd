//! EPD's threshold checked against every pool of a port (issue: E1-mux with `discard = "epd"`
//! dropped every rt-VBR cell, CLR 1.000, while `check` said ok).

use super::super::compile_source;
use super::*;

fn e1_mux_with(switch_keys: &str) -> String {
    let text = crate::builtin::find("E1-mux").expect("E1-mux is built in").text;
    text.replace("discard = \"tail-drop\"", switch_keys)
}

fn compile_err(text: &str) -> String {
    match compile_source(Source::new("e1.toml", text), &[("duration".into(), "\"2 s\"".into())], None) {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_automatic_threshold_of_a_small_reserved_pool_is_refused_with_its_key() {
    let text = e1_mux_with("discard = \"epd\"");
    let e = compile_err(&text);
    let line = text.lines().position(|l| l.starts_with("reserved")).expect("a reserved line") + 1;
    assert!(e.starts_with(&format!("e1.toml:{line}:")), "{e}");
    assert!(e.contains("rt-vbr") && e.contains("below zero") && e.contains("48 cells"), "{e}");
    assert!(e.contains("\"80 %\""), "the error says how to mend it: {e}");
}

#[test]
fn a_cell_threshold_above_a_reserved_pool_is_refused() {
    let e = compile_err(&e1_mux_with("discard = \"epd\"\nepd_threshold = \"1000 cells\""));
    assert!(e.contains("rt-vbr") && e.contains("above the pool"), "{e}");
}

/// A share of each pool suits every pool; the rt-VBR on/off cells (no AAL5 frames) are one-cell
/// frames to EPD: some are accepted, and those refused are counted as EPD drops (20 sources overload the
/// rt-VBR pool).
#[test]
fn a_share_of_each_pool_applies_epd_to_cell_sources_cell_by_cell() {
    let text = e1_mux_with("discard = \"epd\"\nepd_threshold = \"50 %\"");
    let sets = [("duration".into(), "\"2 s\"".into()), ("n_rt".into(), "20".into())];
    let c = compile_source(Source::new("e1.toml", &text), &sets, None).unwrap_or_else(|e| panic!("{e}"));
    let mut net = c.network;
    net.run(&mut |_| {});
    let rt: Vec<_> = net.vcs().iter().filter(|v| v.category == celltrain_atm::ServiceCategory::RtVbr).collect();
    let sent: u64 = rt.iter().map(|v| v.stats.cells_sent).sum();
    let delivered: u64 = rt.iter().map(|v| v.stats.cells_delivered).sum();
    assert!(sent > 0 && delivered > sent / 2, "rt-VBR cells get through: {delivered} of {sent}");
    let port = net.ports().iter().find(|p| p.name == "mux->sink").expect("the mux port");
    let epd = port.queue.stats.dropped[celltrain_atm::drop_reason::DropReason::EarlyPacketDiscard as usize];
    assert!(epd > 0, "EPD refuses cells of the full rt-VBR pool one by one");
}

/// Selective Drop and FBA take EPD's threshold keys (checked per pool as EPD's) and their own
/// `fairness_z`; each key is refused, naming the policies it serves, with any other policy.
#[test]
fn fair_share_policies_take_the_threshold_keys_and_their_own() {
    let e = compile_err(&e1_mux_with("discard = \"fba\"\nepd_threshold = \"1000 cells\""));
    assert!(e.contains("rt-vbr") && e.contains("above the pool"), "{e}");
    let e = compile_err(&e1_mux_with("discard = \"selective-drop\"\nfairness_z = -1"));
    assert!(e.contains("fairness_z") && e.contains("positive"), "{e}");
    let e = compile_err(&e1_mux_with("discard = \"epd\"\nepd_threshold = \"50 %\"\nfairness_z = 0.8"));
    assert!(e.contains("fairness_z: only applies with discard = \"selective-drop\" or \"fba\""), "{e}");
    let e = compile_err(&e1_mux_with("discard = \"ppd\"\nepd_threshold = \"50 %\""));
    assert!(e.contains("epd_threshold: only applies with discard = \"epd\", \"selective-drop\" or \"fba\""), "{e}");
    let e = compile_err(&e1_mux_with("discard = \"fba\"\nepd_threshold = \"50 %\"\nepd_keep_eom = true"));
    assert!(e.contains("epd_keep_eom: only applies with discard = \"epd\""), "{e}");
    let ok = e1_mux_with("discard = \"selective-drop\"\nepd_threshold = \"50 %\"\nfairness_z = 0.9");
    compile_source(Source::new("e1.toml", &ok), &[("duration".into(), "\"2 s\"".into())], None)
        .unwrap_or_else(|e| panic!("{e}"));
}

/// Several reserved pools: each read, in order, and no entry left unread (the port reads the
/// table entry by entry); an unknown key beside them is named, not one of the pools.
#[test]
fn several_reserved_pools_are_read_and_an_unknown_key_beside_them_is_named() {
    let text = crate::builtin::find("E1-mux").expect("E1-mux is built in").text;
    let (_, rest) = text.split_once("reserved = ").expect("E1-mux reserves a pool");
    let (pools, _) = rest.split_once('\n').expect("a line");
    let two = text.replace(pools, "{ rt-vbr = \"48 cells\", cbr = \"100 cells\" }");
    let sets = [("duration".into(), "\"2 s\"".into())];
    let c = compile_source(Source::new("e1.toml", &two), &sets, None).unwrap_or_else(|e| panic!("{e}"));
    let port = c.network.ports().iter().find(|p| p.name == "mux->sink").expect("the mux port");
    let capacities: Vec<u32> = port.queue.pool_capacities().collect();
    assert_eq!(capacities[1..], [48, 100], "the shared pool, then the two reserved ones in order");
    let misspelt = two.replace("discard = \"tail-drop\"", "discard = \"tail-drop\"\nbufer = \"100 cells\"");
    let e = compile_err(&misspelt);
    assert!(e.contains("unknown key 'bufer'"), "{e}");
    // Two faults: the first in the order the port reads its keys is the one reported.
    let e = compile_err(&two.replace("discard = \"tail-drop\"", "discard = \"red\"\nclp1_threshold = 0.5"));
    assert!(e.contains("discard") && e.contains("unknown value"), "{e}");
    let e = compile_err(
        &two.replace("cbr = \"100 cells\"", "xbr = \"100 cells\"")
            .replace("discard = \"tail-drop\"", "efci_threshold = 0"),
    );
    assert!(e.contains("xbr") && e.contains("unknown service category"), "{e}");
}
