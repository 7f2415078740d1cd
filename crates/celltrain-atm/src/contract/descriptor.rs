//! Traffic descriptors, conformance definitions and their validation.
//!
//! A [`TrafficDescriptor`] is what the user signals (PCR, CDVT, SCR, MBS, conformance
//! definition), in real-valued rates. [`TrafficDescriptor::params`] turns it into integer GCRA
//! parameters with a named [`Rounding`]: `Lenient` for the network's UPC, `Strict` for the
//! source's shaper (see `interval.rs` for why that pair makes every shaped stream pass).

use super::gcra::Gcra;
use super::interval::{CellInterval, Rounding};
use crate::ingress::VcShape;
use celltrain_core::{BitRate, Keys, SimDuration, CELL_BITS};
use std::fmt;

/// Conformance definitions of ATM Forum TM 4.0 (`docs/references.md#conformance-definitions`).
/// ABR and GFR are handled
/// elsewhere (dynamic GCRA, [`super::Fgcra`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ConformanceDef {
    /// PCR(0+1) only; non-conforming cells discarded (ITU-T DBR).
    Cbr1,
    /// PCR(0+1) + SCR/MBS(0+1), discard (UNI 3.0 contract "C" of BKD97 Table 1; SBR1).
    Vbr1,
    /// PCR(0+1) + SCR/MBS(0 only), discard; CLP=1 cells only checked against PCR (SBR2).
    Vbr2,
    /// PCR(0+1) + SCR/MBS(0 only); CLP=0 cells failing SCR are tagged CLP 0→1 (SBR3).
    Vbr3,
    /// PCR(0+1), discard; no resources reserved.
    Ubr1,
    /// PCR(0+1), discard at the UPC; the network may tag for congestion, which is not a UPC
    /// action, so the UPC treats UBR.2 like UBR.1.
    Ubr2,
}

impl ConformanceDef {
    /// Does the definition carry an SCR/MBS pair?
    pub const fn has_scr(self) -> bool {
        matches!(self, ConformanceDef::Vbr1 | ConformanceDef::Vbr2 | ConformanceDef::Vbr3)
    }

    /// Does the SCR GCRA apply to a cell with this CLP? (CLP=0+1 for VBR.1, CLP=0 only for
    /// VBR.2/VBR.3, never for CBR/UBR.)
    pub const fn scr_applies(self, clp: Clp) -> bool {
        match self {
            ConformanceDef::Vbr1 => true,
            ConformanceDef::Vbr2 | ConformanceDef::Vbr3 => matches!(clp, Clp::Zero),
            ConformanceDef::Cbr1 | ConformanceDef::Ubr1 | ConformanceDef::Ubr2 => false,
        }
    }

    /// Does the UPC tag (CLP 0→1) CLP=0 cells that fail the SCR GCRA?
    pub const fn tags(self) -> bool {
        matches!(self, ConformanceDef::Vbr3)
    }
}

impl fmt::Display for ConformanceDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ConformanceDef::Cbr1 => "CBR.1",
            ConformanceDef::Vbr1 => "VBR.1",
            ConformanceDef::Vbr2 => "VBR.2",
            ConformanceDef::Vbr3 => "VBR.3",
            ConformanceDef::Ubr1 => "UBR.1",
            ConformanceDef::Ubr2 => "UBR.2",
        })
    }
}

/// Cell loss priority bit. (The ATM crate may replace this with its cell header type.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Clp {
    /// CLP = 0: high priority.
    Zero,
    /// CLP = 1: low priority (sent so, or tagged).
    One,
}

impl Clp {
    /// 0 or 1, for indexing per-CLP counters.
    pub const fn index(self) -> usize {
        match self {
            Clp::Zero => 0,
            Clp::One => 1,
        }
    }
}

/// A validation error of a traffic descriptor or of a component configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContractError {
    /// PCR must be > 0.
    ZeroPcr,
    /// SCR must be > 0.
    ZeroScr,
    /// SCR must not exceed PCR.
    ScrAbovePcr { scr: BitRate, pcr: BitRate },
    /// MBS must be ≥ 1 cell.
    ZeroMbs,
    /// SCR given without MBS.
    ScrWithoutMbs,
    /// MBS given without SCR.
    MbsWithoutScr,
    /// A VBR definition needs SCR and MBS.
    MissingScr(ConformanceDef),
    /// CBR/UBR definitions take no SCR/MBS.
    UnexpectedScr(ConformanceDef),
    /// A derived time does not fit in u64 picoseconds.
    Overflow,
    /// A queue of zero cells can hold nothing.
    ZeroQueue,
    /// T_SCR shorter than T_PCR (integer parameters given directly).
    ScrIntervalBelowPcr { t_scr: CellInterval, t_pcr: CellInterval },
    /// A PDU has at least one cell.
    ZeroCellsPerPdu,
}

impl fmt::Display for ContractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContractError::ZeroPcr => write!(f, "PCR must be greater than 0"),
            ContractError::ZeroScr => write!(f, "SCR must be greater than 0"),
            ContractError::ScrAbovePcr { scr, pcr } => {
                write!(f, "SCR ({scr}) must not exceed PCR ({pcr})")
            }
            ContractError::ZeroMbs => write!(f, "MBS must be at least 1 cell"),
            ContractError::ScrWithoutMbs => {
                write!(f, "SCR is given but MBS is not: give both or neither")
            }
            ContractError::MbsWithoutScr => {
                write!(f, "MBS is given but SCR is not: give both or neither")
            }
            ContractError::MissingScr(d) => write!(f, "{d} needs SCR and MBS"),
            ContractError::UnexpectedScr(d) => write!(f, "{d} takes no SCR/MBS"),
            ContractError::Overflow => write!(f, "derived time overflows u64 picoseconds"),
            ContractError::ZeroQueue => write!(f, "queue limit must be at least 1 cell"),
            ContractError::ScrIntervalBelowPcr { t_scr, t_pcr } => {
                write!(f, "T_SCR ({t_scr}) must not be shorter than T_PCR ({t_pcr})")
            }
            ContractError::ZeroCellsPerPdu => write!(f, "a PDU has at least one cell"),
        }
    }
}

impl std::error::Error for ContractError {}

/// A traffic contract as signalled. Rates are cell-stream rates in bit/s (424 bit per cell).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrafficDescriptor {
    /// Conformance definition (decides which cells each GCRA sees and tag vs discard).
    pub def: ConformanceDef,
    /// PCR, bit/s of cells; > 0. T_PCR = 424 bit / PCR.
    pub pcr: BitRate,
    /// CDVT: τ of the PCR GCRA.
    pub cdvt: SimDuration,
    /// SCR, bit/s of cells; 0 < SCR ≤ PCR; present iff `mbs` is and the definition is VBR.
    pub scr: Option<BitRate>,
    /// MBS in cells, ≥ 1; present iff `scr` is.
    pub mbs: Option<u32>,
    /// CDVT for the SCR GCRA, added to BT (zero in the BKD97 experiments).
    pub cdvt_scr: SimDuration,
}

/// Integer parameters of one GCRA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GcraParams {
    /// T.
    pub increment: CellInterval,
    /// τ.
    pub limit: SimDuration,
}

impl GcraParams {
    /// A fresh GCRA with these parameters.
    pub const fn gcra(self) -> Gcra {
        Gcra::new(self.increment, self.limit)
    }
}

/// Integer GCRA parameters derived from a descriptor with one [`Rounding`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContractParams {
    /// GCRA(T_PCR, CDVT).
    pub pcr: GcraParams,
    /// GCRA(T_SCR, BT + CDVT_SCR), for VBR definitions.
    pub scr: Option<GcraParams>,
}

impl TrafficDescriptor {
    /// CBR.1 (also usable for UBR by changing `def`).
    pub const fn cbr1(pcr: BitRate, cdvt: SimDuration) -> Self {
        TrafficDescriptor { def: ConformanceDef::Cbr1, pcr, cdvt, scr: None, mbs: None, cdvt_scr: SimDuration::ZERO }
    }

    /// A VBR descriptor (`def` should be VBR.1/2/3; `validate` says so if not).
    pub const fn vbr(def: ConformanceDef, pcr: BitRate, cdvt: SimDuration, scr: BitRate, mbs: u32) -> Self {
        TrafficDescriptor { def, pcr, cdvt, scr: Some(scr), mbs: Some(mbs), cdvt_scr: SimDuration::ZERO }
    }

    /// Check the descriptor: PCR > 0; SCR and MBS both or neither, and present exactly for
    /// VBR definitions; 0 < SCR ≤ PCR; MBS ≥ 1.
    pub fn validate(&self) -> Result<(), ContractError> {
        if self.pcr.as_bps() == 0 {
            return Err(ContractError::ZeroPcr);
        }
        match (self.scr, self.mbs) {
            (Some(_), None) => return Err(ContractError::ScrWithoutMbs),
            (None, Some(_)) => return Err(ContractError::MbsWithoutScr),
            (None, None) if self.def.has_scr() => return Err(ContractError::MissingScr(self.def)),
            (Some(_), Some(_)) if !self.def.has_scr() => return Err(ContractError::UnexpectedScr(self.def)),
            _ => {}
        }
        if let (Some(scr), Some(mbs)) = (self.scr, self.mbs) {
            if scr.as_bps() == 0 {
                return Err(ContractError::ZeroScr);
            }
            if scr > self.pcr {
                return Err(ContractError::ScrAbovePcr { scr, pcr: self.pcr });
            }
            if mbs == 0 {
                return Err(ContractError::ZeroMbs);
            }
        }
        Ok(())
    }

    /// The conformance definitions a VC's `conformance` key names, with their names.
    pub const DEFINITIONS: [(&'static str, ConformanceDef); 6] = [
        ("cbr.1", ConformanceDef::Cbr1),
        ("vbr.1", ConformanceDef::Vbr1),
        ("vbr.2", ConformanceDef::Vbr2),
        ("vbr.3", ConformanceDef::Vbr3),
        ("ubr.1", ConformanceDef::Ubr1),
        ("ubr.2", ConformanceDef::Ubr2),
    ];
    /// The names of [`DEFINITIONS`](Self::DEFINITIONS).
    pub const NAMES: [&'static str; 6] = {
        let mut names = [""; 6];
        let mut i = 0;
        while i < names.len() {
            names[i] = Self::DEFINITIONS[i].0;
            i += 1;
        }
        names
    };

    /// The contract `conformance = definition` (one of [`NAMES`](Self::NAMES)) gives with a VC's
    /// keys: `scr`, `mbs` (in cells, or as a byte size: the cells whose 48-byte payloads hold
    /// it, ⌈B / 48⌉, so that a token bucket of B bytes and its ATM twin can be given alike) and
    /// `cdvt` (0 by default), with the VC's PCR; validated, each error naming its key.
    pub fn read<K: Keys>(definition: &str, keys: &K, vc: VcShape) -> Result<Self, K::Error> {
        let def = Self::DEFINITIONS.iter().find(|(name, _)| *name == definition).expect("a definition's name").1;
        let scr = keys.rate("scr")?;
        let mbs = burst_cells(keys)?.map(|m| keys.within_u32("mbs", m)).transpose()?;
        let cdvt = keys.duration("cdvt")?.unwrap_or(SimDuration::ZERO);
        let desc = TrafficDescriptor { def, pcr: vc.pcr, cdvt, scr, mbs, cdvt_scr: SimDuration::ZERO };
        desc.validate().map_err(|e| {
            let key = match e {
                ContractError::ScrAbovePcr { .. } | ContractError::ZeroScr | ContractError::ScrWithoutMbs => "scr",
                ContractError::ZeroMbs | ContractError::MbsWithoutScr => "mbs",
                _ => "conformance",
            };
            keys.key_error(key, e.to_string())
        })?;
        Ok(desc)
    }

    /// A VC with no conformance definition gives none of a descriptor's keys (`scr`, `mbs`,
    /// `cdvt`): nothing would police them.
    pub fn refuse_keys<K: Keys>(conformance: Option<&str>, keys: &K) -> Result<(), K::Error> {
        if conformance.is_some() {
            return Ok(());
        }
        if let Some(key) = ["scr", "mbs"].into_iter().find(|k| keys.contains(k)) {
            return Err(keys.key_error(key, "a traffic contract needs `conformance` (vbr.1, vbr.2 or vbr.3)".into()));
        }
        if keys.contains("cdvt") {
            return Err(keys.key_error("cdvt", "applies with a `conformance`".into()));
        }
        Ok(())
    }

    /// Validate, then derive integer GCRA parameters rounded as `rounding` says.
    pub fn params(&self, rounding: Rounding) -> Result<ContractParams, ContractError> {
        self.validate()?;
        let t_pcr = CellInterval::from_rate(self.pcr, rounding).ok_or(ContractError::ZeroPcr)?;
        let pcr = GcraParams { increment: t_pcr, limit: self.cdvt };
        let scr = match (self.scr, self.mbs) {
            (Some(scr), Some(mbs)) => {
                let t_scr = CellInterval::from_rate(scr, rounding).ok_or(ContractError::ZeroScr)?;
                let bt = burst_tolerance_from_rates(self.pcr, scr, mbs, rounding).ok_or(ContractError::Overflow)?;
                Some(GcraParams {
                    increment: t_scr,
                    //= docs/references.md#dual-gcra
                    //# GCRA(T_SCR = 1/SCR, τ_SCR = BT + CDVT_SCR)
                    limit: bt + self.cdvt_scr,
                })
            }
            _ => None,
        };
        Ok(ContractParams { pcr, scr })
    }
}

/// BT = (MBS − 1)(1/SCR − 1/PCR) computed exactly from the rates (424 bit per cell), then
/// rounded once: **up** for [`Rounding::Lenient`] (policer), **down** for
/// [`Rounding::Strict`] (shaper). `None` if a rate is zero, SCR > PCR, or on overflow.
///
/// `BT[ps] = (MBS − 1) · 424 · 10¹² · (PCR − SCR) / (SCR · PCR)`.
pub fn burst_tolerance_from_rates(pcr: BitRate, scr: BitRate, mbs: u32, rounding: Rounding) -> Option<SimDuration> {
    let (pcr, scr) = (u128::from(pcr.as_bps()), u128::from(scr.as_bps()));
    if pcr == 0 || scr == 0 || scr > pcr {
        return None;
    }
    //= docs/references.md#dual-gcra
    //# BT = (MBS − 1) · (1/SCR − 1/PCR)
    let num = u128::from(mbs.saturating_sub(1))
        .checked_mul(u128::from(CELL_BITS) * 1_000_000_000_000)?
        .checked_mul(pcr - scr)?;
    let den = scr.checked_mul(pcr)?;
    let ps = match rounding {
        Rounding::Lenient => num.div_ceil(den),
        Rounding::Strict => num / den,
    };
    Some(SimDuration::from_picos(u64::try_from(ps).ok()?))
}

/// `mbs` in cells, or as a byte size (see [`TrafficDescriptor::read`]).
fn burst_cells<K: Keys>(keys: &K) -> Result<Option<u64>, K::Error> {
    if keys.is_text("mbs") {
        Ok(keys.bytes("mbs")?.map(|b| b.div_ceil(48)))
    } else {
        keys.count("mbs")
    }
}
