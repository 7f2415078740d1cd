//! The GFR traffic contract (ATM Forum TM 4.1; BN01, "The GFR Service Category"): PCR,
//! MCR, MBS and MFS with a CDVT, and the conformance definitions GFR.1 and GFR.2.
//!
//! The F-GCRA(1/MCR, (MBS − 1)(1/MCR − 1/PCR) + CDVT) decides which CLP = 0 frames are eligible
//! for the MCR guarantee. Under GFR.2 the ingress tags (CLP 0 → 1) every cell of a frame that
//! is not eligible; under GFR.1 the network may not change CLP, so eligibility is only known to
//! whoever runs the F-GCRA (the network's first switch keeps it per VC).

use super::fgcra::Fgcra;
use super::interval::CellInterval;
use crate::category::ServiceCategory;
use crate::ingress::VcShape;
use celltrain_core::{BitRate, Keys, SimDuration};
use std::fmt;

/// GFR.1 (no tagging) or GFR.2 (the ingress F-GCRA tags frames that are not eligible).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GfrConformance {
    Gfr1,
    Gfr2,
}

impl GfrConformance {
    pub const ALL: [GfrConformance; 2] = [Self::Gfr1, Self::Gfr2];

    pub const fn tags(self) -> bool {
        matches!(self, Self::Gfr2)
    }

    pub const fn name(self) -> &'static str {
        match self {
            Self::Gfr1 => "gfr.1",
            Self::Gfr2 => "gfr.2",
        }
    }
}

/// A GFR contract as signalled. Rates are cell-stream rates in bit/s (424 bit per cell); MBS
/// and MFS are in cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GfrContract {
    pub conformance: GfrConformance,
    pub pcr: BitRate,
    pub mcr: BitRate,
    pub mbs_cells: u32,
    pub mfs_cells: u32,
    pub cdvt: SimDuration,
}

/// Why a GFR contract is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GfrError {
    ZeroPcr,
    ZeroMcr,
    /// MCR ≥ PCR leaves the F-GCRA no burst tolerance (PCR − MCR divides).
    McrNotBelowPcr {
        mcr: BitRate,
        pcr: BitRate,
    },
    ZeroMfs,
    /// TM 4.1 (as BN01 quotes it): MBS ≥ 1 + MFS·PCR/(PCR − MCR).
    MbsTooSmall {
        mbs: u32,
        least: u64,
    },
}

impl fmt::Display for GfrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ZeroPcr => write!(f, "PCR must be greater than 0"),
            Self::ZeroMcr => write!(f, "MCR must be greater than 0"),
            Self::McrNotBelowPcr { mcr, pcr } => write!(f, "MCR ({mcr}) must be below PCR ({pcr})"),
            Self::ZeroMfs => write!(f, "MFS must be at least 1 cell"),
            Self::MbsTooSmall { mbs, least } => {
                write!(f, "MBS of {mbs} cells is below 1 + MFS·PCR/(PCR − MCR) = {least} cells (rounded up)")
            }
        }
    }
}

impl std::error::Error for GfrError {}

impl GfrContract {
    /// The names a VC's `conformance` key takes for GFR.
    pub const NAMES: [&'static str; 2] = [GfrConformance::Gfr1.name(), GfrConformance::Gfr2.name()];

    /// The contract `conformance = "gfr.1" | "gfr.2"` gives with a VC's keys (`mcr`, `mbs` and
    /// `mfs` in cells, `cdvt`, 0 by default) and its PCR; the VC must be of category GFR.
    pub fn read<K: Keys>(conformance: &str, keys: &K, vc: VcShape) -> Result<Self, K::Error> {
        let conformance = GfrConformance::ALL.into_iter().find(|c| c.name() == conformance).expect("a GFR name");
        if vc.category != ServiceCategory::Gfr {
            return Err(keys.key_error("conformance", format!("{} needs category = \"gfr\"", conformance.name())));
        }
        if keys.contains("scr") {
            return Err(keys.key_error("scr", "a GFR contract has no SCR (give mcr)".into()));
        }
        let mcr = keys.rate("mcr")?.ok_or_else(|| keys.missing("mcr"))?;
        let mbs = keys.count("mbs")?.ok_or_else(|| keys.missing("mbs"))?;
        let mfs = keys.count("mfs")?.ok_or_else(|| keys.missing("mfs"))?;
        let cdvt = keys.duration("cdvt")?.unwrap_or(SimDuration::ZERO);
        let contract = GfrContract {
            conformance,
            pcr: vc.pcr,
            mcr,
            mbs_cells: keys.within_u32("mbs", mbs)?,
            mfs_cells: keys.within_u32("mfs", mfs)?,
            cdvt,
        };
        contract.validate().map_err(|e| {
            let key = match e {
                GfrError::ZeroPcr => "pcr",
                GfrError::ZeroMcr | GfrError::McrNotBelowPcr { .. } => "mcr",
                GfrError::ZeroMfs => "mfs",
                GfrError::MbsTooSmall { .. } => "mbs",
            };
            keys.key_error(key, e.to_string())
        })?;
        Ok(contract)
    }

    /// A VC whose conformance is not GFR's gives no MFS, and a GFR VC no MCR, without it.
    pub fn refuse_keys<K: Keys>(keys: &K, vc: VcShape) -> Result<(), K::Error> {
        if keys.contains("mfs") || (keys.contains("mcr") && vc.category == ServiceCategory::Gfr) {
            let key = if keys.contains("mfs") { "mfs" } else { "mcr" };
            return Err(keys.key_error(key, "a GFR contract needs `conformance` (gfr.1 or gfr.2)".into()));
        }
        Ok(())
    }

    /// The least MBS the contract allows: ⌈1 + MFS·PCR/(PCR − MCR)⌉ cells (PCR > MCR).
    pub fn least_mbs(&self) -> u64 {
        let (pcr, mcr) = (u128::from(self.pcr.as_bps()), u128::from(self.mcr.as_bps()));
        let least = 1 + (u128::from(self.mfs_cells) * pcr).div_ceil(pcr - mcr);
        u64::try_from(least).unwrap_or(u64::MAX)
    }

    pub fn validate(&self) -> Result<(), GfrError> {
        if self.pcr.as_bps() == 0 {
            return Err(GfrError::ZeroPcr);
        }
        if self.mcr.as_bps() == 0 {
            return Err(GfrError::ZeroMcr);
        }
        if self.mcr >= self.pcr {
            return Err(GfrError::McrNotBelowPcr { mcr: self.mcr, pcr: self.pcr });
        }
        if self.mfs_cells == 0 {
            return Err(GfrError::ZeroMfs);
        }
        let least = self.least_mbs();
        if u64::from(self.mbs_cells) < least {
            return Err(GfrError::MbsTooSmall { mbs: self.mbs_cells, least });
        }
        Ok(())
    }

    /// The contract's F-GCRA, with the policer's lenient rounding (intervals rounded down: a
    /// stream at exactly MCR is never judged faster than it is).
    pub fn fgcra(&self) -> Result<Fgcra, GfrError> {
        self.validate()?;
        let t_mcr = CellInterval::from_rate_floor(self.mcr).ok_or(GfrError::ZeroMcr)?;
        let t_pcr = CellInterval::from_rate_floor(self.pcr).ok_or(GfrError::ZeroPcr)?;
        Ok(Fgcra::for_gfr(t_mcr, t_pcr, self.mbs_cells, self.cdvt))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contract(pcr_mbps: u64, mcr_mbps: u64, mbs: u32, mfs: u32) -> GfrContract {
        GfrContract {
            conformance: GfrConformance::Gfr2,
            pcr: BitRate::from_bps(pcr_mbps * 1_000_000),
            mcr: BitRate::from_bps(mcr_mbps * 1_000_000),
            mbs_cells: mbs,
            mfs_cells: mfs,
            cdvt: SimDuration::ZERO,
        }
    }

    #[test]
    fn the_seed_s_contracts_are_valid() {
        // Workstation traffic: PCR 155, MCR up to 10 Mbit/s, MFS 192 cells: MBS ≥ 1 + 192·155/145.
        assert_eq!(contract(155, 10, 2000, 192).least_mbs(), 207);
        assert_eq!(contract(155, 10, 2000, 192).validate(), Ok(()));
        assert_eq!(contract(155, 10, 320, 192).validate(), Ok(()));
        // Internetwork traffic: PCR 34, MCR 10, MFS 32: 1 + 32·34/24 = 46.33 → 47.
        assert_eq!(contract(34, 10, 320, 32).least_mbs(), 47);
        assert_eq!(contract(34, 10, 46, 32).validate(), Err(GfrError::MbsTooSmall { mbs: 46, least: 47 }));
        assert_eq!(contract(34, 10, 47, 32).validate(), Ok(()));
    }

    #[test]
    fn bad_contracts_are_refused_with_their_reason() {
        assert_eq!(contract(0, 0, 10, 1).validate(), Err(GfrError::ZeroPcr));
        assert_eq!(contract(10, 0, 10, 1).validate(), Err(GfrError::ZeroMcr));
        assert!(matches!(contract(10, 10, 10, 1).validate(), Err(GfrError::McrNotBelowPcr { .. })));
        assert_eq!(contract(10, 5, 10, 0).validate(), Err(GfrError::ZeroMfs));
        let e = contract(34, 10, 46, 32).validate().unwrap_err().to_string();
        assert!(e.contains("46") && e.contains("47"), "{e}");
    }

    #[test]
    fn the_fgcra_has_the_contract_s_increment_and_limit() {
        // MCR 424 kbit/s = 1000 cells/s: T = 1 ms; PCR 4.24 Mbit/s: 100 µs; MBS 11: L = 10·0.9 ms.
        let c = GfrContract {
            pcr: BitRate::from_bps(4_240_000),
            mcr: BitRate::from_bps(424_000),
            mbs_cells: 11,
            mfs_cells: 5,
            ..contract(1, 0, 0, 0)
        };
        let f = c.fgcra().expect("valid");
        assert_eq!(f.increment().as_picos(), 1_000_000_000);
        assert_eq!(f.limit(), SimDuration::from_picos(9_000_000_000));
    }
}
