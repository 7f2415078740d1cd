use super::*;
use crate::metrics::Summary;
use crate::scenario::{compile_source, Source};
use celltrain_atm::port::buffer::DropReason;

/// A small run's summary: two hosts through one switch, UDP, 20 ms, with a time series.
fn small_run() -> (Summary, Option<String>) {
    let text = r#"
[scenario]
id = "report-test"
title = "two hosts, one switch"

[simulation]
duration = "20 ms"

[[switch]]
name = "sw1"

[[host]]
names = ["h1", "h2"]

[[link]]
between = [["h1", "sw1"], ["sw1", "h2"]]
rate = "149.76 Mbit/s"
delay = "5 us"

[[flow]]
name = "f1"
path = ["h1", "sw1", "h2"]
app = { kind = "udp", datagram = "9140 B" }

[record]
interval = "5 ms"
ports = ["h1->sw1"]
"#;
    let compiled = compile_source(Source::new("report-test.toml", text.to_string()), &[], None).expect("compiles");
    let mut net = compiled.network;
    net.run(&mut |_| {});
    let series = net.recorder().series.as_ref().map(series_csv);
    (Summary::from_network(&net, compiled.meta, 0.0), series)
}

fn file<'a>(files: &'a [ResultFile], name: &str) -> &'a str {
    &files.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("no {name}")).text
}

#[test]
fn files_come_in_writing_order_with_the_summary_last() {
    let (summary, series) = small_run();
    assert!(series.is_some(), "the run records a time series");
    let names: Vec<_> = render(&summary, series).iter().map(|f| f.name).collect();
    assert_eq!(names, [SERIES_FILE, FLOWS_FILE, VCS_FILE, PORTS_FILE, SUMMARY_FILE]);
    let names: Vec<_> = render(&summary, None).iter().map(|f| f.name).collect();
    assert_eq!(names, [FLOWS_FILE, VCS_FILE, PORTS_FILE, SUMMARY_FILE]);
}

#[test]
fn every_drop_reason_has_a_port_column_in_declaration_order() {
    let (mut summary, _) = small_run();
    for (i, r) in DropReason::ALL.iter().enumerate() {
        summary.ports[0].dropped.insert(r.name().to_string(), 10 + i as u64);
    }
    let csv = ports_csv(&summary.ports);
    let mut lines = csv.lines();
    let header: Vec<_> = lines.next().expect("a header").split(',').collect();
    let first_drop = header.iter().position(|c| *c == "dropped_total").expect("dropped_total") + 1;
    for (i, r) in DropReason::ALL.iter().enumerate() {
        assert_eq!(header[first_drop + i], drop_column(*r));
    }
    assert_eq!(header[first_drop + DropReason::ALL.len()], "queued_at_start");
    let row: Vec<_> = lines.next().expect("a row").split(',').collect();
    assert_eq!(row.len(), header.len());
    for i in 0..DropReason::ALL.len() {
        assert_eq!(row[first_drop + i], (10 + i).to_string());
    }
}

#[test]
fn fields_with_separators_are_quoted() {
    let (mut summary, _) = small_run();
    summary.flows[0].name = "a,\"b\"".to_string();
    let csv = flows_csv(&summary.flows);
    assert!(csv.lines().nth(1).expect("a row").starts_with("\"a,\"\"b\"\"\","), "{csv}");
}

#[test]
fn numbers_are_written_without_exponents() {
    let (mut summary, _) = small_run();
    summary.flows[0].goodput_bps = 1e21;
    summary.flows[0].packet_loss_ratio = 1e-7;
    let csv = flows_csv(&summary.flows);
    let row = csv.lines().nth(1).expect("a row");
    assert!(row.contains(",1000000000000000000000,") && row.contains(",0.0000001,"), "{row}");
}

#[test]
fn a_summary_read_back_from_json_gives_the_same_files() {
    let (mut summary, series) = small_run();
    // Values whose shortest text has 17 digits or an extreme exponent: a parser that is
    // not correctly rounded reads some of them back one unit in the last place off.
    let awkward = [0.1 + 0.2, 2.0f64.sqrt(), 1.0 / 3.0, 5e-324, f64::MAX, 9007199254740993.0, 0.7016265727999999];
    let n_ports = summary.ports.len();
    for (i, x) in awkward.iter().enumerate() {
        summary.vcs[0].clr = *x;
        summary.ports[i % n_ports].mean_queue_cells = *x * 0.75;
        summary.aggregate.goodput_bps = *x / 7.0;
        let json = serde_json::to_string(&summary).expect("serialises");
        let from_json = render_json(&json, series.clone()).expect("reads back");
        for (a, b) in from_json.iter().zip(render(&summary, series.clone())) {
            assert!(a.name == b.name && a.text == b.text, "{x:e}: {} differs", b.name);
        }
    }
    assert!(render_json("{\"scenario\": 1}", None).is_err());
    // JSON has no NaN: serde_json writes it as null, which cannot be read back as a number.
    summary.vcs[0].clr = f64::NAN;
    assert!(render_json(&serde_json::to_string(&summary).expect("serialises"), None).is_err());
}

#[test]
fn write_results_writes_every_file_and_leaves_no_temporary() {
    let (summary, _) = small_run();
    let dir = std::env::temp_dir().join(format!("celltrain-report-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let files = render(&summary, Some("time_s\n".to_string()));
    write_files(&dir, &files).expect("writes");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("a directory")
        .map(|e| e.expect("an entry").file_name().into_string().expect("UTF-8"))
        .collect();
    names.sort();
    assert_eq!(names, ["flows.csv", "ports.csv", "summary.json", "timeseries.csv", "vcs.csv"]);
    for f in &files {
        assert_eq!(std::fs::read_to_string(dir.join(f.name)).expect("reads"), f.text);
    }
    assert_eq!(file(&files, SERIES_FILE), "time_s\n");
    std::fs::remove_dir_all(&dir).expect("cleans up");
}

/// The CSV header of a table: its column names.
fn header(csv: &str) -> Vec<String> {
    csv.lines().next().expect("a header").split(',').map(str::to_string).collect()
}

/// The fields of a summary row as the JSON has them, the per-reason drop map as its
/// `dropped_<reason>` columns, nested tables (a GFR VC's contract) aside.
fn json_fields(row: &serde_json::Value) -> Vec<String> {
    let mut fields = Vec::new();
    for (key, value) in row.as_object().expect("a row is an object") {
        match (key.as_str(), value) {
            ("dropped", serde_json::Value::Object(reasons)) => {
                fields.extend(reasons.keys().map(|r| format!("dropped_{r}")));
            }
            // A VC's cell delays are flattened into `delay_<field>` columns, as in the DataFrames.
            ("delay", serde_json::Value::Object(delay)) => fields.extend(delay.keys().map(|k| format!("delay_{k}"))),
            (_, serde_json::Value::Object(_)) => {}
            _ => fields.push(key.clone()),
        }
    }
    fields.sort();
    fields
}

/// Every field of summary.json's flows, VCs and ports is a column of its CSV table, and every
/// column a field, in cell mode and in packet mode (where the ports carry packet counters).
#[test]
fn csv_tables_carry_every_field_of_the_summary() {
    let (cell, _) = small_run();
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/trust/packet-mode-epd.toml"))
        .expect("the packet-mode scenario");
    let compiled = compile_source(Source::new("p.toml", text), &[], None).expect("compiles");
    let mut net = compiled.network;
    net.run(&mut |_| {});
    let packet = Summary::from_network(&net, compiled.meta, 0.0);
    for summary in [cell, packet] {
        let json = serde_json::to_value(&summary).expect("serialises");
        for (table, csv) in
            [("flows", flows_csv(&summary.flows)), ("vcs", vcs_csv(&summary.vcs)), ("ports", ports_csv(&summary.ports))]
        {
            let Some(row) = json[table].as_array().and_then(|rows| rows.first()) else { continue };
            let mut columns = header(&csv);
            columns.sort();
            assert_eq!(columns, json_fields(row), "{table}.csv in {} mode", summary.mode);
        }
    }
}

/// Packet ports report their packets (in `ports.csv`) and their real policy, drop-tail, even
/// on a switch configured for EPD.
#[test]
fn packet_ports_have_packet_counters_and_their_own_policy() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/trust/packet-mode-epd.toml"))
        .expect("the packet-mode scenario");
    let compiled = compile_source(Source::new("p.toml", text), &[], None).expect("compiles");
    let mut net = compiled.network;
    net.run(&mut |_| {});
    let summary = Summary::from_network(&net, compiled.meta, 0.0);
    let csv = ports_csv(&summary.ports);
    let columns = header(&csv);
    let row = csv.lines().find(|l| l.starts_with("sw1->h2,")).expect("the switch's port");
    let fields: Vec<&str> = row.split(',').collect();
    let at = |name: &str| fields[columns.iter().position(|c| c == name).expect(name)];
    assert_eq!(at("policy"), "tail-drop");
    assert!(at("packets_out").parse::<u64>().expect("a count") > 100);
    assert!(!at("max_queue_bytes").is_empty());
}
