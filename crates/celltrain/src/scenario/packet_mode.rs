//! What packet mode does not use. In packet mode a switch is a drop-tail FIFO IP router: its
//! cell-level keys (EPD and the other discard policies, per-VC queueing, reserved pools, CLP
//! thresholds, schedulers, CAC, ABR explicit rate) have no effect. They are kept (a scenario
//! can switch between modes with one `--set`) but each gives a warning naming its file, line
//! and key, so that nobody reads a packet-mode result as one of EPD.

use super::{expand, Loaded, ScenarioError, TableView};

/// Switch keys packet mode uses.
const USED: &[&str] = &["name", "names", "count", "buffer", "buffer_bytes", "buffer_packets"];
/// Keys whose value is what packet mode does anyway.
const SAME_AS_PACKET: &[(&str, &str)] = &[("discard", "tail-drop"), ("queueing", "fifo"), ("explicit_rate", "none")];

/// One warning per switch key packet mode ignores (the first copy of a repeated switch only).
pub(super) fn ignored_switch_keys(root: &TableView<'_>, loaded: &Loaded) -> Result<Vec<String>, ScenarioError> {
    let mut warnings = Vec::new();
    for sw in root.array_of_tables("switch")? {
        let Some(first) = expand(&sw)?.into_iter().next() else { continue };
        let v = first.view(&loaded.source);
        for (key, node) in v.entries() {
            let name = key.name.as_str();
            let harmless = SAME_AS_PACKET.iter().any(|&(k, same)| k == name && node.as_str().is_ok_and(|s| s == same));
            if !USED.contains(&name) && !harmless {
                let message = "ignored in packet mode (a switch is a drop-tail FIFO IP router there)";
                warnings.push(v.key_error(name, message).to_string());
            }
        }
    }
    Ok(warnings)
}
