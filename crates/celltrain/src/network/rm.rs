//! Resource management cells in the network: where an explicit-rate algorithm sits at a switch
//! port. An RM cell moves like any cell of its VC; its fields live in the network's RM arena.
//! When it reaches a port whose algorithm is set, the algorithm sees it (forward or backward)
//! before the port's buffer does, and every averaging interval it sees the port's load. The
//! ABR end systems (the source's rate rules, the destination's turn-around) are to be built on
//! these hooks; until then an RM cell ends at its VC's destination.

use super::{Event, Network};
use celltrain_atm::abr::{ExplicitRate, IntervalLoad, RmCell, RmContext, RmDirection};
use celltrain_atm::cell::Cell;
use celltrain_core::ids::{PortId, VcId};
use celltrain_core::time::SimDuration;

/// A port's explicit-rate algorithm and its averaging interval.
#[derive(Clone, Debug)]
pub(crate) struct ErPort {
    algorithm: ExplicitRate,
    interval: SimDuration,
    /// The port's `cells_in` when the current interval began.
    cells_in_at_start: u64,
}

impl Network {
    /// Gives switch port `p` an explicit-rate algorithm, told of the port's load every
    /// `interval` from the start of the run (before the run).
    ///
    /// # Panics
    /// If the run has started, or `interval` is zero.
    pub fn set_explicit_rate(&mut self, p: PortId, algorithm: ExplicitRate, interval: SimDuration) {
        assert_eq!(self.events, 0, "an explicit-rate algorithm is set before the run");
        assert!(!interval.is_zero(), "an averaging interval must be positive");
        let port = &mut self.ports[p.index()];
        let first = port.er.is_none();
        port.er = Some(Box::new(ErPort { algorithm, interval, cells_in_at_start: 0 }));
        if first {
            self.queue.schedule(self.now + interval, Event::RmInterval(p));
        }
    }

    /// The algorithm of port `p`, if it has one.
    pub fn explicit_rate(&self, p: PortId) -> Option<&ExplicitRate> {
        self.ports[p.index()].er.as_ref().map(|er| &er.algorithm)
    }

    /// Sends an RM cell with fields `rm` on `vc` now, from its source's adapter (the source end
    /// system of ABR calls this).
    ///
    /// # Panics
    /// If the adapter holds an on/off burst handed to it whole: the RM cell would have to take
    /// turns with cells already on the wire. ABR VCs are never given bursts whole.
    pub fn send_rm_cell(&mut self, vc: VcId, rm: RmCell) {
        let (first, slot) = self.vcs[vc.index()].route[0];
        let now = self.now;
        self.release_started(first, now);
        assert_eq!(self.ports[first.index()].handed.pending(), 0, "an RM cell sent on a VC whose adapter took a burst");
        let id = self.rm_cells.insert(rm);
        let cell = Cell::rm(vc, id, false);
        self.vcs[vc.index()].stats.cells_sent += 1;
        self.arrive(first, slot, cell);
    }

    /// RM cells in flight (sent, neither delivered nor dropped).
    pub fn rm_cells_in_flight(&self) -> usize {
        self.rm_cells.live()
    }

    /// An RM cell reaches port `p`, where its VC has `slot`: the port's algorithm, if it has
    /// one, sees it before the port does. (Out of line: the check on the cell's kind is the
    /// only cost a data cell pays.)
    #[cold]
    #[inline(never)]
    pub(super) fn arrive_rm(&mut self, p: PortId, slot: u32, cell: Cell) {
        self.rm_at_port(p, slot, &cell);
        self.arrive(p, slot, cell);
    }

    /// The algorithm of port `p`, if any, sees an RM cell that reaches it.
    fn rm_at_port(&mut self, p: PortId, slot: u32, cell: &Cell) {
        if self.ports[p.index()].er.is_none() {
            return;
        }
        self.settle_port(p);
        let port = &mut self.ports[p.index()];
        let (Some(er), Some(id)) = (&mut port.er, cell.rm_id()) else { return };
        let context = RmContext { now: self.now, slot, queue_cells: port.queue.occupancy() };
        let rm = self.rm_cells.get_mut(id);
        match rm.dir {
            RmDirection::Forward => er.algorithm.on_forward_rm(&context, rm),
            RmDirection::Backward => er.algorithm.on_backward_rm(&context, rm),
        }
    }

    /// An RM cell leaves the network (delivered or dropped): its record is released.
    #[cold]
    pub(super) fn rm_cell_gone(&mut self, cell: &Cell) {
        if let Some(id) = cell.rm_id() {
            self.rm_cells.remove(id);
        }
    }

    /// An averaging interval of port `p` ended: its algorithm sees the load over it.
    pub(super) fn rm_interval(&mut self, p: PortId) {
        let now = self.now;
        self.settle_port(p);
        let port = &mut self.ports[p.index()];
        let Some(er) = &mut port.er else { return };
        let cells_in = port.queue.stats.cells_in;
        // Every VC's cells offered to the port (ABR's own share awaits per-category counters);
        // the port's counters restart when the window opens.
        let input_cells = cells_in.saturating_sub(er.cells_in_at_start);
        er.cells_in_at_start = cells_in;
        let load = IntervalLoad { now, interval: er.interval, input_cells, queue_cells: port.queue.occupancy() };
        er.algorithm.on_interval(&load);
        let next = now + er.interval;
        if next <= self.end {
            self.queue.schedule(next, Event::RmInterval(p));
        }
    }

    /// The window opens: every interval measures from the port's restarted counters.
    pub(super) fn rm_open_window(&mut self) {
        for port in &mut self.ports {
            if let Some(er) = &mut port.er {
                er.cells_in_at_start = 0;
            }
        }
    }
}
