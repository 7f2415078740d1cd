//! Carrying cells across a link at once, without a pipe event.
//!
//! A cell put on a link normally waits in the link's pipe for a `PipeHead` event at its arrival
//! time, because what happens at the far end may depend on other events in between. It does
//! not when the far end hears only from this link:
//! - a single-FIFO switch port (no shaping, no capture) whose every cell comes through this
//!   link, and whose own link is carried in turn: its state changes only with the cells this
//!   port sends it, in order, and the start times of its cells are known when they arrive;
//! - the destination adapter of VCs whose delivery has no consequence elsewhere: ATM-layer
//!   (raw) cells, AAL5 frames of UDP flows that end there (no capture at that host), and AAL5
//!   frames of TCP flows that end at a host that takes a time to process each segment, or
//!   none, and hears TCP over that link alone (the segment joins the host's processing queue,
//!   whose outcome depends only on the order of arrivals, and whose end has a place by rule in
//!   its instant), never on an ABR VC (its destination turns RM cells around);
//! - a router's LAN link into a host, when it is the last hop of UDP routes only, or of TCP
//!   routes into a host's receive processing as above (over ABR, only a host that takes no
//!   time), and the router hears these routes' packets over one link: the LAN port is an
//!   analytic drop-tail FIFO, so a packet forwarded there gets its start time as it arrives and
//!   reaches the host at once (`packet_carry`); and then the link into the router is carried
//!   too: an ATM link, the router reassembling and forwarding with the clock at the frame's
//!   last cell's arrival (MSc98's internetworks, BN01's), or a packet link whose every route
//!   goes on over links so carried, the router forwarding with the clock at the packet's
//!   arrival (a packet network's routers, back to the one before the last:
//!   `packet_links_into_routers`; T1 in packet mode, peer twin `c`). A LAN link's packet held
//!   back by the bound goes by its pipe's events, and the packets behind it, until they all
//!   arrive before the bound; its `PipeHead` event is then scheduled as the router forwards it,
//!   with the clock at the cell's arrival: the one event a carried cell puts on the queue whose
//!   place among the events of its instant may differ from the reference's. The far end is a
//!   UDP sink, whose deliveries only add to counters that no observation reads at its instant
//!   (the window opens first in its instant; samples record no UDP flow's deliveries), or a TCP
//!   host that only queues the segment, in the order the link brings them, for an end of
//!   processing whose place is set by rule: were either to act at that instant, the event would
//!   need a place by rule.
//!
//! Such a link is "carried ahead": the far end handles the cell right away, with the network's
//! clock set to the cell's arrival time, and puts no event on the queue, but for one whose place
//! among the events of its instant is set by rule, not by when it is scheduled: the end of a TCP
//! segment's processing at its host (first in its instant, or closing it at a host that takes
//! no time). The outcome is the one the pipe event would have had
//! (tests compare every summary field with carrying off); only the processing order differs, so
//! the trace hash and the event count change. Carrying stops at the next observation of the
//! network — the warm-up boundary, a sampling instant, the end of the run — so no counter or
//! sample can see a cell early, and behind any cell still in the pipe, so cells keep their order.
//!
//! **Data only.** The last link of ABR VCs carries their data cells so, and their RM cells by
//! the pipe's events, when their delivery is otherwise as above: a forward RM cell is turned
//! around by the destination's end system, whose state the paired VC's events read, so it must
//! arrive in time order; a data cell only counts, joins its frame (a UDP flow's, or a TCP
//! segment queued for its host's processing or delivered as its instant closes) and tells the
//! destination its EFCI bit, which no port on the VC's route sets (none marks EFCI): it has no
//! consequence for the RM cells it passes. The pipe then holds the RM cells (and data cells
//! held back by the bound, which the next data cell carried takes first). An RM cell's
//! `PipeHead` event on its VC's last link is last in its instant by rule, with fast paths or
//! without (`PortPlan::abr_last_link`): its place no longer follows from the data cells before
//! it, which leave the pipe early.

use super::cell_path::{Asked, Known};
use super::link::HeldBack;
use super::plan::Sole;
use super::{Adaptation, Event, FlowKind, Hop, Network};
use celltrain_atm::cell::{Cell, CellKind};
use celltrain_atm::ServiceCategory;
use celltrain_core::ids::PortId;
use celltrain_core::time::{SimDuration, SimTime};

/// Trace-hash kind of a carried cell: the kind of the `PipeHead` event it replaces.
pub(super) const TRACE_PIPE_HEAD: u32 = 1;

/// Per VC: whether its deliveries at its destination have no consequence elsewhere (`terminal`,
/// never an ABR VC), and for an ABR VC whether its data cells' have none (`abr_data`).
struct Quiet {
    terminal: Vec<bool>,
    abr_data: Vec<bool>,
}

impl Network {
    /// Decides which links are carried ahead (after build, and again when captures open).
    pub(super) fn plan_carry(&mut self) {
        let n = self.ports.len();
        // (Which links end ABR VCs whose data cells may be carried is decided with carrying
        // off too: their RM cells' events keep the same rule either way.)
        let on = self.options.carry_ahead;
        // The port that feeds each port, if exactly one does (its own node feeding it counts
        // as another feeder).
        let mut feeder = vec![Sole::Unseen; n];
        for vc in &self.vcs {
            for (h, &(q, _)) in vc.route.iter().enumerate() {
                feeder[q.index()].meet(if h == 0 { Sole::Many } else { Sole::One(vc.route[h - 1].0) });
            }
        }
        // VCs whose delivery at their destination has no consequence elsewhere.
        let udp_only = self.udp_only_routes();
        let feeders = self.packet_link_feeders();
        let fed_by_one: Vec<bool> = feeders.iter().map(|f| matches!(f, Sole::One(_))).collect();
        let tcp_route = self.plan_tcp_deliveries();
        // LAN links that may be carried, with analytic ports or without (the rule for ABR's RM
        // cells, below, must not depend on the options), and those that are; then the packet
        // links into routers that forward onto those alone.
        let lan_end = self.packet_links_into_quiet_hosts(&udp_only, &tcp_route, &fed_by_one);
        let mut packet_carried: Vec<bool> = (0..n)
            .map(|i| lan_end[i] && self.ports[i].packets.as_ref().is_some_and(|q| q.runs_analytically()))
            .collect();
        self.packet_links_into_routers(&mut packet_carried, &feeders);
        // Raw VCs always; AAL5 VCs used only as the last hop of UDP routes, or of TCP routes
        // into a host's receive processing (see `plan_tcp_deliveries`), to uncaptured
        // hosts; and as the hop before the last of UDP routes whose last, a packet link from
        // the VC's far end (a router), is carried (see `packet_links_into_quiet_hosts`).
        // Per VC: whether its deliveries are safe (`Quiet::terminal`), or its data cells' (ABR).
        let quiet = |lans: &[bool]| -> Quiet {
            let mut seen_safe = vec![false; self.vcs.len()];
            let mut seen_unsafe = vec![false; self.vcs.len()];
            for (r, route) in self.routes.iter().enumerate() {
                let quiet_end = udp_only[r] || tcp_route[r];
                let n_hops = route.hops.len();
                for (i, hop) in route.hops.iter().enumerate() {
                    if let Hop::Vc(v) = *hop {
                        let then_carried = match route.hops.get(i + 1) {
                            None => true,
                            Some(&Hop::Port(q)) => i + 2 == n_hops && lans[q.index()],
                            Some(&Hop::Vc(_)) => false,
                        };
                        let safe = quiet_end && then_carried && !self.recorder.captures(route.dst);
                        let seen = if safe { &mut seen_safe } else { &mut seen_unsafe };
                        seen[v.index()] = true;
                    }
                }
            }
            let delivered_quietly =
                |v: usize| self.vcs[v].adaptation == Adaptation::Raw || (seen_safe[v] && !seen_unsafe[v]);
            Quiet {
                // (An ABR VC's destination turns RM cells around: its deliveries always have
                // consequences.)
                terminal: (0..self.vcs.len())
                    .map(|v| self.vcs[v].category != ServiceCategory::Abr && delivered_quietly(v))
                    .collect(),
                // ABR VCs whose data cells may be carried to their destination (see the module's
                // "Data only"): delivered where the others would be, and no port on the way sets
                // EFCI.
                abr_data: (0..self.vcs.len())
                    .map(|v| {
                        let vc = &self.vcs[v];
                        vc.category == ServiceCategory::Abr
                            && delivered_quietly(v)
                            && vc.route.iter().all(|&(p, _)| !self.ports[p.index()].queue.marks_efci())
                    })
                    .collect(),
            }
        };
        let (by_rule, carried) = (quiet(&lan_end), quiet(&packet_carried));
        let (terminal_safe, abr_data_safe) = (&carried.terminal, &carried.abr_data);
        let target_ok = |q: PortId, from: PortId, ports: &[super::Port]| {
            let port = &ports[q.index()];
            feeder[q.index()] == Sole::One(from) && port.plainly_analytic() && port.packets.is_none()
        };
        let mut carry = vec![true; n];
        let mut used = vec![false; n];
        // Links that end every VC on them, each safe or ABR with safe data, one at least ABR:
        // carried so (with the LAN links as they are planned), and where the rule for their RM
        // cells holds (with the LAN links that may be carried, whatever the options).
        let mut data_only = vec![true; n];
        let mut ends_abr = vec![false; n];
        let mut rule_data_only = vec![true; n];
        let mut rule_ends_abr = vec![false; n];
        for (v, vc) in self.vcs.iter().enumerate() {
            for (h, &(p, _)) in vc.route.iter().enumerate() {
                used[p.index()] = true;
                let ok = match vc.route.get(h + 1) {
                    Some(&(q, _)) => target_ok(q, p, &self.ports),
                    None => terminal_safe[v],
                };
                carry[p.index()] &= ok;
                let last = h + 1 == vc.route.len();
                data_only[p.index()] &= last && (terminal_safe[v] || abr_data_safe[v]);
                ends_abr[p.index()] |= abr_data_safe[v];
                rule_data_only[p.index()] &= last && (by_rule.terminal[v] || by_rule.abr_data[v]);
                rule_ends_abr[p.index()] |= by_rule.abr_data[v];
            }
            // A policer that reads backward RM cells decides on the VC's cells and the feedback
            // together, in time order: a cell carried to it early could be judged before
            // feedback that passed the switch before the cell arrived. (No ABR VC's link is
            // carried today, its destination turning RM cells around: this keeps it so.)
            if vc.policer.as_ref().is_some_and(|p| p.watches_backward_rm()) {
                carry[vc.route[0].0.index()] = false;
                data_only[vc.route[0].0.index()] = false;
                rule_data_only[vc.route[0].0.index()] = false;
            }
        }
        // Links into the last ports of their VCs, each port fed by this link alone and one at
        // least the last of ABR VCs whose data cells may be carried, the others' VCs safe to
        // carry whole (see `as_of`): their cells arrive last in their instant by rule, whatever
        // the options; carried (with such ports' cells carried), the ports of ABR VCs answer
        // their readers as of an instant. Not an adapter's link (its cells are an end system's),
        // nor where a policer reads backward RM cells. (Links into no port of ABR VCs are left
        // to the rest of the plan: no rule for their arrivals.)
        let watching = self.vcs.iter().any(|vc| vc.policer.as_ref().is_some_and(|p| p.watches_backward_rm()));
        let mut into_ends = vec![!watching; n];
        let mut into_carried_ends = vec![true; n];
        let mut into_abr_end = vec![false; n];
        for vc in &self.vcs {
            for (h, &(p, _)) in vc.route.iter().enumerate() {
                let ok = match vc.route.get(h + 1) {
                    Some(&(q, _)) => {
                        let ends = used[q.index()] && rule_data_only[q.index()];
                        into_abr_end[p.index()] |= rule_ends_abr[q.index()];
                        into_carried_ends[p.index()] &= used[q.index()] && data_only[q.index()];
                        let target = &self.ports[q.index()];
                        let reads_ok = target.er.as_ref().is_none_or(|er| !er.algorithm_reads_queue_at_rm());
                        ends && target_ok(q, p, &self.ports)
                            && target.queue.changes().is_none()
                            && target.queue.pool_count() <= super::as_of::MAX_POOLS
                            && reads_ok
                    }
                    None => false,
                };
                into_ends[p.index()] &= ok && !self.ports[p.index()].facts.is_nic;
            }
        }
        for (ends, abr) in into_ends.iter_mut().zip(&into_abr_end) {
            *ends &= abr;
        }
        // A carried cell must never put an event on the queue: one scheduled when the cell is
        // carried, rather than when it arrives, would take another place among the events of
        // its instant, and a far end that hears from other links as well could then see them in
        // another order. (The exceptions: the end of a TCP segment's processing at its
        // destination, which has its place by rule, `plan_tcp_deliveries`; and a
        // datagram held back on a carried LAN link, whose UDP sink nothing observes at its
        // instant, see the module's note.) So a port is carried
        // into only if its own cells are carried on, down to a destination; drop the others
        // until nothing changes.
        let mut changed = true;
        while changed {
            changed = false;
            for vc in &self.vcs {
                for w in vc.route.windows(2) {
                    let (p, q) = (w[0].0.index(), w[1].0.index());
                    if carry[p] && !carry[q] && !(self.options.as_of && into_ends[p] && into_carried_ends[p]) {
                        carry[p] = false;
                        changed = true;
                    }
                }
            }
        }
        for (i, port) in self.ports.iter_mut().enumerate() {
            // (Packet ports are on no VC's route, so never used.)
            // (A link carried whole ends no ABR VC.)
            let whole = carry[i] && used[i];
            // (A link that ends an ABR VC is not carried whole: the VC's deliveries are never
            // terminal-safe.)
            let data_carried = used[i] && data_only[i] && ends_abr[i];
            port.plan.abr_last_link = used[i] && rule_data_only[i] && rule_ends_abr[i];
            port.plan.arrivals_last = used[i] && into_ends[i];
            // (A LAN link that is carried is one that may be.)
            debug_assert!(!data_carried || port.plan.abr_last_link, "data carried where the RM rule does not hold");
            port.plan.carry = on && (whole || data_carried || packet_carried[i]);
            if let Some(q) = &mut port.packets {
                q.plan_carried(port.plan.carry);
            }
        }
    }

    /// The packet links that may be carried ahead (those whose port runs analytically are): the
    /// last hop of UDP routes only, or of TCP routes whose delivery only queues the segment
    /// (`plan_tcp_deliveries`), to uncaptured hosts, from a router that hears these
    /// routes' packets over one link, ATM or packet (`fed_by_one`: `packet_link_feeders`), so
    /// that they reach the link in time order; a port that may run analytically (a drop-tail FIFO whose
    /// start times are known when its packets arrive), with no capture and no policer where it
    /// delivers. A UDP packet's delivery only counts at its destination; a TCP segment's joins
    /// the host's processing queue, whose end has its place by rule. Such a link's packets reach their host as they
    /// go on the wire, with the clock at their arrival (`packet_carry`), while its pipe is
    /// empty (a packet held back by the bound goes by the pipe's events, and those behind it).
    fn packet_links_into_quiet_hosts(&self, udp_only: &[bool], tcp_route: &[bool], fed_by_one: &[bool]) -> Vec<bool> {
        let n = self.ports.len();
        let mut quiet = vec![true; n];
        for (r, route) in self.routes.iter().enumerate() {
            let quiet_end = udp_only[r] || tcp_route[r];
            let quiet_route = quiet_end && !self.recorder.captures(route.dst);
            for (i, hop) in route.hops.iter().enumerate() {
                let Hop::Port(p) = *hop else { continue };
                quiet[p.index()] &= quiet_route && i + 1 == route.hops.len();
            }
        }
        (0..n)
            .map(|i| {
                let port = &self.ports[i];
                quiet[i]
                    && fed_by_one[i]
                    && !port.link.is_captured()
                    && port
                        .packets
                        .as_ref()
                        .is_some_and(|q| q.policer().is_none() && q.may_run_analytically(!port.link.delay().is_zero()))
            })
            .collect()
    }

    /// Per port: the one link that brings it every route's packets, if one does (each route's
    /// hop before it is the same packet link, or VCs whose last link is one and the same ATM
    /// link), so that its packets reach it in time order.
    fn packet_link_feeders(&self) -> Vec<Sole<PortId>> {
        self.route_feeders()
            .into_iter()
            .map(|links| match links.as_deref() {
                Some([]) => Sole::Unseen,
                Some(&[one]) => Sole::One(one),
                _ => Sole::Many,
            })
            .collect()
    }

    /// Per packet port: the links that bring it its routes' packets, each once (the hop before
    /// it on each route: a packet link, or the last link of a VC); `None` where a route starts
    /// there (its own node feeds it too).
    pub(super) fn route_feeders(&self) -> Vec<Option<Vec<PortId>>> {
        let mut feeders: Vec<Option<Vec<PortId>>> = vec![Some(Vec::new()); self.ports.len()];
        for route in &self.routes {
            for (i, hop) in route.hops.iter().enumerate() {
                let Hop::Port(p) = *hop else { continue };
                let from = match i.checked_sub(1).map(|j| route.hops[j]) {
                    Some(Hop::Vc(v)) => self.vcs[v.index()].route.last().map(|&(l, _)| l),
                    Some(Hop::Port(q)) => Some(q),
                    None => None,
                };
                match (&mut feeders[p.index()], from) {
                    (Some(links), Some(q)) => {
                        if !links.contains(&q) {
                            links.push(q);
                        }
                    }
                    (links, _) => *links = None,
                }
            }
        }
        feeders
    }

    /// Marks carried the packet links into routers whose every route goes on to a packet link
    /// that is carried and that this link alone feeds (`feeders`), until none is added: a
    /// packet such a link brings is forwarded as it goes on the wire, with the clock at its
    /// arrival (`packet_carry`), onto a link whose port hears from no other, and so on to its
    /// host. The link's port runs analytically (so its link has a delay:
    /// `PacketQueue::may_run_analytically`), with no capture and no policer where it delivers
    /// (`packet_carry` polices nothing).
    fn packet_links_into_routers(&self, carried: &mut [bool], feeders: &[Sole<PortId>]) {
        let mut next_ok = vec![true; self.ports.len()];
        let mut used = vec![false; self.ports.len()];
        loop {
            next_ok.fill(true);
            used.fill(false);
            for route in &self.routes {
                for (i, hop) in route.hops.iter().enumerate() {
                    let Hop::Port(q) = *hop else { continue };
                    used[q.index()] = true;
                    next_ok[q.index()] &= match route.hops.get(i + 1) {
                        Some(&Hop::Port(p)) => carried[p.index()] && feeders[p.index()] == Sole::One(q),
                        _ => false,
                    };
                }
            }
            let mut added = false;
            for (i, port) in self.ports.iter().enumerate() {
                let plain = port.packets.as_ref().is_some_and(|q| q.runs_analytically() && q.policer().is_none())
                    && !port.link.is_captured();
                if !carried[i] && used[i] && next_ok[i] && plain {
                    carried[i] = true;
                    added = true;
                }
            }
            if !added {
                return;
            }
        }
    }

    /// A packet of carried packet link `p` reaches its host now, as at its arrival time
    /// `arrival` (the clock is set back after), folded into the trace as its `PipeHead` event.
    #[inline(never)]
    pub(super) fn packet_carry(&mut self, p: PortId, mut packet: crate::packet::Packet, arrival: SimTime) {
        let now = self.now;
        self.now = arrival;
        self.tally.trace.fold(arrival, TRACE_PIPE_HEAD, p.0);
        packet.hop += 1;
        self.forward(packet);
        self.now = now;
    }

    /// Sets, for each host that takes no time to process a segment, whether its deliveries
    /// close their instant (`ProcessingQueue::closes_instant`), and returns the TCP routes whose
    /// delivery at their destination host only queues the segment for the host's receive
    /// processing, so that it may be done when the segment's last cell, or the segment, is
    /// carried. Such a route: the host
    /// takes a time to process each segment, or none at all with that rule (a processing that
    /// may end at its arrival, drawn around a mean, would be scheduled at the current instant,
    /// after events of that instant already handled), and every TCP segment it receives comes
    /// over one and the same link, the last of ATM routes or a packet link, so that its
    /// processing queue takes them in the order they arrive. The queue's outcome (when each segment is done, the
    /// draws of its jitter) then depends only on that order, and the event that ends its
    /// processing has a place in the order of its instant that does not depend on when it was
    /// scheduled (`schedule_recv_done`: first in its instant, or closing it).
    ///
    /// The rule for a host that takes no time is decided from the network alone, whatever the
    /// options or captures, so that the reference and every fast path order its deliveries
    /// alike: its TCP segments arrive over one link as above, over ABR too (the last link of its
    /// ABR VCs then takes the rule of `PortPlan::abr_last_link`, its RM cells last in their
    /// instant; docs/architecture.md has what the two rules changed over ABR). Any other host
    /// that takes no time delivers a segment as it arrives, within the event that brings it
    /// (several links).
    fn plan_tcp_deliveries(&mut self) -> Vec<bool> {
        let mut tcp_route = vec![false; self.routes.len()];
        for conn in &self.conns {
            tcp_route[conn.route_out.index()] = true;
        }
        // The link each host's TCP segments arrive over, if one and the same for every TCP
        // route ending there, and the route's last hop is a VC; and whether any comes over ABR.
        let mut last_link = vec![Sole::Unseen; self.hosts.len()];
        let mut over_abr = vec![false; self.hosts.len()];
        for (r, route) in self.routes.iter().enumerate() {
            if tcp_route[r] {
                let link = match route.hops.last() {
                    Some(&Hop::Vc(v)) => self.vcs[v.index()].route.last().map_or(Sole::Many, |&(p, _)| Sole::One(p)),
                    Some(&Hop::Port(p)) => Sole::One(p),
                    _ => Sole::Many,
                };
                last_link[route.dst.index()].meet(link);
                over_abr[route.dst.index()] |= route
                    .hops
                    .iter()
                    .any(|&hop| matches!(hop, Hop::Vc(v) if self.vcs[v.index()].category == ServiceCategory::Abr));
            }
        }
        for (h, host) in self.hosts.iter_mut().enumerate() {
            let one_link = matches!(last_link[h], Sole::One(_));
            host.recv.closes_instant = host.recv.time.is_zero() && one_link;
        }
        for (r, route) in self.routes.iter().enumerate() {
            let host = route.dst.index();
            let recv = &self.hosts[host].recv;
            // (Nor into a host that takes time to process, on a LAN over ABR: the ATM link into
            // its router would take the RM cells' rule, measured only where hosts take none.)
            let lan_over_abr = over_abr[host] && matches!(route.hops.last(), Some(Hop::Port(_)));
            tcp_route[r] &= matches!(last_link[host], Sole::One(_))
                && (recv.closes_instant || (!recv.least_time().is_zero() && !lan_over_abr));
        }
        tcp_route
    }

    /// Per route: whether UDP flows take it, and no other flow (a datagram's delivery only
    /// counts at its destination).
    pub(super) fn udp_only_routes(&self) -> Vec<bool> {
        let mut udp = vec![false; self.routes.len()];
        let mut other = vec![false; self.routes.len()];
        for flow in &self.flows {
            let seen = if flow.kind == FlowKind::Udp { &mut udp } else { &mut other };
            seen[flow.route.index()] = true;
        }
        udp.iter().zip(&other).map(|(&u, &o)| u && !o).collect()
    }

    /// Cells arriving before this instant may be carried ahead: the next observation of the
    /// network (window opening, sample) or just past the end.
    pub(super) fn refresh_carry_bound(&mut self) {
        let mut bound = self.end + SimDuration::from_picos(1);
        if !self.measure.window_open {
            bound = bound.min(self.measure.warmup);
        }
        if let Some(next) = self.recorder.next_sample() {
            bound = bound.min(next);
        }
        self.carry_before = bound;
    }

    /// Whether a cell put on the wire of `p`, arriving at `arrival`, may be carried now.
    #[inline]
    pub(super) fn may_carry(&self, p: PortId, arrival: SimTime) -> bool {
        self.ports[p.index()].plan.carry && arrival < self.carry_before
    }

    /// The far end of `p`, of which `K` is known, handles `cell` now, as at its arrival time.
    /// Cells still in the pipe (they arrive no later, and were held back by an earlier bound)
    /// go first.
    #[inline(always)]
    pub(super) fn carry_as<K: Known>(&mut self, p: PortId, cell: Cell, arrival: SimTime) {
        if K::ABR_END || !K::DIRECT && self.ports[p.index()].plan.abr_last_link {
            self.carry_into_abr_ends(p, cell, arrival);
            return;
        }
        if !self.ports[p.index()].link.is_empty() {
            self.carry_pipe(p);
        }
        if K::DIRECT && !K::LAST {
            self.cross_ahead_as::<K::Next>(p, cell, arrival);
            return;
        }
        // An ATM-layer cell leaving its VC's last port past the first switch (so no policing
        // is due) is only counted where it lands, by the step `receive` takes for it. (At a
        // port crossed directly, here the last of every VC on it, only ATM-layer cells cross
        // where no AAL5 cell may.)
        if (K::DIRECT && !K::FRAMES)
            || (cell.kind == CellKind::Raw
                && (K::DIRECT || cell.hop > 0 && usize::from(cell.hop) + 1 == self.vcs[cell.vc.index()].route.len()))
        {
            self.land_raw(p, &cell, arrival);
            return;
        }
        if K::DIRECT {
            self.land_frame_cell(p, cell, arrival);
            return;
        }
        self.cross_ahead(p, cell, arrival);
    }

    /// [`carry_as`](Self::carry_as) on a link that carries data cells only (the last of ABR VCs): an
    /// RM cell goes into the pipe; a data cell reaches its destination now, as at its arrival
    /// time, behind the data cells held back in the pipe. (Out of line: the links that carry
    /// every cell pay a test for it, no more.)
    #[inline(never)]
    fn carry_into_abr_ends(&mut self, p: PortId, cell: Cell, arrival: SimTime) {
        if cell.kind == CellKind::Rm {
            self.put_in_pipe(p, cell, arrival);
            return;
        }
        if self.ports[p.index()].link.may_hold_data(self.carry_before) {
            self.carry_pipe_data(p);
        }
        // A cell inside its frame, past the VC's first switch (no policing is due where it
        // lands), takes the steps `receive` takes for it: the end system hears its EFCI bit,
        // then the cell lands as a direct crossing lands it.
        if cell.hop > 0 && lands_inside_frame(&self.vcs, &cell) {
            self.abr_data_delivered(cell.vc, cell.efci);
            self.land_inner_cell(p, cell, arrival);
            return;
        }
        self.cross_ahead(p, cell, arrival);
    }

    /// Carries the data cells of the pipe of `p` (held back by an earlier bound), leaving its
    /// RM cells. A head carried leaves its event stale (it finds a later head, or none), and
    /// the RM cell now at the head takes its event, last in its instant by rule.
    #[cold]
    #[inline(never)]
    fn carry_pipe_data(&mut self, p: PortId) {
        let port = &mut self.ports[p.index()];
        // (RM cells only, as nearly always, when `None`.)
        let Some(HeldBack { head_before, data }) = port.link.take_data_held_back(self.carry_before) else { return };
        if let Some((head, _)) = port.link.head() {
            if Some(head) != head_before {
                self.queue.schedule_last(head, Event::PipeHead(p));
            }
        }
        for (arrival, cell) in data {
            debug_assert!(arrival < self.carry_before, "a pipe's cells arrive in order");
            self.cross_ahead(p, cell, arrival);
        }
    }

    /// An ATM-layer cell carried across `p`, its VC's last link, lands at its destination at
    /// `arrival`: it is counted there, and folded into the trace as its `PipeHead` event.
    #[inline(always)]
    fn land_raw(&mut self, p: PortId, cell: &Cell, arrival: SimTime) {
        land_raw_in(&mut self.vcs, &mut self.tally.trace, p, cell.vc, cell.entered, arrival);
    }

    /// An AAL5 cell carried across `p`, its VC's last link, reaches its destination at
    /// `arrival`, at a port crossed directly (`Direct`), where every VC ends: a cell inside its
    /// frame takes the few steps `receive` takes for it, inlined into the group's loop; the
    /// others go out of line, by `cross` itself.
    #[inline(always)]
    fn land_frame_cell(&mut self, p: PortId, cell: Cell, arrival: SimTime) {
        if lands_inside_frame(&self.vcs, &cell) {
            self.land_inner_cell(p, cell, arrival);
            return;
        }
        self.land_other_cell(p, cell, arrival);
    }

    /// An AAL5 cell inside its frame ([`lands_inside_frame`]) carried across `p`, its VC's last
    /// link, lands at its destination at `arrival`: folded into the trace as its `PipeHead`
    /// event, counted and reassembled (`receive_inner_cell`).
    #[inline(always)]
    fn land_inner_cell(&mut self, p: PortId, cell: Cell, arrival: SimTime) {
        self.tally.trace.fold(arrival, TRACE_PIPE_HEAD, p.0);
        self.receive_inner_cell(cell, arrival);
    }

    /// [`land_frame_cell`](Self::land_frame_cell), for a cell that ends its frame, or of a VC
    /// with a reassembly timer: by the general path.
    #[inline(never)]
    fn land_other_cell(&mut self, p: PortId, cell: Cell, arrival: SimTime) {
        self.cross_ahead(p, cell, arrival);
    }

    /// The far end of `p` handles `cell` now, as at its arrival time `arrival` (the clock is
    /// set back after).
    #[inline(always)]
    fn cross_ahead(&mut self, p: PortId, cell: Cell, arrival: SimTime) {
        self.cross_ahead_as::<Asked>(p, cell, arrival);
    }

    /// [`cross_ahead`](Self::cross_ahead) into a port of which `K` is known.
    #[inline(always)]
    fn cross_ahead_as<K: Known>(&mut self, p: PortId, cell: Cell, arrival: SimTime) {
        let now = self.now;
        self.cross_at_as::<K>(p, cell, arrival);
        self.now = now;
    }

    /// `cell` reaches the far end of `p`, of which `K` is known, at `arrival` (the clock is
    /// left there).
    #[inline]
    fn cross_at_as<K: Known>(&mut self, p: PortId, cell: Cell, arrival: SimTime) {
        self.now = arrival;
        self.tally.trace.fold(arrival, TRACE_PIPE_HEAD, p.0);
        self.cross_as::<K>(cell, None);
    }

    /// Carries every cell of the pipe of `p`; the pipe's pending event will find it empty, or
    /// headed by a later cell, and do nothing.
    #[cold]
    fn carry_pipe(&mut self, p: PortId) {
        while let Some((arrival, cell)) = self.ports[p.index()].link.head() {
            self.ports[p.index()].link.pop_head();
            debug_assert!(arrival < self.carry_before, "a pipe's cells arrive in order");
            self.cross_ahead(p, cell, arrival);
        }
    }
}

/// [`Network::land_raw`], on the parts of the network it changes (for a loop that holds the
/// others), for a cell of `vc` that entered the network at `entered`.
#[inline(always)]
pub(super) fn land_raw_in(
    vcs: &mut [super::Vc],
    trace: &mut celltrain_core::TraceHash,
    p: PortId,
    vc: celltrain_core::ids::VcId,
    entered: SimTime,
    arrival: SimTime,
) {
    vcs[vc.index()].deliver_user_cell(entered, arrival);
    trace.fold(arrival, TRACE_PIPE_HEAD, p.0);
}

/// Whether `cell`, carried to its VC's end, lands inside its frame: an AAL5 cell not its frame's
/// last, of a VC with no reassembly timer. Such a cell only counts and leaves its frame pending,
/// or settles a frame whose end was lost ([`Network::receive_inner_cell`]); on an ABR VC, its
/// end system hears its EFCI bit first (`carry_into_abr_ends`).
#[inline(always)]
pub(super) fn lands_inside_frame(vcs: &[super::Vc], cell: &Cell) -> bool {
    cell.kind == CellKind::Aal5 && !cell.end_of_frame && vcs[cell.vc.index()].reassembly_timeout.is_none()
}
