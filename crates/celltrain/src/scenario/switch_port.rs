//! A `[[switch]]`'s output-port configuration: buffer, reserved pools, discard policy (tail
//! drop, PPD, EPD and its thresholds, Selective Drop and FBA, the GFR designs), queueing and the
//! CLP = 1 threshold.

use super::model::positive_u32;
use super::{ScenarioError, TableView};
use celltrain_atm::aal5;
use celltrain_atm::port::buffer::{
    DiscardConfig, DiscardPolicy, EpdConfig, EpdThreshold, FairShareConfig, DEFAULT_FAIRNESS_Z, DISCARD_NAMES,
    DISCARD_POLICIES,
};
use celltrain_atm::port::PortConfig;
use celltrain_atm::ServiceCategory;

/// Default switch output buffer (MSc98: 8192 cells).
const DEFAULT_BUFFER_CELLS: u64 = 8192;
/// Default IP MTU for EPD thresholds written in MTUs (Classical IP over ATM, RFC 1626).
const DEFAULT_MTU_BYTES: u64 = 9180;

/// The output-port configuration of a switch: `buffer`, `discard`, `epd_threshold`,
/// `epd_excess`, `mtu`, `queueing`, `reserved`.
pub(super) fn port_config(v: &TableView<'_>) -> Result<PortConfig, ScenarioError> {
    let buffer = positive_u32(v, "buffer", v.opt_cells("buffer")?.unwrap_or(DEFAULT_BUFFER_CELLS))?;
    let mtu = v.opt_bytes("mtu")?.unwrap_or(DEFAULT_MTU_BYTES);
    if mtu == 0 || mtu + aal5::LLC_SNAP_BYTES > aal5::MAX_PAYLOAD_BYTES {
        return Err(v.key_error("mtu", format!("{mtu} bytes does not fit an AAL5 frame")));
    }
    let mtu_cells = u32::try_from(aal5::cells_for_ip_datagram(mtu)).unwrap_or(u32::MAX);
    let discard = v.opt_keyword("discard", DISCARD_NAMES)?.unwrap_or("tail-drop");
    check_discard_keys(v, discard)?;
    if super::gfr::DESIGNS.contains(&discard) {
        let per_vc_queues =
            if v.contains("queueing") { per_vc(v)? } else { super::gfr::queues_per_vc_by_default(discard) };
        return Ok(PortConfig {
            buffer_cells: buffer,
            reserved: reserved(v)?,
            discard: super::gfr::discard(v, discard, buffer, mtu_cells)?,
            per_vc_queues,
            clp1_threshold: clp1_threshold(v, buffer)?,
            efci_threshold: efci_threshold(v, buffer)?,
        });
    }
    let policy = |discard| PortConfig {
        buffer_cells: buffer,
        reserved: Vec::new(),
        discard,
        per_vc_queues: false,
        clp1_threshold: None,
        efci_threshold: None,
    };
    let config = match discard {
        "epd" => {
            let threshold = epd_threshold(v, buffer, mtu_cells, EpdThreshold::MSc98 { mtu_cells })?;
            policy(match v.opt_bool("epd_keep_eom")? {
                // The Fore switch of LRP97 keeps a refused frame's last cell (EOM).
                Some(true) => DiscardConfig::EpdWith(EpdConfig { threshold, keep_refused_eom: true }),
                _ => DiscardConfig::Epd(threshold),
            })
        }
        "selective-drop" | "fba" => {
            let threshold = epd_threshold(v, buffer, mtu_cells, EpdThreshold::Fraction(FAIR_SHARE_THRESHOLD))?;
            let z = v.opt_float("fairness_z")?.unwrap_or(DEFAULT_FAIRNESS_Z);
            if !(z > 0.0 && z.is_finite()) {
                return Err(v.key_error("fairness_z", "must be a positive number (Z, the share of a fair share)"));
            }
            let share = FairShareConfig { threshold, z };
            policy(if discard == "fba" { DiscardConfig::Fba(share) } else { DiscardConfig::SelectiveDrop(share) })
        }
        other => policy(if other == "ppd" { DiscardConfig::Ppd } else { DiscardConfig::TailDrop }),
    };
    Ok(PortConfig {
        reserved: reserved(v)?,
        per_vc_queues: per_vc(v)?,
        clp1_threshold: clp1_threshold(v, buffer)?,
        efci_threshold: efci_threshold(v, buffer)?,
        ..config
    })
}

/// Selective Drop's and FBA's threshold R when none is given: 90 % of the pool (Goyal et al.'s
/// UBR+ simulations).
const FAIR_SHARE_THRESHOLD: f64 = 0.9;

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

/// The threshold of an EPD-like policy (`epd_threshold` in cells or as a share of the pool,
/// "auto", or `epd_excess` MTUs below the pool's size; `default` when neither is given),
/// checked against every pool of the port.
fn epd_threshold(
    v: &TableView<'_>,
    buffer: u32,
    mtu_cells: u32,
    default: EpdThreshold,
) -> Result<EpdThreshold, ScenarioError> {
    let threshold = match (v.opt_str("epd_threshold")?, v.opt_float("epd_excess")?) {
        (Some(_), Some(_)) => {
            return Err(v.key_error("epd_excess", "give either epd_threshold or epd_excess, not both"))
        }
        (None, Some(b)) => {
            if b.is_nan() || b < 0.0 {
                return Err(v.key_error("epd_excess", "must be ≥ 0 (MTUs below the buffer size)"));
            }
            EpdThreshold::ExcessMtus { b, mtu_cells }
        }
        (Some("auto"), None) => EpdThreshold::MSc98 { mtu_cells },
        (None, None) => default,
        (Some(text), None) => {
            let node = v.req("epd_threshold")?;
            if text.trim_end().ends_with('%') {
                EpdThreshold::Fraction(node.fraction()?)
            } else {
                EpdThreshold::Cells(u32::try_from(node.cells()?).unwrap_or(u32::MAX))
            }
        }
    };
    super::epd_pools::check(v, threshold, buffer)?;
    Ok(threshold)
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
