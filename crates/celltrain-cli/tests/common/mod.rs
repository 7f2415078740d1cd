//! What the command-line test binaries share: the repository root, running the `celltrain`
//! binary there, and reading what it printed. (Each test binary uses part of it.)
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// Runs `celltrain` with `args` in `dir`.
pub fn celltrain_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_celltrain")).args(args).current_dir(dir).output().expect("runs")
}

/// Runs `celltrain` with `args` at the repository root (so `tests/...` paths resolve).
pub fn celltrain(args: &[&str]) -> Output {
    celltrain_in(&root(), args)
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The JSON the command printed (`--json`).
pub fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(o)))
}

/// A path in the temporary directory for this test process's `name`d output, with nothing
/// there yet (what an earlier run left is removed).
pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("celltrain-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}
