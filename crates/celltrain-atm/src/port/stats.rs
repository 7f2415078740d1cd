//! Counters of an output port over the measurement window.

use crate::drop_reason::DropReason;
use celltrain_core::time::SimTime;

/// Counters of a port over the measurement window. Identity (checked in tests):
/// `cells_in = cells_out + dropped_total + queued_now − queued_at_start`.
///
/// Laid out in the order written (`repr(C)`): what every cell offered or sent counts first, the
/// drop counters last.
#[derive(Clone, Debug, Default, PartialEq)]
#[repr(C)]
pub struct PortStats {
    pub cells_in: u64,
    pub cells_out: u64,
    /// ∫ occupancy dt over the window, in cell·picoseconds.
    queue_area: u128,
    last_change: SimTime,
    pub max_queue_cells: u32,
    /// Occupancy when the window opened.
    pub queued_at_start: u32,
    window_start: SimTime,
    pub dropped: [u64; DropReason::COUNT],
}

impl PortStats {
    /// Counters of a window opening at `now` with `occupancy` cells queued.
    pub(super) fn opened(now: SimTime, occupancy: u32) -> Self {
        PortStats {
            queued_at_start: occupancy,
            max_queue_cells: occupancy,
            last_change: now,
            window_start: now,
            ..PortStats::default()
        }
    }
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
    /// `cells` departures (two or more) from `before` cells queued, the last at `last`, the
    /// others at times no earlier than the last change whose sum is `others` (picoseconds): as
    /// many calls of [`on_occupancy_change`](Self::on_occupancy_change), in one step. The area
    /// they add, Σ (before − i)·(t_{i+1} − t_i) from the last change t_0, telescopes to
    /// before·(last − t_0) − Σ_{i<cells} (last − t_i).
    pub(super) fn on_departures(&mut self, before: u32, cells: u64, last: SimTime, others: u128) {
        debug_assert!(cells >= 2 && u64::from(before) >= cells);
        let last_ps = u128::from(last.as_picos());
        let span = u128::from(last.saturating_since(self.last_change).as_picos());
        self.queue_area += u128::from(before) * span - (u128::from(cells - 1) * last_ps - others);
        self.last_change = last;
    }

    /// When the occupancy last changed.
    pub(super) fn last_change(&self) -> SimTime {
        self.last_change
    }

    pub(super) fn on_occupancy_change(&mut self, now: SimTime, before: u32) {
        // (A departure made late, `queues_ahead`, is still made before any later change.)
        debug_assert!(now >= self.last_change, "occupancy change at {now:?} after one at {:?}", self.last_change);
        self.queue_area += u128::from(before) * u128::from(now.saturating_since(self.last_change).as_picos());
        self.last_change = now;
    }
}
