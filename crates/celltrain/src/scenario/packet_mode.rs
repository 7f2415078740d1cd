//! What packet mode does not use. In packet mode a switch is a drop-tail FIFO IP router: its
//! cell-level keys (EPD and the other discard policies, per-VC queueing, reserved pools, CLP
//! thresholds, schedulers, CAC, ABR explicit rate) have no effect. They are kept (a scenario
//! can switch between modes with one `--set`) but each gives a warning naming its file, line
//! and key, so that nobody reads a packet-mode result as one of EPD. The one exception is
//! `queueing = "priority"`: the router's ports then serve packets by strict priority of their
//! flow's service category (`crate::network::packet_priority`).

use super::{expand, Loaded, ScenarioError, TableView};
use crate::network::{NetworkBuilder, PacketLimits};
use celltrain_atm::abr::{ExplicitRateAlgorithm, NoExplicitRate};
use celltrain_atm::port::buffer::{AcceptancePolicy, TailDrop};
use celltrain_core::ids::NodeId;

/// Switch keys packet mode uses (and the packet limits', `PacketLimits::KEYS`).
const USED: &[&str] = &["name", "names", "count", "buffer"];
/// Keys whose value is what packet mode does anyway.
const SAME_AS_PACKET: &[(&str, &str)] = &[
    ("discard", <TailDrop as AcceptancePolicy>::NAME),
    ("queueing", "fifo"),
    ("explicit_rate", <NoExplicitRate as ExplicitRateAlgorithm>::NAMES[0]),
];
/// Keys packet mode honours with these values only (others are warned about).
const HONOURED: &[(&str, &str)] = &[("queueing", "priority")];

/// One warning per switch key packet mode ignores (the first copy of a repeated switch only).
pub(super) fn ignored_switch_keys(root: &TableView<'_>, loaded: &Loaded) -> Result<Vec<String>, ScenarioError> {
    let mut warnings = Vec::new();
    for sw in root.array_of_tables("switch")? {
        let Some(first) = expand(&sw)?.into_iter().next() else { continue };
        let v = first.view(&loaded.source);
        for (key, node) in v.entries() {
            let name = key.name.as_str();
            let harmless = SAME_AS_PACKET
                .iter()
                .chain(HONOURED)
                .any(|&(k, same)| k == name && node.as_str().is_ok_and(|s| s == same));
            if !USED.contains(&name) && !PacketLimits::KEYS.contains(&name) && !harmless {
                let message = "ignored in packet mode (a switch is a drop-tail FIFO IP router there)";
                warnings.push(v.key_error(name, message).to_string());
            }
        }
    }
    Ok(warnings)
}

/// A switch's `queueing = "priority"` (the keyword is checked with the switch's port keys):
/// its packet ports, which exist in packet mode, serve by strict priority of category.
pub(super) fn packet_priority(v: &TableView<'_>, b: &mut NetworkBuilder, node: NodeId) -> Result<(), ScenarioError> {
    if v.opt_str("queueing")? == Some("priority") {
        b.set_packet_priority(node);
    }
    Ok(())
}

/// A router's `queueing`: `fifo` (default, one drop-tail FIFO per packet port) or `priority`
/// (strict priority of category over the shared buffer), in either mode.
pub(super) fn router_queueing(v: &TableView<'_>, b: &mut NetworkBuilder, node: NodeId) -> Result<(), ScenarioError> {
    if v.opt_keyword("queueing", &["fifo", "priority"])? == Some("priority") {
        b.set_packet_priority(node);
    }
    Ok(())
}
