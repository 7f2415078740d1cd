//! Fan-in groups: the pipes that lead to one port share one entry in the event queue.
//!
//! A multiplexer fed by many links (twenty on/off sources into one FIFO) receives one cell per
//! pipe-head event, and each such event costs a sift through an event heap that holds every
//! feeding pipe's head. The pipes of a fan-in group keep their heads in an ordered list of
//! their own instead, and only the earliest head stands in the event queue (as a `FanIn`
//! event). When it is due, the group hands out heads in order for as long as each is still
//! the earliest pending event of the whole run.
//!
//! Nothing about the run changes, not even the event count or the trace hash: each head takes
//! the place in the queue's order its `PipeHead` event would have taken (its sequence number
//! is reserved from the queue when the reference would have scheduled the event: see
//! [`EventQueue::reserve`](celltrain_core::EventQueue::reserve)), is counted and folded into
//! the trace as that event, and is handled by the same code, at the same instant, in the same
//! order. Events scheduled meanwhile are in the queue, so the next head waits for them when
//! they come first. The gain is the heap: feeders with one cell rate keep their heads in a
//! rotation (the head handed out comes back last), so a head costs a comparison or two.

use super::{Event, Network, PortPath};
use celltrain_core::ids::PortId;
use celltrain_core::time::SimTime;
use celltrain_core::Place;

/// Trace-hash kind of a head handed out: the kind of the `PipeHead` event it stands for.
const TRACE_PIPE_HEAD: u32 = 1;

/// Heads handed out by one `FanIn` event at the most, so that a run fed by nothing else still
/// reports progress (and can be interrupted) now and then.
const HEADS_PER_TURN: u32 = 1 << 14;

/// The pipes that lead to one port.
#[derive(Debug, Default)]
pub(crate) struct FanIn {
    /// The non-empty pipes' heads, with the places their `PipeHead` events would have, in
    /// order.
    heads: HeadRing,
    /// The places of this group's `FanIn` events in the queue: one stands for the earliest
    /// head, the others are left from heads handed out early and do nothing when due.
    proxies: Vec<Place>,
    /// Heads are being handed out: a head that enters meanwhile gets no event of its own.
    handing_out: bool,
    /// Heads handed out since the start.
    handed_out: u64,
}

impl FanIn {
    /// A group of `pipes` pipes (each has one head at the most).
    fn new(pipes: usize) -> Self {
        FanIn { heads: HeadRing::new(pipes), proxies: Vec::new(), handing_out: false, handed_out: 0 }
    }

    /// Pipes with a head pending.
    pub(crate) fn pending(&self) -> usize {
        self.heads.len
    }
}

/// Heads in order of their places, in a ring: a pipe's next head is usually due after every
/// other pending head (pipes at one cell rate take turns), so it goes in at the back.
#[derive(Debug, Default)]
struct HeadRing {
    slots: Box<[(Place, PortId)]>,
    /// `slots.len() - 1` (a power of two less one).
    mask: usize,
    first: usize,
    len: usize,
}

impl HeadRing {
    fn new(pipes: usize) -> Self {
        let size = pipes.max(1).next_power_of_two();
        let empty = (Place::after(SimTime::ZERO), PortId(0));
        HeadRing { slots: vec![empty; size].into_boxed_slice(), mask: size - 1, first: 0, len: 0 }
    }

    /// The earliest head.
    #[inline]
    fn front(&self) -> Option<(Place, PortId)> {
        (self.len > 0).then(|| self.slots[self.first])
    }

    #[inline]
    fn pop_front(&mut self) {
        self.first = (self.first + 1) & self.mask;
        self.len -= 1;
    }

    /// Files a head at its place, moving the later ones back by one.
    #[inline]
    fn insert(&mut self, place: Place, p: PortId) {
        debug_assert!(self.len < self.slots.len(), "one head per pipe");
        let mut i = self.len;
        while i > 0 {
            let before = self.slots[(self.first + i - 1) & self.mask];
            if before.0 < place {
                break;
            }
            self.slots[(self.first + i) & self.mask] = before;
            i -= 1;
        }
        self.slots[(self.first + i) & self.mask] = (place, p);
        self.len += 1;
    }
}

impl Network {
    /// Pipe heads handed out by fan-in groups since the start (each a `PipeHead` event of the
    /// run that never entered the event queue).
    pub fn fan_in_heads(&self) -> u64 {
        self.fan_ins.iter().map(|g| g.handed_out).sum()
    }

    /// Forms the fan-in groups: the cell links that lead, for every VC on them, to one and the
    /// same next port, and are not carried ahead, grouped by that port when there are two or
    /// more and that port is analytic and carried ahead. Then handing a head out schedules
    /// nothing (its cell goes on to its destination at once), so a group hands out heads until
    /// a source acts; where each head's cell scheduled an event (a port run by events, a link
    /// with a pipe event per cell), the group handed out one head per turn and cost more
    /// than the heap it spared (twin b: +18 % instructions). Decided only while no pipe holds a cell (a plan made again when captures open,
    /// before the run, keeps the groups once cells are under way).
    pub(super) fn plan_fan_in(&mut self) {
        if self.ports.iter().any(|p| !p.pipe.is_empty()) || self.fan_ins.iter().any(|g| g.pending() > 0) {
            return;
        }
        for port in &mut self.ports {
            port.fan_in = None;
        }
        self.fan_ins.clear();
        if !self.options.fan_in {
            return;
        }
        #[derive(Clone, Copy, PartialEq)]
        enum Next {
            Unused,
            Port(PortId),
            Mixed,
        }
        let mut next = vec![Next::Unused; self.ports.len()];
        for vc in &self.vcs {
            for (h, &(p, _)) in vc.route.iter().enumerate() {
                let to = vc.route.get(h + 1).map_or(Next::Mixed, |&(q, _)| Next::Port(q));
                let n = &mut next[p.index()];
                *n = if *n == Next::Unused || *n == to { to } else { Next::Mixed };
            }
        }
        let mut feeders: Vec<Vec<usize>> = vec![Vec::new(); self.ports.len()];
        for (p, n) in next.iter().enumerate() {
            let port = &self.ports[p];
            if let (Next::Port(q), false, true) = (*n, port.carry, port.packets.is_none()) {
                let target = &self.ports[q.index()];
                if target.path == PortPath::Analytic && target.carry {
                    feeders[q.index()].push(p);
                }
            }
        }
        for members in feeders.into_iter().filter(|m| m.len() >= 2) {
            let g = u32::try_from(self.fan_ins.len()).expect("fewer groups than ports");
            self.fan_ins.push(FanIn::new(members.len()));
            for p in members {
                self.ports[p].fan_in = Some(g);
            }
        }
    }

    /// The pipe of `p`, in group `g`, has a new head arriving at `arrival`: it takes its place
    /// now, as its `PipeHead` event would be scheduled now.
    /// (Out of line, as `fan_in_due`: a pipe gets a head once a burst, not once a cell, and
    /// inlined into the cell path these cost twin b 3-5 % of its time.)
    #[inline(never)]
    pub(super) fn fan_in_enter(&mut self, g: u32, p: PortId, arrival: SimTime) {
        let place = self.queue.reserve(arrival);
        let group = &mut self.fan_ins[g as usize];
        group.heads.insert(place, p);
        if !group.handing_out && group.heads.front().map(|h| h.0) == Some(place) {
            group.proxies.push(place);
            self.queue.schedule_reserved(place, Event::FanIn(g));
        }
    }

    /// A `FanIn` event of group `g`, at `place`, is due: hand out the heads that come before
    /// every other pending event, each as its `PipeHead` event.
    #[inline(never)]
    pub(super) fn fan_in_due(&mut self, g: u32, place: Place) {
        let group = &mut self.fan_ins[g as usize];
        if let Some(i) = group.proxies.iter().position(|&q| q == place) {
            group.proxies.swap_remove(i);
        }
        if group.heads.front().map(|h| h.0) != Some(place) {
            return; // a head handed out early
        }
        group.handing_out = true;
        // Heads are handed out up to the earliest other event (only this group's own event for
        // a head can share the head's place) and the end; the bound is looked up again when
        // something was scheduled meanwhile.
        let end = Place::after(self.end);
        let mut bound = self.queue.earliest_place().map_or(end, |next| next.min(end));
        let mut turn = 0;
        while let Some((head, p)) = self.fan_ins[g as usize].heads.front() {
            if head > bound || turn == HEADS_PER_TURN {
                break;
            }
            turn += 1;
            self.fan_ins[g as usize].heads.pop_front();
            let now = head.time();
            self.now = now;
            self.trace.fold(now, TRACE_PIPE_HEAD, p.0);
            self.events += 1;
            let port = &mut self.ports[p.index()];
            let (_, cell) = port.pipe.pop_front().expect("a head is its pipe's oldest cell");
            if let Some(&(next, _)) = port.pipe.front() {
                let place = self.queue.reserve(next);
                self.fan_ins[g as usize].heads.insert(place, p);
            }
            let taken = self.queue.places_taken();
            self.cross(cell);
            if self.queue.places_taken() != taken {
                bound = self.queue.earliest_place().map_or(end, |next| next.min(end));
            }
        }
        let group = &mut self.fan_ins[g as usize];
        group.handing_out = false;
        group.handed_out += u64::from(turn);
        if let Some((front, _)) = group.heads.front() {
            if !group.proxies.contains(&front) {
                group.proxies.push(front);
                self.queue.schedule_reserved(front, Event::FanIn(g));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use celltrain_core::rng::RngStream;
    use celltrain_core::EventQueue;

    /// Against a sorted list: heads filed at random places, mostly last (as pipes at one rate
    /// file them), some earlier, through the ring's wrap-around.
    #[test]
    fn the_ring_keeps_heads_in_order() {
        let mut rng = RngStream::derive(5, "ring");
        let mut queue: EventQueue<Event> = EventQueue::new();
        for pipes in [1usize, 2, 3, 8, 20] {
            let mut ring = HeadRing::new(pipes);
            let mut reference: Vec<(Place, PortId)> = Vec::new();
            let mut now = 0;
            for step in 0..5_000u32 {
                let room = reference.len() < pipes;
                if room && (reference.is_empty() || rng.below(3) > 0) {
                    let later = if rng.below(4) == 0 { rng.below(50) } else { 100 + rng.below(3) };
                    let place = queue.reserve(SimTime::from_picos(now + later));
                    let p = PortId(step);
                    ring.insert(place, p);
                    reference.push((place, p));
                    reference.sort_unstable();
                } else {
                    let head = ring.front().expect("a head");
                    assert_eq!(head, reference.remove(0));
                    ring.pop_front();
                    now = head.0.time().as_picos();
                }
                assert_eq!(ring.len, reference.len());
                assert_eq!(ring.front(), reference.first().copied());
            }
        }
    }
}
