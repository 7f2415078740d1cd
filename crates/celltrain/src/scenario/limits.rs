//! Checks that keep an accepted scenario from harming the machine it runs on: names that
//! become file names, paths that loop, sizes beyond what a run can hold. Each refuses with a
//! one-line error at the key, before anything runs.

use super::{ScenarioError, TableView};
use crate::file_names::{escape_for_display, file_name_problem};

/// A node named in `[record] pcap` or `pcap_links` becomes (part of) a capture's file name:
/// it must stay a plain name inside `--out`.
pub(super) fn capture_name(v: &TableView<'_>, key: &str, name: &str) -> Result<(), ScenarioError> {
    match file_name_problem(name) {
        None => Ok(()),
        Some(why) => Err(v.key_error(
            key,
            format!("'{}' cannot name a capture file: it {why} (rename the node)", escape_for_display(name)),
        )),
    }
}

/// A path that visits a node twice would give its VC two next hops there (its cells split
/// between them): refused at the `path` key.
pub(super) fn path_visits_each_node_once(v: &TableView<'_>, path: &[String]) -> Result<(), ScenarioError> {
    let mut seen = std::collections::HashSet::with_capacity(path.len());
    for name in path {
        if !seen.insert(name.as_str()) {
            return Err(v.key_error("path", format!("visits node '{}' twice", escape_for_display(name))));
        }
    }
    Ok(())
}
