//! GFR in the builder: each GFR VC's contract — its F-GCRA where it enters the first switch,
//! and its weight (the MCR) at the weighted fair schedulers — and each switch's scheduler.

use super::*;
use celltrain_atm::contract::GfrContract;
use celltrain_atm::ingress::GfrPolicer;
use celltrain_atm::port::buffer::DiscardConfig;

/// The scheduler of a switch's output ports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SchedulerKind {
    /// Strict priority between service categories, round robin inside one.
    #[default]
    Priority,
    /// WF²Q+ weighted by each VC's MCR in bit/s (a VC without one weighs 1 bit/s: such VCs
    /// alone share equally, beside GFR VCs they get next to nothing reserved).
    Wfq,
    /// Virtual Spacing, weighted likewise.
    VirtualSpacing,
    /// Weighted round robin, weighted likewise (quantised to cells per round).
    Wrr,
}

/// What the builder keeps for GFR.
#[derive(Debug, Default)]
pub(super) struct GfrParts {
    /// By route name.
    contracts: BTreeMap<String, GfrContract>,
    schedulers: BTreeMap<NodeId, SchedulerKind>,
}

impl NetworkBuilder {
    /// Gives the VC of route `route` a GFR contract (checked here), policed where it enters
    /// its first switch.
    pub fn set_gfr_contract(&mut self, route: &str, contract: GfrContract) -> Result<(), BuildError> {
        contract.validate().map_err(|e| BuildError::about(Subject::Vc(route.to_string()), Field::Contract, e))?;
        self.gfr.contracts.insert(route.to_string(), contract);
        Ok(())
    }

    /// The scheduler of every output port of `switch`.
    pub fn set_scheduler(&mut self, switch: NodeId, kind: SchedulerKind) {
        self.gfr.schedulers.insert(switch, kind);
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

/// The scheduler of port `port` (index), out of node `from`: per VC in slot order, its MCR in
/// bit/s as its weight.
pub(super) fn scheduler(nb: &NetworkBuilder, from: NodeId, port: usize, vcs: &[Vc]) -> SchedulerConfig {
    let kind = nb.gfr.schedulers.get(&from).copied().unwrap_or_default();
    if kind == SchedulerKind::Priority {
        return SchedulerConfig::PriorityRoundRobin;
    }
    let mut weights = Vec::new();
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
    match kind {
        SchedulerKind::Wfq => SchedulerConfig::Wf2qPlus { vc_weights: weights },
        SchedulerKind::Wrr => SchedulerConfig::WeightedRoundRobin { vc_weights: weights },
        SchedulerKind::VirtualSpacing | SchedulerKind::Priority => {
            SchedulerConfig::VirtualSpacing { vc_weights: weights }
        }
    }
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
