//! Ports with queues without `PortFree` events: a departure is made when the next event that
//! meets the port comes, not at an event of its own.
//!
//! A port with queues and a scheduler (per-VC queues, classes by priority, WF²Q+, virtual
//! spacing, weighted round robin) sends its next cell when its transmitter comes free, by a
//! `PortFree` event. What that departure does touches the port alone — its queues, scheduler,
//! buffer counts, clock — and puts the cell at the tail of the link's pipe, which schedules
//! nothing while the pipe still holds a cell (the pipe's next `PipeHead` event is pending).
//! Nothing else can tell when it was made, as long as it is made before anything that reads
//! or changes the port: a cell arriving there, an RM cell reading its explicit-rate state, a
//! sample, the window's opening, the run's end — and the pipe's last cell leaving.
//!
//! Such a port keeps its next departure deferred (`Transmitter::defer`, with the time it is
//! due), and each of those events first makes the departures due before it, in
//! the order of the event queue: a `PortFree` event has its place last in its instant, by
//! rule (`schedule_port_free`), so the departures due before an event are those due at an
//! earlier instant. The cell sent before a departure is still in the pipe when it is due (it
//! arrives no earlier than the transmitter is free again), so the departure schedules no
//! `PipeHead` event, whose place would depend on when it is scheduled. When the pipe's last
//! cell leaves, the departures due before are made first, and one due at that instant or
//! later becomes an event again (`pipe_emptied`); so does one the scheduler holds back
//! (`NotBefore`).
//!
//! **A port carried ahead** (its far end hears from it alone: `carry`) defers its departures
//! too where it is a fan-in group's target (the group hands out every cell that reaches it, and
//! each first makes the departures due before it): an A-series multiplexer under UBR, BN01's
//! GFR ports, E1's delay-priority port. Its cells reach no pipe: each is carried to its far
//! end, and on to its destination, when its departure is made. That is late enough so long as
//! the departure is made before the cell's arrival there could matter: only a TCP segment's
//! arrival schedules an event (the end of its processing, at a place set by rule, at its
//! arrival or later), and every observation (the window's opening, a sample, the run's end) is
//! the carrying bound, before which a cell must arrive to be carried. So a departure is deferred
//! only if its cell would arrive before the bound, and the group keeps a guard, a `FanIn` event
//! of its own that meets the port: due a link's delay after the first departure deferred, where
//! some cell through the port may be a TCP segment (`FanIn::lands_with_events`), and in any
//! case by the last instant at which a departure may still be deferred, so that the one after
//! it, which becomes an event, is never due before the guard made it. A guard makes the
//! departures due before its instant; under load, cells arriving at the port have made them, and
//! it comes once a link's delay.
//!
//! The outcome is the one the events give (`tests/fast_paths.rs` compares every summary field
//! with this off); the event count and the trace hash differ (no `PortFree` events).

use super::{Adaptation, Hop, Network, PortPath};
use celltrain_core::ids::PortId;
use celltrain_core::time::SimTime;

impl Network {
    /// Decides which ports with queues defer their departures (after the other plans). Not one
    /// whose link is carried ahead but as a fan-in group's target on a link with a delay (its
    /// cells reach the far end as they start: the group keeps the guard that makes a departure
    /// in time; a link with no delay leaves it no time), nor one whose link is a fan-in group's
    /// member (the group takes its pipe's heads), a captured or recorded one, nor one whose
    /// scheduler may hold cells back (a departure made late that found none eligible would
    /// schedule its retry when it was due, perhaps in the past; today's schedulers all send
    /// whenever a cell waits).
    pub(super) fn plan_queues_ahead(&mut self) {
        debug_assert!(self.ports.iter().all(|p| !p.tx.is_deferred()), "planned with departures deferred");
        let on = self.options.queues_ahead;
        let mut with_events = self.ports_landing_with_events();
        // (A port carried into ports answering as of an instant: its cells' arrivals there are
        // read, so each departure is made before its cell arrives, as for a TCP segment's.)
        for (p, port) in self.ports.iter().enumerate() {
            with_events[p] |= port.plan.arrivals_last && port.plan.carry;
        }
        for port in &mut self.ports {
            let carried_ok = !port.plan.carry || (port.plan.free_in_group.is_some() && !port.link.delay().is_zero());
            port.plan.defers = on
                && port.plan.path == PortPath::Queues
                && port.packets.is_none()
                && port.facts.work_conserving
                && carried_ok
                && port.plan.fan_in.is_none()
                && !port.link.is_captured()
                && port.queue.changes().is_none();
        }
        self.fan_in_plan_landings(&with_events);
    }

    /// Per port: whether some cell through it may land where its arrival schedules an event.
    /// Not an ATM-layer cell, nor an AAL5 frame of UDP flows alone: their arrivals only count
    /// (carried on to a LAN, a datagram schedules its pipe's event only when the carrying
    /// bound holds it back, and a deferred departure is made before that bound). Any other
    /// frame may be a TCP segment, whose arrival schedules the end of its processing.
    fn ports_landing_with_events(&self) -> Vec<bool> {
        let udp_only = self.udp_only_routes();
        let mut frames_with_events = vec![false; self.vcs.len()];
        for (r, route) in self.routes.iter().enumerate() {
            for hop in &route.hops {
                if let Hop::Vc(v) = *hop {
                    frames_with_events[v.index()] |= !udp_only[r];
                }
            }
        }
        let mut with_events = vec![false; self.ports.len()];
        for (v, vc) in self.vcs.iter().enumerate() {
            let quiet = vc.adaptation == Adaptation::Raw || !frames_with_events[v];
            for &(p, _) in &vc.route {
                with_events[p.index()] |= !quiet;
            }
        }
        with_events
    }

    /// After a departure from `p` at `now`, its next is due at `at`: it waits for the next
    /// event that meets the port, if it may (then `true`). (Its cell will join a pipe that still
    /// holds one: the cell just sent arrives no earlier than the transmitter is free again; or,
    /// the port carried ahead, it will be carried: see `defer_carried`.)
    #[inline]
    pub(super) fn defer_departure(&mut self, p: PortId, at: SimTime) -> bool {
        let port = &mut self.ports[p.index()];
        if !port.plan.defers {
            return false;
        }
        if port.plan.carry {
            return self.defer_carried(p, at);
        }
        debug_assert!(
            at > self.now && port.link.last_arrival().is_some_and(|arrival| arrival >= at),
            "a departure deferred into an empty pipe"
        );
        port.tx.defer(at);
        true
    }

    /// [`defer_departure`](Self::defer_departure) at a port carried ahead, a fan-in group's
    /// target: its cell must be carried whenever the departure is made, and the group keeps a
    /// guard, a `FanIn` event due no later than a link's delay after the departure, so that the
    /// departure is made before its cell reaches the far end (see `guard_deferred_in`).
    #[inline]
    fn defer_carried(&mut self, p: PortId, at: SimTime) -> bool {
        let port = &mut self.ports[p.index()];
        if at.later_by(Self::carried_reach(port)) >= self.carry_before {
            return false;
        }
        port.tx.defer(at);
        self.keep_guard(p);
        true
    }

    /// The carried port `p` has a departure deferred: its group keeps a guard for it, unless it
    /// keeps one already (due no later: see `guard_deferred_in`).
    #[inline]
    fn keep_guard(&mut self, p: PortId) {
        let g = self.ports[p.index()].plan.free_in_group.expect("a carried port defers as a group's target");
        if !self.fan_in_guarded(g) {
            self.guard_deferred_in(p, g);
        }
    }

    /// A guard for the departure of `p` deferred: a `FanIn` event of its group `g`.
    #[inline(never)]
    fn guard_deferred_in(&mut self, p: PortId, g: u32) {
        let port = &self.ports[p.index()];
        let at = port.tx.deferred_at().expect("a departure deferred");
        // Made by then, a departure is made before its cell reaches the far end; and before a
        // departure that may not be deferred (its cell would not be carried) is due, so that its
        // event is not scheduled in the past.
        let last_deferrable = SimTime::from_picos(self.carry_before.as_picos() - Self::carried_reach(port).as_picos());
        let guard = if self.fan_in_lands_with_events(g) {
            at.later_by(port.link.delay()).min(last_deferrable)
        } else {
            last_deferrable
        };
        debug_assert!(guard > at, "a guard at its departure's instant");
        self.fan_in_enter_guard(g, guard);
    }

    /// From a departure's start to its cell's arrival at the far end, at the most.
    #[inline]
    fn carried_reach(port: &super::Port) -> celltrain_core::time::SimDuration {
        port.tx.clock.line_cell_time() + port.link.delay()
    }

    /// The guard of a group's target `p` is due now: it meets the port (the departures due
    /// before now are made), and the next one deferred gets a guard.
    pub(super) fn deferred_guard_due(&mut self, p: PortId) {
        self.settle_deferred(p);
        if self.ports[p.index()].tx.is_deferred() {
            self.keep_guard(p);
        }
    }

    /// Makes the departures of `p` due before the event being handled, in order: each as its
    /// `PortFree` event would. Last in its instant by rule, a departure comes before an event
    /// exactly when it is due at an earlier instant.
    #[inline]
    pub(super) fn settle_deferred(&mut self, p: PortId) {
        if self.ports[p.index()].tx.deferred_before(self.now) {
            self.make_deferred(p, self.now);
        }
    }

    /// (Out of line, but not cold: at a busy port nearly every arrival makes one.)
    #[inline(never)]
    fn make_deferred(&mut self, p: PortId, before: SimTime) {
        let now = self.now;
        self.transmit_while(p, |net| net.ports[p.index()].tx.take_deferred_before(before));
        self.now = now;
    }

    /// The pipe of `p` emptied with a departure deferred to this instant or later: it takes its
    /// `PortFree` event, at the place the rule gives it.
    #[cold]
    #[inline(never)]
    pub(super) fn undefer(&mut self, p: PortId) {
        let at = self.ports[p.index()].tx.undefer();
        debug_assert!(at >= self.now, "a deferred departure due before the pipe emptied");
        self.schedule_port_free(p, at);
    }

    /// Every port's departures due before `before` (an observation of the whole network).
    pub(super) fn settle_all_deferred(&mut self, before: SimTime) {
        for i in 0..self.ports.len() {
            if self.ports[i].tx.is_deferred() {
                self.make_deferred(PortId::from_index(i), before);
            }
        }
    }
}
