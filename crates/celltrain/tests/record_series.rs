//! The richer time series of `[record]`: delivered bytes and per-pool / per-class queues on the
//! sampling grid, and change records (`on_change`) of TCP windows, RTO and port queues.

mod common;

use celltrain::builtin;
use celltrain::metrics::Summary;
use celltrain::scenario::{compile_source, Source};
use celltrain::Network;
use celltrain_core::time::SimTime;

fn run(name: &str, sets: &[(&str, &str)]) -> (Network, Summary) {
    common::run_text(builtin::find(name).expect("a built-in").text, sets)
}

fn compile_error(name: &str, sets: &[(&str, &str)]) -> String {
    let text = builtin::find(name).expect("a built-in").text;
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    match compile_source(Source::new("case.toml", text.to_string()), &sets, Some(1)) {
        Ok(_) => panic!("{name} {sets:?} compiled"),
        Err(e) => e.to_string(),
    }
}

const A1_SHORT: [(&str, &str); 2] = [("duration", "0.6 s"), ("warmup", "0.2 s")];

#[test]
fn delivered_bytes_grow_to_what_the_flow_delivered() {
    let mut sets = A1_SHORT.to_vec();
    sets.extend([("record.interval", "10 ms"), ("record.delivered", "true")]);
    let (mut net, _) = run("A1-tcp", &sets);
    // The flow's counter covers the measurement window; the column counts from the start.
    let delivered_window = net.flows()[0].stats.bytes_delivered as f64;
    let series = net.take_series().expect("sampled");
    let column = series.column("tcp1.delivered_bytes").expect("a delivered column");
    assert!(column.windows(2).all(|w| w[0] <= w[1]), "delivered bytes never fall");
    let last = *column.last().unwrap();
    assert!(last > 1e6, "the flow delivered megabytes by the end: {last}");
    // The sample at 0.2 s, just after the window opens (it opens first at equal times).
    let k = series.times().iter().position(|t| t.as_secs_f64() >= 0.2).expect("a sample at the warmup");
    let at_warmup = column[k];
    assert!(at_warmup > 0.0 && last > at_warmup);
    assert!(last - at_warmup <= delivered_window, "the window's bytes: at most the flow's count");
    assert!(last - at_warmup > 0.9 * delivered_window, "and nearly all of it by the last sample");
}

#[test]
fn without_the_new_keys_the_columns_are_as_before() {
    let mut sets = A1_SHORT.to_vec();
    sets.push(("record.interval", "10 ms"));
    let (mut net, _) = run("A1-tcp", &sets);
    let series = net.take_series().expect("sampled");
    let names: Vec<&str> = series.names().iter().map(String::as_str).collect();
    assert_eq!(
        names,
        ["tcp1.cwnd_bytes", "tcp1.ssthresh_bytes", "tcp1.rto_s", "tcp1.srtt_s", "tcp1.rtt_s", "sw1->sw2.queue_cells"]
    );
    assert!(net.changes_csv().is_none(), "no change records unless asked");
}

#[test]
fn pools_and_classes_add_up_to_the_queue() {
    let base = [("duration", "0.3 s"), ("warmup", "0.05 s"), ("n_rt", "6"), ("n_nrt", "6")];
    for (detail, parts) in [
        ("pools", ["mux->sink.shared.pool_cells", "mux->sink.rt-vbr.pool_cells"]),
        ("classes", ["mux->sink.rt-vbr.queue_cells", "mux->sink.nrt-vbr.queue_cells"]),
    ] {
        let mut sets = base.to_vec();
        sets.extend([("record.interval", "100 us"), ("record.ports", "[\"mux->sink\"]"), ("record.queues", detail)]);
        let (mut net, _) = run("E1-mux", &sets);
        let series = net.take_series().expect("sampled");
        let total = series.column("mux->sink.queue_cells").expect("the total").to_vec();
        let a = series.column(parts[0]).unwrap_or_else(|| panic!("{detail}: {:?}", series.names()));
        let b = series.column(parts[1]).unwrap_or_else(|| panic!("{detail}: {:?}", series.names()));
        for i in 0..total.len() {
            assert_eq!(a[i] + b[i], total[i], "{detail} at sample {i}");
        }
        assert!(a.iter().any(|&v| v > 0.0) && b.iter().any(|&v| v > 0.0), "{detail}: both parts held cells");
    }
}

#[test]
fn grid_columns_need_the_grid() {
    let e = compile_error("A1-tcp", &[("record.delivered", "true")]);
    assert!(e.contains("record.delivered") && e.contains("interval"), "{e}");
    let e = compile_error("A1-tcp", &[("record.interval", "1 ms"), ("record.queues", "vcs")]);
    assert!(e.contains("record.queues") && e.contains("pools"), "{e}");
}

#[test]
fn change_records_follow_the_window_and_the_queue() {
    let mut sets = A1_SHORT.to_vec();
    sets.push(("record.on_change", "true"));
    let (net, summary) = run("A1-tcp", &sets);
    let csv = net.changes_csv().expect("change records");
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("time_s,subject,quantity,value"));
    let rows: Vec<(f64, &str, &str, f64)> = lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].parse().unwrap(), f[1], f[2], f[3].parse().unwrap())
        })
        .collect();
    assert!(rows.windows(2).all(|w| w[0].0 <= w[1].0), "rows in time order");
    // No row repeats the previous value of its quantity: these are changes.
    for (subject, quantity) in
        [("tcp1", "cwnd_bytes"), ("tcp1", "rto_s"), ("tcp1", "srtt_s"), ("sw1->sw2", "queue_cells")]
    {
        let values: Vec<f64> = rows.iter().filter(|r| r.1 == subject && r.2 == quantity).map(|r| r.3).collect();
        assert!(values.len() > 3, "{subject}.{quantity} changed: {}", values.len());
        assert!(values.windows(2).all(|w| w[0] != w[1]), "{subject}.{quantity} repeats a value");
    }
    // The queue's largest recorded value is the port's largest queue over the run.
    let max_queue = rows.iter().filter(|r| r.1 == "sw1->sw2").map(|r| r.3).fold(0.0, f64::max);
    let port = summary.ports.iter().find(|p| p.name == "sw1->sw2").expect("the bottleneck");
    assert!(max_queue >= port.max_queue_cells as f64, "{max_queue} vs {}", port.max_queue_cells);
    // The same results as a run that records nothing (only events and the trace may differ).
    let (_, plain) = run("A1-tcp", &A1_SHORT);
    assert_eq!(summary.flows, plain.flows, "recording changes changes no result");
}

/// ABR sources' ACR in the change records: every change at its own instant, so that the grid's
/// ACR at each sample is the last change before it; recording changes no result.
#[test]
fn acr_changes_are_recorded_and_agree_with_the_grid() {
    let base = [("service", "abr"), ("duration", "0.3 s"), ("warmup", "0.1 s")];
    let mut sets = base.to_vec();
    sets.extend([("record.on_change", "true"), ("record.interval", "1 ms")]);
    let (mut net, summary) = run("A3", &sets);
    let rows: Vec<(SimTime, String, f64)> = net
        .change_rows()
        .into_iter()
        .filter(|r| r.quantity == "acr_cells_per_s")
        .map(|r| (r.time, r.subject.to_string(), r.value))
        .collect();
    let vc = rows.first().map(|r| r.1.clone()).expect("ACR change rows");
    let acr: Vec<(SimTime, f64)> = rows.iter().filter(|r| r.1 == vc).map(|r| (r.0, r.2)).collect();
    assert!(acr.len() > 10, "{vc}'s ACR changed {} times", acr.len());
    assert!(acr.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 != w[1].1), "one row per change, in time order");
    let series = net.take_series().expect("sampled");
    let column = series.column(&format!("{vc}.acr_cells_per_s")).expect("the grid's ACR");
    let mut checked = 0;
    for (t, &sampled) in series.times().iter().zip(column) {
        // (A change at the sampling instant itself may come before or after the sample.)
        if acr.iter().any(|&(c, _)| c == *t) {
            continue;
        }
        if let Some(&(_, last)) = acr.iter().rev().find(|&&(c, _)| c < *t) {
            assert_eq!(sampled, last, "at {t:?}");
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} samples checked");
    let (_, plain) = run("A3", &base);
    assert_eq!(summary.flows, plain.flows, "recording changes changes no result");
    assert_eq!(summary.vcs, plain.vcs);
}

/// The change rows are one pool that each quantity draws on as it changes: a busy bottleneck
/// queue beside five quiet TCP senders keeps every change of a 4 s run (2.5 million rows),
/// where an equal share (a 21st of the rows) cut it at 0.75 s with a warning naming nothing.
#[test]
fn a_busy_queue_uses_the_rows_quiet_quantities_leave() {
    let (net, summary) = run("A3", &[("duration", "4 s"), ("record.on_change", "true")]);
    assert!(summary.warnings.is_empty(), "{:?}", summary.warnings);
    assert!(net.changes_cut().is_empty());
    let rows = net.change_rows();
    let queue = rows.iter().filter(|r| r.subject == "sw1->sw2").count();
    assert!(queue > celltrain::network::MAX_CHANGE_ROWS / 21, "{queue} queue rows");
    let last = rows.iter().rev().find(|r| r.subject == "sw1->sw2").expect("queue rows").time;
    assert!(last > SimTime::from_picos(3_990_000_000_000), "the queue is recorded to the end: {last:?}");
}
