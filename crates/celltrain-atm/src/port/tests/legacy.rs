//! The port as it was before buffer acceptance and scheduling became enums: a reference model
//! for the equivalence tests (same decisions, same order, same counters).

#![allow(dead_code)]

use super::super::buffer::{Admission, DiscardConfig, DropReason, EpdConfig};
use super::super::PortStats;
use crate::category::ServiceCategory;
use crate::cell::Cell;
use celltrain_core::time::SimTime;
use std::collections::VecDeque;
use std::fmt;

pub trait BufferPolicy: fmt::Debug {
    fn name(&self) -> &'static str;
    fn admit(&mut self, cell: &Cell, slot: usize, occupancy: u32, capacity: u32) -> Admission;
    fn accepts_while_room(&self) -> bool {
        false
    }
}

#[derive(Debug, Default)]
pub struct TailDrop;

impl BufferPolicy for TailDrop {
    fn name(&self) -> &'static str {
        "tail-drop"
    }
    fn accepts_while_room(&self) -> bool {
        true
    }
    fn admit(&mut self, _cell: &Cell, _slot: usize, occupancy: u32, capacity: u32) -> Admission {
        if occupancy < capacity {
            Admission::Accept
        } else {
            Admission::Drop(DropReason::BufferFull)
        }
    }
}

#[derive(Debug)]
pub struct Ppd {
    discarding: Vec<bool>,
}

impl Ppd {
    pub fn new(vcs: usize) -> Self {
        Ppd { discarding: vec![false; vcs] }
    }
}

impl BufferPolicy for Ppd {
    fn name(&self) -> &'static str {
        "ppd"
    }
    fn admit(&mut self, cell: &Cell, slot: usize, occupancy: u32, capacity: u32) -> Admission {
        let room = occupancy < capacity;
        if self.discarding[slot] {
            if cell.end_of_frame {
                self.discarding[slot] = false;
                if room {
                    return Admission::Accept;
                }
                return Admission::Drop(DropReason::BufferFull);
            }
            return Admission::Drop(DropReason::PartialPacketDiscard);
        }
        if room {
            return Admission::Accept;
        }
        self.discarding[slot] = !cell.end_of_frame;
        Admission::Drop(DropReason::BufferFull)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EpdState {
    Accepting,
    DroppingEpd,
    DroppingPpd,
}

#[derive(Debug)]
pub struct Epd {
    threshold: u32,
    first_cell: Vec<bool>,
    state: Vec<EpdState>,
}

impl Epd {
    pub fn new(vcs: usize, threshold_cells: u32) -> Self {
        Epd { threshold: threshold_cells, first_cell: vec![true; vcs], state: vec![EpdState::Accepting; vcs] }
    }
    pub fn threshold(&self) -> u32 {
        self.threshold
    }
}

impl BufferPolicy for Epd {
    fn name(&self) -> &'static str {
        "epd"
    }
    fn admit(&mut self, cell: &Cell, slot: usize, occupancy: u32, capacity: u32) -> Admission {
        if self.first_cell[slot] {
            self.state[slot] = if occupancy < self.threshold { EpdState::Accepting } else { EpdState::DroppingEpd };
        }
        self.first_cell[slot] = cell.end_of_frame;
        let room = occupancy < capacity;
        match self.state[slot] {
            EpdState::DroppingEpd => Admission::Drop(DropReason::EarlyPacketDiscard),
            EpdState::DroppingPpd if cell.end_of_frame && room => Admission::Accept,
            EpdState::DroppingPpd => Admission::Drop(DropReason::PartialPacketDiscard),
            EpdState::Accepting if room => Admission::Accept,
            EpdState::Accepting => {
                self.state[slot] = EpdState::DroppingPpd;
                Admission::Drop(DropReason::BufferFull)
            }
        }
    }
}

fn build(config: DiscardConfig, vcs: usize, capacity: u32) -> Box<dyn BufferPolicy> {
    match config {
        DiscardConfig::TailDrop(()) => Box::new(TailDrop),
        DiscardConfig::Ppd(()) => Box::new(Ppd::new(vcs)),
        DiscardConfig::Epd(EpdConfig { threshold: t, keep_refused_eom: false }) => {
            let cells = u32::try_from(t.resolve(capacity).clamp(0, i64::from(capacity))).unwrap_or(0);
            Box::new(Epd::new(vcs, cells))
        }
        DiscardConfig::Epd(_)
        | DiscardConfig::GfrFifo(_)
        | DiscardConfig::PerVcThreshold(_)
        | DiscardConfig::FrameRed(_)
        | DiscardConfig::SelectiveDrop(_)
        | DiscardConfig::Fba(_) => unimplemented!("not in the old port"),
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

pub struct LegacyPort {
    slots: Vec<VcSlot>,
    queue_pool: Vec<u8>,
    pools: Vec<Pool>,
    queues: Vec<VecDeque<Cell>>,
    clp1_threshold: u32,
    active: [VecDeque<u16>; ServiceCategory::COUNT],
    backlogged_classes: u32,
    occupancy: u32,
    fifo_pool: u8,
    pub stats: PortStats,
}

#[inline]
fn admit(pool: &mut Pool, cell: &Cell, slot: usize, occupancy: u32, clp1_threshold: u32) -> Admission {
    if cell.clp && occupancy >= clp1_threshold {
        return Admission::Drop(DropReason::ClpThreshold);
    }
    pool.policy.admit(cell, slot, occupancy, pool.capacity)
}

impl LegacyPort {
    pub fn new(config: &super::super::PortConfig, vcs: &[ServiceCategory]) -> Self {
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
            .map(|&capacity| Pool { capacity, occupancy: 0, policy: build(config.discard, slots.len(), capacity) })
            .collect();
        LegacyPort {
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

    pub fn is_single_fifo(&self) -> bool {
        self.queues.len() <= 1
    }

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
        self.fill(slot.pool, cells, now);
        true
    }

    #[inline]
    fn fill(&mut self, pool: u8, cells: u32, now: SimTime) {
        self.pools[pool as usize].occupancy += cells;
        self.stats.on_occupancy_change(now, self.occupancy);
        self.occupancy += cells;
        self.stats.max_queue_cells = self.stats.max_queue_cells.max(self.occupancy);
    }

    #[inline]
    pub fn pass_virtual(&mut self, cells: u32) {
        debug_assert!(self.is_single_fifo() && self.pools[self.fifo_pool as usize].policy.accepts_while_room());
        self.stats.cells_in += u64::from(cells);
        self.stats.cells_out += u64::from(cells);
        self.stats.max_queue_cells = self.stats.max_queue_cells.max(1);
    }

    #[inline]
    pub fn depart_virtual(&mut self, at: SimTime) {
        debug_assert!(self.occupancy > 0, "departure from an empty buffer");
        self.pools[self.fifo_pool as usize].occupancy -= 1;
        self.stats.on_occupancy_change(at, self.occupancy);
        self.occupancy -= 1;
        self.stats.cells_out += 1;
    }

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
            ring.pop_front();
            ring.push_back(q);
        }
        self.pools[self.queue_pool[q as usize] as usize].occupancy -= 1;
        self.stats.on_occupancy_change(now, self.occupancy);
        self.occupancy -= 1;
        self.stats.cells_out += 1;
        Some(cell)
    }

    pub fn queued_cells(&self) -> impl Iterator<Item = &Cell> {
        self.queues.iter().flatten()
    }

    pub fn occupancy(&self) -> u32 {
        self.occupancy
    }

    pub fn is_empty(&self) -> bool {
        self.occupancy == 0
    }

    pub fn policy_name(&self) -> &'static str {
        self.pools[0].policy.name()
    }

    pub fn open_window(&mut self, now: SimTime) {
        self.stats = PortStats::opened(now, self.occupancy);
    }
}
