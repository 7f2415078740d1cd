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
