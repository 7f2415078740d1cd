//! ATM-layer and UDP sources, and the adapters that take their bursts whole: an on/off
//! source's burst handed over at once, cells put on the wire as a run, and the release of the
//! cells whose start time has come.

use super::*;
use celltrain_core::ids::FlowId;

impl Network {
    pub(super) fn source_tick(&mut self, s: SourceId) {
        let now = self.now;
        let stop = self.sources[s.index()].stop();
        let next = match &mut self.sources[s.index()] {
            Source::Udp(src) => {
                let (flow, seq, app_bytes) = (src.flow, src.sent, src.app_bytes);
                src.sent += 1;
                let next = src.next_time();
                self.send_datagram(flow, seq, app_bytes);
                next
            }
            Source::Poisson(src) => {
                let (flow, seq, app_bytes) = (src.flow, src.sent, src.app_bytes);
                let next = src.step(now);
                self.send_datagram(flow, seq, app_bytes);
                next
            }
            Source::OnOffPacket(src) => {
                let (flow, seq, app_bytes) = (src.flow, src.sent, src.app_bytes);
                let next = src.step(now);
                self.send_datagram(flow, seq, app_bytes);
                next
            }
            Source::OnOff(src) => {
                let flow = src.flow;
                let Hop::Vc(vc) = self.routes[self.flows[flow.index()].route.index()].hops[0] else {
                    unreachable!("an on/off route is one VC (checked at build)")
                };
                let (first, slot) = self.vcs[vc.index()].route[0];
                Self::release_in(&mut self.ports, &mut self.vcs, first, now);
                let port = &self.ports[first.index()];
                // An idle adapter paced at exactly the source's peak rate starts each cell of a
                // burst as the source emits it: it may take the whole burst now.
                let whole_burst = src.at_burst_start()
                    && port.plan.burst_handoff
                    && port.all_started()
                    && port.starts.handed().pending() == 0
                    && port.tx.clock.is_idle_at(now)
                    && port.tx.clock.service_rate() == src.pcr;
                // Cells that start after the run's end are never released, so a burst is cut
                // there: memory is bounded by the run, not by the burst (an "on" of 1000 s in
                // a 60 ms run). A run too long for that bound in a u32 goes cell by cell.
                let run_cells = run_cells_from(src.pcr, now, self.end);
                if let (true, Ok(run_cells)) = (whole_burst, u32::try_from(run_cells)) {
                    // A burst the stop cuts ends with its last cell before the stop, as the
                    // cell-by-cell source would; the source is not woken again then.
                    let stop_cells = src.cells_before_stop(now);
                    let (cells, next) = src.burst(now);
                    let cells = u32::try_from(cells.min(stop_cells)).unwrap_or(u32::MAX).min(run_cells);
                    self.hand_over_burst(first, vc, cells);
                    next
                } else {
                    let next = src.step(now);
                    self.vcs[vc.index()].stats.cells_sent += 1;
                    self.arrive(first, slot, Cell::raw(vc));
                    next
                }
            }
        };
        if next <= self.end && next < stop {
            self.queue.schedule(next, Event::Source(s));
        }
    }

    /// Datagram `seq` of UDP flow `flow` leaves its host now.
    fn send_datagram(&mut self, flow: FlowId, seq: u64, app_bytes: u64) {
        let (now, window_open) = (self.now, self.measure.window_open);
        let f = &mut self.flows[flow.index()];
        f.stats.packets_sent += 1;
        let packet = Packet {
            flow,
            payload: Payload::Udp { seq },
            app_bytes,
            ip_bytes: app_bytes + f.header_bytes,
            sent_at: now,
            route: f.route,
            hop: 0,
            counted: window_open,
        };
        let route = f.route;
        self.send(route, packet);
    }

    /// An on/off burst of `cells` cells of `vc`, handed whole to its adapter `p` as it starts
    /// (now): the adapter is idle and serves cells at the source's peak rate, so each cell
    /// starts as the source emits it and never queues. Each cell is put on the wire at its
    /// start time now, with no event per cell; it enters the adapter — port `cells_in` and
    /// `cells_out`, VC `cells_sent` — only when it starts (`release_started`), as the cell the
    /// source emits then would, so every counter reads as with one source event per cell.
    pub(super) fn hand_over_burst(&mut self, p: PortId, vc: VcId, cells: u32) {
        let now = self.now;
        let cell = Cell::raw(vc);
        let port = &mut self.ports[p.index()];
        debug_assert!(port.all_started(), "a burst handed to a busy adapter");
        port.starts.hand_over(HandedBurst { vc, start: now, rate: port.tx.clock.service_rate(), cells, started: 0 });
        if port.plan.carry {
            for _ in 0..cells {
                let start = self.ports[p.index()].tx.clock.free_at().max(now);
                self.start_cell(p, cell, start);
            }
            return;
        }
        if let Some(slot) = port.plan.fan_in {
            self.fan_in_hand_over(slot, p, cell, cells);
            return;
        }
        self.put_run_on_wire(p, 0..cells, false, |_| now, |_| cell);
    }

    /// Puts cells `cell_at(j)`, j in `run`, on the wire of adapter `p` in order, each when the
    /// transmitter is free and not before `not_before(j)` (now, for cells back to back), into
    /// the pipe. It is `start_cell` for a run: each cell takes the clock's step
    /// (`TxClock::start`, by `on_wire`) and the pipe the head's step (`pipe_gets_head`), with
    /// the clock in a local and the pipe grown at once; the duties `start_cell` has besides (a
    /// capture, shaping rules, carrying ahead) are on ports its callers never run through it
    /// (asserted). `queued`: they wait in the buffer until they start (admitted there), so
    /// their start times are kept.
    pub(super) fn put_run_on_wire(
        &mut self,
        p: PortId,
        run: std::ops::Range<u32>,
        queued: bool,
        not_before: impl Fn(u32) -> SimTime,
        cell_at: impl Fn(u32) -> Cell,
    ) {
        if let Some(slot) = self.ports[p.index()].plan.fan_in {
            // (A frame's cells queued at the adapter, back to back from now: a burst handed
            // over takes a train of its own only when the pipe is empty, in
            // `fan_in_hand_over`.)
            debug_assert!(!queued || run.clone().all(|j| not_before(j) <= self.now), "queued cells go back to back");
            if queued && run.end - run.start >= 2 && self.fan_in_run_as_train(slot, p, run.clone(), &cell_at) {
                return;
            }
            // (A train the pipe carries goes in first; the head is filed below.)
            self.fan_in_before_push(slot, p);
        }
        let port = &mut self.ports[p.index()];
        debug_assert!(!port.link.is_captured() && !port.facts.adapter_rules && !port.plan.carry);
        let was_empty = port.link.is_empty();
        let first = port.link.len();
        self.tally.cell_hops += u64::from(run.end - run.start);
        // The clock is stepped in a local copy and the pipe grown by one `extend`: the loop then
        // keeps the clock in registers, and the start times follow in one `extend` (twin b -2.4 %,
        // A4 -2.3 % instructions).
        let mut clock = port.tx.clock.clone();
        let delay = port.link.delay();
        port.link.extend(run.map(|j| {
            let (start, end) = on_wire(&mut clock, not_before(j));
            (end + delay, Cell { entered: start, ..cell_at(j) })
        }));
        port.tx.clock = clock;
        if queued {
            // (On its first link a cell's start time is its entry time.)
            let Port { link, starts, .. } = port;
            starts.extend(link.cells_from(first).map(|(_, cell)| cell.entered));
        }
        if was_empty {
            if let Some((head, cell)) = port.link.head() {
                self.pipe_gets_head(p, cell.kind, head);
            }
        }
    }

    /// Port `p` releases the cells that have started by `now`; those of a burst handed over
    /// to it are sent then.
    #[inline]
    pub(super) fn release_started(&mut self, p: PortId, now: SimTime) {
        Self::release_in(&mut self.ports, &mut self.vcs, p, now);
    }

    /// [`release_started`](Self::release_started) on the network's ports and VCs, for a caller
    /// that holds another part of the network (a source).
    #[inline(always)]
    pub(super) fn release_in(ports: &mut [Port], vcs: &mut [Vc], p: PortId, now: SimTime) {
        Self::release_in_one_by_one(ports, vcs, p, now);
        ports[p.index()].release_runs_started(now);
    }

    /// [`release_in`](Self::release_in) at a port that keeps no start times by runs (not on a
    /// link with trains: a fan-in group's, or a lone one's).
    #[inline(always)]
    pub(super) fn release_in_one_by_one(ports: &mut [Port], vcs: &mut [Vc], p: PortId, now: SimTime) {
        let port = &mut ports[p.index()];
        debug_assert!(port.starts.no_runs() || port.plan.fan_in.is_some());
        let passed = port.release_started(now);
        if passed > 0 {
            vcs[port.starts.handed().vc.index()].stats.cells_sent += u64::from(passed);
        }
    }

    /// Every port releases the cells that have started by `now`.
    pub(super) fn release_all(&mut self, now: SimTime) {
        for i in 0..self.ports.len() {
            self.release_started(PortId::from_index(i), now);
            self.release_packets(PortId::from_index(i), now);
        }
    }
}

/// The next of a run of cells put on a wire back to back from `from` on: when it starts
/// (on its first link, its entry time) and when its last bit leaves. A fan-in group's train
/// makes its cells by the same step.
#[inline(always)]
pub(super) fn on_wire(clock: &mut TxClock, from: SimTime) -> (SimTime, SimTime) {
    let start = clock.free_at().max(from);
    (start, clock.start(start))
}

/// Cells of a burst at `pcr` starting at `now` that start no later than `end` (the run's end),
/// plus one for margin: what of a burst can matter to the run.
fn run_cells_from(pcr: BitRate, now: SimTime, end: SimTime) -> u64 {
    let span = end.saturating_since(now) + SimDuration::from_picos(1);
    pcr.cells_starting_within(span).saturating_add(2)
}
