//! The transport pass: IP packets that fit every link they cross, and TCP connections — a
//! sender and a sink per flow, with their timer phases and initial sequence numbers drawn from
//! the seed.

use super::*;

/// An IP packet larger than an Ethernet link's MTU would need fragmenting, which no router
/// here does: refuse such a route, naming the flow.
pub(super) fn check_mtu(
    nb: &NetworkBuilder,
    topo: &Topology,
    flows: &[Flow],
    routes: &[Route],
    vcs: &[Vc],
) -> Result<(), BuildError> {
    // An IP packet larger than an Ethernet link's MTU would need fragmenting, which no
    // router here does: refuse such a route, naming the flow.
    if topo.ports.iter().any(|p| p.4 == Medium::Ethernet) {
        let mut largest: Vec<u64> = flows.iter().map(|f| f.app_bytes + f.header_bytes).collect();
        for (f, _, spec) in &nb.tcps {
            let options = if spec.config.timestamps { 12 } else { 0 };
            largest[f.index()] = u64::from(spec.config.mss.offer()) + 40 + options;
        }
        for (f, &bytes) in flows.iter().zip(&largest).filter(|(_, &b)| b > ETHERNET_MTU_BYTES) {
            let on_ethernet = route_ports(&routes[f.route.index()], vcs)
                .into_iter()
                .find(|p| topo.ports[p.index()].4 == Medium::Ethernet);
            if let Some(p) = on_ethernet {
                let (a, b) = (topo.ports[p.index()].0, topo.ports[p.index()].1);
                return Err(BuildError::about(Subject::Flow(f.name.clone()), Field::Path,
                        format!(
                            "{bytes}-byte IP packets cross the Ethernet link {}->{} (MTU {ETHERNET_MTU_BYTES} bytes); use a smaller mtu or mss, or medium = \"packet\"",
                            nb.nodes[a.index()].name,
                            nb.nodes[b.index()].name
                        ),
                    ));
            }
        }
    }
    Ok(())
}

pub(super) fn connections(
    nb: &NetworkBuilder,
    flows: &mut [Flow],
    routes: &[Route],
    queue: &mut EventQueue<Event>,
) -> Result<Vec<TcpConn>, BuildError> {
    // TCP: a sender and a sink per flow; every connection of a host shares the host's
    // timer phase (what synchronises connections in BKD97), drawn from the seed.
    let mut conns = Vec::with_capacity(2 * nb.tcps.len());
    for (i, (flow, rev, spec)) in nb.tcps.iter().enumerate() {
        let f = &mut flows[flow.index()];
        let (src, dst) = (routes[f.route.index()].src, routes[f.route.index()].dst);
        let phase = |host: NodeId| {
            let mut rng = RngStream::derive(nb.seed, &format!("{}/timers", nb.nodes[host.index()].name));
            match spec.config.timer_granularity {
                TimerGranularity::Ticks(period) => SimDuration::from_picos(rng.below(period.as_picos().max(1))),
                TimerGranularity::Linux { .. } => {
                    let jiffy = spec.config.timer_granularity.jiffy().unwrap_or(SimDuration::ZERO);
                    SimDuration::from_picos(rng.below(jiffy.as_picos().max(1)))
                }
                TimerGranularity::Exact => SimDuration::ZERO,
            }
        };
        let mut rng = RngStream::derive(nb.seed, &format!("{}/iss", f.name));
        let (sender, sink) = (ConnId::from_index(conns.len()), ConnId::from_index(conns.len() + 1));
        let src_port = u16::try_from(1024 + i % 60_000).expect("port fits");
        let dst_port = 5001;
        let mut cfg = spec.config.clone();
        cfg.tick_phase = phase(src);
        let iss = SeqNum(rng.next_u64() as u32);
        let active = TcpEndpoint::connect(cfg.clone(), src_port, dst_port, iss, spec.start);
        cfg.tick_phase = phase(dst);
        let passive = TcpEndpoint::listen(cfg, dst_port, SeqNum(rng.next_u64() as u32));
        let app = match spec.file_bytes {
            Some(file_bytes) => {
                App::Files { file_bytes, remaining: file_bytes, write_size: spec.write_size, files_done: 0 }
            }
            None => App::Bulk { remaining: spec.bytes, write_size: spec.write_size },
        };
        let mut active = TcpConn::new(active, *flow, src, f.route, sink, app);
        active.iss = RngStream::derive(nb.seed, &format!("{}/iss/later", f.name));
        active.stop = nb.stop_of(&f.name);
        if active.stop < SimTime::ZERO + nb.duration {
            // Woken at the stop so that it closes then, not at its next acknowledgement.
            queue.schedule(active.stop.max(spec.start), Event::TcpWake(sender));
        }
        conns.push(active);
        let mut passive = TcpConn::new(passive, *flow, dst, *rev, sender, App::Sink);
        passive.iss = RngStream::derive(nb.seed, &format!("{}/iss/later-sink", f.name));
        conns.push(passive);
        f.conns = Some((sender, sink));
        f.started_at = Some(spec.start);
        queue.schedule(spec.start, Event::TcpWake(sender));
    }
    if conns.len() > crate::network::MAX_COMPONENTS {
        return err(Field::Limit, format!("too many TCP connections (at most {})", crate::network::MAX_COMPONENTS / 2));
    }
    Ok(conns)
}
