//! A FIFO of cells kept as runs: consecutive cells of one frame enter as one record, so a frame
//! waiting in a buffer costs one entry, whatever its length, and only the cells that leave are
//! ever made.
//!
//! Where a buffer takes whole frames (an ABR end system takes each AAL5 frame its sender hands
//! it), this is a train at rest: a run is decided exactly by its first cell and its length,
//! because the cells of a run differ only in their index and, for the run's last cell, in the
//! frame's end mark.

use crate::cell::Cell;
use std::collections::VecDeque;

/// Cells `head.index .. end` of one frame, alike but for their index; the cell before `end`
/// ends the frame if `ends_frame`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    /// The next cell to leave (its `end_of_frame` is decided on leaving).
    head: Cell,
    end: u16,
    ends_frame: bool,
}

/// A FIFO of cells stored as runs (see the module's documentation).
#[derive(Clone, Debug, Default)]
pub struct CellRuns {
    runs: VecDeque<Run>,
    cells: usize,
}

impl CellRuns {
    pub fn new() -> Self {
        Self::default()
    }

    /// Cells waiting.
    #[inline]
    pub fn len(&self) -> usize {
        self.cells
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.cells == 0
    }

    /// Cells `first.index .. first.index + count` of `first`'s frame, alike but for their
    /// index, join the back; the last of them ends the frame if `ends_frame` (every other
    /// cell's `end_of_frame` is false, whatever `first`'s says).
    ///
    /// # Panics
    /// If the run's indices pass `u16::MAX` (a frame has at most 1 366 cells).
    pub fn push_run(&mut self, first: Cell, count: u16, ends_frame: bool) {
        if count == 0 {
            return;
        }
        let end = first.index.checked_add(count).expect("a frame's cell indices fit 16 bits");
        self.runs.push_back(Run { head: first, end, ends_frame });
        self.cells += usize::from(count);
    }

    /// One cell joins the back (a run of one).
    pub fn push_back(&mut self, cell: Cell) {
        self.push_run(cell, 1, cell.end_of_frame);
    }

    /// The cell at the front leaves.
    #[inline]
    pub fn pop_front(&mut self) -> Option<Cell> {
        let cells = self.take_front(1)?;
        Some(cells.cell(0))
    }

    /// Cells in the front run (those [`take_front`](Self::take_front) can take at once).
    #[inline]
    pub fn front_run_cells(&self) -> u16 {
        self.runs.front().map_or(0, |run| run.end - run.head.index)
    }

    /// The next `cells` cells (one at least, at most [`front_run_cells`](Self::front_run_cells))
    /// leave at once, all of the front run: [`Taken::cell`] makes each as
    /// [`pop_front`](Self::pop_front) would have. None when nothing waits.
    #[inline]
    pub fn take_front(&mut self, cells: u16) -> Option<Taken> {
        let run = self.runs.front_mut()?;
        let taken = Taken { run: *run };
        let next = run.head.index + cells;
        debug_assert!(cells >= 1 && next <= run.end, "a take beyond the front run");
        if next == run.end {
            self.runs.pop_front();
        } else {
            run.head.index = next;
        }
        self.cells -= usize::from(cells);
        Some(taken)
    }
}

/// Cells taken at once from the front run of a [`CellRuns`].
#[derive(Clone, Copy, Debug)]
pub struct Taken {
    run: Run,
}

impl Taken {
    /// The `j`-th cell taken (from 0).
    #[inline(always)]
    pub fn cell(&self, j: u16) -> Cell {
        let mut cell = self.run.head;
        cell.index += j;
        cell.end_of_frame = self.run.ends_frame && cell.index + 1 == self.run.end;
        cell
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::CellKind;
    use celltrain_core::ids::{FrameId, VcId};
    use celltrain_core::time::SimTime;

    fn frame_cell(vc: u32, frame: u32, index: u16, cells: u16) -> Cell {
        Cell {
            vc: VcId(vc),
            frame: FrameId(frame),
            index,
            hop: 0,
            end_of_frame: index + 1 == cells,
            clp: false,
            efci: false,
            kind: CellKind::Aal5,
            entered: SimTime::ZERO,
        }
    }

    #[test]
    fn a_frame_pushed_as_a_run_leaves_as_its_cells() {
        let mut q = CellRuns::new();
        q.push_run(frame_cell(3, 7, 0, 4), 4, true);
        assert_eq!(q.len(), 4);
        let out: Vec<Cell> = std::iter::from_fn(|| q.pop_front()).collect();
        assert_eq!(out, (0..4).map(|i| frame_cell(3, 7, i, 4)).collect::<Vec<_>>());
        assert!(q.is_empty());
    }

    #[test]
    fn a_cut_run_does_not_end_its_frame() {
        let mut q = CellRuns::new();
        q.push_run(frame_cell(1, 2, 0, 10), 3, false);
        let out: Vec<Cell> = std::iter::from_fn(|| q.pop_front()).collect();
        assert_eq!(out.len(), 3);
        assert!(out.iter().all(|c| !c.end_of_frame));
        assert_eq!(out[2].index, 2);
    }

    /// Cells taken at once are the cells popped one by one, the front run's end included.
    #[test]
    fn a_take_makes_the_cells_pop_front_would() {
        let (mut one, mut many) = (CellRuns::new(), CellRuns::new());
        for q in [&mut one, &mut many] {
            q.push_run(frame_cell(3, 7, 0, 9), 9, true);
            q.push_back(Cell::raw(VcId(4)));
        }
        assert_eq!(many.front_run_cells(), 9);
        let first = many.take_front(4).expect("cells wait");
        assert_eq!(many.front_run_cells(), 5);
        let rest = many.take_front(5).expect("cells wait");
        let taken: Vec<Cell> = (0..4).map(|j| first.cell(j)).chain((0..5).map(|j| rest.cell(j))).collect();
        let popped: Vec<Cell> = (0..9).map(|_| one.pop_front().expect("cells wait")).collect();
        assert_eq!(taken, popped);
        assert!(taken[8].end_of_frame && !taken[7].end_of_frame);
        assert_eq!((many.len(), many.front_run_cells()), (1, 1));
        assert_eq!(many.pop_front(), one.pop_front());
        assert_eq!((many.take_front(1).map(|t| t.cell(0)), many.front_run_cells()), (None, 0));
    }

    #[test]
    fn an_empty_run_is_nothing() {
        let mut q = CellRuns::new();
        q.push_run(frame_cell(1, 2, 0, 10), 0, true);
        assert!(q.is_empty());
        assert_eq!(q.pop_front(), None);
    }

    /// Against a plain FIFO of cells, over random frames, cut runs, single cells, pops and takes.
    #[test]
    fn agrees_with_a_fifo_of_cells() {
        let mut rng = celltrain_core::rng::RngStream::derive(11, "cell-runs");
        for _ in 0..200 {
            let (mut runs, mut fifo) = (CellRuns::new(), VecDeque::new());
            for step in 0..60u32 {
                match rng.below(4) {
                    0 | 1 => {
                        let cells = 1 + rng.below(40) as u16;
                        let count = 1 + rng.below(u64::from(cells)) as u16;
                        for i in 0..count {
                            fifo.push_back(frame_cell(step % 5, step, i, cells));
                        }
                        let mut first = frame_cell(step % 5, step, 0, cells);
                        first.clp = step % 3 == 0;
                        for c in fifo.iter_mut().rev().take(usize::from(count)) {
                            c.clp = first.clp;
                            c.end_of_frame = c.end_of_frame && count == cells;
                        }
                        runs.push_run(first, count, count == cells);
                    }
                    2 => {
                        let cell = Cell::raw(VcId(step));
                        fifo.push_back(cell);
                        runs.push_back(cell);
                    }
                    3 if runs.front_run_cells() > 0 && rng.below(2) == 0 => {
                        let k = 1 + rng.below(u64::from(runs.front_run_cells())) as u16;
                        let taken = runs.take_front(k).expect("cells wait");
                        for j in 0..k {
                            assert_eq!(Some(taken.cell(j)), fifo.pop_front());
                        }
                    }
                    _ => {
                        for _ in 0..rng.below(30) {
                            assert_eq!(runs.pop_front(), fifo.pop_front());
                        }
                    }
                }
                assert_eq!(runs.len(), fifo.len());
            }
            while let Some(c) = fifo.pop_front() {
                assert_eq!(runs.pop_front(), Some(c));
            }
            assert_eq!(runs.pop_front(), None);
        }
    }
}
