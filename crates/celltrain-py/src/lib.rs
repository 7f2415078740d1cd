//! `celltrain._celltrain`: the compiled half of the Python package. Thin on purpose: the
//! command line and the scenario compiler live in Rust; Python gets JSON back and turns it
//! into dicts and DataFrames.

use celltrain::metrics::Summary;
use celltrain::scenario::{self, ScenarioError};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::time::Instant;

pyo3::create_exception!(_celltrain, ScenarioErrorPy, PyValueError, "A scenario is invalid.");

fn to_py_err(e: &ScenarioError) -> PyErr {
    ScenarioErrorPy::new_err((e.to_string(), e.file.clone(), e.line, e.key.clone(), e.message.clone()))
}

/// Compiles and runs a scenario (path, built-in name, or TOML text when `is_text`); returns
/// its summary and the recorded time series as CSV text, if any. The network stays inside
/// (it is not `Send`, and runs with the interpreter released).
fn compile_and_run(
    scenario: String,
    overrides: &[(String, String)],
    seed: Option<u64>,
    is_text: bool,
) -> Result<(Summary, Option<String>), ScenarioError> {
    let compiled = if is_text {
        scenario::compile_source(scenario::Source::new("<string>", scenario), overrides, seed)
    } else {
        scenario::compile(&scenario, overrides, seed)
    }?;
    let started = Instant::now();
    let scenario::Compiled { mut network, meta } = compiled;
    network.run(&mut |_| {});
    let summary = Summary::from_network(&network, meta, started.elapsed().as_secs_f64());
    let series = network.recorder.series.as_ref().map(|s| {
        let mut csv = Vec::new();
        s.write_csv(&mut csv).expect("writing to memory");
        String::from_utf8(csv).expect("CSV is UTF-8")
    });
    Ok((summary, series))
}

/// Runs the `celltrain` command line with `argv` (program name first); returns the exit code.
#[pyfunction]
fn main(py: Python<'_>, argv: Vec<String>) -> i32 {
    py.detach(|| celltrain_cli::main_with_args(argv))
}

/// Runs a scenario (path, built-in name, or TOML text when `is_text`) and returns its
/// summary as JSON. The interpreter is released while the simulation runs.
#[pyfunction]
#[pyo3(signature = (scenario, overrides, seed=None, is_text=false))]
fn run_json(
    py: Python<'_>,
    scenario: String,
    overrides: Vec<(String, String)>,
    seed: Option<u64>,
    is_text: bool,
) -> PyResult<String> {
    let result = py.detach(move || compile_and_run(scenario, &overrides, seed, is_text));
    let (summary, _) = result.map_err(|e| to_py_err(&e))?;
    Ok(serde_json::to_string(&summary).expect("summary serialises"))
}

/// As `run_json`, and also the time series the scenario's `[record]` table asked for, as CSV
/// text (None when nothing was sampled).
#[pyfunction]
#[pyo3(signature = (scenario, overrides, seed=None, is_text=false))]
fn run_with_series(
    py: Python<'_>,
    scenario: String,
    overrides: Vec<(String, String)>,
    seed: Option<u64>,
    is_text: bool,
) -> PyResult<(String, Option<String>)> {
    let result = py.detach(move || compile_and_run(scenario, &overrides, seed, is_text));
    let (summary, series) = result.map_err(|e| to_py_err(&e))?;
    Ok((serde_json::to_string(&summary).expect("summary serialises"), series))
}

/// Validates a scenario; raises `ScenarioError` if it is invalid.
#[pyfunction]
#[pyo3(signature = (scenario, overrides, seed=None, is_text=false))]
fn check(scenario: String, overrides: Vec<(String, String)>, seed: Option<u64>, is_text: bool) -> PyResult<()> {
    let compiled = if is_text {
        scenario::compile_source(scenario::Source::new("<string>", scenario), &overrides, seed)
    } else {
        scenario::compile(&scenario, &overrides, seed)
    };
    compiled.map(|_| ()).map_err(|e| to_py_err(&e))
}

/// The built-in scenarios as (name, paper, title).
#[pyfunction]
fn scenarios() -> Vec<(String, String, String)> {
    celltrain::builtin::all().iter().map(|b| (b.name.to_string(), b.source.to_string(), b.title.to_string())).collect()
}

#[pymodule]
fn _celltrain(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ScenarioError", m.py().get_type::<ScenarioErrorPy>())?;
    m.add("__version__", celltrain::VERSION)?;
    m.add_function(wrap_pyfunction!(main, m)?)?;
    m.add_function(wrap_pyfunction!(run_json, m)?)?;
    m.add_function(wrap_pyfunction!(run_with_series, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(scenarios, m)?)?;
    Ok(())
}
