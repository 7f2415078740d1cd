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

/// Refuses a TCP flow whose largest segment, as an IP packet in an AAL5 frame (LLC/SNAP
/// included), exceeds the CPCS-SDU limit of 65 535 octets (ITU-T I.363.5) on one of its VCs.
pub(super) fn tcp_segments_fit_aal5(nb: &NetworkBuilder, flows: &[Flow], routes: &[Route]) -> Result<(), BuildError> {
    for (f, _, spec) in &nb.tcps {
        let options = if spec.config.timestamps { 12 } else { 0 };
        let ip_bytes = u64::from(spec.config.mss.offer()) + 40 + options;
        let flow = &flows[f.index()];
        let on_atm = routes[flow.route.index()].hops.iter().any(|h| matches!(h, Hop::Vc(_)));
        if on_atm && ip_bytes + aal5::LLC_SNAP_BYTES > aal5::MAX_PAYLOAD_BYTES {
            let max_mss = aal5::MAX_PAYLOAD_BYTES - aal5::LLC_SNAP_BYTES - 40 - options;
            return Err(BuildError::about(
                Subject::Flow(flow.name.clone()),
                Field::Tcp,
                format!(
                    "mss {} B: a segment does not fit an AAL5 frame on its VC (max {max_mss} B: 65535-byte CPCS-SDU less LLC/SNAP and headers)",
                    spec.config.mss.offer()
                ),
            ));
        }
    }
    Ok(())
}
