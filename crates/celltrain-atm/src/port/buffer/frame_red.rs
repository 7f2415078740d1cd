//! Per-VC scheduling with frame-level RED (BN01, "Per-VC Scheduling and RED", after
//! Nelissen & De Cnodder 1999 and the ATM RED of Elloumi & Afifi 1997): RED runs on the average
//! occupancy of the whole buffer, updated once per frame at its first cell, and decides for
//! whole frames; each VC has two thresholds on its own queue, low < high.
//!
//! Below its low threshold a VC's frames are all accepted; between its thresholds CLP = 0
//! frames are accepted and RED decides for CLP = 1 frames; from its high threshold on RED
//! decides for every frame. A full buffer falls back to PPD.
//!
//! RED's idle time starts when the buffer empties. The policy is not told of departures (a
//! hook on every departure of every port cost the other networks about 3 %); it takes the
//! buffer to empty q·s after the last arrival that left it holding q cells, s being RED's idle
//! unit (by default one cell time at the line rate): exact to a cell time for a port that
//! serves this buffer alone, at its line rate, whenever it holds cells.

use super::frame_gate::FrameGates;
use super::gfr_keys::{required, Thresholds, GFR_KEYS, RED_POOL_THRESHOLDS};
use super::red::{Red, RedParams};
use super::{AcceptancePolicy, Admission, Occupancy, PortShape};
use crate::cell::Cell;
use crate::drop_reason::DropReason;
use celltrain_core::rng::RngStream;
use celltrain_core::time::SimTime;
use celltrain_core::Keys;

/// Frame-level RED's configuration: RED on the whole buffer and each VC's two thresholds
/// (the same for every VC; BN01 leaves them to the implementer).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameRedConfig {
    pub red: RedParams,
    pub vc_low_cells: u32,
    pub vc_high_cells: u32,
}

#[derive(Clone, Debug)]
pub struct FrameRed {
    vc_low: u32,
    vc_high: u32,
    red: Red,
    gates: FrameGates,
    /// The last arrival, and the cells the buffer held after it (see the module's note).
    last_arrival: SimTime,
    held_after: u32,
}

impl FrameRed {
    pub fn new(vcs: usize, config: FrameRedConfig, rng: RngStream) -> Self {
        FrameRed {
            vc_low: config.vc_low_cells,
            vc_high: config.vc_high_cells,
            red: Red::new(config.red, rng),
            gates: FrameGates::new(vcs),
            last_arrival: SimTime::ZERO,
            held_after: 0,
        }
    }

    /// The RED state (the average, for observers and tests).
    pub fn red(&self) -> &Red {
        &self.red
    }
}

impl AcceptancePolicy for FrameRed {
    const NAME: &'static str = "frame-red";
    const KEYS: &'static [&'static str] = GFR_KEYS;
    const NEEDS_KEYS: bool = true;
    const POOL_THRESHOLDS: &'static [&'static str] = RED_POOL_THRESHOLDS;
    const QUEUES_PER_VC_BY_DEFAULT: bool = true;
    type Config = FrameRedConfig;

    fn read_config<K: Keys>(keys: &K, port: PortShape) -> Result<FrameRedConfig, K::Error> {
        let t = Thresholds::read(keys, port)?;
        let red = t.red.ok_or_else(|| {
            keys.error(format!("discard = \"{}\" needs `red_min_th`, `red_max_th` and `red_max_p`", Self::NAME))
        })?;
        Ok(FrameRedConfig {
            red,
            vc_low_cells: required(keys, Self::NAME, t.vc_low_cells, "vc_low_threshold")?,
            vc_high_cells: required(keys, Self::NAME, t.vc_high_cells, "vc_high_threshold")?,
        })
    }

    fn build(config: FrameRedConfig, vcs: usize, _capacity: u32, rng: RngStream) -> Self {
        FrameRed::new(vcs, config, rng)
    }
    const READS_VC_CELLS: bool = true;

    fn admit(&mut self, cell: &Cell, now: SimTime, at: Occupancy) -> Admission {
        let (low, high) = (self.vc_low, self.vc_high);
        let red = &mut self.red;
        let first = self.gates.awaits_first(at.slot) && cell.kind != crate::cell::CellKind::Rm;
        if first {
            if at.pool_cells == 0 {
                // Emptied q·s after the last arrival left q cells (and not after now).
                let drained = self.last_arrival + red.idle_unit().saturating_mul(u64::from(self.held_after));
                red.on_empty(drained.min(now));
            }
            red.update(at.pool_cells, now);
        }
        let admission = self.gates.admit(cell, at.slot, at.has_room(), || {
            let red_decides = at.vc_cells >= high || (at.vc_cells >= low && cell.clp);
            (red_decides && red.decide()).then_some(DropReason::EarlyPacketDiscard)
        });
        self.last_arrival = now;
        self.held_after = at.pool_cells + u32::from(admission == Admission::Accept);
        admission
    }
}
