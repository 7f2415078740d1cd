//! Links carried into the last switch ports of ABR VCs, whose readers are answered as of their
//! instant.
//!
//! In MSc98's networks the link into the switch before the VCs' destinations (`sw1 -> sw2`)
//! could not be carried ahead: the ports its cells reach are read by more than its own cells.
//! A backward RM cell arriving over another link is seen by the algorithm of the port its
//! feedback is for, and each averaging interval reads what the port was offered and holds. So
//! each of the link's cells took a `PipeHead` event, and the port sending on it, with every
//! link into that port, could not be carried either.
//!
//! Those readers read little of such a port: ERICA reads no queue as an RM cell passes (an
//! algorithm's `QUEUE_AT_RM`); an interval reads the cells each buffer pool was offered and the
//! cells queued; and only RM cells change the algorithm's state. So the link is carried ahead
//! when every cell on it goes on to an analytic port that it alone feeds, on the last link of
//! its VCs, where the algorithm reads no queue at RM cells (`plan_carry`): the last of ABR VCs
//! for one such port at least (`PortPlan::abr_last_link`, whose data cells are carried to their
//! destination in turn), the others carried whole to destinations whose deliveries only count
//! (MSc98's background VBR VCs in A6 and A9, whose ports no RM cell reads); and then:
//! - each cell is admitted to its port's buffer, and put on that port's wire, as it is carried:
//!   the port hears from this link alone, so its buffer's decisions and its start times follow
//!   from the cells before it, which are all there (a departure is made before its cell would
//!   arrive: `queues_ahead`'s guard);
//! - the port's counters move at its arrivals' instants, in order, and no reader settles them
//!   (that would move them back in time): an interval's end reads the load the port had then,
//!   taken by the first arrival at or after that end, before its own steps (`Loads`), or, when
//!   none has come yet, the port as it is;
//! - an RM cell's step at the explicit-rate algorithm (`rm_at_port`), which changes what later
//!   readers see, keeps an event of its own at its arrival (`RmStep`), last in its instant;
//!   refused by the port's buffer, the algorithm still sees its fields, as it did before the
//!   buffer.
//!
//! **The rule.** A cell arriving over such a link arrives last in its instant: after every
//! event of its instant placed otherwise (`PortPlan::arrivals_last`, with fast paths or
//! without; an `RmStep` comes after the `PipeHead` events placed last). A reader at the instant
//! of an arrival therefore never sees it. Over the built-ins' full default runs over ABR (seeds
//! 1-3), no reader met an arrival at its instant at an explicit-rate port in an order the rule
//! changes, and every result is the same with the rule as before it (benches/HISTORY.md,
//! twenty-third session).
//!
//! The outcome is the one the events give under that rule (`tests/fast_paths.rs` compares
//! every summary field with the reference); the event count goes down and the trace hash
//! differs.

use super::{Event, Hop, Network, PortPath};
use celltrain_atm::cell::Cell;
use celltrain_core::ids::PortId;
use celltrain_core::time::{SimDuration, SimTime};
use std::collections::VecDeque;

/// Buffer pools a port answering as of an instant may have (the shared pool and one per
/// category with a reserve: MSc98's switches have two).
pub(super) const MAX_POOLS: usize = 4;

/// What an averaging interval ending at an instant reads of a port: the cells offered to each
/// pool, and the cells queued, as of that instant.
#[derive(Clone, Copy, Debug)]
pub(super) struct Load {
    pub(super) offered: [u64; MAX_POOLS],
    pub(super) queue_cells: u32,
}

/// The loads of a port answering as of an instant at the ends of its averaging intervals
/// that its arrivals have passed, taken as the first arrival at or after each came, before it:
/// by then every cell that arrives before that end has come, and none after.
#[derive(Clone, Debug)]
pub(super) struct Loads {
    /// The next interval's end whose load is not taken yet, and the interval.
    next: SimTime,
    interval: SimDuration,
    taken: VecDeque<(SimTime, Load)>,
}

/// An RM cell carried ahead whose step at the explicit-rate algorithm is due at its arrival:
/// the port it reached, its VC's slot there, the cell, and its fields as it reached the port if
/// the port refused it (the algorithm then sees those, as it saw the cell before the buffer).
#[derive(Clone, Debug)]
pub(super) struct RmStepDue {
    at: SimTime,
    port: PortId,
    slot: u32,
    cell: Cell,
    lost: Option<celltrain_atm::abr::RmCell>,
}

/// Per port: the loads taken ahead (a port answering as of an instant with an explicit-rate
/// algorithm), and the RM steps due of the RM cells carried across its link (a link carried
/// into such ports).
#[derive(Default)]
pub(super) struct AsOfPorts {
    loads: Vec<Option<Loads>>,
    steps: Vec<VecDeque<RmStepDue>>,
}

impl Network {
    /// Which ports answer as of an instant (after `plan_carry`, which carries a link into such
    /// ports only where their explicit-rate algorithms do not read the queue at RM cells): those
    /// that a link carried into them feeds (`PortPlan::arrivals_last` and carried).
    pub(super) fn plan_as_of(&mut self) {
        let n = self.ports.len();
        let mut as_of = vec![false; n];
        for vc in &self.vcs {
            for w in vc.route.windows(2) {
                let link = &self.ports[w[0].0.index()].plan;
                if link.arrivals_last && link.carry && self.ports[w[1].0.index()].plan.abr_last_link {
                    as_of[w[1].0.index()] = true;
                }
            }
        }
        for (p, port) in self.ports.iter_mut().enumerate() {
            port.plan.as_of = as_of[p];
        }
        if self.tally.events > 0 && self.as_of.loads.len() == n {
            // (Planned again mid-run: the loads taken stay.)
            return;
        }
        self.as_of.loads = self
            .ports
            .iter()
            .map(|port| {
                let er = port.er.as_ref().filter(|_| port.plan.as_of)?;
                debug_assert!(port.queue.pool_count() <= MAX_POOLS && !er.algorithm_reads_queue_at_rm());
                Some(Loads { next: er.next_interval(), interval: er.interval(), taken: VecDeque::new() })
            })
            .collect();
        self.as_of.steps = (0..n).map(|_| VecDeque::new()).collect();
    }

    /// Whether `q` is a port with queues carried into ports answering as of an instant: a fan-in
    /// group of its own, which keeps its `PortFree` events and the guard of its deferred
    /// departures, its feeders members or not (`as_of_feeders_grouped`).
    pub(super) fn carried_into_as_of(&self, q: usize) -> bool {
        let plan = &self.ports[q].plan;
        plan.carry && plan.arrivals_last && plan.path == PortPath::Queues
    }

    /// Whether the links `members` that feed `q` (carried into ports answering as of an
    /// instant) are its group's members. Their ABR cells come at many rates, and a group files
    /// their heads dearer than the heap unless they come from the flows' sources alone, in long
    /// turns: not where another link feeds the port too (a switch's), nor adapters sending only
    /// acknowledgements or RM cells (with a group, A6, A7-tcp and A13-udp over ABR took 1.2 to
    /// 3 % more instructions; A3 and A5-udp, fed by their sources, 2 to 5 % fewer:
    /// benches/HISTORY.md, twenty-third session). Those keep their own events.
    pub(super) fn as_of_feeders_grouped(&self, q: usize, members: &[usize]) -> bool {
        let mut data_vc = vec![false; self.vcs.len()];
        for flow in &self.flows {
            for hop in &self.routes[flow.route.index()].hops {
                if let Hop::Vc(v) = *hop {
                    data_vc[v.index()] = true;
                }
            }
        }
        let sources_link = |p: usize| {
            self.ports[p].facts.is_nic
                && self.vcs.iter().zip(&data_vc).any(|(vc, &data)| data && vc.route[0].0.index() == p)
        };
        let fed_by_others = self
            .vcs
            .iter()
            .any(|vc| vc.route.windows(2).any(|w| w[1].0.index() == q && !members.contains(&w[0].0.index())));
        members.len() >= 2 && !fed_by_others && members.iter().all(|&p| sources_link(p))
    }

    /// A cell arrives at `p`, a port answering as of an instant (an analytic port, on its VCs'
    /// last link: `arrive_analytic`), before any step of it: the loads at the ends of the
    /// intervals it has passed are taken.
    #[inline(never)]
    pub(super) fn take_loads_due(&mut self, p: PortId) {
        let now = self.now;
        if let Some(Some(loads)) = self.as_of.loads.get(p.index()) {
            if now >= loads.next {
                self.take_loads(p, now);
            }
        }
    }

    /// A cell arrives at `p` at `now`, past the end of an interval whose load is not taken: the
    /// port's load then, and at each end it passes.
    #[cold]
    #[inline(never)]
    fn take_loads(&mut self, p: PortId, now: SimTime) {
        let port = &self.ports[p.index()];
        let loads = self.as_of.loads[p.index()].as_mut().expect("loads to take");
        while now >= loads.next {
            let end = loads.next;
            let mut offered = [0; MAX_POOLS];
            for (k, cells) in offered.iter_mut().enumerate().take(port.queue.pool_count()) {
                *cells = port.queue.pool_cells_offered(k);
            }
            // (The cells queued before `end`, less those that start by then: every one of them
            // arrived before it.)
            let queue_cells = port.queue.occupancy() - port.starts.started_by(end);
            loads.taken.push_back((end, Load { offered, queue_cells }));
            loads.next = end + loads.interval;
        }
    }

    /// The load of `p` at the end of its averaging interval now, if its arrivals passed it (a
    /// port answering as of an instant); else `None`, and the port is to be read as it is.
    pub(super) fn load_taken(&mut self, p: PortId) -> Option<Load> {
        let now = self.now;
        let loads = self.as_of.loads.get_mut(p.index())?.as_mut()?;
        match loads.taken.front() {
            Some(&(end, load)) => {
                debug_assert_eq!(end, now, "a load taken for an interval's end that did not come");
                loads.taken.pop_front();
                Some(load)
            }
            None => {
                // (No arrival passed this end: the port is read as it is, and the next end's
                // load is taken by the first arrival past it.)
                debug_assert!(loads.next <= now + loads.interval);
                loads.next = now + loads.interval;
                None
            }
        }
    }

    /// An RM cell carried ahead over `link` reaches `p` (its VC's slot there `slot`), a port
    /// answering as of an instant, now: it joins the port's buffer now, and its step at the
    /// explicit-rate algorithm is taken at its arrival, by an `RmStep` event last in its instant.
    #[inline(never)]
    pub(super) fn arrive_rm_ahead(&mut self, link: PortId, p: PortId, slot: u32, cell: Cell) {
        let id = cell.rm_id().expect("an RM cell");
        let fields = *self.abr.rm_cells.get(id);
        let lost_before = self.abr.rm_cells_lost;
        let at = self.now;
        self.arrive(p, slot, cell);
        let lost = (self.abr.rm_cells_lost != lost_before).then_some(fields);
        self.as_of.steps[link.index()].push_back(RmStepDue { at, port: p, slot, cell, lost });
        self.queue.schedule_last(at, Event::RmStep(link));
    }

    /// RM cells carried into ports answering as of an instant whose step at the explicit-rate
    /// algorithm took an `RmStep` event, since the start.
    pub fn rm_steps_taken(&self) -> u64 {
        self.tally.rm_steps
    }

    /// The `RmStep` event of `link`: the step at the explicit-rate algorithm of the RM cell
    /// carried across it that arrives now. (Out of line and cold, a rare event's handler: the
    /// event loop, which inlines the frequent ones, stays as it was.)
    #[cold]
    #[inline(never)]
    pub(super) fn rm_step(&mut self, link: PortId) {
        self.tally.rm_steps += 1;
        let due = self.as_of.steps[link.index()].pop_front().expect("an RM step due");
        debug_assert_eq!(due.at, self.now, "an RM step out of its instant");
        match due.lost {
            Some(mut fields) => {
                self.rm_seen_at(due.port, due.slot, &due.cell, &mut fields);
            }
            None => self.rm_at_port(due.port, due.slot, &due.cell),
        }
    }
}
