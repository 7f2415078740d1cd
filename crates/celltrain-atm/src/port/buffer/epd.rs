//! Early Packet Discard (Romanow & Floyd 1995, "Dynamics of TCP traffic over ATM networks"):
//! the decision is taken at the first cell of each frame: refuse the whole frame if the pool
//! holds `threshold` cells or more. Overflow inside an accepted frame falls back to PPD, which
//! keeps the frame's end-of-frame cell when there is room.
//!
//! Keeping the refused frame's EOM is an option: some switches keep it (the Fore ASX-200 of
//! Lorang, Renger, Pettersen et al., "Experiments on Integrated Traffic Control for ATM in the
//! ACTS Project EXPERT"), so that a receiver whose previous frame lost its own EOM upstream
//! closes that damaged frame here instead of merging it with the next good one.

use super::threshold::{self, EpdThreshold, THRESHOLD_KEYS};
use super::{AcceptancePolicy, Admission, Occupancy, PortShape};
use crate::cell::{Cell, CellKind};
use crate::drop_reason::DropReason;
use celltrain_core::rng::RngStream;
use celltrain_core::time::SimTime;
use celltrain_core::Keys;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EpdState {
    /// The next cell starts a frame: the decision is taken there.
    AwaitingFirst,
    Accepting,
    /// The whole frame was refused at its first cell (by default its end-of-frame cell is
    /// dropped too: the previous frame ended cleanly, so the receiver sees no partial frame).
    DroppingEpd,
    /// An accepted frame overflowed: PPD for the rest of it, keeping the end-of-frame cell.
    DroppingPpd,
}

/// EPD with its options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpdConfig {
    pub threshold: EpdThreshold,
    /// Keep the last cell (EOM) of a frame refused at its first cell, when there is room (the
    /// Fore ASX-200 of Lorang, Renger, Pettersen et al., "Experiments on Integrated Traffic
    /// Control for ATM in the ACTS Project EXPERT", does). Off: the whole refused frame is
    /// dropped.
    pub keep_refused_eom: bool,
}

impl EpdConfig {
    /// EPD at `threshold`, dropping a refused frame whole.
    pub const fn new(threshold: EpdThreshold) -> Self {
        EpdConfig { threshold, keep_refused_eom: false }
    }
}

/// EPD with per-VC frame state.
#[derive(Clone, Debug)]
pub struct Epd {
    threshold: u32,
    /// Keep the end-of-frame cell of a frame refused at its first cell (if there is room).
    keep_refused_eom: bool,
    state: Vec<EpdState>,
}

impl AcceptancePolicy for Epd {
    const NAME: &'static str = "epd";
    const KEYS: &'static [&'static str] = &[THRESHOLD_KEYS[0], THRESHOLD_KEYS[1], "epd_keep_eom"];
    type Config = EpdConfig;

    /// The threshold by default: MSc98's min{0.8·B, B − 3·MTU}.
    fn read_config<K: Keys>(keys: &K, port: PortShape) -> Result<EpdConfig, K::Error> {
        let threshold = threshold::read(keys, port, EpdThreshold::MSc98 { mtu_cells: port.mtu_cells })?;
        Ok(EpdConfig { threshold, keep_refused_eom: keys.flag("epd_keep_eom")?.unwrap_or(false) })
    }

    fn pool_problem<K: Keys>(config: &EpdConfig, keys: &K, capacity: u32) -> Option<String> {
        threshold::pool_problem(config.threshold, keys, capacity)
    }

    fn build(config: EpdConfig, vcs: usize, capacity: u32, _rng: RngStream) -> Self {
        Epd::new(vcs, config.threshold.cells_in(capacity)).keeping_refused_eom(config.keep_refused_eom)
    }

    fn report_name(&self) -> &'static str {
        if self.keep_refused_eom {
            "epd-keep-eom"
        } else {
            Self::NAME
        }
    }

    #[inline(always)]
    fn admit(&mut self, cell: &Cell, _now: SimTime, at: Occupancy) -> Admission {
        // Most cells: inside an accepted frame, with room, not its last: the state stays
        // (decided here, inline; the rest out of line). An RM cell with room is accepted in any
        // state, and changes none.
        let room = at.has_room();
        if self.state[at.slot as usize] == EpdState::Accepting && room && !cell.end_of_frame {
            return Admission::Accept;
        }
        self.decide(cell, at.slot, at.pool_cells, room)
    }
}

impl Epd {
    pub fn new(vcs: usize, threshold_cells: u32) -> Self {
        Epd { threshold: threshold_cells, keep_refused_eom: false, state: vec![EpdState::AwaitingFirst; vcs] }
    }

    /// EPD that keeps the last cell of each refused frame when there is room. A one-cell frame
    /// refused at its first cell is still dropped: that cell is the refused frame itself.
    pub fn keeping_refused_eom(mut self, keep: bool) -> Self {
        self.keep_refused_eom = keep;
        self
    }

    pub fn threshold(&self) -> u32 {
        self.threshold
    }

    pub fn keeps_refused_eom(&self) -> bool {
        self.keep_refused_eom
    }

    /// `cell` of the VC in `slot` arrives at a pool holding `pool_cells`; `room`: the pool can
    /// take one more cell; not a cell inside an accepted frame, with room, not its last (`admit`
    /// takes those). (Out of line and given only what EPD reads, as PPD's: see
    /// [`super::Ppd`]'s `decide`.)
    #[inline(never)]
    fn decide(&mut self, cell: &Cell, slot: u32, pool_cells: u32, room: bool) -> Admission {
        let slot = slot as usize;
        // An RM cell is not part of the VC's frames: it neither starts nor ends one.
        if cell.kind == CellKind::Rm {
            return if room { Admission::Accept } else { Admission::Drop(DropReason::BufferFull) };
        }
        let mut state = self.state[slot];
        let first = state == EpdState::AwaitingFirst;
        if first {
            state = if pool_cells < self.threshold { EpdState::Accepting } else { EpdState::DroppingEpd };
        }
        let eom = cell.end_of_frame;
        let admission = match state {
            EpdState::DroppingEpd if eom && !first && self.keep_refused_eom => {
                if room {
                    Admission::Accept
                } else {
                    Admission::Drop(DropReason::BufferFull)
                }
            }
            EpdState::DroppingEpd => Admission::Drop(DropReason::EarlyPacketDiscard),
            EpdState::DroppingPpd if eom && room => Admission::Accept,
            EpdState::DroppingPpd => Admission::Drop(DropReason::PartialPacketDiscard),
            EpdState::Accepting if room => Admission::Accept,
            EpdState::Accepting => {
                state = EpdState::DroppingPpd;
                Admission::Drop(DropReason::BufferFull)
            }
            EpdState::AwaitingFirst => unreachable!("decided above"),
        };
        self.state[slot] = if eom { EpdState::AwaitingFirst } else { state };
        admission
    }
}
