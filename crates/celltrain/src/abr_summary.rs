//! What a run reports of its ABR end systems: per ABR VC, the rate its source ended at and the
//! RM cells it sent and received, and what its buffer (a host adapter's, or an edge router's
//! virtual source) held and refused. Counted from the start of the run (the control loop does
//! not restart with the measurement window).

use crate::network::Network;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AbrVcSummary {
    pub vc: String,
    /// The source's allowed cell rate at the end, cells/s.
    pub acr_cells_per_s: f64,
    /// The ICR it started from, cells/s.
    pub icr_cells_per_s: f64,
    pub frm_sent: u64,
    pub out_of_rate_frm_sent: u64,
    /// Turned-around RM cells (of the paired VC) sent in-rate on this VC.
    pub brm_sent: u64,
    /// Backward RM cells that came back to this source.
    pub brm_received: u64,
    /// Forward RM cells of the paired VC turned around here, and those a newer one replaced.
    pub frm_turned_around: u64,
    pub frm_overwritten: u64,
    pub adtf_resets: u64,
    pub crm_cuts: u64,
    /// The most data cells waiting in the end system's buffer, and the cells it refused.
    pub max_queue_cells: u32,
    pub cells_refused: u64,
}

/// The ABR VCs of a run, in VC order.
pub fn abr_summaries(net: &Network) -> Vec<AbrVcSummary> {
    let mut out: Vec<(usize, AbrVcSummary)> = net
        .abr()
        .ends
        .iter()
        .map(|e| {
            let s = &e.source.counts;
            (
                e.vc.index(),
                AbrVcSummary {
                    vc: net.vcs()[e.vc.index()].name.clone(),
                    acr_cells_per_s: e.source.acr(),
                    icr_cells_per_s: e.source.icr(),
                    frm_sent: s.frm_sent,
                    out_of_rate_frm_sent: s.out_of_rate_frm_sent,
                    brm_sent: s.brm_sent,
                    brm_received: s.brm_received,
                    frm_turned_around: e.turnaround.counts.frm_received,
                    frm_overwritten: e.turnaround.counts.overwritten,
                    adtf_resets: s.adtf_resets,
                    crm_cuts: s.crm_cuts,
                    max_queue_cells: e.counts.max_queue_cells,
                    cells_refused: e.counts.cells_refused,
                },
            )
        })
        .collect();
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, s)| s).collect()
}
