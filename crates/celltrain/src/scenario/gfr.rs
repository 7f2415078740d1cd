//! The scenario keys of GFR (documented in `docs/scenarios.md`): a switch's `scheduler` and a
//! VC's GFR contract (`conformance = "gfr.1" | "gfr.2"`, `mcr`, `mbs`, `mfs`, `cdvt`). The GFR
//! designs' buffer acceptance (`discard = "gfr-fifo" | "per-vc-threshold" | "frame-red"` and
//! their thresholds) is read by the designs' own files (`celltrain_atm::port::buffer`).

use super::{ScenarioError, TableView};
use crate::network::SchedulerKind;
use celltrain_atm::contract::{GfrConformance, GfrContract, GfrError};
use celltrain_atm::port::sched::{
    CellScheduler, PriorityRoundRobin, VirtualSpacing, WeightedRoundRobin, Wf2qPlus, SCHEDULER_NAMES,
};
use celltrain_atm::ServiceCategory;
use celltrain_core::time::SimDuration;
use celltrain_core::units::BitRate;

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
