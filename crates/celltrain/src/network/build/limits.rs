//! Limits of the structures a network is built from, checked as the network is assembled so
//! that a scenario beyond them gets an error naming the VC, not a panic deep in a port.

use super::*;

/// VCs one output port can carry: a port with per-VC queues numbers its queues in 16 bits.
pub const MAX_VCS_PER_PORT: usize = u16::MAX as usize;

/// Refuses VC `vc_name` when one of `ports` already carries [`MAX_VCS_PER_PORT`] VCs.
pub(super) fn vcs_fit_ports(
    nb: &NetworkBuilder,
    topo: &Topology,
    ports: &[PortId],
    vcs_on_port: &[Vec<ServiceCategory>],
    vc_name: &str,
) -> Result<(), BuildError> {
    let Some(&full) = ports.iter().find(|p| vcs_on_port[p.index()].len() >= MAX_VCS_PER_PORT) else {
        return Ok(());
    };
    let (from, to, ..) = topo.ports[full.index()];
    let name = |n: NodeId| &nb.nodes[n.index()].name;
    Err(BuildError::about(
        Subject::Vc(vc_name.to_string()),
        Field::Limit,
        format!("too many VCs on the port {}->{} (max {MAX_VCS_PER_PORT})", name(from), name(to)),
    ))
}

/// Refuses a time series whose columns would repeat a name (a flow and a VC named so that
/// their columns coincide): the series is keyed by column name.
pub(super) fn series_columns_unique(spec: &RecordSpec, queue_columns: &[String]) -> Result<(), BuildError> {
    if spec.interval.is_none() {
        return Ok(());
    }
    let names = Recorder::series_columns(spec, queue_columns);
    let mut seen = BTreeSet::new();
    match names.iter().find(|n| !seen.insert(n.as_str()) || n.as_str() == "time_s") {
        None => Ok(()),
        Some(dup) => err(
            Field::Record,
            format!("record: two sampled quantities share the column name '{dup}' (rename a flow, VC or node)"),
        ),
    }
}
