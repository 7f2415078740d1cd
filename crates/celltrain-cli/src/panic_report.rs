//! A panic in the `celltrain` binary is a bug of the simulator, not of the user's input: it
//! ends the command with one line asking for a report (exit code 1), not Rust's default
//! message and backtrace hint (exit code 101). The panic still unwinds, so what the command
//! held is dropped on the way out: an `--out` staging directory is removed, and the previous
//! run's files in `--out` stay as they were.

use std::panic::{self, AssertUnwindSafe, PanicHookInfo};

/// The exit code of a command a panic ended.
pub const PANIC_EXIT_CODE: i32 = 1;

/// The one line a panic prints.
pub fn panic_line(info: &PanicHookInfo<'_>) -> String {
    let payload = info.payload();
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string());
    let at = info.location().map(|l| format!(" (at {}:{})", l.file(), l.line())).unwrap_or_default();
    format!("error: internal error: {}{at}; please report it with the scenario", message.replace('\n', " "))
}

/// Runs `command` (the whole command line) with a panic reported as one line; returns its exit
/// code, [`PANIC_EXIT_CODE`] after a panic.
pub fn run_reporting_panics(command: impl FnOnce() -> i32) -> i32 {
    panic::set_hook(Box::new(|info| eprintln!("{}", panic_line(info))));
    panic::catch_unwind(AssertUnwindSafe(command)).unwrap_or(PANIC_EXIT_CODE)
}

/// A panic on purpose where `CELLTRAIN_TEST_PANIC` names `point`, so that tests can check what
/// a bug leaves behind. Debug builds only (the tests' binary): a release binary never reads it.
pub fn test_panic_point(point: &str) {
    #[cfg(debug_assertions)]
    if std::env::var("CELLTRAIN_TEST_PANIC").is_ok_and(|p| p == point) {
        panic!("test panic at {point} (CELLTRAIN_TEST_PANIC)");
    }
    #[cfg(not(debug_assertions))]
    let _ = point;
}
