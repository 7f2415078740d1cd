//! The policies read their own keys (`AcceptancePolicy::read_config`,
//! `ExplicitRateAlgorithm::read`, `IngressPolicer::read_contract`) from any `Keys`: here a plain list, with no scenario file,
//! against their documented defaults and checks.

use crate::abr::{BinaryMarking, ExplicitRate};
use crate::category::ServiceCategory;
use crate::contract::{ConformanceDef, DgcraContract, GfrConformance, GfrContract, TrafficDescriptor};
use crate::ingress::{PolicerContract, VcShape};
use crate::port::buffer::{
    DiscardConfig, EpdConfig, EpdThreshold, FairShareConfig, GfrFifoConfig, PerVcThresholdConfig, PortShape,
    DEFAULT_FAIRNESS_Z,
};
use celltrain_core::time::SimDuration;
use celltrain_core::{BitRate, Keys};

/// A value as a scenario would give it.
#[derive(Clone, Debug)]
pub(crate) enum Value {
    Text(&'static str),
    Flag(bool),
    Number(f64),
    Cells(u64),
    /// An integer (a count that is not written in cells).
    Count(u64),
    CellList(Vec<u64>),
    Bytes(u64),
    Rate(BitRate),
    Duration(SimDuration),
    /// A table of cell counts by name.
    Entries(Vec<(&'static str, u64)>),
}

/// Keys from a list; an error is `key: message`, or `(table): message`.
pub(crate) struct ListKeys(pub Vec<(&'static str, Value)>);

impl ListKeys {
    fn value(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    fn wrong(key: &str, v: &Value) -> String {
        format!("{key}: wrong kind of value {v:?}")
    }
}

impl Keys for ListKeys {
    type Error = String;

    fn contains(&self, key: &str) -> bool {
        self.value(key).is_some()
    }
    fn is_text(&self, key: &str) -> bool {
        matches!(self.value(key), Some(Value::Text(_) | Value::Bytes(_) | Value::Rate(_) | Value::Duration(_)))
    }
    fn text(&self, key: &str) -> Result<Option<&str>, String> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::Text(t)) => Ok(Some(t)),
            Some(v) => Err(Self::wrong(key, v)),
        }
    }
    fn flag(&self, key: &str) -> Result<Option<bool>, String> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::Flag(b)) => Ok(Some(*b)),
            Some(v) => Err(Self::wrong(key, v)),
        }
    }
    fn count(&self, key: &str) -> Result<Option<u64>, String> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::Count(n)) => Ok(Some(*n)),
            Some(v) => Err(Self::wrong(key, v)),
        }
    }
    fn number(&self, key: &str) -> Result<Option<f64>, String> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::Number(x)) => Ok(Some(*x)),
            Some(v) => Err(Self::wrong(key, v)),
        }
    }
    fn fraction(&self, key: &str) -> Result<Option<f64>, String> {
        match self.value(key) {
            Some(Value::Text(t)) => {
                let percent: f64 = t.trim_end_matches('%').trim().parse().map_err(|_| format!("{key}: {t}"))?;
                Ok(Some(percent / 100.0))
            }
            _ => self.number(key),
        }
    }
    fn cells(&self, key: &str) -> Result<Option<u64>, String> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::Cells(n)) => Ok(Some(*n)),
            Some(v) => Err(Self::wrong(key, v)),
        }
    }
    fn cell_list(&self, key: &str) -> Result<Option<Vec<u64>>, String> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::CellList(l)) => Ok(Some(l.clone())),
            Some(v) => Err(Self::wrong(key, v)),
        }
    }
    fn bytes(&self, key: &str) -> Result<Option<u64>, String> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::Bytes(n)) => Ok(Some(*n)),
            Some(v) => Err(Self::wrong(key, v)),
        }
    }
    fn duration(&self, key: &str) -> Result<Option<SimDuration>, String> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::Duration(d)) => Ok(Some(*d)),
            Some(v) => Err(Self::wrong(key, v)),
        }
    }
    fn rate(&self, key: &str) -> Result<Option<BitRate>, String> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::Rate(r)) => Ok(Some(*r)),
            Some(v) => Err(Self::wrong(key, v)),
        }
    }
    fn keyword(&self, key: &str, allowed: &[&str]) -> Result<Option<&str>, String> {
        match self.text(key)? {
            Some(t) if !allowed.contains(&t) => Err(format!("{key}: unknown value {t:?}")),
            t => Ok(t),
        }
    }
    fn entry_names(&self, key: &str) -> Result<Option<Vec<String>>, String> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::Entries(e)) => Ok(Some(e.iter().map(|(name, _)| name.to_string()).collect())),
            Some(v) => Err(Self::wrong(key, v)),
        }
    }
    fn entry_cells(&self, key: &str, entry: &str) -> Result<u64, String> {
        match self.value(key) {
            Some(Value::Entries(e)) => e.iter().find(|(name, _)| *name == entry).map(|&(_, n)| n).ok_or(entry.into()),
            _ => Err(format!("{key}: no table")),
        }
    }
    fn key_error(&self, key: &str, message: String) -> String {
        format!("{key}: {message}")
    }
    fn error(&self, message: String) -> String {
        format!("(table): {message}")
    }
    fn entry_error(&self, key: &str, entry: &str, message: String) -> String {
        format!("{key}.{entry}: {message}")
    }
}

/// A port of 1000 cells whose MTU is 192 cells (9180 bytes).
const PORT: PortShape = PortShape { buffer_cells: 1000, mtu_cells: 192 };

fn discard(name: &str, keys: Vec<(&'static str, Value)>) -> Result<DiscardConfig, String> {
    DiscardConfig::read(name, &ListKeys(keys), PORT).expect("a policy's name")
}

#[test]
fn epd_reads_its_threshold_and_option_with_msc98s_default() {
    use Value::*;
    let epd = |threshold, keep| Ok(DiscardConfig::Epd(EpdConfig { threshold, keep_refused_eom: keep }));
    assert_eq!(discard("epd", vec![]), epd(EpdThreshold::MSc98 { mtu_cells: 192 }, false));
    assert_eq!(
        discard("epd", vec![("epd_threshold", Text("auto"))]),
        epd(EpdThreshold::MSc98 { mtu_cells: 192 }, false)
    );
    assert_eq!(discard("epd", vec![("epd_threshold", Text("80 %"))]), epd(EpdThreshold::Fraction(0.8), false));
    assert_eq!(
        discard("epd", vec![("epd_excess", Number(1.5)), ("epd_keep_eom", Flag(true))]),
        epd(EpdThreshold::ExcessMtus { b: 1.5, mtu_cells: 192 }, true)
    );
    let both = discard("epd", vec![("epd_excess", Number(1.0)), ("epd_threshold", Text("auto"))]);
    assert_eq!(both, Err("epd_excess: give either epd_threshold or epd_excess, not both".into()));
    // 1000 − 6·192 < 0: below zero in the shared pool.
    let below = discard("epd", vec![("epd_excess", Number(6.0))]).unwrap_err();
    assert!(below.starts_with("epd_excess: EPD threshold of -152 cells is below zero"), "{below}");
}

#[test]
fn a_reserved_pool_is_checked_against_the_rule() {
    let keys = ListKeys(vec![]);
    let auto = discard("epd", vec![]).unwrap();
    // min{0.8·500, 500 − 576} < 0 in a pool of 500 cells; no key given: the hint says how.
    let problem = auto.pool_problem(&keys, 500).expect("below zero");
    assert!(problem.contains("below zero") && problem.contains("80 %"), "{problem}");
    assert_eq!(auto.pool_problem(&keys, 1000), None);
    let share = discard("selective-drop", vec![]).unwrap();
    assert_eq!(share.pool_problem(&keys, 10), None, "90 % of any pool is in it");
    // A threshold in cells fits the shared pool and not a reserved pool of 100 cells.
    // FBA with MSc98's rule given: below zero in a pool of 100 cells, and no hint (a rule given).
    let auto_keys = ListKeys(vec![("epd_threshold", Value::Text("auto"))]);
    let fba = DiscardConfig::read("fba", &auto_keys, PORT).expect("a name").unwrap();
    assert!(fba.pool_problem(&auto_keys, 100).is_some_and(|p| p.contains("below zero") && !p.contains("80 %")));
}

#[test]
fn fair_share_policies_default_to_90_percent_and_goyals_z() {
    let config = FairShareConfig { threshold: EpdThreshold::Fraction(0.9), z: DEFAULT_FAIRNESS_Z };
    assert_eq!(discard("fba", vec![]), Ok(DiscardConfig::Fba(config)));
    assert_eq!(discard("selective-drop", vec![]), Ok(DiscardConfig::SelectiveDrop(config)));
    let zero = discard("fba", vec![("fairness_z", Value::Number(0.0))]).unwrap_err();
    assert!(zero.starts_with("fairness_z: must be a positive number"), "{zero}");
}

#[test]
fn gfr_designs_need_their_thresholds_and_check_every_one_given() {
    use Value::*;
    assert_eq!(discard("gfr-fifo", vec![]), Err("(table): discard = \"gfr-fifo\" needs `low_threshold`".into()));
    // The high threshold defaults to an MTU below the buffer.
    assert_eq!(
        discard("gfr-fifo", vec![("low_threshold", Cells(100))]),
        Ok(DiscardConfig::GfrFifo(GfrFifoConfig { low_cells: 100, high_cells: 808 }))
    );
    // A per-VC threshold the design does not use is still checked.
    let above = discard("gfr-fifo", vec![("low_threshold", Cells(100)), ("vc_threshold", Cells(2000))]).unwrap_err();
    assert_eq!(above, "vc_threshold: 2000 cells is above the buffer of 1000 cells");
    let keys = vec![("low_threshold", Cells(100)), ("high_threshold", Cells(500)), ("vc_threshold", Cells(20))];
    let per_vc = discard("per-vc-threshold", keys).unwrap();
    assert_eq!(
        per_vc,
        DiscardConfig::PerVcThreshold(PerVcThresholdConfig { low_cells: 100, high_cells: 500, vc_cells: 20 })
    );
    assert!(per_vc.queues_per_vc_by_default() && !discard("epd", vec![]).unwrap().queues_per_vc_by_default());
    let red = discard("frame-red", vec![("red_min_th", Cells(100)), ("red_max_th", Cells(200))]).unwrap_err();
    assert_eq!(red, "red_max_p: missing required key 'red_max_p'");
}

#[test]
fn explicit_rate_algorithms_read_their_keys() {
    use Value::*;
    let read = |name, keys| ExplicitRate::read(name, &ListKeys(keys)).expect("an algorithm's name");
    assert!(matches!(read("none", vec![]), Ok(ExplicitRate::None(_))));
    assert_eq!(read("erica+", vec![]).unwrap_err(), "explicit_rate: erica+ needs target_queue");
    let erica = read("erica", vec![("target_utilization", Number(0.95))]).unwrap();
    assert!(matches!(&erica, ExplicitRate::Erica(e) if e.config().target_utilization == 0.95), "{erica:?}");
    assert!(read("erica", vec![("target_utilization", Number(1.5))]).unwrap_err().starts_with("target_utilization:"));
    let binary = read("binary", vec![("binary_thresholds", CellList(vec![300, 100])), ("ni_threshold", Cells(200))]);
    let expected = BinaryMarking { high_cells: 300, low_cells: 100, ni_cells: Some(200), congested: false };
    assert!(matches!(binary, Ok(ExplicitRate::Binary(b)) if b == expected));
    let one = read("binary", vec![("binary_thresholds", CellList(vec![300]))]).unwrap_err();
    assert_eq!(one, "binary_thresholds: give [high, low] queue thresholds");
    assert_eq!(read("binary", vec![]).unwrap_err(), "binary_thresholds: missing required key 'binary_thresholds'");
    assert!(ExplicitRate::read("fast", &ListKeys(vec![])).is_none());
}

#[test]
fn policers_read_their_contracts_and_refuse_the_others_keys() {
    use Value::*;
    let vc = |category| VcShape {
        category,
        pcr: BitRate::from_bps(10_000_000),
        shortest_link_delay: SimDuration::from_micros(40),
    };
    let read = |conformance, category, keys| PolicerContract::read(conformance, &ListKeys(keys), vc(category));
    let scr = BitRate::from_bps(2_000_000);
    // MBS as a byte size: the cells whose payloads hold it, ⌈4800 / 48⌉ = 100.
    let vbr = read(Some("vbr.3"), ServiceCategory::NrtVbr, vec![("scr", Rate(scr)), ("mbs", Bytes(4800))]);
    let expected =
        TrafficDescriptor::vbr(ConformanceDef::Vbr3, BitRate::from_bps(10_000_000), SimDuration::ZERO, scr, 100);
    assert_eq!(vbr, Ok(Some(PolicerContract::Upc(expected))));
    let no_mbs = read(Some("vbr.1"), ServiceCategory::NrtVbr, vec![("scr", Rate(scr))]).unwrap_err();
    assert!(no_mbs.starts_with("scr: "), "{no_mbs}");
    assert_eq!(read(None, ServiceCategory::Ubr, vec![]), Ok(None));
    let alone = read(None, ServiceCategory::Ubr, vec![("mbs", Count(10))]).unwrap_err();
    assert_eq!(alone, "mbs: a traffic contract needs `conformance` (vbr.1, vbr.2 or vbr.3)");
    let gfr_keys = vec![("mcr", Rate(scr)), ("mbs", Count(400)), ("mfs", Count(192))];
    let gfr = read(Some("gfr.2"), ServiceCategory::Gfr, gfr_keys.clone()).unwrap();
    assert!(matches!(
        gfr,
        Some(PolicerContract::Gfr(GfrContract { conformance: GfrConformance::Gfr2, mbs_cells: 400, .. }))
    ));
    let wrong = read(Some("gfr.1"), ServiceCategory::Ubr, gfr_keys).unwrap_err();
    assert_eq!(wrong, "conformance: gfr.1 needs category = \"gfr\"");
    let mfs = read(Some("cbr.1"), ServiceCategory::Cbr, vec![("mfs", Count(1))]).unwrap_err();
    assert_eq!(mfs, "mfs: a GFR contract needs `conformance` (gfr.1 or gfr.2)");
    // tau3 defaults to twice the shortest link delay.
    let abr = read(Some("abr"), ServiceCategory::Abr, vec![("tau2", Duration(SimDuration::from_micros(300)))]);
    let expected = DgcraContract {
        tau3: SimDuration::from_micros(80),
        tau2: SimDuration::from_micros(300),
        cdvt: SimDuration::ZERO,
    };
    assert_eq!(abr, Ok(Some(PolicerContract::Dgcra(expected))));
    let tau2 = read(Some("cbr.1"), ServiceCategory::Abr, vec![("tau2", Duration(SimDuration::from_micros(1)))]);
    assert_eq!(tau2.unwrap_err(), "tau2: applies with conformance = \"abr\"");
}

/// A `Keys` that records every key a reader looks at.
struct Recording<'a>(&'a ListKeys, std::cell::RefCell<Vec<String>>);

impl Recording<'_> {
    fn saw(&self, key: &str) {
        self.1.borrow_mut().push(key.to_string());
    }
}

impl Keys for Recording<'_> {
    type Error = String;

    fn contains(&self, key: &str) -> bool {
        self.saw(key);
        self.0.contains(key)
    }
    fn is_text(&self, key: &str) -> bool {
        self.saw(key);
        self.0.is_text(key)
    }
    fn text(&self, key: &str) -> Result<Option<&str>, String> {
        self.saw(key);
        self.0.text(key)
    }
    fn flag(&self, key: &str) -> Result<Option<bool>, String> {
        self.saw(key);
        self.0.flag(key)
    }
    fn count(&self, key: &str) -> Result<Option<u64>, String> {
        self.saw(key);
        self.0.count(key)
    }
    fn number(&self, key: &str) -> Result<Option<f64>, String> {
        self.saw(key);
        self.0.number(key)
    }
    fn fraction(&self, key: &str) -> Result<Option<f64>, String> {
        self.saw(key);
        self.0.fraction(key)
    }
    fn cells(&self, key: &str) -> Result<Option<u64>, String> {
        self.saw(key);
        self.0.cells(key)
    }
    fn cell_list(&self, key: &str) -> Result<Option<Vec<u64>>, String> {
        self.saw(key);
        self.0.cell_list(key)
    }
    fn bytes(&self, key: &str) -> Result<Option<u64>, String> {
        self.saw(key);
        self.0.bytes(key)
    }
    fn duration(&self, key: &str) -> Result<Option<SimDuration>, String> {
        self.saw(key);
        self.0.duration(key)
    }
    fn rate(&self, key: &str) -> Result<Option<BitRate>, String> {
        self.saw(key);
        self.0.rate(key)
    }
    fn keyword(&self, key: &str, allowed: &[&str]) -> Result<Option<&str>, String> {
        self.saw(key);
        self.0.keyword(key, allowed)
    }
    fn entry_names(&self, key: &str) -> Result<Option<Vec<String>>, String> {
        self.saw(key);
        self.0.entry_names(key)
    }
    fn entry_cells(&self, key: &str, entry: &str) -> Result<u64, String> {
        self.saw(key);
        self.0.entry_cells(key, entry)
    }
    fn key_error(&self, key: &str, message: String) -> String {
        self.0.key_error(key, message)
    }
    fn error(&self, message: String) -> String {
        self.0.error(message)
    }
    fn entry_error(&self, key: &str, entry: &str, message: String) -> String {
        self.0.entry_error(key, entry, message)
    }
}

/// Every buffer policy and explicit-rate algorithm reads only the keys it declares, and a
/// policy needs keys of its own (`NEEDS_KEYS`) exactly when it cannot be read from none.
#[test]
fn policies_read_only_the_keys_they_declare() {
    use crate::abr::{EXPLICIT_RATE_KEYS, EXPLICIT_RATE_NAMES};
    use crate::port::buffer::DISCARD_POLICIES;
    // Every key any policy takes, so that each reader runs its longest way.
    let given = ListKeys(vec![
        ("epd_threshold", Value::Text("auto")),
        ("epd_keep_eom", Value::Flag(true)),
        ("fairness_z", Value::Number(0.5)),
        ("low_threshold", Value::Cells(100)),
        ("high_threshold", Value::Cells(500)),
        ("vc_threshold", Value::Cells(20)),
        ("vc_low_threshold", Value::Cells(10)),
        ("vc_high_threshold", Value::Cells(50)),
        ("red_min_th", Value::Cells(100)),
        ("red_max_th", Value::Cells(200)),
        ("red_max_p", Value::Number(0.1)),
        ("target_queue", Value::Cells(300)),
        ("target_utilization", Value::Number(0.9)),
        ("binary_thresholds", Value::CellList(vec![300, 100])),
    ]);
    for policy in DISCARD_POLICIES {
        let recording = Recording(&given, Default::default());
        DiscardConfig::read(policy.name, &recording, PORT).expect("a name").expect("valid keys");
        for key in recording.1.borrow().iter() {
            assert!(policy.keys.contains(&key.as_str()), "{} reads {key}, not among its keys", policy.name);
        }
        let from_none = DiscardConfig::read(policy.name, &ListKeys(vec![]), PORT).expect("a name");
        assert_eq!(from_none.is_err(), policy.needs_keys, "{}: {from_none:?}", policy.name);
    }
    for (names, keys) in EXPLICIT_RATE_NAMES.iter().zip(EXPLICIT_RATE_KEYS) {
        for name in names.iter() {
            let recording = Recording(&given, Default::default());
            ExplicitRate::read(name, &recording).expect("a name").expect("valid keys");
            for key in recording.1.borrow().iter() {
                let declared = keys.iter().any(|(k, takers)| k == key && takers.contains(name));
                assert!(declared, "{name} reads {key}, not among its keys");
            }
        }
    }
}

/// A port's own keys: their defaults, each error at its key (a reserved pool's at its entry),
/// the policy's keys read against the port's buffer and MTU, and each reserved pool checked
/// against the policy.
#[test]
fn a_port_reads_its_own_keys() {
    use crate::port::sched::SchedulerKind;
    use crate::port::{PortConfig, DEFAULT_BUFFER_CELLS};
    use Value::*;
    let read = |keys: Vec<(&'static str, Value)>| PortConfig::read(&ListKeys(keys), 100_000);
    let plain = read(vec![]).expect("every key has a default");
    assert_eq!(u64::from(plain.buffer_cells), DEFAULT_BUFFER_CELLS);
    assert!(plain.reserved.is_empty() && !plain.per_vc_queues && plain.clp1_threshold.is_none());
    assert_eq!(plain.discard, DiscardConfig::TailDrop(()));
    assert_eq!(plain.scheduler, SchedulerKind::PriorityRoundRobin);
    // Every scheduler of the table by its name.
    for &name in crate::port::sched::SCHEDULER_NAMES {
        let port = read(vec![("scheduler", Text(name))]).expect("a scheduler's name");
        assert_eq!(port.scheduler.name(), name);
    }
    let port = read(vec![
        ("buffer", Cells(2000)),
        ("discard", Text("epd")),
        ("epd_threshold", Text("auto")),
        ("queueing", Text("per-vc")),
        ("reserved", Entries(vec![("nrt-vbr", 1500)])),
        ("clp1_threshold", Cells(1800)),
        ("efci_threshold", Cells(100)),
        ("scheduler", Text("wfq")),
    ])
    .expect("valid keys");
    assert!(port.scheduler == SchedulerKind::Wf2qPlus && port.scheduler.is_weighted());
    assert_eq!(port.buffer_cells, 2000);
    assert_eq!(port.reserved, vec![(crate::ServiceCategory::NrtVbr, 1500)]);
    assert!(port.per_vc_queues && port.clp1_threshold == Some(1800) && port.efci_threshold == Some(100));
    // A GFR design with per-VC thresholds queues per VC unless told otherwise.
    let gfr = |queueing: Vec<(&'static str, Value)>| {
        let design =
            [("discard", Text("per-vc-threshold")), ("low_threshold", Cells(100)), ("high_threshold", Cells(500))];
        read(design.into_iter().chain([("vc_threshold", Cells(20))]).chain(queueing).collect()).expect("valid keys")
    };
    assert!(gfr(vec![]).per_vc_queues && !gfr(vec![("queueing", Text("fifo"))]).per_vc_queues);
    for (keys, error) in [
        (vec![("buffer", Cells(0))], "buffer: must be at least 1 cell"),
        (vec![("buffer", Cells(200_000))], "buffer: 200000 cells is too large (max 100000 cells)"),
        (vec![("mtu", Bytes(65_535))], "mtu: 65535 bytes does not fit an AAL5 frame"),
        (vec![("discard", Text("red"))], "discard: unknown value"),
        (vec![("fairness_z", Number(0.5))], "fairness_z: only applies with discard = \"selective-drop\" or \"fba\""),
        (vec![("queueing", Text("wfq"))], "queueing: unknown value"),
        (vec![("reserved", Entries(vec![("xbr", 10)]))], "reserved.xbr: unknown service category"),
        (vec![("reserved", Entries(vec![("cbr", 0)]))], "reserved.cbr: must be at least 1 cell"),
        (
            vec![("discard", Text("epd")), ("epd_threshold", Text("auto")), ("reserved", Entries(vec![("cbr", 100)]))],
            "reserved.cbr: EPD threshold of -476 cells",
        ),
        (vec![("buffer", Cells(100)), ("clp1_threshold", Cells(101))], "clp1_threshold: 101 cells is above the buffer"),
        (vec![("efci_threshold", Cells(0))], "efci_threshold: must be 1 to 8192 cells"),
        (vec![("scheduler", Text("fifo"))], "scheduler: unknown value"),
    ] {
        let got = read(keys).expect_err(error);
        assert!(got.starts_with(error), "{got:?} is not {error:?}");
    }
    // The port reads its own keys and its policy's, and looks for the other policies' keys
    // only to refuse them: nothing else.
    let given = ListKeys(vec![("discard", Text("epd")), ("epd_threshold", Text("auto"))]);
    let recording = Recording(&given, Default::default());
    PortConfig::read(&recording, 100_000).expect("valid keys");
    let policies_keys = || crate::port::buffer::DISCARD_POLICIES.iter().flat_map(|p| p.keys.iter());
    for key in recording.1.borrow().iter() {
        let known = crate::port::PORT_KEYS.contains(&key.as_str()) || policies_keys().any(|k| k == key);
        assert!(known, "the port reads {key}");
    }
    assert!(recording.1.borrow().iter().any(|k| k == "epd_threshold"));
}
