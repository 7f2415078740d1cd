//! The record pass: the bottleneck port, the captures and the series to sample.

use super::*;

pub(super) fn recorder(
    nb: &NetworkBuilder,
    topo: &Topology,
    (flows, routes, vcs): (&[Flow], &[Route], &[Vc]),
    ports: &[Port],
    queue: &mut EventQueue<Event>,
) -> Result<(Option<PortId>, Recorder), BuildError> {
    let bottleneck = match nb.bottleneck {
        Some((a, b)) => Some(topo.port_of(a, b)),
        None => busiest_port(ports, flows, routes, vcs),
    };
    let mut spec = RecordSpec {
        pcap_hosts: nb.record.pcap_hosts.clone(),
        pcap_ports: nb.record.pcap_links.iter().map(|&(a, b)| topo.port_of(a, b)).collect(),
        interval: nb.record.interval,
        delivered: nb.record.delivered,
        on_change: nb.record.on_change,
        ..RecordSpec::default()
    };
    for f in flows {
        let wanted = nb.record.flows.is_empty() || nb.record.flows.contains(&f.name);
        if let (true, Some((sender, _))) = (wanted, f.conns) {
            spec.senders.push((sender, f.name.clone()));
        }
        // The ABR VCs a sampled flow's data crosses: their sources' ACR and queues.
        for hop in routes[f.route.index()].hops.iter().filter(|_| wanted && f.app_bytes > 0) {
            if let Hop::Vc(v) = *hop {
                let vc = &vcs[v.index()];
                if vc.category == ServiceCategory::Abr && !spec.abr_vcs.iter().any(|(w, _)| *w == v) {
                    spec.abr_vcs.push((v, vc.name.clone()));
                }
            }
        }
    }
    if let Some(missing) = nb.record.flows.iter().find(|n| !flows.iter().any(|f| &f.name == *n && f.conns.is_some())) {
        return err(Field::Record, format!("record: no TCP flow named '{missing}'"));
    }
    spec.ports = if nb.record.ports.is_empty() {
        bottleneck.into_iter().collect()
    } else {
        // A port listed twice is sampled once (as `pcap` and `flows` are).
        let mut ports: Vec<PortId> = Vec::with_capacity(nb.record.ports.len());
        for p in nb.record.ports.iter().map(|&(a, b)| topo.port_of(a, b)) {
            if !ports.contains(&p) {
                ports.push(p);
            }
        }
        ports
    };
    // A port's queue is sampled in its own unit: cells, or bytes on a packet link.
    let queue_columns: Vec<String> = ports
        .iter()
        .map(|p| format!("{}.queue_{}", p.name, if p.packets.is_some() { "bytes" } else { "cells" }))
        .collect();
    spec.port_parts = crate::network::record_parts::port_parts(nb.record.queues, &spec.ports, ports);
    super::limits::series_columns_unique(&spec, &queue_columns)?;
    let recorder = Recorder::new(spec, nb.nodes.len(), &queue_columns);
    if let Some(first) = recorder.first_sample() {
        queue.schedule(first, Event::Sample);
    }
    Ok((bottleneck, recorder))
}

/// `[record] on_change`: the recorded ports note every change of their queue.
pub(super) fn trace_port_changes(recorder: &Recorder, ports: &mut [Port]) {
    let Some(rows) = recorder.change_rows() else { return };
    for &p in &recorder.spec.ports {
        let port = &mut ports[p.index()];
        match &mut port.packets {
            Some(q) => q.record_changes(rows.clone()),
            None => port.queue.record_changes(rows.clone()),
        }
    }
}

/// The port crossed by the most packet flows (ties: the slowest, then the first): the default
/// bottleneck for the theoretical maximum goodput.
fn busiest_port(ports: &[Port], flows: &[Flow], routes: &[Route], vcs: &[Vc]) -> Option<PortId> {
    let mut crossing = vec![0usize; ports.len()];
    for f in flows.iter().filter(|f| f.app_bytes > 0) {
        for p in route_ports(&routes[f.route.index()], vcs) {
            crossing[p.index()] += 1;
        }
    }
    let mut best: Option<(usize, std::cmp::Reverse<BitRate>, std::cmp::Reverse<usize>)> = None;
    for (i, port) in ports.iter().enumerate() {
        if crossing[i] == 0 {
            continue;
        }
        let key = (crossing[i], std::cmp::Reverse(port.line_rate), std::cmp::Reverse(i));
        if best.is_none_or(|b| key > b) {
            best = Some(key);
        }
    }
    best.map(|(_, _, std::cmp::Reverse(i))| PortId::from_index(i))
}
