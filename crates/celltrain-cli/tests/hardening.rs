//! The command line on hostile or unlucky input: nothing written outside `--out`, limits
//! stated before a run, never a panic.

mod common;

use common::{celltrain, celltrain_in, root, stderr};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh, empty scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = common::fresh_dir(&format!("harden-{name}"));
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
    // The printed tables escape the line break instead of breaking their rows.
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.lines().any(|l| l.starts_with("say \"hi\"\\u{a}there ")), "{table}");
    let csv = std::fs::read_to_string(out_dir.join("timeseries.csv")).unwrap();
    let header = concat!(
        "time_s,\"tcp,1.cwnd_bytes\",\"tcp,1.ssthresh_bytes\",\"tcp,1.rto_s\",\"tcp,1.srtt_s\",\"tcp,1.rtt_s\",",
        "\"say \"\"hi\"\"\nthere.cwnd_bytes\",\"say \"\"hi\"\"\nthere.ssthresh_bytes\",\"say \"\"hi\"\"\nthere.rto_s\",",
        "\"say \"\"hi\"\"\nthere.srtt_s\",\"say \"\"hi\"\"\nthere.rtt_s\",",
        "sw1->h2.queue_cells,h1->sw1.queue_cells\n"
    );
    assert!(csv.starts_with(header), "header: {:?}", &csv[..header.len().min(csv.len())]);
    // 20 ms sampled every 1 ms: 21 rows of 13 fields.
    let rows: Vec<&str> = csv[header.len()..].lines().collect();
    assert_eq!(rows.len(), 21);
    assert!(rows.iter().all(|r| r.split(',').count() == 13), "{rows:?}");
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Every file of `dir` with its contents.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files_under(dir).into_iter().map(|f| (f.clone(), std::fs::read(dir.join(&f)).unwrap())).collect()
}

/// A run that records less than the previous one in the same `--out` leaves none of the
/// previous run's files (once: an old `timeseries.csv` beside the new summary).
#[test]
fn reused_out_holds_only_the_last_run() {
    let tmp = scratch("reuse");
    let out_dir = tmp.join("out");
    let dir = out_dir.to_str().unwrap();
    std::fs::create_dir_all(&out_dir).unwrap();
    std::fs::write(out_dir.join("notes.txt"), "the user's own file").unwrap();
    let first = celltrain(&["run", "tests/quoted-names.toml", "--quiet", "--out", dir]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert!(out_dir.join("timeseries.csv").exists());
    let second = celltrain(&["run", "tests/good-minimal.toml", "--quiet", "--out", dir]);
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    assert_eq!(
        files_under(&out_dir),
        [".celltrain-files", "flows.csv", "notes.txt", "ports.csv", "summary.json", "vcs.csv"],
        "the first run's time series survived, or the user's file went"
    );
    let summary = std::fs::read_to_string(out_dir.join("summary.json")).unwrap();
    assert!(summary.contains("\"scenario\": \"bad\""), "{summary}");
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Writing the results fails (a file-size limit stands in for a full disk): the previous
/// run stays whole and alone in `--out`, no temporary is left, the exit code is 1, and the
/// summary still reaches standard output.
#[cfg(unix)]
#[test]
fn a_failed_write_leaves_the_previous_run_whole() {
    let tmp = scratch("full");
    let out_dir = tmp.join("out");
    let dir = out_dir.to_str().unwrap();
    let first = celltrain(&["run", "tests/quoted-names.toml", "--quiet", "--out", dir]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let before = snapshot(&out_dir);
    // SIGXFSZ ignored: a write beyond the limit fails with EFBIG instead of killing.
    let script = format!(
        "trap '' XFSZ; ulimit -f 2; exec '{}' run tests/good-minimal.toml --quiet --out '{dir}'",
        env!("CARGO_BIN_EXE_celltrain")
    );
    let out = Command::new("sh").args(["-c", &script]).current_dir(root()).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("bad — a bad scenario"), "no summary on stdout");
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    assert!(snapshot(&out_dir) == before, "the previous run changed: {:?}", files_under(&out_dir));
    let _ = std::fs::remove_dir_all(&tmp);
}

/// An `--out` that cannot be written is found before the run starts (a 1000 s run would
/// take minutes), with exit code 1.
#[test]
fn an_unwritable_out_fails_before_the_run() {
    let tmp = scratch("unwritable");
    std::fs::write(tmp.join("file"), "").unwrap();
    let started = std::time::Instant::now();
    let out = celltrain(&[
        "run",
        "A4",
        "--set",
        "duration=1000 s",
        "--quiet",
        "--out",
        tmp.join("file/out").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).starts_with("error: "), "{}", stderr(&out));
    assert!(started.elapsed().as_secs() < 20, "the run started first");
    let _ = std::fs::remove_dir_all(&tmp);
}

/// `celltrain bench` checks its flags before building anything (once: `--hops 4294967295`
/// built switches until memory ran out, `--seconds inf` panicked).
#[test]
fn bench_flags_are_checked_first() {
    for flags in [
        ["--seconds", "inf"],
        ["--seconds", "NaN"],
        ["--seconds", "0"],
        ["--seconds", "1e300"],
        ["--hops", "4294967295"],
        ["--hops", "0"],
    ] {
        let out = celltrain(&["bench", "null", flags[0], flags[1]]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{flags:?}: {err}");
        assert!(err.contains(flags[0]) && err.contains("must be"), "{flags:?}: {err}");
    }
}

/// A scenario that is not UTF-8 text, a directory or a FIFO: one line naming what it is
/// (the FIFO is never opened: reading it would block).
#[test]
fn scenarios_that_are_not_text_files_are_named_as_such() {
    let tmp = scratch("not-text");
    let mut bytes = std::fs::read(root().join("tests/good-minimal.toml")).unwrap();
    let at = bytes.iter().position(|&b| b == b'"').unwrap() + 1;
    bytes[at] = 0xff;
    std::fs::write(tmp.join("latin.toml"), &bytes).unwrap();
    std::fs::create_dir(tmp.join("dir.toml")).unwrap();
    let mut cases = vec![
        ("latin.toml", "latin.toml:2: (file): not UTF-8 text: invalid byte 0xff at byte ".to_string()),
        ("dir.toml", "dir.toml: (file): is a directory".to_string()),
    ];
    #[cfg(unix)]
    if Command::new("mkfifo").arg(tmp.join("fifo.toml")).status().is_ok_and(|s| s.success()) {
        cases.push(("fifo.toml", "fifo.toml: (file): is not a regular file".to_string()));
    }
    for (file, expected) in cases {
        let out = celltrain_in(&tmp, &["check", file]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{file}: {err}");
        assert_eq!(err.lines().count(), 1, "{file}: {err}");
        assert!(err.starts_with(&format!("error: {expected}")), "{file}: {err}");
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
