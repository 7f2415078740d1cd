//! The packet path of the network: a packet arrives at a packet port (by its events or
//! analytically), waits for its transmitter and the shaper, crosses its link's pipe (or is
//! carried across), is policed where it enters the far node, and is delivered or forwarded.

use super::conditioning::Verdict;
use super::Arrival;
use crate::network::{Event, Network, TRACE_DELIVERY, TRACE_DROP};
use crate::packet::{Packet, Payload};
use celltrain_core::ids::PortId;
use celltrain_core::time::SimTime;

/// The packet path of the network: FIFO queues, transmitters and pipes of whole packets.
impl Network {
    /// Packet mode: a packet arrives at output port `p`.
    pub(in crate::network) fn packet_arrive(&mut self, p: PortId, packet: Packet) {
        let now = self.now;
        if self.ports[p.index()].packets.as_ref().expect("packet port").analytic {
            self.packet_arrive_analytic(p, packet);
            return;
        }
        self.settle_due_packet(p);
        let port = &mut self.ports[p.index()];
        let q = port.packets.as_mut().expect("packet port");
        if !port.tx.waits() && now >= q.busy_until && q.settled_on_arrival(packet.ip_bytes, now) {
            // Idle, so nothing queued (a queued packet keeps a free event pending).
            if q.pass(&packet, now) {
                self.packet_send(p, packet);
            } else {
                self.packet_lost(&packet);
            }
            return;
        }
        let refused = q.offer(packet, now).is_err();
        if !q.pushed_out.is_empty() {
            self.count_pushed_out(p);
        }
        if refused {
            self.packet_lost(&packet);
            return;
        }
        let port = &mut self.ports[p.index()];
        let q = port.packets.as_mut().expect("packet port");
        if port.tx.waits() {
            return;
        }
        // (A departure due now was made first: the transmitter is busy.)
        debug_assert!(now < q.busy_until, "a free transmitter passes an arriving packet");
        let at = q.busy_until;
        port.tx.await_event(at);
        self.queue.schedule(at, Event::PortFree(p));
    }

    /// Packet mode: a packet arrives at analytic port `p` (see
    /// [`PacketQueue::arrive_analytic`]); one that waits goes on the link at once, to arrive
    /// at the end of its start's transmission plus the link's delay. (The packet before it is
    /// still on the link then, and the link has a delay, so its `PipeHead` event is scheduled
    /// when that one arrives, as by events: see `plan`; but on a carried link, whose packets
    /// reach their host as they go on it, see `packet_onto_link`.)
    fn packet_arrive_analytic(&mut self, p: PortId, packet: Packet) {
        let now = self.now;
        let port = &mut self.ports[p.index()];
        let q = port.packets.as_mut().expect("packet port");
        let (arrival, started) = q.arrive_analytic(&packet, now);
        self.tally.packet_hops += started;
        match arrival {
            Arrival::Pass => self.packet_send(p, packet),
            Arrival::Waits { done, .. } => {
                let arrival = done + port.link.delay();
                if q.carried {
                    self.packet_onto_carried_link(p, packet, arrival);
                    return;
                }
                // (The packet before it may have been carried by horizon.)
                if q.by_horizon {
                    self.packet_onto_horizon_link(p, packet, arrival);
                    return;
                }
                debug_assert!(!q.pipe.is_empty(), "the packet before it is on the link");
                q.pipe.push_back((arrival, packet));
            }
            Arrival::Refused => self.packet_lost(&packet),
        }
    }

    /// Analytic packet port `p` as it is at `now`: the packets whose start has come have left
    /// its buffer.
    pub(in crate::network) fn release_packets(&mut self, p: PortId, now: SimTime) {
        if let Some(q) = self.ports[p.index()].packets.as_mut() {
            if q.analytic {
                self.tally.packet_hops += q.release(now);
            }
        }
    }

    /// A departure due now from packet port `p` goes before an arrival or an observation at the
    /// same instant, whichever event came first: the analytic port's convention, as on FIFO cell
    /// ports (a packet port by priority keeps it too). It is also the port's `PortFree` event:
    /// one overtaken so finds the transmitter busy again (a transmission takes time), and does
    /// nothing.
    #[inline]
    pub(in crate::network) fn settle_due_packet(&mut self, p: PortId) {
        let port = &mut self.ports[p.index()];
        if port.tx.waits() && self.now >= port.packets.as_ref().expect("packet port").busy_until {
            port.tx.departs();
            self.packet_transmit(p);
        }
    }

    /// Packet mode: the transmitter of `p` is free; send the head packet, if any.
    pub(in crate::network) fn packet_transmit(&mut self, p: PortId) {
        let now = self.now;
        let port = &mut self.ports[p.index()];
        let q = port.packets.as_mut().expect("packet port");
        let Some(head_bytes) = q.head_bytes() else { return };
        if !q.clear_to_send(head_bytes, now) {
            let at = q.busy_until;
            port.tx.await_event(at);
            self.queue.schedule(at, Event::PortFree(p));
            return;
        }
        let Some(packet) = q.take(now) else { return };
        self.packet_send(p, packet);
    }

    /// Packet mode: `packet`, out of the buffer of `p`, goes on the wire now.
    #[inline(always)]
    fn packet_send(&mut self, p: PortId, packet: Packet) {
        let now = self.now;
        self.tally.packet_hops += 1;
        let port = &mut self.ports[p.index()];
        if let Some(i) = port.link.capture() {
            let from = port.from;
            self.capture_into(i as usize, &packet, from);
        }
        let port = &mut self.ports[p.index()];
        let q = port.packets.as_mut().expect("packet port");
        let done = q.busy_until.max(now) + q.tx_time_cached(packet.ip_bytes);
        q.busy_until = done;
        let more = !q.is_empty();
        let arrival = done + port.link.delay();
        if q.carried {
            debug_assert!(!more, "a carried link's port is analytic");
            self.packet_onto_carried_link(p, packet, arrival);
            return;
        }
        if q.by_horizon {
            debug_assert!(!more, "a link carried by horizon has an analytic port");
            self.packet_onto_horizon_link(p, packet, arrival);
            return;
        }
        if q.pipe.is_empty() {
            self.queue.schedule(arrival, Event::PipeHead(p));
        }
        q.pipe.push_back((arrival, packet));
        if more {
            port.tx.await_event(done);
            self.queue.schedule(done, Event::PortFree(p));
        }
    }

    /// `packet` goes on link `p`, carried by horizon, to arrive at `arrival`: to its router at
    /// once when the pipe is empty, as it would be by events, it arrives before the bound, and
    /// nothing can reach the router's next ports before it (`clear_ahead`); else into the pipe.
    ///
    /// A packet carried keeps the place its `PipeHead` event would have taken (`ghost`). While
    /// that place is ahead, the events would still have the packet in the pipe: one put behind
    /// it takes its `PipeHead` event from that place, which then schedules the one for its own
    /// arrival, as the carried packet's event would have.
    #[inline(never)]
    fn packet_onto_horizon_link(&mut self, p: PortId, packet: Packet, arrival: SimTime) {
        let current = self.place;
        let q = self.ports[p.index()].packets.as_mut().expect("packet port");
        let empty = q.pipe.is_empty();
        let ghost = q.ghost.take().filter(|&g| g > current);
        if empty && ghost.is_none() && arrival < self.carry_before && self.clear_ahead(p, arrival) {
            let place = self.queue.reserve(arrival);
            self.ports[p.index()].packets.as_mut().expect("packet port").ghost = Some(place);
            self.packet_carry(p, packet, arrival);
            return;
        }
        let q = self.ports[p.index()].packets.as_mut().expect("packet port");
        q.pipe.push_back((arrival, packet));
        if !empty {
            return;
        }
        match ghost {
            Some(place) => self.queue.schedule_reserved(place, Event::PipeHead(p)),
            None => self.queue.schedule(arrival, Event::PipeHead(p)),
        }
    }

    /// `packet` goes on carried link `p`, to arrive at `arrival`: to its host at once when the
    /// pipe is empty and it arrives before the bound (`packet_carry`), else into the pipe,
    /// whose `PipeHead` event is scheduled if it was empty.
    #[inline(never)]
    fn packet_onto_carried_link(&mut self, p: PortId, packet: Packet, arrival: SimTime) {
        if !self.ports[p.index()].packets.as_ref().expect("packet port").pipe.is_empty() {
            self.packet_carry_pipe(p);
        }
        let q = self.ports[p.index()].packets.as_mut().expect("packet port");
        if q.pipe.is_empty() {
            if arrival < self.carry_before {
                self.packet_carry(p, packet, arrival);
                return;
            }
            self.queue.schedule(arrival, Event::PipeHead(p));
        }
        q.pipe.push_back((arrival, packet));
    }

    /// Carried link `p`: the packets in its pipe, held back by an earlier bound, reach their
    /// host now if they all arrive before the bound as it stands (else they go on by the pipe's
    /// events, and the packets behind them). The pipe's pending event then finds it empty, or
    /// headed by a later packet with an event of its own, and does nothing.
    #[cold]
    #[inline(never)]
    fn packet_carry_pipe(&mut self, p: PortId) {
        let q = self.ports[p.index()].packets.as_mut().expect("packet port");
        if q.pipe.back().is_none_or(|&(arrival, _)| arrival >= self.carry_before) {
            return;
        }
        let mut held = std::mem::take(&mut q.pipe);
        for (arrival, packet) in held.drain(..) {
            self.packet_carry(p, packet, arrival);
        }
        // (The pipe's storage kept.)
        self.ports[p.index()].packets.as_mut().expect("packet port").pipe = held;
    }

    /// Packet mode: the oldest packet on `p`'s link reaches the far end.
    pub(in crate::network) fn packet_pipe_head(&mut self, p: PortId) {
        let q = self.ports[p.index()].packets.as_mut().expect("packet port");
        // (On a carried link, the event of packets carried since: see `packet_carry_pipe`.)
        if q.carried && q.pipe.front().is_none_or(|&(arrival, _)| arrival > self.now) {
            return;
        }
        // (A link carried by horizon: the event of a packet carried, whose place the one behind
        // it took, see `packet_onto_horizon_link`.)
        if q.by_horizon {
            if let Some(&(next, _)) = q.pipe.front().filter(|&&(arrival, _)| arrival > self.now) {
                self.queue.schedule(next, Event::PipeHead(p));
                return;
            }
        }
        let (_, mut packet) = q.pipe.pop_front().expect("pipe event without a packet");
        if let Some(&(next, _)) = q.pipe.front() {
            self.queue.schedule(next, Event::PipeHead(p));
        }
        if q.police(packet.ip_bytes, self.now) == Verdict::Drop {
            self.packet_lost(&packet);
            return;
        }
        packet.hop += 1;
        self.forward(packet);
    }

    /// A packet reaches the destination host of its route.
    pub(in crate::network) fn packet_receive(&mut self, packet: Packet) {
        self.tally.trace.fold(self.now, TRACE_DELIVERY, packet.route.0);
        self.capture(self.routes[packet.route.index()].dst, &packet);
        let flow = &mut self.flows[packet.flow.index()];
        let delay_ps = self.now.saturating_since(packet.sent_at).as_picos();
        flow.packet_settled(packet.counted, false);
        if packet.counted {
            flow.stats.delay_sum_ps += delay_ps;
            flow.stats.delay_max_ps = flow.stats.delay_max_ps.max(delay_ps);
        }
        match packet.payload {
            Payload::Udp { .. } => flow.stats.bytes_delivered += packet.app_bytes,
            Payload::Tcp { .. } => self.tcp_arrive(packet),
        }
    }

    /// The packets port `p` evicted to make room are lost.
    fn count_pushed_out(&mut self, p: PortId) {
        while let Some(victim) = self.ports[p.index()].packets.as_mut().and_then(|q| q.pushed_out.pop()) {
            self.packet_lost(&victim);
        }
    }

    pub(in crate::network) fn packet_lost(&mut self, packet: &Packet) {
        self.tally.trace.fold(self.now, TRACE_DROP, packet.route.0);
        self.flows[packet.flow.index()].packet_settled(packet.counted, true);
    }
}
