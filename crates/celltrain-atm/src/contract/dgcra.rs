//! The dynamic GCRA (DGCRA) of ABR conformance (ATM Forum TM 4.0, af-tm-0056.000): a GCRA
//! whose increment follows the rate the network's feedback allows the source, applied where
//! the VC enters the network (`docs/references.md#dgcra`).
//!
//! ```text
//!  backward RM cell passes the UPC at b (ER, CI, NI)
//!     └─► U = the most ACR the source may take on it (TM 4.0 source rules 8 and 9)
//!         record (b, U): the source may use U from b + τ3 on (the soonest its cells can
//!         show it) until the next record's b + τ2 (the latest they must show that one)
//!  CLP=0 cell at t ─► a(t) = the largest U of the records in force at t
//!                  ─► GCRA(1/a, τ1): TAT = base + min(1/a(t), 1/a at the last conforming cell)
//!                        t + τ1 < TAT ─► Discard      else ─► base = max(t, TAT) ─► Pass
//!  CLP=1 cell (out-of-rate RM cell) ─► Pass
//! ```
//!
//! The schedule is the exact one (what TM 4.0's reference algorithm, "Algorithm A", keeps as a
//! list of pending rate changes), kept in at most [`MAX_RECORDS`] records: beyond, the two
//! oldest merge into one allowing the higher rate over both their spans (more lenient, never
//! stricter). Sans-IO and integer time: the caller passes cells in non-decreasing time; backward
//! RM cells may be passed in at any time not before the last cell's.

use super::upc::UpcAction;
use super::Clp;
use crate::abr::{AbrParams, AbrRate};
use crate::category::ServiceCategory;
use crate::ingress::VcShape;
use celltrain_core::time::{SimDuration, SimTime, PS_PER_SEC};
use celltrain_core::Keys;
use std::collections::VecDeque;
use std::fmt;

/// The most feedback records kept at once (see the module's docs).
pub const MAX_RECORDS: usize = 64;

/// The interval of a cell at no rate: no CLP=0 cell conforms but the first.
const NEVER: SimDuration = SimDuration::from_picos(u64::MAX);

/// The parameters of ABR conformance at one VC's UPC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DgcraContract {
    /// τ3: the least delay from a backward RM cell passing the UPC to the source's cells at the
    /// rate it allows reaching the UPC (an increase is allowed from then on).
    pub tau3: SimDuration,
    /// τ2: the most such delay (a decrease is enforced from then on).
    pub tau2: SimDuration,
    /// τ1: the cell delay variation tolerated.
    pub cdvt: SimDuration,
}

/// Why a DGCRA contract is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DgcraError {
    /// τ3 = 0: a loop from the UPC to the source and back takes time (and with none, a decision
    /// would depend on the order of events at one instant).
    ZeroTau3,
    /// τ3 > τ2: the least delay above the most.
    Tau3AboveTau2 { tau3: SimDuration, tau2: SimDuration },
}

impl fmt::Display for DgcraError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DgcraError::ZeroTau3 => write!(f, "tau3 must be positive"),
            DgcraError::Tau3AboveTau2 { tau3, tau2 } => {
                write!(f, "tau3 ({tau3}) exceeds tau2 ({tau2}): the least delay is above the most")
            }
        }
    }
}

impl DgcraContract {
    /// The name a VC's `conformance` key takes for ABR.
    pub const NAMES: [&'static str; 1] = ["abr"];

    /// ABR conformance (`conformance = "abr"`, `docs/abr.md`) with a VC's keys: `tau2` (the
    /// most delay from a backward RM cell leaving the first switch to the source's cells
    /// showing it there) has no default: it includes queueing, which only the scenario's author
    /// can bound. `tau3` (the least such delay) defaults to twice the shortest link delay on
    /// the VC's path, a bound no loop through either end's first link can beat; `cdvt` to 0.
    /// The VC must be of category ABR.
    pub fn read<K: Keys>(_conformance: &str, keys: &K, vc: VcShape) -> Result<Self, K::Error> {
        if vc.category != ServiceCategory::Abr {
            let message = format!("\"abr\" needs category = \"abr\", not \"{}\"", vc.category);
            return Err(keys.key_error("conformance", message));
        }
        if let Some(key) = ["scr", "mbs"].into_iter().find(|k| keys.contains(k)) {
            return Err(keys.key_error(key, "ABR conformance has no SCR or MBS (its rate follows the feedback)".into()));
        }
        let tau2 = keys.duration("tau2")?.ok_or_else(|| {
            let message =
                "conformance = \"abr\" needs tau2: the longest delay from the first switch to the source and back";
            keys.key_error("tau2", message.into())
        })?;
        let given_tau3 = keys.duration("tau3")?;
        let tau3 = given_tau3.unwrap_or(vc.shortest_link_delay.saturating_mul(2));
        let cdvt = keys.duration("cdvt")?.unwrap_or(SimDuration::ZERO);
        let contract = DgcraContract { tau3, tau2, cdvt };
        contract.validate().map_err(|e| match (e, given_tau3) {
            (DgcraError::ZeroTau3, Some(_)) => keys.key_error("tau3", "must be positive".into()),
            (DgcraError::ZeroTau3, None) => {
                keys.key_error("tau3", "give it: the path's links have no delay to take its default from".into())
            }
            (DgcraError::Tau3AboveTau2 { .. }, Some(_)) => keys.key_error("tau3", e.to_string()),
            (DgcraError::Tau3AboveTau2 { tau3, .. }, None) => keys.key_error(
                "tau2",
                format!("is shorter than tau3's default {tau3} (twice the shortest link delay on the path); give tau3"),
            ),
        })?;
        Ok(contract)
    }

    /// A VC whose conformance is not ABR's gives no `tau2` or `tau3`.
    pub fn refuse_keys<K: Keys>(keys: &K) -> Result<(), K::Error> {
        if let Some(key) = ["tau2", "tau3"].into_iter().find(|k| keys.contains(k)) {
            return Err(keys.key_error(key, "applies with conformance = \"abr\"".into()));
        }
        Ok(())
    }

    pub fn validate(&self) -> Result<(), DgcraError> {
        if self.tau3.is_zero() {
            return Err(DgcraError::ZeroTau3);
        }
        if self.tau3 > self.tau2 {
            return Err(DgcraError::Tau3AboveTau2 { tau3: self.tau3, tau2: self.tau2 });
        }
        Ok(())
    }
}

/// Counters of a DGCRA (cells counted as they arrived).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DgcraCounters {
    /// CLP=0 cells that conformed.
    pub conforming: u64,
    /// CLP=0 cells discarded.
    pub discarded: u64,
    /// CLP=1 cells (out-of-rate RM cells) passed without a test.
    pub clp1_passed: u64,
    /// Backward RM cells seen.
    pub feedback: u64,
    /// Times the two oldest records were merged for room.
    pub merged: u64,
}

/// One backward RM cell's rate: in force from `from` = `passed` + τ3 until the next record's
/// `passed` + τ2.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Record {
    passed: SimTime,
    from: SimTime,
    /// Cells/s.
    rate: f64,
}

/// The DGCRA of one ABR VC.
#[derive(Clone, Debug)]
pub struct Dgcra {
    contract: DgcraContract,
    /// The source's parameters (PCR, MCR, ICR, RIF, RDF).
    params: AbrParams,
    /// Oldest first; never empty (the first, until a later one ends it, is the ICR's).
    records: VecDeque<Record>,
    /// The source's ACR bound after the newest record: what the next feedback starts from.
    feedback_acr: f64,
    /// 1/a(t) for t before `valid_until`, since the last recomputation.
    increment: SimDuration,
    valid_until: SimTime,
    /// max(t, TAT) of the last conforming cell: the next TAT less its increment.
    tat_base: SimTime,
    /// 1/a at the last conforming cell (zero before the first: it always conforms).
    last_increment: SimDuration,
    counters: DgcraCounters,
}

impl PartialEq for Dgcra {
    fn eq(&self, other: &Self) -> bool {
        self.contract == other.contract
            && self.params == other.params
            && self.records == other.records
            && self.feedback_acr.to_bits() == other.feedback_acr.to_bits()
            && self.increment == other.increment
            && self.valid_until == other.valid_until
            && self.tat_base == other.tat_base
            && self.last_increment == other.last_increment
            && self.counters == other.counters
    }
}

// (The rates are validated finite, never NaN: equality is reflexive.)
impl Eq for Dgcra {}

/// 1/rate, rounded down to a picosecond: the policer is lenient by at most 1 ps a cell, where
/// the source rounds its interval up.
fn interval_floor(cells_per_s: f64) -> SimDuration {
    if cells_per_s < 1e-9 {
        return NEVER;
    }
    SimDuration::from_picos(((PS_PER_SEC as f64 / cells_per_s).floor() as u64).max(1))
}

impl Dgcra {
    /// The DGCRA of a source with `params` (validated; only PCR, MCR, ICR, RIF and RDF are
    /// read) under `contract`. The rate starts at the ICR as negotiated: the source starts at
    /// it, or below it when TBE/FRTT bounds it.
    pub fn new(params: &AbrParams, contract: DgcraContract) -> Result<Self, DgcraError> {
        contract.validate()?;
        let icr = params.icr;
        let mut records = VecDeque::with_capacity(MAX_RECORDS);
        records.push_back(Record { passed: SimTime::ZERO, from: SimTime::ZERO, rate: icr });
        Ok(Dgcra {
            contract,
            params: params.clone(),
            records,
            feedback_acr: icr,
            increment: interval_floor(icr),
            // (Recomputed at the first cell.)
            valid_until: SimTime::ZERO,
            tat_base: SimTime::ZERO,
            last_increment: SimDuration::ZERO,
            counters: DgcraCounters::default(),
        })
    }

    pub fn contract(&self) -> &DgcraContract {
        &self.contract
    }

    pub fn counters(&self) -> &DgcraCounters {
        &self.counters
    }

    /// The source's ACR bound after the last backward RM cell seen (cells/s).
    pub fn feedback_acr(&self) -> f64 {
        self.feedback_acr
    }

    /// Records kept (for tests of the bound).
    pub fn records(&self) -> usize {
        self.records.len()
    }

    /// A backward RM cell of the VC passes the UPC towards the source at `passed`.
    pub fn on_feedback(&mut self, passed: SimTime, er: AbrRate, ci: bool, ni: bool) {
        self.counters.feedback += 1;
        let rate = self.params.acr_after_feedback(self.feedback_acr, ci, ni, er);
        self.feedback_acr = rate;
        if self.records.len() == MAX_RECORDS {
            let first = self.records.pop_front().expect("records are never empty");
            let second = self.records.front_mut().expect("more than one record");
            *second = Record { passed: first.passed, from: first.from, rate: first.rate.max(second.rate) };
            self.counters.merged += 1;
            self.valid_until = SimTime::ZERO;
        }
        let from = passed + self.contract.tau3;
        self.records.push_back(Record { passed, from, rate });
        // The envelope before `from` is unchanged: the record it ends (the newest before it)
        // ends at `passed` + τ2 ≥ `from`.
        self.valid_until = self.valid_until.min(from);
    }

    /// The policing rate a(t) (cells/s), for `t` not before the last cell's time.
    pub fn rate_at(&mut self, t: SimTime) -> f64 {
        self.expire(t);
        self.records.iter().filter(|r| r.from <= t).map(|r| r.rate).fold(0.0, f64::max)
    }

    /// Drops the records that ended by `t`: the oldest ends when the next one's τ2 has passed.
    fn expire(&mut self, t: SimTime) {
        while self.records.len() >= 2 && self.records[1].passed + self.contract.tau2 <= t {
            self.records.pop_front();
        }
    }

    /// 1/a(t), recomputed only when the envelope may have changed since the last time.
    #[inline]
    fn increment_at(&mut self, t: SimTime) -> SimDuration {
        if t >= self.valid_until {
            self.recompute(t);
        }
        self.increment
    }

    #[cold]
    fn recompute(&mut self, t: SimTime) {
        self.expire(t);
        let tau2 = self.contract.tau2;
        // The oldest record ends first; a record not yet in force starts.
        let mut next = self.records.get(1).map_or(SimTime::MAX, |r| r.passed + tau2);
        let mut rate = 0.0f64;
        for r in &self.records {
            if r.from <= t {
                rate = rate.max(r.rate);
            } else {
                next = next.min(r.from);
            }
        }
        self.increment = interval_floor(rate);
        self.valid_until = next;
    }

    /// Decides for a cell arriving at `t` with `clp`: CLP=1 cells (out-of-rate RM cells, sent
    /// beside ACR at up to TCR) pass untested; a CLP=0 cell conforms to GCRA(1/a, τ1), the gap
    /// since the last conforming cell charged at the higher of the rates then and now (a source
    /// spaces a cell by the ACR it has when it sends it: one that speeds up is not held to the
    /// gap it began at the old rate).
    pub fn on_cell(&mut self, t: SimTime, clp: Clp) -> UpcAction {
        if clp == Clp::One {
            self.counters.clp1_passed += 1;
            return UpcAction::Pass;
        }
        let increment = self.increment_at(t);
        let tat = self.tat_base + increment.min(self.last_increment);
        if t + self.contract.cdvt < tat {
            self.counters.discarded += 1;
            return UpcAction::Discard;
        }
        self.tat_base = tat.max(t);
        self.last_increment = increment;
        self.counters.conforming += 1;
        UpcAction::Pass
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abr::AbrSource;
    use celltrain_core::rng::RngStream;

    /// The time unit of the vectors: 1/4096 s = 244 140 625 ps, so that the rates 1024, 2048
    /// and 4096 cells/s (exact in the RM cells' rate format) have intervals of exactly 4, 2
    /// and 1 units.
    const U: u64 = 244_140_625;
    const A: f64 = 1024.0;
    const B: f64 = 2048.0;
    const C: f64 = 4096.0;

    fn at(units: u64) -> SimTime {
        SimTime::from_picos(units * U)
    }

    /// PCR 8192 cells/s, MCR 0, ICR `icr`; RIF = 1, so that a backward RM cell without CI or
    /// NI lets the source go straight to its ER (and with NI, down to it).
    fn params(icr: f64) -> AbrParams {
        AbrParams { icr, rif: 1.0, ..AbrParams::tm4_defaults(8192.0) }
    }

    /// τ3 = 5 units, τ2 = 9 units, τ1 = 0.
    fn contract(tau3: u64, tau2: u64) -> DgcraContract {
        DgcraContract {
            tau3: SimDuration::from_picos(tau3 * U),
            tau2: SimDuration::from_picos(tau2 * U),
            cdvt: SimDuration::ZERO,
        }
    }

    fn feedback(d: &mut Dgcra, units: u64, er: f64, ni: bool) {
        let er = AbrRate::from_cells_per_sec(er);
        assert!((er.cells_per_sec() - er.cells_per_sec().round()).abs() < 1e-12, "exact rate");
        d.on_feedback(at(units), er, false, ni);
    }

    /// Which of the CLP=0 cells at `times` (units) pass.
    fn outcome(d: &mut Dgcra, times: &[u64]) -> Vec<bool> {
        times.iter().map(|&t| d.on_cell(at(t), Clp::Zero) == UpcAction::Pass).collect()
    }

    const P: bool = true;
    const D: bool = false;

    /// Vector 11.a: a source at a constant 2048 cells/s (every 2 units) conforms; a cell 1 unit
    /// after the one before (TAT = 20 + 2 = 22 > 21, τ1 = 0) does not, and the state stays:
    /// the next at 22 conforms.
    #[test]
    fn vector_11a_a_constant_rate_conforms() {
        let mut d = Dgcra::new(&params(B), contract(5, 9)).unwrap();
        let times: Vec<u64> = (0..=10).map(|k| 2 * k).chain([21, 22]).collect();
        let want: Vec<bool> = [vec![P; 11], vec![D, P]].concat();
        assert_eq!(outcome(&mut d, &times), want);
        assert_eq!((d.counters().conforming, d.counters().discarded), (12, 1));
    }

    /// Vector 11.b: a decrease from 2048 to 1024 cells/s (ER 1024, NI = 1) passes the UPC at
    /// t0 = 10 and is enforced from t0 + τ2 = 19. The source keeps 2 units: its cells at 10 …
    /// 18 conform at the old rate. The cell at 20 is charged the old interval (min(2, 4):
    /// TAT = 18 + 2 = 20, conforms; the next TAT is 20 + 4 = 24), so 22 fails, 24 passes
    /// (TAT 24, next 28), 26 fails, 28 passes: from t0 + τ2 on, every other cell is the excess.
    /// With τ2 = 3 (enforced from 13) the same stream fails from 16 on: 14 is charged 2
    /// (TAT 14), then TAT 18 > 16.
    #[test]
    fn vector_11b_a_decrease_is_enforced_tau2_after() {
        let times: Vec<u64> = (0..=14).map(|k| 2 * k).collect();
        let mut d = Dgcra::new(&params(B), contract(5, 9)).unwrap();
        feedback(&mut d, 10, A, true);
        let want = [vec![P; 11], vec![D, P, D, P]].concat();
        assert_eq!(outcome(&mut d, &times), want, "cells at 0, 2, …, 28 with τ2 = 9");
        let mut early = Dgcra::new(&params(B), contract(3, 3)).unwrap();
        feedback(&mut early, 10, A, true);
        let want = [vec![P; 8], vec![D, P, D, P, D, P, D]].concat();
        assert_eq!(outcome(&mut early, &times), want, "the same cells with τ2 = 3");
    }

    /// Vector 11.c: an increase from 2048 to 4096 cells/s (ER 4096, CI = NI = 0; RIF = 1 lets
    /// the source jump: min(2048 + 8192, 8192, 4096) = 4096) passes at t0 = 10 and is allowed
    /// from t0 + τ3 = 15. A source that takes it at once, one cell a unit from 11: 11 fails
    /// (TAT = 10 + 2 = 12), 12 passes (next TAT 14), 13 fails, 14 passes; from 15 the gap is
    /// charged min(2, 1) = 1 (TAT 15) and every cell a unit apart passes.
    #[test]
    fn vector_11c_an_increase_is_allowed_tau3_after() {
        let mut d = Dgcra::new(&params(B), contract(5, 9)).unwrap();
        feedback(&mut d, 10, C, false);
        assert_eq!(d.feedback_acr(), C);
        let times: Vec<u64> = [0, 2, 4, 6, 8, 10].into_iter().chain(11..=20).collect();
        let want = [vec![P; 6], vec![D, P, D, P], vec![P; 6]].concat();
        assert_eq!(outcome(&mut d, &times), want);
    }

    /// Vector 11.d: three pending changes, in order. ICR 2048 (B); at 2 a decrease to 1024 (A,
    /// NI = 1), at 4 an increase to 4096 (C: 1024 + 8192 capped by ER), at 10 a decrease to A
    /// again. Records: ICR in force [0, 2 + τ2 = 11); A [7, 4 + 9 = 13); C [9, 10 + 9 = 19);
    /// A [15, ∞). The largest in force: B until 9 (A from 7 is below it; the decrease at 2
    /// never bites, an increase comes before its τ2), C on [9, 19), A from 19.
    /// A source 7 units away (between τ3 and τ2) sends at B until 9, at A from 9 (next due
    /// 8 + 4 = 12), at C from 11 (due 8 + 1, so at once: 11, 12, …, 16), at A from 17 (20, 24,
    /// 28): every cell conforms. One that keeps C after 17 loses from 20 on all but one cell
    /// in four: 19 is charged min(1, 4) (TAT 18 + 1 = 19), then TAT 23.
    #[test]
    fn vector_11d_pending_changes_apply_in_order() {
        let mut d = Dgcra::new(&params(B), contract(5, 9)).unwrap();
        feedback(&mut d, 2, A, true);
        feedback(&mut d, 4, C, false);
        feedback(&mut d, 10, A, true);
        let envelope: Vec<f64> = [0, 6, 7, 8, 9, 12, 14, 18, 19, 30].iter().map(|&t| d.rate_at(at(t))).collect();
        assert_eq!(envelope, [B, B, B, B, C, C, C, C, A, A]);
        let mut d = Dgcra::new(&params(B), contract(5, 9)).unwrap();
        feedback(&mut d, 2, A, true);
        feedback(&mut d, 4, C, false);
        feedback(&mut d, 10, A, true);
        let compliant = [0, 2, 4, 6, 8, 11, 12, 13, 14, 15, 16, 20, 24, 28];
        assert_eq!(outcome(&mut d, &compliant), vec![P; compliant.len()]);
        let mut d = Dgcra::new(&params(B), contract(5, 9)).unwrap();
        feedback(&mut d, 2, A, true);
        feedback(&mut d, 4, C, false);
        feedback(&mut d, 10, A, true);
        let late: Vec<u64> = [0, 2, 4, 6, 8].into_iter().chain(11..=28).collect();
        let want = [vec![P; 5], vec![P; 8], vec![P, D, D, D, P, D, D, D, P, D]].concat();
        assert_eq!(outcome(&mut d, &late), want);
    }

    /// CLP=1 cells pass untested and leave the state as it was.
    #[test]
    fn clp1_cells_pass_untested() {
        let mut d = Dgcra::new(&params(B), contract(5, 9)).unwrap();
        assert_eq!(d.on_cell(at(0), Clp::Zero), UpcAction::Pass);
        let before = d.clone();
        for k in 0..5 {
            assert_eq!(d.on_cell(at(0) + SimDuration::from_picos(k), Clp::One), UpcAction::Pass);
        }
        assert_eq!(d.counters().clp1_passed, 5);
        assert_eq!(d.on_cell(at(1), Clp::Zero), UpcAction::Discard, "TAT 2 > 1");
        let mut reference = before;
        assert_eq!(reference.on_cell(at(1), Clp::Zero), UpcAction::Discard);
    }

    #[test]
    fn contracts_are_validated() {
        assert_eq!(contract(0, 9).validate(), Err(DgcraError::ZeroTau3));
        assert!(matches!(contract(10, 9).validate(), Err(DgcraError::Tau3AboveTau2 { .. })));
        assert!(contract(9, 9).validate().is_ok());
        assert!(Dgcra::new(&params(B), contract(10, 9)).is_err());
    }

    /// The rate bound follows the source's ACR bit for bit (rules 8 and 9 through the same
    /// function) on random feedback with CI, NI and ER.
    #[test]
    fn the_feedback_rate_is_the_sources_acr() {
        let params = AbrParams { icr: 50_000.0, mcr: 1_000.0, ..AbrParams::tm4_defaults(353_207.547) };
        let mut source = AbrSource::new(params.clone());
        let mut d = Dgcra::new(&params, contract(5, 9)).unwrap();
        let mut rng = RngStream::derive(3, "dgcra-feedback");
        for k in 0..5_000u64 {
            let (ci, ni) = (rng.below(5) == 0, rng.below(4) == 0);
            let er = AbrRate::from_cells_per_sec(rng.uniform() * 400_000.0);
            let rm = crate::abr::RmCell {
                dir: crate::abr::RmDirection::Backward,
                bn: false,
                ci,
                ni,
                er,
                ccr: AbrRate::ZERO,
                mcr: AbrRate::ZERO,
            };
            source.on_brm(&rm);
            d.on_feedback(at(k), er, ci, ni);
            assert_eq!(d.feedback_acr().to_bits(), source.acr().to_bits(), "after feedback {k}");
        }
    }

    /// The envelope by its definition, over every feedback given: the largest rate among the
    /// records in force at `t` (record k from b_k + τ3 until b_(k+1) + τ2).
    fn envelope(icr: f64, feedback: &[(SimTime, f64)], c: &DgcraContract, t: SimTime) -> f64 {
        let mut rate = 0.0f64;
        let mut starts = vec![(SimTime::ZERO, SimTime::ZERO, icr)];
        starts.extend(feedback.iter().map(|&(b, u)| (b, b + c.tau3, u)));
        for (k, &(_, from, u)) in starts.iter().enumerate() {
            let until = starts.get(k + 1).map_or(SimTime::MAX, |&(b, _, _)| b + c.tau2);
            if from <= t && t < until {
                rate = rate.max(u);
            }
        }
        rate
    }

    /// On random feedback and cells, the kept records give the envelope exactly while no
    /// merge was needed, and never less after (a merge is only ever more lenient); the
    /// decisions follow the envelope's rate.
    #[test]
    fn the_records_give_the_envelope() {
        for (seed, per_tau2) in [(1, 3u64), (2, 40), (3, 200)] {
            let mut rng = RngStream::derive(seed, "dgcra-envelope");
            let c = contract(5, 9);
            let mut d = Dgcra::new(&params(B), c).unwrap();
            let mut given: Vec<(SimTime, f64)> = Vec::new();
            let mut t = SimTime::ZERO;
            for _ in 0..20_000 {
                t += SimDuration::from_picos(rng.below(9 * U / per_tau2 + 1));
                if rng.below(4) == 0 {
                    let er = [A, B, C, 8192.0][rng.below(4) as usize];
                    let (ci, ni) = (rng.below(6) == 0, rng.below(3) == 0);
                    d.on_feedback(t, AbrRate::from_cells_per_sec(er), ci, ni);
                    given.push((t, d.feedback_acr()));
                } else {
                    let exact = envelope(B, &given, &c, t);
                    let kept = d.clone().rate_at(t);
                    if d.counters().merged == 0 {
                        assert_eq!(kept, exact, "seed {seed} at {t:?}");
                    } else {
                        assert!(kept >= exact, "seed {seed} at {t:?}: {kept} below {exact}");
                    }
                    d.on_cell(t, Clp::Zero);
                    assert_eq!(d.increment, interval_floor(kept), "the cached increment at {t:?}");
                }
                assert!(d.records() <= MAX_RECORDS);
            }
            assert_eq!(d.counters().merged > 0, per_tau2 == 200, "seed {seed}: {:?}", d.counters());
        }
    }
}
