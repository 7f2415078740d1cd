//! The scenario's ABR keys: the `[abr]` table (the end systems' parameters, ATM Forum TM 4.0
//! names) and, in a `[[switch]]`, its explicit-rate algorithm (whose own keys its file reads).
//! A VC's ABR conformance keys are read by its contract (`celltrain_atm::contract::DgcraContract`).
//!
//! ```toml
//! [abr]
//! icr = "3 Mbit/s"        # cell rates, as bit rates of 53-octet cells (or "… cells/s")
//! mcr = "0 cells/s"
//! tcr = "10 cells/s"
//! nrm = 32
//! mrm = 2
//! trm = "100 ms"
//! adtf = "500 ms"
//! rif = 0.0625
//! rdf = 0.0625
//! cdf = 0.0625
//! tbe = "3200 cells"
//! frtt = "10 ms"
//! crm = 100               # default ⌈TBE / Nrm⌉
//! backward_rm = "in-rate" # or "ideal": turned-around RM cells go back at once
//!
//! [[switch]]
//! explicit_rate = "erica+"        # none | erica | erica+ | binary
//! target_queue = "2880 cells"     # erica+
//! target_utilization = 0.9        # erica
//! averaging_interval = "1 ms"
//! binary_thresholds = ["1000 cells", "500 cells"]   # binary: congested above, clear at or below
//! ni_threshold = "300 cells"      # binary: NI (no increase) above it while not congested
//!
//! [[flow]]                # ABR conformance, policed by a DGCRA where the VC enters the network
//! vc = { category = "abr", conformance = "abr", tau2 = "200 us", tau3 = "100 us", cdvt = "0 us" }
//! ```

use super::{ScenarioError, TableView};
use crate::network::NetworkBuilder;
use celltrain_atm::abr::{AbrParams, ExplicitRate, EXPLICIT_RATE_KEYS, EXPLICIT_RATE_NAMES};
use celltrain_core::ids::NodeId;
use celltrain_core::time::SimDuration;
use celltrain_core::units::CELL_BITS;

/// A rate key in cells/s.
fn cells_per_s(v: &TableView<'_>, key: &str) -> Result<Option<f64>, ScenarioError> {
    Ok(v.opt_rate(key)?.map(|r| r.as_bps() as f64 / CELL_BITS as f64))
}

/// A factor key (RIF, RDF, CDF): a number, or a fraction "1/16".
fn factor(v: &TableView<'_>, key: &str, default: f64) -> Result<f64, ScenarioError> {
    let Some(node) = v.get(key) else { return Ok(default) };
    if let Ok(text) = node.as_str() {
        let parsed = text
            .split_once('/')
            .and_then(|(n, d)| Some(n.trim().parse::<f64>().ok()? / d.trim().parse::<f64>().ok()?))
            .or_else(|| text.trim().parse().ok());
        return parsed.ok_or_else(|| v.key_error(key, format!("'{text}' is not a number or a fraction like \"1/16\"")));
    }
    node.as_float()
}

/// The `[abr]` table, if any (without it the builder gives ABR VCs TM 4.0's defaults).
pub(super) fn read_abr(root: &TableView<'_>, b: &mut NetworkBuilder) -> Result<(), ScenarioError> {
    let Some(v) = root.opt_table("abr")? else { return Ok(()) };
    let d = AbrParams::tm4_defaults(f64::MAX);
    let u32_key = |key: &str, default: u32| -> Result<u32, ScenarioError> {
        match v.opt_u64(key)? {
            None => Ok(default),
            Some(n) => u32::try_from(n).map_err(|_| v.key_error(key, "too large (max 4294967295)")),
        }
    };
    let params = AbrParams {
        pcr: d.pcr,
        // The ICR defaults to the PCR (capped per VC).
        icr: cells_per_s(&v, "icr")?.unwrap_or(d.icr),
        mcr: cells_per_s(&v, "mcr")?.unwrap_or(d.mcr),
        tcr: cells_per_s(&v, "tcr")?.unwrap_or(d.tcr),
        nrm: u32_key("nrm", d.nrm)?,
        mrm: u32_key("mrm", d.mrm)?,
        trm: v.opt_duration("trm")?.unwrap_or(d.trm),
        adtf: v.opt_duration("adtf")?.unwrap_or(d.adtf),
        rif: factor(&v, "rif", d.rif)?,
        rdf: factor(&v, "rdf", d.rdf)?,
        cdf: factor(&v, "cdf", d.cdf)?,
        tbe_cells: match v.opt_cells("tbe")? {
            None => d.tbe_cells,
            Some(n) => u32::try_from(n).map_err(|_| v.key_error("tbe", "too large (max 4294967295)"))?,
        },
        frtt: v.opt_duration("frtt")?.unwrap_or(d.frtt),
        crm: match v.opt_u64("crm")? {
            None => None,
            Some(n) => Some(u32::try_from(n).map_err(|_| v.key_error("crm", "too large (max 4294967295)"))?),
        },
    };
    // The PCR is each VC's own; check the rest against a PCR no rate here exceeds.
    let probe = AbrParams { pcr: params.icr.max(params.mcr).max(1.0), ..params.clone() };
    if let Err(e) = probe.validate() {
        let key = ["nrm", "mrm", "rif", "rdf", "cdf", "icr", "mcr", "tcr", "trm", "adtf", "tbe", "crm"]
            .into_iter()
            .find(|k| e.starts_with(k))
            .unwrap_or("icr");
        return Err(v.key_error(key, e));
    }
    let ideal = v.opt_keyword("backward_rm", &["in-rate", "ideal"])?.is_some_and(|k| k == "ideal");
    v.finish()?;
    b.set_abr_params(params);
    b.set_abr_ideal_backward(ideal);
    Ok(())
}

/// A `[[switch]]`'s explicit-rate keys, for the switches it names: `explicit_rate`,
/// `averaging_interval` (the port's measurement, every algorithm's) and the chosen algorithm's
/// own, which its file reads (`ExplicitRateAlgorithm::read`). A key of another algorithm is
/// named with those that take it, rather than as an unknown key.
pub(super) fn read_switch_abr(
    v: &TableView<'_>,
    b: &mut NetworkBuilder,
    switches: &[NodeId],
) -> Result<(), ScenarioError> {
    let names: Vec<&str> = EXPLICIT_RATE_NAMES.iter().flat_map(|names| names.iter().copied()).collect();
    let own_keys = || EXPLICIT_RATE_KEYS.iter().flat_map(|keys| keys.iter());
    let Some(kind) = v.opt_keyword("explicit_rate", &names)? else {
        for key in std::iter::once(AVERAGING_INTERVAL).chain(own_keys().map(|(key, _)| *key)) {
            if v.contains(key) {
                return Err(v.key_error(key, "only applies with explicit_rate"));
            }
        }
        return Ok(());
    };
    for (key, _) in own_keys() {
        // (Every algorithm that takes the key, should two declare it.)
        let takers: Vec<&str> = own_keys().filter(|(k, _)| k == key).flat_map(|(_, t)| t.iter().copied()).collect();
        if v.contains(key) && !takers.contains(&kind) {
            let message = format!("only applies with explicit_rate = {}", celltrain_core::keys::alternatives(&takers));
            return Err(v.key_error(key, message));
        }
    }
    let interval = v.opt_duration(AVERAGING_INTERVAL)?.unwrap_or(SimDuration::from_millis(1));
    if interval.is_zero() {
        return Err(v.key_error(AVERAGING_INTERVAL, "must be positive"));
    }
    let algorithm = ExplicitRate::read(kind, v).expect("one of the algorithms' names")?;
    for &s in switches {
        b.set_explicit_rate(s, algorithm.clone(), interval).map_err(|e| v.key_error("explicit_rate", e.message))?;
    }
    Ok(())
}

/// The averaging interval of a port's explicit-rate measurement (every algorithm's).
pub(super) const AVERAGING_INTERVAL: &str = "averaging_interval";
