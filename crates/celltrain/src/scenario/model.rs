//! From a loaded scenario to a runnable [`Network`]: the sections `[scenario]`,
//! `[simulation]`, `[[switch]]`, `[[host]]`, `[[link]]`, `[[flow]]` and `[metrics]`
//! (documented in `docs/scenarios.md`). Every problem becomes a one-line [`ScenarioError`]
//! naming the file, line and key.

use super::admission::{self, Admission};
use super::limits::{MAX_BUFFER_BYTES, MAX_BUFFER_PACKETS};
use super::{expand, load, ParamValue, RateSpec, ScenarioError, Source, TableView};
use crate::metrics::RunMeta;
use crate::network::{
    Adaptation, BuildError, Field, Medium, Mode, Network, NetworkBuilder, PacketLimits, RecordRequest, Subject,
    TcpSpec, VcSpec,
};
use celltrain_atm::cac::OnOff;
use celltrain_atm::ingress::{PolicerContract, VcShape, CONFORMANCE_NAMES};
use celltrain_atm::ServiceCategory;
use celltrain_core::ids::NodeId;
use celltrain_core::rng::RngStream;
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::units::BitRate;

/// A scenario ready to run, with what identifies the run.
pub struct Compiled {
    pub network: Network,
    pub meta: RunMeta,
}

/// Where each named host, VC and flow is written, for the errors the builder finds only once
/// the whole network is known.
type Places = std::collections::BTreeMap<Subject, ScenarioError>;
use super::link_rates::LinkRates;
use super::udp_warnings::UdpSources;

/// Default seed when neither the scenario nor the caller gives one.
const DEFAULT_SEED: u64 = 1;

/// Compiles `spec` — a scenario file path, or the name of a built-in scenario — with
/// parameter `overrides` and an optional seed that replaces the scenario's.
pub fn compile(spec: &str, overrides: &[(String, String)], seed: Option<u64>) -> Result<Compiled, ScenarioError> {
    let path = std::path::Path::new(spec);
    let source = if path.is_file() {
        super::messages::read_file(spec)?
    } else if let Some(b) = crate::builtin::find(spec) {
        Source::new(format!("built-in:{}", b.name), b.text)
    } else {
        return Err(super::messages::not_a_scenario(spec));
    };
    compile_source(source, overrides, seed)
}

/// Compiles scenario text already in memory.
pub fn compile_source(
    source: Source,
    overrides: &[(String, String)],
    seed: Option<u64>,
) -> Result<Compiled, ScenarioError> {
    let loaded = load(source, overrides)?;
    let root = TableView::root(&loaded);
    let head = root.req_table("scenario")?;
    let id = head.req_str("id")?.to_string();
    let title = head.req_str("title")?.to_string();
    head.opt_str("source")?;
    head.opt_str("description")?;

    let sim = root.req_table("simulation")?;
    let duration = sim.req_duration("duration")?;
    if duration.is_zero() {
        return Err(sim.key_error("duration", "must be positive"));
    }
    let warmup = sim.opt_duration("warmup")?.unwrap_or(SimDuration::ZERO);
    if warmup >= duration {
        return Err(sim.key_error("warmup", "must be shorter than the duration"));
    }
    let scenario_seed = sim.opt_u64("seed")?.unwrap_or(DEFAULT_SEED);
    let seed = seed.unwrap_or(scenario_seed);

    let mode = sim.opt_keyword("mode", &["cell", "packet"])?.unwrap_or("cell");
    let mut b = NetworkBuilder::new(seed, duration, warmup);
    let mut places = Places::new();
    if mode == "packet" {
        b.set_mode(Mode::Packet);
    }
    let mut admission = Admission::default();
    super::totals::check(&root)?;
    read_switches(&root, &loaded, &mut b, &mut admission)?;
    read_hosts(&root, &loaded, &mut b, &mut places)?;
    read_routers(&root, &loaded, &mut b)?;
    let link_rates = read_links(&root, &loaded, &mut b)?;
    let mut udp = UdpSources::default();
    for flow in root.array_of_tables("flow")? {
        for inst in expand(&flow)? {
            let v = inst.view(&loaded.source);
            add_flow(&mut b, &v, (inst.index, seed), &link_rates, &mut places, (&mut admission, &mut udp))?;
            v.finish()?;
        }
    }
    read_metrics(&root, &mut b)?;
    read_record(&root, &mut b, duration)?;
    super::abr::read_abr(&root, &mut b)?;
    root.finish()?;
    let mut warnings = if mode == "packet" {
        super::packet_mode::ignored_switch_keys(&root, &loaded)?
    } else {
        super::pool_thresholds::warnings(&root, &loaded)?
    };
    warnings.extend(udp.warnings(&link_rates));
    let network = b.build().map_err(|e| match e.subject.as_ref().and_then(|subject| places.get(subject)) {
        Some(at) => ScenarioError { message: e.message, ..at.clone() },
        None => root.error(e.message),
    })?;
    let params = loaded.params.iter().map(|(k, v)| (k.clone(), param_json(v))).collect();
    let refused_vcs = admission.refused;
    Ok(Compiled { network, meta: RunMeta { scenario: id, title, seed, params, refused_vcs, warnings } })
}

/// Every key a `[[switch]]` table takes (docs/scenarios.md), in the docs' order. Many are read
/// only for some designs (ABR's, GFR's, RED's), so an unknown key's message would otherwise
/// name only those the table's own design asked for.
#[rustfmt::skip]
pub(super) const SWITCH_KEYS: &[&str] = &[
    "name", "names", "count", "buffer", "reserved", "discard", "epd_threshold", "epd_excess",
    "epd_keep_eom", "fairness_z", "mtu", "queueing", "clp1_threshold", "efci_threshold", "cac", "explicit_rate", "target_queue",
    "target_utilization", "averaging_interval", "binary_thresholds", "ni_threshold", "scheduler",
    "low_threshold", "high_threshold", "vc_threshold", "vc_low_threshold", "vc_high_threshold",
    "red_min_th", "red_max_th", "red_max_p", "red_weight", "red_idle_unit", "buffer_bytes",
    "buffer_packets",
];

/// The `[[switch]]` tables.
fn read_switches(
    root: &TableView,
    loaded: &super::Loaded,
    b: &mut NetworkBuilder,
    admission: &mut Admission,
) -> Result<(), ScenarioError> {
    for sw in root.array_of_tables("switch")? {
        for inst in expand(&sw)? {
            let v = inst.view(&loaded.source);
            let names = node_names(&v)?;
            let port = super::switch_port::port_config(&v)?;
            let cac = admission::read_cac(&v, &port)?;
            // Packet mode: a limit in bytes and/or packets; default the cell buffer's payload
            // (cells × 48 bytes).
            let packet_limits = PacketLimits::read(&v, MAX_BUFFER_BYTES, MAX_BUFFER_PACKETS)?;
            let mut added = Vec::with_capacity(names.len());
            for name in names {
                let n = b.add_switch(&name, port.clone()).map_err(|e| node_error(&v, e, "buffer"))?;
                if let Some(cac) = cac {
                    admission.add_switch(n, cac);
                }
                super::packet_mode::packet_priority(&v, b, n)?;
                if let Some(limits) = packet_limits {
                    b.set_packet_limit(n, limits);
                }
                added.push(n);
            }
            super::abr::read_switch_abr(&v, b, &added)?;
            v.expect(SWITCH_KEYS);
            v.finish()?;
        }
    }
    Ok(())
}

/// The `[[host]]` tables: adapters, processing times, the adapters' rules.
fn read_hosts(
    root: &TableView,
    loaded: &super::Loaded,
    b: &mut NetworkBuilder,
    places: &mut Places,
) -> Result<(), ScenarioError> {
    for host in root.array_of_tables("host")? {
        for inst in expand(&host)? {
            let v = inst.view(&loaded.source);
            let names = node_names(&v)?;
            let nic = match v.opt_cells("nic_buffer")? {
                Some(n) => positive_u32(&v, "nic_buffer", n)?,
                None => crate::network::DEFAULT_NIC_BUFFER_CELLS,
            };
            let both = v.opt_duration("processing")?;
            let send = v.opt_duration("send_processing")?.or(both).unwrap_or(SimDuration::ZERO);
            let recv = v.opt_duration("recv_processing")?.or(both).unwrap_or(SimDuration::ZERO);
            let jitter = v.opt_float("processing_jitter")?.unwrap_or(0.0);
            if !(0.0..=1.0).contains(&jitter) {
                return Err(v.key_error("processing_jitter", "must be a fraction of the mean between 0 and 1"));
            }
            let shaping = v.opt_keyword("shaping", &["off", "dual"])?.unwrap_or("off") == "dual";
            let tagging = v.opt_bool("preventive_tagging")?.unwrap_or(false);
            let adapter_rate = v.opt_rate("adapter_rate")?;
            if adapter_rate.is_some_and(|r| r.as_bps() == 0) {
                return Err(v.key_error("adapter_rate", "must be positive"));
            }
            // "0 s" means no timer, so that a parameter can switch it off.
            let ras = v.opt_duration("reassembly_timeout")?.filter(|t| !t.is_zero());
            // Likewise "0 s": no PDU-level rate control.
            let pdu_gap = v.opt_duration("pdu_gap")?.filter(|t| !t.is_zero());
            let gap_jitter = v.opt_float("pdu_gap_jitter")?.unwrap_or(0.0);
            if !(0.0..=1.0).contains(&gap_jitter) {
                return Err(v.key_error("pdu_gap_jitter", "must be a fraction of the mean gap between 0 and 1"));
            }
            for name in names {
                let h = b.add_host(&name, nic).map_err(|e| node_error(&v, e, "nic_buffer"))?;
                places.entry(Subject::Host(name.clone())).or_insert_with(|| v.key_error(name_key(&v), ""));
                b.set_processing(h, send, recv);
                if jitter > 0.0 {
                    b.set_processing_jitter(h, jitter);
                }
                if let Some(t) = ras {
                    b.set_reassembly_timeout(h, t);
                }
                if let Some(r) = adapter_rate {
                    b.set_adapter_rate(h, r);
                }
                if shaping {
                    b.set_shaping(h);
                }
                if tagging {
                    b.set_tagging(h);
                }
                if let Some(gap) = pdu_gap {
                    b.set_pdu_gap(h, gap);
                    if gap_jitter > 0.0 {
                        b.set_pdu_gap_jitter(h, gap_jitter);
                    }
                }
            }
            v.finish()?;
        }
    }
    Ok(())
}

/// The `[[router]]` tables.
fn read_routers(root: &TableView, loaded: &super::Loaded, b: &mut NetworkBuilder) -> Result<(), ScenarioError> {
    for router in root.array_of_tables("router")? {
        for inst in expand(&router)? {
            let v = inst.view(&loaded.source);
            let names = node_names(&v)?;
            let nic = match v.opt_cells("nic_buffer")? {
                Some(n) => positive_u32(&v, "nic_buffer", n)?,
                None => crate::network::DEFAULT_NIC_BUFFER_CELLS,
            };
            let limits = PacketLimits::read(&v, MAX_BUFFER_BYTES, MAX_BUFFER_PACKETS)?.unwrap_or_default();
            for name in names {
                let n = b.add_router(&name, nic, limits).map_err(|e| node_error(&v, e, "nic_buffer"))?;
                super::packet_mode::router_queueing(&v, b, n)?;
            }
            v.finish()?;
        }
    }
    Ok(())
}

/// The `[[link]]` tables; returns each link's rate by its ends.
fn read_links(root: &TableView, loaded: &super::Loaded, b: &mut NetworkBuilder) -> Result<LinkRates, ScenarioError> {
    let mut link_rates = LinkRates::default();
    for link in root.array_of_tables("link")? {
        for inst in expand(&link)? {
            let v = inst.view(&loaded.source);
            let rate = v.req_rate("rate")?;
            if rate.as_bps() == 0 {
                return Err(v.key_error("rate", "must be positive"));
            }
            let delay = v.opt_duration("delay")?.unwrap_or(SimDuration::ZERO);
            super::limits::link_capacity(&v, rate, delay)?;
            let medium = match v.opt_keyword("medium", &["atm", "ethernet", "packet"])?.unwrap_or("atm") {
                "atm" => Medium::Atm,
                "ethernet" => Medium::Ethernet,
                _ => Medium::Packet,
            };
            let conditioning = super::conditioning::read(&v)?;
            for (a, c) in pairs(&v, "between")? {
                let na = node(b, &v, "between", &a)?;
                let nc = node(b, &v, "between", &c)?;
                b.add_link_on(na, nc, rate, delay, medium).map_err(|e| v.key_error("between", e.message))?;
                link_rates.push(na, nc, rate, delay);
                if let Some(conditioning) = &conditioning {
                    let key = if conditioning.police.is_some() { "police" } else { "shape" };
                    b.set_conditioning(na, nc, conditioning.clone()).map_err(|e| v.key_error(key, e.message))?;
                }
            }
            v.finish()?;
        }
    }
    Ok(link_rates)
}

/// The `[metrics]` table.
fn read_metrics(root: &TableView, b: &mut NetworkBuilder) -> Result<(), ScenarioError> {
    if let Some(m) = root.opt_table("metrics")? {
        if let Some(gap) = m.opt_duration("burst_gap")? {
            if gap.is_zero() {
                return Err(m.key_error("burst_gap", "must be positive"));
            }
            b.set_burst_gap(gap);
        }
        if let Some(pair) = m.opt_str_list("bottleneck")? {
            let [a, c] = pair.as_slice() else {
                return Err(m.key_error("bottleneck", "expected two node names [from, to]"));
            };
            let (na, nc) = (node(b, &m, "bottleneck", a)?, node(b, &m, "bottleneck", c)?);
            b.set_bottleneck(na, nc).map_err(|e| m.key_error("bottleneck", e.message))?;
        }
    }
    Ok(())
}

/// The `[record]` table.
fn read_record(root: &TableView, b: &mut NetworkBuilder, duration: SimDuration) -> Result<(), ScenarioError> {
    if let Some(r) = root.opt_table("record")? {
        let mut req = RecordRequest::default();
        for name in r.opt_str_list("pcap")?.unwrap_or_default() {
            super::limits::capture_name(&r, "pcap", name)?;
            let host = node(b, &r, "pcap", name)?;
            if !b.is_host(host) {
                // Only hosts have the IP stack a capture listens at; a switch's file stayed empty.
                let hint = "only hosts are captured; capture a link with pcap_links = [\"from->to\"]";
                return Err(r.key_error("pcap", format!("'{name}' is not a host: {hint}")));
            }
            req.pcap_hosts.push(host);
        }
        for link in r.opt_str_list("pcap_links")?.unwrap_or_default() {
            let Some((a, c)) = link.split_once("->") else {
                return Err(r.key_error("pcap_links", format!("'{link}': write a link as \"from->to\"")));
            };
            // The capture is `<from>_<to>.pcap`: both names, and the file name they make.
            for name in [a.trim(), c.trim(), &format!("{}_{}", a.trim(), c.trim())] {
                super::limits::capture_name(&r, "pcap_links", name)?;
            }
            let (na, nc) = (node(b, &r, "pcap_links", a.trim())?, node(b, &r, "pcap_links", c.trim())?);
            b.check_link(na, nc).map_err(|e| r.key_error("pcap_links", e.message))?;
            req.pcap_links.push((na, nc));
        }
        req.interval = r.opt_duration("interval")?;
        if req.interval.is_some_and(|i| i.is_zero()) {
            return Err(r.key_error("interval", "must be positive"));
        }
        super::limits::record_samples(&r, req.interval, duration)?;
        req.flows = r.opt_str_list("flows")?.unwrap_or_default().into_iter().map(str::to_string).collect();
        if let Some(ports) = r.opt_str_list("ports")? {
            for p in ports {
                let Some((a, c)) = p.split_once("->") else {
                    return Err(r.key_error("ports", format!("'{p}': write a port as \"from->to\"")));
                };
                req.ports.push((node(b, &r, "ports", a.trim())?, node(b, &r, "ports", c.trim())?));
            }
        }
        super::record_extra::read(&r, &mut req)?;
        b.set_record(req);
    }
    Ok(())
}

fn param_json(v: &ParamValue) -> serde_json::Value {
    match v {
        ParamValue::Int(i) => serde_json::Value::from(*i),
        ParamValue::Float(f) => serde_json::Value::from(*f),
        ParamValue::Bool(b) => serde_json::Value::from(*b),
        ParamValue::Str(s) => serde_json::Value::from(s.clone()),
    }
}

/// A node the builder refused, at the key of the field at fault: its name, or its buffer
/// (`buffer_key`).
fn node_error(v: &TableView<'_>, e: BuildError, buffer_key: &str) -> ScenarioError {
    match e.field {
        Field::Buffer => v.key_error(buffer_key, e.message),
        _ => v.key_error(name_key(v), e.message),
    }
}

fn name_key(v: &TableView<'_>) -> &'static str {
    if v.contains("names") {
        "names"
    } else {
        "name"
    }
}

/// `name = "x"` or `names = ["a", "b"]` (one of them, required).
fn node_names(v: &TableView<'_>) -> Result<Vec<String>, ScenarioError> {
    let names = match (v.opt_str("name")?, v.opt_str_list("names")?) {
        (Some(n), None) => vec![n.to_string()],
        (None, Some(ns)) => ns.into_iter().map(str::to_string).collect(),
        (Some(_), Some(_)) => return Err(v.key_error("names", "give either 'name' or 'names', not both")),
        (None, None) => return Err(v.error("missing required key 'name' (or 'names')")),
    };
    if let Some(bad) = names.iter().find(|n| n.trim().is_empty()) {
        return Err(v.key_error(name_key(v), format!("empty node name {bad:?}")));
    }
    Ok(names)
}

fn node(b: &NetworkBuilder, v: &TableView<'_>, key: &str, name: &str) -> Result<NodeId, ScenarioError> {
    b.node_id(name).ok_or_else(|| v.key_error(key, format!("no node named '{name}'")))
}

/// `between = ["a", "b"]` or `between = [["a", "b"], ["c", "d"]]`.
fn pairs(v: &TableView<'_>, key: &str) -> Result<Vec<(String, String)>, ScenarioError> {
    let items = v.req(key)?.as_array()?;
    let pair = |items: &[super::NodeView<'_>]| -> Result<(String, String), ScenarioError> {
        match items {
            [a, c] => Ok((a.as_str()?.to_string(), c.as_str()?.to_string())),
            _ => Err(v.key_error(key, "expected a pair of node names, like [\"a\", \"b\"]")),
        }
    };
    if items.iter().all(|i| i.as_str().is_ok()) {
        return Ok(vec![pair(&items)?]);
    }
    items.iter().map(|i| pair(&i.as_array()?)).collect()
}

pub(super) fn positive_u32(v: &TableView<'_>, key: &str, n: u64) -> Result<u32, ScenarioError> {
    use super::limits::MAX_BUFFER_CELLS;
    match u32::try_from(n) {
        Ok(0) => Err(v.key_error(key, "must be at least 1 cell")),
        Ok(n) if n <= MAX_BUFFER_CELLS => Ok(n),
        _ => Err(v.key_error(key, format!("{n} cells is too large (max {MAX_BUFFER_CELLS} cells)"))),
    }
}

fn rate_or_line(spec: RateSpec, line: BitRate) -> BitRate {
    match spec {
        RateSpec::Line => line,
        RateSpec::Rate(r) => r,
    }
}

/// Every key a flow's `vc` table takes (docs/scenarios.md), so that an unknown key's message
/// names them in one order whatever the VC's conformance.
const VC_KEYS: &[&str] =
    &["category", "pcr", "name", "reverse_of", "conformance", "scr", "mbs", "cdvt", "mcr", "mfs", "tau2", "tau3"];

/// One `[[flow]]`: a VC along `path` (with `vc = { category, pcr }`) and an application
/// (`app = { kind = "udp" | "onoff", ... }`).
fn add_flow(
    b: &mut NetworkBuilder,
    v: &TableView<'_>,
    (index, seed): (u64, u64),
    links: &LinkRates,
    places: &mut Places,
    (admission, udp): (&mut Admission, &mut UdpSources),
) -> Result<(), ScenarioError> {
    let name = v.req_str("name")?.to_string();
    let path_names = super::paths::expand_path(v, v.req_str_list("path")?)?;
    super::limits::path_visits_each_node_once(v, &path_names)?;
    super::limits::path_length_within(v, &path_names)?;
    let path = path_names.iter().map(|n| node(b, v, "path", n)).collect::<Result<Vec<_>, _>>()?;
    let first_link = path.get(..2).and_then(|p| links.between(p[0], p[1]));
    let line = first_link.unwrap_or(BitRate::from_bps(1));
    let mut policed = None;
    let mut reverse_of = None;
    let (category, pcr, vc_name) = match v.opt_table("vc")? {
        Some(vc) => {
            // (The contract's keys are read by the policer of the VC's conformance alone.)
            vc.expect(VC_KEYS);
            let cat = match vc.opt_str("category")? {
                Some(c) => ServiceCategory::parse(c).ok_or_else(|| {
                    vc.key_error(
                        "category",
                        format!("unknown service category '{c}' (use cbr, rt-vbr, nrt-vbr, abr, gfr or ubr)"),
                    )
                })?,
                None => ServiceCategory::Ubr,
            };
            let pcr = vc.opt_rate_spec("pcr")?.map(|s| rate_or_line(s, line));
            if pcr.is_some_and(|p| p.as_bps() == 0) {
                return Err(vc.key_error("pcr", "must be positive"));
            }
            let shortest = path.windows(2).filter_map(|w| links.delay_between(w[0], w[1])).min();
            let shape = VcShape {
                category: cat,
                pcr: pcr.unwrap_or(line),
                shortest_link_delay: shortest.unwrap_or(SimDuration::ZERO),
            };
            let names: Vec<&str> = CONFORMANCE_NAMES.iter().flat_map(|names| names.iter().copied()).collect();
            let conformance = vc.opt_keyword("conformance", &names)?;
            policed = PolicerContract::read(conformance, &vc, shape)?;
            let shared = vc.opt_str("name")?.map(str::to_string);
            reverse_of = vc.opt_str("reverse_of")?.map(|of| {
                let for_tcp = "a TCP flow's VC has its acknowledgements' VC as its other direction";
                (of.to_string(), vc.key_error("reverse_of", for_tcp))
            });
            (cat, pcr, shared)
        }
        None => (ServiceCategory::Ubr, None, None),
    };
    let app = v.req_table("app")?;
    let kind = app.req_keyword("kind", &["udp", "onoff", "tcp", "poisson", "onoff-packet"])?;
    let adaptation = if kind == "onoff" { Adaptation::Raw } else { Adaptation::Aal5 };
    // The builder names the field at fault; here is where the scenario wrote it.
    let map_vc_err = |e: BuildError| {
        let key = match e.field {
            Field::Pcr => "vc",
            Field::Name => "name",
            _ => "path",
        };
        v.key_error(key, e.message)
    };
    let mut rng = RngStream::derive(seed, &format!("{name}/start"));
    let start = app.opt_duration("start")?.unwrap_or(SimDuration::ZERO);
    let jitter = app.opt_duration("start_jitter")?.unwrap_or(SimDuration::ZERO);
    let offset = if jitter.is_zero() { 0 } else { rng.below(jitter.as_picos()) };
    // Copy i of a repeated flow starts (i − 1) · start_stagger later (AD97: 10 ms apart).
    let stagger = app.opt_duration("start_stagger")?.unwrap_or(SimDuration::ZERO);
    let start =
        SimTime::ZERO + start + SimDuration::from_picos(offset) + stagger.saturating_mul(index.saturating_sub(1));
    super::apps::read_stop(&app, start, b, &name)?;
    places.entry(Subject::Flow(name.clone())).or_insert_with(|| v.key_error("app", ""));
    let vc_key = if v.contains("vc") { "vc" } else { "path" };
    places
        .entry(Subject::Vc(vc_name.clone().unwrap_or_else(|| name.clone())))
        .or_insert_with(|| v.key_error(vc_key, ""));
    // (The UPC's descriptor goes with the VC; the others' contracts to the flow's VCs.)
    let contract = match policed {
        Some(PolicerContract::Upc(c)) => Some(c),
        Some(PolicerContract::Gfr(c)) => {
            b.set_gfr_contract(&name, c).map_err(|e| v.key_error("vc", e.message))?;
            None
        }
        Some(PolicerContract::Dgcra(c)) => {
            b.set_abr_conformance(&name, c).map_err(|e| v.key_error("vc", e.message))?;
            None
        }
        None => None,
    };
    let vc_spec = VcSpec { name: name.clone(), path, category, pcr, contract, vc_name };
    if let Some((of, for_tcp)) = reverse_of {
        if kind == "tcp" {
            return Err(for_tcp);
        }
        b.set_reverse_of(&name, &of);
    }
    if kind == "tcp" {
        let config = super::tcp_app::tcp_config(&app)?;
        let bytes = app.opt_bytes("bytes")?;
        let write_size = app.opt_bytes("write")?;
        let file_bytes = app.opt_bytes("files")?;
        for (key, v) in [("bytes", bytes), ("write", write_size), ("files", file_bytes)] {
            if v == Some(0) {
                return Err(app.key_error(key, "must be positive"));
            }
        }
        if bytes.is_some() && file_bytes.is_some() {
            return Err(app.key_error("files", "give either bytes (one transfer) or files (back-to-back transfers)"));
        }
        let greedy = OnOff { peak_bps: pcr.unwrap_or(line).as_bps() as f64, activity: 1.0, mean_on_s: 1.0 };
        if !offer(admission, links, &name, &path_names, &vc_spec, greedy) {
            return Ok(());
        }
        b.add_tcp(&name, vc_spec, TcpSpec { config, bytes, write_size, file_bytes, start }).map_err(|e| {
            if e.field == Field::Tcp {
                app.error(e.message)
            } else {
                map_vc_err(e)
            }
        })?;
        return Ok(());
    }
    let given_pcr = pcr;
    let pcr = pcr.unwrap_or(line);
    let (app_source, source) = read_app_source(&app, kind, pcr, line)?;
    if !offer(admission, links, &name, &path_names, &vc_spec, source) {
        return Ok(());
    }
    if let (AppSource::Udp { datagram, rate }, Some(line)) = (&app_source, first_link) {
        let sends = (*datagram, rate.unwrap_or(pcr));
        udp.push(&name, v.key_error("app", ""), sends, start, (&vc_spec.path, &path_names), (given_pcr, line));
    }
    let vc = b.add_route(vc_spec, adaptation).map_err(map_vc_err)?;
    match app_source {
        AppSource::Udp { datagram, rate } => {
            b.add_udp(&name, vc, datagram, rate, start).map_err(|e| match e.field {
                Field::Name => v.key_error("name", e.message),
                Field::Rate => app.key_error("rate", e.message),
                _ => app.key_error("datagram", e.message),
            })?;
        }
        AppSource::OnOff { peak, on, off } => {
            b.add_onoff(&name, vc, peak, on, off, start).map_err(|e| match e.field {
                Field::Name => v.key_error("name", e.message),
                _ => app.key_error("on", e.message),
            })?;
        }
        AppSource::Random(spec) => super::apps::add_random_app(b, (v, &app), (&name, vc, start), spec)?,
    }
    Ok(())
}

/// A UDP or on/off application's parameters.
enum AppSource {
    Udp { datagram: u64, rate: Option<BitRate> },
    OnOff { peak: Option<BitRate>, on: SimDuration, off: SimDuration },
    Random(super::apps::RandomApp),
}

/// Reads a UDP or on/off application, and its descriptor for admission control (a UDP
/// source at its rate all the time; an on/off source at its peak, on on / (on + off)).
fn read_app_source(
    app: &TableView<'_>,
    kind: &str,
    pcr: BitRate,
    line: BitRate,
) -> Result<(AppSource, OnOff), ScenarioError> {
    if kind == "udp" {
        let datagram = app.req_bytes("datagram")?;
        let rate = app.opt_rate_spec("rate")?.map(|s| rate_or_line(s, pcr));
        if rate.is_some_and(|r| r.as_bps() == 0) {
            return Err(app.key_error("rate", "must be positive"));
        }
        super::limits::rate_within(app, "rate", rate)?;
        let bps = rate.unwrap_or(pcr).as_bps() as f64;
        return Ok((AppSource::Udp { datagram, rate }, OnOff { peak_bps: bps, activity: 1.0, mean_on_s: 1.0 }));
    }
    if kind == "poisson" || kind == "onoff-packet" {
        let (spec, descriptor) = super::apps::read_random_app(app, kind, pcr, line)?;
        return Ok((AppSource::Random(spec), descriptor));
    }
    let (peak, on, off) = super::apps::onoff_keys(app, pcr, line)?;
    let (on_s, off_s) = (on.as_secs_f64(), off.as_secs_f64());
    let activity = if on_s + off_s > 0.0 { on_s / (on_s + off_s) } else { 1.0 };
    let peak_bps = peak.unwrap_or(pcr).as_bps() as f64;
    // A zero on-period has no burst: any positive value gives the same (peak-free) answer.
    let source = OnOff { peak_bps, activity, mean_on_s: if on_s > 0.0 { on_s } else { 1e-12 } };
    Ok((AppSource::OnOff { peak, on, off }, source))
}

/// Offers a flow's VC to the CAC ports on its path (always admitted when no switch runs one).
fn offer(
    admission: &mut Admission,
    links: &LinkRates,
    name: &str,
    path_names: &[String],
    vc: &VcSpec,
    source: OnOff,
) -> bool {
    if !admission.is_active() {
        return true;
    }
    let path: Vec<(NodeId, &str)> = vc.path.iter().copied().zip(path_names.iter().map(String::as_str)).collect();
    let rate = |a: NodeId, c: NodeId| links.between(a, c);
    admission.offer(name, &path, vc.category, source, rate)
}
