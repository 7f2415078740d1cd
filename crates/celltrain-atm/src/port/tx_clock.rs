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

impl TxClock {
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
    /// When the transmitter may start its next cell.
    pub fn free_at(&self) -> SimTime {
        self.free_at
    }
    /// Whether a cell starting at `now` begins a new busy period (the transmitter has been
    /// idle since before `now`, or has never sent), so that its slots are counted from `now`.
    pub fn is_idle_at(&self, now: SimTime) -> bool {
        now > self.free_at || self.count == 0
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
        self.free_at = self.origin + self.slots.advance();
        // At line rate the cell ends exactly when the next slot starts; a paced NIC still
        // sends each cell at line rate.
        self.free_at.min(now + self.line_cell_time)
    }
}
