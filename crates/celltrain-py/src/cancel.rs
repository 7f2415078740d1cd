//! Stopping chosen runs from another thread: a sweep on a thread pool cannot reach its running
//! points with Ctrl-C (only the main thread sees signals), so it hands each point's run a
//! `RunCancel` token and, on Ctrl-C, cancels it; every run holding the token stops at its next
//! progress check (a few milliseconds) with KeyboardInterrupt. Unlike `cancel_runs` (the
//! interpreter's exit), it stops only the runs given the token, and only until a new token.

use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A cancellation shared by the runs it is given to.
#[pyclass(module = "celltrain._celltrain", frozen)]
pub struct RunCancel {
    flag: Arc<AtomicBool>,
}

#[pymethods]
impl RunCancel {
    #[new]
    fn new() -> Self {
        RunCancel { flag: Arc::new(AtomicBool::new(false)) }
    }

    /// Stops every run given this token (now, or as soon as it starts).
    fn cancel(&self) {
        self.flag.store(true, Ordering::SeqCst);
    }

    /// Whether `cancel` was called.
    #[getter]
    fn cancelled(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }
}

impl RunCancel {
    /// The flag a run looks at.
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag)
    }
}

/// The flag of a run's token, if it was given one; KeyboardInterrupt if it is cancelled
/// already (a cancelled sweep starts no further point).
pub fn flag_of(cancel: Option<PyRef<'_, RunCancel>>) -> PyResult<Option<Arc<AtomicBool>>> {
    let flag = cancel.map(|c| c.flag());
    if flag.as_ref().is_some_and(|f| f.load(Ordering::SeqCst)) {
        return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err("celltrain run cancelled"));
    }
    Ok(flag)
}
