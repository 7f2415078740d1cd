//! The ports pass: an output port per direction of each link — a switch port, a host's or a
//! router's adapter, or a packet-mode queue — with the adapters' rules (shaping, the PDU gap,
//! preventive tagging).

use super::*;
use crate::network::link::Link;
use crate::network::pdu_gap::PduGap;
use crate::network::port::PortFacts;
use crate::network::transmitter::Transmitter;

pub(super) fn ports(
    nb: &NetworkBuilder,
    topo: &Topology,
    vcs: &[Vc],
    vcs_on_port: &[Vec<ServiceCategory>],
) -> Result<Vec<Port>, BuildError> {
    // The highest PCR of the VCs each port originates (an adapter's default cell rate).
    let mut first_pcr: Vec<Option<BitRate>> = vec![None; topo.ports.len()];
    for v in vcs {
        let slot = &mut first_pcr[v.route[0].0.index()];
        *slot = Some(slot.map_or(v.pcr, |r| r.max(v.pcr)));
    }
    let mut ports: Vec<Port> = topo
        .ports
        .iter()
        .enumerate()
        .map(|(i, &(from, to, rate, delay, medium))| {
            let node = &nb.nodes[from.index()];
            let is_nic = node.kind != NodeKind::Switch;
            // A host adapter serves cells at the highest PCR of the VCs it originates
            // (one VC per adapter until per-VC shaping exists).
            // An adapter serves cells at its configured cell rate (BKD97: shaping to the
            // SCR in the adapter), else at the highest PCR of the VCs it originates.
            let service =
                if is_nic { node.adapter_rate.unwrap_or_else(|| first_pcr[i].unwrap_or(rate)).min(rate) } else { rate };
            let name = format!("{}->{}", node.name, nb.nodes[to.index()].name);
            let config = gfr::port_config(&node.port, rate);
            let weights = gfr::scheduler_weights(&config, i, vcs);
            let queue =
                OutputPort::with_parts(&config, &vcs_on_port[i], &weights, |k| buffer_stream(nb.seed, &name, k));
            Port {
                name,
                from,
                to,
                line_rate: rate,
                facts: PortFacts {
                    single_fifo: queue.is_single_fifo(),
                    work_conserving: queue.is_work_conserving(),
                    adapter_rules: false,
                    // A whole on/off burst may be handed over at once only to an adapter whose
                    // buffer no burst can fill, and that sends for the source alone (see
                    // `single_sender_ports`, applied below).
                    may_take_bursts: is_nic && node.port.buffer_cells >= DEFAULT_NIC_BUFFER_CELLS,
                    is_nic,
                },
                tx: Transmitter::new(TxClock::new(rate, service)),
                link: Link::new(delay),
                plan: crate::network::plan::PortPlan::NONE,
                er: None,
                starts: crate::network::port::Starts::default(),
                waiting: VecDeque::new(),
                queue,
                packets: medium.is_packet().then(|| {
                    let limits = node
                        .packet_limit
                        .unwrap_or(PacketLimits { bytes: u64::from(node.port.buffer_cells) * 48, packets: None });
                    let q = nb.packet_queueing(from, PacketQueue::new(rate, limits.bytes, limits.packets));
                    let q = match nb.conditioning.get(&(from, to)) {
                        Some(c) => q.with_conditioning(c.clone()),
                        None => q,
                    };
                    Box::new(if medium == Medium::Ethernet {
                        q.with_framing(ETHERNET_OVERHEAD_BYTES, ETHERNET_MIN_PAYLOAD_BYTES)
                    } else {
                        q
                    })
                }),
                rules: None,
            }
        })
        .collect();
    adapter_rules(nb, vcs, &mut ports)?;
    Ok(ports)
}

/// Each adapter's rules: the PDU gap, shaping and preventive tagging (single-FIFO adapters
/// only: a cell's start time is then known when it reaches the head of the queue).
fn adapter_rules(nb: &NetworkBuilder, vcs: &[Vc], ports: &mut [Port]) -> Result<(), BuildError> {
    for port in ports.iter_mut().filter(|p| p.facts.is_nic) {
        let node = &nb.nodes[port.from.index()];
        if let Some(gap) = node.pdu_gap {
            if !port.facts.single_fifo {
                return Err(BuildError::about(
                    Subject::Host(node.name.clone()),
                    Field::Adapter,
                    "pdu_gap needs a single-FIFO adapter",
                ));
            }
            let gap = PduGap::new(gap, node.pdu_gap_jitter, nb.seed, &node.name);
            port.rules.get_or_insert_with(Box::default).keep_pdu_gap(gap);
        }
    }
    for (i, port) in ports.iter_mut().enumerate() {
        let node = &nb.nodes[port.from.index()];
        if !(node.shaping || node.tagging) || !port.facts.is_nic {
            continue;
        }
        let Some(vc) = vcs.iter().find(|v| v.route[0].0.index() == i) else { continue };
        let Some(desc) = nb.routes.iter().find_map(|(spec, _)| {
            (spec.path.first() == Some(&port.from) && spec.contract.is_some()).then(|| spec.contract.expect("checked"))
        }) else {
            return Err(BuildError::about(
                Subject::Host(node.name.clone()),
                Field::Adapter,
                format!("shapes, but VC '{}' has no traffic contract", vc.name),
            ));
        };
        if !port.facts.single_fifo {
            return Err(BuildError::about(
                Subject::Host(node.name.clone()),
                Field::Adapter,
                "shaping and tagging need a single-FIFO adapter",
            ));
        }
        if node.tagging {
            // Tagged cells are checked against the PCR only: VBR.2's rule for CLP = 1.
            let tagging = TrafficDescriptor { def: ConformanceDef::Vbr2, ..desc };
            let tagger = Upc::new(&tagging).map_err(|e| {
                BuildError::about(Subject::Host(node.name.clone()), Field::Adapter, format!("tagging: {e}"))
            })?;
            port.rules.get_or_insert_with(Box::default).tag_with(tagger);
        }
        if node.shaping {
            let config = ShaperConfig::from_descriptor(&desc, Some(port.line_rate), usize::MAX).map_err(|e| {
                BuildError::about(Subject::Host(node.name.clone()), Field::Adapter, format!("shaper: {e}"))
            })?;
            let shaper = Shaper::new(config).map_err(|e| {
                BuildError::about(Subject::Host(node.name.clone()), Field::Adapter, format!("shaper: {e}"))
            })?;
            port.rules.get_or_insert_with(Box::default).shape_with(shaper);
        }
    }
    for port in ports.iter_mut() {
        port.facts.adapter_rules = port.rules.as_ref().is_some_and(|r| r.times_cells());
    }
    Ok(())
}

/// Another sender's cells would queue behind a whole burst instead of between its cells: only
/// an adapter with one sender, and no RM cells to send, may take bursts whole.
pub(super) fn mark_single_senders(ports: &mut [Port], flows: &[Flow], routes: &[Route], vcs: &[Vc]) {
    let alone = single_sender_ports(ports.len(), flows, routes, vcs);
    for (port, alone) in ports.iter_mut().zip(alone) {
        port.facts.may_take_bursts &= alone;
    }
    // An ABR VC's RM cells take turns with its data cells at the adapter.
    for vc in vcs.iter().filter(|v| v.category == ServiceCategory::Abr) {
        ports[vc.route[0].0.index()].facts.may_take_bursts = false;
    }
}

/// Per port, whether one sender alone puts cells into it as the first port of a VC: one route
/// enters a VC there, and at most one flow takes that route (several flows may share a named
/// VC, or a route; a route no flow takes — a TCP flow's acknowledgements — is one sender).
fn single_sender_ports(ports: usize, flows: &[Flow], routes: &[Route], vcs: &[Vc]) -> Vec<bool> {
    let mut flows_on_route = vec![0usize; routes.len()];
    for f in flows {
        flows_on_route[f.route.index()] += 1;
    }
    let mut senders = vec![0usize; ports];
    for (route, &flows) in routes.iter().zip(&flows_on_route) {
        for hop in &route.hops {
            if let Hop::Vc(v) = *hop {
                senders[vcs[v.index()].route[0].0.index()] += flows.max(1);
            }
        }
    }
    senders.iter().map(|&n| n == 1).collect()
}
