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
