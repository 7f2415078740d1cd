//! The transmitter's slot clock of a port.

use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::units::{BitRate, SlotCounter};

/// The transmitter's slot clock: cell k of a busy period starts at origin + k·(424 / rate),
/// computed from k so it never drifts (`docs/references.md#cell-and-link-rates`).
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

/// The slots a busy transmitter gives its next cells, one after another: the clock's own
/// arithmetic, so the same picoseconds, for as long as the busy period lasts.
#[derive(Clone, Copy, Debug)]
pub struct SlotCursor {
    origin: SimTime,
    slots: SlotCounter,
}

impl SlotCursor {
    /// The next slot's start.
    #[inline]
    pub fn advance(&mut self) -> SimTime {
        self.origin.later_by(self.slots.advance())
    }

    /// Advances `k` slots (one or more) at once; returns the last one's start.
    pub fn advance_by(&mut self, k: u64) -> SimTime {
        self.origin + self.slots.advance_by(k)
    }

    /// How many of the next slots start no later than `at`.
    pub fn slots_by(&self, at: SimTime) -> u128 {
        self.slots.slots_within(at.saturating_since(self.origin))
    }

    /// The sum of the next `k` slots' starts, in picoseconds, without moving.
    pub fn sum_next(&self, k: u128) -> u128 {
        k * u128::from(self.origin.as_picos()) + self.slots.sum_next(k)
    }
}

/// The start times of a run of cells put on the wire back to back: `next`, then `then`, then
/// the slots of `slots`, `more` of them after `next` in all.
#[derive(Clone, Debug)]
pub struct StartRun {
    pub next: SimTime,
    /// The start after `next`, if `more` > 0.
    pub then: SimTime,
    /// The slots after `then`.
    pub slots: SlotCursor,
    /// Starts after `next`.
    pub more: u32,
}

impl StartRun {
    /// Steps to the next start; false when the run has ended.
    #[inline]
    pub fn step(&mut self) -> bool {
        if self.more == 0 {
            return false;
        }
        self.step_on();
        true
    }

    /// Steps to the next start, which there is (`more` > 0: the caller knows it).
    #[inline(always)]
    pub fn step_on(&mut self) {
        debug_assert!(self.more > 0, "a run stepped past its end");
        self.more -= 1;
        self.next = self.then;
        self.then = self.slots.advance();
    }

    /// Its start times, in order.
    pub fn times(mut self) -> impl Iterator<Item = SimTime> {
        let first = self.next;
        std::iter::once(first).chain(std::iter::from_fn(move || self.step().then_some(self.next)))
    }

    /// Start times not passed yet.
    pub fn cells_left(&self) -> u64 {
        1 + u64::from(self.more)
    }
}

impl TxClock {
    /// A cursor at `free_at()`: its [`advance`](SlotCursor::advance) gives the slot that follows
    /// `free_at()`, then the next, and so on: the slots the clock gives cells started back to
    /// back from `free_at()` on, in the same busy period.
    pub fn cursor(&self) -> SlotCursor {
        SlotCursor { origin: self.origin, slots: self.slots }
    }

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
    /// How long a cell takes on the wire, rounded up: no cell ends later after its start.
    pub fn line_cell_time(&self) -> SimDuration {
        self.line_cell_time
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
    /// Starts `cells` cells back to back from `from` on: as `cells` calls of
    /// [`start`](Self::start) at `free_at().max(from)`, in one step (the clock ends where they
    /// would leave it; their times are not needed).
    pub fn start_run(&mut self, cells: u32, from: SimTime) {
        if cells == 0 {
            return;
        }
        self.start(self.free_at.max(from));
        // The others start when the one before ends its slot: one busy period.
        let more = u64::from(cells - 1);
        if more > 0 {
            self.count += more;
            self.free_at = self.origin + self.slots.advance_by(more);
        }
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
        self.free_at = self.origin.later_by(self.slots.advance());
        // At line rate the cell ends exactly when the next slot starts; a paced NIC still
        // sends each cell at line rate.
        self.free_at.min(now.later_by(self.line_cell_time))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run's clock is the clock of its cells started one by one, from idle and from busy.
    #[test]
    fn a_run_leaves_the_clock_as_its_cells_do() {
        let t = SimTime::from_picos;
        for (line, service) in [(155_520_000, 31_104_000), (149_760_000, 149_760_000), (1_000_000, 999_999)] {
            let (line, service) = (BitRate::from_bps(line), BitRate::from_bps(service));
            let mut one = TxClock::new(line, service);
            let mut run = one.clone();
            for (cells, from) in [(1u32, t(5)), (40, t(100)), (0, t(200)), (7, t(0)), (300, t(9_000_000_000))] {
                for _ in 0..cells {
                    one.start(one.free_at().max(from));
                }
                run.start_run(cells, from);
                assert_eq!((run.free_at(), run.is_idle_at(from)), (one.free_at(), one.is_idle_at(from)));
                let at = one.free_at();
                assert_eq!(run.start(at), one.start(at), "the next cell continues the busy period");
            }
        }
    }
}
