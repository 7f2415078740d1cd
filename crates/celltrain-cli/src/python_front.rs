//! The commands the Python package implements (`sweep`, `reproduce`). The installed `celltrain`
//! is this binary, so that the Rust commands start without an interpreter; it hands the Python
//! ones to `python -m celltrain`, run by the interpreter of the environment it was installed
//! into. On Unix the interpreter replaces this process, so exit codes, standard streams and
//! Ctrl-C are exactly those of `python -m celltrain`.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::process::Command;

/// The commands `python -m celltrain` runs itself.
pub const COMMANDS: [&str; 2] = ["sweep", "reproduce"];

/// Names the interpreter to hand the Python commands to, when the one beside the binary is not
/// the right one (or there is none, as after `pip install --user`).
pub const PYTHON_ENV: &str = "CELLTRAIN_PYTHON";

/// What the top-level help adds under clap's list of the Rust commands.
pub const HELP: &str = "
Commands of the Python front:
  sweep      Run a scenario over a grid of parameters and seeds, in parallel, into a result store
  reproduce  Run the paper reproductions and write a report (index.md, index.html)

See 'celltrain sweep --help' and 'celltrain reproduce --help'.
";

/// Whether the command line (program name first) is one of the Python commands.
pub fn owns(args: &[OsString]) -> bool {
    args.get(1).is_some_and(|command| COMMANDS.iter().any(|name| command == OsStr::new(name)))
}

/// Whether the command line asks for the top-level help (`celltrain`, `celltrain help`, `-h`,
/// `--help`), which lists the Python commands too.
pub fn is_top_level_help(args: &[String]) -> bool {
    args.len() <= 2 && matches!(args.get(1).map(String::as_str), None | Some("help" | "-h" | "--help"))
}

/// Runs the command line (program name first) as `python -m celltrain ...`; returns its exit
/// code, or 1 with one `error:` line when no interpreter can be started.
pub fn hand_over(args: &[OsString]) -> i32 {
    let python = interpreter();
    let mut command = Command::new(&python);
    command.arg("-m").arg("celltrain").args(&args[1..]);
    match run(command) {
        Ok(code) => code,
        Err(e) => {
            let name = args[1].to_string_lossy();
            eprintln!(
                "error: celltrain {name}: cannot start Python ({}): {e}; set {PYTHON_ENV} to the interpreter celltrain is installed in",
                python.display()
            );
            1
        }
    }
}

/// `CELLTRAIN_PYTHON`, else the interpreter beside this binary (a virtual environment's
/// `bin/`, where pip put both), else `python3` on the PATH.
fn interpreter() -> PathBuf {
    if let Some(python) = std::env::var_os(PYTHON_ENV).filter(|p| !p.is_empty()) {
        return python.into();
    }
    beside_this_binary().unwrap_or_else(|| PathBuf::from("python3"))
}

fn beside_this_binary() -> Option<PathBuf> {
    let dir = std::env::current_exe().ok()?.parent()?.to_path_buf();
    ["python3", "python"]
        .iter()
        .map(|name| dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX)))
        .find(|path| path.is_file())
}

/// Replaces this process (returns only if the interpreter cannot be started).
#[cfg(unix)]
fn run(mut command: Command) -> std::io::Result<i32> {
    use std::os::unix::process::CommandExt as _;
    Err(command.exec())
}

/// Without `exec`: waits for the interpreter, which receives Ctrl-C itself (the console sends
/// it to the whole process group), and passes its exit code on.
#[cfg(not(unix))]
fn run(mut command: Command) -> std::io::Result<i32> {
    Ok(command.status()?.code().unwrap_or(1))
}
