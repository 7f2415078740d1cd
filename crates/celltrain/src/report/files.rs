//! The set of files a run's result directory holds, and writing them.
//!
//! Each file is written to a temporary name in the directory and renamed into place, so a
//! reader never sees a partial file; `summary.json` comes last, so a present `summary.json`
//! means a complete directory.

use super::tables::{flows_csv, ports_csv, vcs_csv, FLOWS_FILE, PORTS_FILE, VCS_FILE};
use crate::metrics::Summary;
use crate::trace::TimeSeries;
use std::fs;
use std::io;
use std::path::Path;

pub const SUMMARY_FILE: &str = "summary.json";
pub const SERIES_FILE: &str = "timeseries.csv";

/// One result file: its name in the result directory and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultFile {
    pub name: &'static str,
    pub text: String,
}

/// The result files of a run, in the order they are written: the time series (when one was
/// recorded), `flows.csv`, `vcs.csv`, `ports.csv`, and `summary.json` last.
pub fn render(summary: &Summary, series_csv: Option<String>) -> Vec<ResultFile> {
    let mut files = Vec::with_capacity(5);
    if let Some(text) = series_csv {
        files.push(ResultFile { name: SERIES_FILE, text });
    }
    files.push(ResultFile { name: FLOWS_FILE, text: flows_csv(&summary.flows) });
    files.push(ResultFile { name: VCS_FILE, text: vcs_csv(&summary.vcs) });
    files.push(ResultFile { name: PORTS_FILE, text: ports_csv(&summary.ports) });
    let json = serde_json::to_string_pretty(summary).expect("a summary serialises") + "\n";
    files.push(ResultFile { name: SUMMARY_FILE, text: json });
    files
}

/// As [`render`], for a summary given as the JSON it serialises to (what the Python package
/// holds). Numbers read back as the very values written (serde_json's `float_roundtrip`), so
/// the files are those of the summary the JSON came from.
pub fn render_json(summary_json: &str, series_csv: Option<String>) -> Result<Vec<ResultFile>, serde_json::Error> {
    let summary: Summary = serde_json::from_str(summary_json)?;
    Ok(render(&summary, series_csv))
}

/// Adds the change records (`[record] on_change`) to a run's result files, before
/// `summary.json`, which stays last.
pub fn with_changes(mut files: Vec<ResultFile>, changes_csv: Option<String>) -> Vec<ResultFile> {
    if let Some(text) = changes_csv {
        let at = files.len().saturating_sub(1);
        files.insert(at, ResultFile { name: crate::network::CHANGES_FILE, text });
    }
    files
}

/// The text of `timeseries.csv`.
pub fn series_csv(series: &TimeSeries) -> String {
    let mut text = Vec::new();
    series.write_csv(&mut text).expect("writing to memory cannot fail");
    String::from_utf8(text).expect("the time series is UTF-8")
}

fn write_atomic(path: &Path, contents: &str) -> io::Result<()> {
    let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
    fs::write(&tmp, contents)?;
    fs::rename(&tmp, path)
}

/// Writes `files` into `dir` (created if need be), each atomically, in their order.
pub fn write_files(dir: &Path, files: &[ResultFile]) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    files.iter().try_for_each(|f| write_atomic(&dir.join(f.name), &f.text))
}

/// Writes the result files of a run (see [`render`]) into `dir`.
pub fn write_results(dir: &Path, summary: &Summary, series: Option<&TimeSeries>) -> io::Result<()> {
    write_files(dir, &render(summary, series.map(series_csv)))
}
