//! A fan-in group's trains: an on/off burst or an AAL5 frame on its way into a member's pipe,
//! kept as arithmetic (see the module above).

use celltrain_atm::cell::Cell;
use celltrain_atm::port::{StartRun, TxClock};
use celltrain_core::time::{SimDuration, SimTime};

/// An on/off burst or an AAL5 frame on its way into a pipe, kept as arithmetic: its cells are
/// made one at a time, as `put_run_on_wire` would have made them all at the hand-over. A
/// frame's cells differ in their index and the last one's marks (see [`Marks`]), kept beside
/// the train (a burst's train, all alike, runs without them).
#[derive(Clone, Debug)]
pub(super) struct Train {
    /// Its cells' start times, the head's first: the adapter's slots back to back, in one busy
    /// period (the clock's own arithmetic, without asking each time whether the transmitter
    /// went idle), as the adapter keeps them.
    pub(super) starts: StartRun,
    /// How long a cell takes on the wire (rounded up, as the clock has it).
    line_cell_time: SimDuration,
    delay: SimDuration,
    /// The cells' common part.
    pub(super) cell: Cell,
    /// The next cell, made: its arrival at the far end, and the cell.
    pub(super) head: (SimTime, Cell),
    /// The cells' VC's index at the port the link leads to (looked up once for the burst, not
    /// for each cell).
    pub(super) next_slot: u32,
}

impl Train {
    /// A train of the one cell `cell`, just started on `clock`, arriving at `arrival` (a cell put
    /// on a link behind frames' trains). (No cell follows it, so its start times are not read:
    /// both are the clock's next.)
    pub(super) fn of_one(cell: Cell, arrival: SimTime, clock: &TxClock, delay: SimDuration, next_slot: u32) -> Train {
        Train {
            starts: StartRun { next: clock.free_at(), then: clock.free_at(), slots: clock.cursor(), more: 0 },
            line_cell_time: clock.line_cell_time(),
            delay,
            cell,
            head: (arrival, cell),
            next_slot,
        }
    }

    /// A burst of `cells` cells (none: no train) handed to an adapter whose clock was `clock`.
    pub(super) fn new(
        mut clock: TxClock,
        from: SimTime,
        delay: SimDuration,
        cell: Cell,
        cells: u32,
        next_slot: u32,
    ) -> Option<Train> {
        let more = cells.checked_sub(1)?;
        // The head as `put_run_on_wire` makes it; the others start when the clock is free, so
        // they go back to back from there.
        let (start, end) = super::super::sources::on_wire(&mut clock, from);
        Some(Train {
            starts: StartRun { next: start, then: clock.free_at(), slots: clock.cursor(), more },
            line_cell_time: clock.line_cell_time(),
            delay,
            cell,
            head: (end + delay, Cell { entered: start, ..cell }),
            next_slot,
        })
    }

    /// Steps to the next cell, as `put_run_on_wire` makes it (`TxClock::start` at the clock's
    /// `free_at` in its busy period): its arrival at the far end (its start is `starts.next`);
    /// none when the train has ended.
    #[inline(always)]
    fn step(&mut self) -> Option<SimTime> {
        if !self.starts.step() {
            return None;
        }
        Some(self.arrival())
    }

    /// The arrival at the far end of the cell that starts at `starts.next`.
    #[inline(always)]
    fn arrival(&self) -> SimTime {
        let end = self.starts.then.min(self.starts.next.later_by(self.line_cell_time));
        end.later_by(self.delay)
    }

    /// [`take`](Self::take), for a burst's train (its cells alike but for their start times)
    /// with a cell after the head, where only the head's start time is read: the next head's
    /// cell is not made again, only its time changes. Returns the head's start time.
    #[inline(always)]
    pub(super) fn take_burst_start(&mut self) -> SimTime {
        debug_assert!(self.starts.more > 0 && self.head.1 == Cell { entered: self.head.1.entered, ..self.cell });
        let entered = self.head.1.entered;
        self.starts.step_on();
        self.head.0 = self.arrival();
        self.head.1.entered = self.starts.next;
        entered
    }

    /// Takes the head and makes the next, if there is one (else the train has ended).
    #[inline]
    pub(super) fn take(&mut self) -> (Cell, bool) {
        let (_, cell) = self.head;
        let Some(arrival) = self.step() else { return (cell, false) };
        self.head = (arrival, Cell { entered: self.starts.next, ..self.cell });
        (cell, true)
    }
}

/// How a frame's cells differ from one another: their index counts up by `step`, and the last
/// has marks of its own (it ends the frame, and keeps CLP = 0 when the others are tagged). A
/// burst's cells, all alike, have a step of 0 and the last one's marks are theirs.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Marks {
    step: u16,
    last_end_of_frame: bool,
    last_clp: bool,
}

impl Marks {
    /// The marks of a burst of copies of `cell`.
    pub(super) fn alike(cell: &Cell) -> Marks {
        Marks { step: 0, last_end_of_frame: cell.end_of_frame, last_clp: cell.clp }
    }
}

impl Train {
    /// A frame's run of `cells` cells (two or more) handed to an adapter whose clock was
    /// `clock`: `first`, then `second` and the cells that follow it by the same step of index,
    /// the last being `last`; none if `last` is not the one that step leads to, or differs from
    /// the others in more than its marks.
    pub(super) fn frame(
        [first, second, last]: [Cell; 3],
        clock: TxClock,
        from: SimTime,
        delay: SimDuration,
        cells: u32,
        next_slot: u32,
    ) -> Option<(Train, Marks)> {
        let step = second.index.wrapping_sub(first.index);
        // (Truncated as the index is: a frame has at most 1366 cells.)
        let last_index = second.index.wrapping_add(step.wrapping_mul(cells.checked_sub(2)? as u16));
        if (Cell { index: last_index, end_of_frame: last.end_of_frame, clp: last.clp, ..second }) != last {
            return None;
        }
        let mut train = Train::new(clock, from, delay, second, cells, next_slot)?;
        train.head.1 = Cell { entered: train.head.1.entered, ..first };
        Some((train, Marks { step, last_end_of_frame: last.end_of_frame, last_clp: last.clp }))
    }

    /// [`take`](Self::take), for a train whose cells differ by `marks`.
    #[inline]
    pub(super) fn take_marked(&mut self, marks: Marks) -> (Cell, bool) {
        let (cell, more) = self.take();
        if more {
            self.cell.index = self.cell.index.wrapping_add(marks.step);
            if self.starts.more == 0 {
                self.head.1.end_of_frame = marks.last_end_of_frame;
                self.head.1.clp = marks.last_clp;
            }
        }
        (cell, more)
    }

    /// Its cells, head first, as the pipe would hold them.
    pub(super) fn into_cells(mut self, marks: Marks) -> impl Iterator<Item = (SimTime, Cell)> {
        let mut ended = false;
        std::iter::from_fn(move || {
            if ended {
                return None;
            }
            let head = self.head;
            ended = !self.take_marked(marks).1;
            Some(head)
        })
    }
}
