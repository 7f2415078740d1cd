//! A run's output directory (`--out DIR`), written so that runs never mix: everything a run
//! writes — captures during the run, result files at its end — goes to a fresh staging
//! directory inside DIR, and only a complete set is moved into place. Until then DIR holds the
//! previous run untouched; while the set is moved there is no `summary.json`; so a present
//! `summary.json` always means one complete run.
//!
//! DIR is never removed or replaced as a whole (it may be `.` or hold the user's own files):
//! only the previous run's files, as its manifest lists them, and the result files' names.

use super::files::{ResultFile, SERIES_FILE, SUMMARY_FILE};
use super::tables::{FLOWS_FILE, PORTS_FILE, VCS_FILE};
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Names of the files the last complete run wrote into DIR, one a line.
pub const MANIFEST_FILE: &str = ".celltrain-files";
const STAGING_PREFIX: &str = ".celltrain-staging-";

/// An output directory being written by one run.
pub struct OutDir {
    dir: PathBuf,
    staging: PathBuf,
    committed: bool,
}

impl OutDir {
    /// Creates `dir` if need be, removes staging directories left by runs that died, and makes
    /// this run's staging directory: a directory that cannot be written is found now, before
    /// a long run starts.
    pub fn prepare(dir: &Path) -> io::Result<OutDir> {
        fs::create_dir_all(dir)?;
        remove_dead_staging(dir);
        let staging = dir.join(format!("{STAGING_PREFIX}{}", std::process::id()));
        if staging.exists() {
            fs::remove_dir_all(&staging)?;
        }
        fs::create_dir(&staging)?;
        // Creating a directory can succeed where creating a file fails (a quota on the number
        // of files). (An empty probe tells nothing of the disk's room: it is not synced.)
        let out = OutDir { dir: dir.to_path_buf(), staging, committed: false };
        File::create(out.staging.join(".probe"))?;
        fs::remove_file(out.staging.join(".probe"))?;
        Ok(out)
    }

    /// Where the run writes its captures until [`commit`](Self::commit).
    pub fn staging(&self) -> &Path {
        &self.staging
    }

    /// Writes `files` beside the captures, makes everything durable, then replaces the
    /// previous run's files in DIR with this run's: `summary.json` is removed first and moved
    /// in last. On an error DIR keeps the previous run (or, past the first removal, no
    /// `summary.json`), and the staging directory is removed.
    pub fn commit(mut self, files: &[ResultFile]) -> io::Result<()> {
        for f in files {
            write_synced(&self.staging.join(f.name), f.text.as_bytes())?;
        }
        let mut names = Vec::new();
        for entry in fs::read_dir(&self.staging)? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.file_type()?.is_file() {
                // (The result files were synced as they were written; the captures were not.)
                if !files.iter().any(|f| f.name == name) {
                    File::open(entry.path())?.sync_all()?;
                }
                names.push(name);
            }
        }
        names.sort();
        // Summary last, so its presence marks the end of the move.
        names.sort_by_key(|n| n == SUMMARY_FILE);
        remove_if_present(&self.dir.join(SUMMARY_FILE))?;
        for old in self.previous_files() {
            if !names.contains(&old) {
                remove_if_present(&self.dir.join(&old))?;
            }
        }
        let manifest: String = names.iter().map(|n| format!("{n}\n")).collect();
        write_synced(&self.staging.join(MANIFEST_FILE), manifest.as_bytes())?;
        fs::rename(self.staging.join(MANIFEST_FILE), self.dir.join(MANIFEST_FILE))?;
        for name in &names {
            fs::rename(self.staging.join(name), self.dir.join(name))?;
        }
        sync_dir(&self.dir);
        self.committed = true;
        fs::remove_dir_all(&self.staging)
    }

    /// The files the previous run left: those its manifest lists (plain names only) and the
    /// result files' names (a run from before manifests).
    fn previous_files(&self) -> Vec<String> {
        let mut out: Vec<String> = [SERIES_FILE, FLOWS_FILE, VCS_FILE, PORTS_FILE, crate::network::CHANGES_FILE]
            .iter()
            .map(|s| s.to_string())
            .collect();
        if let Ok(text) = fs::read_to_string(self.dir.join(MANIFEST_FILE)) {
            let plain = |n: &&str| crate::file_names::file_name_problem(n).is_none() && !n.starts_with('.');
            out.extend(text.lines().filter(plain).map(str::to_string));
        }
        out
    }
}

impl Drop for OutDir {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.staging);
        }
    }
}

fn write_synced(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = File::create(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}

fn remove_if_present(path: &Path) -> io::Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Makes the renames in `dir` durable (best effort: not every system can sync a directory).
fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Removes the staging directories of runs whose process is gone (a SIGKILL, a power cut).
/// Only where a process's liveness can be told (`/proc`); elsewhere they stay.
fn remove_dead_staging(dir: &Path) {
    let proc = Path::new("/proc/self");
    if !proc.exists() {
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name.strip_prefix(STAGING_PREFIX).and_then(|p| p.parse::<u32>().ok()) else { continue };
        if pid != std::process::id() && !Path::new("/proc").join(pid.to_string()).exists() {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}
