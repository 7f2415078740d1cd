//! An analytic port's cells admitted and not started yet: their start times one by one, then
//! by runs, and the burst handed over whole, which is not in the buffer at all.

use celltrain_atm::port::StartRun;
use celltrain_core::ids::VcId;
use celltrain_core::ring::Ring;
use celltrain_core::time::SimTime;
use celltrain_core::units::BitRate;
use std::collections::VecDeque;

/// Start times of the cells admitted to an analytic port that have not started yet: one by
/// one, then (later ones) by runs of cells put on the wire back to back (a frame queued on a
/// link with trains, a fan-in group's or a lone one's, which keeps its cells as a train: see
/// `fan_in`); and the last burst handed over whole.
#[derive(Debug, Default)]
pub(crate) struct Starts {
    /// One by one, in order. (Read and popped in place by the analytic port's departures,
    /// `Port::release_queued` and the lifted loops: the same loop behind a method of its own
    /// ran 2.4 % to 5 % more instructions on `bench null`, however it was written.)
    pub(super) times: Ring<SimTime>,
    /// After `times`: runs of back-to-back slots.
    runs: VecDeque<StartRun>,
    /// The last burst handed over whole: its cells are not in the buffer; they enter the
    /// adapter when they start, as the source emits them.
    handed: HandedBurst,
    /// Times a cell's start time was kept behind runs, which then became one-by-one times (for
    /// the tests: the path is taken).
    runs_spread: u64,
}

impl Starts {
    /// Of the cells kept one by one, those that start by `t` (at the front: starts increase).
    pub(super) fn started_by(&self, t: SimTime) -> u32 {
        u32::try_from(self.times.iter().take_while(|&start| start <= t).count()).expect("a port's cells fit 32 bits")
    }

    /// Cells admitted that have not started yet (a handed-over burst's aside).
    pub(super) fn cells_not_started(&self) -> u64 {
        self.times.len() as u64 + self.runs.iter().map(StartRun::cells_left).sum::<u64>()
    }

    /// Whether every cell admitted has started (a handed-over burst's aside).
    #[inline]
    pub(super) fn all_started(&self) -> bool {
        self.times.is_empty() && self.runs.is_empty()
    }

    /// Whether no start time is kept by runs.
    #[inline(always)]
    pub(super) fn no_runs(&self) -> bool {
        self.runs.is_empty()
    }

    /// Whether a cell admitted now with start time `start` passes straight through: it starts
    /// now, and no cell kept one by one waits before it. (Where runs may be kept, ask
    /// [`all_started`](Self::all_started) too.)
    #[inline(always)]
    pub(super) fn passes(&self, start: SimTime, now: SimTime) -> bool {
        self.times.is_empty() && start == now
    }

    /// A cell admitted starts at `start`.
    #[inline(always)]
    pub(super) fn push(&mut self, start: SimTime) {
        if !self.runs.is_empty() {
            self.runs_to_times();
        }
        self.times.push_back(start);
    }

    /// A cell admitted starts at `start`, at a port that keeps no start times by runs.
    #[inline(always)]
    pub(super) fn push_one_by_one(&mut self, start: SimTime) {
        debug_assert!(self.runs.is_empty(), "a start time kept one by one behind runs");
        self.times.push_back(start);
    }

    /// Cells admitted start at `starts`, in order, behind those kept already.
    pub(super) fn extend(&mut self, starts: impl IntoIterator<Item = SimTime>) {
        if !self.runs.is_empty() {
            self.runs_to_times();
        }
        self.times.extend(starts);
    }

    /// A frame's start times, as a run of the clock's slots, behind the others.
    pub(super) fn push_run(&mut self, run: StartRun) {
        self.runs.push_back(run);
    }

    /// The runs whose cells have all started leave, in order: `depart` releases what started
    /// of the first run and answers whether the run is done.
    #[inline(always)]
    pub(super) fn release_runs_by(&mut self, mut depart: impl FnMut(&mut StartRun) -> bool) {
        while let Some(run) = self.runs.front_mut() {
            if !depart(run) {
                break;
            }
            self.runs.pop_front();
        }
    }

    /// Whether runs are kept with no start time one by one before them (the runs' start times
    /// are then the next to come).
    #[inline(always)]
    pub(super) fn only_runs(&self) -> bool {
        self.times.is_empty() && !self.runs.is_empty()
    }

    /// The burst handed over whole (a burst of no cells when none).
    #[inline(always)]
    pub(super) fn handed(&self) -> &HandedBurst {
        &self.handed
    }

    /// A burst is handed over whole (the last has started entirely).
    pub(super) fn hand_over(&mut self, burst: HandedBurst) {
        debug_assert_eq!(self.handed.pending(), 0, "a burst handed over before the last started");
        self.handed = burst;
    }

    /// Counts in the handed burst's cells that have started by `now`; returns how many.
    #[inline(always)]
    pub(super) fn release_handed(&mut self, now: SimTime) -> u32 {
        self.handed.release(now)
    }

    /// Times a start time was kept behind runs (for the tests).
    pub(super) fn runs_spread(&self) -> u64 {
        self.runs_spread
    }

    /// The runs' start times join the ones kept one by one (a cell queued behind them).
    #[cold]
    #[inline(never)]
    fn runs_to_times(&mut self) {
        self.runs_spread += 1;
        for run in self.runs.drain(..) {
            self.times.extend(run.times());
        }
    }
}

/// An on/off burst handed whole to its adapter (see [`Network::hand_over_burst`]): its k-th
/// cell starts at `start + ⌈k·424/rate⌉` (k < `cells`), the adapter's own slots from an idle
/// start; the first `started` have been counted in.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HandedBurst {
    pub(crate) vc: VcId,
    pub(crate) start: SimTime,
    pub(crate) rate: BitRate,
    pub(crate) cells: u32,
    pub(crate) started: u32,
}

impl HandedBurst {
    /// Cells not started yet.
    pub(super) fn pending(&self) -> u32 {
        self.cells - self.started
    }

    /// Counts in the cells that have started by `now` (k·424/rate ≤ now − start, as the slot's
    /// start is a whole picosecond); returns how many were not counted before.
    #[inline]
    pub(super) fn release(&mut self, now: SimTime) -> u32 {
        if self.started == self.cells || now < self.start {
            return 0;
        }
        let by_now = 1 + self.rate.cell_slots_floor(now.saturating_since(self.start));
        let started = u32::try_from(by_now.min(u64::from(self.cells))).expect("at most `cells`");
        let passed = started - self.started;
        self.started = started;
        passed
    }
}

impl Default for HandedBurst {
    /// No burst: no cells.
    fn default() -> Self {
        HandedBurst { vc: VcId(0), start: SimTime::ZERO, rate: BitRate::from_bps(1), cells: 0, started: 0 }
    }
}
