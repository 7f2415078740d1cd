//! The command line on hostile or unlucky input: nothing written outside `--out`, limits
//! stated before a run, never a panic.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn celltrain_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_celltrain")).args(args).current_dir(dir).output().expect("runs")
}

fn celltrain(args: &[&str]) -> Output {
    celltrain_in(&root(), args)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh, empty scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("celltrain-harden-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every file under `dir`, relative to it, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    out.sort();
    out
}

const ESCAPING: &str = r#"[scenario]
id = "escape"
title = "host names that try to leave --out"

[simulation]
duration = "10 ms"

[[switch]]
name = "sw1"

[[host]]
names = ["../../escaped", "HOSTB"]

[[link]]
between = [["../../escaped", "sw1"], ["sw1", "HOSTB"]]
rate = "149.76 Mbit/s"
delay = "5 us"

[[flow]]
name = "f1"
path = ["../../escaped", "sw1", "HOSTB"]
app = { kind = "udp", datagram = "9140 B" }

[record]
pcap = ["../../escaped", "HOSTB"]
pcap_links = ["../../escaped->sw1"]
"#;

/// Host names that climb out of `--out` or are absolute paths: the run is refused before it
/// writes anything, anywhere.
#[test]
fn scenario_node_names_never_write_outside_out() {
    let tmp = scratch("escape");
    let work = tmp.join("a/b");
    std::fs::create_dir_all(&work).unwrap();
    let absolute = tmp.join("abs-target");
    for names in [("../../escaped", "HOSTB"), ("HOSTA", absolute.to_str().unwrap())] {
        let text = ESCAPING.replace("../../escaped", names.0).replace("HOSTB", names.1);
        std::fs::write(work.join("s.toml"), text).unwrap();
        let out = celltrain_in(&work, &["run", "s.toml", "--out", "out", "--quiet"]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains("cannot name a capture file"), "{}", stderr(&out));
        assert_eq!(files_under(&tmp), ["a/b/s.toml"], "files appeared");
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// More VCs on one port than its per-VC queues can number (once: a panic after the whole
/// network was built): an error naming the flow's key, the port and the limit.
#[test]
fn too_many_vcs_on_a_port_is_an_error_with_the_limit() {
    let out = celltrain(&["check", "A5-udp", "--set", "n_sources=65536"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: built-in:A5-udp:"), "{err}");
    assert!(err.contains("too many VCs on the port sw1->sw2 (max 65535)"), "{err}");
}

/// Flow names with a comma, quotes and a line break, sampled by `[record] interval`, and a
/// port listed twice (once: panics in the time-series writer): the header quotes each name
/// (RFC 4180) and the port is sampled once.
#[test]
fn time_series_headers_are_quoted_and_ports_sampled_once() {
    let tmp = scratch("quoted");
    let out_dir = tmp.join("out");
    let out = celltrain(&["run", "tests/quoted-names.toml", "--quiet", "--out", out_dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let csv = std::fs::read_to_string(out_dir.join("timeseries.csv")).unwrap();
    let header = concat!(
        "time_s,\"tcp,1.cwnd_bytes\",\"tcp,1.ssthresh_bytes\",\"tcp,1.rto_s\",",
        "\"say \"\"hi\"\"\nthere.cwnd_bytes\",\"say \"\"hi\"\"\nthere.ssthresh_bytes\",\"say \"\"hi\"\"\nthere.rto_s\",",
        "sw1->h2.queue_cells,h1->sw1.queue_cells\n"
    );
    assert!(csv.starts_with(header), "header: {:?}", &csv[..header.len().min(csv.len())]);
    // 20 ms sampled every 1 ms: 21 rows of 9 fields.
    let rows: Vec<&str> = csv[header.len()..].lines().collect();
    assert_eq!(rows.len(), 21);
    assert!(rows.iter().all(|r| r.split(',').count() == 9), "{rows:?}");
    let _ = std::fs::remove_dir_all(&tmp);
}
