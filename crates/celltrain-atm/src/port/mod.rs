//! An output port: buffer pools with their acceptance policy, class queues (one FIFO per
//! class, or one queue per VC), a scheduler and the transmitter's slot clock.
//!
//! ```text
//!  offer(cell, slot) ─► CLP=1 threshold ─► BufferAcceptance (per pool) ─► queue ─► Scheduler
//!  dequeue(now) ◄──────────────────────── pools, per-VC and port occupancy ◄── Scheduler::pick
//! ```
//! The port holds no events: the network calls [`OutputPort::offer`] when a cell arrives,
//! [`OutputPort::dequeue`] (or [`OutputPort::take_next`]) when the transmitter is free, and
//! [`TxClock`] says when that is. The port is the one writer of pool, per-VC and port
//! occupancies; policies and schedulers read them and keep only their own state.

pub mod buffer;
mod keys;
mod ledger;
pub mod sched;
mod slot_ring;
mod stats;
mod tail_drop_fifo;
#[cfg(test)]
mod tests;
mod tx_clock;
mod vc_count;

use crate::category::ServiceCategory;
use crate::cell::{Cell, CellKind};
use buffer::{Admission, BufferAcceptance, Departure, DiscardConfig, DropReason, Occupancy};
use celltrain_core::ring::Ring;
use celltrain_core::rng::RngStream;
use celltrain_core::time::SimTime;
use celltrain_core::ChangeTrace;
pub use keys::{DEFAULT_BUFFER_CELLS, DEFAULT_MTU_BYTES, PORT_KEYS, PORT_POOL_THRESHOLDS};
use ledger::{count_in, count_offer, count_passed, Ledger, PortLedger};
use sched::{Next, Pick, Scheduler, SchedulerKind};
pub use stats::PortStats;
pub use tail_drop_fifo::{LiftedFifo, TailDropFifo};
pub use tx_clock::{SlotCursor, StartRun, TxClock};

/// Cells of a run released at once from which the arithmetic of their start times pays (below,
/// one by one).
const RUN_ARITHMETIC: u64 = 8;
use vc_count::VcCounts;

/// How a port is configured (validated by the scenario layer).
#[derive(Clone, Debug, PartialEq)]
pub struct PortConfig {
    /// Size of the pool shared by every category without a reserved pool, in cells.
    pub buffer_cells: u32,
    /// Categories with a pool of their own, and its size in cells (MSc98: VBR 1500).
    pub reserved: Vec<(ServiceCategory, u32)>,
    pub discard: DiscardConfig,
    /// One queue per VC served round robin within its class (else one FIFO per class).
    pub per_vc_queues: bool,
    /// CLP = 1 cells are refused once their pool holds this many cells (tagged cells are
    /// discarded first); None: CLP is ignored.
    pub clp1_threshold: Option<u32>,
    /// Data cells accepted while the port holds this many cells or more leave with EFCI set
    /// (TM 4.0's explicit forward congestion indication; at least 1); None: no marking.
    pub efci_threshold: Option<u32>,
    /// Which queue sends next (strict priority between classes by default); a weighted
    /// scheduler's weights come with the VCs (`OutputPort::with_parts`).
    pub scheduler: SchedulerKind,
}

impl PortConfig {
    /// A FIFO tail-drop port of `buffer_cells`.
    pub fn fifo(buffer_cells: u32) -> Self {
        PortConfig {
            buffer_cells,
            reserved: Vec::new(),
            discard: DiscardConfig::TailDrop(()),
            per_vc_queues: false,
            clp1_threshold: None,
            efci_threshold: None,
            scheduler: SchedulerKind::default(),
        }
    }
}

/// The random stream of buffer pool `pool` (0: the shared pool, then the reserved ones in
/// configuration order) of the port called `port_name` in a run seeded `seed`.
pub fn buffer_stream(seed: u64, port_name: &str, pool: usize) -> RngStream {
    RngStream::derive(seed, &format!("{port_name}/buffer/{pool}"))
}

#[derive(Clone, Copy, Debug)]
struct VcSlot {
    pool: u8,
    class: u8,
    queue: u16,
}

struct Pool {
    capacity: u32,
    occupancy: u32,
    acceptance: BufferAcceptance,
    /// Cells offered to the pool since the start (accepted or not): an explicit-rate
    /// algorithm measures its category's input rate on it.
    offered: u64,
}

/// An output port: buffer pools, queues and scheduler.
///
/// Laid out in the order written (`repr(C)`): what every cell offered or sent reads (the slot
/// and pool tables, the occupancy, the thresholds, the counters) comes first; the per-VC counts
/// and the scheduler, which only some ports read, after.
#[repr(C)]
pub struct OutputPort {
    /// One per VC crossing the port, in the order given to [`OutputPort::new`]: the caller
    /// keeps each VC's slot at each hop, so the port needs no table over all the network's VCs.
    slots: Vec<VcSlot>,
    pools: Vec<Pool>,
    queues: Vec<Ring<Cell>>,
    occupancy: u32,
    /// See [`PortConfig::clp1_threshold`] (u32::MAX: none).
    clp1_threshold: u32,
    /// See [`PortConfig::efci_threshold`] (u32::MAX: none).
    efci_threshold: u32,
    /// Something besides the counters follows each departure: per-VC counts, or a change
    /// trace (see [`depart_virtual`](Self::depart_virtual)). Kept rather than asked of both on
    /// every departure, which cost twin `b` 2 % of its CPU.
    departures_watched: bool,
    /// A pool's policy is shown each departure (`AcceptancePolicy::WATCHES_DEPARTURES`; such a
    /// policy reads per-VC counts, so departures are watched too).
    departures_shown: bool,
    /// The pool of the only queue, for single-FIFO ports (every VC is in one class).
    fifo_pool: u8,
    /// The occupancy's changes, when a time series asks for them (`[record] on_change`).
    changes: Option<Box<ChangeTrace>>,
    pub stats: PortStats,
    /// Per-VC occupancy (a single-FIFO port's virtual queue is its queue 0).
    vc_cells: VcCounts,
    /// The pool of each queue (a queue holds one class, and a class draws on one pool).
    queue_pool: Vec<u8>,
    scheduler: Scheduler,
}

impl OutputPort {
    /// Builds a port for the VCs that cross it, given by their categories; the VC given k-th
    /// has slot k (the `slot` of [`offer`](Self::offer) and the others). Strict priority with
    /// round robin, or the configured scheduler with every queue of equal weight (a weighted
    /// scheduler's weights come from the VCs: [`with_parts`](Self::with_parts)); the pools'
    /// random streams are fixed (today's policies draw nothing).
    pub fn new(config: &PortConfig, vcs: &[ServiceCategory]) -> Self {
        Self::with_parts(config, vcs, &[], |pool| RngStream::derive(pool as u64, "buffer"))
    }

    /// As [`new`](Self::new), with a weighted scheduler's weight for each VC in slot order (e.g.
    /// its MCR in bit/s; a queue weighs the sum of its VCs', 0 counting as 1) and each buffer
    /// pool's acceptance policy given its own random stream (`stream_of_pool(k)` for pool k,
    /// e.g. [`buffer_stream`]).
    pub fn with_parts(
        config: &PortConfig,
        vcs: &[ServiceCategory],
        vc_weights: &[u64],
        mut stream_of_pool: impl FnMut(usize) -> RngStream,
    ) -> Self {
        let mut pool_of_class = [0u8; ServiceCategory::COUNT];
        let mut capacities = vec![config.buffer_cells];
        for &(cat, cells) in &config.reserved {
            pool_of_class[cat.priority()] = u8::try_from(capacities.len()).expect("too many pools");
            capacities.push(cells);
        }
        let mut slots = Vec::with_capacity(vcs.len());
        let mut queues: Vec<Ring<Cell>> = Vec::new();
        let mut queue_pool = Vec::new();
        let mut fifo_of_class = [u16::MAX; ServiceCategory::COUNT];
        for &cat in vcs {
            let class = cat.priority();
            let queue = if config.per_vc_queues || fifo_of_class[class] == u16::MAX {
                queues.push(Ring::default());
                queue_pool.push(pool_of_class[class]);
                let q = u16::try_from(queues.len() - 1).expect("too many queues on a port");
                if !config.per_vc_queues {
                    fifo_of_class[class] = q;
                }
                q
            } else {
                fifo_of_class[class]
            };
            slots.push(VcSlot { pool: pool_of_class[class], class: class as u8, queue });
        }
        let pools = capacities
            .iter()
            .enumerate()
            .map(|(k, &capacity)| Pool {
                capacity,
                occupancy: 0,
                acceptance: config.discard.build(slots.len(), capacity, stream_of_pool(k)),
                offered: 0,
            })
            .collect();
        let vc_cells = VcCounts::new(slots.iter().map(|s| s.queue), slots.len(), queues.len());
        let queue_of_slot: Vec<u16> = slots.iter().map(|s| s.queue).collect();
        let queue_count = queues.len();
        let mut port = OutputPort {
            clp1_threshold: config.clp1_threshold.unwrap_or(u32::MAX),
            efci_threshold: config.efci_threshold.map_or(u32::MAX, |cells| cells.max(1)),
            fifo_pool: slots.first().map_or(0, |s: &VcSlot| s.pool),
            vc_cells,
            slots,
            queue_pool,
            pools,
            queues,
            scheduler: config.scheduler.build(&sched::weights::per_queue(vc_weights, &queue_of_slot, queue_count)),
            occupancy: 0,
            departures_watched: false,
            departures_shown: false,
            stats: PortStats::default(),
            changes: None,
        };
        if port.pools.iter().any(|p| p.acceptance.reads_vc_cells()) {
            port.vc_cells.start();
            port.departures_watched = true;
        }
        port.departures_shown = port.pools.iter().any(|p| p.acceptance.watches_departures());
        debug_assert!(
            !port.departures_shown || port.departures_watched,
            "a policy shown departures reads per-VC counts"
        );
        port
    }

    /// Counts cells per VC (see [`vc_cells`](Self::vc_cells)) even though no policy reads the
    /// counts (for observers and tests), from now on; call it before the first cell.
    pub fn count_vc_cells(&mut self) {
        debug_assert!(self.is_empty(), "per-VC counting must start with an empty port");
        self.vc_cells.start();
        self.departures_watched = true;
    }

    /// The admission decision for `cell` of the VC in `slot_index` into buffer pool `pool`: the
    /// CLP = 1 threshold first, then the pool's policy.
    #[inline(always)]
    fn admit(&mut self, cell: &Cell, slot_index: u32, pool: u8, now: SimTime) -> Admission {
        let pool = &mut self.pools[pool as usize];
        let pool_cells = pool.occupancy;
        let at = Occupancy { slot: slot_index, pool_cells, capacity_cells: pool.capacity, vc_cells: 0 };
        let vc_counts = &self.vc_cells;
        ledger::decide(cell.clp, pool_cells, self.clp1_threshold, || {
            pool.acceptance.admit_counting(cell, now, at, || vc_counts.get(slot_index))
        })
    }

    /// The ledger of pool `pool` and the port, in the port's record.
    #[inline(always)]
    fn ledger(&mut self, pool: u8) -> PortLedger<'_> {
        let pool = &mut self.pools[pool as usize];
        PortLedger {
            pool_cells: &mut pool.occupancy,
            pool_offered: &mut pool.offered,
            port_cells: &mut self.occupancy,
            stats: &mut self.stats,
            changes: &mut self.changes,
        }
    }

    /// Offers an arriving cell of the VC in `slot` to the buffer: queued, or dropped for the
    /// returned reason. An accepted data cell is marked EFCI when the port holds its EFCI
    /// threshold or more (only here: a port that marks runs by events, and a cell passing
    /// straight through finds the port empty, below any threshold).
    pub fn offer(&mut self, mut cell: Cell, slot_index: u32, now: SimTime) -> Result<(), DropReason> {
        let slot = self.slots[slot_index as usize];
        let admission = self.admit(&cell, slot_index, slot.pool, now);
        debug_assert!(
            admission != Admission::Accept
                || self.pools[slot.pool as usize].occupancy < self.pools[slot.pool as usize].capacity,
            "policy accepted into a full pool"
        );
        // (Marked by the occupancy the cell finds, before it is counted in.)
        let found = self.occupancy;
        count_offer(&mut self.ledger(slot.pool), admission, false, now)?;
        if found >= self.efci_threshold && cell.kind != CellKind::Rm {
            cell.efci = true;
        }
        self.vc_cells.enter(slot.queue, slot_index, 1);
        let queue = &mut self.queues[slot.queue as usize];
        let was_empty = queue.is_empty();
        queue.push_back(cell);
        if was_empty {
            self.scheduler.on_backlogged(slot.queue, slot.class, now);
        }
        Ok(())
    }

    /// [`pass_through_at`](Self::pass_through_at) for callers that do not give the time: the
    /// policy is shown time zero (none of today's policies reads the time).
    #[inline]
    pub fn pass_through(&mut self, cell: &Cell, slot_index: u32) -> Result<(), DropReason> {
        self.pass_through_at(cell, slot_index, SimTime::ZERO)
    }

    /// A cell arriving at `now` at an idle port with an empty buffer: the policy decides as for
    /// [`offer`](Self::offer), and an accepted cell is counted in and out at once without
    /// touching the queues, since [`take_next`](Self::take_next) would return it immediately
    /// (the caller uses this only with a work-conserving scheduler).
    #[inline(always)]
    pub fn pass_through_at(&mut self, cell: &Cell, slot_index: u32, now: SimTime) -> Result<(), DropReason> {
        debug_assert!(self.occupancy == 0, "pass-through with cells queued");
        let slot = self.slots[slot_index as usize];
        let admission = self.admit(cell, slot_index, slot.pool, now);
        count_offer(&mut self.ledger(slot.pool), admission, true, now)?;
        if self.departures_shown {
            self.show_departure(slot.pool, slot_index, 0, now);
        }
        Ok(())
    }

    /// Whether the port marks EFCI on data cells (see [`PortConfig::efci_threshold`]): the cells
    /// it holds must then be cells, queued, not start times.
    pub fn marks_efci(&self) -> bool {
        self.efci_threshold != u32::MAX
    }

    /// Whether the scheduler sends whenever a cell is queued.
    pub fn is_work_conserving(&self) -> bool {
        self.scheduler.is_work_conserving()
    }

    /// Whether every VC shares one FIFO queue served as it fills, so that cells leave in
    /// arrival order and each cell's start time is known when it arrives (the network then
    /// schedules no "free" events for this port: see [`admit_virtual`](Self::admit_virtual)).
    pub fn is_single_fifo(&self) -> bool {
        self.queues.len() <= 1 && self.scheduler.is_work_conserving()
    }

    /// Single-FIFO ports: admits a cell that will wait in the buffer until a start time the
    /// caller has computed; the cell itself is not stored (the caller keeps its start time
    /// and reports it with [`depart_virtual`](Self::depart_virtual)). (Inlined at both its
    /// callers, the analytic port and a fan-in group's direct crossing: left to itself, the
    /// compiler took it out of line once it had two, and `bench null` ran 4 % more instructions.)
    #[inline(always)]
    pub fn admit_virtual(&mut self, cell: &Cell, slot_index: u32, now: SimTime) -> Result<(), DropReason> {
        debug_assert!(self.is_single_fifo() && !self.marks_efci(), "a port that marks EFCI runs by events");
        let slot = self.slots[slot_index as usize];
        let admission = self.admit(cell, slot_index, slot.pool, now);
        count_offer(&mut self.ledger(slot.pool), admission, false, now)?;
        self.vc_cells.enter(slot.queue, slot_index, 1);
        Ok(())
    }

    /// Single-FIFO ports: admits `cells` cells of the VC in `slot` arriving together at `now`
    /// (`any_clp1`: some are CLP = 1), as that many calls of
    /// [`admit_virtual`](Self::admit_virtual) would, when the pool's policy takes every cell
    /// while there is room (tail drop), there is room for all, and no CLP = 1 threshold applies.
    /// Else admits none and returns false (the caller then offers them one by one).
    #[inline]
    pub fn admit_virtual_run(&mut self, slot_index: u32, cells: u32, any_clp1: bool, now: SimTime) -> bool {
        debug_assert!(self.is_single_fifo());
        if cells == 0 {
            return true;
        }
        let slot = self.slots[slot_index as usize];
        let pool = &self.pools[slot.pool as usize];
        let clp1_applies = any_clp1 && self.clp1_threshold != u32::MAX;
        if clp1_applies || !pool.acceptance.accepts_while_room() || pool.capacity.saturating_sub(pool.occupancy) < cells
        {
            return false;
        }
        let mut ledger = self.ledger(slot.pool);
        count_in(&mut ledger, cells);
        // The occupancy steps up `cells` times at the same instant: one change of the area.
        ledger.entered(cells, now);
        self.vc_cells.enter(slot.queue, slot_index, cells);
        true
    }

    /// The head cell of queue `q` (real or virtual) leaves `pool` at `now`.
    #[inline(always)]
    fn leave(&mut self, pool: u8, q: u16, now: SimTime) {
        let (slot, vc_cells) = self.vc_cells.leave(q);
        self.ledger(pool).left(now);
        if self.departures_shown {
            self.show_departure(pool, slot, vc_cells, now);
        }
        if let Some(changes) = &mut self.changes {
            changes.note(now, f64::from(self.occupancy));
        }
    }

    /// Shows `pool`'s policy a departure at `now` (the pool's occupancy already counts it out);
    /// `slot` and `vc_cells` are the leaving cell's VC and its cells left. Called on every
    /// departure of a port whose policies are shown them (`AcceptancePolicy::WATCHES_DEPARTURES`,
    /// Selective Drop and FBA); out of line, so that the other ports' departure paths stay as
    /// small as they were (inline, G2 ran 2 % more instructions).
    #[cold]
    #[inline(never)]
    fn show_departure(&mut self, pool: u8, slot: u32, vc_cells: u32, now: SimTime) {
        let pool = &mut self.pools[pool as usize];
        let departure = Departure { slot, now, pool_cells: pool.occupancy, vc_cells };
        pool.acceptance.on_departure(&departure);
    }

    /// Whether cells that never waited may be counted in and out by runs
    /// ([`pass_virtual`](Self::pass_virtual)) where [`pass_through_at`](Self::pass_through_at)
    /// would take them one by one: a single FIFO whose policy takes every cell while there is
    /// room (an empty buffer has room for one), with no CLP = 1 threshold at 0 cells and no
    /// policy shown departures.
    pub fn passes_runs(&self) -> bool {
        let pool = &self.pools[self.fifo_pool as usize];
        self.is_single_fifo()
            && pool.acceptance.accepts_while_room()
            && pool.capacity > 0
            && self.clp1_threshold > 0
            && !self.departures_shown
    }

    /// Single-FIFO ports: `cells` cells that never waited — each started as it arrived, into an
    /// empty buffer, accepted by tail drop — are counted in and out, as
    /// [`pass_through`](Self::pass_through) would count them.
    #[inline]
    pub fn pass_virtual(&mut self, cells: u32) {
        debug_assert!(self.is_single_fifo() && self.pools[self.fifo_pool as usize].acceptance.accepts_while_room());
        let mut ledger = self.ledger(self.fifo_pool);
        count_in(&mut ledger, cells);
        count_passed(&mut ledger, cells);
    }

    /// Single-FIFO ports: the oldest virtually queued cell started transmission at `at`.
    ///
    /// When only the counters follow departures (no per-VC counts, no change trace), the
    /// departure skips [`leave`](Self::leave)'s tests for them: analytic ports release their
    /// started cells one by one on every arrival, and twins `a` and `b` run 3 % fewer
    /// instructions for it (benches/README.md).
    #[inline(always)]
    pub fn depart_virtual(&mut self, at: SimTime) {
        debug_assert!(self.occupancy > 0, "departure from an empty buffer");
        if self.departures_watched {
            self.depart_watched(at);
        } else {
            self.ledger(self.fifo_pool).left(at);
        }
    }

    /// [`depart_virtual`](Self::depart_virtual) where departures are watched, out of line: the
    /// unwatched departure, inlined on every analytic port's path, stays a few instructions
    /// (with both inline, the compiler kept the whole step out of line: T1 +1 % instructions).
    #[inline(never)]
    fn depart_watched(&mut self, at: SimTime) {
        self.leave(self.fifo_pool, 0, at);
    }

    /// Single-FIFO ports: the oldest virtually queued cells, started at the times of `run`,
    /// leave as far as they started by `now`: as many calls of
    /// [`depart_virtual`](Self::depart_virtual), with the occupancy kept in a register between
    /// them when only the counters follow departures (no pool's policy reads a departure).
    /// Returns whether the run has ended (else `run.next` is after `now`).
    #[inline]
    pub fn depart_virtual_run(&mut self, run: &mut StartRun, now: SimTime) -> bool {
        if self.departures_watched {
            return self.depart_watched_run(run, now);
        }
        if run.next > now {
            return false;
        }
        // Starts by now: `next`, `then`, and of the cursor's slots. Many at once (an adapter
        // releases a frame's cells when the next frame comes) go by arithmetic.
        let cells = if run.more == 0 || run.then > now {
            1
        } else {
            2 + run.slots.slots_by(now).min(u128::from(run.more - 1)) as u64
        };
        if cells >= RUN_ARITHMETIC && run.next >= self.stats.last_change() {
            return self.depart_run_at_once(run, cells);
        }
        // (The run and the counts in locals: the loop then keeps them in registers.)
        let mut times = run.clone();
        let mut occupancy = self.occupancy;
        let mut ended = false;
        while times.next <= now {
            debug_assert!(occupancy > 0, "departure from an empty buffer");
            self.stats.on_occupancy_change(times.next, occupancy);
            occupancy -= 1;
            if !times.step() {
                ended = true;
                break;
            }
        }
        *run = times;
        let cells = self.occupancy - occupancy;
        self.occupancy = occupancy;
        self.pools[self.fifo_pool as usize].occupancy -= cells;
        self.stats.cells_out += u64::from(cells);
        ended
    }

    /// [`depart_virtual_run`](Self::depart_virtual_run) of its first `cells` cells (enough to
    /// pay for the arithmetic), when only the counters follow departures and the run starts no
    /// earlier than the occupancy's last change: the area they add from the sums of their start
    /// times (`PortStats::on_departures`).
    #[inline(never)]
    fn depart_run_at_once(&mut self, run: &mut StartRun, cells: u64) -> bool {
        debug_assert!(cells >= 3 && self.occupancy as u64 >= cells);
        let (first, second) = (u128::from(run.next.as_picos()), u128::from(run.then.as_picos()));
        // Of the cursor's slots, `beyond` leave: the last of them is the last to leave.
        let beyond = cells - 2;
        let mut slots = run.slots;
        let others = first + second + slots.sum_next(u128::from(beyond - 1));
        let last = slots.advance_by(beyond);
        let before = self.occupancy;
        self.stats.on_departures(before, cells, last, others);
        let cells32 = u32::try_from(cells).expect("fewer than the occupancy");
        self.occupancy -= cells32;
        self.pools[self.fifo_pool as usize].occupancy -= cells32;
        self.stats.cells_out += cells;
        if cells == u64::from(run.more) + 1 {
            return true;
        }
        run.more -= cells32;
        run.next = slots.advance();
        run.then = slots.advance();
        run.slots = slots;
        false
    }

    /// [`depart_virtual_run`](Self::depart_virtual_run) when a policy or a trace follows
    /// departures: one by one.
    #[inline(never)]
    fn depart_watched_run(&mut self, run: &mut StartRun, now: SimTime) -> bool {
        while run.next <= now {
            self.depart_virtual(run.next);
            if !run.step() {
                return true;
            }
        }
        false
    }

    /// Removes the cell the scheduler sends next, or says why there is none.
    #[inline]
    pub fn dequeue(&mut self, now: SimTime) -> Next {
        let queues = &self.queues;
        match self.scheduler.serve(now, |q| queues[q as usize].len()) {
            Pick::Queue(q) => Next::Cell(self.pop(q, now)),
            Pick::Empty => Next::Empty,
            Pick::NotBefore(t) => Next::NotBefore(t),
        }
    }

    /// Removes the cell to transmit next, if one may leave now: with the default scheduler,
    /// the highest-priority backlogged class, and within it the next queue in round-robin order.
    /// (Written beside [`dequeue`](Self::dequeue) rather than through it: returning the cell
    /// inside a `Next` and unwrapping it again costs a store-forwarding stall per cell.)
    #[inline]
    pub fn take_next(&mut self, now: SimTime) -> Option<Cell> {
        let queues = &self.queues;
        match self.scheduler.serve(now, |q| queues[q as usize].len()) {
            Pick::Queue(q) => Some(self.pop(q, now)),
            Pick::Empty | Pick::NotBefore(_) => None,
        }
    }

    /// Removes the head of queue `q`, which the scheduler served.
    #[inline(always)]
    fn pop(&mut self, q: u16, now: SimTime) -> Cell {
        let queue = &mut self.queues[q as usize];
        // (Copied out whole, then dropped from the queue: a `pop_front` that returned an
        // `Option<Cell>` would copy it in pieces around the cell's niche byte, overlapping, and
        // reading those back as words stalls store forwarding.)
        let cell = queue.front().expect("the scheduler picked an empty queue");
        queue.pop_front();
        self.leave(self.queue_pool[q as usize], q, now);
        cell
    }

    /// The cells held in the queues (not those of a single-FIFO port's virtual queue, which
    /// the caller keeps).
    pub fn queued_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.queues.iter().flat_map(Ring::iter)
    }

    /// Cells queued now.
    pub fn occupancy(&self) -> u32 {
        self.occupancy
    }

    /// Cells of the VC in `slot_index` in the port now (queued or virtually queued), when the
    /// port counts them: a pool's policy reads per-VC occupancy, or
    /// [`count_vc_cells`](Self::count_vc_cells) was called. Otherwise 0.
    pub fn vc_cells(&self, slot_index: u32) -> u32 {
        self.vc_cells.get(slot_index)
    }

    /// Buffer pools of the port (the shared pool first).
    pub fn pool_count(&self) -> usize {
        self.pools.len()
    }

    /// Cells in buffer pool `pool` now (0: the shared pool).
    pub fn pool_cells(&self, pool: usize) -> u32 {
        self.pools[pool].occupancy
    }

    pub fn is_empty(&self) -> bool {
        self.occupancy == 0
    }

    /// Cells offered to buffer pool `pool` since the port was built (accepted or dropped).
    pub fn pool_cells_offered(&self, pool: usize) -> u64 {
        self.pools[pool].offered
    }

    /// The buffer pool and the priority class of the VC in `slot_index`.
    pub fn slot_pool_and_class(&self, slot_index: u32) -> (usize, usize) {
        let slot = self.slots[slot_index as usize];
        (usize::from(slot.pool), usize::from(slot.class))
    }

    /// Number of VC slots at the port.
    pub fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// The size of each buffer pool in cells: the shared pool, then the reserved ones.
    pub fn pool_capacities(&self) -> impl Iterator<Item = u32> + '_ {
        self.pools.iter().map(|p| p.capacity)
    }

    /// The name of the shared pool's acceptance policy (for reports).
    pub fn policy_name(&self) -> &'static str {
        self.pools[0].acceptance.name()
    }

    /// Records every change of the occupancy from now on, while `rows` has rows.
    pub fn record_changes(&mut self, rows: celltrain_core::RowPool) {
        self.changes = Some(Box::new(ChangeTrace::new(f64::from(self.occupancy), rows)));
        self.departures_watched = true;
    }

    /// The occupancy's changes, if they are recorded.
    pub fn changes(&self) -> Option<&ChangeTrace> {
        self.changes.as_deref()
    }

    /// Cells in the queues of priority class `class` (ports whose classes have their own
    /// queues; a single-FIFO port's cells are virtual and not counted here).
    pub fn class_cells(&self, class: usize) -> u32 {
        let mut cells = 0;
        for (q, queue) in self.queues.iter().enumerate() {
            if self.slots.iter().any(|s| usize::from(s.queue) == q && usize::from(s.class) == class) {
                cells += queue.len() as u32;
            }
        }
        cells
    }

    /// Number of queues at the port.
    pub fn queue_count(&self) -> usize {
        self.queues.len()
    }

    /// Opens the measurement window at `now`: counters restart, the current queue is noted.
    pub fn open_window(&mut self, now: SimTime) {
        self.stats = PortStats::opened(now, self.occupancy);
    }
}
