//! A switch's `scheduler` key (documented in `docs/scenarios.md`): the names of the port's
//! scheduler table. (The GFR designs' buffer acceptance and the GFR contract are read by their
//! own files: `celltrain_atm::port::buffer` and `celltrain_atm::contract`.)

use super::{ScenarioError, TableView};
use crate::network::SchedulerKind;
use celltrain_atm::port::sched::{
    CellScheduler, PriorityRoundRobin, VirtualSpacing, WeightedRoundRobin, Wf2qPlus, SCHEDULER_NAMES,
};
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
