//! The sources pass: UDP and on/off sources, each with its first event and its own random
//! stream.

use super::*;
use crate::packet_sources::{OnOffPacketSource, PoissonSource};

pub(super) fn sources(
    nb: &NetworkBuilder,
    specs: Vec<(String, SourceSpec)>,
    (flows, routes, vcs): (&[Flow], &[Route], &[Vc]),
    (ports, topo): (&[Port], &Topology),
    queue: &mut EventQueue<Event>,
) -> Result<Vec<Source>, BuildError> {
    let mut sources = Vec::with_capacity(specs.len());
    for (i, (name, spec)) in specs.into_iter().enumerate() {
        let id = SourceId::from_index(i);
        let (source, first) = match spec {
            SourceSpec::Udp { flow, app_bytes, rate, start } => {
                // Greedy: one datagram per datagram-time of the first hop, at its rate (a
                // paced rate is given as the first hop's bit rate it fills).
                let (line, wire_bits) = first_hop(flow, app_bytes, (flows, routes, vcs), (ports, topo));
                let rate = rate.unwrap_or(line);
                let stop = nb.stop_of(&name);
                (Source::Udp(UdpSource { flow, app_bytes, wire_bits, rate, start, sent: 0, stop }), start)
            }
            SourceSpec::Poisson { flow, app_bytes, rate, start } => {
                let (_, wire_bits) = first_hop(flow, app_bytes, (flows, routes, vcs), (ports, topo));
                let rng = RngStream::derive(nb.seed, &name);
                let (mut src, first) = PoissonSource::new(flow, (app_bytes, wire_bits), rate, rng, start);
                src.stop = nb.stop_of(&name);
                (Source::Poisson(src), first)
            }
            SourceSpec::OnOffPacket { flow, app_bytes, peak, on_off, start } => {
                let (line, wire_bits) = first_hop(flow, app_bytes, (flows, routes, vcs), (ports, topo));
                let rng = RngStream::derive(nb.seed, &name);
                let peak = peak.unwrap_or(line);
                let (mut src, first) = OnOffPacketSource::new(flow, (app_bytes, wire_bits), peak, on_off, rng, start);
                src.stop = nb.stop_of(&name);
                (Source::OnOffPacket(src), first)
            }
            SourceSpec::OnOff { flow, pcr, mean_on, mean_off, start } => {
                let route = &routes[flows[flow.index()].route.index()];
                let [Hop::Vc(v)] = route.hops[..] else {
                    return err(
                        Field::Path,
                        format!("flow '{name}': an on/off cell source needs an ATM path from host to host"),
                    );
                };
                let vc = &vcs[v.index()];
                if vc.category == ServiceCategory::Abr {
                    // Its cells would bypass the end system that paces ABR cells at ACR.
                    return Err(BuildError::about(
                        Subject::Flow(name.clone()),
                        Field::Abr,
                        "an on/off cell source cannot use an ABR VC (ABR carries AAL5 frames)",
                    ));
                }
                let pcr = pcr.unwrap_or(vc.pcr);
                let rng = RngStream::derive(nb.seed, &name);
                let (mut src, first) = OnOffSource::new(flow, pcr, mean_on, mean_off, rng, start);
                src.stop = nb.stop_of(&name);
                (Source::OnOff(src), first)
            }
        };
        // A source whose first emission would come at or after its stop never acts.
        if first < nb.stop_of(&name) {
            queue.schedule(first, Event::Source(id));
        }
        sources.push(source);
    }
    Ok(sources)
}

/// The first hop of a datagram flow: its line rate (the VC's PCR on ATM, the link's rate on a
/// packet link) and the bits one datagram of `app_bytes` occupies there.
fn first_hop(
    flow: FlowId,
    app_bytes: u64,
    (flows, routes, vcs): (&[Flow], &[Route], &[Vc]),
    (ports, topo): (&[Port], &Topology),
) -> (BitRate, u64) {
    let ip_bytes = app_bytes + flows[flow.index()].header_bytes;
    match routes[flows[flow.index()].route.index()].hops[0] {
        Hop::Vc(v) => (vcs[v.index()].pcr, aal5::cells_for_ip_datagram(ip_bytes) * CELL_BITS),
        Hop::Port(p) => {
            let q = ports[p.index()].packets.as_ref().expect("a packet hop has a packet queue");
            (topo.ports[p.index()].2, q.wire_bytes(ip_bytes) * 8)
        }
    }
}
