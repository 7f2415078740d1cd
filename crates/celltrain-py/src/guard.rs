//! A panic must not cross into Python as pyo3's `PanicException` (a `BaseException` that
//! `except Exception` lets through, and that kills a sweep's worker pool): it becomes a
//! `RuntimeError` naming the scenario. A panic is a bug of the simulator; the message asks
//! for a report. Rust's own panic message is not printed for such a panic (the error that
//! reaches Python says it all, once); a panic anywhere else still reaches the hook that was
//! there before.

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// This thread is inside [`catch_panic`]: a panic here becomes an error, not a message.
    static CATCHING: Cell<bool> = const { Cell::new(false) };
}

/// Installs, once per process, a panic hook that keeps quiet inside [`catch_panic`] and hands
/// every other panic to the hook installed before it.
fn install_quiet_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !CATCHING.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

/// The text of a panic's payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic".to_string())
}

/// Runs `f`; a panic inside becomes `Err(message)` naming `scenario`.
pub fn catch_panic<T>(scenario: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    install_quiet_hook();
    let outer = CATCHING.with(|c| c.replace(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(outer));
    result.map_err(|payload| {
        let message = panic_message(payload.as_ref()).replace('\n', " ");
        format!("{scenario}: internal error of the simulator (please report it): {message}")
    })
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// One test, so that the counting hook is in place before the quiet hook wraps it.
    #[test]
    fn a_panic_becomes_one_message_naming_the_scenario_and_other_panics_still_reach_the_hook() {
        static REPORTED: AtomicUsize = AtomicUsize::new(0);
        std::panic::set_hook(Box::new(|_| {
            REPORTED.fetch_add(1, Ordering::SeqCst);
        }));
        let err = super::catch_panic("A4", || -> u32 { panic!("boom\nsecond line") }).unwrap_err();
        assert_eq!(err, "A4: internal error of the simulator (please report it): boom second line");
        assert_eq!(REPORTED.load(Ordering::SeqCst), 0, "Rust's message was printed as well");
        assert_eq!(super::catch_panic("A4", || 7), Ok(7));
        // Nested: the inner catch leaves the outer one quiet.
        let outer = super::catch_panic("outer", || {
            let _ = super::catch_panic("inner", || panic!("inner"));
            panic!("outer");
        });
        assert!(outer.unwrap_err().ends_with("outer"));
        assert_eq!(REPORTED.load(Ordering::SeqCst), 0);
        // Outside a catch, the hook that was there before hears of it.
        let _ = std::panic::catch_unwind(|| panic!("elsewhere"));
        assert_eq!(REPORTED.load(Ordering::SeqCst), 1);
    }
}
