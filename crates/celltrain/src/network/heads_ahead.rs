//! Links whose heads go over ahead, up to the horizon of everything else their far end hears.
//!
//! A link that cannot be carried ahead (`carry`) because the ports its cells reach are read by
//! more than its own cells — an explicit-rate port is read by backward RM cells arriving over
//! other links and by its averaging interval — takes a `PipeHead` event per cell. Yet most of
//! those readers are known well ahead: a cell arriving over another link is in that link's pipe
//! a link's delay before it arrives (or, if none is there, arrives a link's delay from now at
//! the earliest), and an averaging interval ends at a time the port keeps. Up to the earliest
//! of them (the link's *horizon*), nothing but this link's own cells touches those ports.
//!
//! So at each `PipeHead` event of such a link, the heads behind the one due now go over at once,
//! each as its own event would take it (the clock set to its arrival, counted as an event,
//! folded into the trace), as long as each is a data cell arriving before the horizon and has a
//! head behind it that arrives before the horizon too; that one takes the link's next event,
//! scheduled now. Its place among the events of its instant is taken now rather than when the
//! head before it leaves: it can only stand differently from the reference's among events of
//! that instant scheduled meanwhile, and none of those reads what it touches (it arrives before
//! the horizon). An RM cell on the link always takes an event of its own: a backward one reads
//! the explicit-rate state of a port the horizon does not look at (the one its feedback is
//! for, towards the switch's other links).
//!
//! Where this holds (`plan_heads_ahead`): a cell link, not carried ahead and in no fan-in group
//! (its pipe holds its cells), with a delay, whose every cell goes on to a switch port that puts
//! each cell on the wire as it arrives (analytic) and hands its cells over to its own far end at
//! once (carried: a cell going over ahead puts nothing on the queue but events whose places are
//! set by rule); and every other link into that switch keeps the cells it brings in its pipe
//! (not carried, in no fan-in group, handed no bursts), so that its pipe's head is the earliest
//! it can bring. So a port that other links feed too hears from them after the horizon only. A
//! cell going over that its port cannot carry on (it would arrive at the next observation or
//! later) waits in that port's pipe, its event's place taken early; it lands where carried cells
//! land, at an end whose deliveries are the same in any order among the events of their instant
//! (`carry`).
//!
//! The outcome is the one the events give (`tests/fast_paths.rs` compares every summary field
//! with this off and with the reference). The event count stays, but for events left stale a
//! moment sooner (a data cell carried into an ABR VC's end takes the data cells held back in
//! that link's pipe by an observation with it: `carry_pipe_data`); the trace hash differs (the
//! heads are folded in as they go over, not at their instants).

use super::{Event, Network, PortPath};
use celltrain_atm::cell::CellKind;
use celltrain_core::ids::PortId;
use celltrain_core::time::SimTime;

/// What the horizon of a link whose heads go over ahead is made of.
#[derive(Clone, Debug)]
pub(super) struct HeadsAhead {
    /// The other links into the far end (each brings its pipe's head first).
    others: Vec<PortId>,
    /// The ports its cells reach that have an explicit-rate algorithm (read as each averaging
    /// interval ends).
    er_ports: Vec<PortId>,
}

impl Network {
    /// Decides which links' heads go over ahead (after the other plans: it reads which links
    /// are carried and which are in fan-in groups).
    pub(super) fn plan_heads_ahead(&mut self) {
        for port in &mut self.ports {
            port.plan.heads_ahead = None;
        }
        self.heads_ahead.clear();
        if !self.options.heads_ahead {
            return;
        }
        let n = self.ports.len();
        // Per port: the ports its cells go to next (`None` once some VC ends at its far end).
        let mut next: Vec<Option<Vec<PortId>>> = vec![Some(Vec::new()); n];
        for vc in &self.vcs {
            for (h, &(q, _)) in vc.route.iter().enumerate() {
                match (vc.route.get(h + 1), &mut next[q.index()]) {
                    (Some(&(r, _)), Some(targets)) if !targets.contains(&r) => targets.push(r),
                    (Some(_), _) => {}
                    (None, slot) => *slot = None,
                }
            }
        }
        for (p, targets) in next.iter().enumerate() {
            let Some(targets) = targets.as_ref().filter(|t| !t.is_empty()) else { continue };
            let port = &self.ports[p];
            let pipe_holds_all = !port.plan.carry && port.plan.fan_in.is_none() && port.packets.is_none();
            if !pipe_holds_all || port.link.is_captured() || port.link.delay().is_zero() {
                continue;
            }
            let targets_ok = targets.iter().all(|q| {
                let target = &self.ports[q.index()];
                target.plan.path == PortPath::Analytic
                    && target.plan.carry
                    && !target.facts.adapter_rules
                    && target.packets.is_none()
            });
            let far = port.to;
            let others: Vec<PortId> =
                (0..n).filter(|&l| l != p && self.ports[l].to == far).map(PortId::from_index).collect();
            let others_ok = others.iter().all(|l| {
                let other = &self.ports[l.index()];
                // (A fan-in group's member keeps its cells in its pipe where it carries no trains:
                // where only ABR VCs cross it, whose cells are paced at their end system, never
                // handed whole.)
                let pipe_holds_all = other.plan.fan_in.is_none()
                    || self.hops_at(*l).all(|(vc, _)| vc.category == super::ServiceCategory::Abr);
                !other.plan.carry && pipe_holds_all && other.packets.is_none() && !other.plan.burst_handoff
            });
            if !targets_ok || !others_ok {
                continue;
            }
            let er_ports = targets.iter().copied().filter(|q| self.ports[q.index()].er.is_some()).collect();
            let h = u32::try_from(self.heads_ahead.len()).expect("fewer links than u32::MAX");
            self.ports[p].plan.heads_ahead = Some(h);
            self.heads_ahead.push(HeadsAhead { others, er_ports });
        }
    }

    /// Heads that went over ahead of their `PipeHead` events since the start (`heads_ahead`).
    pub fn heads_gone_ahead(&self) -> u64 {
        self.tally.heads_ahead
    }

    /// The instant before which nothing but the link `h` stands for brings anything to the
    /// ports its cells reach, nor reads them (see the module's text).
    #[inline]
    fn heads_horizon(&self, h: u32) -> SimTime {
        let plan = &self.heads_ahead[h as usize];
        let mut horizon = self.carry_before;
        for &l in &plan.others {
            let link = &self.ports[l.index()].link;
            let unsent = self.now + link.delay();
            horizon = horizon.min(link.head_arrival().map_or(unsent, |head| head.min(unsent)));
        }
        for &q in &plan.er_ports {
            horizon = horizon.min(self.ports[q.index()].er.as_ref().expect("an explicit-rate port").next_interval());
        }
        horizon
    }

    /// The `PipeHead` event of `p`, a link whose heads go over ahead (`h`): the head due now
    /// crosses, and the heads behind it that may go over with it (see the module's text).
    /// (Marked cold for `pipe_head`'s sake, not because it is: called from there inline, it
    /// grew the event loop past the point where the heap's root replacement stayed inlined,
    /// A7-tcp and A13 +0.35 % instructions; benches/HISTORY.md, twenty-second session.)
    #[cold]
    #[inline(never)]
    pub(super) fn pipe_heads_ahead(&mut self, p: PortId, h: u32) {
        let now = self.now;
        let port = &self.ports[p.index()];
        let (_, cell) = port.link.head().expect("pipe head checked");
        // The heads that go over now, and the one that takes the next event.
        let mut ahead = 0;
        let mut next = port.link.cells_from(1).next();
        if port.link.len() > 2 {
            let horizon = self.heads_horizon(h);
            for (i, (arrival, behind)) in port.link.cells_from(1).enumerate() {
                if arrival >= horizon {
                    break;
                }
                ahead = i;
                next = Some((arrival, behind));
                if behind.kind == CellKind::Rm {
                    break;
                }
            }
        }
        self.ports[p.index()].link.pop_head();
        match next {
            Some((at, behind)) => {
                let last = self.ports[p.index()].plan.head_last(behind.kind);
                self.schedule_pipe_head(p, at, last);
            }
            None => self.pipe_emptied(p),
        }
        self.cross(cell);
        for _ in 0..ahead {
            let port = &mut self.ports[p.index()];
            let (arrival, cell) = port.link.head().expect("the heads going over wait in the pipe");
            port.link.pop_head();
            self.now = arrival;
            self.tally.event(arrival, Event::PipeHead(p));
            self.cross(cell);
        }
        self.tally.heads_ahead += ahead as u64;
        self.now = now;
    }
}
