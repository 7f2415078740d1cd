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
/// fan-in group's link, which keeps its cells as a train: see `fan_in`); and the last burst
/// handed over whole.
#[derive(Debug, Default)]
pub(crate) struct Starts {
    /// One by one, in order.
    pub(super) times: Ring<SimTime>,
    /// After `times`: runs of back-to-back slots.
    pub(super) runs: VecDeque<StartRun>,
    /// The last burst handed over whole: its cells are not in the buffer; they enter the
    /// adapter when they start, as the source emits them.
    pub(super) handed: HandedBurst,
    /// Times a cell's start time was kept behind runs, which then became one-by-one times (for
    /// the tests: the path is taken).
    pub(super) runs_spread: u64,
}

impl Starts {
    /// Cells admitted that have not started yet (a handed-over burst's aside).
    pub(super) fn cells_not_started(&self) -> u64 {
        self.times.len() as u64 + self.runs.iter().map(StartRun::cells_left).sum::<u64>()
    }

    /// Whether every cell admitted has started (a handed-over burst's aside).
    #[inline]
    pub(super) fn all_started(&self) -> bool {
        self.times.is_empty() && self.runs.is_empty()
    }

    /// A cell admitted starts at `start`.
    #[inline(always)]
    pub(super) fn push(&mut self, start: SimTime) {
        if !self.runs.is_empty() {
            self.runs_to_times();
        }
        self.times.push_back(start);
    }

    /// The runs' start times join the ones kept one by one (a cell queued behind them).
    #[cold]
    #[inline(never)]
    pub(super) fn runs_to_times(&mut self) {
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
    pub(crate) const NONE: HandedBurst =
        HandedBurst { vc: VcId(0), start: SimTime::ZERO, rate: BitRate::from_bps(1), cells: 0, started: 0 };

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
    fn default() -> Self {
        HandedBurst::NONE
    }
}
