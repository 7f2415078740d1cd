//! Buffer acceptance policies: whether an arriving cell may enter a buffer pool.
//!
//! Per-VC "discarding this frame" state lives here, not in the cell (style §2.6). Policies see
//! the pool's occupancy and capacity and a dense per-port VC index `slot`.

use crate::cell::Cell;
use std::fmt;

/// Why a cell was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DropReason {
    /// The pool was full (cell-level tail drop, or the first loss of a frame under PPD/EPD).
    BufferFull,
    /// EPD refused a whole frame at its first cell (occupancy at or above the threshold).
    EarlyPacketDiscard,
    /// The rest of a frame that already lost a cell (PPD).
    PartialPacketDiscard,
    /// A CLP = 1 cell arrived with the pool at or above the port's CLP = 1 threshold.
    ClpThreshold,
}

impl DropReason {
    pub const COUNT: usize = 4;
    pub const ALL: [DropReason; Self::COUNT] =
        [Self::BufferFull, Self::EarlyPacketDiscard, Self::PartialPacketDiscard, Self::ClpThreshold];

    pub const fn name(self) -> &'static str {
        match self {
            Self::BufferFull => "buffer_full",
            Self::EarlyPacketDiscard => "epd",
            Self::PartialPacketDiscard => "ppd",
            Self::ClpThreshold => "clp1",
        }
    }
}

/// The decision for one arriving cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    Accept,
    Drop(DropReason),
}

/// Decides whether an arriving cell may enter a buffer pool.
pub trait BufferPolicy: fmt::Debug {
    fn name(&self) -> &'static str;
    /// `occupancy` and `capacity` are the pool's, in cells; `slot` is the VC's per-port index.
    fn admit(&mut self, cell: &Cell, slot: usize, occupancy: u32, capacity: u32) -> Admission;
    /// Whether the policy accepts every cell while the pool has room, keeping no state: a run
    /// of cells that fits may then be admitted at once.
    fn accepts_while_room(&self) -> bool {
        false
    }
}

/// Cell-level tail drop: accept while there is room.
#[derive(Debug, Default)]
pub struct TailDrop;

impl BufferPolicy for TailDrop {
    fn name(&self) -> &'static str {
        "tail-drop"
    }
    fn accepts_while_room(&self) -> bool {
        true
    }
    fn admit(&mut self, _cell: &Cell, _slot: usize, occupancy: u32, capacity: u32) -> Admission {
        if occupancy < capacity {
            Admission::Accept
        } else {
            Admission::Drop(DropReason::BufferFull)
        }
    }
}

/// Partial Packet Discard (reference §3.1): after a frame loses a cell to overflow, the rest
/// of it is dropped, except its end-of-frame cell, which is kept (if there is room) so that
/// the receiver delimits the damaged frame and does not merge it with the next one.
#[derive(Debug)]
pub struct Ppd {
    /// Per VC: the current frame already lost a cell.
    discarding: Vec<bool>,
}

impl Ppd {
    pub fn new(vcs: usize) -> Self {
        Ppd { discarding: vec![false; vcs] }
    }
}

impl BufferPolicy for Ppd {
    fn name(&self) -> &'static str {
        "ppd"
    }
    fn admit(&mut self, cell: &Cell, slot: usize, occupancy: u32, capacity: u32) -> Admission {
        let room = occupancy < capacity;
        if self.discarding[slot] {
            if cell.end_of_frame {
                self.discarding[slot] = false;
                if room {
                    return Admission::Accept;
                }
                return Admission::Drop(DropReason::BufferFull);
            }
            return Admission::Drop(DropReason::PartialPacketDiscard);
        }
        if room {
            return Admission::Accept;
        }
        // First loss in the frame; an end-of-frame cell closes the frame by itself.
        self.discarding[slot] = !cell.end_of_frame;
        Admission::Drop(DropReason::BufferFull)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EpdState {
    Accepting,
    /// The whole frame was refused at its first cell (its end-of-frame cell is dropped too:
    /// the previous frame ended cleanly, so the receiver sees no partial frame).
    DroppingEpd,
    /// An accepted frame overflowed: PPD for the rest of it, keeping the end-of-frame cell.
    DroppingPpd,
}

/// Early Packet Discard (reference §3.2): the decision is taken at the first cell of each
/// frame: refuse the whole frame if the pool holds `threshold` cells or more. Overflow inside
/// an accepted frame falls back to PPD.
#[derive(Debug)]
pub struct Epd {
    threshold: u32,
    /// Per VC: the next cell starts a frame.
    first_cell: Vec<bool>,
    state: Vec<EpdState>,
}

impl Epd {
    pub fn new(vcs: usize, threshold_cells: u32) -> Self {
        Epd { threshold: threshold_cells, first_cell: vec![true; vcs], state: vec![EpdState::Accepting; vcs] }
    }
    pub fn threshold(&self) -> u32 {
        self.threshold
    }
}

impl BufferPolicy for Epd {
    fn name(&self) -> &'static str {
        "epd"
    }
    fn admit(&mut self, cell: &Cell, slot: usize, occupancy: u32, capacity: u32) -> Admission {
        if self.first_cell[slot] {
            self.state[slot] = if occupancy < self.threshold { EpdState::Accepting } else { EpdState::DroppingEpd };
        }
        self.first_cell[slot] = cell.end_of_frame;
        let room = occupancy < capacity;
        match self.state[slot] {
            EpdState::DroppingEpd => Admission::Drop(DropReason::EarlyPacketDiscard),
            EpdState::DroppingPpd if cell.end_of_frame && room => Admission::Accept,
            EpdState::DroppingPpd => Admission::Drop(DropReason::PartialPacketDiscard),
            EpdState::Accepting if room => Admission::Accept,
            EpdState::Accepting => {
                self.state[slot] = EpdState::DroppingPpd;
                Admission::Drop(DropReason::BufferFull)
            }
        }
    }
}

/// How an EPD threshold is given; resolved against the pool size it applies to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EpdThreshold {
    /// An absolute number of cells.
    Cells(u32),
    /// A fraction of the pool.
    Fraction(f64),
    /// Seed 004's normalised excess capacity b: threshold = B − b·MTU (in cells); b = 0 is PPD.
    ExcessMtus { b: f64, mtu_cells: u32 },
    /// Seed 001's rule: min{0.8·B, B − 3·MTU} (in cells).
    Seed001 { mtu_cells: u32 },
}

impl EpdThreshold {
    /// The threshold in cells for a pool of `capacity` cells, rounded down (an EPD threshold
    /// is a "refuse at or above" bound: rounding down never admits a frame the rule refuses).
    pub fn resolve(self, capacity: u32) -> i64 {
        let b = f64::from(capacity);
        let cells = match self {
            Self::Cells(n) => f64::from(n),
            Self::Fraction(f) => f * b,
            Self::ExcessMtus { b: k, mtu_cells } => b - k * f64::from(mtu_cells),
            Self::Seed001 { mtu_cells } => (0.8 * b).min(b - 3.0 * f64::from(mtu_cells)),
        };
        cells.floor() as i64
    }
}

/// The buffer acceptance policy of a port, as configured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DiscardConfig {
    TailDrop,
    Ppd,
    Epd(EpdThreshold),
}

impl DiscardConfig {
    /// Builds the policy for a pool of `capacity` cells shared by `vcs` VCs.
    pub fn build(self, vcs: usize, capacity: u32) -> Box<dyn BufferPolicy> {
        match self {
            Self::TailDrop => Box::new(TailDrop),
            Self::Ppd => Box::new(Ppd::new(vcs)),
            Self::Epd(t) => {
                let cells = u32::try_from(t.resolve(capacity).clamp(0, i64::from(capacity))).unwrap_or(0);
                Box::new(Epd::new(vcs, cells))
            }
        }
    }
}
