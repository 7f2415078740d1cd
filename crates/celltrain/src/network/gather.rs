//! Gathering: a switch port fed by traffic sources' adapters runs ahead of the clock.
//!
//! A port whose inputs are all adapters of traffic sources (UDP or on/off, each adapter a
//! single FIFO fed by one source) and whose outputs are carried ahead (see `carry`) hears from
//! nothing else. What reaches it before the next time any of those sources can act is already
//! in the adapters' pipes: a cell a source emits at its next tick `s` reaches the port after
//! `s + delay`. So each time one of its sources acts, the port takes the cells of its pipes
//! that arrive before that horizon, in order of arrival, and serves its own transmitter in
//! between — instead of one pipe event per arriving cell and one "free" event per queued cell.
//! The horizon never passes the next observation (warm-up boundary, sample, end of run), and
//! every observation gathers first.
//!
//! Order at equal times: the transmitter takes its next cell before a cell arriving at the
//! same instant is offered, and cells arriving together are offered in input order (the
//! order the port's input links were declared). With pipe events the order of such ties is
//! the order the events happened to be scheduled in; both are deterministic.

use super::{Network, Source};
use celltrain_core::ids::{PortId, SourceId};
use celltrain_core::time::SimTime;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Trace-hash kinds: those of the `PortFree` and `PipeHead` events a gathering replaces.
const TRACE_PORT_FREE: u32 = 0;
const TRACE_PIPE_HEAD: u32 = 1;

/// A port that gathers its arrivals, and its inputs with the source that feeds each.
pub(crate) struct Gather {
    port: PortId,
    inputs: Vec<(PortId, SourceId)>,
}

impl Network {
    /// Decides which ports gather (after `plan_carry`, which they depend on).
    pub(super) fn plan_gathers(&mut self) {
        for port in &mut self.ports {
            port.gathered = false;
            port.feeds_gather = false;
        }
        self.gathers.clear();
        self.source_gather.iter_mut().for_each(|g| *g = None);
        if !self.carry_enabled {
            return;
        }
        let n = self.ports.len();
        // The source feeding each adapter (None: not exactly one source, or other traffic).
        const NONE: usize = usize::MAX;
        const MANY: usize = usize::MAX - 1;
        let mut source_of = vec![NONE; n];
        let mut route_source = vec![NONE; self.routes.len()];
        for (s, source) in self.sources.iter().enumerate() {
            let flow = match source {
                Source::Udp(u) => u.flow,
                Source::OnOff(o) => o.flow,
            };
            route_source[self.flows[flow.index()].route.index()] = s;
        }
        // Every use of a VC by a route: a source's route starting with it, or anything else.
        let mut vc_source = vec![NONE; self.vcs.len()];
        for (r, route) in self.routes.iter().enumerate() {
            for (i, hop) in route.hops.iter().enumerate() {
                if let super::Hop::Vc(v) = *hop {
                    let s = if i == 0 && route_source[r] != NONE { route_source[r] } else { MANY };
                    let slot = &mut vc_source[v.index()];
                    *slot = if *slot == NONE || *slot == s { s } else { MANY };
                }
            }
        }
        // The port each adapter's VCs go to next (MANY: several, or none).
        let mut next_of = vec![NONE; n];
        let mut fed_by_pipes_only = vec![true; n];
        for (v, vc) in self.vcs.iter().enumerate() {
            let first = vc.route[0].index();
            fed_by_pipes_only[first] = false;
            let s = vc_source[v];
            source_of[first] = if source_of[first] == NONE || source_of[first] == s { s } else { MANY };
            let next = vc.route.get(1).map_or(MANY, |q| q.index());
            next_of[first] = if next_of[first] == NONE || next_of[first] == next { next } else { MANY };
        }
        let mut inputs_of: Vec<Vec<(PortId, SourceId)>> = vec![Vec::new(); n];
        let mut all_inputs_ok = vec![true; n];
        for vc in &self.vcs {
            for w in vc.route.windows(2) {
                let (p, q) = (w[0].index(), w[1].index());
                let port = &self.ports[p];
                let s = source_of[p];
                let ok = s != NONE && s != MANY && next_of[p] == q && port.analytic && port.is_nic && !port.carry;
                if !ok {
                    all_inputs_ok[q] = false;
                } else if !inputs_of[q].iter().any(|&(i, _)| i.index() == p) {
                    inputs_of[q].push((w[0], SourceId::from_index(s)));
                }
            }
        }
        for q in 0..n {
            let port = &self.ports[q];
            if !(all_inputs_ok[q] && fed_by_pipes_only[q] && !inputs_of[q].is_empty()) {
                continue;
            }
            if !(port.carry && port.capture.is_none() && port.packets.is_none() && !port.adapter_rules) {
                continue;
            }
            let g = self.gathers.len();
            for &(p, s) in &inputs_of[q] {
                self.ports[p.index()].feeds_gather = true;
                self.source_gather[s.index()] = Some(g);
            }
            self.ports[q].gathered = true;
            let mut inputs = std::mem::take(&mut inputs_of[q]);
            inputs.sort_by_key(|&(p, _)| p);
            self.gathers.push(Gather { port: PortId::from_index(q), inputs });
        }
    }

    /// Every gathering port takes what it can (before an observation, and at the end).
    pub(super) fn gather_all(&mut self) {
        for g in 0..self.gathers.len() {
            self.gather(g);
        }
    }

    /// Port `g` takes the cells that arrive before its horizon, serving its transmitter in
    /// between.
    pub(super) fn gather(&mut self, g: usize) {
        let q = self.gathers[g].port;
        let mut horizon = self.carry_before;
        for &(p, s) in &self.gathers[g].inputs {
            horizon = horizon.min(self.source_next[s.index()] + self.ports[p.index()].delay);
        }
        let real_now = self.now;
        // The inputs with a cell before the horizon, keyed by (arrival, input): earliest
        // first, and in input order at equal times.
        let mut heads = std::mem::take(&mut self.gather_heads);
        heads.clear();
        for (k, &(p, _)) in self.gathers[g].inputs.iter().enumerate() {
            if let Some(&(t, _)) = self.ports[p.index()].pipe.front() {
                if t < horizon {
                    heads.push(Reverse((t, k as u32)));
                }
            }
        }
        let mut heads = BinaryHeap::from(heads);
        while let Some(Reverse((t, k))) = heads.pop() {
            // The transmitter takes its next cell before a cell arriving at the same instant.
            self.serve_until(q, t, true);
            let p = self.gathers[g].inputs[k as usize].0;
            let port = &mut self.ports[p.index()];
            let (_, cell) = port.pipe.pop_front().expect("input head seen");
            if let Some(&(next, _)) = port.pipe.front() {
                if next < horizon {
                    heads.push(Reverse((next, k)));
                }
            }
            self.now = t;
            self.trace.fold(t, TRACE_PIPE_HEAD, p.0);
            self.cross(cell);
        }
        self.serve_until(q, horizon, false);
        self.gather_heads = heads.into_vec();
        self.now = real_now;
    }

    /// The gathering port's transmitter takes its queued cells due before `until` (or at it,
    /// with `inclusive`).
    fn serve_until(&mut self, q: PortId, until: SimTime, inclusive: bool) {
        loop {
            let port = &mut self.ports[q.index()];
            let at = port.clock.free_at();
            if !port.free_pending || at > until || (at == until && !inclusive) {
                return;
            }
            port.free_pending = false;
            self.now = at;
            self.trace.fold(at, TRACE_PORT_FREE, q.0);
            self.transmit(q);
        }
    }
}
