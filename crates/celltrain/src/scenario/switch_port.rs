//! A `[[switch]]`'s output-port configuration: buffer, reserved pools, queueing, the CLP = 1
//! and EFCI thresholds, the discard policy, whose own keys its file reads
//! (`celltrain_atm::port::buffer`), and the scheduler.

use super::model::positive_u32;
use super::{ScenarioError, TableView};
use crate::network::SchedulerKind;
use celltrain_atm::aal5;
use celltrain_atm::port::buffer::{
    AcceptancePolicy, DiscardConfig, DiscardPolicy, PortShape, TailDrop, DISCARD_NAMES, DISCARD_POLICIES,
};
use celltrain_atm::port::sched::{
    CellScheduler, PriorityRoundRobin, VirtualSpacing, WeightedRoundRobin, Wf2qPlus, SCHEDULER_NAMES,
};
use celltrain_atm::port::PortConfig;
use celltrain_atm::ServiceCategory;

/// Default switch output buffer (MSc98: 8192 cells).
const DEFAULT_BUFFER_CELLS: u64 = 8192;
/// Default IP MTU for EPD thresholds written in MTUs (Classical IP over ATM, RFC 1626).
const DEFAULT_MTU_BYTES: u64 = 9180;

/// The output-port configuration of a switch: `buffer`, `discard` and the policy's own keys
/// (read by the policy's file, `AcceptancePolicy::read_config`), `mtu`, `queueing`,
/// `reserved`, `clp1_threshold`, `efci_threshold`.
pub(super) fn port_config(v: &TableView<'_>) -> Result<PortConfig, ScenarioError> {
    let buffer = positive_u32(v, "buffer", v.opt_cells("buffer")?.unwrap_or(DEFAULT_BUFFER_CELLS))?;
    let mtu = v.opt_bytes("mtu")?.unwrap_or(DEFAULT_MTU_BYTES);
    if mtu == 0 || mtu + aal5::LLC_SNAP_BYTES > aal5::MAX_PAYLOAD_BYTES {
        return Err(v.key_error("mtu", format!("{mtu} bytes does not fit an AAL5 frame")));
    }
    let mtu_cells = u32::try_from(aal5::cells_for_ip_datagram(mtu)).unwrap_or(u32::MAX);
    let discard = v.opt_keyword("discard", DISCARD_NAMES)?.unwrap_or(TailDrop::NAME);
    check_discard_keys(v, discard)?;
    let queueing = if v.contains("queueing") { Some(per_vc(v)?) } else { None };
    let reserved = reserved(v)?;
    let shape = PortShape { buffer_cells: buffer, mtu_cells };
    let discard = DiscardConfig::read(discard, v, shape).expect("one of the policies' names")?;
    check_reserved_pools(v, &discard)?;
    Ok(PortConfig {
        buffer_cells: buffer,
        reserved,
        discard,
        per_vc_queues: queueing.unwrap_or_else(|| discard.queues_per_vc_by_default()),
        clp1_threshold: clp1_threshold(v, buffer)?,
        efci_threshold: efci_threshold(v, buffer)?,
    })
}

/// An error for the first key of another policy's a switch gives with `discard` (each policy
/// declares its keys in its file, `AcceptancePolicy::KEYS`): it names the policies that take it.
fn check_discard_keys(v: &TableView<'_>, discard: &str) -> Result<(), ScenarioError> {
    let chosen = DISCARD_POLICIES.iter().find(|p| p.name == discard).expect("one of the policies' names");
    for key in DISCARD_POLICIES.iter().flat_map(|p| p.keys) {
        if v.contains(key) && !chosen.keys.contains(key) {
            let takers: Vec<&str> = DiscardPolicy::taking(key).collect();
            return Err(v.key_error(key, format!("only applies with discard = {}", alternatives(&takers))));
        }
    }
    Ok(())
}

/// `"a"`, `"a" or "b"`, `"a", "b" or "c"`.
pub(super) fn alternatives(values: &[&str]) -> String {
    let quoted: Vec<String> = values.iter().map(|p| format!("\"{p}\"")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// `clp1_threshold = "6000 cells"`: CLP = 1 cells are refused from that occupancy on.
fn clp1_threshold(v: &TableView<'_>, buffer: u32) -> Result<Option<u32>, ScenarioError> {
    let Some(cells) = v.opt_cells("clp1_threshold")? else { return Ok(None) };
    if cells > u64::from(buffer) {
        return Err(v.key_error("clp1_threshold", format!("{cells} cells is above the buffer of {buffer} cells")));
    }
    Ok(Some(u32::try_from(cells).expect("at most the buffer")))
}

/// `efci_threshold = "1000 cells"`: data cells accepted from that occupancy on leave with EFCI
/// set (at least one cell, at most the buffer).
fn efci_threshold(v: &TableView<'_>, buffer: u32) -> Result<Option<u32>, ScenarioError> {
    let Some(cells) = v.opt_cells("efci_threshold")? else { return Ok(None) };
    if cells == 0 || cells > u64::from(buffer) {
        return Err(v.key_error("efci_threshold", format!("must be 1 to {buffer} cells (the buffer), not {cells}")));
    }
    Ok(Some(u32::try_from(cells).expect("at most the buffer")))
}

fn per_vc(v: &TableView<'_>) -> Result<bool, ScenarioError> {
    // "priority" is what a cell port does with "fifo" (one FIFO per class, strict priority);
    // it differs only at packet ports (`super::packet_mode::packet_priority`).
    Ok(v.opt_keyword("queueing", &["fifo", "per-vc", "priority"])?.unwrap_or("fifo") == "per-vc")
}

/// Each pool of `reserved`, checked against the port's buffer acceptance policy (a threshold
/// that suits the shared pool may not suit a small reserved one): the error names the pool's key.
fn check_reserved_pools(v: &TableView<'_>, discard: &DiscardConfig) -> Result<(), ScenarioError> {
    let Some(t) = v.opt_table("reserved")? else { return Ok(()) };
    for (key, node) in t.entries() {
        let cells = u32::try_from(node.cells()?).expect("checked by `reserved`");
        if let Some(problem) = discard.pool_problem(v, cells) {
            return Err(t.key_error(&key.name, problem));
        }
    }
    Ok(())
}

/// `reserved = { nrt-vbr = "1500 cells", ... }`: categories with a pool of their own.
fn reserved(v: &TableView<'_>) -> Result<Vec<(ServiceCategory, u32)>, ScenarioError> {
    let Some(t) = v.opt_table("reserved")? else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (key, node) in t.entries() {
        let cat = ServiceCategory::parse(&key.name).ok_or_else(|| {
            t.key_error(&key.name, "unknown service category (use cbr, rt-vbr, nrt-vbr, abr, gfr or ubr)")
        })?;
        let cells = positive_u32(&t, &key.name, node.cells()?)?;
        out.push((cat, cells));
    }
    Ok(out)
}

/// `scheduler = "priority" | "wfq" | "virtual-spacing" | "wrr"` (the names of the port's
/// scheduler table).
pub(super) fn scheduler(v: &TableView<'_>) -> Result<SchedulerKind, ScenarioError> {
    Ok(match v.opt_keyword("scheduler", SCHEDULER_NAMES)?.unwrap_or(PriorityRoundRobin::NAME) {
        Wf2qPlus::NAME => SchedulerKind::Wfq,
        VirtualSpacing::NAME => SchedulerKind::VirtualSpacing,
        WeightedRoundRobin::NAME => SchedulerKind::Wrr,
        _ => SchedulerKind::Priority,
    })
}
