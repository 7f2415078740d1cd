//! What a run reports of a GFR VC: its contract and what its ingress F-GCRA decided (seed
//! 003's measures: tagged cells, eligible frames; goodput against the expected goodput is
//! computed from these and the flows by the reproduction).

use crate::network::Vc;
use serde::{Deserialize, Serialize};

/// A GFR VC's contract and ingress counts. The counts run from the start of the run, not from
/// the end of the warm-up (the F-GCRA's state is the VC's whole history).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GfrVcSummary {
    /// "gfr.1" or "gfr.2".
    pub conformance: String,
    pub pcr_bps: u64,
    pub mcr_bps: u64,
    pub mbs_cells: u32,
    pub mfs_cells: u32,
    /// Frames the F-GCRA found eligible, and not eligible (sent CLP = 1 or beyond the MCR).
    pub eligible_frames: u64,
    pub ineligible_frames: u64,
    /// Frames and cells tagged CLP 0 → 1 at the ingress (GFR.2 only).
    pub tagged_frames: u64,
    pub tagged_cells: u64,
}

/// The GFR summary of `vc`, when it has a GFR contract.
pub fn vc_summary(vc: &Vc) -> Option<GfrVcSummary> {
    let gfr = vc.policer.as_ref()?.gfr()?;
    let (contract, counters) = (gfr.contract(), gfr.counters());
    Some(GfrVcSummary {
        conformance: contract.conformance.name().to_string(),
        pcr_bps: contract.pcr.as_bps(),
        mcr_bps: contract.mcr.as_bps(),
        mbs_cells: contract.mbs_cells,
        mfs_cells: contract.mfs_cells,
        eligible_frames: counters.eligible_frames,
        ineligible_frames: counters.ineligible_frames,
        tagged_frames: counters.tagged_frames,
        tagged_cells: counters.tagged_cells,
    })
}
