//! A `[[switch]]`'s output port: its own keys (buffer, reserved pools, queueing, the CLP = 1
//! and EFCI thresholds, the discard policy and the scheduler, whose own keys the policy's and
//! the scheduler table's files read) are read by the port's file
//! (`celltrain_atm::port::PortConfig::read`).

use super::limits::MAX_BUFFER_CELLS;
use super::{ScenarioError, TableView};
use celltrain_atm::port::PortConfig;

/// The output-port configuration of a switch (`PortConfig::read`: `buffer`, `mtu`, `discard`
/// and the policy's own keys, `queueing`, `reserved`, `clp1_threshold`, `efci_threshold`,
/// `scheduler`).
pub(super) fn port_config(v: &TableView<'_>) -> Result<PortConfig, ScenarioError> {
    PortConfig::read(v, MAX_BUFFER_CELLS)
}
