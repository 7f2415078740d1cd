//! The ABR pass: every ABR VC is paired with its other direction (the TCP acknowledgements'
//! VC, the VC back between the same two routers, or one added for RM cells alone), each gets a source end
//! system with its parameters, and each switch given an explicit-rate algorithm runs it on
//! every output port that ABR VCs leave by.

use super::*;
use crate::network::{AbrEndSpec, AbrSystem};
use celltrain_atm::abr::{AbrParams, ExplicitRate};
use celltrain_atm::contract::{Dgcra, DgcraContract};

/// ABR settings collected by the builder.
#[derive(Clone, Debug, Default)]
pub(super) struct AbrSettings {
    /// The end systems' parameters (the PCR is each VC's own).
    pub(super) params: Option<AbrParams>,
    /// Per switch: its algorithm and averaging interval.
    pub(super) switches: BTreeMap<NodeId, (ExplicitRate, SimDuration)>,
    /// Turned-around RM cells go back at once, taking no in-rate opportunity of their end
    /// system (MSc98's upper bound assumes it).
    pub(super) ideal_backward: bool,
    /// By route name: the VCs whose conformance a DGCRA polices where they enter their first
    /// switch.
    pub(super) conformance: BTreeMap<String, DgcraContract>,
    /// Route names (a, b): a's VCs are the other direction of b's, hop by hop (`reverse_of`).
    pub(super) reverse_of: Vec<(String, String)>,
}

impl NetworkBuilder {
    /// Polices the ABR VC of route `route` by a DGCRA with `contract` (checked here) where it
    /// enters its first switch.
    pub fn set_abr_conformance(&mut self, route: &str, contract: DgcraContract) -> Result<(), BuildError> {
        contract
            .validate()
            .map_err(|e| BuildError::about(Subject::Vc(route.to_string()), Field::Contract, e.to_string()))?;
        self.abr.conformance.insert(route.to_string(), contract);
        Ok(())
    }

    /// Makes the VCs of route `route` the other direction of those of route `of` (which must run
    /// the other way along the same path): over ABR each carries the other's RM cells back, as a
    /// TCP flow's acknowledgements' VC does its data's. Checked at build.
    pub fn set_reverse_of(&mut self, route: &str, of: &str) {
        self.abr.reverse_of.push((route.to_string(), of.to_string()));
    }

    /// A TCP flow's acknowledgements go back on a VC policed as its data's (as a VBR or GFR
    /// contract is).
    pub(super) fn copy_abr_conformance(&mut self, from_route: &str, to_route: &str) {
        if let Some(&c) = self.abr.conformance.get(from_route) {
            self.abr.conformance.insert(to_route.to_string(), c);
        }
    }
}

/// The source parameters of an ABR VC of peak rate `pcr`: the scenario's (TM 4.0's defaults
/// without them) with the VC's PCR, and the ICR and MCR no higher.
fn vc_params(settings: &AbrSettings, pcr: BitRate) -> AbrParams {
    let template = settings.params.clone().unwrap_or_else(|| AbrParams::tm4_defaults(f64::MAX));
    let params = AbrParams { pcr: pcr.as_bps() as f64 / CELL_BITS as f64, ..template };
    AbrParams { icr: params.icr.min(params.pcr), mcr: params.mcr.min(params.pcr), ..params }
}

/// The parameters of `vc`'s source, checked.
fn checked_params(settings: &AbrSettings, vc_name: &str, pcr: BitRate) -> Result<AbrParams, BuildError> {
    let params = vc_params(settings, pcr);
    params
        .validate()
        .map_err(|e| BuildError::about(Subject::Vc(vc_name.to_string()), Field::Abr, format!("ABR parameters: {e}")))?;
    Ok(params)
}

/// The DGCRA of the VC that route `spec` opens (of peak rate `pcr`), when its conformance is
/// policed and it enters a switch: it reads the same parameters as the VC's source.
pub(super) fn policer(
    nb: &NetworkBuilder,
    spec: &VcSpec,
    vc_name: &str,
    pcr: BitRate,
) -> Result<Option<Policer>, BuildError> {
    let Some(&contract) = nb.abr.conformance.get(&spec.name) else { return Ok(None) };
    if spec.category != ServiceCategory::Abr {
        return Err(BuildError::about(
            Subject::Vc(vc_name.to_string()),
            Field::Contract,
            format!("ABR conformance on a {} VC", spec.category),
        ));
    }
    let params = checked_params(&nb.abr, vc_name, pcr)?;
    let dgcra = Dgcra::new(&params, contract)
        .map_err(|e| BuildError::about(Subject::Vc(vc_name.to_string()), Field::Contract, e.to_string()))?;
    Ok(Some(Policer::Dgcra(Box::new(dgcra))))
}

/// The node path of a VC: its source, then the far end of each port.
fn node_path(vc: &Vc, topo: &Topology) -> Vec<NodeId> {
    let mut nodes = vec![vc.src];
    nodes.extend(vc.route.iter().map(|&(p, _)| topo.ports[p.index()].1));
    nodes
}

/// Where two VCs are one VC's two directions: a TCP flow's VCs and those its acknowledgements
/// take back, hop by hop, and a flow's and those of the flow it is the reverse of
/// (`reverse_of`); and a VC between two routers and the one between them the other way.
/// `None` where no VC is another's other direction (a one-way flow's, even when another flow
/// runs the other way between the same ends).
fn other_directions(
    nb: &NetworkBuilder,
    topo: &Topology,
    routed: &super::routing::Routed,
) -> Result<Vec<Option<usize>>, BuildError> {
    let vcs = &routed.vcs;
    let mut other: Vec<Option<usize>> = vec![None; vcs.len()];
    // (Only ABR VCs have pairs: two VCs of other categories are left as they are.)
    let mut join = |a: usize, b: usize| -> Result<(), BuildError> {
        if vcs[a].category != ServiceCategory::Abr && vcs[b].category != ServiceCategory::Abr {
            return Ok(());
        }
        for (x, y) in [(a, b), (b, a)] {
            match other[x] {
                Some(z) if z != y => {
                    return Err(BuildError::about(
                        Subject::Vc(vcs[x].name.clone()),
                        Field::Abr,
                        format!(
                            "it would carry the RM cells of both '{}' and '{}' back (give the flows VCs of their own)",
                            vcs[z].name, vcs[y].name
                        ),
                    ))
                }
                _ => other[x] = Some(y),
            }
        }
        Ok(())
    };
    let vcs_of = |r: RouteId| -> Vec<usize> {
        routed.routes[r.index()]
            .hops
            .iter()
            .filter_map(|h| match h {
                Hop::Vc(v) => Some(v.index()),
                Hop::Port(_) => None,
            })
            .collect()
    };
    let mut both_ways: Vec<(Vec<usize>, Vec<usize>)> =
        nb.tcps.iter().map(|&(flow, back, _)| (vcs_of(nb.flows[flow.index()].2), vcs_of(back))).collect();
    for (route, of) in &nb.abr.reverse_of {
        let by_name = |name: &str| routed.routes.iter().position(|r| r.name == name).map(RouteId::from_index);
        let about = |message: String| BuildError::about(Subject::Vc(route.clone()), Field::Abr, message);
        let (Some(back), Some(there)) = (by_name(route), by_name(of)) else {
            return Err(about(format!("reverse_of: no flow '{of}'")));
        };
        let (there, back) = (vcs_of(there), vcs_of(back));
        let reversed = there.len() == back.len()
            && there.iter().zip(back.iter().rev()).all(|(&a, &b)| {
                let mut path = node_path(&vcs[b], topo);
                path.reverse();
                path == node_path(&vcs[a], topo)
            });
        if !reversed {
            return Err(about(format!("reverse_of: flow '{of}' does not run the other way along this flow's path")));
        }
        both_ways.push((there, back));
    }
    for (there, back) in &both_ways {
        for (&a, &b) in there.iter().zip(back.iter().rev()) {
            join(a, b)?;
        }
    }
    let mut between_ends: BTreeMap<Vec<NodeId>, usize> = BTreeMap::new();
    for (i, v) in vcs.iter().enumerate() {
        if routed.between_ends[i] {
            between_ends.insert(node_path(v, topo), i);
        }
    }
    for (path, &a) in &between_ends {
        let back: Vec<NodeId> = path.iter().rev().copied().collect();
        if let Some(&b) = between_ends.get(&back) {
            if a < b {
                join(a, b)?;
            }
        }
    }
    Ok(other)
}

/// Pairs every ABR VC with its other direction (see [`other_directions`]), adding one for its
/// RM cells alone, with slots on the ports it crosses, where it has none; returns the pairs
/// (v, w), each VC once as `v`.
pub(super) fn pair(
    nb: &NetworkBuilder,
    topo: &Topology,
    routed: &mut super::routing::Routed,
) -> Result<Vec<(VcId, VcId)>, BuildError> {
    if routed.vcs.iter().all(|v| v.category != ServiceCategory::Abr) {
        return Ok(Vec::new());
    }
    let other = other_directions(nb, topo, routed)?;
    let super::routing::Routed { vcs, vcs_on_port, .. } = routed;
    let abr: Vec<usize> = (0..vcs.len()).filter(|&i| vcs[i].category == ServiceCategory::Abr).collect();
    let mut pairs = Vec::new();
    for i in abr {
        let w = match other[i] {
            Some(w) if vcs[w].category == ServiceCategory::Abr => w,
            Some(w) => {
                return Err(BuildError::about(
                    Subject::Vc(vcs[i].name.clone()),
                    Field::Abr,
                    format!("its reverse VC '{}' is {}, not ABR", vcs[w].name, vcs[w].category),
                ))
            }
            None => {
                // A one-way flow: a VC the other way carries its RM cells back.
                let mut back = node_path(&vcs[i], topo);
                back.reverse();
                let mut route = Vec::with_capacity(back.len() - 1);
                for hop in back.windows(2) {
                    let p = topo.port_of(hop[0], hop[1]);
                    let slot = u32::try_from(vcs_on_port[p.index()].len()).expect("VCs per port fit 32 bits");
                    vcs_on_port[p.index()].push(ServiceCategory::Abr);
                    route.push((p, slot));
                }
                let v = &vcs[i];
                let reverse = Vc {
                    name: format!("{}-rm", v.name),
                    category: ServiceCategory::Abr,
                    pcr: v.pcr,
                    adaptation: Adaptation::Aal5,
                    route,
                    policer: None,
                    reassembly_timeout: None,
                    src: v.dst,
                    dst: v.src,
                    reassembler: Reassembler::default(),
                    peak_interval: v.peak_interval,
                    stats: VcStats::default(),
                };
                vcs.push(reverse);
                // The added VC is an end system of its own (it turns the first's RM cells around).
                pairs.push((VcId::from_index(vcs.len() - 1), VcId::from_index(i)));
                vcs.len() - 1
            }
        };
        pairs.push((VcId::from_index(i), VcId::from_index(w)));
    }
    Ok(pairs)
}

/// The end systems of the pairs, and the switches' algorithms on the ports ABR VCs leave by.
/// (`node_buffers`: each node's adapter buffer, cells: an end system's buffer.)
pub(super) fn end_systems(
    settings: &AbrSettings,
    node_buffers: &[u32],
    pairs: &[(VcId, VcId)],
    network: &mut Network,
) -> Result<AbrSystem, BuildError> {
    if pairs.is_empty() {
        return Ok(AbrSystem::default());
    }
    let mut ends = Vec::with_capacity(pairs.len());
    for &(v, w) in pairs {
        let vc = &network.vcs[v.index()];
        // (Without parameters, TM 4.0's defaults: ICR = PCR.)
        let params = checked_params(settings, &vc.name, vc.pcr)?;
        let first = vc.route[0].0;
        let capacity = node_buffers[network.ports[first.index()].from.index()];
        // Backward RM cells on `v` carry `w`'s feedback.
        let feedback = feedback_ports(network, w, v);
        // Every cell reaching this end comes by the paired VC's last port.
        let feed = network.vcs[w.index()].route.last().map(|&(p, _)| p);
        let alone_on_adapter = network.vcs.iter().filter(|x| x.route[0].0 == first).count() == 1;
        ends.push(AbrEndSpec { vc: v, peer: w, params, capacity_cells: capacity, feedback, feed, alone_on_adapter });
    }
    for (&switch, (algorithm, interval)) in &settings.switches {
        let leaving: BTreeSet<PortId> = pairs
            .iter()
            .flat_map(|&(v, _)| network.vcs[v.index()].route.iter().map(|&(p, _)| p))
            .filter(|p| network.ports[p.index()].from == switch)
            .collect();
        for p in leaving {
            network.set_explicit_rate(p, algorithm.clone(), *interval);
        }
    }
    let mut system = AbrSystem::new(network.vcs.len(), ends);
    system.ideal_backward = settings.ideal_backward;
    // The backward RM cells with `v`'s feedback travel on `w`: its end system's cells are
    // shown to `v`'s policer where they leave `v`'s first switch (`w`'s last port).
    for &(v, w) in pairs {
        if network.vcs[v.index()].policer.as_ref().is_some_and(|p| p.watches_backward_rm()) {
            let a = system.of(w).expect("both VCs of a pair have end systems");
            system.ends[a].watched_by = Some(v);
            system.watching = true;
        }
    }
    Ok(system)
}

/// Per hop of `w`'s route: where a backward RM cell with `v`'s feedback, travelling on `w`,
/// meets `v`'s port at the same switch (and `v`'s slot there).
fn feedback_ports(network: &Network, v: VcId, w: VcId) -> Vec<Option<(PortId, u32)>> {
    let forward = &network.vcs[v.index()].route;
    network.vcs[w.index()]
        .route
        .iter()
        .map(|&(p, _)| {
            let at = network.ports[p.index()].from;
            forward.iter().copied().find(|&(q, _)| network.ports[q.index()].from == at)
        })
        .collect()
}
