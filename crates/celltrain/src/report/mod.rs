//! The results of a run as files: `summary.json`, the CSV tables and the time series.
//!
//! This is the one place that decides what a result directory holds and how each file is
//! formatted; the command line writes it and the Python package gets the same texts through
//! its binding, so the two cannot drift apart. Apart from [`crate::trace`]'s captures, it is
//! the only part of the library that writes files.

mod files;
mod out_dir;
mod tables;

#[cfg(test)]
mod tests;

pub use files::{
    render, render_json, series_csv, with_changes, write_files, write_results, ResultFile, SERIES_FILE, SUMMARY_FILE,
};
pub use out_dir::{OutDir, MANIFEST_FILE};
pub use tables::{drop_column, flows_csv, ports_csv, vcs_csv, FLOWS_FILE, PORTS_FILE, VCS_FILE};
