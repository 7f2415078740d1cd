//! The scenario keys of GFR (documented in `docs/scenarios.md`): a switch's GFR buffer
//! acceptance (`discard = "gfr-fifo" | "per-vc-threshold" | "frame-red"` and their thresholds),
//! its `scheduler`, and a VC's GFR contract (`conformance = "gfr.1" | "gfr.2"`, `mcr`, `mbs`,
//! `mfs`, `cdvt`).

use super::{ScenarioError, TableView};
use crate::network::SchedulerKind;
use celltrain_atm::contract::{GfrConformance, GfrContract, GfrError};
use celltrain_atm::port::buffer::{DiscardConfig, FrameRedConfig, RedParams};
use celltrain_atm::port::sched::{
    CellScheduler, PriorityRoundRobin, VirtualSpacing, WeightedRoundRobin, Wf2qPlus, SCHEDULER_NAMES,
};
use celltrain_atm::ServiceCategory;
use celltrain_core::time::SimDuration;
use celltrain_core::units::BitRate;

/// The GFR buffer acceptance policies' names, as `discard` takes them.
pub(super) const DESIGNS: [&str; 3] = ["gfr-fifo", "per-vc-threshold", "frame-red"];

/// Frame-level RED's default weight of a new sample (Floyd & Jacobson 1993; BN01 does not
/// give it).
const DEFAULT_RED_WEIGHT: f64 = 0.002;

/// A threshold in cells, at most the buffer, when given.
fn cells_at_most(v: &TableView<'_>, key: &str, buffer: u32) -> Result<Option<u32>, ScenarioError> {
    let Some(cells) = v.opt_cells(key)? else { return Ok(None) };
    if cells > u64::from(buffer) {
        return Err(v.key_error(key, format!("{cells} cells is above the buffer of {buffer} cells")));
    }
    Ok(Some(u32::try_from(cells).expect("at most the buffer")))
}

/// Every GFR threshold a switch gives, checked whichever design it chose, so that the design
/// can be a scenario parameter while the file carries the thresholds of each.
struct Thresholds {
    low: Option<u32>,
    high: Option<u32>,
    vc: Option<u32>,
    red: Option<RedParams>,
    vc_low: Option<u32>,
    vc_high: Option<u32>,
}

fn thresholds(v: &TableView<'_>, buffer: u32) -> Result<Thresholds, ScenarioError> {
    let low = cells_at_most(v, "low_threshold", buffer)?;
    let high = cells_at_most(v, "high_threshold", buffer)?;
    if let (Some(l), Some(h)) = (low, high) {
        if l > h {
            return Err(v.key_error("low_threshold", format!("above the high threshold ({h} cells)")));
        }
    }
    let vc = cells_at_most(v, "vc_threshold", buffer)?;
    let vc_low = cells_at_most(v, "vc_low_threshold", buffer)?;
    let vc_high = cells_at_most(v, "vc_high_threshold", buffer)?;
    if let (Some(l), Some(h)) = (vc_low, vc_high) {
        if l >= h {
            return Err(v.key_error("vc_low_threshold", format!("must be below vc_high_threshold ({h} cells)")));
        }
    }
    Ok(Thresholds { low, high, vc, red: red_params(v, buffer)?, vc_low, vc_high })
}

/// RED's parameters, when `red_min_th` is given.
fn red_params(v: &TableView<'_>, buffer: u32) -> Result<Option<RedParams>, ScenarioError> {
    let Some(min_th) = cells_at_most(v, "red_min_th", buffer)? else {
        for key in ["red_max_th", "red_max_p", "red_weight", "red_idle_unit"] {
            if v.contains(key) {
                return Err(v.key_error(key, "frame-level RED needs red_min_th too"));
            }
        }
        return Ok(None);
    };
    let max_th =
        cells_at_most(v, "red_max_th", buffer)?.ok_or_else(|| v.key_error("red_min_th", "give red_max_th too"))?;
    if min_th >= max_th {
        return Err(v.key_error("red_min_th", format!("must be below red_max_th ({max_th} cells)")));
    }
    let max_p = v.req_fraction("red_max_p")?;
    if max_p == 0.0 {
        return Err(v.key_error("red_max_p", "must be positive"));
    }
    let weight = v.opt_fraction("red_weight")?.unwrap_or(DEFAULT_RED_WEIGHT);
    if weight == 0.0 {
        return Err(v.key_error("red_weight", "must be positive"));
    }
    // Zero: one cell time at the port's line rate (resolved by the builder).
    let idle_unit = v.opt_duration("red_idle_unit")?.unwrap_or(SimDuration::ZERO);
    Ok(Some(RedParams { min_th: f64::from(min_th), max_th: f64::from(max_th), max_p, weight, idle_unit }))
}

/// The buffer acceptance of `discard = design` (one of [`DESIGNS`]) for a buffer of `buffer`
/// cells; `mtu_cells` gives the simple switch's default high threshold.
pub(super) fn discard(
    v: &TableView<'_>,
    design: &str,
    buffer: u32,
    mtu_cells: u32,
) -> Result<DiscardConfig, ScenarioError> {
    let t = thresholds(v, buffer)?;
    let need =
        |value: Option<u32>, key: &str| value.ok_or_else(|| v.error(format!("discard = \"{design}\" needs `{key}`")));
    match design {
        "gfr-fifo" => {
            let low_cells = need(t.low, "low_threshold")?;
            // BN01: the high threshold only keeps whole frames out of a full buffer.
            let high_cells = t.high.unwrap_or_else(|| buffer.saturating_sub(mtu_cells).max(low_cells));
            Ok(DiscardConfig::GfrFifo { low_cells, high_cells })
        }
        "per-vc-threshold" => Ok(DiscardConfig::PerVcThreshold {
            low_cells: need(t.low, "low_threshold")?,
            high_cells: need(t.high, "high_threshold")?,
            vc_cells: need(t.vc, "vc_threshold")?,
        }),
        _ => {
            let red = t.red.ok_or_else(|| {
                v.error(format!("discard = \"{design}\" needs `red_min_th`, `red_max_th` and `red_max_p`"))
            })?;
            Ok(DiscardConfig::FrameRed(FrameRedConfig {
                red,
                vc_low_cells: need(t.vc_low, "vc_low_threshold")?,
                vc_high_cells: need(t.vc_high, "vc_high_threshold")?,
            }))
        }
    }
}

/// Whether the design queues per VC when `queueing` is not given (the scheduler-based ones).
pub(super) fn queues_per_vc_by_default(design: &str) -> bool {
    matches!(design, "per-vc-threshold" | "frame-red")
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

/// The GFR contract of a `vc = { conformance = "gfr.1" | "gfr.2", mcr, mbs, mfs, cdvt }` table
/// of category `category` and PCR `pcr`; None when the VC's conformance is not GFR.
pub(super) fn contract(
    vc: &TableView<'_>,
    category: ServiceCategory,
    pcr: BitRate,
) -> Result<Option<GfrContract>, ScenarioError> {
    let conformance = match vc.get("conformance").map(|c| c.as_str()).transpose()? {
        Some("gfr.1") => GfrConformance::Gfr1,
        Some("gfr.2") => GfrConformance::Gfr2,
        _ => {
            if vc.contains("mfs") || (vc.contains("mcr") && category == ServiceCategory::Gfr) {
                let key = if vc.contains("mfs") { "mfs" } else { "mcr" };
                return Err(vc.key_error(key, "a GFR contract needs `conformance` (gfr.1 or gfr.2)"));
            }
            return Ok(None);
        }
    };
    if category != ServiceCategory::Gfr {
        return Err(vc.key_error("conformance", format!("{} needs category = \"gfr\"", conformance.name())));
    }
    if vc.contains("scr") {
        return Err(vc.key_error("scr", "a GFR contract has no SCR (give mcr)"));
    }
    let mcr = vc.req_rate("mcr")?;
    let mbs = vc.req_u64("mbs")?;
    let mfs = vc.req_u64("mfs")?;
    let cdvt = vc.opt_duration("cdvt")?.unwrap_or(SimDuration::ZERO);
    let too_large = |key: &str| vc.key_error(key, "too large (max 4294967295)");
    let contract = GfrContract {
        conformance,
        pcr,
        mcr,
        mbs_cells: u32::try_from(mbs).map_err(|_| too_large("mbs"))?,
        mfs_cells: u32::try_from(mfs).map_err(|_| too_large("mfs"))?,
        cdvt,
    };
    contract.validate().map_err(|e| {
        let key = match e {
            GfrError::ZeroPcr => "pcr",
            GfrError::ZeroMcr | GfrError::McrNotBelowPcr { .. } => "mcr",
            GfrError::ZeroMfs => "mfs",
            GfrError::MbsTooSmall { .. } => "mbs",
        };
        vc.key_error(key, e.to_string())
    })?;
    Ok(Some(contract))
}
