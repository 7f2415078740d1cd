//! ABR end to end: the baseline goodput with RM cells, the RM-cell identities, and ERICA+'s
//! convergence to the max-min fair shares on MSc98's multiple-node configuration 1.

use celltrain::builtin;
use celltrain::metrics::Summary;

mod common;
use common::{assert_the_reference_agrees, run_named as run};

/// MSc98, Table 5.1: one greedy UDP source over ABR delivers 9140/10176 × 31/32 of
/// 149.76 Mbit/s = 130.306 Mbit/s.
#[test]
fn one_udp_source_over_abr_reaches_the_theoretical_goodput() {
    let text = builtin::find("A1-udp").unwrap().text;
    let (_, s) = run("A1-udp", text, &[("service", "abr"), ("duration", "1 s"), ("warmup", "0.3 s")]);
    let max = s.aggregate.max_goodput_bps.unwrap();
    assert!((max - 130.306e6).abs() < 0.01e6, "maximum {max}");
    let g = s.aggregate.goodput_bps;
    assert!((g - 130.306e6).abs() < 0.005 * 130.306e6, "goodput {g}");
    assert!(g <= max, "goodput {g} above the maximum {max}");
}

/// The ideal backward path (`backward_rm = "ideal"`): turned-around RM cells go back at once
/// instead of waiting for the destination's in-rate opportunities, so the source's feedback
/// is never held back by the paired VC's ACR, and the other end, sending nothing in rate, sends
/// no forward RM cells of its own whose turn-arounds would take the data VC's in-rate slots.
/// Every forward RM cell goes straight back, and the goodput is at least the in-rate path's.
#[test]
fn the_ideal_backward_path_sends_turned_around_cells_at_once() {
    let text = builtin::find("A1-udp").unwrap().text;
    let sets = [("service", "abr"), ("duration", "1 s"), ("warmup", "0.3 s")];
    let (in_rate_net, in_rate) = run("A1-udp", text, &sets);
    let ideal_text = text.replace("[abr]\n", "[abr]\nbackward_rm = \"ideal\"\n");
    assert!(ideal_text.contains("backward_rm"), "the test's edit of the built-in applies");
    let (net, ideal) = run("A1-udp", &ideal_text, &sets);
    let ends = &net.abr().ends;
    for e in ends {
        let t = &e.turnaround.counts;
        assert_eq!(e.source.counts.brm_sent, t.frm_received, "every forward RM cell went straight back");
        assert!(!e.turnaround.is_waiting());
    }
    // The data's source: its feedback (the other end, with no data, sends forward RM cells only
    // in rate, among the turned-around cells it sends in rate).
    let fed = |net: &celltrain::network::Network| {
        let e = net.abr().ends.iter().find(|e| e.source.counts.data_sent > 0).expect("the UDP source");
        (e.source.counts.brm_received, e.source.counts.frm_sent)
    };
    let ((received, sent), (received_in_rate, sent_in_rate)) = (fed(&net), fed(&in_rate_net));
    assert!(
        received >= received_in_rate && sent == sent_in_rate,
        "ideal: {received} of {sent} back, in rate {received_in_rate} of {sent_in_rate}"
    );
    let (g, g_in_rate) = (ideal.aggregate.goodput_bps, in_rate.aggregate.goodput_bps);
    // (Measured: 130.154 Mbit/s against 130.049 in rate; MSc98's bound is 130.306, the rest
    // of the gap is the RM cells' rate format, which truncates ACR.)
    assert!(g >= g_in_rate && g <= ideal.aggregate.max_goodput_bps.unwrap(), "ideal {g}, in rate {g_in_rate}");
    assert_the_reference_agrees("A1-udp", &ideal_text, &sets, &ideal);
    // TCP over ABR: both ends send data, so both pace cells ahead where they may; a cell
    // turned around on the ideal path must find no cell sent ahead of it.
    let a3 = builtin::find("A3").unwrap().text.replace("[abr]\n", "[abr]\nbackward_rm = \"ideal\"\n");
    assert!(a3.contains("backward_rm"), "the test's edit of A3 applies");
    let sets = [("service", "abr"), ("duration", "0.4 s"), ("warmup", "0.1 s")];
    let (_, s) = run("A3", &a3, &sets);
    assert_the_reference_agrees("A3", &a3, &sets, &s);
}

/// Every RM cell a source sends is turned around (forward) or received (backward), lost, or
/// still in flight; and each ABR VC's cells obey the conservation of cells.
#[test]
fn rm_cells_are_accounted_for() {
    for (name, sets) in [
        ("A3", vec![("service", "abr"), ("duration", "1 s"), ("warmup", "0.3 s")]),
        // A small switch buffer: RM cells are lost too.
        (
            "A4",
            vec![
                ("service", "abr"),
                ("duration", "0.3 s"),
                ("warmup", "0.1 s"),
                ("buffer", "300 cells"),
                ("discard", "tail-drop"),
            ],
        ),
        // Greedy UDP into routers that are virtual sources: their buffers refuse frames' tails.
        ("A10-udp", vec![("service", "abr"), ("duration", "0.3 s"), ("warmup", "0.1 s")]),
    ] {
        let (net, _) = run(name, builtin::find(name).unwrap().text, &sets);
        let abr = net.abr();
        assert!(!abr.ends.is_empty());
        let sent: u64 = abr
            .ends
            .iter()
            .map(|e| e.source.counts.frm_sent + e.source.counts.out_of_rate_frm_sent + e.source.counts.brm_sent)
            .sum();
        let arrived: u64 =
            abr.ends.iter().map(|e| e.turnaround.counts.frm_received + e.source.counts.brm_received).sum();
        assert!(sent > 1000, "{name}: only {sent} RM cells");
        assert_eq!(
            sent,
            arrived + abr.rm_cells_lost + net.rm_cells_in_flight() as u64,
            "{name}: RM cells unaccounted for"
        );
        // A backward RM cell is the turn-around of a forward one (newer ones overwrite older).
        for e in &abr.ends {
            let t = &e.turnaround.counts;
            let waiting = u64::from(e.turnaround.is_waiting());
            assert_eq!(e.source.counts.brm_sent + t.overwritten + waiting, t.frm_received, "{name}: turn-arounds");
            // Feedback comes only from the peer's turn-arounds.
            assert!(e.source.counts.brm_received <= abr.ends[e.peer as usize].source.counts.brm_sent);
        }
        if name == "A10-udp" {
            let refused: u64 = abr.ends.iter().map(|e| e.counts.cells_refused).sum();
            assert!(refused > 1000, "{name}: only {refused} cells refused at the end systems");
        }
        let in_flight = net.vc_cells_in_flight();
        for (vc, cells) in net.vcs().iter().zip(in_flight) {
            let s = &vc.stats;
            assert_eq!(
                s.cells_sent + s.cells_in_flight_at_start,
                s.cells_delivered + s.cells_dropped + cells,
                "{name} {}",
                vc.name
            );
        }
    }
}

/// Max-min fair shares by water-filling: `links` lists each link's capacity and the flows on
/// it; every flow is greedy.
fn water_filling(flows: usize, links: &[(f64, Vec<usize>)]) -> Vec<f64> {
    let mut share = vec![f64::NAN; flows];
    let mut fixed = vec![false; flows];
    loop {
        // The most constraining link: the least equal share of what its free flows may use.
        let best = links
            .iter()
            .filter_map(|(cap, on)| {
                let free: Vec<usize> = on.iter().copied().filter(|&f| !fixed[f]).collect();
                if free.is_empty() {
                    return None;
                }
                let used: f64 = on.iter().filter(|&&f| fixed[f]).map(|&f| share[f]).sum();
                Some(((cap - used) / free.len() as f64, free))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0));
        let Some((level, free)) = best else { return share };
        for f in free {
            share[f] = level;
            fixed[f] = true;
        }
    }
}

#[test]
fn water_filling_is_max_min() {
    let s = water_filling(3, &[(10.0, vec![0, 1]), (4.0, vec![1, 2])]);
    assert_eq!(s, vec![8.0, 2.0, 2.0]);
}

/// Multiple-node configuration 1 with the middle link at 100 Mbit/s: VCs 1 and 2 are held to a
/// quarter of it there, and the local VCs of the outer links share what they leave. ERICA+'s
/// per-VC goodputs after 200 ms must be the max-min fair shares within 5 %.
#[test]
fn erica_converges_to_max_min_fair_shares() {
    let text = builtin::find("A7-udp").unwrap().text.replace(
        r#"count = "${n_links}"
between = ["s{i0}", "s{i}"]
rate = "${link_rate}""#,
        r#"between = [["s0", "s1"], ["s2", "s3"]]
rate = "${link_rate}"
delay = "${hop_delay}"

[[link]]
between = ["s1", "s2"]
rate = "100 Mbit/s""#,
    );
    assert!(text.contains("100 Mbit/s"), "the test's edit of the built-in applies");
    let (_, s) = run("A7-udp", &text, &[("service", "abr"), ("duration", "0.6 s"), ("warmup", "0.2 s")]);
    let goodput = |rate: f64| rate * 9140.0 / 10176.0 * 31.0 / 32.0;
    let names = ["vc1", "vc2", "local1a", "local1b", "local2a", "local2b", "local3a", "local3b"];
    let links = [
        (goodput(149.76e6), vec![0, 1, 2, 3]),
        (goodput(100e6), vec![0, 1, 4, 5]),
        (goodput(149.76e6), vec![0, 1, 6, 7]),
    ];
    let fair = water_filling(names.len(), &links);
    assert!((fair[0] - goodput(100e6) / 4.0).abs() < 1.0 && fair[2] > 1.9 * fair[0], "{fair:?}");
    for (name, want) in names.iter().zip(&fair) {
        let got = s.flows.iter().find(|f| f.name == *name).unwrap().goodput_bps;
        assert!((got - want).abs() <= 0.05 * want, "{name}: {:.3} Mbit/s, max-min share {:.3}", got / 1e6, want / 1e6);
    }
}

/// Binary feedback (CI above 1000 cells until the queue falls to 500, NI above 300) holds five
/// greedy UDP sources to the link without loss: the queue stays within a few hundred cells of
/// the high threshold, and the sources share the link fairly. With no feedback at all (every
/// RM cell left alone) each source's ACR grows by RIF·PCR per RM cell up to the PCR, so the
/// switch overflows.
#[test]
fn binary_marking_bounds_the_queue() {
    let text = builtin::find("A4").unwrap().text;
    let binary = text
        .replace("explicit_rate = \"erica+\"", "explicit_rate = \"binary\"\nbinary_thresholds = [\"1000 cells\", \"500 cells\"]\nni_threshold = \"300 cells\"")
        .replace("target_queue = \"2880 cells\"\n", "");
    assert!(binary.contains("binary_thresholds"), "the test's edit of the built-in applies");
    let sets = [("service", "abr"), ("duration", "0.6 s"), ("warmup", "0.2 s")];
    let (_, s) = run("A4", &binary, &sets);
    let trunk = s.ports.iter().find(|p| p.name == "sw1->sw2").unwrap();
    assert_eq!(trunk.dropped_total, 0);
    assert!(trunk.max_queue_cells < 2500, "binary feedback let the queue reach {} cells", trunk.max_queue_cells);
    assert!(s.aggregate.fairness_index.unwrap() > 0.99);
    assert!(s.aggregate.efficiency.unwrap() > 0.97);
    // Without any switch feedback, ACR climbs to the PCR and the switch overflows.
    let none = text
        .replace("explicit_rate = \"erica+\"", "explicit_rate = \"none\"")
        .replace("target_queue = \"2880 cells\"\n", "");
    let (_, s) = run("A4", &none, &sets);
    let trunk = s.ports.iter().find(|p| p.name == "sw1->sw2").unwrap();
    assert!(trunk.dropped_total > 0, "no feedback, yet no loss");
}

/// EFCI switches (TM 4.0): the trunk marks data cells once it holds 1000 cells, the destinations
/// turn the mark into CI on their backward RM cells, and the sources cut their rates. The mark
/// reaches the sources only after it has crossed the queue it reports on, so with greedy sources
/// and RIF = RDF = 1/16 the queue still overflows (the weakness of EFCI that explicit rates were
/// made for): it loses a fifth less than with no feedback at all. The marking port runs by events;
/// the reference mode gives the same run.
#[test]
fn efci_marking_cuts_the_loss() {
    let text = builtin::find("A4").unwrap().text;
    let with = |switch_keys: &str| {
        text.replace("explicit_rate = \"erica+\"", &format!("explicit_rate = \"none\"{switch_keys}"))
            .replace("target_queue = \"2880 cells\"\n", "")
    };
    let efci = with("\nefci_threshold = \"1000 cells\"");
    assert!(efci.contains("efci_threshold"), "the test's edit of the built-in applies");
    let sets = [("service", "abr"), ("duration", "0.6 s"), ("warmup", "0.2 s")];
    let trunk_drops = |s: &Summary| s.ports.iter().find(|p| p.name == "sw1->sw2").unwrap().dropped_total;
    let (net, s) = run("A4", &efci, &sets);
    let relayed: u64 = net.abr().ends.iter().map(|e| e.turnaround.counts.ci_relayed).sum();
    assert!(relayed > 0, "no destination relayed an EFCI mark");
    let (_, none) = run("A4", &with(""), &sets);
    // (Measured: 450 900 cells against 563 927; the binary switch above, which marks the
    // backward RM cells at the switch and stops increases from 300 cells, loses none.)
    let (lost, unchecked) = (trunk_drops(&s), trunk_drops(&none));
    assert!(lost > 0 && lost < unchecked * 9 / 10, "EFCI lost {lost} cells, no feedback {unchecked}");
    assert_the_reference_agrees("A4", &efci, &sets, &s);
}

/// TM 4.0's out-of-rate forward RM cells are reached in a run: a switch that grants ABR almost
/// nothing (ERICA steering to 0.001 % of the trunk, 3.5 cells/s) drives the source's ACR below
/// its TCR (10 cells/s), and the source then probes with out-of-rate RM cells, one per 1/TCR =
/// 100 ms at most, beside its in-rate ones.
#[test]
fn a_starved_abr_source_sends_out_of_rate_rm_cells_at_tcr() {
    let text = builtin::find("A1-udp")
        .unwrap()
        .text
        .replace("explicit_rate = \"erica+\"", "explicit_rate = \"erica\"\ntarget_utilization = 0.00001")
        .replace("target_queue = \"2880 cells\"\n", "");
    assert!(text.contains("0.00001"), "the test's edit of the built-in applies");
    let (net, _) = run("A1-udp", &text, &[("service", "abr"), ("duration", "2 s"), ("warmup", "0 s")]);
    let abr = net.abr();
    let source = &abr.ends.iter().find(|e| e.source.counts.data_sent > 0).expect("the ABR source").source;
    let out_of_rate = source.counts.out_of_rate_frm_sent;
    assert!(source.acr() < 10.0, "ACR {} cells/s is not below TCR", source.acr());
    assert!(out_of_rate > 0, "the starved source sent no out-of-rate RM cell: {:?}", source.counts);
    // (Measured: 20, with ACR at 3.5 cells/s; at most one per 100 ms, both ends of the run.)
    assert!((15..=21).contains(&out_of_rate), "{out_of_rate} out-of-rate RM cells in 2 s at TCR = 10 cells/s");
}

/// A3's network over ABR with, between `src1` and `dst1`, a second TCP flow, and between every
/// pair of hosts a UDP flow back from `dst{i}` to `src{i}` on an ABR VC of its own.
fn a3_with_more_flows_between_the_same_hosts() -> String {
    let a3 = builtin::find("A3").unwrap().text;
    let tcp = a3.split("[[flow]]").nth(1).and_then(|f| f.split("\n[").next()).expect("A3's flow");
    let second = tcp.replace("name = \"tcp{i}\"\ncount = \"${n_sources}\"", "name = \"more1\"").replace("{i}", "1");
    assert!(second.contains("name = \"more1\"") && !second.contains("count"), "the test's edit of A3's flow applies");
    format!(
        "{a3}\n[[flow]]{second}\n[[flow]]\nname = \"back{{i}}\"\ncount = \"${{n_sources}}\"\n\
         path = [\"dst{{i}}\", \"sw2\", \"sw1\", \"src{{i}}\"]\n\
         vc = {{ category = \"${{service}}\", pcr = \"2 Mbit/s\" }}\n\
         app = {{ kind = \"udp\", datagram = \"200 B\", rate = \"500 kbit/s\" }}\n"
    )
}

/// Each end system's VC and its peer's, by name, in the end systems' order.
fn pairs_by_name(net: &celltrain::Network) -> Vec<(String, String)> {
    let abr = net.abr();
    let name = |e: &celltrain::network::AbrEnd| net.vcs()[e.vc.index()].name.clone();
    abr.ends.iter().map(|e| (name(e), name(&abr.ends[e.peer as usize]))).collect()
}

/// Each ABR VC's RM cells come back on its own other direction: a TCP flow's on its
/// acknowledgements' VC, a one-way flow's on a VC added for them. Another flow between the same
/// hosts, either way, changes nothing of that (a VC's reverse is not found by its path).
#[test]
fn each_abr_vc_hears_back_on_its_own_other_direction() {
    let text = a3_with_more_flows_between_the_same_hosts();
    let sets = [("service", "abr"), ("n_sources", "2"), ("duration", "0.4 s"), ("warmup", "0.1 s")];
    let (net, s) = run("A3", &text, &sets);
    let abr = net.abr();
    let name = |e: &celltrain::network::AbrEnd| net.vcs()[e.vc.index()].name.clone();
    let mut peers = std::collections::BTreeMap::new();
    for (i, e) in abr.ends.iter().enumerate() {
        let peer = &abr.ends[e.peer as usize];
        assert_eq!(peer.peer as usize, i, "{}: pairs are mutual", name(e));
        peers.insert(name(e), name(peer));
        // Its forward RM cells are turned around by its peer alone, and come back.
        let c = &e.source.counts;
        assert!(
            c.frm_sent >= 3 && c.brm_received > 0,
            "{}: {} forward RM cells, {} back",
            name(e),
            c.frm_sent,
            c.brm_received
        );
        assert!(c.brm_received <= peer.source.counts.brm_sent, "{}", name(e));
        let t = &e.turnaround.counts;
        let waiting = u64::from(e.turnaround.is_waiting());
        assert_eq!(e.source.counts.brm_sent + t.overwritten + waiting, t.frm_received, "{}: turn-arounds", name(e));
    }
    let expected: Vec<(String, String)> = [
        ("tcp1", "tcp1-ack"),
        ("tcp2", "tcp2-ack"),
        ("more1", "more1-ack"),
        ("back1", "back1-rm"),
        ("back2", "back2-rm"),
    ]
    .iter()
    .flat_map(|&(a, b)| [(a.to_string(), b.to_string()), (b.to_string(), a.to_string())])
    .collect();
    assert_eq!(peers, expected.into_iter().collect(), "the pairs");
    assert_the_reference_agrees("A3", &text, &sets, &s);
}

/// A VC that would be the other direction of two VCs is refused, by name: the acknowledgements
/// of a TCP flow on VC "x" share "x-ack" with a TCP flow the other way, whose own
/// acknowledgements take "x-ack-ack".
#[test]
fn a_vc_that_would_carry_two_vcs_rm_cells_back_is_refused() {
    let a3 = builtin::find("A3").unwrap().text;
    let flows = "\n[[flow]]\nname = \"p\"\npath = [\"src1\", \"sw1\", \"sw2\", \"dst1\"]\n\
        vc = { category = \"abr\", pcr = \"line\", name = \"x\" }\napp = { kind = \"tcp\" }\n\
        [[flow]]\nname = \"q\"\npath = [\"dst1\", \"sw2\", \"sw1\", \"src1\"]\n\
        vc = { category = \"abr\", pcr = \"line\", name = \"x-ack\" }\napp = { kind = \"tcp\" }\n";
    let sets: Vec<(String, String)> = vec![("service".into(), "abr".into())];
    let e = celltrain::scenario::compile_source(
        celltrain::scenario::Source::new("case.toml", format!("{a3}{flows}")),
        &sets,
        Some(1),
    )
    .err()
    .expect("refused");
    let message = e.to_string();
    assert!(message.contains("'x-ack'") && message.contains("RM cells of both"), "{message}");
}

/// The VC between two routers, shared by every flow between them, and the one between them the
/// other way are one VC's two directions, even when only one-way flows cross them.
#[test]
fn vcs_between_two_routers_are_each_others_other_direction() {
    let a10 = builtin::find("A10-udp").unwrap().text;
    let text = format!(
        "{a10}\n[[flow]]\nname = \"back{{i}}\"\ncount = \"${{n_sources}}\"\n\
         path = [\"hd{{i}}\", \"rd{{i}}\", \"sw2\", \"sw1\", \"r{{i}}\", \"h{{i}}\"]\n\
         vc = {{ category = \"${{service}}\", pcr = \"line\" }}\n\
         app = {{ kind = \"udp\", datagram = \"200 B\", rate = \"500 kbit/s\" }}\n"
    );
    let sets = [("service", "abr"), ("n_sources", "2"), ("duration", "0.2 s"), ("warmup", "0.05 s")];
    let (net, s) = run("A10-udp", &text, &sets);
    let pairs = pairs_by_name(&net);
    assert_eq!(pairs.len(), 4, "{pairs:?}");
    for (v, w) in &pairs {
        let (a, b) = v.split_once("->").expect("VCs between routers");
        assert_eq!(w, &format!("{b}->{a}"), "{pairs:?}");
    }
    assert_the_reference_agrees("A10-udp", &text, &sets, &s);
}

/// A one-way flow named the reverse of another (`reverse_of`) rides the other direction of its
/// VC: the two are a pair, each carrying the other's RM cells back among its data, and no VC is
/// added for RM cells.
#[test]
fn a_flow_back_on_the_reverse_of_another_pairs_with_it() {
    let a5 = builtin::find("A5-udp").unwrap().text;
    let text = format!(
        "{a5}\n[[flow]]\nname = \"back{{i}}\"\ncount = \"${{n_sources}}\"\n\
         path = [\"dst{{i}}\", \"sw2\", \"sw1\", \"src{{i}}\"]\n\
         vc = {{ category = \"${{service}}\", pcr = \"2 Mbit/s\", reverse_of = \"udp{{i}}\" }}\n\
         app = {{ kind = \"udp\", datagram = \"200 B\", rate = \"500 kbit/s\" }}\n"
    );
    let sets = [("service", "abr"), ("n_sources", "2"), ("duration", "0.3 s"), ("warmup", "0.1 s")];
    let (net, s) = run("A5-udp", &text, &sets);
    let pairs = pairs_by_name(&net);
    let expected: Vec<(String, String)> = ["udp1", "udp2", "back1", "back2"]
        .iter()
        .map(|v| {
            let w = v.strip_prefix("udp").map_or_else(|| v.replace("back", "udp"), |i| format!("back{i}"));
            (v.to_string(), w)
        })
        .collect();
    assert_eq!(pairs, expected);
    for (e, (name, _)) in net.abr().ends.iter().zip(&pairs) {
        let c = &e.source.counts;
        assert!(c.data_sent > 0 && c.brm_sent > 0 && c.brm_received > 0, "{name}: {c:?}");
    }
    assert_the_reference_agrees("A5-udp", &text, &sets, &s);
    // UBR has no pairs: the key changes nothing there.
    let (net, _) =
        run("A5-udp", &text, &[("service", "ubr"), ("n_sources", "2"), ("duration", "0.1 s"), ("warmup", "0 s")]);
    assert!(net.abr().ends.is_empty());
}
