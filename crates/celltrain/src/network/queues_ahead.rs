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
//! The outcome is the one the events give (`tests/fast_paths.rs` compares every summary field
//! with this off); the event count and the trace hash differ (no `PortFree` events).

use super::{Network, PortPath};
use celltrain_core::ids::PortId;
use celltrain_core::time::SimTime;

impl Network {
    /// Decides which ports with queues defer their departures (after the other plans). Not one
    /// whose link is carried ahead (its cells reach the far end as they start: a departure made
    /// late would reach it late; that takes in a fan-in group's target, and a link that carries
    /// data cells only, whose pipe may be empty behind a departure), nor one whose link is
    /// a fan-in group's member (the group takes its pipe's heads), a captured or recorded one.
    pub(super) fn plan_queues_ahead(&mut self) {
        debug_assert!(self.ports.iter().all(|p| !p.tx.is_deferred()), "planned with departures deferred");
        let on = self.options.queues_ahead;
        for port in &mut self.ports {
            port.plan.defers = on
                && port.plan.path == PortPath::Queues
                && port.packets.is_none()
                && !port.plan.carry
                && port.plan.fan_in.is_none()
                && !port.link.is_captured()
                && port.queue.changes().is_none();
            debug_assert!(!port.plan.defers || port.plan.free_in_group.is_none(), "a group's target is carried");
        }
    }

    /// After a departure from `p` at `now`, its next is due at `at`: whether it may wait for
    /// the next event that meets the port. (Its cell will join a pipe that still holds one:
    /// the cell just sent arrives no earlier than the transmitter is free again.)
    #[inline]
    pub(super) fn may_defer(&self, p: PortId, at: SimTime) -> bool {
        let port = &self.ports[p.index()];
        debug_assert!(
            !port.plan.defers || (at > self.now && port.link.last_arrival().is_some_and(|arrival| arrival >= at)),
            "a departure deferred into an empty pipe"
        );
        port.plan.defers
    }

    /// Makes the departures of `p` due before the event being handled, in order: each as its
    /// `PortFree` event would. Last in its instant by rule, a departure comes before an event
    /// exactly when it is due at an earlier instant.
    #[inline]
    pub(super) fn settle_deferred(&mut self, p: PortId) {
        if self.ports[p.index()].tx.is_deferred() {
            self.make_deferred(p, self.now);
        }
    }

    /// (Out of line, but not cold: at a busy port nearly every arrival makes one.)
    #[inline(never)]
    fn make_deferred(&mut self, p: PortId, before: SimTime) {
        let now = self.now;
        while let Some(at) = self.ports[p.index()].tx.take_deferred_before(before) {
            self.now = at;
            self.transmit(p);
        }
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
