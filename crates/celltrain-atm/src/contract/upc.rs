//! Usage parameter control (UPC): the policer at the network ingress of one VC.
//!
//! ```text
//!  cell (t, CLP) ─► PCR(0+1).test ─fail─► Discard
//!                      │ok
//!                      ├─ SCR applies to this CLP? ─no──────────────► PCR.update ─► Pass
//!                      │yes
//!                      └─ SCR.test ─ok─► SCR.update ─► PCR.update ─► Pass
//!                            │fail
//!                            ├─ VBR.3 and CLP=0 ─► PCR.update ─► Tag (CLP 0→1)
//!                            └─ otherwise ──────────────────────► Discard
//! ```
//! The UPC of ITU-T I.371 / ATM Forum TM 4.0, step by step as in `docs/references.md#upc`.
//! Sans-IO: the caller feeds arrival times in
//! non-decreasing order and applies the returned action to the cell.

use super::descriptor::{Clp, ConformanceDef, ContractError, ContractParams, GcraParams, TrafficDescriptor};
use super::gcra::Gcra;
use super::interval::Rounding;
use celltrain_core::SimTime;

/// What the UPC does with a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UpcAction {
    /// Forward unchanged.
    Pass,
    /// Forward with CLP set to 1 (VBR.3 only).
    Tag,
    /// Drop (counted as policer non-conformance).
    Discard,
}

/// Cell counters of a UPC, indexed by the CLP the cell **arrived** with (0 or 1).
///
/// Conservation: `passed[0] + passed[1] + tagged + discarded(0) + discarded(1) == seen()`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UpcCounters {
    /// Forwarded unchanged, per arriving CLP.
    pub passed: [u64; 2],
    /// Arrived CLP=0, forwarded as CLP=1 (counted as CLP=1 downstream).
    pub tagged: u64,
    /// Discarded because GCRA(T_PCR, CDVT) on CLP=0+1 failed, per arriving CLP.
    pub discarded_pcr: [u64; 2],
    /// Discarded because the SCR GCRA failed, per arriving CLP.
    pub discarded_scr: [u64; 2],
}

impl UpcCounters {
    /// Cells forwarded (passed or tagged) among those that arrived with `clp`.
    pub fn conforming(&self, clp: Clp) -> u64 {
        self.passed[clp.index()]
            + match clp {
                Clp::Zero => self.tagged,
                Clp::One => 0,
            }
    }
    /// Cells discarded among those that arrived with `clp`.
    pub fn discarded(&self, clp: Clp) -> u64 {
        self.discarded_pcr[clp.index()] + self.discarded_scr[clp.index()]
    }
    /// All cells seen.
    pub fn seen(&self) -> u64 {
        self.conforming(Clp::Zero) + self.conforming(Clp::One) + self.discarded(Clp::Zero) + self.discarded(Clp::One)
    }
}

/// The UPC of one VC: PCR GCRA on CLP=0+1, optional SCR GCRA, per-definition CLP handling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Upc {
    /// Conformance definition.
    def: ConformanceDef,
    /// GCRA(T_PCR, CDVT) on CLP=0+1.
    pcr: Gcra,
    /// GCRA(T_SCR, BT + CDVT_SCR); `Some` exactly for VBR definitions.
    scr: Option<Gcra>,
    /// Cell counters.
    counters: UpcCounters,
}

impl Upc {
    /// Validate the descriptor and build its policer with [`Rounding::Lenient`] parameters
    /// (T rounded down, BT rounded up), so that a source exactly at the contract never loses
    /// a cell to rounding.
    pub fn new(desc: &TrafficDescriptor) -> Result<Self, ContractError> {
        Upc::from_params(desc.def, desc.params(Rounding::Lenient)?)
    }

    /// From already-integer parameters (test vectors in abstract slots). Errors if the SCR
    /// part is present for a non-VBR definition or missing for a VBR one.
    pub fn from_params(def: ConformanceDef, params: ContractParams) -> Result<Self, ContractError> {
        match (def.has_scr(), params.scr.is_some()) {
            (true, false) => return Err(ContractError::MissingScr(def)),
            (false, true) => return Err(ContractError::UnexpectedScr(def)),
            _ => {}
        }
        Ok(Upc { def, pcr: params.pcr.gcra(), scr: params.scr.map(GcraParams::gcra), counters: UpcCounters::default() })
    }

    pub const fn def(&self) -> ConformanceDef {
        self.def
    }
    /// The PCR GCRA (for inspecting its TAT).
    pub const fn pcr(&self) -> &Gcra {
        &self.pcr
    }
    /// The SCR GCRA, for VBR definitions.
    pub const fn scr(&self) -> Option<&Gcra> {
        self.scr.as_ref()
    }
    pub const fn counters(&self) -> &UpcCounters {
        &self.counters
    }

    /// Police one cell arriving at `t` with `clp`.
    pub fn on_cell(&mut self, t: SimTime, clp: Clp) -> UpcAction {
        let i = clp.index();
        //= docs/references.md#upc
        //# if not PCR.test(t): discard; return   # PCR(0+1) failure: always discard
        if !self.pcr.test(t) {
            self.counters.discarded_pcr[i] += 1;
            return UpcAction::Discard;
        }
        //# if SCR applies to cell.clp (CLP=0+1 for VBR.1; CLP=0 only for VBR.2/3):
        if let Some(scr) = self.scr.as_mut().filter(|_| self.def.scr_applies(clp)) {
            if !scr.test(t) {
                //# if definition == VBR.3 and cell.clp == 0:
                //#     cell.clp = 1; PCR.update(t); forward; return  # SCR state NOT updated
                if self.def.tags() && clp == Clp::Zero {
                    self.pcr.update(t);
                    self.counters.tagged += 1;
                    return UpcAction::Tag;
                }
                //# discard; return   # non-conforming: no state updated
                self.counters.discarded_scr[i] += 1;
                return UpcAction::Discard;
            }
            //# SCR.update(t)
            scr.update(t);
        }
        //# PCR.update(t); forward
        self.pcr.update(t);
        self.counters.passed[i] += 1;
        UpcAction::Pass
    }
}
