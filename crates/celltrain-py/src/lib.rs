//! `celltrain._celltrain`: the compiled half of the Python package. Thin on purpose: the
//! command line and the scenario compiler live in Rust; Python gets JSON back and turns it
//! into dicts and DataFrames.

mod cac;
mod cancel;
mod guard;
mod interrupt;

use celltrain::metrics::Summary;
use celltrain::report;
use celltrain::scenario::{self, ScenarioError as InvalidScenario};
use celltrain_atm::port::buffer::DropReason;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::path::PathBuf;
use std::time::Instant;

// Named and placed as Python sees it (`celltrain._celltrain.ScenarioError`), so that an error
// raised in a worker process pickles back to the caller as itself.
pyo3::create_exception!(celltrain._celltrain, ScenarioError, PyValueError, "A scenario is invalid.");

fn to_py_err(e: &InvalidScenario) -> PyErr {
    ScenarioError::new_err((e.to_string(), e.file.clone(), e.line, e.key.clone(), e.message.clone()))
}

/// Why a run could not be made: its scenario, or the captures' directory; or Ctrl-C stopped it.
enum RunError {
    Scenario(InvalidScenario),
    Capture(String),
    /// A panic of the simulator (see `guard`).
    Panic(String),
    Interrupted(PyErr),
}

impl From<InvalidScenario> for RunError {
    fn from(e: InvalidScenario) -> Self {
        RunError::Scenario(e)
    }
}

impl From<RunError> for PyErr {
    fn from(e: RunError) -> PyErr {
        match e {
            RunError::Scenario(e) => to_py_err(&e),
            RunError::Capture(message) => PyOSError::new_err(message),
            RunError::Panic(message) => PyRuntimeError::new_err(message),
            RunError::Interrupted(e) => e,
        }
    }
}

/// Compiles and runs a scenario (path, built-in name, or TOML text when `is_text`); returns
/// its summary and the recorded time series as CSV text, if any. With `pcap_dir`, the pcap
/// captures the scenario's `[record]` table asks for are written there (as `run --out`
/// does). `reference`: no fast path, every cell by events. `main_thread`: the caller is on
/// Python's main thread, where Ctrl-C is looked for (see `interrupt`). The network stays inside
/// (it is not `Send`, and runs with the interpreter released).
fn compile_and_run(
    scenario: String,
    overrides: &[(String, String)],
    seed: Option<u64>,
    is_text: bool,
    (pcap_dir, reference, main_thread): (Option<PathBuf>, bool, bool),
    progress: Option<Py<PyAny>>,
    cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
) -> Result<RunTexts, RunError> {
    let compiled = if is_text {
        scenario::compile_source(scenario::Source::new("<string>", scenario), overrides, seed)
    } else {
        scenario::compile(&scenario, overrides, seed)
    }?;
    let started = Instant::now();
    let scenario::Compiled { mut network, meta } = compiled;
    if reference {
        network.set_options(celltrain::network::SimOptions::reference());
    }
    let capture_error = |dir: &PathBuf, e: std::io::Error| RunError::Capture(format!("{}: {e}", dir.display()));
    if let Some(dir) = &pcap_dir {
        network.attach_output(dir).map_err(|e| capture_error(dir, e))?;
    }
    let mut interruption = interrupt::Interruption::new(main_thread, progress);
    interruption.cancel = cancel;
    let finished = network.run_interruptible(&mut |p| interruption.check(p));
    // The loop ignores the verdict of its last progress call (the run is complete by then); an
    // exception that call raised must still reach the caller, as any earlier one would.
    if !finished || interruption.raised.is_some() {
        // Nothing half-finished: the cut-off captures go, and no result is made.
        network.abandon_output();
        let e = interruption.raised.unwrap_or_else(|| pyo3::exceptions::PyKeyboardInterrupt::new_err("interrupted"));
        return Err(RunError::Interrupted(e));
    }
    if let Some(dir) = &pcap_dir {
        network.finish_output().map_err(|e| capture_error(dir, e))?;
    }
    let summary = Summary::from_network(&network, meta, started.elapsed().as_secs_f64());
    let series = network.recorder().series.as_ref().map(report::series_csv);
    Ok((summary, series, network.changes_csv()))
}

/// A run's summary, its sampled series and its change records (`[record] on_change`), as CSV.
type RunTexts = (Summary, Option<String>, Option<String>);

/// [`compile_and_run`], with a panic turned into [`RunError::Panic`] naming the scenario.
fn compile_and_run_guarded(
    scenario: String,
    overrides: &[(String, String)],
    seed: Option<u64>,
    is_text: bool,
    output: (Option<PathBuf>, bool, bool),
    progress: Option<Py<PyAny>>,
    cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
) -> Result<RunTexts, RunError> {
    let label = if is_text { "<string>".to_string() } else { scenario.clone() };
    guard::catch_panic(&label, move || compile_and_run(scenario, overrides, seed, is_text, output, progress, cancel))
        .map_err(RunError::Panic)?
}

/// Runs the `celltrain` command line with `argv` (program name first); returns the exit code.
#[pyfunction]
fn main(py: Python<'_>, argv: Vec<String>) -> i32 {
    // A panic prints one `error:` line and exits 1, as any other failure of a command.
    py.detach(|| guard::catch_panic("celltrain", || celltrain_cli::main_with_args(argv))).unwrap_or_else(|message| {
        eprintln!("error: {message}");
        1
    })
}

/// Runs a scenario (path, built-in name, or TOML text when `is_text`) and returns its
/// summary as JSON. The interpreter is released while the simulation runs. With `cancel` (a
/// `RunCancel`), the run stops with KeyboardInterrupt once the token is cancelled.
#[pyfunction]
#[pyo3(signature = (scenario, overrides, seed=None, is_text=false, cancel=None))]
fn run_json(
    py: Python<'_>,
    scenario: String,
    overrides: Vec<(String, String)>,
    seed: Option<u64>,
    is_text: bool,
    cancel: Option<PyRef<'_, cancel::RunCancel>>,
) -> PyResult<String> {
    let main_thread = interrupt::on_main_thread(py);
    let cancel = cancel::flag_of(cancel)?;
    let _running = interrupt::RunGuard::new(py);
    let (summary, _, _) = py.detach(move || {
        compile_and_run_guarded(scenario, &overrides, seed, is_text, (None, false, main_thread), None, cancel)
    })?;
    Ok(serde_json::to_string(&summary).expect("summary serialises"))
}

/// As `run_json`, and also the time series the scenario's `[record]` table asked for, as CSV
/// text (None when nothing was sampled), and its change records (`on_change`; None when not
/// asked for); with `pcap_dir`, the captures it asked for are
/// written there (OSError if they cannot be); with `reference`, no fast path is taken (every
/// cell by events: the same results, more events); `progress(fraction, simulated_seconds)`
/// is called every 200 ms of wall time and at the end (an exception it raises stops the run).
#[pyfunction]
#[pyo3(signature = (scenario, overrides, seed=None, is_text=false, pcap_dir=None, reference=false, progress=None, cancel=None))]
#[allow(clippy::too_many_arguments)]
fn run_with_series(
    py: Python<'_>,
    scenario: String,
    overrides: Vec<(String, String)>,
    seed: Option<u64>,
    is_text: bool,
    pcap_dir: Option<PathBuf>,
    reference: bool,
    progress: Option<Py<PyAny>>,
    cancel: Option<PyRef<'_, cancel::RunCancel>>,
) -> PyResult<(String, Option<String>, Option<String>)> {
    let main_thread = interrupt::on_main_thread(py);
    let cancel = cancel::flag_of(cancel)?;
    let _running = interrupt::RunGuard::new(py);
    let (summary, series, changes) = py.detach(move || {
        compile_and_run_guarded(
            scenario,
            &overrides,
            seed,
            is_text,
            (pcap_dir, reference, main_thread),
            progress,
            cancel,
        )
    })?;
    Ok((serde_json::to_string(&summary).expect("summary serialises"), series, changes))
}

/// The result files of a run (what `celltrain run --out` writes) from its summary JSON (as
/// `run_json` returns it), its time series CSV and its change records (`timeseries_changes.csv`):
/// `(file name, text)` pairs in writing order,
/// `summary.json` last. Raises ValueError if the JSON is not a summary.
#[pyfunction]
#[pyo3(signature = (summary_json, series_csv=None, changes_csv=None))]
fn result_files(
    summary_json: &str,
    series_csv: Option<String>,
    changes_csv: Option<String>,
) -> PyResult<Vec<(&'static str, String)>> {
    let files = report::render_json(summary_json, series_csv)
        .map_err(|e| PyValueError::new_err(format!("not a celltrain summary: {e}")))?;
    let files = report::with_changes(files, changes_csv);
    Ok(files.into_iter().map(|f| (f.name, f.text)).collect())
}

/// Validates a scenario; raises `ScenarioError` if it is invalid; returns its warnings
/// (`file:line: key: message`, e.g. switch keys packet mode ignores).
#[pyfunction]
#[pyo3(signature = (scenario, overrides, seed=None, is_text=false))]
fn check(
    scenario: String,
    overrides: Vec<(String, String)>,
    seed: Option<u64>,
    is_text: bool,
) -> PyResult<Vec<String>> {
    let label = if is_text { "<string>".to_string() } else { scenario.clone() };
    let compiled = guard::catch_panic(&label, || {
        if is_text {
            scenario::compile_source(scenario::Source::new("<string>", scenario), &overrides, seed)
                .map(|c| c.meta.warnings)
        } else {
            scenario::compile(&scenario, &overrides, seed).map(|c| c.meta.warnings)
        }
    })
    .map_err(PyRuntimeError::new_err)?;
    compiled.map_err(|e| to_py_err(&e))
}

/// BKD97's packet-train model (`celltrain gcra train`) for PDUs spaced by `gap` (the idle
/// time I_p) or by `inter_pdu` (the host's inter-PDU time, start to start), as a dict: `cells_per_pdu`,
/// `t_pcr_s`, `t_scr_s`, `tau_scr_s`, `idle_s`, `train_pdus` (eq. 2; None when unbounded),
/// `train_min_gap_s` (eq. 2 reading; None when one PDU exceeds the MBS), `train_min_spacing_s`
/// (eq. 3 as written) and `train_recovery_s`. Raises ValueError on bad arguments.
#[pyfunction]
#[pyo3(signature = (scr, mbs, gap=None, mtu=None, cells_per_pdu=None, pcr="155.52 Mbit/s", inter_pdu=None))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments
fn gcra_train<'py>(
    py: Python<'py>,
    scr: &str,
    mbs: u32,
    gap: Option<&str>,
    mtu: Option<u64>,
    cells_per_pdu: Option<u64>,
    pcr: &str,
    inter_pdu: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    use celltrain_atm::contract::Bound as Count;
    use celltrain_cli::{PduSize, PduSpacing};
    let size = match (mtu, cells_per_pdu) {
        (Some(m), None) => PduSize::Mtu(m),
        (None, Some(c)) => PduSize::Cells(c),
        _ => return Err(PyValueError::new_err("give exactly one of mtu and cells_per_pdu")),
    };
    let spacing = match (gap, inter_pdu) {
        (Some(g), None) => PduSpacing::Idle(g),
        (None, Some(t)) => PduSpacing::InterPdu(t),
        (None, None) => PduSpacing::Idle("0 s"),
        _ => return Err(PyValueError::new_err("give at most one of gap and inter_pdu")),
    };
    let r = celltrain_cli::train_report(pcr, scr, mbs, size, spacing).map_err(PyValueError::new_err)?;
    let d = PyDict::new(py);
    d.set_item("cells_per_pdu", r.model.cells_per_pdu())?;
    d.set_item("t_pcr_s", r.model.t_pcr().as_duration().as_secs_f64())?;
    d.set_item("t_scr_s", r.model.t_scr().as_duration().as_secs_f64())?;
    d.set_item("tau_scr_s", r.model.tau_scr().as_secs_f64())?;
    d.set_item("idle_s", r.idle.as_secs_f64())?;
    d.set_item(
        "train_pdus",
        match r.max_pdus {
            Count::Finite(n) => Some(n),
            Count::Unbounded => None,
        },
    )?;
    d.set_item("train_min_gap_s", r.min_idle_infinite.map(|t| t.as_secs_f64()))?;
    d.set_item("train_min_spacing_s", r.min_spacing_eq3.map(|t| t.as_secs_f64()))?;
    d.set_item("train_recovery_s", r.recovery_idle.as_secs_f64())?;
    Ok(d)
}

/// The built-in scenarios as (name, paper, title).
#[pyfunction]
fn scenarios() -> Vec<(String, String, String)> {
    celltrain::builtin::all().iter().map(|b| (b.name.to_string(), b.source.to_string(), b.title.to_string())).collect()
}

/// The reproduced papers: `(id, number, letter, authors, year, title)`, e.g. `("AD97",
/// "002", "T", "M. Aron, P. Druschel", "1997", "End-to-End TCP …")`.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn papers() -> Vec<(&'static str, &'static str, &'static str, &'static str, &'static str, &'static str)> {
    celltrain::papers::PAPERS.iter().map(|p| (p.id, p.number, p.letter, p.authors, p.year, p.title)).collect()
}

#[pymodule]
fn _celltrain(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    m.add("__version__", celltrain::VERSION)?;
    // The reasons a port drops cells, in the order of their `dropped_<reason>` columns.
    m.add("DROP_REASONS", PyTuple::new(m.py(), DropReason::ALL.map(DropReason::name))?)?;
    m.add_function(wrap_pyfunction!(main, m)?)?;
    m.add_function(wrap_pyfunction!(run_json, m)?)?;
    m.add_function(wrap_pyfunction!(run_with_series, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(interrupt::cancel_runs, m)?)?;
    m.add_class::<cancel::RunCancel>()?;
    m.add_function(wrap_pyfunction!(result_files, m)?)?;
    m.add_function(wrap_pyfunction!(scenarios, m)?)?;
    m.add_function(wrap_pyfunction!(papers, m)?)?;
    m.add_function(wrap_pyfunction!(gcra_train, m)?)?;
    cac::register(m)?;
    Ok(())
}
