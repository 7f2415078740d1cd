//! ABR conformance end to end: a DGCRA at the first switch of MSc98's ABR scenarios, told of
//! every backward RM cell that leaves that switch towards the source.

use celltrain::builtin;
use celltrain::metrics::Summary;
use celltrain::network::Network;
use celltrain::scenario::{compile_source, Source};

mod common;
use common::{assert_the_reference_agrees, run_named as run};

/// Built-in `name` with ABR conformance (`keys` added to every flow's `vc` table).
fn policed(name: &str, keys: &str) -> String {
    let text = builtin::find(name).unwrap().text;
    let plain = r#"vc = { category = "${service}", pcr = "line" }"#;
    assert!(text.contains(plain), "{name}: the test's edit of the built-in applies");
    text.replace(plain, &format!(r#"vc = {{ category = "${{service}}", pcr = "line", conformance = "abr", {keys} }}"#))
}

/// Per policed VC: (name, cells that conformed, cells discarded, backward RM cells seen). The
/// discards after the warm-up are the VC's `cells_policed`.
fn dgcra_counts(net: &Network) -> Vec<(String, u64, u64, u64)> {
    net.vcs()
        .iter()
        .filter_map(|vc| {
            let c = *vc.policer.as_ref()?.dgcra()?.counters();
            // (The VC's counters start at the warm-up's end, the policer's at the start.)
            assert!(vc.stats.cells_policed <= c.discarded, "{}: more policed than discarded", vc.name);
            Some((vc.name.clone(), c.conforming, c.discarded, c.feedback))
        })
        .collect()
}

fn discarded(net: &Network) -> u64 {
    dgcra_counts(net).iter().map(|c| c.2).sum()
}

fn policed_after_warmup(s: &Summary) -> u64 {
    s.vcs.iter().map(|v| v.cells_policed).sum()
}

/// A3 over ABR: five TCP connections share the 149.76 Mbit/s trunk under ERICA+, each direction
/// an ABR VC policed by a DGCRA at its first switch (the acknowledgements' VC as the data's),
/// hosts 50 µs from their switch. A backward RM cell taken into sw1's port towards a source
/// reaches the source a cell time (2.83 µs) and 50 µs later; the source's next cell, spaced by
/// the new ACR, reaches sw1 a cell time and 50 µs after it leaves: the loop takes 105.7 µs,
/// plus the wait in that port (behind at most the acknowledgement cell on the wire).
/// - τ3 at its default (100 µs, twice the shortest link delay) and τ2 = 200 µs: every cell of
///   the TM 4.0 sources conforms, so nothing is discarded.
/// - τ2 = 20 µs: each decrease is enforced 86 µs before the source's cells can show it; the
///   cells sent at the old rate meanwhile are the excess, and are discarded.
/// - The loop's length is where the model says: τ2 = 110 µs (above 105.7 µs and a cell time)
///   discards nothing, τ2 = 100 µs (below it) does.
///
/// The reference mode agrees in each run.
#[test]
fn a_compliant_source_passes_and_an_early_decrease_discards() {
    let sets = [("service", "abr"), ("duration", "0.6 s"), ("warmup", "0.1 s")];
    let compliant = policed("A3", r#"tau2 = "200 us""#);
    let (net, s) = run("A3", &compliant, &sets);
    let counts = dgcra_counts(&net);
    assert_eq!(counts.len(), 10, "each data and acknowledgement VC is policed: {counts:?}");
    for (name, conforming, discarded, feedback) in &counts {
        assert_eq!(*discarded, 0, "{name}: a compliant source lost cells ({conforming} conformed)");
        assert!(*conforming > 1_000 && *feedback > 40, "{name}: {conforming} cells, {feedback} RM cells back");
    }
    assert_the_reference_agrees("A3", &compliant, &sets, &s);

    let early = policed("A3", r#"tau2 = "20 us", tau3 = "10 us""#);
    let (net, s) = run("A3", &early, &sets);
    // (Measured: 166 cells in all, 50 after the warm-up; each loss costs TCP a retransmission
    // or a timeout.)
    let lost = discarded(&net);
    assert!(lost > 50, "τ2 = 20 µs discarded only {lost} cells");
    assert!(policed_after_warmup(&s) > 0, "no discard counted as policed");
    assert_the_reference_agrees("A3", &early, &sets, &s);

    let bracket =
        |tau2: &str| discarded(&run("A3", &policed("A3", &format!(r#"tau2 = "{tau2}", tau3 = "100 us""#)), &sets).0);
    assert_eq!(bracket("110 us"), 0, "τ2 above the loop");
    assert!(bracket("100 us") > 0, "τ2 below the loop, yet nothing discarded");
}

/// A1 over ABR: one greedy UDP source, which climbs from its ICR (3 Mbit/s) by RIF·PCR on each
/// backward RM cell. With the defaults' τ3 (100 µs, under the 105.7 µs loop) every increase is
/// allowed before the source can use it: nothing is discarded, and the run is the unpoliced
/// one. With τ3 = 300 µs the policer allows each increase 194 µs after the source's cells show
/// it: cells at the new rate before then are discarded.
#[test]
fn an_increase_used_before_tau3_is_discarded() {
    let sets = [("service", "abr"), ("duration", "0.4 s"), ("warmup", "0 s")];
    let plain = builtin::find("A1-udp").unwrap().text;
    let (_, unpoliced) = run("A1-udp", plain, &sets);
    let compliant = policed("A1-udp", r#"tau2 = "200 us""#);
    let (net, s) = run("A1-udp", &compliant, &sets);
    assert_eq!(discarded(&net), 0);
    assert_eq!(s.aggregate.goodput_bps, unpoliced.aggregate.goodput_bps);
    assert_eq!(s.vcs, unpoliced.vcs, "the policer changed nothing");
    let late = policed("A1-udp", r#"tau2 = "400 us", tau3 = "300 us""#);
    let (net, s) = run("A1-udp", &late, &sets);
    let lost = discarded(&net);
    assert!(lost > 0 && policed_after_warmup(&s) == lost, "τ3 = 300 µs discarded {lost} cells");
    assert_the_reference_agrees("A1-udp", &late, &sets, &s);
}

/// Every fast path gives the reference's results with DGCRA-policed VCs: the built-ins over
/// ABR (hosts and edge routers as sources, one and several switches, UDP and TCP), each with a
/// τ2 that discards much, some or nothing; each fast path alone and all together against every
/// cell by events.
#[test]
fn every_fast_path_gives_the_reference_results() {
    use celltrain::network::SimOptions;
    let none = SimOptions::reference();
    let option_sets = [
        ("analytic", SimOptions { analytic_ports: true, ..none }),
        ("carry", SimOptions { carry_ahead: true, ..none }),
        ("analytic+runs", SimOptions { analytic_ports: true, run_admission: true, ..none }),
        ("analytic+abr", SimOptions { analytic_ports: true, abr_ahead: true, ..none }),
        ("all", SimOptions::default()),
    ];
    let mut discarding = 0;
    for (k, name) in ["A1-tcp", "A3", "A4", "A5-udp", "A7-udp", "A10-tcp", "A12-ubr", "A13"].into_iter().enumerate() {
        let tau2 = ["20 us", "200 us", "2 ms"][k % 3];
        let text = policed(name, &format!(r#"tau2 = "{tau2}", tau3 = "10 us""#));
        let sets: Vec<(String, String)> = [("service", "abr"), ("duration", "0.3 s"), ("warmup", "0.1 s")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let run_with = |options: SimOptions| {
            let c = compile_source(Source::new(name, text.clone()), &sets, None).unwrap();
            let mut net = c.network;
            net.set_options(options);
            net.run(&mut |_| {});
            let lost = discarded(&net);
            (Summary::from_network(&net, c.meta, 0.0), lost)
        };
        let (reference, lost) = run_with(none);
        assert!(reference.vcs.iter().any(|v| v.category == "abr"), "{name}: no ABR VC");
        discarding += usize::from(lost > 0);
        for (label, options) in option_sets {
            let (mut fast, fast_lost) = run_with(options);
            fast.events = reference.events;
            fast.trace_hash = reference.trace_hash.clone();
            assert_eq!(fast_lost, lost, "{name} (τ2 = {tau2}), {label}: discards");
            assert_eq!(fast, reference, "{name} (τ2 = {tau2}), {label}: differs from the reference");
        }
    }
    assert!(discarding >= 2, "only {discarding} runs discarded: the test would miss a wrong decision");
}
