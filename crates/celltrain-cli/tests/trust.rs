//! Results a user can trust: a number that cannot be measured is reported as undefined with a
//! warning, never as a plausible value.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn celltrain(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_celltrain")).args(args).current_dir(root()).output().expect("runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(o)))
}

/// Jain's index of flows that all delivered nothing is undefined, not 1.0 ("perfectly fair").
#[test]
fn fairness_of_flows_that_delivered_nothing_is_null_with_a_warning() {
    let out = celltrain(&["run", "tests/trust/nothing-delivered.toml", "--json", "--quiet"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary = json(&out);
    assert!(summary["aggregate"]["fairness_index"].is_null(), "{}", summary["aggregate"]);
    let warnings = summary["warnings"].as_array().expect("a warnings list");
    assert!(warnings.iter().any(|w| w.as_str().unwrap().contains("no flow delivered anything")), "{warnings:?}");
    assert!(stderr(&out).contains("warning: no flow delivered anything"), "{}", stderr(&out));
}

/// A run whose flows deliver has a defined index and no warning (the list is left out).
#[test]
fn a_run_that_delivers_has_no_warnings() {
    let out = celltrain(&["run", "tests/good-minimal.toml", "--json", "--quiet"]);
    let summary = json(&out);
    assert!(summary["aggregate"]["fairness_index"].as_f64().is_some());
    assert!(summary.get("warnings").is_none(), "{}", summary["warnings"]);
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
}

/// Packet mode's switches are drop-tail FIFO routers: EPD and per-VC queueing asked of one are
/// accepted (a scenario switches modes with one `--set`) but each gives a warning with its
/// file, line and key, from `check` and from `run` (stderr and summary.json).
#[test]
fn switch_keys_packet_mode_ignores_are_warned_about_with_file_line_and_key() {
    let file = "tests/trust/packet-mode-epd.toml";
    let expected = [(11, "discard"), (12, "epd_threshold"), (13, "queueing")];
    let out = celltrain(&["check", file]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    for (line, key) in expected {
        let want = format!("warning: {file}:{line}: switch[1].{key}: ignored in packet mode");
        assert!(err.contains(&want), "{want:?} in {err}");
    }
    assert!(!err.contains("buffer"), "the buffer is used: {err}");
    let out = celltrain(&["run", file, "--json", "--quiet"]);
    let warnings = json(&out)["warnings"].as_array().expect("warnings").clone();
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    // The same keys in cell mode are used: no warning.
    let text = std::fs::read_to_string(root().join(file)).unwrap().replace("mode = \"packet\"", "mode = \"cell\"");
    let cell = std::env::temp_dir().join(format!("celltrain-cell-epd-{}.toml", std::process::id()));
    std::fs::write(&cell, text).unwrap();
    let out = celltrain(&["check", cell.to_str().unwrap()]);
    std::fs::remove_file(&cell).ok();
    assert_eq!((out.status.code(), stderr(&out)), (Some(0), String::new()));
}
