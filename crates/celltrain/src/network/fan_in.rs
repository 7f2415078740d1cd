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
//!
//! A target run by events (a port with queues: E1's delay-priority multiplexer) keeps its
//! `PortFree` events among its group's heads too, in the same way, so that neither kind of
//! event interrupts the other's turn; with queues ahead it has none, but where its cells could
//! not be carried (an observation comes first), and the group keeps instead, as a `FanIn`
//! event of its own, the guard by which its deferred departures are made (see `queues_ahead`).
//!
//! An on/off burst handed whole to a feeding adapter is not written into its pipe: the group
//! keeps it as a train (its head, a cursor on the adapter's slots, and a count), and makes
//! each cell when it becomes the pipe's head, by the same arithmetic of the same clock that
//! would have made it at the hand-over. Only an empty pipe takes a burst's train, and a cell put
//! on the link while a burst's train runs first turns the train into cells in the pipe.
//!
//! So does an AAL5 frame queued whole at a feeding adapter (`arrive_run`: TCP or UDP over AAL5,
//! as peer twin `b`), with the cells' index counting up and the last one's marks kept beside the
//! train ([`Marks`]), and the adapter keeps the cells' start times as a run of its clock's slots
//! (`StartRun`), not one by one. A frame's train goes behind the pipe's cells and the trains
//! already there (`Link::trains_behind`); a cell put on the link behind them (a frame's first
//! cell, started as it reaches an idle adapter) joins them as a train of one cell, its head
//! filed when the train before it ends, as it would be when the cell before it left the pipe.
//! Behind another such train (cells started one by one, as into a full adapter), where trains
//! of one in a row would cost more than a pipe of cells, the trains turn into cells first; so
//! does a start time kept one by one behind runs turn them into times. A pipe holds cells, then
//! frames' trains, or a train at its head, then frames' trains: the cell path asks about trains
//! only when it finds a pipe empty or the flag set, where a paced adapter takes a cell.
//!
//! A group whose target is an analytic FIFO carried ahead hands each head through the target in
//! one step (`fan_in_direct`), to its destination or on to its next port.
//!
//! An adapter's link that no group takes (its target not carried ahead, as MSc98's chains of
//! per-VC switches, or no other link leading to it) is kept as a group of one (`lone`), for its
//! trains alone: its frames and bursts go as trains as on a group's links, and its heads keep
//! their `PipeHead` events (`pipe_head_with_trains`), each taken by the same step as a
//! member's (`take_head!`). (A group that stood for such heads cost more than the heap:
//! their cells, into ports with queues not carried ahead, schedule events elsewhere.)

use super::cell_path::{head_place_in, Asked, KnownEnd};
use super::fan_in_direct::Crossing;
use super::{Event, Network, PortPath};
use celltrain_atm::cell::Cell;
use celltrain_atm::port::TxClock;
use celltrain_core::ids::PortId;
use celltrain_core::time::SimTime;
use celltrain_core::Place;
use std::collections::VecDeque;

mod grouping;
mod heads;
mod lifted;
mod train;
use heads::HeadRing;
use lifted::{LiftedCells, LiftedFrames};
use train::{Marks, Train};

/// The ways a group hands out its heads (`hand_out`'s parameter): each its own loop.
const GENERAL: u8 = 0;
const DIRECT_CELLS: u8 = 1;
const DIRECT_FRAMES: u8 = 2;
const THROUGH: u8 = 3;
const THROUGH_TO_END: u8 = 4;

/// Heads handed out by one `FanIn` event at the most, so that a run fed by nothing else still
/// reports progress (and can be interrupted) now and then.
const HEADS_PER_TURN: u32 = 1 << 14;

/// Takes the head of the pipe of `$p`, member `$member` of `$group`: the cell, when the next
/// head arrives, if any, and the cell's VC's slot at the target when its train knows it.
/// `$from_train_first`: look first for a train at the pipe's head (where the heads usually are
/// in a group that crosses directly; else the trains are bursts where no AAL5 VC crosses);
/// `$bursts_only`: the trains are bursts, never frames behind them. One body for a group's
/// heads (`hand_out`) and a lone link's (`pipe_head_with_trains`); a macro, not a function,
/// because as a function inlined into `hand_out` the head's cell took a copy more (A4 +1.7 %
/// instructions).
macro_rules! take_head {
    ($net:ident, $group:ident, $member:expr, $p:expr, $from_train_first:expr, $bursts_only:expr) => {{
        let train = &mut $group.trains[$member as usize];
        let pipe = &mut $net.ports[$p.index()].link;
        // (A pipe holds cells, then frames as trains, or a train at its head, then frames.)
        let from_train = if $from_train_first { train.is_some() } else { pipe.is_empty() };
        if from_train {
            let run = train.as_mut().expect("a head is its pipe's or its train's");
            let slot = Some(run.next_slot);
            // (A group that no AAL5 VC crosses has trains of bursts only, and never frames
            // behind them. Each way its own match: one on a value chosen between the two calls
            // copies the cell once more.)
            if $bursts_only || (!$from_train_first && !$group.frames) {
                match run.take() {
                    (cell, true) => (cell, Some(run.head.0), slot),
                    (cell, false) => {
                        debug_assert!($group.later[$member as usize].is_empty());
                        *train = None;
                        (cell, None, slot)
                    }
                }
            } else {
                match run.take_marked($group.marks[$member as usize]) {
                    (cell, true) => (cell, Some(run.head.0), slot),
                    (cell, false) => (cell, $group.next_train($member as usize), slot),
                }
            }
        } else {
            // (Copied out whole, then dropped: see `pipe_head`.)
            let (_, cell) = pipe.head().expect("a head is its pipe's or its train's");
            pipe.pop_head();
            match pipe.head_arrival() {
                Some(next) => (cell, Some(next), None),
                None if !$bursts_only && $net.ports[$p.index()].link.trains_behind() => {
                    // The frames behind the cells come next.
                    $net.ports[$p.index()].link.set_trains_behind(false);
                    (cell, $group.next_train($member as usize), None)
                }
                None => (cell, None, None),
            }
        }
    }};
}

/// Where a link's pipe stands in its fan-in group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FanInSlot {
    pub(crate) group: u32,
    pub(crate) member: u32,
}

/// The pipes that lead to one port.
#[derive(Debug)]
pub(crate) struct FanIn {
    /// The links, by member. A head of member `members.len()` is the target port's `PortFree`
    /// event, when the group keeps it (a port with queues).
    members: Vec<PortId>,
    /// The port the links lead to.
    target: PortId,
    /// Per member, the burst or frame its pipe carries as a train at its head, if any (its pipe
    /// then holds no cell), and how its cells differ.
    trains: Vec<Option<Train>>,
    marks: Vec<Marks>,
    /// Per member, the frames behind that train or behind the pipe's cells (see
    /// `Link::trains_behind`), in order.
    later: Vec<VecDeque<(Train, Marks)>>,
    /// The non-empty pipes' heads (by member), with the places their `PipeHead` events would
    /// have, in order.
    heads: HeadRing,
    /// The places of this group's `FanIn` events in the queue: one stands for the earliest
    /// head, the others are left from heads handed out early and do nothing when due.
    proxies: Vec<Place>,
    /// Heads are being handed out: a head that enters meanwhile gets no event of its own.
    handing_out: bool,
    /// The place of the `FanIn` event that guards the target's deferred departures, if one is
    /// pending (see `queues_ahead`).
    guard: Option<Place>,
    /// Plan: some cell through the target may land where its arrival schedules an event (a TCP
    /// segment's), so that the guard is due no later than a link's delay after a departure.
    lands_with_events: bool,
    /// Heads handed out since the start, and of those the heads handed out with the target's
    /// counts lifted (`cross_lifted`).
    handed_out: u64,
    lifted_out: u64,
    /// Frames put on the members' links as trains, and trains turned into cells since the start
    /// (for the tests: the paths are taken).
    frame_trains: u64,
    trains_spread: u64,
    /// Cells put on the link behind frames' trains as trains of one, and bursts handed over as
    /// trains, since the start.
    single_trains: u64,
    burst_trains: u64,
    /// Plan: each head crosses the target in one step, or not (see `fan_in_direct`).
    direct: Crossing,
    /// Plan: AAL5 VCs cross the target, so the members' trains may be frames (else they are
    /// bursts, whose cells are all alike).
    frames: bool,
    /// Plan: a link of no group, kept as a group of one for its trains (see `plan_trains`): its
    /// heads go by their own `PipeHead` events, never among a ring's.
    lone: bool,
    /// Plan: how the members' heads take their places (`PortPlan::heads_late`).
    places: HeadPlaces,
}

/// How the heads of a group's members take their places in their instant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum HeadPlaces {
    /// In order: no member's heads are late.
    InOrder,
    /// Late by rule, by link: every member's are (the adapters of paced sources into a
    /// multiplexer).
    Late,
    /// Some members' are: whether by member.
    Mixed(Box<[bool]>),
}

impl HeadPlaces {
    /// Whether the heads of `member` are late in their instant.
    #[inline(always)]
    pub(super) fn is_late(&self, member: u32) -> bool {
        match self {
            HeadPlaces::InOrder => false,
            HeadPlaces::Late => true,
            HeadPlaces::Mixed(late) => late[member as usize],
        }
    }
}

impl FanIn {
    /// A group of the pipes of `members` leading to `target` (each pipe has one head at the
    /// most, and so does the target's transmitter).
    fn new(members: Vec<PortId>, target: PortId) -> Self {
        FanIn {
            heads: HeadRing::new(members.len() + 1),
            target,
            trains: vec![None; members.len()],
            // (Set with each train that comes to a pipe's head.)
            marks: vec![Marks::default(); members.len()],
            later: vec![VecDeque::new(); members.len()],
            members,
            proxies: Vec::new(),
            handing_out: false,
            guard: None,
            lands_with_events: true,
            handed_out: 0,
            lifted_out: 0,
            frame_trains: 0,
            trains_spread: 0,
            single_trains: 0,
            burst_trains: 0,
            direct: Crossing::General,
            frames: false,
            lone: false,
            places: HeadPlaces::InOrder,
        }
    }

    /// The train at the head of member `m`'s pipe ended (or its cells did): the next one, if
    /// any, takes its place; returns when its head arrives.
    #[inline]
    fn next_train(&mut self, m: usize) -> Option<SimTime> {
        match self.later[m].pop_front() {
            Some((train, marks)) => {
                let arrival = train.head.0;
                self.trains[m] = Some(train);
                self.marks[m] = marks;
                Some(arrival)
            }
            None => {
                self.trains[m] = None;
                None
            }
        }
    }

    /// Pipes with a head pending.
    pub(crate) fn pending(&self) -> usize {
        self.heads.len
    }
}

impl Network {
    /// Pipe heads handed out by fan-in groups since the start (each a `PipeHead` event of the
    /// run that never entered the event queue).
    pub fn fan_in_heads(&self) -> u64 {
        self.fan_ins.iter().map(|g| g.handed_out).sum()
    }

    /// Of those, the heads that crossed their group's target in one step (every head of a group
    /// that crosses directly: the plan decides that before the run).
    pub fn fan_in_direct_heads(&self) -> u64 {
        self.fan_ins.iter().filter(|g| g.direct != Crossing::General).map(|g| g.handed_out).sum()
    }

    /// Of those, the heads handed out with the target's counts lifted (`cross_lifted`).
    pub fn fan_in_lifted_heads(&self) -> u64 {
        self.fan_ins.iter().map(|g| g.lifted_out).sum()
    }

    /// Frames put on a group's link (or a link of no group, `trains`) as trains, trains turned
    /// into cells (a cell put on the link behind them), and start times kept by runs turned into
    /// one-by-one times (a cell queued behind them), since the start.
    pub fn fan_in_frame_trains(&self) -> (u64, u64, u64) {
        let frames = self.fan_ins.iter().map(|g| g.frame_trains).sum();
        let spread = self.fan_ins.iter().map(|g| g.trains_spread).sum();
        (frames, spread, self.ports.iter().map(|p| p.starts.runs_spread()).sum())
    }

    /// Cells put on a group's link (or a link of no group) behind frames' trains as trains of one
    /// cell, since the start.
    pub fn fan_in_single_trains(&self) -> u64 {
        self.fan_ins.iter().map(|g| g.single_trains).sum()
    }

    /// Frames and bursts put as trains on links of no group (`trains`), and cells put on such a
    /// link behind frames' trains as trains of one, since the start.
    pub fn lone_link_trains(&self) -> (u64, u64, u64) {
        let lone = || self.fan_ins.iter().filter(|g| g.lone);
        (
            lone().map(|g| g.frame_trains).sum(),
            lone().map(|g| g.burst_trains).sum(),
            lone().map(|g| g.single_trains).sum(),
        )
    }

    /// Cells of each VC in trains (on their links, not in the pipes).
    pub(super) fn fan_in_cells_in_trains(&self, cells: &mut [u64]) {
        let later = self.fan_ins.iter().flat_map(|g| g.later.iter().flatten()).map(|(t, _)| t);
        for train in self.fan_ins.iter().flat_map(|g| g.trains.iter().flatten()).chain(later) {
            cells[train.cell.vc.index()] += train.starts.cells_left();
        }
    }

    /// An on/off burst of `cells` copies of `cell` is handed whole to the idle adapter `p` of
    /// a group now: into the pipe (`put_run_on_wire`), or, when the pipe is empty and holds no
    /// train, as a train (the clock's run step, `TxClock::start_run`, and the head's,
    /// `fan_in_enter`), whose cells are made one at a time by the clock's own step as they
    /// are needed.
    #[inline(never)]
    pub(super) fn fan_in_hand_over(&mut self, slot: FanInSlot, p: PortId, cell: Cell, cells: u32) {
        let now = self.now;
        let train = &self.fan_ins[slot.group as usize].trains[slot.member as usize];
        if !self.ports[p.index()].link.is_empty() || train.is_some() {
            self.put_run_on_wire(p, 0..cells, false, |_| now, |_| cell);
            return;
        }
        let next_slot = self.next_slot(&cell);
        let clock = self.start_train_on_wire(p, cells);
        let train = Train::new(clock, now, self.ports[p.index()].link.delay(), cell, cells, next_slot);
        self.fan_ins[slot.group as usize].burst_trains += u64::from(train.is_some());
        if let Some(train) = train {
            self.fan_in_set_train(slot, train, Marks::alike(&cell));
        }
    }

    /// `train` becomes the train of the member `slot`, whose pipe is empty and which carries
    /// none: its head takes its place among the group's heads now.
    #[inline]
    fn fan_in_set_train(&mut self, slot: FanInSlot, train: Train, marks: Marks) {
        let head = train.head.0;
        let group = &mut self.fan_ins[slot.group as usize];
        debug_assert!(group.trains[slot.member as usize].is_none(), "a train set over another");
        group.trains[slot.member as usize] = Some(train);
        group.marks[slot.member as usize] = marks;
        self.fan_in_enter(slot, head);
    }

    /// `cells` cells go on the wire of `p`, a member of a group, back to back from now, as a
    /// train: the transmitter's clock steps past them all at once (`start_run`, the arithmetic
    /// `put_run_on_wire` does cell by cell) and they are counted as cell-hops. Returns the
    /// clock as it stood, from which the train makes each cell's times.
    #[inline(always)]
    fn start_train_on_wire(&mut self, p: PortId, cells: u32) -> TxClock {
        let port = &mut self.ports[p.index()];
        let clock = port.tx.clock.clone();
        port.tx.clock.start_run(cells, self.now);
        self.tally.cell_hops += u64::from(cells);
        clock
    }

    /// The slot at the group's target of the VC of `cell`, on a member's link. (Every VC on a
    /// member's link goes on to the group's target.)
    #[inline(always)]
    fn next_slot(&self, cell: &Cell) -> u32 {
        self.vcs[cell.vc.index()].route[usize::from(cell.hop) + 1].1
    }

    /// `cell` is about to be put in the empty pipe of `p`, a member of a group: behind the
    /// frames' trains the link carries, it joins them as a train of its own (and true: it is
    /// on its way) or they go in first as cells (see [`joins_trains`](Self::joins_trains));
    /// else it will be the pipe's head.
    #[inline(never)]
    pub(super) fn fan_in_push(&mut self, slot: FanInSlot, p: PortId, cell: Cell, arrival: SimTime) -> bool {
        if self.fan_ins[slot.group as usize].trains[slot.member as usize].is_none() {
            debug_assert!(
                self.fan_ins[slot.group as usize].later[slot.member as usize].is_empty(),
                "trains behind none"
            );
            self.fan_in_enter(slot, arrival);
        } else if self.joins_trains(slot) {
            self.fan_in_push_behind_trains(slot, p, cell, arrival);
            return true;
        } else {
            self.fan_in_before_push(slot, p);
        }
        false
    }

    /// Whether a cell put on the link of a group's member behind trains joins them as a train
    /// of one (else they go in as cells first). Both are exact. A cell joins frames' trains
    /// (a burst's train has none behind it), behind a frame's train, not behind another cell's:
    /// one-cell trains in a row (cells started one by one, as into a full adapter) cost more
    /// than a pipe of cells.
    #[inline]
    pub(super) fn joins_trains(&self, slot: FanInSlot) -> bool {
        let group = &self.fan_ins[slot.group as usize];
        group.frames && group.later[slot.member as usize].back().is_none_or(|(train, _)| train.starts.more > 0)
    }

    /// `cell`, just put on the wire of `p`, a member of a group whose link carries frames' trains
    /// (at the head of its empty pipe, or behind its cells), joins them as a train of one cell
    /// arriving at `arrival`, as it would join the pipe behind them: its head takes its place
    /// when the train before it ends, as it would when the cell before it left the pipe.
    #[inline(never)]
    pub(super) fn fan_in_push_behind_trains(&mut self, slot: FanInSlot, p: PortId, cell: Cell, arrival: SimTime) {
        let next_slot = self.next_slot(&cell);
        let port = &self.ports[p.index()];
        let train = Train::of_one(cell, arrival, &port.tx.clock, port.link.delay(), next_slot);
        let group = &mut self.fan_ins[slot.group as usize];
        debug_assert!(
            group.trains[slot.member as usize].is_some() || port.link.trains_behind(),
            "no trains on the link"
        );
        debug_assert!(group.frames, "a burst's train with a train behind it");
        group.single_trains += 1;
        group.later[slot.member as usize].push_back((train, Marks::alike(&cell)));
    }

    /// Turns the train of a member, if any, into cells in its pipe (their head keeps its place:
    /// it is the same cell at the same time).
    pub(super) fn fan_in_before_push(&mut self, slot: FanInSlot, p: PortId) {
        let group = &mut self.fan_ins[slot.group as usize];
        let port = &mut self.ports[p.index()];
        group.trains_spread +=
            u64::from(group.trains[slot.member as usize].is_some()) + group.later[slot.member as usize].len() as u64;
        if let Some(train) = group.trains[slot.member as usize].take() {
            port.link.extend(train.into_cells(group.marks[slot.member as usize]));
        }
        for (train, marks) in group.later[slot.member as usize].drain(..) {
            port.link.extend(train.into_cells(marks));
        }
        port.link.set_trains_behind(false);
    }

    /// A frame's cells `cell_at(j)`, j in `run` (two or more), admitted to the buffer of `p`, a
    /// member of a group, are put on its wire now as a train (behind the pipe's cells and
    /// trains; the clock's run step, and the head's step if it is the first), their start times
    /// kept as a run: `put_run_on_wire`'s cells, made one at a time as they are needed. False,
    /// and nothing done, when the cells do not follow from the first, the second and the last
    /// as a train's do.
    #[inline(never)]
    pub(super) fn fan_in_run_as_train(
        &mut self,
        slot: FanInSlot,
        p: PortId,
        run: std::ops::Range<u32>,
        cell_at: &impl Fn(u32) -> Cell,
    ) -> bool {
        let now = self.now;
        let cells = run.end - run.start;
        let first = cell_at(run.start);
        let cells_of = [first, cell_at(run.start + 1), cell_at(run.end - 1)];
        let next_slot = self.next_slot(&first);
        let port = &self.ports[p.index()];
        let Some((train, marks)) =
            Train::frame(cells_of, port.tx.clock.clone(), now, port.link.delay(), cells, next_slot)
        else {
            return false;
        };
        debug_assert!(
            train
                .clone()
                .into_cells(marks)
                .zip(run.clone())
                .all(|((_, made), j)| made == Cell { entered: made.entered, ..cell_at(j) }),
            "a run's cells follow from its first, second and last"
        );
        self.start_train_on_wire(p, cells);
        let port = &mut self.ports[p.index()];
        port.starts.push_run(train.starts.clone());
        let group = &mut self.fan_ins[slot.group as usize];
        debug_assert!(group.frames, "a frame's train in a group that no AAL5 VC crosses");
        group.frame_trains += 1;
        let m = slot.member as usize;
        // (A pipe's cells go before its trains; the first train of an empty pipe is its head.)
        if !port.link.is_empty() {
            port.link.set_trains_behind(true);
            group.later[m].push_back((train, marks));
        } else if group.trains[m].is_none() {
            self.fan_in_set_train(slot, train, marks);
        } else {
            group.later[m].push_back((train, marks));
        }
        true
    }

    /// The pipe of a group's member has a new head arriving at `arrival`: it takes its place
    /// now, as its `PipeHead` event would be scheduled now.
    /// (Out of line, as `fan_in_due`: a pipe gets a head once a burst, not once a cell, and
    /// inlined into the cell path these cost twin b 3-5 % of its time.)
    /// A link of no group (`lone`) schedules its head's `PipeHead` event instead.
    #[inline(never)]
    pub(super) fn fan_in_enter(&mut self, slot: FanInSlot, arrival: SimTime) {
        let FanInSlot { group: g, member } = slot;
        let p = self.fan_ins[g as usize].members[member as usize];
        let place = self.empty_pipe_head_place(p, arrival);
        if self.fan_ins[g as usize].lone {
            self.queue.schedule_reserved(place, Event::PipeHead(p));
            return;
        }
        self.fan_ins[g as usize].heads.insert(place, member);
        self.fan_in_schedule_if_first(g, place);
    }

    /// The `PipeHead` event of `p`, a link of no group that may carry trains (`lone`, in group
    /// `g`): the head is taken from its cells or its trains, as a group's member's is, and the
    /// next one's event takes its place now, as in [`pipe_head`](Self::pipe_head).
    #[inline(never)]
    pub(super) fn pipe_head_with_trains(&mut self, p: PortId, g: u32) {
        let group = &mut self.fan_ins[g as usize];
        debug_assert!(group.lone, "a member of a group gets no PipeHead event");
        let (cell, next, _) = take_head!(self, group, 0, p, false, false);
        debug_assert!(cell.entered <= self.now, "a head taken before it started");
        match next {
            Some(next) => self.schedule_head_in_order(p, next),
            None => self.pipe_emptied(p),
        }
        self.cross(cell);
    }

    /// The target of group `g` is to be free at `at`: its `PortFree` event takes its place now
    /// among the group's heads, at the place of its own it would take in the queue.
    #[inline(never)]
    pub(super) fn fan_in_enter_free(&mut self, g: u32, at: SimTime) {
        let place = self.queue.reserve_last(at);
        let group = &mut self.fan_ins[g as usize];
        let member = u32::try_from(group.members.len()).expect("fewer members than ports");
        group.heads.insert(place, member);
        self.fan_in_schedule_if_first(g, place);
    }

    /// Whether some cell through the target of group `g` may land where its arrival schedules an
    /// event.
    #[inline]
    pub(super) fn fan_in_lands_with_events(&self, g: u32) -> bool {
        self.fan_ins[g as usize].lands_with_events
    }

    /// Whether the target of group `g` has a guard of its deferred departures pending.
    #[inline(always)]
    pub(super) fn fan_in_guarded(&self, g: u32) -> bool {
        self.fan_ins[g as usize].guard.is_some()
    }

    /// The target of group `g` deferred a departure and has no guard: one is due at `at`, a
    /// `FanIn` event of the group (not an event of the run: see `queues_ahead`).
    #[inline(never)]
    pub(super) fn fan_in_enter_guard(&mut self, g: u32, at: SimTime) {
        let place = self.queue.reserve(at);
        self.fan_ins[g as usize].guard = Some(place);
        self.queue.schedule_reserved(place, Event::FanIn(g));
    }

    /// A head just filed at `place` in group `g`: when it is the group's earliest and the group
    /// is not handing out heads, the group's `FanIn` event stands for it in the queue.
    #[inline(always)]
    fn fan_in_schedule_if_first(&mut self, g: u32, place: Place) {
        let group = &mut self.fan_ins[g as usize];
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
        if group.guard == Some(place) {
            group.guard = None;
            let target = group.target;
            self.deferred_guard_due(target);
            return;
        }
        match self.fan_ins[g as usize].direct {
            Crossing::General => self.hand_out::<GENERAL>(g, place),
            Crossing::Cells => self.hand_out::<DIRECT_CELLS>(g, place),
            Crossing::Frames => self.hand_out::<DIRECT_FRAMES>(g, place),
            Crossing::Through => self.hand_out::<THROUGH>(g, place),
            Crossing::ThroughToEnd => self.hand_out::<THROUGH_TO_END>(g, place),
        }
    }

    /// [`fan_in_due`](Self::fan_in_due), in a group that crosses its target directly or not
    /// (each way its own loop: one loop with a branch in it cost A4, whose group does not,
    /// 4 % more time in the profile-guided build).
    #[inline(never)]
    fn hand_out<const WAY: u8>(&mut self, g: u32, place: Place) {
        let direct = WAY == DIRECT_CELLS || WAY == DIRECT_FRAMES;
        let group = &mut self.fan_ins[g as usize];
        if let Some(i) = group.proxies.iter().position(|&q| q == place) {
            group.proxies.swap_remove(i);
        }
        if group.heads.front().map(|h| h.0) != Some(place) {
            return; // a head handed out early
        }
        group.handing_out = true;
        let target = group.target;
        // Heads are handed out up to the earliest other event (only this group's own event for
        // a head can share the head's place) and the end; the bound is looked up again when
        // something was scheduled meanwhile.
        let end = Place::after(self.end);
        let mut bound = self.queue.earliest_place().map_or(end, |next| next.min(end));
        let mut turn = 0;
        let mut lean = direct;
        while let Some((head, member)) = self.fan_ins[g as usize].heads.front() {
            if head > bound || turn == HEADS_PER_TURN {
                break;
            }
            if lean {
                // Trains' cells through a single-FIFO target, many in a row; the head that
                // stops them goes on here.
                let lifted = if WAY == DIRECT_CELLS {
                    self.cross_lifted::<LiftedCells>(g, bound, HEADS_PER_TURN - turn)
                } else {
                    self.cross_lifted::<LiftedFrames>(g, bound, HEADS_PER_TURN - turn)
                };
                match lifted {
                    Some(0) => {}
                    Some(handed) => {
                        turn += handed;
                        continue;
                    }
                    None => lean = false,
                }
            }
            turn += 1;
            let group = &mut self.fan_ins[g as usize];
            group.heads.pop_front();
            let now = head.time();
            debug_assert!(now >= place.time(), "a head at {now:?} handed out after {:?}", place.time());
            self.now = now;
            let taken = match group.members.get(member as usize) {
                Some(&p) => {
                    // (Directly crossed groups are fed by trains (twin `a`: on/off bursts; twin
                    // `b`: frames), the others mostly by cells: each looks first where its heads
                    // usually are.)
                    let (cell, next, slot) = take_head!(self, group, member, p, direct, WAY == DIRECT_CELLS);
                    match next {
                        Some(next) => {
                            // (The group's plan first: most groups have no late member, and
                            // asking each head's link cost G2 and G4 1.5-2 % of their CPU.)
                            let late = group.places.is_late(member);
                            let place = head_place_in(&mut self.queue, late, || p, next);
                            self.fan_ins[g as usize].heads.insert(place, member);
                        }
                        // (As `pipe_head` keeps it.)
                        None => self.ports[p.index()].link.set_emptied(self.queue.reserve(now)),
                    }
                    self.tally.event(now, Event::PipeHead(p));
                    let taken = self.queue.schedules();
                    if WAY == DIRECT_FRAMES {
                        self.cross_directly::<true, true, false, Asked>(target, cell, slot);
                    } else if direct {
                        self.cross_directly::<false, true, false, Asked>(target, cell, slot);
                    } else if WAY == THROUGH {
                        self.cross_directly::<true, false, true, Asked>(target, cell, slot);
                    } else if WAY == THROUGH_TO_END {
                        self.cross_directly::<true, false, true, KnownEnd>(target, cell, slot);
                    } else {
                        self.cross(cell);
                    }
                    taken
                }
                None => {
                    // The target's transmitter is free: its `PortFree` event's steps (the
                    // transmitter's `departs`, then `transmit`), for the one kind of port the plan
                    // lets keep its events here, a cell port with queues. (Not through
                    // `port_free`, whose questions in this loop cost E1 0.6 % and A4 0.8 % more
                    // instructions; nor through a step of the two calls, E1 +0.26 %, A4 +0.6 %.)
                    let target = group.target;
                    self.tally.event(now, Event::PortFree(target));
                    let port = &mut self.ports[target.index()];
                    debug_assert!(port.plan.path == PortPath::Queues && port.packets.is_none());
                    port.tx.departs();
                    let taken = self.queue.schedules();
                    self.transmit(target);
                    taken
                }
            };
            if self.queue.schedules() != taken {
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
mod tests;
