//! The binary hands the Python package's commands (`sweep`, `reproduce`) to an interpreter,
//! `python -m celltrain ...`, and lists them in its help. A stand-in "interpreter" (a shell
//! script that prints its arguments and exits with a code of its own) shows what it is given.
#![cfg(unix)]

mod common;

use common::{fresh_dir, stderr};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A shell script at `path` that prints its arguments and exits with `code`.
fn fake_python(path: &Path, code: i32) -> PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, format!("#!/bin/sh\necho \"python: $*\"\nexit {code}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_path_buf()
}

fn run(exe: &Path, args: &[&str], python: Option<&Path>) -> Output {
    let mut command = Command::new(exe);
    command.args(args).env_remove("CELLTRAIN_PYTHON");
    if let Some(python) = python {
        command.env("CELLTRAIN_PYTHON", python);
    }
    command.output().expect("runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_celltrain"))
}

#[test]
fn sweep_and_reproduce_go_to_python_with_their_arguments_and_exit_code() {
    let dir = fresh_dir("python-front-env");
    let python = fake_python(&dir.join("py"), 7);
    for args in [&["sweep", "A4", "--grid", "n_sources=2,3"][..], &["reproduce", "--help"]] {
        let out = run(binary(), args, Some(&python));
        assert_eq!(out.status.code(), Some(7), "{}", stderr(&out));
        assert_eq!(stdout(&out), format!("python: -m celltrain {}\n", args.join(" ")));
    }
}

#[test]
fn the_rust_commands_never_start_python() {
    let dir = fresh_dir("python-front-rust");
    let python = fake_python(&dir.join("py"), 7);
    let out = run(binary(), &["list"], Some(&python));
    assert_eq!(out.status.code(), Some(0));
    assert!(!stdout(&out).contains("python:"));
    let bad = run(binary(), &["run", "A4", "--set", "buffer=-3 cells"], Some(&python));
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn the_interpreter_beside_the_binary_is_used_without_the_override() {
    // As pip installs it into a virtual environment: bin/celltrain beside bin/python3.
    let bin = fresh_dir("python-front-venv").join("bin");
    fake_python(&bin.join("python3"), 3);
    let exe = bin.join("celltrain");
    std::fs::copy(binary(), &exe).unwrap();
    let out = run(&exe, &["sweep", "--help"], None);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_eq!(stdout(&out), "python: -m celltrain sweep --help\n");
}

#[test]
fn an_interpreter_that_cannot_start_is_one_error_line_and_exit_code_1() {
    let missing = fresh_dir("python-front-missing").join("no-python");
    let out = run(binary(), &["sweep", "A4"], Some(&missing));
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: celltrain sweep: cannot start Python") && err.contains("CELLTRAIN_PYTHON"),
        "{err}"
    );
}

#[test]
fn the_help_lists_the_python_commands_on_the_stream_clap_uses() {
    for args in [&["--help"][..], &["-h"], &["help"]] {
        let out = run(binary(), args, None);
        assert_eq!(out.status.code(), Some(0));
        let text = stdout(&out);
        assert!(text.contains("  run ") && text.contains("  sweep ") && text.contains("  reproduce "), "{text}");
    }
    // A bare `celltrain` is a usage error: all of it on standard error, exit code 2.
    let bare = run(binary(), &[], None);
    assert_eq!(bare.status.code(), Some(2));
    assert!(stderr(&bare).contains("  sweep ") && stdout(&bare).is_empty());
    // A subcommand's help is its own.
    assert!(!stdout(&run(binary(), &["run", "--help"], None)).contains("  sweep "));
}
