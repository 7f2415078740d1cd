//! A single-FIFO port run by events: the reference the analytic path is tested against.
//!
//! Cells wait in the port's queue and start at `PortFree` events, each when it reaches the
//! head: once the transmitter is free and its adapter's rules allow (`AdapterRules`). The
//! analytic path gives a FIFO port one convention that events must keep: a departure due at an
//! instant happens before an arrival at that instant (the buffer has room for the arrival), so
//! an arrival first makes a due departure.

use super::{AdapterRules, Event, Network, Port, PortPath};
use celltrain_atm::cell::Cell;
use celltrain_atm::port::TxClock;
use celltrain_core::ids::PortId;
use celltrain_core::time::SimTime;

/// What the port keeps of a queued cell to time its start.
#[derive(Clone, Copy, Debug)]
pub(super) struct Waiting {
    /// The earliest the adapter's rules let it start (its arrival time without a shaper).
    not_before: SimTime,
    first_of_pdu: bool,
    end_of_frame: bool,
}

impl Network {
    /// A cell arrives at single-FIFO port `p` run by events.
    pub(super) fn arrive_fifo(&mut self, p: PortId, slot: u32, cell: Cell) {
        let now = self.now;
        self.settle_due_fifo(p);
        let port = &mut self.ports[p.index()];
        let waiting = Waiting {
            not_before: match &mut port.rules {
                Some(rules) if port.facts.adapter_rules => rules.not_before(now),
                _ => now,
            },
            first_of_pdu: Self::first_of_pdu(&cell),
            end_of_frame: cell.end_of_frame,
        };
        // An idle port starts the cell now, or times it as its new head.
        let head_at = if port.tx.waits() {
            None
        } else {
            debug_assert!(port.queue.is_empty(), "cells queued, yet no free event pending");
            let start = head_start(port.timing_rules(), port.tx.clock.free_at(), &waiting);
            if start == now {
                self.pass_or_lose(p, slot, cell, now, now);
                return;
            }
            Some(start)
        };
        if port.queue.offer(cell, slot, now).is_err() {
            self.cell_lost(cell);
            return;
        }
        port.waiting.push_back(waiting);
        if let Some(start) = head_at {
            self.time_head(p, start);
        }
    }

    /// The head cell of single-FIFO port `p` starts at `start`: a `PortFree` event then.
    fn time_head(&mut self, p: PortId, start: SimTime) {
        let port = &mut self.ports[p.index()];
        port.tx.await_event(start);
        self.queue.schedule(start, Event::PortFree(p));
    }

    /// A single-FIFO port run by events makes the departure due now, if any, before the port is
    /// observed or offered a cell: an analytic port has made it already.
    pub(super) fn settle_due_fifo(&mut self, p: PortId) {
        let port = &mut self.ports[p.index()];
        if port.plan.path == PortPath::FifoEvents && port.tx.event_due_by(self.now) {
            port.tx.departs();
            self.transmit_fifo(p);
        }
    }

    /// Port `p` as it is now, before it is observed: the cells whose start has come have left,
    /// whichever way the port runs.
    pub(super) fn settle_port(&mut self, p: PortId) {
        self.settle_deferred(p);
        let now = self.now;
        self.release_started(p, now);
        self.settle_due_fifo(p);
        if self.ports[p.index()].packets.is_some() {
            self.release_packets(p, now);
            self.settle_due_packet(p);
        }
    }

    /// The head cell of single-FIFO port `p` is due now: it starts, and the next one is timed.
    pub(super) fn transmit_fifo(&mut self, p: PortId) {
        let now = self.now;
        let port = &mut self.ports[p.index()];
        let Some(cell) = port.queue.take_next(now) else { return };
        port.waiting.pop_front();
        self.start_cell(p, cell, now);
        let port = &self.ports[p.index()];
        if let Some(next) = port.waiting.front() {
            let start = head_start(port.timing_rules(), port.tx.clock.free_at(), next);
            self.time_head(p, start);
        }
    }

    /// The transmitter of a single-FIFO port run by events as it will be once every queued
    /// cell has started (what an analytic port's own clock is now).
    pub(super) fn clock_after_queue(port: &Port) -> TxClock {
        let mut clock = port.tx.clock.clone();
        let mut rules = port.timing_rules().cloned();
        for w in &port.waiting {
            let start = head_start(rules.as_ref(), clock.free_at(), w);
            let end = clock.start(start);
            if let Some(rules) = &mut rules {
                rules.on_started(end, w.end_of_frame);
            }
        }
        clock
    }
}

/// When a cell at the head of the queue may start.
fn head_start(rules: Option<&AdapterRules>, free_at: SimTime, w: &Waiting) -> SimTime {
    match rules {
        Some(rules) => rules.start(free_at, w.not_before, w.first_of_pdu),
        None => free_at.max(w.not_before),
    }
}
