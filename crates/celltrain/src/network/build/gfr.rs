//! GFR in the builder: each GFR VC's contract — its F-GCRA where it enters the first switch,
//! and its weight (the MCR) at the weighted fair schedulers.

use super::*;
use celltrain_atm::contract::GfrContract;
use celltrain_atm::ingress::GfrPolicer;
use celltrain_atm::port::buffer::DiscardConfig;

/// What the builder keeps for GFR.
#[derive(Debug, Default)]
pub(super) struct GfrParts {
    /// By route name.
    contracts: BTreeMap<String, GfrContract>,
}

impl NetworkBuilder {
    /// Gives the VC of route `route` a GFR contract (checked here), policed where it enters
    /// its first switch.
    pub fn set_gfr_contract(&mut self, route: &str, contract: GfrContract) -> Result<(), BuildError> {
        contract.validate().map_err(|e| BuildError::about(Subject::Vc(route.to_string()), Field::Contract, e))?;
        self.gfr.contracts.insert(route.to_string(), contract);
        Ok(())
    }

    /// A TCP flow's acknowledgements go back on a VC with the data VC's contract (BN01: a
    /// bidirectional GFR VC per pair).
    pub(super) fn copy_gfr_contract(&mut self, from_route: &str, to_route: &str) {
        if let Some(&c) = self.gfr.contracts.get(from_route) {
            self.gfr.contracts.insert(to_route.to_string(), c);
        }
    }
}

/// The GFR policer of the VC that route `spec` opens, when it has a GFR contract and enters a
/// switch.
pub(super) fn policer(nb: &NetworkBuilder, spec: &VcSpec, vc_name: &str) -> Result<Option<Policer>, BuildError> {
    let Some(contract) = nb.gfr.contracts.get(&spec.name) else { return Ok(None) };
    let policer = GfrPolicer::new(contract)
        .map_err(|e| BuildError::about(Subject::Vc(vc_name.to_string()), Field::Contract, format!("contract: {e}")))?;
    Ok(Some(Policer::Gfr(Box::new(policer))))
}

/// The weights of a weighted scheduler at port `port` (index), per VC in slot order: its MCR
/// in bit/s (a VC without a GFR contract weighs 0, and a queue whose VCs all weigh 0 counts
/// as weighing 1: such queues alone share equally, beside GFR VCs they get next to nothing
/// reserved); none for another scheduler.
pub(super) fn scheduler_weights(config: &PortConfig, port: usize, vcs: &[Vc]) -> Vec<u64> {
    let mut weights = Vec::new();
    if !config.scheduler.is_weighted() {
        return weights;
    }
    for vc in vcs {
        let mcr = vc.policer.as_ref().and_then(|p| p.gfr()).map_or(0, |g| g.contract().mcr.as_bps());
        for &(p, slot) in &vc.route {
            if p.index() == port {
                let slot = slot as usize;
                if weights.len() <= slot {
                    weights.resize(slot + 1, 0);
                }
                weights[slot] = mcr;
            }
        }
    }
    weights
}

/// The port configuration with what depends on the line: frame-level RED's idle unit, when
/// not given, is one cell time at `rate`.
pub(super) fn port_config(config: &PortConfig, rate: BitRate) -> std::borrow::Cow<'_, PortConfig> {
    match config.discard {
        DiscardConfig::FrameRed(mut red) if red.red.idle_unit.is_zero() => {
            red.red.idle_unit = rate.cell_time_ceil();
            std::borrow::Cow::Owned(PortConfig { discard: DiscardConfig::FrameRed(red), ..config.clone() })
        }
        _ => std::borrow::Cow::Borrowed(config),
    }
}
