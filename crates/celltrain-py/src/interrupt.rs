//! Ctrl-C for runs made from Python. A run releases the interpreter, so Python's own SIGINT
//! handler cannot act until it returns; instead the event loop's progress callback (every few
//! milliseconds of wall time) asks the interpreter for pending signals when the run is on the
//! main thread (a terminal, Jupyter's "interrupt kernel"), which raises KeyboardInterrupt. A
//! run on another thread cannot see signals (Python handles them on the main thread only): it
//! stops when the interpreter shuts down (`cancel_runs`, called by the package as threads are
//! joined at exit), so that Ctrl-C ends the program instead of waiting for the run.

use celltrain::network::Progress;
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Set once the interpreter is shutting down: every run still going stops.
static CANCEL_ALL: AtomicBool = AtomicBool::new(false);

/// How often a main-thread run asks the interpreter for signals.
const SIGNAL_CHECK_EVERY: Duration = Duration::from_millis(5);

/// Runs in progress, counted while their thread holds the interpreter (see [`RunGuard`]).
static ACTIVE: AtomicUsize = AtomicUsize::new(0);

/// The longest the interpreter's exit waits for runs to stop.
const STOP_WAIT: Duration = Duration::from_secs(2);

/// Stops every run in progress (and every later one) with KeyboardInterrupt, and waits (with
/// the interpreter released) until they have stopped: a thread the exiting interpreter finds
/// still inside a run would be ended there, which aborts the process.
#[pyfunction]
pub fn cancel_runs(py: Python<'_>) {
    CANCEL_ALL.store(true, Ordering::SeqCst);
    py.detach(|| {
        let started = Instant::now();
        while ACTIVE.load(Ordering::SeqCst) > 0 && started.elapsed() < STOP_WAIT {
            std::thread::sleep(Duration::from_millis(1));
        }
    });
}

/// Counts a run from before it releases the interpreter until it holds it again: made and
/// dropped with the interpreter held.
pub struct RunGuard(());

impl RunGuard {
    pub fn new(_py: Python<'_>) -> Self {
        ACTIVE.fetch_add(1, Ordering::SeqCst);
        RunGuard(())
    }
}

impl Drop for RunGuard {
    fn drop(&mut self) {
        ACTIVE.fetch_sub(1, Ordering::SeqCst);
    }
}

/// True when the calling Python thread is the main thread (the one signals are handled on).
pub fn on_main_thread(py: Python<'_>) -> bool {
    let check = || -> PyResult<bool> {
        let threading = py.import("threading")?;
        let current = threading.call_method0("current_thread")?;
        let main = threading.call_method0("main_thread")?;
        Ok(current.is(&main))
    };
    check().unwrap_or(false)
}

/// How often a Python progress callback is called (and once at the end).
const PROGRESS_EVERY: Duration = Duration::from_millis(200);

/// The interruption check of one run, and its Python progress callback: a progress
/// callback's verdict, and why it stopped.
pub struct Interruption {
    main_thread: bool,
    last_check: Instant,
    /// `progress(fraction, simulated_seconds)`, called every [`PROGRESS_EVERY`].
    progress: Option<Py<PyAny>>,
    last_progress: Instant,
    /// The exception to raise when the run was stopped.
    pub raised: Option<PyErr>,
    /// Set by the run's `RunCancel` token (see `cancel`): the run stops.
    pub cancel: Option<std::sync::Arc<AtomicBool>>,
}

impl Interruption {
    pub fn new(main_thread: bool, progress: Option<Py<PyAny>>) -> Self {
        let now = Instant::now();
        Interruption { main_thread, last_check: now, progress, last_progress: now, raised: None, cancel: None }
    }

    /// Called with the run's progress: Break when the run must stop.
    pub fn check(&mut self, p: Progress) -> ControlFlow<()> {
        if CANCEL_ALL.load(Ordering::Relaxed) {
            self.raised = Some(PyKeyboardInterrupt::new_err("celltrain run cancelled: the interpreter is exiting"));
            return ControlFlow::Break(());
        }
        if self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            self.raised = Some(PyKeyboardInterrupt::new_err("celltrain run cancelled"));
            return ControlFlow::Break(());
        }
        let report = self.progress.is_some() && (self.last_progress.elapsed() >= PROGRESS_EVERY || p.now >= p.end);
        let signals = self.main_thread && self.last_check.elapsed() >= SIGNAL_CHECK_EVERY;
        if !report && !signals {
            return ControlFlow::Continue(());
        }
        let outcome = Python::attach(|py| -> PyResult<()> {
            if signals {
                self.last_check = Instant::now();
                py.check_signals()?;
            }
            if let (true, Some(callback)) = (report, &self.progress) {
                self.last_progress = Instant::now();
                callback.call1(py, (p.fraction(), p.now.as_secs_f64()))?;
            }
            Ok(())
        });
        match outcome {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                // Ctrl-C, or the callback raised: the run stops with that exception.
                self.raised = Some(e);
                ControlFlow::Break(())
            }
        }
    }
}
