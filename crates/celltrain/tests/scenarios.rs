//! Every built-in scenario, run short: invariants, golden results, determinism.
//!
//! Golden files in `tests/golden/` hold the numbers a short run must reproduce exactly; after
//! a deliberate change of behaviour, regenerate them with `CELLTRAIN_BLESS=1 cargo test` and
//! explain the change in the commit.

use celltrain::builtin;
use celltrain::metrics::Summary;
use celltrain::scenario::compile;
use std::path::Path;

fn run(name: &str, sets: &[(&str, &str)], seed: Option<u64>) -> Summary {
    summarize(compile(name, &overrides(sets), seed).unwrap_or_else(|e| panic!("{name}: {e}")))
}

/// Runs a scenario given as text (a test's own, or a built-in edited).
fn run_text(file: &str, text: String, sets: &[(&str, &str)], seed: Option<u64>) -> Summary {
    use celltrain::scenario::{compile_source, Source};
    summarize(compile_source(Source::new(file, text), &overrides(sets), seed).unwrap_or_else(|e| panic!("{file}: {e}")))
}

fn overrides(sets: &[(&str, &str)]) -> Vec<(String, String)> {
    sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// Runs a compiled scenario to its end: its summary, whose identities hold.
fn summarize(c: celltrain::scenario::Compiled) -> Summary {
    let mut net = c.network;
    net.run(&mut |_| {});
    let s = Summary::from_network(&net, c.meta, 0.0);
    assert_invariants(&s);
    s
}

/// Short versions of the built-ins, so the whole table runs in seconds.
fn short(name: &str) -> Vec<(&'static str, &'static str)> {
    match name {
        "E1-mux" => vec![("duration", "3 s"), ("warmup", "0.5 s"), ("n_rt", "8"), ("n_nrt", "8")],
        "A1-tcp" | "A2-ubr" | "A3" | "A5-tcp" | "A6" | "A7-tcp" | "A9" | "A10-tcp" | "A12-ubr" | "A13" => {
            vec![("duration", "1.5 s"), ("warmup", "0.5 s")]
        }
        "E2" | "E3" | "E4" => vec![("duration", "4 s"), ("warmup", "1 s")],
        "T1" => vec![("duration", "2 s")],
        "G1" | "G2" => vec![("duration", "2 s")],
        "G3" | "G4" => vec![("duration", "1 s"), ("hosts_per_lan", "3")],
        "V1" | "V2" | "V3" | "V4" | "V5" | "V6" | "V7" => vec![("duration", "30 s")],
        "L1" | "L1-atm" => vec![("transfer", "1 MB"), ("duration", "5 s")],
        _ => vec![("duration", "0.5 s"), ("warmup", "0.1 s")],
    }
}

fn assert_invariants(s: &Summary) {
    for p in &s.ports {
        assert_eq!(
            p.cells_in + p.queued_at_start,
            p.cells_out + p.dropped_total + p.queued_at_end,
            "{}: port {} identity",
            s.scenario,
            p.name
        );
        assert_eq!(p.dropped.values().sum::<u64>(), p.dropped_total);
        // A cell that starts exactly on the window's closing boundary may count: one cell over.
        assert!(p.utilization <= 1.0 + 1e-5, "{}: port {} utilisation {}", s.scenario, p.name, p.utilization);
        assert!(p.max_queue_cells as f64 + 1e-9 >= p.mean_queue_cells);
        if let (Some(i), Some(o), Some(d), Some(a), Some(e)) =
            (p.packets_in, p.packets_out, p.packets_dropped, p.packets_queued_at_start, p.packets_queued_at_end)
        {
            assert_eq!(i + a, o + d + e, "{}: packet port {} identity", s.scenario, p.name);
        }
    }
    for v in &s.vcs {
        // Every cell sent is delivered, dropped, or still in a buffer or on a link.
        assert_eq!(
            v.cells_sent + v.cells_in_flight_at_start,
            v.cells_delivered + v.cells_dropped + v.cells_in_flight_at_end,
            "{}: vc {} cell identity",
            s.scenario,
            v.name
        );
        assert!((0.0..=1.0).contains(&v.clr) && (0.0..=1.0).contains(&v.flr));
    }
    if let Some(f) = s.aggregate.fairness_index {
        assert!((0.0..=1.0 + 1e-12).contains(&f));
    }
}

#[test]
fn every_builtin_runs_and_keeps_its_identities() {
    for b in builtin::all() {
        let s = run(b.name, &short(b.name), None);
        assert_eq!(s.scenario, b.name);
        assert!(s.events > 0, "{}: nothing happened", b.name);
        assert_invariants(&s);
    }
}

#[test]
fn a1_udp_reaches_the_theoretical_goodput_of_msc98() {
    // Table 5.1: UDP over UBR, 134.513 Mbit/s, within 0.1 %.
    let s = run("A1-udp", &[], None);
    let g = s.aggregate.goodput_bps;
    assert!((g / 134.513e6 - 1.0).abs() < 1e-3, "goodput {g}");
    assert!((s.aggregate.max_goodput_bps.unwrap() / 1e6 - 134.5132).abs() < 1e-4);
    assert_eq!(s.vcs[0].cells_dropped, 0);
}

#[test]
fn a1_tcp_fills_the_pipe_with_a_20_segment_window() {
    // Table 5.1: theoretical 134.513 Mbit/s; the window covers the 10 ms RTT, so one Reno
    // connection reaches it within 1 %.
    let s = run("A1-tcp", &[], None);
    let g = s.aggregate.goodput_bps;
    assert!((g / 134.513e6 - 1.0).abs() < 1e-2, "goodput {g}");
    assert_eq!(s.flows[0].segments_retransmitted, Some(0));
}

/// A finite transfer through a bottleneck too small for the windows: losses, timeouts and
/// retransmissions, yet every connection delivers exactly the bytes its application wrote.
#[test]
fn tcp_delivers_exactly_what_was_written_despite_losses() {
    for variant in
        ["tahoe", "reno", "newreno", "sack", "lite", "lite-afr", "vegas-rm", "vegas-rm-afr", "vegas", "vegas-afr"]
    {
        // Every transfer bounded: 3 MB per connection.
        let text = celltrain::builtin::find("A5-tcp")
            .unwrap()
            .text
            .replace("app = { kind = \"tcp\",", "app = { kind = \"tcp\", bytes = \"3 MB\",");
        let c = celltrain::scenario::compile_source(
            celltrain::scenario::Source::new("A5-tcp-3MB.toml", text),
            &[
                ("n_sources".into(), "4".into()),
                ("buffer".into(), "600 cells".into()),
                ("discard".into(), "tail-drop".into()),
                ("variant".into(), variant.into()),
                ("duration".into(), "30 s".into()),
                ("warmup".into(), "0 s".into()),
            ],
            Some(5),
        )
        .unwrap();
        let mut net = c.network;
        net.run(&mut |_| {});
        let s = Summary::from_network(&net, c.meta, 0.0);
        assert_invariants(&s);
        let retransmitted: u64 = s.flows.iter().map(|f| f.segments_retransmitted.unwrap()).sum();
        assert!(retransmitted > 0, "{variant}: the small buffer must cause losses");
        for f in &s.flows {
            assert_eq!(f.bytes_delivered, 3_000_000, "{variant}: {} delivered {}", f.name, f.bytes_delivered);
        }
        for conn in net.conns() {
            assert!(!conn.endpoint.stats().aborted, "{variant}: a connection gave up");
        }
    }
}

/// AD97, Fig. 3: TCP-Lite over ATM loses 10–30 % of effective throughput against the same
/// topology as a packet network (cell losses spread over segments of several connections).
#[test]
fn t1_atm_is_below_the_packet_network() {
    let eff = |mode: &str| {
        let s = run("T1", &[("mode", mode), ("buffer", "4000 cells"), ("duration", "6 s")], None);
        assert_eq!(s.mode, mode);
        assert_invariants(&s);
        s.aggregate.efficiency.unwrap()
    };
    let (cell, packet) = (eff("cell"), eff("packet"));
    assert!(cell < packet * 0.95, "ATM {cell} vs packet {packet}");
}

/// MSc98 Table 5.2: with buffers that never overflow, each connection's whole window waits
/// at the bottleneck: the queue approaches N × 3840 cells less what the 10 ms pipe holds.
#[test]
fn a2_unbounded_buffers_hold_the_windows() {
    for (n, low, high) in [("5", 14_000, 19_200), ("10", 32_000, 38_400)] {
        let s = run("A2-ubr", &[("n_sources", n), ("duration", "3 s"), ("warmup", "0.5 s")], None);
        let p = s.ports.iter().find(|p| p.name == "sw1->sw2").unwrap();
        assert_eq!(p.dropped_total, 0);
        assert!((low..=high).contains(&p.max_queue_cells), "N = {n}: max queue {}", p.max_queue_cells);
    }
}

/// LRP97 Figs. 5, 6: goodput grows and loss falls with the switch buffer until the buffer
/// holds both windows; frames are lost far more often than cells.
#[test]
fn e2_buffer_sweep_trends() {
    let at = |cells: &str| {
        let s = run("E2", &[("buffer", cells), ("duration", "10 s")], None);
        let data: Vec<_> = s.vcs.iter().filter(|v| !v.name.ends_with("-ack")).collect();
        let dropped: u64 = data.iter().map(|v| v.cells_dropped).sum();
        let delivered: u64 = data.iter().map(|v| v.cells_delivered).sum();
        let lost: u64 = data.iter().map(|v| v.frames_lost).sum();
        let frames: u64 = data.iter().map(|v| v.frames_delivered).sum::<u64>() + lost;
        (s.aggregate.goodput_bps, dropped as f64 / (dropped + delivered) as f64, lost as f64 / frames as f64)
    };
    let (g_small, clr_small, flr_small) = at("1632 cells");
    let (g_big, clr_big, _) = at("2400 cells");
    assert!(g_big > g_small, "goodput {g_small} -> {g_big}");
    assert!(clr_small > 0.0 && clr_big == 0.0, "CLR {clr_small} -> {clr_big}");
    assert!(flr_small > 2.0 * clr_small, "FLR {flr_small} vs CLR {clr_small}");
}

/// MSc98 §5.3: edge routers segment packets onto one VC per router pair; the five flows of
/// the multiplexing router share one VC (and its ACKs one VC back), the others have their own.
#[test]
fn a12_edge_router_multiplexes_flows_onto_one_vc() {
    let s = run("A12-ubr", &[("duration", "3 s"), ("warmup", "0.5 s")], None);
    assert_invariants(&s);
    let vc_of = |flow: &str| s.flows.iter().find(|f| f.name == flow).unwrap().vc.clone();
    for i in 1..=5 {
        assert_eq!(vc_of(&format!("mux{i}")), "rm->rmd");
    }
    assert_eq!(vc_of("single3"), "r3->rd3");
    assert_eq!(s.vcs.len(), 10, "5 router pairs, a VC each way");
    for f in &s.flows {
        assert!(f.bytes_delivered > 0, "{} delivered nothing", f.name);
    }
    // Packets cross the LANs as packets: those ports count packets, not cells.
    let lan = s.ports.iter().find(|p| p.name == "a1->rm").unwrap();
    assert!(lan.packets_out.unwrap() > 0 && lan.cells_out == 0);
}

#[test]
fn a5_udp_overload_grows_with_the_number_of_sources() {
    let loss = |n: &str| {
        let s = run(
            "A5-udp",
            &[("n_sources", n), ("duration", "0.6 s"), ("warmup", "0.2 s"), ("start_jitter", "2 ms")],
            None,
        );
        assert_invariants(&s);
        let sent: u64 = s.flows.iter().map(|f| f.packets_sent).sum();
        let lost: u64 = s.flows.iter().map(|f| f.packets_lost).sum();
        (lost as f64 / sent as f64, s.aggregate.efficiency.unwrap())
    };
    let (l5, e5) = loss("5");
    let (l20, e20) = loss("20");
    // N greedy line-rate sources into one line: about 1 − 1/N of the packets are lost, and EPD
    // keeps the link busy with whole frames.
    assert!((l5 - 0.8).abs() < 0.03, "loss with 5 sources {l5}");
    assert!((l20 - 0.95).abs() < 0.02, "loss with 20 sources {l20}");
    assert!(e5 > 0.95 && e20 > 0.95, "efficiency {e5} {e20}");
}

/// Selective Drop and FBA (UBR+) against EPD where EPD locks sources out: 15 greedy UDP
/// sources whose frames meet EPD's threshold in turn. Per-VC accounting refuses the frames of the
/// VCs above their share instead, and the shares even out.
#[test]
fn fair_share_discard_ends_the_lockout_of_epd() {
    let run_with = |discard: &str| {
        let sets = [
            ("discard", discard),
            ("n_sources", "15"),
            ("start_jitter", "1 ms"),
            ("duration", "1 s"),
            ("warmup", "0.3 s"),
        ];
        let s = run("A5-udp", &sets, None);
        (s.aggregate.fairness_index.unwrap(), s.aggregate.efficiency.unwrap())
    };
    let (epd, _) = run_with("epd");
    let (sd, sd_efficiency) = run_with("selective-drop");
    let (fba, _) = run_with("fba");
    assert!(epd < 0.3, "EPD fairness {epd}: no lockout to end");
    assert!(sd > 0.99 && sd_efficiency > 0.99, "Selective Drop: fairness {sd}, efficiency {sd_efficiency}");
    assert!(fba > epd + 0.3, "FBA fairness {fba} against EPD's {epd}");
}

/// A UDP source faster than its first link is run as asked: what the link cannot carry stays
/// at the sender, neither delivered nor lost, and the flow says how much (with no warm-up its
/// counters cover the whole run: sent = delivered + lost + queued at the end, exactly).
#[test]
fn a_udp_source_above_its_first_link_shows_what_stays_queued() {
    let sets = [("n_sources", "1"), ("udp_rate", "200 Mbit/s"), ("duration", "0.5 s"), ("warmup", "0 s")];
    let s = run("A4", &sets, None);
    let f = &s.flows[0];
    assert_eq!(f.packets_sent, f.packets_delivered + f.packets_lost + f.packets_queued_at_end, "{f:?}");
    // The link carries 149.76 of the 200 Mbit/s offered: about a quarter stays queued.
    let queued = f.packets_queued_at_end as f64 / f.packets_sent as f64;
    assert!((queued - (1.0 - 149.76 / 200.0)).abs() < 0.01, "{queued} of {f:?}");
    assert_eq!(f.packet_loss_ratio, 0.0);
    // At the line's rate only the datagrams on their way at the end are left (a 5 ms link).
    let s = run("A4", &[("n_sources", "1"), ("duration", "0.5 s"), ("warmup", "0 s")], None);
    let f = &s.flows[0];
    assert_eq!(f.packets_sent, f.packets_delivered + f.packets_lost + f.packets_queued_at_end, "{f:?}");
    assert!(f.packets_queued_at_end > 0 && f.packets_queued_at_end < 15, "{f:?}");
}

#[test]
fn e1_rt_cells_are_protected_by_priority() {
    let s = run("E1-mux", &[("duration", "10 s"), ("warmup", "0.5 s"), ("n_rt", "6"), ("n_nrt", "14")], Some(3));
    let clr = |c: &str| s.categories.iter().find(|x| x.category == c).unwrap().clr;
    // The rt queue is served first, so nrt-VBR absorbs the overload.
    assert!(clr("nrt-vbr") > clr("rt-vbr"), "nrt {} rt {}", clr("nrt-vbr"), clr("rt-vbr"));
    assert!(clr("nrt-vbr") > 0.0);
}

/// E1-mux with every host's adapter buffer finite (so each on/off cell is emitted by its own
/// source event and offered alone), for comparing with whole bursts handed over.
fn e1_cell_by_cell(sets: &[(&str, &str)], seed: u64, nic_buffer: &str) -> Summary {
    let text = builtin::find("E1-mux")
        .unwrap()
        .text
        .replacen("name = \"rt{i}\"", &format!("name = \"rt{{i}}\"\nnic_buffer = \"{nic_buffer}\""), 1)
        .replacen("name = \"nrt{i}\"", &format!("name = \"nrt{{i}}\"\nnic_buffer = \"{nic_buffer}\""), 1);
    run_text("cell-by-cell.toml", text, sets, Some(seed))
}

/// An on/off source sends at its peak rate, one cell per slot of an adapter paced at that
/// rate: it never queues, so even a small adapter buffer loses nothing. Whole bursts handed to
/// the adapter at once read exactly as cells emitted one by one: every counter of every VC,
/// flow and port (the adapters' queue statistics and `cells_sent` included) — only the events
/// differ.
#[test]
fn bursts_handed_over_read_as_cells_emitted_one_by_one() {
    for (seed, sets) in [
        (5, [("duration", "3 s"), ("warmup", "0.5 s"), ("n_rt", "6"), ("n_nrt", "6")]),
        (6, [("duration", "2 s"), ("warmup", "0.3 s"), ("n_rt", "3"), ("n_nrt", "12")]),
    ] {
        let whole = run("E1-mux", &sets, Some(seed));
        let mut by_cell = e1_cell_by_cell(&sets, seed, "4 cells");
        for p in by_cell.ports.iter().filter(|p| p.name.contains("rt")) {
            assert_eq!(p.dropped_total, 0, "{}: dropped at the adapter", p.name);
            assert!(p.max_queue_cells <= 1, "{}: max queue {}", p.name, p.max_queue_cells);
        }
        assert!(by_cell.events > whole.events, "cell by cell takes an event per cell");
        by_cell.events = whole.events;
        by_cell.trace_hash = whole.trace_hash.clone();
        assert_eq!(by_cell.without_wall_time(), whole.without_wall_time(), "seed {seed}");
    }
}

/// Whole bursts against cells emitted one by one where observations meet cell starts: at
/// 42.4 Mbit/s a cell lasts exactly 10 µs, and a burst that starts at 0 puts a cell start on the
/// warm-up instant, on the end and on every sampling instant. One host into a multiplexer (its
/// adapter's link carried ahead) and three hosts (pipe events); then an on/off source and a UDP
/// flow sharing one named VC, whose adapter must take their cells in turn (no whole bursts).
#[test]
fn handed_bursts_read_as_cells_at_observation_instants() {
    let scenario = |hosts: u32, flows: &str, nic: &str| {
        format!(
            r#"
[scenario]
id = "edges"
title = "Bursts on the window's edges"
[simulation]
duration = "0.25 s"
warmup = "0.1 s"
seed = 9
[record]
interval = "1 ms"
ports = ["h1->mux", "mux->sink"]
[[switch]]
name = "mux"
buffer = "200 cells"
discard = "tail-drop"
[[host]]
name = "sink"
[[host]]
name = "h{{i}}"
count = {hosts}
nic_buffer = "{nic}"
[[link]]
between = ["mux", "sink"]
rate = "149.76 Mbit/s"
delay = "10 us"
[[link]]
count = {hosts}
between = ["h{{i}}", "mux"]
rate = "149.76 Mbit/s"
delay = "10 us"
{flows}"#
        )
    };
    let onoff = |count: u32, path: &str, vc: &str, on: &str| {
        format!(
            "[[flow]]\nname = \"f{{i}}\"\ncount = {count}\npath = [{path}]\nvc = {{ {vc}category = \"nrt-vbr\", pcr = \"42.4 Mbit/s\" }}\n\
             app = {{ kind = \"onoff\", on = \"{on}\", off = \"1 ms\", start = \"0 s\" }}\n"
        )
    };
    let udp = "[[flow]]\nname = \"udp\"\npath = [\"h1\", \"mux\", \"sink\"]\nvc = { name = \"shared\", category = \"nrt-vbr\", \
               pcr = \"42.4 Mbit/s\" }\napp = { kind = \"udp\", datagram = \"1000 B\", rate = \"3 Mbit/s\" }\n";
    let cases = [
        ("one host", 1, onoff(1, "\"h{i}\", \"mux\", \"sink\"", "", "100 s")),
        ("three hosts", 3, onoff(3, "\"h{i}\", \"mux\", \"sink\"", "", "30 ms")),
        ("shared VC", 1, onoff(1, "\"h1\", \"mux\", \"sink\"", "name = \"shared\", ", "5 ms") + udp),
    ];
    for (name, hosts, flows) in cases {
        let outcome = |nic: &str| {
            let text = scenario(hosts, &flows, nic);
            let c =
                celltrain::scenario::compile_source(celltrain::scenario::Source::new("edges.toml", text), &[], None)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut net = c.network;
            net.run(&mut |_| {});
            let s = Summary::from_network(&net, c.meta, 0.0);
            assert_invariants(&s);
            (s, net.take_series())
        };
        let ((whole, whole_series), (mut by_cell, by_cell_series)) =
            (outcome("1048576 cells"), outcome("1048575 cells"));
        (by_cell.events, by_cell.trace_hash, by_cell.params) =
            (whole.events, whole.trace_hash.clone(), whole.params.clone());
        assert_eq!(whole.without_wall_time(), by_cell.without_wall_time(), "{name}");
        assert_eq!(whole_series, by_cell_series, "{name}: samples");
    }
}

/// Two on/off sources of one host share its adapter at the same peak rate: when their bursts
/// overlap, their cells take turns in the adapter's queue. A burst handed over whole would put
/// the other source's cells behind all of it, so bursts go cell by cell there, and the results
/// are those of a finite adapter buffer (where every cell is emitted alone).
#[test]
fn on_off_sources_sharing_an_adapter_take_turns() {
    let text = r#"
[scenario]
id = "shared-adapter"
title = "Two on/off sources on one host"
[params]
nic = "1048576 cells"
[simulation]
duration = "3 s"
warmup = "0.2 s"
seed = 4
[[switch]]
name = "mux"
buffer = "300 cells"
discard = "tail-drop"
[[host]]
name = "src"
nic_buffer = "${nic}"
[[host]]
name = "dst"
[[link]]
between = [["src", "mux"], ["mux", "dst"]]
rate = "149.76 Mbit/s"
delay = "10 us"
[[flow]]
name = "f{i}"
count = 2
path = ["src", "mux", "dst"]
vc = { category = "nrt-vbr", pcr = "60 Mbit/s" }
app = { kind = "onoff", on = "20 ms", off = "20 ms" }
"#;
    let summary = |nic: &str| run_text("shared-adapter.toml", text.to_string(), &[("nic", nic)], None);
    let (unbounded, mut finite) = (summary("1048576 cells"), summary("100000 cells"));
    finite.params = unbounded.params.clone();
    let adapter = unbounded.ports.iter().find(|p| p.name == "src->mux").unwrap();
    assert!(adapter.max_queue_cells > 100, "overlapping bursts queue at the adapter: {}", adapter.max_queue_cells);
    assert_eq!(unbounded.without_wall_time(), finite.without_wall_time());
}

#[test]
fn same_seed_same_run_other_seed_other_run() {
    let sets = short("E1-mux");
    let a = run("E1-mux", &sets, Some(7));
    let b = run("E1-mux", &sets, Some(7));
    let c = run("E1-mux", &sets, Some(8));
    assert_eq!(a.without_wall_time(), b.without_wall_time());
    assert_ne!(a.trace_hash, c.trace_hash);
    // Adding a source does not change the draws of the others (one stream per component).
    let mut more = sets.clone();
    more.retain(|(k, _)| *k != "n_nrt");
    more.push(("n_nrt", "9"));
    let d = run("E1-mux", &more, Some(7));
    assert_eq!(a.vcs[0].cells_sent, d.vcs[0].cells_sent, "rt1's traffic depends only on its own stream");
}

/// Runs a compiled scenario with pipe events and with carrying: (by events, carried ahead).
fn by_events_and_carried(compile: impl Fn() -> celltrain::scenario::Compiled) -> (Summary, Summary) {
    let summary = |carry: bool| {
        let c = compile();
        let mut net = c.network;
        net.set_carry_ahead(carry);
        net.run(&mut |_| {});
        Summary::from_network(&net, c.meta, 0.0)
    };
    (summary(false), summary(true))
}

/// Every result the same, but for the trace hash and the event count.
fn assert_same_results(by_events: &Summary, mut ahead: Summary, name: &str) {
    ahead.trace_hash = by_events.trace_hash.clone();
    ahead.events = by_events.events;
    assert_eq!(ahead.without_wall_time(), by_events.without_wall_time(), "{name}: carrying changed a result");
}

// Every built-in with and without each fast path: `tests/fast_paths.rs`.

/// Cells carried into a port that is not carried on would put their next pipe event on the
/// queue early, ahead of events of the same instant scheduled meanwhile: two in-phase flows
/// meeting at a shared port would then arrive in another order and lose other cells.
#[test]
fn carrying_keeps_the_order_of_simultaneous_arrivals() {
    use celltrain::scenario::{compile_source, Source};
    let text = r#"
[scenario]
id = "converging"
title = "In-phase flows over different paths into one port"
[simulation]
duration = "0.3 s"
warmup = "0.05 s"
seed = 1
[[switch]]
names = ["s1", "s2", "t"]
buffer = "200 cells"
discard = "ppd"
[[host]]
names = ["h1", "h2", "h3", "h4"]
[[link]]
between = [["h1", "s1"], ["h2", "s2"], ["h4", "s2"], ["s1", "t"], ["s2", "t"], ["t", "h3"]]
rate = "149.76 Mbit/s"
delay = "10 us"
[[flow]]
name = "b"
path = ["h2", "s2", "t", "h3"]
vc = { category = "ubr", pcr = "line" }
app = { kind = "udp", datagram = "9140 B", rate = "60 Mbit/s" }
[[flow]]
name = "a"
path = ["h1", "s1", "t", "h3"]
vc = { category = "ubr", pcr = "line" }
app = { kind = "udp", datagram = "9140 B", rate = "60 Mbit/s" }
[[flow]]
name = "c"
path = ["h4", "s2", "t", "h3"]
vc = { category = "ubr", pcr = "line" }
app = { kind = "udp", datagram = "9140 B", rate = "60 Mbit/s" }
"#;
    let (by_events, ahead) =
        by_events_and_carried(|| compile_source(Source::new("converging.toml", text.to_string()), &[], None).unwrap());
    let shared = by_events.ports.iter().find(|p| p.name == "t->h3").unwrap();
    assert!(shared.dropped_total > 1000, "the shared port must be overloaded: {}", shared.dropped_total);
    assert_same_results(&by_events, ahead, "converging");
}

/// Observations bound carrying: a queue sampled every millisecond at a port that cells are
/// carried into (a slower link behind a switch, fed by bursts) reads as with pipe events.
#[test]
fn samples_see_what_pipe_events_show() {
    use celltrain::scenario::{compile_source, Source};
    let text = r#"
[scenario]
id = "carried-queue"
title = "Bursts into a slower link behind a switch"
[simulation]
duration = "2 s"
warmup = "0.3 s"
seed = 3
[[switch]]
names = ["sw1", "sw2"]
buffer = "2000 cells"
discard = "epd"
[[host]]
names = ["src", "dst"]
[[link]]
between = [["src", "sw1"], ["sw1", "sw2"]]
rate = "149.76 Mbit/s"
delay = "20 us"
[[link]]
between = ["sw2", "dst"]
rate = "60 Mbit/s"
delay = "20 us"
[[flow]]
name = "bursts"
path = ["src", "sw1", "sw2", "dst"]
vc = { category = "ubr", pcr = "line" }
app = { kind = "onoff", on = "5 ms", off = "10 ms" }
[record]
interval = "1 ms"
ports = ["sw2->dst"]
"#;
    let series = |carry: bool| {
        let mut net = compile_source(Source::new("carried-queue.toml", text.to_string()), &[], None).unwrap().network;
        net.set_carry_ahead(carry);
        net.run(&mut |_| {});
        (net.take_series().unwrap(), net.events())
    };
    let ((by_events, events), (ahead, fewer)) = (series(false), series(true));
    assert!(3 * fewer < 2 * events, "sw2 and its link are carried: {fewer} events of {events}");
    let queue = by_events.column("sw2->dst.queue_cells").unwrap();
    assert!(queue.iter().filter(|&&q| q > 0.0).count() > 500, "the carried port queues");
    assert_eq!(ahead, by_events);
}

/// Golden numbers of short runs: exact cell and packet counts and the trace hash.
#[test]
fn golden_results() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden");
    // Every built-in, T1 as a packet network and with Vegas-AFR too (AD97's comparisons),
    // and MSc98's two-node networks over ABR.
    let cases = builtin::all()
        .iter()
        .map(|b| (b.name.to_string(), b.name, short(b.name)))
        .chain(std::iter::once(("T1-packet".to_string(), "T1", [short("T1"), vec![("mode", "packet")]].concat())))
        .chain(std::iter::once((
            "T1-vegas-afr".to_string(),
            "T1",
            [short("T1"), vec![("variant", "vegas-afr")]].concat(),
        )))
        .chain(["A3", "A4", "A12-ubr"].map(|n| (format!("{n}-abr"), n, [short(n), vec![("service", "abr")]].concat())));
    for (golden_name, name, sets) in cases {
        let s = run(name, &sets, None);
        let golden = serde_json::json!({
            "scenario": s.scenario,
            "trace_hash": s.trace_hash,
            "events": s.events,
            "goodput_bps": format!("{:.3}", s.aggregate.goodput_bps),
            "flows": s.flows.iter().map(|f| serde_json::json!([f.name, f.packets_sent, f.packets_delivered, f.packets_lost])).collect::<Vec<_>>(),
            "vcs": s.vcs.iter().map(|v| serde_json::json!([v.name, v.cells_sent, v.cells_delivered, v.cells_dropped, v.frames_lost])).collect::<Vec<_>>(),
            "ports": s.ports.iter().filter(|p| p.cells_in > 0).map(|p| serde_json::json!([p.name, p.cells_out, p.dropped_total, p.max_queue_cells])).collect::<Vec<_>>(),
            "packet_ports": s.ports.iter().filter(|p| p.packets_in.is_some_and(|n| n > 0)).map(|p| serde_json::json!([p.name, p.packets_out, p.packets_dropped, p.max_queue_bytes])).collect::<Vec<_>>(),
        });
        let path = dir.join(format!("{golden_name}.json"));
        let text = serde_json::to_string_pretty(&golden).unwrap() + "\n";
        if std::env::var_os("CELLTRAIN_BLESS").is_some() {
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path)
            .unwrap_or_else(|_| panic!("{}: no golden file; run with CELLTRAIN_BLESS=1", path.display()));
        assert_eq!(text, expected, "{golden_name}: result differs from the golden file");
    }
}

/// Mutated built-in scenarios through the whole compiler (parse, parameters, expansion,
/// network builder): never a panic, always a one-line error naming the file.
#[test]
fn fuzzed_scenarios_never_panic() {
    use celltrain::scenario::{compile_source, Source};
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let inserts = ["\"", "[", "]", "${", "}", "=", "0", "-1", "{i}", "\n", "cells", "ms", "epd", " ", "\"line\""];
    let (mut ok, mut errors) = (0, 0);
    for b in builtin::all() {
        for _ in 0..400 {
            let mut text: Vec<u8> = b.text.as_bytes().to_vec();
            for _ in 0..1 + next() % 3 {
                // (A mutation can leave nothing to mutate.)
                if text.is_empty() {
                    break;
                }
                let at = (next() % text.len() as u64) as usize;
                match next() % 4 {
                    0 => text.truncate(at.max(1)),
                    1 => {
                        let ins = inserts[(next() % inserts.len() as u64) as usize];
                        text.splice(at..at, ins.bytes());
                    }
                    2 => {
                        text.remove(at);
                    }
                    _ => text[at] = b"0123456789 =\"[]{}$,.-x"[(next() % 22) as usize],
                }
            }
            let text = String::from_utf8_lossy(&text).into_owned();
            let result =
                std::panic::catch_unwind(|| compile_source(Source::new("fuzz.toml", text), &[], None).map(|_| ()));
            match result.expect("the compiler panicked") {
                Ok(()) => ok += 1,
                Err(e) => {
                    let msg = e.to_string();
                    assert!(msg.starts_with("fuzz.toml"), "{msg}");
                    assert_eq!(msg.lines().count(), 1, "{msg}");
                    errors += 1;
                }
            }
        }
    }
    assert!(ok > 50 && errors > 500, "ok {ok} errors {errors}: the mutations should exercise both paths");
}

/// BN01's sources: back-to-back transfers of a fixed size, each on a new connection
/// (slow start again), written in ttcp-style 16 KB writes. Every finished file is delivered
/// whole, and the counters cover all the connections.
#[test]
fn back_to_back_files_on_new_connections() {
    use celltrain::network::App;
    use celltrain::scenario::{compile_source, Source};
    let text = builtin::find("A5-tcp").unwrap().text.replace(
        "start_jitter = \"${start_jitter}\" }",
        "start_jitter = \"${start_jitter}\", files = \"1 MB\", write = \"16 KB\" }",
    );
    let sets = [
        ("n_sources".to_string(), "3".to_string()),
        ("warmup".to_string(), "0 s".to_string()),
        ("duration".to_string(), "4 s".to_string()),
    ];
    let c = compile_source(Source::new("files.toml", text), &sets, None).unwrap();
    let mut net = c.network;
    net.run(&mut |_| {});
    let s = Summary::from_network(&net, c.meta, 0.0);
    assert_invariants(&s);
    for (flow, summary) in net.flows().iter().zip(&s.flows) {
        let (sender, _) = flow.conns.unwrap();
        let App::Files { files_done, remaining, .. } = net.conns()[sender.index()].app else { panic!("files app") };
        assert!(files_done >= 3, "{}: only {files_done} files done", flow.name);
        // Delivered: every finished file plus part of the current one, never more.
        let current = 1_000_000 - remaining;
        assert!(
            summary.bytes_delivered >= files_done * 1_000_000,
            "{}: {} < {files_done} MB",
            flow.name,
            summary.bytes_delivered
        );
        assert!(summary.bytes_delivered <= files_done * 1_000_000 + current);
        // One SYN per connection: segments counted over all of them.
        assert!(summary.segments_sent.unwrap() > files_done * 100);
    }
}

/// UPC at the first switch: a greedy line-rate source on a VBR.1 VC (SCR 10 Mbit/s, MBS 100)
/// gets through at about the SCR, the rest discarded; under VBR.3 the excess is tagged CLP 1
/// instead and still delivered (no congestion).
#[test]
fn upc_polices_vbr1_and_tags_vbr3() {
    use celltrain::scenario::{compile_source, Source};
    let text = |conformance: &str| {
        format!(
            r#"[scenario]
id = "upc"
title = "policing"
[simulation]
duration = "2 s"
warmup = "0.5 s"
[[switch]]
name = "sw"
buffer = "100000 cells"
[[host]]
names = ["a", "b"]
[[link]]
between = [["a", "sw"], ["sw", "b"]]
rate = "149.76 Mbit/s"
[[flow]]
name = "f"
path = ["a", "sw", "b"]
vc = {{ category = "nrt-vbr", scr = "10 Mbit/s", mbs = 100, conformance = "{conformance}" }}
app = {{ kind = "udp", datagram = "9140 B" }}
"#
        )
    };
    let run_text = |t: String| {
        let c = compile_source(Source::new("upc.toml", t), &[], None).unwrap();
        let mut net = c.network;
        net.run(&mut |_| {});
        Summary::from_network(&net, c.meta, 0.0)
    };
    let s = run_text(text("vbr.1"));
    assert_invariants(&s);
    let v = &s.vcs[0];
    assert!(v.cells_policed > 0 && v.cells_tagged == 0);
    let delivered_bps = v.cells_delivered as f64 * 424.0 / 1.5;
    assert!((delivered_bps / 10e6 - 1.0).abs() < 0.02, "delivered {delivered_bps} bit/s of cells");
    let s = run_text(text("vbr.3"));
    let v = &s.vcs[0];
    assert!(v.cells_tagged > 0 && v.cells_policed == 0, "tagged {} policed {}", v.cells_tagged, v.cells_policed);
    // A contract that cannot hold is refused with the key named.
    let bad = compile_source(Source::new("upc.toml", text("vbr.1").replace("10 Mbit/s", "200 Mbit/s")), &[], None);
    let e = bad.err().expect("SCR above PCR is refused");
    assert_eq!(e.key, "flow[1].vc.scr", "{e}");
}

/// BKD97 V6: a policed VBR VC drops cells mid-frame and end-of-frame cells; without a
/// reassembly timer a lost last cell merges two frames (both lost); the adapter's timer
/// discards the stale part so the next frame survives.
#[test]
fn reassembly_timer_saves_the_frame_after_a_lost_last_cell() {
    use celltrain::scenario::{compile_source, Source};
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/v1-trial.toml")).unwrap();
    let run_text = |t: String| {
        let sets = [("duration".to_string(), "30 s".to_string())];
        let c = compile_source(Source::new("v1.toml", t), &sets, None).unwrap();
        let mut net = c.network;
        net.run(&mut |_| {});
        Summary::from_network(&net, c.meta, 0.0)
    };
    let plain = run_text(text.clone());
    let timed = run_text(text.replace(
        "send_processing = \"${processing}\"",
        "send_processing = \"${processing}\"\nreassembly_timeout = \"2 ms\"",
    ));
    let (p, t) = (&plain.vcs[0], &timed.vcs[0]);
    assert!(p.cells_policed > 0, "the UPC must discard cells");
    assert_eq!(p.reassembly_timeouts, 0);
    assert!(t.reassembly_timeouts > 0);
    assert!(
        t.corrupted_pdus < p.corrupted_pdus,
        "merged PDUs: {} with the timer vs {}",
        t.corrupted_pdus,
        p.corrupted_pdus
    );
    assert!(timed.flows[0].bytes_delivered > plain.flows[0].bytes_delivered);
}

/// BKD97: over a VBR VC policed at SCR 10 Mbit/s, TCP with BSD's 500 ms timer crawls
/// (< 1 Mbit/s, ~1 s idle after each policed burst, V1); shaping the adapter to the SCR removes
/// the losses and reaches most of the 10 Mbit/s (V5); a 10 ms timer keeps the link busier but
/// retransmits much more (V4).
#[test]
fn bkd97_policed_vbr_shapes() {
    let v1 = run("V1", &[], None);
    let f1 = &v1.flows[0];
    assert!(f1.transfer_throughput_bps.unwrap() < 1e6, "V1 throughput {:?}", f1.transfer_throughput_bps);
    // "the sender had to wait for approximately one second between two bursts" (BKD97
    // §4.2): the idle before a retransmission, with SunOS's 2-tick minimum timeout.
    let idle = f1.mean_timeout_idle_s.unwrap();
    assert!((0.5..1.5).contains(&idle), "V1 timeout idle {idle}");
    assert!(f1.bytes_retransmitted.unwrap() > 0);
    // Trains: the bursts of two segments or more, fewer than all bursts (lone retransmissions)
    // and longer on average.
    let (trains, bursts) = (f1.multi_segment_bursts.unwrap(), f1.bursts.unwrap());
    assert!(trains > 0 && trains < bursts, "{trains} trains of {bursts} bursts");
    assert!(f1.mean_multi_burst_segments.unwrap() >= 2.0);
    assert!(f1.mean_multi_burst_segments.unwrap() > f1.mean_burst_segments.unwrap());
    assert!(v1.vcs[0].cells_policed > 0);
    let v5 = run("V5", &[], None);
    let f5 = &v5.flows[0];
    assert_eq!(v5.vcs[0].cells_policed, 0, "a shaped stream conforms");
    assert_eq!(f5.segments_retransmitted, Some(0));
    assert!(f5.transfer_throughput_bps.unwrap() > 8e6, "V5 throughput {:?}", f5.transfer_throughput_bps);
    let v4 = run("V4", &[], None);
    let f4 = &v4.flows[0];
    assert!(f4.transfer_throughput_bps.unwrap() > 3.0 * f1.transfer_throughput_bps.unwrap());
    assert!(f4.retransmission_ratio.unwrap() > 0.2, "V4 retransmissions {:?}", f4.retransmission_ratio);
    // A dual-leaky-bucket shaper in the adapter: always conforming, so nothing is policed.
    let shaped = run("V1", &[("shaping", "dual")], None);
    assert_eq!(shaped.vcs[0].cells_policed, 0);
    assert!(shaped.flows[0].transfer_throughput_bps.unwrap() > 8e6);
    // V7: the connections share one VC (and one back).
    let v7 = run("V7", &[("duration", "60 s")], None);
    assert_eq!(v7.vcs.len(), 2);
    assert!(v7.flows.iter().all(|f| f.vc == "vbr"));
}

/// Ethernet LANs as packet links: 38 octets of framing per packet and a 1500-byte MTU. Greedy
/// UDP with 1472-byte datagrams over a 10 Mbit/s LAN, a router and another LAN delivers
/// 1472 · 8 bits per 1538-octet frame time: 9.5709 Mbit/s; TCP with a 1500-byte MTU stays under
/// its framing bound of 1460/1538 of the line; a 9180-byte MTU is refused, naming the flow.
#[test]
fn ethernet_lans_frame_packets_and_enforce_their_mtu() {
    use celltrain::scenario::{compile_source, Source};
    let lan = |app: &str| {
        format!(
            "[scenario]\nid = \"lan\"\ntitle = \"two 10 Mbit/s Ethernet LANs and a router\"\n\n\
             [simulation]\nduration = \"2 s\"\nwarmup = \"0.5 s\"\n\n\
             [[host]]\nnames = [\"a\", \"b\"]\n\n[[router]]\nname = \"r\"\n\n\
             [[link]]\nbetween = [[\"a\", \"r\"], [\"r\", \"b\"]]\nrate = \"10 Mbit/s\"\ndelay = \"10 us\"\nmedium = \"ethernet\"\n\n\
             [[flow]]\nname = \"f\"\npath = [\"a\", \"r\", \"b\"]\napp = {app}\n"
        )
    };
    let go = |app: &str| {
        let c = compile_source(Source::new("lan.toml", lan(app)), &[], None)?;
        let mut net = c.network;
        net.run(&mut |_| {});
        let s = Summary::from_network(&net, c.meta, 0.0);
        assert_invariants(&s);
        Ok::<_, celltrain::scenario::ScenarioError>(s)
    };
    let udp = go("{ kind = \"udp\", datagram = \"1472 B\" }").unwrap();
    let expected = 1472.0 * 8.0 / (1538.0 * 8.0 / 10e6);
    let g = udp.flows[0].goodput_bps;
    assert!((g - expected).abs() / expected < 2e-3, "UDP goodput {g} vs {expected}");
    let tcp = go("{ kind = \"tcp\", variant = \"reno\", mtu = \"1500 B\", window = \"64 KB\" }").unwrap();
    let g = tcp.flows[0].goodput_bps;
    assert!(g < 1460.0 / 1538.0 * 10e6 && g > 0.85 * 1460.0 / 1538.0 * 10e6, "TCP goodput {g}");
    let e = go("{ kind = \"tcp\", variant = \"reno\", mtu = \"9180 B\" }").unwrap_err();
    assert_eq!((e.line, e.key.as_str()), (Some(24), "flow[1].app"), "{e}");
    assert!(e.message.contains("9180-byte IP packets cross the Ethernet link a->r (MTU 1500 bytes)"), "{e}");
}

/// BKD97's PDU-level rate control (eq. 3): an adapter that keeps c·(T_SCR − T_PCR) of idle
/// between PDUs (7.617 ms for 192-cell PDUs at SCR 10 Mbit/s) sends an endless conforming
/// train, so the UPC never discards and TCP never retransmits; a shorter gap (eq. 2: a finite
/// train) gets policed.
#[test]
fn pdu_rate_control_at_the_eq3_gap_is_never_policed() {
    let long = &[("duration", "30 s")];
    let at_eq3 = run("V1", &[long[0], ("pdu_gap", "7.618 ms")], None);
    assert_invariants(&at_eq3);
    assert_eq!(at_eq3.vcs[0].cells_policed, 0, "an eq. 3 train conforms");
    assert_eq!(at_eq3.flows[0].segments_retransmitted, Some(0));
    // One 9148-byte segment per 192 cells at the PCR + 7.618 ms: 8.99 Mbit/s at most.
    let t = at_eq3.flows[0].transfer_throughput_bps.unwrap();
    assert!((8.0e6..8.99e6).contains(&t), "throughput {t}");
    let short_gap = run("V1", &[long[0], ("pdu_gap", "5 ms")], None);
    assert!(short_gap.vcs[0].cells_policed > 0, "a gap below eq. 3 ends in policing");
    assert!(short_gap.flows[0].segments_retransmitted.unwrap() > 0);
    assert!(short_gap.flows[0].transfer_throughput_bps.is_none_or(|x| x < t), "unfinished, or slower");
}

/// BKD97's preventive tagging keeps whole PDUs: every cell but the last of a
/// non-conforming PDU leaves CLP = 1. With a switch that refuses all CLP = 1 cells, each
/// tagged PDU then dies alone — its CLP = 0 end-of-frame cell still delimits it, so it never
/// takes the next PDU with it — and the untagged ones get through.
#[test]
fn preventive_tagging_keeps_whole_pdus() {
    use celltrain::scenario::{compile_source, Source};
    let text = builtin::find("V1")
        .unwrap()
        .text
        .replace("conformance = \"vbr.1\"", "conformance = \"vbr.2\"")
        .replace("shaping = \"${shaping}\"", "shaping = \"${shaping}\"\npreventive_tagging = true")
        .replace("buffer = \"100000 cells\"", "buffer = \"100000 cells\"\nclp1_threshold = \"0 cells\"");
    let c = compile_source(Source::new("tag.toml", text), &[("duration".into(), "60 s".into())], None).unwrap();
    let mut net = c.network;
    net.run(&mut |_| {});
    let s = Summary::from_network(&net, c.meta, 0.0);
    assert_invariants(&s);
    let v = &s.vcs[0];
    assert!(v.frames_tagged > 0, "some PDUs must need tagging");
    assert_eq!(v.cells_policed, 0, "tagged cells pass a VBR.2 UPC");
    assert_eq!(v.frames_lost, v.frames_tagged, "exactly the tagged PDUs are lost");
    assert_eq!(v.corrupted_pdus, v.frames_tagged, "each alone: only its CLP 0 end-of-frame cell arrives");
    assert!(v.frames_delivered > 0);
}

/// Cells handed to an adapter together (a frame from segmentation, an on/off burst) are
/// admitted at once where the adapter only paces them (see `Network::set_run_admission`):
/// every result, the trace hash and the event count included, is the one of offering each
/// cell alone. The adapters of the extra case below take whole runs at first and then refuse
/// them: a small NIC buffer, drained slower than the source fills it, drops cells one by one.
#[test]
fn admitting_runs_at_once_changes_nothing() {
    use celltrain::scenario::{compile_source, Source};
    let small_nic = r#"
[scenario]
id = "small-nic"
title = "Line-rate datagrams into adapters paced at half the line rate, 300-cell NIC buffers"
[simulation]
duration = "0.4 s"
warmup = "0.1 s"
seed = 5
[[switch]]
name = "sw"
buffer = "1000 cells"
discard = "epd"
[[host]]
names = ["src1", "src2", "dst"]
nic_buffer = "300 cells"
adapter_rate = "74.88 Mbit/s"
[[link]]
between = [["src1", "sw"], ["src2", "sw"], ["sw", "dst"]]
rate = "149.76 Mbit/s"
delay = "20 us"
[[flow]]
name = "udp{i}"
count = 2
path = ["src{i}", "sw", "dst"]
vc = { category = "ubr", pcr = "line" }
app = { kind = "udp", datagram = "9140 B", start_jitter = "1 ms" }
"#;
    // Tagged frames (CLP = 1 cells in a run) from two senders, the adapters' queues sampled.
    let tagged = r#"
[scenario]
id = "tagged"
title = "Preventively tagged UDP frames over VBR VCs, adapter queues sampled"
[simulation]
duration = "0.4 s"
warmup = "0.1 s"
seed = 6
[[switch]]
name = "sw"
buffer = "2000 cells"
discard = "epd"
[[host]]
names = ["src1", "src2"]
preventive_tagging = true
[[host]]
name = "dst"
[[link]]
between = [["src1", "sw"], ["src2", "sw"], ["sw", "dst"]]
rate = "149.76 Mbit/s"
delay = "20 us"
[[flow]]
name = "udp{i}"
count = 2
path = ["src{i}", "sw", "dst"]
vc = { category = "nrt-vbr", pcr = "line", scr = "20 Mbit/s", mbs = 300, conformance = "vbr.2" }
app = { kind = "udp", datagram = "9140 B", rate = "60 Mbit/s", start_jitter = "1 ms" }
[record]
interval = "1 ms"
ports = ["src1->sw", "sw->dst"]
"#;
    let inline = |name: &'static str, text: &'static str| {
        let make = move || compile_source(Source::new(format!("{name}.toml"), text.to_string()), &[], None).unwrap();
        (name.to_string(), Box::new(make) as Box<dyn Fn() -> celltrain::scenario::Compiled>)
    };
    let cases: Vec<(String, Box<dyn Fn() -> celltrain::scenario::Compiled>)> = builtin::all()
        .iter()
        .map(|b| {
            let overrides: Vec<(String, String)> =
                short(b.name).iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            let name = b.name;
            (name.to_string(), Box::new(move || compile(name, &overrides, None).unwrap()) as Box<dyn Fn() -> _>)
        })
        .chain([inline("small-nic", small_nic), inline("tagged", tagged)])
        .collect();
    let mut in_runs = Vec::new();
    for (name, compile) in &cases {
        // The inline cases also run with every pipe by events.
        let carrying: &[bool] = if builtin::all().iter().any(|b| b.name == name) { &[true] } else { &[true, false] };
        for &carry in carrying {
            let summary = |runs: bool| {
                let c = compile();
                let mut net = c.network;
                net.set_carry_ahead(carry);
                net.set_run_admission(runs);
                net.run(&mut |_| {});
                let admitted = net.run_admitted_cells();
                let (hops, series) = (net.cell_hops(), net.take_series());
                (Summary::from_network(&net, c.meta, 0.0), admitted, hops, series)
            };
            let ((alone, none, hops_alone, series_alone), (together, admitted, hops, series)) =
                (summary(false), summary(true));
            assert_eq!(none, 0, "{name}: runs admitted with run admission off");
            assert_eq!(
                together.without_wall_time(),
                alone.without_wall_time(),
                "{name} (carrying {carry}): admitting runs changed a result"
            );
            assert_eq!((hops, series), (hops_alone, series_alone), "{name} (carrying {carry}): cell-hops or samples");
            if carry {
                in_runs.push((name.clone(), admitted, together));
            }
        }
    }
    let admitted = |name: &str| in_runs.iter().find(|(n, _, _)| n == name).map(|(_, a, s)| (*a, s)).unwrap();
    assert!(admitted("A4").0 > 100_000, "A4: only {} cells admitted in runs", admitted("A4").0);
    // The small NIC both takes whole frames and refuses some: cells are dropped at the adapter.
    let (cells, summary) = admitted("small-nic");
    let nic = summary.ports.iter().find(|p| p.name == "src1->sw").unwrap();
    assert!(cells > 500 && nic.dropped_total > 1000, "small NIC: {cells} cells in runs, {} dropped", nic.dropped_total);
    // Tagged frames go whole too.
    let (cells, summary) = admitted("tagged");
    let tagged: u64 = summary.vcs.iter().map(|v| v.frames_tagged).sum();
    assert!(cells > 10_000 && tagged > 10, "tagged: {cells} cells in runs, {tagged} frames tagged");
}
