//! The routing pass: each route's path becomes hops — a packet link is one hop, a run of ATM
//! links through switches one VC (the flow's own, or one shared between two routers) — and
//! each VC gets its slot at every port it crosses and its policer where it enters a switch.

use super::*;

/// What the routing pass made.
pub(super) struct Routed {
    pub(super) vcs: Vec<Vc>,
    pub(super) routes: Vec<Route>,
    /// Per port, the category of each VC crossing it (a VC's index here is its slot there).
    pub(super) vcs_on_port: Vec<Vec<ServiceCategory>>,
    /// Per VC: made for a run of ATM links between two routers (or a router and a host) and
    /// named after its ends, so that every flow between them shares it; the VC between the
    /// same ends the other way is its other direction.
    pub(super) between_ends: Vec<bool>,
}

pub(super) fn route(nb: &NetworkBuilder, topo: &Topology) -> Result<Routed, BuildError> {
    let mut at = 0;
    route_each(nb, topo, &mut at).map_err(|mut e| {
        // A VC between two routers is named "a->c" after its ends, which the scenario never
        // writes: its errors are placed at the flow whose route made it.
        let spec = &nb.routes[at].0;
        if spec.vc_name.is_none() && e.subject.as_ref().is_some_and(|s| matches!(s, Subject::Vc(n) if *n != spec.name))
        {
            e.subject = Some(Subject::Vc(spec.name.clone()));
        }
        e
    })
}

/// [`route`], with `at` the index of the route being made.
fn route_each(nb: &NetworkBuilder, topo: &Topology, at: &mut usize) -> Result<Routed, BuildError> {
    // Routes: packet links are hops of their own; runs of ATM links through switches are VCs.
    let mut vcs: Vec<Vc> = Vec::new();
    let mut between_ends: Vec<bool> = Vec::new();
    let mut vc_paths: Vec<Vec<NodeId>> = Vec::new();
    let mut vc_by_name: BTreeMap<String, usize> = BTreeMap::new();
    // Per port, the category of each VC crossing it; a VC's index here is its slot there.
    let mut vcs_on_port: Vec<Vec<ServiceCategory>> = vec![Vec::new(); topo.ports.len()];
    let mut routes = Vec::with_capacity(nb.routes.len());
    for (i, (spec, adaptation)) in nb.routes.iter().enumerate() {
        *at = i;
        let path = &spec.path;
        let mut hops = Vec::new();
        let mut i = 0;
        while i + 1 < path.len() {
            let first = topo.port_of(path[i], path[i + 1]);
            if topo.ports[first.index()].4.is_packet() {
                hops.push(Hop::Port(first));
                i += 1;
                continue;
            }
            let mut k = i + 1;
            while nb.nodes[path[k].index()].kind == NodeKind::Switch {
                k += 1;
            }
            let nodes = path[i..=k].to_vec();
            let whole = i == 0 && k == path.len() - 1;
            let vc_name = if let Some(shared) = &spec.vc_name {
                shared.clone()
            } else if whole {
                spec.name.clone()
            } else {
                format!("{}->{}", nb.nodes[path[i].index()].name, nb.nodes[path[k].index()].name)
            };
            let existing = vc_by_name.get(&vc_name).copied();
            let vc = match existing {
                Some(v) if vc_paths[v] == nodes => VcId::from_index(v),
                Some(_) => {
                    return Err(BuildError::about(
                        Subject::Vc(vc_name.clone()),
                        Field::Path,
                        "two flows take different paths between its ends",
                    ))
                }
                None => {
                    let ports: Vec<PortId> = nodes.windows(2).map(|w| topo.port_of(w[0], w[1])).collect();
                    if ports.iter().any(|p| topo.ports[p.index()].4.is_packet()) {
                        return Err(BuildError::about(
                            Subject::Vc(vc_name.clone()),
                            Field::Path,
                            "crosses a packet link",
                        ));
                    }
                    if ports.len() > usize::from(u8::MAX) {
                        return Err(BuildError::about(
                            Subject::Vc(vc_name.clone()),
                            Field::Pcr,
                            "longer than 255 hops",
                        ));
                    }
                    let first_rate = topo.ports[ports[0].index()].2;
                    let pcr = spec.pcr.unwrap_or(first_rate);
                    if pcr > first_rate {
                        return Err(BuildError::about(
                            Subject::Vc(vc_name.clone()),
                            Field::Pcr,
                            format!("pcr {pcr} exceeds the first link's rate {first_rate}"),
                        ));
                    }
                    let id = VcId::from_index(vcs.len());
                    // The UPC sits where the VC enters the first switch.
                    let policer = match (&spec.contract, nb.nodes[nodes[1].index()].kind) {
                        (Some(desc), NodeKind::Switch) => Some(Policer::Upc(Upc::new(desc).map_err(|e| {
                            BuildError::about(Subject::Vc(vc_name.clone()), Field::Contract, format!("contract: {e}"))
                        })?)),
                        (None, NodeKind::Switch) => match gfr::policer(nb, spec, &vc_name)? {
                            Some(gfr) => Some(gfr),
                            None => abr::policer(nb, spec, &vc_name, pcr)?,
                        },
                        _ => None,
                    };
                    super::limits::vcs_fit_ports(nb, topo, &ports, &vcs_on_port, &vc_name)?;
                    let mut hops = Vec::with_capacity(ports.len());
                    for &p in &ports {
                        let slot = u32::try_from(vcs_on_port[p.index()].len()).expect("VCs per port fit 32 bits");
                        hops.push((p, slot));
                        vcs_on_port[p.index()].push(spec.category);
                    }
                    vc_by_name.insert(vc_name.clone(), vcs.len());
                    vcs.push(Vc {
                        name: vc_name,
                        category: spec.category,
                        pcr,
                        adaptation: *adaptation,
                        src: nodes[0],
                        dst: nodes[nodes.len() - 1],
                        route: hops,
                        policer: policer.map(Box::new),
                        reassembly_timeout: nb.nodes[nodes[nodes.len() - 1].index()].reassembly_timeout,
                        reassembler: Reassembler::default(),
                        peak_interval: Vc::peak_interval_of(pcr),
                        stats: VcStats::default(),
                    });
                    vc_paths.push(nodes);
                    between_ends.push(spec.vc_name.is_none() && !whole);
                    id
                }
            };
            hops.push(Hop::Vc(vc));
            i = k;
        }
        if hops.len() > usize::from(u8::MAX) {
            return err(Field::Path, format!("route '{}': more than 255 hops", spec.name));
        }
        routes.push(Route { name: spec.name.clone(), hops, src: path[0], dst: path[path.len() - 1] });
    }
    Ok(Routed { vcs, routes, vcs_on_port, between_ends })
}
