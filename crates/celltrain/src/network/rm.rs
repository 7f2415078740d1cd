//! Resource management cells in the network: where an explicit-rate algorithm sits at a switch
//! port. An RM cell moves like any cell of its VC; its fields live in the network's RM arena.
//! A forward RM cell is seen by the algorithm of each switch port it reaches, before the
//! port's buffer; a backward one (travelling on the paired VC, see `abr`) by the algorithm of
//! the port its feedback is for, at the same switch. Every averaging interval the algorithm
//! sees the port's load: the cells offered to the buffer pool ABR draws on, and the capacity
//! higher-priority categories left.

use super::{Event, Network};
use celltrain_atm::abr::{ExplicitRate, IntervalLoad, RmCell, RmContext, RmDirection, RmId};
use celltrain_atm::cell::Cell;
use celltrain_atm::ingress::RmFeedback;
use celltrain_atm::ServiceCategory;
use celltrain_core::ids::{PortId, VcId};
use celltrain_core::time::{SimDuration, SimTime};

/// A port's explicit-rate algorithm and its averaging interval.
#[derive(Clone, Debug)]
pub(crate) struct ErPort {
    algorithm: ExplicitRate,
    interval: SimDuration,
    /// The buffer pool ABR draws on at the port, and the pools of the categories served
    /// before ABR (CBR, VBR) that are not that pool.
    abr_pool: usize,
    priority_pools: Vec<usize>,
    /// Cells offered to those pools when the current interval began.
    abr_offered_at_start: u64,
    priority_offered_at_start: u64,
    /// When the current interval ends (its `RmInterval` event; `SimTime::MAX` past the run's
    /// last).
    ends_at: SimTime,
}

impl ErPort {
    /// When the algorithm next sees the port's load (the end of its averaging interval).
    pub(super) fn next_interval(&self) -> SimTime {
        self.ends_at
    }

    /// The averaging interval.
    pub(super) fn interval(&self) -> SimDuration {
        self.interval
    }

    /// Whether the algorithm reads the port's queue when an RM cell crosses.
    pub(super) fn algorithm_reads_queue_at_rm(&self) -> bool {
        self.algorithm.queue_at_rm()
    }
}

impl Network {
    /// Gives switch port `p` an explicit-rate algorithm, told of the port's load every
    /// `interval` from the start of the run (before the run).
    ///
    /// # Panics
    /// If the run has started, or `interval` is zero.
    pub fn set_explicit_rate(&mut self, p: PortId, algorithm: ExplicitRate, interval: SimDuration) {
        assert_eq!(self.tally.events, 0, "an explicit-rate algorithm is set before the run");
        assert!(!interval.is_zero(), "an averaging interval must be positive");
        let port = &mut self.ports[p.index()];
        let first = port.er.is_none();
        // (A port given another algorithm keeps its interval's pending end.)
        let ends_at = port.er.as_ref().map_or(self.now + interval, |er| er.ends_at);
        let slots: Vec<(usize, usize)> =
            (0..port.queue.slot_count()).map(|s| port.queue.slot_pool_and_class(s as u32)).collect();
        let abr = ServiceCategory::Abr.priority();
        let abr_pool = slots.iter().find(|&&(_, class)| class == abr).map_or(0, |&(pool, _)| pool);
        let mut priority_pools: Vec<usize> =
            slots.iter().filter(|&&(pool, class)| class < abr && pool != abr_pool).map(|&(pool, _)| pool).collect();
        priority_pools.sort_unstable();
        priority_pools.dedup();
        port.er = Some(Box::new(ErPort {
            algorithm,
            interval,
            abr_pool,
            priority_pools,
            abr_offered_at_start: 0,
            priority_offered_at_start: 0,
            ends_at,
        }));
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
    pub fn send_rm_cell(&mut self, vc: VcId, rm: RmCell, out_of_rate: bool) {
        let (first, slot) = self.vcs[vc.index()].route[0];
        let now = self.now;
        self.release_started(first, now);
        assert_eq!(
            self.ports[first.index()].starts.handed().pending(),
            0,
            "an RM cell sent on a VC whose adapter took a burst"
        );
        let id = self.new_rm_cell(vc, rm, now);
        let cell = Cell::rm(vc, id, out_of_rate);
        self.vcs[vc.index()].stats.cells_sent += 1;
        self.arrive(first, slot, cell);
    }

    /// The fields `rm` of a new RM cell of `vc`, which leaves its source at `sent` at the
    /// earliest, stored for its flight (and its flight bounded for the paired end system's
    /// pacing ahead: `AbrSystem::rm_sent`).
    pub(super) fn new_rm_cell(&mut self, vc: VcId, rm: RmCell, sent: SimTime) -> RmId {
        let id = self.abr.rm_cells.insert(rm);
        self.abr.rm_sent(vc, id, sent);
        id
    }

    /// RM cell `id` of `vc` ends its flight (delivered or lost): its fields.
    pub(super) fn retire_rm_cell(&mut self, vc: VcId, id: RmId) -> RmCell {
        self.abr.rm_gone(vc, id);
        self.abr.rm_cells.remove(id)
    }

    /// RM cells in flight (sent, neither delivered nor dropped).
    pub fn rm_cells_in_flight(&self) -> usize {
        self.abr.rm_cells.live()
    }

    /// An RM cell reaches port `p`, where its VC has `slot`: the port's algorithm, if it has
    /// one, sees it before the port does. (Out of line: the check on the cell's kind is the
    /// only cost a data cell pays.)
    #[cold]
    #[inline(never)]
    pub(super) fn arrive_rm(&mut self, p: PortId, slot: u32, cell: Cell) {
        if self.ports[p.index()].plan.as_of {
            // (Carried across a link into ports answering as of an instant: its step at the
            // algorithm keeps an event, see `as_of`.)
            let link = self.vcs[cell.vc.index()].route[usize::from(cell.hop) - 1].0;
            self.arrive_rm_ahead(link, p, slot, cell);
            return;
        }
        self.rm_at_port(p, slot, &cell);
        if self.abr.watching {
            if let Some(v) = self.watcher_of(&cell) {
                self.arrive_watched(v, p, slot, cell);
                return;
            }
        }
        self.arrive(p, slot, cell);
    }

    /// The VC whose policer reads `cell`, when it is a backward RM cell reaching the last port
    /// of its VC (leaving that VC's first switch towards its source) and that VC's policer
    /// watches its feedback.
    fn watcher_of(&self, cell: &Cell) -> Option<VcId> {
        let id = cell.rm_id()?;
        let v = self.abr.ends[self.abr.of(cell.vc)?].watched_by?;
        let last = usize::from(cell.hop) + 1 == self.vcs[cell.vc.index()].route.len();
        (last && self.abr.rm_cells.get(id).dir == RmDirection::Backward).then_some(v)
    }

    /// A backward RM cell with `v`'s feedback is offered to the port towards `v`'s source: if
    /// the port takes it, `v`'s policer is shown it now (the cell then reaches the source: the
    /// link loses nothing). One the port refuses never reaches the source, so it is not shown.
    fn arrive_watched(&mut self, v: VcId, p: PortId, slot: u32, cell: Cell) {
        let id = cell.rm_id().expect("an RM cell");
        let feedback = RmFeedback::from(self.abr.rm_cells.get(id));
        let w = cell.vc.index();
        let dropped = self.vcs[w].stats.cells_dropped;
        self.arrive(p, slot, cell);
        if self.vcs[w].stats.cells_dropped == dropped {
            let now = self.now;
            let policer = self.vcs[v.index()].policer.as_mut().expect("a watching policer");
            policer.on_backward_rm(now, &feedback);
        }
    }

    /// The algorithm that an RM cell reaching port `p` (where its VC has `slot`) passes, if
    /// any, sees it: a forward cell the algorithm of `p`; a backward one the algorithm of the
    /// port its feedback is for, at the same switch.
    pub(super) fn rm_at_port(&mut self, p: PortId, slot: u32, cell: &Cell) {
        let Some(id) = cell.rm_id() else { return };
        let mut rm = *self.abr.rm_cells.get(id);
        if self.rm_seen_at(p, slot, cell, &mut rm) {
            *self.abr.rm_cells.get_mut(id) = rm;
        }
    }

    /// [`rm_at_port`](Self::rm_at_port) for `cell` with fields `rm`: whether an algorithm saw
    /// it (and may have changed `rm`).
    pub(super) fn rm_seen_at(&mut self, p: PortId, slot: u32, cell: &Cell, rm: &mut RmCell) -> bool {
        let (p, slot, forward) = match rm.dir {
            RmDirection::Forward => (p, slot, true),
            RmDirection::Backward => match self.abr_feedback_port(cell.vc, cell.hop) {
                Some((q, s)) => (q, s, false),
                None => return false,
            },
        };
        if self.ports[p.index()].er.is_none() {
            return false;
        }
        // (A port answering as of an instant is not settled, its counters moving at its
        // arrivals' instants, ahead: its algorithm reads no queue here, see `as_of`.)
        let queue_cells = if self.ports[p.index()].plan.as_of {
            0
        } else {
            self.settle_port(p);
            self.ports[p.index()].queue.occupancy()
        };
        let Some(er) = &mut self.ports[p.index()].er else { return false };
        let context = RmContext { now: self.now, slot, queue_cells };
        if forward {
            er.algorithm.on_forward_rm(&context, rm);
        } else {
            er.algorithm.on_backward_rm(&context, rm);
        }
        true
    }

    /// An RM cell is dropped: its record is released.
    #[cold]
    pub(super) fn rm_cell_gone(&mut self, cell: &Cell) {
        if let Some(id) = cell.rm_id() {
            self.retire_rm_cell(cell.vc, id);
            self.abr.rm_cells_lost += 1;
        }
    }

    /// An averaging interval of port `p` ended: its algorithm sees the load over it.
    /// (Out of line: see `rm_step`.)
    #[inline(never)]
    pub(super) fn rm_interval(&mut self, p: PortId) {
        let now = self.now;
        if self.ports[p.index()].er.is_none() {
            return;
        }
        // ABR's input is what its pool was offered (UBR's cells too where UBR shares the pool:
        // MSc98 never mixes the two); its capacity is the link's less what the categories
        // served before it were offered. (At a port answering as of an instant, as its load was
        // taken at this instant: see `as_of`.)
        let taken = self.load_taken(p);
        if taken.is_none() {
            self.settle_port(p);
        }
        let port = &mut self.ports[p.index()];
        let Some(er) = &mut port.er else { return };
        let offered = |k: usize| taken.map_or_else(|| port.queue.pool_cells_offered(k), |load| load.offered[k]);
        let abr_offered = offered(er.abr_pool);
        let priority_offered: u64 = er.priority_pools.iter().map(|&k| offered(k)).sum();
        let queue_cells = taken.map_or_else(|| port.queue.occupancy(), |load| load.queue_cells);
        let input_cells = abr_offered - er.abr_offered_at_start;
        let priority_cells = priority_offered - er.priority_offered_at_start;
        er.abr_offered_at_start = abr_offered;
        er.priority_offered_at_start = priority_offered;
        let seconds = er.interval.as_secs_f64();
        let link_cells_per_s = port.line_rate.as_bps() as f64 / 424.0;
        let abr_capacity = (link_cells_per_s - priority_cells as f64 / seconds).max(0.0);
        let load = IntervalLoad { now, interval: er.interval, input_cells, abr_capacity, queue_cells };
        er.algorithm.on_interval(&load);
        let next = now + er.interval;
        if next <= self.end {
            er.ends_at = next;
            self.queue.schedule(next, Event::RmInterval(p));
        } else {
            er.ends_at = SimTime::MAX;
        }
    }
}
