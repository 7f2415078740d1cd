//! Which links form fan-in groups, decided before the run: groups of two or more links into one
//! port, and lone links kept as groups of one for their trains (see the parent module).

use super::{FanIn, FanInSlot, HeadPlaces};
use crate::network::plan::Sole;
use crate::network::{Network, PortPath, ServiceCategory};
use celltrain_core::ids::PortId;

impl Network {
    /// Forms the fan-in groups: the cell links that lead, for every VC on them, to one and the
    /// same next port, and are not carried ahead, grouped by that port when there are two or
    /// more and that port is carried ahead and analytic, or has queues (its `PortFree` events,
    /// those queues ahead leaves it, then go among the group's heads). Then handing a head out
    /// schedules nothing outside the group (its cell goes on to its destination at once), so a
    /// group hands out heads until a source acts; where each head's cell scheduled an event
    /// elsewhere (a link with a pipe event per cell, as into twin b's EPD port with TCP behind
    /// it), the group handed out one head per turn and cost more than the heap it spared (twin
    /// b: +18 % instructions).
    /// Decided only while no pipe holds a cell (a plan made again when captures open, before
    /// the run, keeps the groups once cells are under way, and only asks again whether each
    /// crosses its target directly).
    pub(in crate::network) fn plan_fan_in(&mut self) {
        if self.ports.iter().any(|p| !p.link.is_empty() || p.tx.waits()) || self.fan_ins.iter().any(|g| g.pending() > 0)
        {
            for g in 0..self.fan_ins.len() {
                if !self.fan_ins[g].lone {
                    self.fan_ins[g].direct = self.crosses_directly(self.fan_ins[g].target);
                }
            }
            return;
        }
        for port in &mut self.ports {
            port.plan.fan_in = None;
            port.plan.free_in_group = None;
        }
        self.fan_ins.clear();
        if self.options.fan_in {
            self.plan_groups();
        }
        if self.options.trains {
            self.plan_trains();
        }
    }

    /// Forms the groups of two or more links (see [`plan_fan_in`](Self::plan_fan_in)).
    fn plan_groups(&mut self) {
        // The port each link's cells go to next, if one and the same for every VC on it (the
        // last link of a route counts as leading elsewhere).
        let mut next = vec![Sole::Unseen; self.ports.len()];
        for vc in &self.vcs {
            for (h, &(p, _)) in vc.route.iter().enumerate() {
                next[p.index()].meet(vc.route.get(h + 1).map_or(Sole::Many, |&(q, _)| Sole::One(q)));
            }
        }
        let mut feeders: Vec<Vec<usize>> = vec![Vec::new(); self.ports.len()];
        for (p, n) in next.iter().enumerate() {
            let port = &self.ports[p];
            if let (Sole::One(q), false, true) = (*n, port.plan.carry, port.packets.is_none()) {
                let target = &self.ports[q.index()];
                let runs = matches!(target.plan.path, PortPath::Analytic | PortPath::Queues);
                if runs && target.plan.carry && !target.plan.abr_last_link && target.packets.is_none() {
                    feeders[q.index()].push(p);
                }
            }
        }
        // (A port with queues carried into ports answering as of an instant is a group whether or
        // not its feeders are members: `as_of_feeders_grouped`.)
        for (q, members) in feeders.iter_mut().enumerate() {
            if self.carried_into_as_of(q) && !self.as_of_feeders_grouped(q, members) {
                members.clear();
            }
        }
        for (q, members) in feeders.into_iter().enumerate() {
            if members.len() < 2 && !self.carried_into_as_of(q) {
                continue;
            }
            let group = u32::try_from(self.fan_ins.len()).expect("fewer groups than ports");
            for (m, &p) in members.iter().enumerate() {
                let member = u32::try_from(m).expect("fewer members than ports");
                self.ports[p].plan.fan_in = Some(FanInSlot { group, member });
            }
            if self.ports[q].plan.path == PortPath::Queues {
                self.ports[q].plan.free_in_group = Some(group);
            }
            let target = PortId::from_index(q);
            let late: Box<[bool]> = members.iter().map(|&m| self.ports[m].plan.heads_late).collect();
            let mut group = FanIn::new(members.into_iter().map(PortId::from_index).collect(), target);
            group.places = match (late.iter().any(|&l| l), late.iter().all(|&l| l)) {
                (false, _) => HeadPlaces::InOrder,
                (true, true) => HeadPlaces::Late,
                (true, false) => HeadPlaces::Mixed(late),
            };
            group.direct = self.crosses_directly(target);
            group.frames = self.aal5_crosses(target);
            self.fan_ins.push(group);
        }
    }

    /// Keeps each link of no group that may be handed a frame or a burst whole (an adapter that
    /// only paces, or takes bursts, not carried ahead) as a group of one (`lone`), so that the
    /// frames and bursts put on it go as trains, as on a group's links; its heads keep their
    /// own `PipeHead` events (a group that stood for them cost more than the heap: see
    /// `plan_fan_in`). Not where an ABR VC crosses (its cells are paced at their end system,
    /// never handed whole), nor on a VC's last link (a train knows its cells' next port).
    fn plan_trains(&mut self) {
        for p in 0..self.ports.len() {
            let q = PortId::from_index(p);
            let port = &self.ports[p];
            // (Only an adapter is handed frames and bursts whole: `arrive_run`, `hand_over_burst`.)
            let takes_runs = port.facts.is_nic && (port.plan.paces_only || port.plan.burst_handoff);
            if port.plan.fan_in.is_some() || !takes_runs || port.plan.carry || port.packets.is_some() {
                continue;
            }
            debug_assert!(!port.link.is_captured() && !port.facts.adapter_rules);
            let abr_last_link = port.plan.abr_last_link;
            let (mut crossed, mut plain) = (false, true);
            for (vc, h) in self.hops_at(q) {
                crossed = true;
                plain &= vc.category != ServiceCategory::Abr && h + 1 < vc.route.len();
            }
            if !crossed || !plain || abr_last_link {
                continue;
            }
            let group = u32::try_from(self.fan_ins.len()).expect("fewer groups than ports");
            self.ports[p].plan.fan_in = Some(FanInSlot { group, member: 0 });
            // (Its target is its own port, named only to fill the field: a lone link's heads go
            // by their events, never crossing a target or keeping its `PortFree` among them.)
            let mut lone = FanIn::new(vec![q], q);
            lone.lone = true;
            lone.frames = self.aal5_crosses(q);
            self.fan_ins.push(lone);
        }
    }

    /// Plans each group's `lands_with_events` from the ports' (indexed by port).
    pub(in crate::network) fn fan_in_plan_landings(&mut self, lands_with_events: &[bool]) {
        for group in &mut self.fan_ins {
            group.lands_with_events = lands_with_events[group.target.index()];
        }
    }
}
