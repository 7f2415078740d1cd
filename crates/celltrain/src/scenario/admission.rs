//! Connection admission at switch ports: `[[switch]] cac = { rule = "combined", target = 1e-4 }`
//! makes every output port of the switch run a CAC (`celltrain_atm::cac`) as the scenario
//! sets up its VCs, in file order. A VC refused by any CAC port on its path is not set up;
//! it is reported in the summary (`refused_vcs`), never dropped silently. Asking for more
//! VCs than fit (a large `count`) gives the largest admissible mix, in file order.
//!
//! The port is seen as LRP97's delay-priority port: CBR and rt-VBR VCs are its rt class,
//! with the buffer reserved for rt-VBR (the whole buffer if none is); nrt-VBR VCs its nrt
//! class, with the shared buffer. ABR, GFR and UBR VCs get no allocation (admitted as they
//! are). A VC's descriptor: an on/off application's peak and on/off periods; any other
//! application is counted at its peak (PCR, or a UDP source's rate) all the time.

use super::{ScenarioError, TableView};
use crate::metrics::RefusedVc;
use celltrain_atm::cac::{DelayPriority, EbMethod, LossCriterion, OnOff, Rule, SourceClass};
use celltrain_atm::port::PortConfig;
use celltrain_atm::ServiceCategory;
use celltrain_core::ids::NodeId;
use celltrain_core::units::{BitRate, CELL_BITS};
use std::collections::BTreeMap;

/// The CAC of one switch's output ports (all alike; the capacity is each port's link rate).
#[derive(Clone, Copy, Debug)]
pub struct PortCac {
    rule: Rule,
    /// Capacity 0 here: each port puts its link's rate in.
    port: DelayPriority,
}

/// The VCs each CAC port carries so far.
#[derive(Default)]
struct Load {
    rt: Vec<SourceClass>,
    nrt: Vec<SourceClass>,
}

fn push(classes: &mut Vec<SourceClass>, source: OnOff) {
    match classes.last_mut() {
        Some(c) if c.source == source => c.count += 1,
        _ => classes.push(SourceClass::new(1, source)),
    }
}

/// The admission state of a scenario being compiled.
#[derive(Default)]
pub struct Admission {
    switches: BTreeMap<NodeId, PortCac>,
    loads: BTreeMap<(NodeId, NodeId), Load>,
    pub refused: Vec<RefusedVc>,
}

/// Reads a switch's `cac = { rule, target, criterion, method }` (None without the key).
pub fn read_cac(v: &TableView<'_>, port: &PortConfig) -> Result<Option<PortCac>, ScenarioError> {
    let Some(t) = v.opt_table("cac")? else { return Ok(None) };
    let rule = Rule::parse(t.req_str("rule")?).map_err(|e| t.key_error("rule", e.0))?;
    let target = t.opt_float("target")?.unwrap_or(1e-6);
    let criterion = t.opt_keyword("criterion", &["overflow", "clr"])?.unwrap_or("clr");
    let method = t.opt_keyword("method", &["fluid", "gaussian", "min"])?.unwrap_or("fluid");
    let rt_cells =
        port.reserved.iter().find(|(c, _)| *c == ServiceCategory::RtVbr).map_or(port.buffer_cells, |&(_, n)| n);
    let cell_bits = CELL_BITS as f64;
    let dp = DelayPriority {
        capacity_bps: 0.0,
        rt_buffer_bits: f64::from(rt_cells) * cell_bits,
        nrt_buffer_bits: f64::from(port.buffer_cells) * cell_bits,
        target,
        criterion: LossCriterion::parse(criterion).map_err(|e| t.key_error("criterion", e.0))?,
        eb: EbMethod::parse(method).map_err(|e| t.key_error("method", e.0))?,
    };
    dp.validate().map_err(|e| t.key_error("target", e.0))?;
    t.finish()?;
    Ok(Some(PortCac { rule, port: dp }))
}

impl Admission {
    pub fn add_switch(&mut self, node: NodeId, cac: PortCac) {
        self.switches.insert(node, cac);
    }

    /// Whether any switch runs a CAC (nothing to do otherwise).
    pub fn is_active(&self) -> bool {
        !self.switches.is_empty()
    }

    /// Offers the VC of flow `flow` along `path` (with `names` of its nodes); true when every
    /// CAC port on the way admits it (and it is then counted there), false when one refuses
    /// it (it is then recorded as refused). `link_rate` gives a hop's link rate.
    pub fn offer(
        &mut self,
        flow: &str,
        path: &[(NodeId, &str)],
        category: ServiceCategory,
        source: OnOff,
        link_rate: impl Fn(NodeId, NodeId) -> Option<BitRate>,
    ) -> bool {
        let rt_class = match category {
            ServiceCategory::Cbr | ServiceCategory::RtVbr => true,
            ServiceCategory::NrtVbr => false,
            _ => return true,
        };
        let mut hops = Vec::new();
        for w in path.windows(2) {
            let ((a, a_name), (b, b_name)) = (w[0], w[1]);
            let (Some(cac), Some(rate)) = (self.switches.get(&a), link_rate(a, b)) else { continue };
            let port = DelayPriority { capacity_bps: rate.as_bps() as f64, ..cac.port };
            let load = self.loads.entry((a, b)).or_default();
            let (mut rt, mut nrt) = (load.rt.clone(), load.nrt.clone());
            push(if rt_class { &mut rt } else { &mut nrt }, source);
            // A descriptor the CAC cannot judge is refused, with the reason.
            let verdict = port.admits(cac.rule, &rt, &nrt);
            if !matches!(verdict, Ok(true)) {
                self.refused.push(RefusedVc {
                    flow: flow.to_string(),
                    category: category.name().to_string(),
                    port: format!("{a_name}->{b_name}"),
                    rule: cac.rule.name().to_string(),
                    reason: verdict.err().map(|e| e.0),
                });
                return false;
            }
            hops.push((a, b));
        }
        for hop in hops {
            let load = self.loads.entry(hop).or_default();
            push(if rt_class { &mut load.rt } else { &mut load.nrt }, source);
        }
        true
    }
}
