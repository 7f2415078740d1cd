//! A switch output port's own scenario keys: its buffer, the MTU its thresholds are written in,
//! its discard policy (whose own keys the policy's file reads: `buffer::AcceptancePolicy`), its
//! queueing, its reserved pools, the CLP = 1 and EFCI thresholds, and its scheduler (whose key
//! the scheduler table reads: `sched::SchedulerKind::read`). The scenario reader hands
//! the switch's table over as [`Keys`]; this file names the keys, sets their defaults and
//! validates them.

use super::buffer::DISCARD_POLICIES;
use super::buffer::{AcceptancePolicy, DiscardConfig, DiscardPolicy, PortShape, TailDrop, DISCARD_NAMES};
use super::sched::{SchedulerKind, SCHEDULER_KEY};
use super::PortConfig;
use crate::aal5;
use crate::category::ServiceCategory;
use celltrain_core::keys::{alternatives, Keys};

/// The default output buffer (MSc98: 8192 cells).
pub const DEFAULT_BUFFER_CELLS: u64 = 8192;
/// The default IP MTU, in which EPD thresholds may be written (Classical IP over ATM, RFC 1626).
pub const DEFAULT_MTU_BYTES: u64 = 9180;

/// The port's own keys, in the order they are read (a discard policy's keys are its own:
/// `DISCARD_POLICIES`).
pub const PORT_KEYS: &[&str] =
    &["buffer", "mtu", "discard", "queueing", "reserved", "clp1_threshold", "efci_threshold", SCHEDULER_KEY];

/// The port's keys that are one threshold on a pool's occupancy, applied to every pool (a
/// discard policy names its own: `AcceptancePolicy::POOL_THRESHOLDS`).
pub const PORT_POOL_THRESHOLDS: &[&str] = &["clp1_threshold"];

/// `queueing`'s values. "priority" is what a cell port does with "fifo" (one FIFO per class,
/// strict priority between them); it differs only at packet ports.
const QUEUEINGS: &[&str] = &["fifo", "per-vc", "priority"];

impl PortConfig {
    /// Reads the port's keys from a switch's table, with buffers (the shared one and each
    /// reserved pool) of at most `max_buffer_cells`. Errors come in the keys' order:
    /// `buffer`, `mtu`, `discard` (and a key of another policy), `queueing`, `reserved`, the
    /// policy's own keys, each reserved pool against the policy, `clp1_threshold`,
    /// `efci_threshold`, `scheduler`.
    pub fn read<K: Keys>(keys: &K, max_buffer_cells: u32) -> Result<PortConfig, K::Error> {
        let buffer = keys.cells("buffer")?.unwrap_or(DEFAULT_BUFFER_CELLS);
        let buffer = buffer_cells(buffer, max_buffer_cells).map_err(|m| keys.key_error("buffer", m))?;
        let mtu = keys.bytes("mtu")?.unwrap_or(DEFAULT_MTU_BYTES);
        if mtu == 0 || mtu + aal5::LLC_SNAP_BYTES > aal5::MAX_PAYLOAD_BYTES {
            return Err(keys.key_error("mtu", format!("{mtu} bytes does not fit an AAL5 frame")));
        }
        let mtu_cells = u32::try_from(aal5::cells_for_ip_datagram(mtu)).unwrap_or(u32::MAX);
        let discard = keys.keyword("discard", DISCARD_NAMES)?.unwrap_or(TailDrop::NAME);
        refuse_other_policies_keys(keys, discard)?;
        let per_vc = keys.keyword("queueing", QUEUEINGS)?.map(|queueing| queueing == "per-vc");
        let pools = reserved(keys, max_buffer_cells)?;
        let shape = PortShape { buffer_cells: buffer, mtu_cells };
        let discard = DiscardConfig::read(discard, keys, shape).expect("one of the policies' names")?;
        // (A threshold that suits the shared pool may not suit a small reserved one.)
        for (entry, _, cells) in &pools {
            if let Some(problem) = discard.pool_problem(keys, *cells) {
                return Err(keys.entry_error("reserved", entry, problem));
            }
        }
        Ok(PortConfig {
            buffer_cells: buffer,
            reserved: pools.into_iter().map(|(_, category, cells)| (category, cells)).collect(),
            discard,
            per_vc_queues: per_vc.unwrap_or_else(|| discard.queues_per_vc_by_default()),
            clp1_threshold: clp1_threshold(keys, buffer)?,
            efci_threshold: efci_threshold(keys, buffer)?,
            scheduler: SchedulerKind::read(keys)?,
        })
    }
}

/// A buffer of `cells`: at least one cell, at most `max`.
fn buffer_cells(cells: u64, max: u32) -> Result<u32, String> {
    match u32::try_from(cells) {
        Ok(0) => Err("must be at least 1 cell".to_string()),
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!("{cells} cells is too large (max {max} cells)")),
    }
}

/// An error for the first key of another policy that a switch gives with `discard` (each policy
/// declares its keys, `AcceptancePolicy::KEYS`): it names the policies that take it.
fn refuse_other_policies_keys<K: Keys>(keys: &K, discard: &str) -> Result<(), K::Error> {
    let chosen = DiscardPolicy::named(discard).expect("one of the policies' names");
    for key in DISCARD_POLICIES.iter().flat_map(|p| p.keys) {
        if keys.contains(key) && !chosen.keys.contains(key) {
            let takers: Vec<&str> = DiscardPolicy::taking(key).collect();
            return Err(keys.key_error(key, format!("only applies with discard = {}", alternatives(&takers))));
        }
    }
    Ok(())
}

/// `reserved = { nrt-vbr = "1500 cells", ... }`: the categories with a pool of their own, each
/// with its entry's name as written.
fn reserved<K: Keys>(keys: &K, max_buffer_cells: u32) -> Result<Vec<(String, ServiceCategory, u32)>, K::Error> {
    let Some(entries) = keys.entry_names("reserved")? else { return Ok(Vec::new()) };
    let mut pools = Vec::with_capacity(entries.len());
    for entry in entries {
        let category = ServiceCategory::parse(&entry).ok_or_else(|| {
            keys.entry_error(
                "reserved",
                &entry,
                "unknown service category (use cbr, rt-vbr, nrt-vbr, abr, gfr or ubr)".into(),
            )
        })?;
        let cells = keys.entry_cells("reserved", &entry)?;
        let cells = buffer_cells(cells, max_buffer_cells).map_err(|m| keys.entry_error("reserved", &entry, m))?;
        pools.push((entry, category, cells));
    }
    Ok(pools)
}

/// `clp1_threshold = "6000 cells"`: CLP = 1 cells are refused from that occupancy on.
fn clp1_threshold<K: Keys>(keys: &K, buffer: u32) -> Result<Option<u32>, K::Error> {
    let Some(cells) = keys.cells("clp1_threshold")? else { return Ok(None) };
    if cells > u64::from(buffer) {
        return Err(keys.key_error("clp1_threshold", format!("{cells} cells is above the buffer of {buffer} cells")));
    }
    Ok(Some(u32::try_from(cells).expect("at most the buffer")))
}

/// `efci_threshold = "1000 cells"`: data cells accepted from that occupancy on leave with EFCI
/// set (at least one cell, at most the buffer).
fn efci_threshold<K: Keys>(keys: &K, buffer: u32) -> Result<Option<u32>, K::Error> {
    let Some(cells) = keys.cells("efci_threshold")? else { return Ok(None) };
    if cells == 0 || cells > u64::from(buffer) {
        return Err(keys.key_error("efci_threshold", format!("must be 1 to {buffer} cells (the buffer), not {cells}")));
    }
    Ok(Some(u32::try_from(cells).expect("at most the buffer")))
}
