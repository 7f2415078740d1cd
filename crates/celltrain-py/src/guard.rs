//! A panic must not cross into Python as pyo3's `PanicException` (a `BaseException` that
//! `except Exception` lets through, and that kills a sweep's worker pool): it becomes a
//! `RuntimeError` naming the scenario. A panic is a bug of the simulator; the message asks
//! for a report.

use std::panic::{catch_unwind, AssertUnwindSafe};

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
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let message = panic_message(payload.as_ref()).replace('\n', " ");
        format!("{scenario}: internal error of the simulator (please report it): {message}")
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_panic_becomes_a_message_naming_the_scenario() {
        let err = super::catch_panic("A4", || -> u32 { panic!("boom\nsecond line") }).unwrap_err();
        assert_eq!(err, "A4: internal error of the simulator (please report it): boom second line");
        assert_eq!(super::catch_panic("A4", || 7), Ok(7));
    }
}
