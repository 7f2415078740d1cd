//! Lifted loops: a fan-in group that crosses its target directly hands out its trains' cells
//! with the target's counts (and its policy) held out of the port, in a loop of its own (see
//! `fan_in_direct` and benches/README.md).

use super::{HeadRing, Train};
use crate::network::carry::{land_raw_in, lands_inside_frame, TRACE_PIPE_HEAD};
use crate::network::egress::{count_lost, take_inner_cell};
use crate::network::{Event, Network, Port};
use celltrain_atm::cell::CellKind;
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::Place;

impl Network {
    /// Hands out the heads of group `g`, which crosses its target directly with ATM-layer cells
    /// only, as `hand_out` does, while each is a train's cell (not its last) due no later than
    /// `bound`, at most `turns` of them, and its cell can be carried to its destination; the
    /// target's counts are held in registers meanwhile
    /// ([`TailDropFifo`](celltrain_atm::port::TailDropFifo)). Returns how many, or none when
    /// the target is no tail-drop FIFO. (The loop holds each part of the network it touches
    /// by a reference of its own, and the counters it bumps in locals, so that a write to one
    /// does not make it read the others again: twin `a` with n = 20 runs 6 % fewer
    /// instructions for the lifted counts, 4 % fewer again for the locals; benches/README.md.)
    #[inline(never)]
    pub(super) fn cross_trains(&mut self, g: u32, bound: Place, turns: u32) -> Option<u32> {
        let Network { fan_ins, ports, vcs, queue, tally, now, carry_before, .. } = self;
        let group = &mut fan_ins[g as usize];
        let q = group.target;
        let port = &mut ports[q.index()];
        let mut fifo = port.queue.tail_drop_fifo()?;
        debug_assert!(port.starts.no_runs() && port.starts.handed().pending() == 0 && !group.frames);
        // (No cell enters the target's pipe here: whether it is empty holds for the loop.)
        let reach = Reach::of(port, *carry_before);
        // (Counters in locals, written back at the end: kept in memory, each would be stored
        // again after every write the compiler cannot tell apart from it.)
        let (mut hash, mut event_count, mut hops, mut clock_now) = (tally.trace, tally.events, tally.cell_hops, *now);
        let mut turn = 0;
        while let Some((head, member, train)) = lifted_head(&group.heads, &mut group.trains, bound, turn, turns) {
            let t = head.time();
            let Some(start) = carried_start(port, t, reach, |at| fifo.depart(at)) else {
                break;
            };
            group.heads.pop_front();
            turn += 1;
            clock_now = t;
            let entered = train.take_burst_start();
            let (vc, clp) = (train.cell.vc, train.cell.clp);
            let place = queue.reserve(train.head.0);
            group.heads.insert(place, member);
            let (kind, target) = Event::PipeHead(group.members[member as usize]).trace_key();
            hash.fold(t, kind, target);
            event_count += 1;
            // Then the rest of `cross_directly`, for an ATM-layer cell (the target's single
            // pool is the cell's, whatever its VC; the cell itself, with its hop, is not made).
            let passes = port.starts.passes(start, t);
            match fifo.admit(clp, passes, t) {
                Ok(()) => {
                    if !passes {
                        port.starts.push_one_by_one(start);
                    }
                    hops += 1;
                    let arrival = port.tx.clock.start(start).later_by(reach.delay);
                    land_raw_in(vcs, &mut hash, q, vc, entered, arrival);
                }
                Err(_) => count_lost(&mut hash, vcs, t, vc),
            }
        }
        (tally.trace, tally.events, tally.cell_hops, *now) = (hash, event_count, hops, clock_now);
        port.queue.put_tail_drop_fifo(&fifo);
        group.lifted_out += u64::from(turn);
        Some(turn)
    }
}

impl Network {
    /// [`cross_trains`](Self::cross_trains), in a group that AAL5 VCs cross (twin `b`: TCP
    /// segments' frames into an EPD port), for a target that is a single FIFO under any policy
    /// that reads no per-VC counts ([`LiftedFifo`](celltrain_atm::port::LiftedFifo)), while
    /// each head is an ATM-layer cell or an AAL5 cell that [lands inside its
    /// frame](super::carry::lands_inside_frame). A cell that is lost, or settles a frame whose end was
    /// lost, is the last: the loop puts everything back and does that step by the general
    /// path (nothing the loop does schedules an event, so the bound holds).
    #[inline(never)]
    pub(super) fn cross_frame_trains(&mut self, g: u32, bound: Place, turns: u32) -> Option<u32> {
        let Network { fan_ins, ports, vcs, frames, queue, tally, now, carry_before, .. } = self;
        let group = &mut fan_ins[g as usize];
        let q = group.target;
        let port = &mut ports[q.index()];
        let mut fifo = port.queue.lift_fifo()?;
        debug_assert!(port.starts.no_runs() && port.starts.handed().pending() == 0);
        // (No cell enters the target's pipe here: whether it is empty holds for the loop.)
        let reach = Reach::of(port, *carry_before);
        let (mut hash, mut event_count, mut hops, mut clock_now) = (tally.trace, tally.events, tally.cell_hops, *now);
        let scheduled = queue.schedules();
        let mut turn = 0;
        let mut aside = None;
        while let Some((head, member, train)) = lifted_head(&group.heads, &mut group.trains, bound, turn, turns) {
            let inner = lands_inside_frame(vcs, &train.head.1);
            if !(inner || train.head.1.kind == CellKind::Raw) {
                break;
            }
            let t = head.time();
            let Some(start) = carried_start(port, t, reach, |at| fifo.depart(at)) else {
                break;
            };
            // `hand_out`, for a train's cell with a cell after it.
            group.heads.pop_front();
            turn += 1;
            clock_now = t;
            let slot = train.next_slot;
            let (mut cell, more) = train.take_marked(group.marks[member as usize]);
            debug_assert!(more);
            let place = queue.reserve(train.head.0);
            group.heads.insert(place, member);
            let (kind, from) = Event::PipeHead(group.members[member as usize]).trace_key();
            hash.fold(t, kind, from);
            event_count += 1;
            // Then the rest of `cross_directly`.
            cell.hop += 1;
            let passes = port.starts.passes(start, t);
            if fifo.admit(&cell, slot, passes, t).is_err() {
                aside = Some((cell, None));
                break;
            }
            if !passes {
                port.starts.push_one_by_one(start);
            }
            hops += 1;
            let arrival = port.tx.clock.start(start).later_by(reach.delay);
            if !inner {
                land_raw_in(vcs, &mut hash, q, cell.vc, cell.entered, arrival);
                continue;
            }
            hash.fold(arrival, TRACE_PIPE_HEAD, q.0);
            // (A cell with cells of its frame behind it in the train is never the frame's last
            // accounted for, so this does not settle a frame today; should trains ever hold
            // another frame's cells, the step below stays right.)
            if let Some(outcome) = take_inner_cell(vcs, frames, &cell, arrival) {
                aside = Some((cell, Some((arrival, outcome))));
                break;
            }
        }
        (tally.trace, tally.events, tally.cell_hops, *now) = (hash, event_count, hops, clock_now);
        debug_assert_eq!(queue.schedules(), scheduled);
        port.queue.put_lifted_fifo(fifo);
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
