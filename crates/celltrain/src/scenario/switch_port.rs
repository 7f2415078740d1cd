//! A `[[switch]]`'s output port: its own keys (buffer, reserved pools, queueing, the CLP = 1
//! and EFCI thresholds, the discard policy, whose own keys the policy's file reads) are read by
//! the port's file (`celltrain_atm::port::PortConfig::read`); the scheduler is chosen here.

use super::limits::MAX_BUFFER_CELLS;
use super::{ScenarioError, TableView};
use crate::network::SchedulerKind;
use celltrain_atm::port::sched::{
    CellScheduler, PriorityRoundRobin, VirtualSpacing, WeightedRoundRobin, Wf2qPlus, SCHEDULER_NAMES,
};
use celltrain_atm::port::PortConfig;

/// The output-port configuration of a switch (`PortConfig::read`: `buffer`, `mtu`, `discard`
/// and the policy's own keys, `queueing`, `reserved`, `clp1_threshold`, `efci_threshold`).
pub(super) fn port_config(v: &TableView<'_>) -> Result<PortConfig, ScenarioError> {
    PortConfig::read(v, MAX_BUFFER_CELLS)
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
