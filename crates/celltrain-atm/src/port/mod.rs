//! An output port: buffer pools with their acceptance policy, class queues (one FIFO per
//! class, or one queue per VC), a scheduler (strict priority between classes, round robin
//! between the VCs of a class) and the transmitter's slot clock.
//!
//! The port holds no events: the network calls [`OutputPort::offer`] when a cell arrives,
//! [`OutputPort::take_next`] when the transmitter is free, and [`TxClock`] says when that is.

pub mod buffer;
#[cfg(test)]
mod tests;

use crate::category::ServiceCategory;
use crate::cell::Cell;
use buffer::{Admission, BufferPolicy, DiscardConfig, DropReason};
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::units::{BitRate, SlotCounter};
use std::collections::VecDeque;

/// How a port is configured (validated by the scenario layer).
#[derive(Clone, Debug, PartialEq)]
pub struct PortConfig {
    /// Size of the pool shared by every category without a reserved pool, in cells.
    pub buffer_cells: u32,
    /// Categories with a pool of their own, and its size in cells (seed 001: VBR 1500).
    pub reserved: Vec<(ServiceCategory, u32)>,
    pub discard: DiscardConfig,
    /// One queue per VC served round robin within its class (else one FIFO per class).
    pub per_vc_queues: bool,
    /// CLP = 1 cells are refused once their pool holds this many cells (tagged cells are
    /// discarded first); None: CLP is ignored.
    pub clp1_threshold: Option<u32>,
}

impl PortConfig {
    /// A FIFO tail-drop port of `buffer_cells`.
    pub fn fifo(buffer_cells: u32) -> Self {
        PortConfig {
            buffer_cells,
            reserved: Vec::new(),
            discard: DiscardConfig::TailDrop,
            per_vc_queues: false,
            clp1_threshold: None,
        }
    }
}

/// Counters of a port over the measurement window. Identity (checked in tests):
/// `cells_in = cells_out + dropped_total + queued_now − queued_at_start`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PortStats {
    pub cells_in: u64,
    pub cells_out: u64,
    pub dropped: [u64; DropReason::COUNT],
    /// Occupancy when the window opened.
    pub queued_at_start: u32,
    pub max_queue_cells: u32,
    /// ∫ occupancy dt over the window, in cell·picoseconds.
    queue_area: u128,
    last_change: SimTime,
    window_start: SimTime,
}

impl PortStats {
    pub fn dropped_total(&self) -> u64 {
        self.dropped.iter().sum()
    }
    /// Time-weighted mean occupancy from the window start to `now`, in cells.
    pub fn mean_queue_cells(&self, now: SimTime, occupancy: u32) -> f64 {
        let span = now.saturating_since(self.window_start).as_picos();
        if span == 0 {
            return f64::from(occupancy);
        }
        let area =
            self.queue_area + u128::from(occupancy) * u128::from(now.saturating_since(self.last_change).as_picos());
        area as f64 / span as f64
    }
    fn on_occupancy_change(&mut self, now: SimTime, before: u32) {
        self.queue_area += u128::from(before) * u128::from(now.saturating_since(self.last_change).as_picos());
        self.last_change = now;
    }
}

/// The transmitter's slot clock: cell k of a busy period starts at origin + k·(424 / rate),
/// computed from k so it never drifts (reference; architecture "a link never drifts").
#[derive(Clone, Debug)]
pub struct TxClock {
    /// Offsets of the slots of the current busy period, at the rate at which the port serves
    /// cells (line rate, or the VC's PCR on a NIC).
    slots: SlotCounter,
    service_rate: BitRate,
    /// Time to serialise one cell on the wire, rounded up.
    line_cell_time: SimDuration,
    origin: SimTime,
    /// Cells started in the current busy period.
    count: u64,
    free_at: SimTime,
}

impl TxClock {
    pub fn new(line_rate: BitRate, service_rate: BitRate) -> Self {
        TxClock {
            slots: SlotCounter::new(service_rate),
            service_rate,
            line_cell_time: line_rate.cell_time_ceil(),
            origin: SimTime::ZERO,
            count: 0,
            free_at: SimTime::ZERO,
        }
    }
    /// The rate at which cells are served.
    pub fn service_rate(&self) -> BitRate {
        self.service_rate
    }
    /// When the transmitter may start its next cell.
    pub fn free_at(&self) -> SimTime {
        self.free_at
    }
    /// Whether a cell starting at `now` begins a new busy period (the transmitter has been
    /// idle since before `now`, or has never sent), so that its slots are counted from `now`.
    pub fn is_idle_at(&self, now: SimTime) -> bool {
        now > self.free_at || self.count == 0
    }
    /// Starts a cell at `now` (≥ `free_at`); returns when its last bit leaves the port.
    #[inline]
    pub fn start(&mut self, now: SimTime) -> SimTime {
        debug_assert!(now >= self.free_at, "transmitter busy until {:?}", self.free_at);
        if now > self.free_at || self.count == 0 {
            self.origin = now;
            self.count = 0;
            self.slots.reset();
        }
        self.count += 1;
        self.free_at = self.origin + self.slots.advance();
        // At line rate the cell ends exactly when the next slot starts; a paced NIC still
        // sends each cell at line rate.
        self.free_at.min(now + self.line_cell_time)
    }
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
    policy: Box<dyn BufferPolicy>,
}

/// An output port: buffer pools, queues and scheduler.
pub struct OutputPort {
    /// One per VC crossing the port, in the order given to [`OutputPort::new`]: the caller
    /// keeps each VC's slot at each hop, so the port needs no table over all the network's VCs.
    slots: Vec<VcSlot>,
    /// The pool of each queue (a queue holds one class, and a class draws on one pool).
    queue_pool: Vec<u8>,
    pools: Vec<Pool>,
    queues: Vec<VecDeque<Cell>>,
    /// See [`PortConfig::clp1_threshold`] (u32::MAX: none).
    clp1_threshold: u32,
    /// Per class: backlogged queues in round-robin order.
    active: [VecDeque<u16>; ServiceCategory::COUNT],
    /// Bit c set when class c has a backlogged queue.
    backlogged_classes: u32,
    occupancy: u32,
    /// The pool of the only queue, for single-FIFO ports (every VC is in one class).
    fifo_pool: u8,
    pub stats: PortStats,
}

/// The admission decision for `cell` into `pool`: the CLP = 1 threshold first, then the
/// pool's policy.
#[inline]
fn admit(pool: &mut Pool, cell: &Cell, slot: usize, occupancy: u32, clp1_threshold: u32) -> Admission {
    if cell.clp && occupancy >= clp1_threshold {
        return Admission::Drop(DropReason::ClpThreshold);
    }
    pool.policy.admit(cell, slot, occupancy, pool.capacity)
}

impl OutputPort {
    /// Builds a port for the VCs that cross it, given by their categories; the VC given k-th
    /// has slot k (the `slot` of [`offer`](Self::offer) and the others).
    pub fn new(config: &PortConfig, vcs: &[ServiceCategory]) -> Self {
        let mut pool_of_class = [0u8; ServiceCategory::COUNT];
        let mut capacities = vec![config.buffer_cells];
        for &(cat, cells) in &config.reserved {
            pool_of_class[cat.priority()] = u8::try_from(capacities.len()).expect("too many pools");
            capacities.push(cells);
        }
        let mut slots = Vec::with_capacity(vcs.len());
        let mut queues: Vec<VecDeque<Cell>> = Vec::new();
        let mut queue_pool = Vec::new();
        let mut fifo_of_class = [u16::MAX; ServiceCategory::COUNT];
        for &cat in vcs {
            let class = cat.priority();
            let queue = if config.per_vc_queues || fifo_of_class[class] == u16::MAX {
                queues.push(VecDeque::new());
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
            .map(|&capacity| Pool { capacity, occupancy: 0, policy: config.discard.build(slots.len(), capacity) })
            .collect();
        OutputPort {
            clp1_threshold: config.clp1_threshold.unwrap_or(u32::MAX),
            fifo_pool: slots.first().map_or(0, |s: &VcSlot| s.pool),
            slots,
            queue_pool,
            pools,
            queues,
            active: Default::default(),
            backlogged_classes: 0,
            occupancy: 0,
            stats: PortStats::default(),
        }
    }

    /// Offers an arriving cell of the VC in `slot` to the buffer: queued, or dropped for the
    /// returned reason.
    pub fn offer(&mut self, cell: Cell, slot_index: u32, now: SimTime) -> Result<(), DropReason> {
        self.stats.cells_in += 1;
        let slot = self.slots[slot_index as usize];
        let pool = &mut self.pools[slot.pool as usize];
        match admit(pool, &cell, slot_index as usize, pool.occupancy, self.clp1_threshold) {
            Admission::Drop(reason) => {
                self.stats.dropped[reason as usize] += 1;
                Err(reason)
            }
            Admission::Accept => {
                debug_assert!(pool.occupancy < pool.capacity, "policy accepted into a full pool");
                self.fill(slot.pool, 1, now);
                let queue = &mut self.queues[slot.queue as usize];
                if queue.is_empty() {
                    self.active[slot.class as usize].push_back(slot.queue);
                    self.backlogged_classes |= 1 << slot.class;
                }
                queue.push_back(cell);
                Ok(())
            }
        }
    }

    /// A cell arriving at an idle port with an empty buffer: the policy decides as for
    /// [`offer`](Self::offer), and an accepted cell is counted in and out at once without
    /// touching the queues, since [`take_next`](Self::take_next) would return it immediately.
    #[inline]
    pub fn pass_through(&mut self, cell: &Cell, slot_index: u32) -> Result<(), DropReason> {
        debug_assert!(self.occupancy == 0, "pass-through with cells queued");
        self.stats.cells_in += 1;
        let slot = self.slots[slot_index as usize];
        let pool = &mut self.pools[slot.pool as usize];
        match admit(pool, cell, slot_index as usize, 0, self.clp1_threshold) {
            Admission::Drop(reason) => {
                self.stats.dropped[reason as usize] += 1;
                Err(reason)
            }
            Admission::Accept => {
                self.stats.cells_out += 1;
                self.stats.max_queue_cells = self.stats.max_queue_cells.max(1);
                Ok(())
            }
        }
    }

    /// Whether every VC shares one FIFO queue, so that cells leave in arrival order and each
    /// cell's start time is known when it arrives (the network then schedules no "free"
    /// events for this port: see [`admit_virtual`](Self::admit_virtual)).
    pub fn is_single_fifo(&self) -> bool {
        self.queues.len() <= 1
    }

    /// Single-FIFO ports: admits a cell that will wait in the buffer until a start time the
    /// caller has computed; the cell itself is not stored (the caller keeps its start time
    /// and reports it with [`depart_virtual`](Self::depart_virtual)).
    #[inline]
    pub fn admit_virtual(&mut self, cell: &Cell, slot_index: u32, now: SimTime) -> Result<(), DropReason> {
        debug_assert!(self.is_single_fifo());
        self.stats.cells_in += 1;
        let slot = self.slots[slot_index as usize];
        let pool = &mut self.pools[slot.pool as usize];
        match admit(pool, cell, slot_index as usize, pool.occupancy, self.clp1_threshold) {
            Admission::Drop(reason) => {
                self.stats.dropped[reason as usize] += 1;
                Err(reason)
            }
            Admission::Accept => {
                self.fill(slot.pool, 1, now);
                Ok(())
            }
        }
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
        let pool = &mut self.pools[slot.pool as usize];
        let clp1_applies = any_clp1 && self.clp1_threshold != u32::MAX;
        if clp1_applies || !pool.policy.accepts_while_room() || pool.capacity.saturating_sub(pool.occupancy) < cells {
            return false;
        }
        self.stats.cells_in += u64::from(cells);
        // The occupancy steps up `cells` times at the same instant: one change of the area.
        self.fill(slot.pool, cells, now);
        true
    }

    /// `cells` accepted cells enter `pool` at `now`.
    #[inline]
    fn fill(&mut self, pool: u8, cells: u32, now: SimTime) {
        self.pools[pool as usize].occupancy += cells;
        self.stats.on_occupancy_change(now, self.occupancy);
        self.occupancy += cells;
        self.stats.max_queue_cells = self.stats.max_queue_cells.max(self.occupancy);
    }

    /// Single-FIFO ports: `cells` cells that never waited — each started as it arrived, into an
    /// empty buffer, accepted by tail drop — are counted in and out, as
    /// [`pass_through`](Self::pass_through) would count them.
    #[inline]
    pub fn pass_virtual(&mut self, cells: u32) {
        debug_assert!(self.is_single_fifo() && self.pools[self.fifo_pool as usize].policy.accepts_while_room());
        self.stats.cells_in += u64::from(cells);
        self.stats.cells_out += u64::from(cells);
        self.stats.max_queue_cells = self.stats.max_queue_cells.max(1);
    }

    /// Single-FIFO ports: the oldest virtually queued cell started transmission at `at`.
    #[inline]
    pub fn depart_virtual(&mut self, at: SimTime) {
        debug_assert!(self.occupancy > 0, "departure from an empty buffer");
        self.pools[self.fifo_pool as usize].occupancy -= 1;
        self.stats.on_occupancy_change(at, self.occupancy);
        self.occupancy -= 1;
        self.stats.cells_out += 1;
    }

    /// Removes the cell to transmit next: the highest-priority backlogged class, and within it
    /// the next queue in round-robin order.
    pub fn take_next(&mut self, now: SimTime) -> Option<Cell> {
        if self.backlogged_classes == 0 {
            return None;
        }
        let class = self.backlogged_classes.trailing_zeros() as usize;
        let ring = &mut self.active[class];
        let q = *ring.front().expect("backlogged class has an active queue");
        let queue = &mut self.queues[q as usize];
        let cell = queue.pop_front().expect("active queue is not empty");
        if queue.is_empty() {
            ring.pop_front();
            if ring.is_empty() {
                self.backlogged_classes &= !(1 << class);
            }
        } else if ring.len() > 1 {
            // Round robin: the queue goes behind the others (alone, it stays where it is).
            ring.pop_front();
            ring.push_back(q);
        }
        self.pools[self.queue_pool[q as usize] as usize].occupancy -= 1;
        self.stats.on_occupancy_change(now, self.occupancy);
        self.occupancy -= 1;
        self.stats.cells_out += 1;
        Some(cell)
    }

    /// The cells held in the queues (not those of a single-FIFO port's virtual queue, which
    /// the caller keeps).
    pub fn queued_cells(&self) -> impl Iterator<Item = &Cell> {
        self.queues.iter().flatten()
    }

    /// Cells queued now.
    pub fn occupancy(&self) -> u32 {
        self.occupancy
    }

    pub fn is_empty(&self) -> bool {
        self.occupancy == 0
    }

    /// EPD threshold of the shared pool, if the policy has one (for reports).
    pub fn policy_name(&self) -> &'static str {
        self.pools[0].policy.name()
    }

    /// Opens the measurement window at `now`: counters restart, the current queue is noted.
    pub fn open_window(&mut self, now: SimTime) {
        self.stats = PortStats {
            queued_at_start: self.occupancy,
            max_queue_cells: self.occupancy,
            last_change: now,
            window_start: now,
            ..PortStats::default()
        };
    }
}
