//! Lifted loops: a fan-in group that crosses its target directly hands out its trains' cells
//! with the target's counts (and its policy) held out of the port, in one loop (see
//! `fan_in_direct` and benches/README.md), monomorphised for the two ways its cells cross
//! ([`LiftedCells`], [`LiftedFrames`]): each way says only what differs, the loop says the rest
//! once.

use super::{HeadRing, Marks, Train};
use crate::network::carry::{land_raw_in, lands_inside_frame, TRACE_PIPE_HEAD};
use crate::network::cell_path::head_place_in;
use crate::network::egress::{count_lost, take_inner_cell};
use crate::network::{Event, Network, Port, Vc};
use crate::packet::Packet;
use celltrain_atm::aal5::Reassembly;
use celltrain_atm::cell::{Cell, CellKind};
use celltrain_atm::frame::FrameArena;
use celltrain_atm::port::{LiftedFifo, OutputPort, TailDropFifo};
use celltrain_atm::DropReason;
use celltrain_core::ids::{PortId, VcId};
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::{Place, TraceHash};

/// How a lifted loop's cells cross its target: what it lifts out of the port, which heads it
/// takes, and how a cell is admitted, lost and landed. (The steps themselves are the port's and
/// the destination's: these only pick the ones for the way.)
pub(super) trait LiftedWay {
    /// The target's counts (and policy) in registers.
    type Fifo;
    /// A head taken from its train, as the way needs it.
    type Head;
    /// Whether AAL5 cells cross (a group's trains may then be frames).
    const FRAMES: bool;
    /// The target's counts, lifted out; none when the target is not the kind of FIFO the way
    /// takes (the general path then goes on).
    fn lift(queue: &mut OutputPort) -> Option<Self::Fifo>;
    fn put_back(queue: &mut OutputPort, fifo: Self::Fifo);
    /// The oldest queued cell started at `at`.
    fn depart(fifo: &mut Self::Fifo, at: SimTime);
    /// Whether the loop may take the train's head, and if so whether the cell lands inside its
    /// frame (else it is counted as an ATM-layer cell).
    fn takes(vcs: &[Vc], train: &Train) -> Option<bool>;
    /// Takes the train's head (a cell after it stays): the train of `member`, whose cells differ
    /// by its `marks`. (The marks are looked up by the way that reads them: an index is a bounds
    /// check, which the compiler must keep even where nothing reads the value.)
    fn take(train: &mut Train, marks: &[Marks], member: u32) -> Self::Head;
    fn admit(fifo: &mut Self::Fifo, head: &Self::Head, slot: u32, passes: bool, now: SimTime)
        -> Result<(), DropReason>;
    /// A head the target refused at `now`: counted lost (the loop goes on), or handed back to
    /// be lost by the general path (the loop ends).
    fn refused(head: Self::Head, trace: &mut TraceHash, vcs: &mut [Vc], now: SimTime) -> Option<Cell>;
    /// An admitted head lands at its destination at `arrival`; the reassembly's outcome when
    /// the cell settles its frame (the general path then settles it: see
    /// [`Network::settle_inner_cell`]).
    fn land(head: &Self::Head, inside_frame: bool, at: Landing<'_>, arrival: SimTime) -> Option<Reassembly>;
    /// The cell a head is (for the general path).
    fn into_cell(head: Self::Head) -> Cell;
}

/// Where a lifted loop's cells land: the parts of the network a landing changes, and the
/// target, whose link the cells cross last.
pub(super) struct Landing<'a> {
    vcs: &'a mut [Vc],
    frames: &'a mut FrameArena<Packet>,
    trace: &'a mut TraceHash,
    port: PortId,
}

/// ATM-layer cells only (twin `a`'s on/off bursts), through a single FIFO under tail drop with
/// no per-VC counts ([`TailDropFifo`]): every head is a burst's cell, and no cell is made.
pub(super) struct LiftedCells;

impl LiftedWay for LiftedCells {
    type Fifo = TailDropFifo;
    /// The cell's VC, its CLP and when it entered the network.
    type Head = (VcId, bool, SimTime);
    const FRAMES: bool = false;

    fn lift(queue: &mut OutputPort) -> Option<TailDropFifo> {
        queue.tail_drop_fifo()
    }

    fn put_back(queue: &mut OutputPort, fifo: TailDropFifo) {
        queue.put_tail_drop_fifo(&fifo);
    }

    fn depart(fifo: &mut TailDropFifo, at: SimTime) {
        fifo.depart(at);
    }

    #[inline(always)]
    fn takes(_: &[Vc], _: &Train) -> Option<bool> {
        Some(false)
    }

    #[inline(always)]
    fn take(train: &mut Train, _: &[Marks], _: u32) -> Self::Head {
        let entered = train.take_burst_start();
        (train.cell.vc, train.cell.clp, entered)
    }

    #[inline(always)]
    fn admit(
        fifo: &mut TailDropFifo,
        &(_, clp, _): &Self::Head,
        _: u32,
        passes: bool,
        now: SimTime,
    ) -> Result<(), DropReason> {
        fifo.admit(clp, passes, now)
    }

    fn refused((vc, _, _): Self::Head, trace: &mut TraceHash, vcs: &mut [Vc], now: SimTime) -> Option<Cell> {
        count_lost(trace, vcs, now, vc);
        None
    }

    #[inline(always)]
    fn land(&(vc, _, entered): &Self::Head, _: bool, at: Landing<'_>, arrival: SimTime) -> Option<Reassembly> {
        land_raw_in(at.vcs, at.trace, at.port, vc, entered, arrival);
        None
    }

    fn into_cell(_: Self::Head) -> Cell {
        unreachable!("an ATM-layer cell of a burst lands or is counted lost in the loop")
    }
}

/// AAL5 cells too (twin `b`: TCP segments' frames into an EPD port), through a single FIFO under
/// any policy that reads no per-VC counts ([`LiftedFifo`]), while each head is an ATM-layer cell
/// or an AAL5 cell that [lands inside its frame](lands_inside_frame). A cell that is lost, or
/// settles a frame whose end was lost, is the last: the loop puts everything back and that step
/// goes by the general path (nothing the loop does schedules an event, so the bound holds).
pub(super) struct LiftedFrames;

impl LiftedWay for LiftedFrames {
    type Fifo = LiftedFifo;
    type Head = Cell;
    const FRAMES: bool = true;

    fn lift(queue: &mut OutputPort) -> Option<LiftedFifo> {
        queue.lift_fifo()
    }

    fn put_back(queue: &mut OutputPort, fifo: LiftedFifo) {
        queue.put_lifted_fifo(fifo);
    }

    fn depart(fifo: &mut LiftedFifo, at: SimTime) {
        fifo.depart(at);
    }

    #[inline(always)]
    fn takes(vcs: &[Vc], train: &Train) -> Option<bool> {
        let inner = lands_inside_frame(vcs, &train.head.1);
        (inner || train.head.1.kind == CellKind::Raw).then_some(inner)
    }

    /// (`hand_out`, for a train's cell with a cell after it, then `cross_directly`'s hop.)
    #[inline(always)]
    fn take(train: &mut Train, marks: &[Marks], member: u32) -> Cell {
        let (mut cell, more) = train.take_marked(marks[member as usize]);
        debug_assert!(more);
        cell.hop += 1;
        cell
    }

    #[inline(always)]
    fn admit(fifo: &mut LiftedFifo, cell: &Cell, slot: u32, passes: bool, now: SimTime) -> Result<(), DropReason> {
        fifo.admit(cell, slot, passes, now)
    }

    fn refused(cell: Cell, _: &mut TraceHash, _: &mut [Vc], _: SimTime) -> Option<Cell> {
        Some(cell)
    }

    #[inline(always)]
    fn land(cell: &Cell, inside_frame: bool, at: Landing<'_>, arrival: SimTime) -> Option<Reassembly> {
        if !inside_frame {
            land_raw_in(at.vcs, at.trace, at.port, cell.vc, cell.entered, arrival);
            return None;
        }
        at.trace.fold(arrival, TRACE_PIPE_HEAD, at.port.0);
        // (A cell with cells of its frame behind it in the train is never the frame's last
        // accounted for, so this does not settle a frame today; should trains ever hold
        // another frame's cells, the step below stays right.)
        take_inner_cell(at.vcs, at.frames, cell, arrival)
    }

    fn into_cell(cell: Cell) -> Cell {
        cell
    }
}

impl Network {
    /// Hands out the heads of group `g`, which crosses its target directly, as `hand_out` does,
    /// while each is a train's cell (not its last) due no later than `bound` that the way
    /// `W` takes, at most `turns` of them, and its cell can be carried to its destination; the
    /// target's counts (and policy) are held in registers meanwhile. Returns how many, or none
    /// when the target is not the way's kind of FIFO. (The loop holds each part of the network
    /// it touches by a reference of its own, and the counters it bumps in locals, so that a
    /// write to one does not make it read the others again: twin `a` with n = 20 runs 6 % fewer
    /// instructions for the lifted counts, 4 % fewer again for the locals; benches/README.md.)
    #[inline(never)]
    pub(super) fn cross_lifted<W: LiftedWay>(&mut self, g: u32, bound: Place, turns: u32) -> Option<u32> {
        let Network { fan_ins, ports, vcs, frames, queue, tally, now, carry_before, .. } = self;
        let group = &mut fan_ins[g as usize];
        let q = group.target;
        let port = &mut ports[q.index()];
        let mut fifo = W::lift(&mut port.queue)?;
        debug_assert!(port.starts.no_runs() && port.starts.handed().pending() == 0 && (W::FRAMES || !group.frames));
        // (No cell enters the target's pipe here: whether it is empty holds for the loop.)
        let reach = Reach::of(port, *carry_before);
        // (Counters in locals, written back at the end: kept in memory, each would be stored
        // again after every write the compiler cannot tell apart from it.)
        let (mut hash, mut event_count, mut hops, mut clock_now) = (tally.trace, tally.events, tally.cell_hops, *now);
        let scheduled = queue.schedules();
        let mut turn = 0;
        let mut aside = None;
        while let Some((head, member, train)) = lifted_head(&group.heads, &mut group.trains, bound, turn, turns) {
            let Some(inside_frame) = W::takes(vcs, train) else { break };
            let t = head.time();
            let Some(start) = carried_start(port, t, reach, |at| W::depart(&mut fifo, at)) else {
                break;
            };
            // `hand_out`, for a train's cell with a cell after it.
            group.heads.pop_front();
            turn += 1;
            clock_now = t;
            let slot = train.next_slot;
            let taken = W::take(train, &group.marks, member);
            let place =
                head_place_in(queue, group.places.is_late(member), || group.members[member as usize], train.head.0);
            group.heads.insert(place, member);
            let (kind, from) = Event::PipeHead(group.members[member as usize]).trace_key();
            hash.fold(t, kind, from);
            event_count += 1;
            // Then the rest of `cross_directly`.
            let passes = port.starts.passes(start, t);
            match W::admit(&mut fifo, &taken, slot, passes, t) {
                Ok(()) => {
                    if !passes {
                        port.starts.push_one_by_one(start);
                    }
                    hops += 1;
                    let arrival = port.tx.clock.start(start).later_by(reach.delay);
                    let at = Landing { vcs, frames, trace: &mut hash, port: q };
                    if let Some(outcome) = W::land(&taken, inside_frame, at, arrival) {
                        aside = Some((W::into_cell(taken), Some((arrival, outcome))));
                        break;
                    }
                }
                Err(_) => {
                    if let Some(cell) = W::refused(taken, &mut hash, vcs, t) {
                        aside = Some((cell, None));
                        break;
                    }
                }
            }
        }
        (tally.trace, tally.events, tally.cell_hops, *now) = (hash, event_count, hops, clock_now);
        debug_assert_eq!(queue.schedules(), scheduled);
        W::put_back(&mut port.queue, fifo);
        group.lifted_out += u64::from(turn);
        // The last cell's last step, by the general path.
        match aside {
            None => {}
            Some((cell, None)) => self.cell_lost(cell),
            Some((cell, Some((arrival, outcome)))) => self.settle_inner_cell(cell, arrival, outcome),
        }
        Some(turn)
    }
}

/// What decides whether a cell that starts on the target of a lifted loop can be carried to its
/// destination: the pipe is empty (no cell enters it while the loop runs, so this holds for the
/// loop), and the cell arrives, a cell time and the link's delay after its start, before
/// `carry_before`.
#[derive(Clone, Copy)]
struct Reach {
    pipe_empty: bool,
    line_cell_time: SimDuration,
    delay: SimDuration,
    carry_before: SimTime,
}

impl Reach {
    fn of(port: &Port, carry_before: SimTime) -> Reach {
        Reach {
            pipe_empty: port.link.is_empty(),
            line_cell_time: port.tx.clock.line_cell_time(),
            delay: port.link.delay(),
            carry_before,
        }
    }
}

/// `cross_directly`'s first steps, in a lifted loop, for a cell due at `t` at the target `port`:
/// the queued cells that started by `t` leave (`depart`, on the lifted counts), and the cell's
/// start, if it can be carried from there; else none (the cell goes by the general path).
#[inline(always)]
fn carried_start(port: &mut Port, t: SimTime, reach: Reach, mut depart: impl FnMut(SimTime)) -> Option<SimTime> {
    while let Some(start) = port.starts.times.front() {
        if start > t {
            break;
        }
        port.starts.times.pop_front();
        depart(start);
    }
    let start = port.tx.clock.free_at().max(t);
    (reach.pipe_empty && start.later_by(reach.line_cell_time).later_by(reach.delay) < reach.carry_before)
        .then_some(start)
}

/// The group's next head, if a lifted loop may take it: due no later than `bound`, the loop's
/// `turn` short of its `turns`, and a train's cell with a cell after it (not a pipe's cell,
/// nor a train's last, at which the pipe's head changes hands); with its member and its train.
#[inline(always)]
fn lifted_head<'a>(
    heads: &HeadRing,
    trains: &'a mut [Option<Train>],
    bound: Place,
    turn: u32,
    turns: u32,
) -> Option<(Place, u32, &'a mut Train)> {
    let (head, member) = heads.front()?;
    if head > bound || turn == turns {
        return None;
    }
    let train = trains.get_mut(member as usize)?.as_mut()?;
    (train.starts.more > 0).then_some((head, member, train))
}
