//! Time series CSV round trip and sampler intervals.

use super::super::timeseries::{Sampler, TimeSeries};
use celltrain_core::{SimDuration, SimTime};

fn parse_csv(text: &str) -> (Vec<String>, Vec<(String, Vec<f64>)>) {
    let mut lines = text.lines();
    let header = lines.next().unwrap().split(',').map(str::to_string).collect();
    let rows = lines
        .map(|l| {
            let mut f = l.split(',');
            let t = f.next().unwrap().to_string();
            // An empty field is a value not defined yet (NaN in the series).
            (t, f.map(|v| if v.is_empty() { f64::NAN } else { v.parse::<f64>().unwrap() }).collect())
        })
        .collect();
    (header, rows)
}

#[test]
fn csv_round_trips_exactly() {
    let mut ts = TimeSeries::new(&["cwnd_bytes", "queue_cells", "rate"]);
    assert!(ts.is_empty());
    let samples: [(u64, [f64; 3]); 5] = [
        (0, [1460.0, 0.0, 0.1]),
        (100_000_000_000, [2920.0, 17.0, -1.0e-300]),
        (100_000_000_000, [2920.0, 18.0, f64::MAX]),
        (1_234_567_890_123_456, [(1u64 << 53) as f64, 5e-324, f64::INFINITY]),
        (1_234_567_890_123_457, [f64::NAN, -0.0, 1.0 / 3.0]),
    ];
    for (ps, v) in &samples {
        ts.push(SimTime::from_picos(*ps), v);
    }
    assert_eq!(ts.len(), 5);
    assert_eq!(ts.column("queue_cells").unwrap(), [0.0, 17.0, 18.0, 5e-324, -0.0]);
    assert!(ts.column("nope").is_none());

    let mut out = Vec::new();
    ts.write_csv(&mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let (header, rows) = parse_csv(&text);
    assert_eq!(header, ["time_s", "cwnd_bytes", "queue_cells", "rate"]);
    let times: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(
        times,
        ["0.000000000000", "0.100000000000", "0.100000000000", "1234.567890123456", "1234.567890123457"],
        "times are exact picoseconds"
    );
    for ((_, want), (_, got)) in samples.iter().zip(&rows) {
        let bits = |v: &[f64]| v.iter().map(|x| if x.is_nan() { u64::MAX } else { x.to_bits() }).collect::<Vec<_>>();
        assert_eq!(bits(want), bits(got), "values round-trip bit for bit");
    }
    assert!(text.ends_with('\n'));
}

#[test]
fn empty_series_writes_only_the_header() {
    let mut out = Vec::new();
    TimeSeries::new(&["a"]).write_csv(&mut out).unwrap();
    assert_eq!(out, b"time_s,a\n");
}

#[test]
#[should_panic(expected = "wrong number of values")]
fn push_rejects_a_short_row() {
    TimeSeries::new(&["a", "b"]).push(SimTime::ZERO, &[1.0]);
}

#[test]
#[should_panic(expected = "out of order")]
fn push_rejects_time_going_backwards() {
    let mut ts = TimeSeries::new(&["a"]);
    ts.push(SimTime::from_picos(10), &[1.0]);
    ts.push(SimTime::from_picos(9), &[1.0]);
}

#[test]
fn bad_column_names_are_rejected() {
    for names in [&["a", "a"][..], &["time_s"], &[""]] {
        let names: Vec<&str> = names.to_vec();
        assert!(std::panic::catch_unwind(|| TimeSeries::new(&names)).is_err(), "{names:?} accepted");
    }
}

#[test]
fn names_that_need_quoting_are_quoted_in_the_header() {
    let mut ts = TimeSeries::new(&["a,b", "x\"y", "l\nm", "plain"]);
    ts.push(SimTime::ZERO, &[1.0, 2.0, 3.0, 4.0]);
    let mut out = Vec::new();
    ts.write_csv(&mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text, "time_s,\"a,b\",\"x\"\"y\",\"l\nm\",plain\n0.000000000000,1,2,3,4\n");
}

#[test]
fn sampler_fires_on_a_fixed_grid() {
    let ms = |m: u64| SimTime::ZERO + SimDuration::from_millis(m);
    let mut s = Sampler::new(ms(5), SimDuration::from_millis(10));
    assert_eq!(s.interval(), SimDuration::from_millis(10));
    assert!(!s.due(ms(4)));
    assert!(s.due(ms(5)));
    // Drive it like the simulator: one pending sampling event at next_at(), jittery other
    // events in between; samples land exactly on the grid.
    let mut series = TimeSeries::new(&["n"]);
    let mut events = 0;
    let mut now = SimTime::ZERO;
    while now < ms(50) {
        now += SimDuration::from_micros(700);
        events += 1;
        while s.due(now) {
            series.push(s.next_at(), &[f64::from(events)]);
            s.advance();
        }
    }
    let got: Vec<u64> = series.times().iter().map(|t| t.as_picos() / 1_000_000_000).collect();
    assert_eq!(got, [5, 15, 25, 35, 45]);
    assert_eq!(s.next_at(), ms(55));
}

#[test]
fn sampler_advance_past_skips_missed_instants() {
    let ms = |m: u64| SimTime::ZERO + SimDuration::from_millis(m);
    let mut s = Sampler::new(ms(0), SimDuration::from_millis(10));
    assert_eq!(s.advance_past(ms(35)), 4, "0, 10, 20, 30 passed over");
    assert_eq!(s.next_at(), ms(40));
    assert_eq!(s.advance_past(ms(39)), 0, "not due: unchanged");
    assert_eq!(s.next_at(), ms(40));
    assert_eq!(s.advance_past(ms(40)), 1, "exactly on an instant: it counts as passed");
    assert_eq!(s.next_at(), ms(50));
    assert_eq!(s.advance(), ms(60));
}

#[test]
#[should_panic(expected = "must be positive")]
fn sampler_rejects_a_zero_interval() {
    Sampler::new(SimTime::ZERO, SimDuration::ZERO);
}
