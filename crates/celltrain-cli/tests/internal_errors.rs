//! A bug (a panic) in the `celltrain` binary: one `error: internal error:` line and exit code 1,
//! never Rust's default panic message (exit code 101), and `--out` as the previous run left it.

mod common;

use common::{root, stderr};
use std::path::Path;
use std::process::{Command, Output};

/// Runs `celltrain` with a panic on purpose at `point` (debug builds read `CELLTRAIN_TEST_PANIC`).
fn celltrain_panicking_at(point: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_celltrain"))
        .args(args)
        .current_dir(root())
        .env("CELLTRAIN_TEST_PANIC", point)
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("runs")
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn a_panic_is_one_line_exit_1_and_leaves_out_as_it_was() {
    let tmp = common::fresh_dir("panic");
    let out_dir = tmp.join("out");
    let dir = out_dir.to_str().unwrap();
    let first = common::celltrain(&["run", "tests/quoted-names.toml", "--quiet", "--out", dir]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let before_names = names_in(&out_dir);
    let before_summary = std::fs::read(out_dir.join("summary.json")).unwrap();

    let o = celltrain_panicking_at("run", &["run", "tests/good-minimal.toml", "--quiet", "--out", dir]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "more than one line: {err}");
    assert!(err.starts_with("error: internal error: test panic at run"), "{err}");
    assert!(err.contains("(at crates/celltrain-cli/src/"), "no location: {err}");
    assert!(err.trim_end().ends_with("; please report it with the scenario"), "{err}");
    assert!(!err.contains("RUST_BACKTRACE"), "{err}");
    // The staging directory went with the unwinding; the previous run is whole.
    assert_eq!(names_in(&out_dir), before_names, "a staging directory or a new file was left");
    assert_eq!(std::fs::read(out_dir.join("summary.json")).unwrap(), before_summary);

    // A fresh --out: nothing at all is left in it.
    let fresh = tmp.join("fresh");
    let o =
        celltrain_panicking_at("run", &["run", "tests/good-minimal.toml", "--quiet", "--out", fresh.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(names_in(&fresh).is_empty(), "{:?}", names_in(&fresh));
    let _ = std::fs::remove_dir_all(&tmp);
}

/// The panic point is for tests only: it appears in no help text.
#[test]
fn the_test_panic_is_not_in_the_help() {
    for args in [&["--help"][..], &["run", "--help"][..]] {
        let o = common::celltrain(args);
        let text = String::from_utf8_lossy(&o.stdout).to_lowercase();
        assert!(!text.contains("panic"), "{text}");
    }
}
