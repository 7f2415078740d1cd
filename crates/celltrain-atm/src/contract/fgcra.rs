//! F-GCRA(T, L): the frame-based GCRA of GFR (ATM Forum TM 4.1, ITU-T I.371.1; `docs/references.md#f-gcra`)
//! that decides which AAL5 frames are eligible for the MCR guarantee.
//!
//! ```text
//!  first cell of a frame ─► t_a < TAT − L or CLP=1 ? ─yes─► frame NOT eligible (TAT unchanged)
//!                                  │no
//!                                  └─► frame eligible; TAT = max(t_a, TAT) + T
//!  later cells of the frame ─► inherit the decision; if eligible: TAT = max(t_a, TAT) + T
//! ```
//! Frame boundaries come from the cells themselves: a cell is the first of a frame if it is the
//! first cell seen or follows a cell with AUU = 1 (end of frame).
//!
//! Uncertain points (the TM 4.1 text was not available; `docs/references.md#unconfirmed-points`):
//! * whether a CLP=1 first cell makes the frame ineligible *inside* the F-GCRA or only in the
//!   frame-conformance check (implemented: inside, as BN01's simple F-GCRA does);
//! * whether L includes CDVT (implemented: L = BT + CDVT, [`Fgcra::for_gfr`]; pass CDVT = 0 to
//!   get BN01's L);
//! * later cells of an eligible frame do `TAT = max(t_a, TAT) + T`, as BN01's Fig. 1
//!   (Bonaventure & Nelissen's simple F-GCRA) writes, not `TAT = TAT + T`: a slow frame's later
//!   cells restart TAT from their own arrival instead of leaving it behind real time;
//! * a later cell whose CLP differs from the first cell's is still given the frame's decision;
//!   the "same CLP in every cell" and MFS rules are frame-conformance checks, not modelled here;
//! * TM 4.1's least MBS, 1 + MFS·PCR/(PCR − MCR) as BN01 quotes it, is checked by the
//!   contract ([`super::GfrContract::validate`]), not here.

use super::descriptor::Clp;
use super::gcra::burst_tolerance;
use super::interval::CellInterval;
use celltrain_core::{SimDuration, SimTime};

/// F-GCRA decision for one cell (the frame's decision, inherited by every cell of it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Eligibility {
    /// Part of a frame eligible for the MCR guarantee.
    Eligible,
    /// Part of a frame that is not (GFR.2 UPC tags such cells CLP 0→1).
    NotEligible,
}

/// F-GCRA counters (frames are counted at their first cell).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FgcraCounters {
    pub eligible_frames: u64,
    pub ineligible_frames: u64,
    pub eligible_cells: u64,
    pub ineligible_cells: u64,
}

/// F-GCRA(T, L) of one GFR VC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fgcra {
    /// T = 1/MCR.
    increment: CellInterval,
    /// L = BT + CDVT with BT = (MBS − 1)(1/MCR − 1/PCR).
    limit: SimDuration,
    /// TAT; starts at zero, equivalent to "TAT = arrival time of the first cell" (see `Gcra`).
    tat: SimTime,
    /// Inside a frame: the next cell is not a first cell.
    in_frame: bool,
    /// Decision of the current frame (meaningful while `in_frame`).
    eligible: bool,
    /// Counters.
    counters: FgcraCounters,
}

impl Fgcra {
    /// F-GCRA(`increment`, `limit`).
    pub const fn new(increment: CellInterval, limit: SimDuration) -> Self {
        Fgcra {
            increment,
            limit,
            tat: SimTime::ZERO,
            in_frame: false,
            eligible: false,
            counters: FgcraCounters {
                eligible_frames: 0,
                ineligible_frames: 0,
                eligible_cells: 0,
                ineligible_cells: 0,
            },
        }
    }

    /// F-GCRA(T_MCR, (MBS − 1)(T_MCR − T_PCR) + CDVT) (ATM Forum TM 4.1; BN01 without CDVT).
    pub fn for_gfr(t_mcr: CellInterval, t_pcr: CellInterval, mbs: u32, cdvt: SimDuration) -> Self {
        //= docs/references.md#f-gcra
        //# T = 1/MCR, L = BT + CDVT = (MBS − 1)(1/MCR − 1/PCR) + CDVT
        Fgcra::new(t_mcr, burst_tolerance(t_pcr, t_mcr, mbs) + cdvt)
    }

    pub const fn increment(&self) -> CellInterval {
        self.increment
    }
    pub const fn limit(&self) -> SimDuration {
        self.limit
    }
    pub const fn tat(&self) -> SimTime {
        self.tat
    }
    pub const fn counters(&self) -> &FgcraCounters {
        &self.counters
    }

    /// A cell of this VC arrives at `t` with `clp`; `eom` is its AUU bit (last cell of frame).
    pub fn on_cell(&mut self, t: SimTime, clp: Clp, eom: bool) -> Eligibility {
        if !self.in_frame {
            //= docs/references.md#f-gcra
            //# on first cell of a frame at t_a:
            //#   if t_a < TAT - L or cell.clp == 1: eligible = false
            //#   else: eligible = true ; TAT = max(t_a, TAT) + T
            self.eligible = clp == Clp::Zero && t + self.limit >= self.tat;
            if self.eligible {
                self.tat = self.tat.max(t) + self.increment.as_duration();
                self.counters.eligible_frames += 1;
            } else {
                self.counters.ineligible_frames += 1;
            }
        } else if self.eligible {
            // BN01, Fig. 1 (middle or last cell of an eligible frame): TAT = max(t_a, TAT) + T.
            self.tat = self.tat.max(t) + self.increment.as_duration();
        }
        self.in_frame = !eom;
        if self.eligible {
            self.counters.eligible_cells += 1;
            Eligibility::Eligible
        } else {
            self.counters.ineligible_cells += 1;
            Eligibility::NotEligible
        }
    }
}
