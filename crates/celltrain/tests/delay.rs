//! Cell transfer delay and CDV in whole runs: exact where the path's delay is known, bounded by
//! the buffers where cells queue, and counted for every user cell delivered.

mod common;

use celltrain_core::units::BitRate;
use common::run_text as run;

fn two_links(flows: &str, buffer: &str) -> String {
    format!(
        r#"
[scenario]
id = "delay"
title = "cell delay"

[simulation]
duration = "0.2 s"
warmup = "0.05 s"

[[switch]]
name = "sw1"
buffer = "{buffer}"

[[host]]
names = ["h1", "h2", "h3"]

[[link]]
between = [["h1", "sw1"], ["h3", "sw1"], ["sw1", "h2"]]
rate = "149.76 Mbit/s"
delay = "5 us"
{flows}
"#
    )
}

const ONE_FLOW: &str = r#"
[[flow]]
name = "f1"
path = ["h1", "sw1", "h2"]
app = { kind = "udp", datagram = "9140 B", rate = "20 Mbit/s" }
"#;

const TWO_FLOWS: &str = r#"
[[flow]]
name = "f1"
path = ["h1", "sw1", "h2"]
vc = { category = "ubr", pcr = "100 Mbit/s" }
app = { kind = "udp", datagram = "9140 B", rate = "60 Mbit/s", start_jitter = "1 ms" }

[[flow]]
name = "f2"
path = ["h3", "sw1", "h2"]
vc = { category = "ubr", pcr = "100 Mbit/s" }
app = { kind = "udp", datagram = "9140 B", rate = "60 Mbit/s", start_jitter = "1 ms" }
"#;

/// Alone on its path, every cell takes a cell time and the propagation delay on each of the
/// two links: one delay (to the slot grid's picosecond), and no clumping at the peak rate.
#[test]
fn an_unloaded_path_gives_every_cell_the_same_exact_delay() {
    let (net, summary) = run(&two_links(ONE_FLOW, "1000 cells"), &[]);
    let d = &net.vcs()[0].stats.delays;
    let per_link = BitRate::from_bps(149_760_000).cell_time_ceil().as_picos() + 5_000_000;
    assert!(d.cells > 1000, "cells delivered: {}", d.cells);
    // A cell's transmission ends on the link's slot grid, ⌈n·424/R⌉ from the start of a busy
    // period, so a cell time is the rounded-up one or a picosecond less.
    assert!(d.min_ps >= 2 * per_link - 2 && d.max_ps == 2 * per_link, "{} .. {}", d.min_ps, d.max_ps);
    let sum = u128::from(d.cells) * u128::from(2 * per_link);
    assert!(d.sum_ps <= sum && d.sum_ps >= sum - 2 * u128::from(d.cells));
    let s = summary.vcs[0].delay.as_ref().expect("delays reported");
    assert!(s.cdv_2pt_999_s <= 2e-12 && s.max_s - s.p50_s <= 2e-12, "{s:?}");
    assert_eq!(s.cdv_1pt_max_s, 0.0, "cells at the line rate never arrive early");
}

/// Two sources at 60 Mbit/s, each paced at a PCR of 100 Mbit/s, share a 149.76 Mbit/s output
/// whose line rate is above their PCR: cells queue, so delays spread
/// between the unloaded path's delay and that plus a full buffer's drain time; the quantiles
/// are ordered, and cells that leave the queue back to back at the line rate (above the PCR)
/// clump.
#[test]
fn queueing_spreads_delays_within_the_buffer_bound() {
    let buffer_cells = 200u64;
    let (net, summary) = run(&two_links(TWO_FLOWS, "200 cells"), &[]);
    let cell_ps = BitRate::from_bps(149_760_000).cell_time_ceil().as_picos();
    let unloaded = 2 * (cell_ps + 5_000_000);
    for vc in net.vcs() {
        let d = &vc.stats.delays;
        assert_eq!(d.cells, vc.stats.cells_delivered, "{}: every user cell delivered has a delay", vc.name);
        assert!(d.min_ps >= unloaded, "{}: {} below the unloaded path's {}", vc.name, d.min_ps, unloaded);
        assert!(d.max_ps <= unloaded + buffer_cells * cell_ps, "{}: {} above the buffer's bound", vc.name, d.max_ps);
        assert!(d.max_ps > unloaded + cell_ps, "{}: the shared output queues ({})", vc.name, d.max_ps);
    }
    let vcs = summary.vcs.iter().map(|s| &s.delay);
    for d in vcs.chain(summary.categories.iter().map(|c| &c.delay)).map(|d| d.as_ref().expect("delays")) {
        assert!(d.min_s <= d.p50_s && d.p50_s <= d.p99_s && d.p99_s <= d.p999_s && d.p999_s <= d.max_s, "{d:?}");
    }
    let category = summary.categories[0].delay.as_ref().expect("category delays");
    let cells: u64 = summary.vcs.iter().map(|v| v.delay.as_ref().unwrap().cells).sum();
    assert_eq!(category.cells, cells, "a category's delays are its VCs' together");
    let clumping = summary.vcs.iter().map(|v| v.delay.as_ref().unwrap().cdv_1pt_max_s).fold(0.0, f64::max);
    assert!(clumping > 0.0, "cells that left the queue back to back clump against the PCR");
    assert_eq!(category.cdv_1pt_max_s, clumping, "a category's clumping is its VCs' largest");
}

/// The same queueing behind 5 us and behind 20 ms of propagation on each link (the sources
/// stop early, so that both runs deliver the same cells): the delay variation is the same to
/// the picosecond and every quantile moves by the added propagation only. (A histogram of the
/// whole delay rounded it to 1/64 of the delay's octave: about 0.27 ms at 40 ms.)
#[test]
fn delay_variation_is_the_same_whatever_the_propagation_delay() {
    let stopping = TWO_FLOWS.replace("start_jitter = \"1 ms\"", "start_jitter = \"1 ms\", stop = \"0.1 s\"");
    let summary_at = |delay: &str| {
        let text = two_links(&stopping, "200 cells").replace("delay = \"5 us\"", &format!("delay = \"{delay}\""));
        let (net, summary) = run(&text.replace("warmup = \"0.05 s\"", "warmup = \"0 s\""), &[]);
        assert!(net.vcs().iter().all(|v| v.stats.cells_sent == v.stats.cells_delivered + v.stats.cells_dropped));
        summary
    };
    let (near, far) = (summary_at("5 us"), summary_at("20 ms"));
    let added = 2.0 * (20e-3 - 5e-6);
    for (a, b) in near.vcs.iter().zip(&far.vcs) {
        let (a, b) = (a.delay.as_ref().unwrap(), b.delay.as_ref().unwrap());
        assert!(a.cdv_2pt_999_s > 10e-6, "the output queues: {a:?}");
        assert_eq!((a.cells, a.cdv_2pt_999_s, a.resolution_s), (b.cells, b.cdv_2pt_999_s, b.resolution_s));
        assert!(a.resolution_s <= a.cdv_2pt_999_s / 64.0, "{a:?}");
        for (x, y) in
            [(a.min_s, b.min_s), (a.p50_s, b.p50_s), (a.p99_s, b.p99_s), (a.p999_s, b.p999_s), (a.max_s, b.max_s)]
        {
            assert!((y - x - added).abs() < 1e-12, "{x} and {y}");
        }
        assert!(b.p999_s >= b.mean_s && b.p50_s >= b.min_s && b.p999_s <= b.max_s, "{b:?}");
    }
}

/// RM cells are not user cells: an ABR VC's delays count its data cells only.
#[test]
fn abr_counts_data_cells_only() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/A1-udp.toml")).unwrap();
    let (net, _) = run(&text, &[("service", "abr"), ("duration", "0.3 s"), ("warmup", "0.1 s")]);
    let vc = &net.vcs()[0];
    let rm = net.abr().ends.iter().map(|e| e.source.counts.frm_sent).sum::<u64>();
    assert!(rm > 0, "the ABR source sent RM cells");
    assert!(vc.stats.delays.cells > 0 && vc.stats.delays.cells < vc.stats.cells_delivered, "data cells only");
}

/// A TCP sender's RTT: its raw samples are at least the path's two-way propagation delay and
/// at most that plus the queue a full window can build; its SRTT is BSD's, in eighths of a
/// 200 ms tick; the time series carries both, empty before the first sample.
#[test]
fn tcp_rtt_samples_are_reported_raw_and_smoothed() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/A1-tcp.toml")).unwrap();
    let text = format!("{text}\n[record]\ninterval = \"1 ms\"\nflows = [\"tcp1\"]\n");
    let (net, summary) = run(&text, &[("duration", "1.5 s")]);
    let flow = &summary.flows[0];
    let two_way_propagation_s = 2.0 * (50e-6 + 5e-3 + 50e-6);
    let window_drain_s = 20.0 * 9180.0 * 8.0 / 135e6;
    let mean = flow.rtt_mean_s.expect("RTT samples in the window");
    assert!(flow.rtt_samples.unwrap() > 10);
    assert!(mean > two_way_propagation_s && mean < two_way_propagation_s + window_drain_s, "{mean}");
    let srtt = flow.srtt_s.expect("an estimate");
    let eighths = srtt / (0.2 / 8.0);
    assert!((eighths - eighths.round()).abs() < 1e-9 && eighths >= 1.0, "SRTT {srtt} in eighths of a tick");
    let series = net.recorder().series.as_ref().expect("a time series");
    let csv = celltrain::report::series_csv(series);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let (srtt_col, rtt_col) = (
        header.iter().position(|c| *c == "tcp1.srtt_s").expect("srtt column"),
        header.iter().position(|c| *c == "tcp1.rtt_s").expect("rtt column"),
    );
    let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(rows[0][rtt_col], "", "no sample at the start");
    let last: f64 = rows.last().unwrap()[rtt_col].parse().unwrap();
    assert!(last > two_way_propagation_s && last < two_way_propagation_s + window_drain_s);
    assert!(rows.last().unwrap()[srtt_col].parse::<f64>().unwrap() > 0.0);
}
