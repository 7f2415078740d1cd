//! Links into routers carried by horizon: a packet put on a link into a router whose next port
//! hears from other links too is handed to that port at once, with the clock at its arrival,
//! when nothing can reach the port before it does.
//!
//! A link into a port fed by that link alone is carried outright (`carry`): the port's state
//! changes only with what the link brings, in order. A router port fed by several links (the
//! dumbbell's first router, fed by its senders' access links; the second, fed by the receivers'
//! acknowledgements) sees their packets interleaved in time, so each packet waits in its pipe
//! for a `PipeHead` event at its arrival. It need not when its arrival comes before the earliest
//! event in the queue, and before anything the event being handled may still do can reach the
//! port by another link. Its `PipeHead` event would then have been the next one, with nothing
//! before it that could tell: it is handled now, with the clock at its arrival.
//!
//! What the event being handled may still do: its node acts (a host's TCP, a router forwarding);
//! what it sends reaches other nodes through carried links at once, with the clock at their
//! arrival: routers forward it on, hosts queue it for their processing, whose end is an event
//! (a link is carried into a host only so, `plan_tcp_deliveries`). Every other action is an
//! event in the queue, so after its earliest. So a
//! packet put on another feeder `g` by its node `m`, from now on and before that earliest
//! event, arrives no sooner than `reach(m) + delay(g)` from now, where `reach(m)` is the least
//! time from now in which anything can reach `m` through carried links: from a host (which may
//! be the one acting), from a link that is not carried (its node may put a packet on it now; a
//! packet already on it arrives by an event), back along the routes. (`m` is not the node that
//! put the packet: one link joins two nodes.) The packet's own node is a host, which acts only
//! in its own events, never within a carried step: it puts the packet with the clock at the
//! event's instant.
//!
//! Exactness rests on three rules. The packet is carried only when the earliest event in the
//! queue and every other feeder's bound are strictly later than its arrival, so no arrival ties
//! with it. A packet carried keeps the place its `PipeHead` event would have taken
//! (`EventQueue::reserve`, `packet_onto_horizon_link`): the next packet put on the link while
//! that place is ahead would have followed it in the pipe, so it is not carried, and its event
//! takes that place and then schedules its own, as the events would; so the pipe's events keep
//! the reference's places among the others of their instant. And nothing is carried at or past
//! the next observation or the run's end (`carry_before`). Not where one node's events schedule
//! another's directly (back-to-back files start the next transfer's sender from its sink's
//! event), and only in packet mode: the cell paths that act without events of their own (ports
//! whose departures wait for the next event that meets them, `queues_ahead`; a fan-in group's
//! heads in its ring) have not been examined against the earliest event as a bound.

use super::tcp::App;
use super::{Hop, Mode, Network, NodeKind};
use celltrain_core::ids::PortId;
use celltrain_core::time::{SimDuration, SimTime};

/// Plan: per port, when its link is carried by horizon, the least time from now in which a
/// packet can reach its router's next ports by another link (`HORIZON_NONE` when not).
#[derive(Default)]
pub(super) struct Horizons {
    others: Vec<SimDuration>,
}

const HORIZON_NONE: SimDuration = SimDuration::ZERO;

/// No bound: nothing can come that way.
const NEVER: SimDuration = SimDuration::from_picos(u64::MAX);

impl Network {
    /// Per port: the hop before it on every route through it, when each is a packet link
    /// (`route_feeders`, less the ports a VC or the port's own node feeds).
    fn packet_feeders(&self) -> Vec<Option<Vec<PortId>>> {
        let mut feeders = self.route_feeders();
        for links in &mut feeders {
            if links.as_ref().is_some_and(|l| l.iter().any(|q| self.ports[q.index()].packets.is_none())) {
                *links = None;
            }
        }
        feeders
    }

    /// Per port, when it is a packet link into a router whose every route goes on to ports fed
    /// by packet links, at least two: those ports.
    fn shared_targets(&self, feeders: &[Option<Vec<PortId>>]) -> Vec<Option<Vec<PortId>>> {
        let mut targets: Vec<Option<Vec<PortId>>> = vec![None; self.ports.len()];
        let mut fails = vec![false; self.ports.len()];
        for route in &self.routes {
            for (i, hop) in route.hops.iter().enumerate() {
                let Hop::Port(q) = *hop else { continue };
                let next = match route.hops.get(i + 1) {
                    Some(&Hop::Port(p)) if feeders[p.index()].as_ref().is_some_and(|f| f.len() >= 2) => p,
                    _ => {
                        fails[q.index()] = true;
                        continue;
                    }
                };
                let t = targets[q.index()].get_or_insert_with(Vec::new);
                if !t.contains(&next) {
                    t.push(next);
                }
            }
        }
        for (q, t) in targets.iter_mut().enumerate() {
            if fails[q] || self.ports[q].packets.is_none() {
                *t = None;
            }
        }
        targets
    }

    /// Plans the links carried by horizon (after `plan_carry`): a packet link into a router
    /// whose every route goes on to ports fed by packet links, at least two, each of those
    /// ports' links carried; the link's port analytic, uncaptured, with no policer where it
    /// delivers.
    pub(super) fn plan_horizons(&mut self) {
        let n = self.ports.len();
        let mut others = vec![HORIZON_NONE; n];
        let files = self.conns.iter().any(|c| matches!(c.app, App::Files { .. }));
        let on = self.options.carry_ahead && self.options.horizons && self.mode == Mode::Packet && !files;
        if on {
            let feeders = self.packet_feeders();
            let targets = self.shared_targets(&feeders);
            let (put, reach) = self.reach(&feeders);
            for (q, target) in targets.iter().enumerate() {
                let Some(target) = target else { continue };
                let port = &self.ports[q];
                // (A host's link: a host never acts within a carried step, only in its own
                // events, so its packets are put with the clock at the event's instant.)
                let plain = port.packets.as_ref().is_some_and(|pq| pq.runs_analytically() && pq.policer().is_none())
                    && !port.link.is_captured()
                    && !port.plan.carry
                    && self.nodes[port.from.index()].kind == NodeKind::Host;
                let onward = target.iter().all(|p| {
                    let next = &self.ports[p.index()];
                    next.plan.carry && next.packets.as_ref().is_some_and(|pq| pq.runs_analytically())
                });
                if !(plain && onward) {
                    continue;
                }
                let mut least = NEVER;
                for p in target {
                    for &g in feeders[p.index()].as_deref().unwrap_or_default() {
                        if g.index() == q {
                            continue;
                        }
                        // When the node of `g` may next put a packet on it: a host when something
                        // reaches it (its own events are in the queue); a router when its port
                        // `g` is put a packet. (Not the node acting: one link joins two nodes.)
                        let from = self.ports[g.index()].from;
                        let acts = if self.nodes[from.index()].kind == NodeKind::Host {
                            reach[from.index()]
                        } else {
                            put[g.index()]
                        };
                        least = least.min(acts + self.ports[g.index()].delay());
                    }
                }
                // (A bound of nought carries nothing: the arrival comes after now.)
                others[q] = least;
            }
        }
        for (q, port) in self.ports.iter_mut().enumerate() {
            if let Some(pq) = &mut port.packets {
                pq.plan_horizon(others[q] != HORIZON_NONE);
            }
        }
        self.horizons = Horizons { others };
    }

    /// Per port, the least time from now in which a packet not yet on its link may be put on
    /// it; per node, in which anything not yet in the event queue can reach it through carried
    /// links (see the module's note).
    fn reach(&self, feeders: &[Option<Vec<PortId>>]) -> (Vec<SimDuration>, Vec<SimDuration>) {
        // Per port: the least time from now in which a packet not yet on its link may be put
        // on it; now for a host's port (the host may be the one acting), or one fed otherwise
        // than by packet links; from a router, found below.
        let mut put = vec![NEVER; self.ports.len()];
        for (p, port) in self.ports.iter().enumerate() {
            let from_router = matches!(self.nodes[port.from.index()].kind, NodeKind::Router | NodeKind::Switch);
            if port.packets.is_none() || !from_router || feeders[p].is_none() {
                put[p] = SimDuration::ZERO;
            }
        }
        // Relax: a port fed by a link takes what that link brings no sooner than the link's own
        // put bound plus its delay when it is carried, or its delay when it is not (its node
        // may put a packet on it now; one already on it arrives by an event).
        loop {
            let mut changed = false;
            for (p, feeds) in feeders.iter().enumerate() {
                let Some(feeds) = feeds else { continue };
                if put[p] == SimDuration::ZERO {
                    continue;
                }
                let mut least = NEVER;
                for &k in feeds {
                    let link = &self.ports[k.index()];
                    let before = if link.plan.carry { put[k.index()] } else { SimDuration::ZERO };
                    least = least.min(before + link.delay());
                }
                if least < put[p] {
                    put[p] = least;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut reach = vec![NEVER; self.nodes.len()];
        for (p, port) in self.ports.iter().enumerate() {
            let to = port.to.index();
            let before = if port.plan.carry && port.packets.is_some() { put[p] } else { SimDuration::ZERO };
            reach[to] = reach[to].min(before + port.delay());
        }
        (put, reach)
    }

    /// Whether a packet put now on link `p` (carried by horizon, its pipe empty), arriving at
    /// `arrival`, reaches its router's next ports before anything else can (see the module's
    /// note).
    #[inline]
    pub(super) fn clear_ahead(&self, p: PortId, arrival: SimTime) -> bool {
        let instant = self.place.time();
        debug_assert_eq!(self.now, instant, "a host's packet put within a carried step");
        instant + self.horizons.others[p.index()] > arrival
            && self.queue.earliest_place().is_none_or(|e| e.time() > arrival)
    }
}
