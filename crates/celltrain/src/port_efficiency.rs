//! Efficiency per port: the goodput of the packet flows that cross a port, over the most that
//! port could carry for them (the overheads of their frames), so that a network with several
//! bottlenecks (a parking lot) reports each one against its own flows. The aggregate's
//! efficiency is this at the named (or busiest) bottleneck.

use crate::metrics::FlowSummary;
use crate::network::{route_ports, Mode, Network};
use celltrain_atm::aal5;
use celltrain_core::ids::PortId;

/// The theoretical maximum goodput of port `port` for the first packet flow crossing it, from
/// the port's own medium: on a cell link, the flow's AAL5 frames (ABR VCs give one cell in Nrm
/// to RM cells); on a packet link, its whole datagrams with the link's framing (none on a bare
/// packet link, Ethernet's on a LAN), whichever mode the network runs in. None if no packet
/// flow crosses.
pub fn max_goodput_at(net: &Network, port: PortId) -> Option<f64> {
    let p = &net.ports()[port.index()];
    let flow = net
        .flows()
        .iter()
        .find(|f| f.app_bytes > 0 && route_ports(&net.routes()[f.route.index()], net.vcs()).contains(&port))?;
    let rate = p.line_rate.as_bps() as f64;
    Some(match &p.packets {
        // ABR gives one cell in Nrm to forward RM cells (MSc98: × 31/32).
        None => {
            debug_assert_eq!(net.mode(), Mode::Cell, "a packet network's ports all carry packets");
            aal5::max_goodput_bps(rate, flow.app_bytes, flow.header_bytes)
                * crate::metrics::abr_data_share(net, flow, port)
        }
        // Whole IP datagrams on the link: the IP and transport headers and the link's framing
        // are overhead.
        Some(link) => rate * flow.app_bytes as f64 / link.wire_bytes(flow.app_bytes + flow.header_bytes) as f64,
    })
}

/// Per port: the goodput of the packet flows crossing it and their efficiency there (None
/// where no packet flow crosses).
pub fn per_port(net: &Network, flows: &[FlowSummary]) -> Vec<(Option<f64>, Option<f64>)> {
    let mut goodput = vec![None::<f64>; net.ports().len()];
    for (summary, flow) in flows.iter().zip(net.flows()).filter(|(_, f)| f.app_bytes > 0) {
        let mut ports = route_ports(&net.routes()[flow.route.index()], net.vcs());
        ports.sort_unstable();
        ports.dedup();
        for p in ports {
            // Summed from +0.0 (an empty float sum is −0.0), in flow order as the aggregate's.
            let slot = &mut goodput[p.index()];
            *slot = Some(slot.unwrap_or(0.0) + summary.goodput_bps);
        }
    }
    goodput
        .into_iter()
        .enumerate()
        .map(|(i, g)| {
            let efficiency = g.and_then(|g| max_goodput_at(net, PortId::from_index(i)).map(|m| g / m));
            (g, efficiency)
        })
        .collect()
}
