//! The ABR source end system (ATM Forum TM 4.0, af-tm-0056.000, §5.10.4): the allowed cell
//! rate (ACR) between MCR and PCR, which in-rate cell goes next (a forward RM cell every Nrm
//! cells or after Trm, a turned-around backward RM cell, or data), and the rate changes that
//! backward RM cells, the use-it-or-lose-it rule (ADTF) and missing feedback (CRM, CDF) make.
//!
//! Sans-IO: the network asks [`AbrSource::next_in_rate`] at each in-rate opportunity and
//! spaces opportunities by [`AbrSource::cell_interval`]; it hands every backward RM cell that
//! reaches the source to [`AbrSource::on_brm`].

use super::rm::{AbrRate, RmCell};
use celltrain_core::time::{SimDuration, SimTime, PS_PER_SEC};

/// The parameters of an ABR connection's source (rates in cells/s).
#[derive(Clone, Debug, PartialEq)]
pub struct AbrParams {
    /// Peak cell rate: ACR never exceeds it.
    pub pcr: f64,
    /// Minimum cell rate: ACR never falls below it.
    pub mcr: f64,
    /// Initial cell rate, as negotiated (the source uses at most TBE/FRTT).
    pub icr: f64,
    /// Tagged cell rate: the most out-of-rate RM cells per second.
    pub tcr: f64,
    /// At most Nrm − 1 in-rate cells between two forward RM cells.
    pub nrm: u32,
    /// With Trm elapsed, a forward RM cell once at least Mrm in-rate cells went since the last.
    pub mrm: u32,
    pub trm: SimDuration,
    /// ACR decrease time factor: after this long without an in-rate forward RM cell, ACR falls
    /// back to ICR.
    pub adtf: SimDuration,
    /// Rate increase factor: ACR += RIF · PCR on a backward RM cell without CI or NI.
    pub rif: f64,
    /// Rate decrease factor: ACR −= RDF · ACR on a backward RM cell with CI.
    pub rdf: f64,
    /// Cutoff decrease factor: ACR −= CDF · ACR before a forward RM cell once CRM of them went
    /// without feedback.
    pub cdf: f64,
    /// Transient buffer exposure, cells.
    pub tbe_cells: u32,
    /// Fixed round-trip time (zero: unknown, no bound on ICR).
    pub frtt: SimDuration,
    /// Missing-RM-cell count (None: ⌈TBE / Nrm⌉).
    pub crm: Option<u32>,
}

impl AbrParams {
    /// TM 4.0's defaults for a connection whose PCR is `pcr` cells/s (ICR = PCR, MCR = 0).
    pub fn tm4_defaults(pcr: f64) -> Self {
        AbrParams {
            pcr,
            mcr: 0.0,
            icr: pcr,
            tcr: 10.0,
            nrm: 32,
            mrm: 2,
            trm: SimDuration::from_millis(100),
            adtf: SimDuration::from_millis(500),
            rif: 1.0 / 16.0,
            rdf: 1.0 / 16.0,
            cdf: 1.0 / 16.0,
            tbe_cells: 16_777_215,
            frtt: SimDuration::ZERO,
            crm: None,
        }
    }

    /// Checks the parameters against TM 4.0's ranges (the message names the field).
    pub fn validate(&self) -> Result<(), String> {
        let rate = |name: &str, v: f64| {
            if v.is_finite() && v >= 0.0 {
                Ok(())
            } else {
                Err(format!("{name} must be a rate of at least 0 cells/s"))
            }
        };
        rate("pcr", self.pcr)?;
        rate("mcr", self.mcr)?;
        rate("icr", self.icr)?;
        rate("tcr", self.tcr)?;
        if self.pcr < 1.0 {
            return Err("pcr must be at least 1 cell/s".into());
        }
        if self.mcr > self.pcr {
            return Err(format!("mcr ({} cells/s) exceeds pcr ({} cells/s)", self.mcr, self.pcr));
        }
        if self.icr < self.mcr || self.icr > self.pcr {
            return Err(format!("icr ({} cells/s) must lie between mcr and pcr", self.icr));
        }
        if self.tcr <= 0.0 {
            return Err("tcr must be positive".into());
        }
        if !(2..=256).contains(&self.nrm) || !self.nrm.is_power_of_two() {
            return Err(format!("nrm must be a power of 2 from 2 to 256, not {}", self.nrm));
        }
        if self.mrm == 0 || self.mrm >= self.nrm {
            return Err(format!("mrm must be from 1 to nrm − 1, not {}", self.mrm));
        }
        if self.trm.is_zero() || self.adtf.is_zero() {
            return Err("trm and adtf must be positive".into());
        }
        for (name, v) in [("rif", self.rif), ("rdf", self.rdf)] {
            if !(v > 0.0 && v <= 1.0) {
                return Err(format!("{name} must be in (0, 1], not {v}"));
            }
        }
        if !(0.0..=1.0).contains(&self.cdf) {
            return Err(format!("cdf must be in [0, 1], not {}", self.cdf));
        }
        if self.tbe_cells == 0 || self.crm == Some(0) {
            return Err("tbe and crm must be positive".into());
        }
        Ok(())
    }

    /// The ICR the source uses: at most TBE/FRTT, so that the first round trip exposes at most
    /// TBE cells (not below MCR).
    pub fn icr_operational(&self) -> f64 {
        if self.frtt.is_zero() {
            return self.icr;
        }
        self.icr.min(f64::from(self.tbe_cells) / self.frtt.as_secs_f64()).max(self.mcr)
    }

    /// CRM: ⌈TBE / Nrm⌉ unless given.
    pub fn crm(&self) -> u32 {
        self.crm.unwrap_or_else(|| self.tbe_cells.div_ceil(self.nrm))
    }

    /// Rules 8 and 9: the ACR a source with ACR `acr` takes when a backward RM cell with CI,
    /// NI and ER reaches it — the most the rules allow (down by RDF·ACR with CI, up by RIF·PCR
    /// without CI or NI, then at most ER, at least MCR). The source and the DGCRA that polices
    /// it (`contract::Dgcra`) both use it, so that they agree to the last bit.
    pub fn acr_after_feedback(&self, acr: f64, ci: bool, ni: bool, er: AbrRate) -> f64 {
        let mut acr = acr;
        if ci {
            acr = (acr - acr * self.rdf).max(self.mcr);
        } else if !ni {
            acr = (acr + self.rif * self.pcr).min(self.pcr);
        }
        acr.min(er.cells_per_sec()).max(self.mcr)
    }
}

/// Which in-rate cell the source sends at an opportunity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum InRate {
    /// A forward RM cell with these fields.
    Frm(RmCell),
    /// The turned-around backward RM cell that waits (for the reverse connection).
    Brm,
    /// The next data cell.
    Data,
}

/// [`InRate`] without the forward RM cell's fields: what an opportunity would take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    Frm,
    Brm,
    Data,
}

/// What the source has done, for reports and the RM-cell identities.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AbrSourceCounts {
    pub frm_sent: u64,
    pub out_of_rate_frm_sent: u64,
    pub brm_sent: u64,
    pub data_sent: u64,
    pub brm_received: u64,
    /// ACR cut back to ICR by the use-it-or-lose-it rule.
    pub adtf_resets: u64,
    /// ACR cut by CDF for missing feedback.
    pub crm_cuts: u64,
}

/// The source end system of one ABR connection.
#[derive(Clone, Debug)]
pub struct AbrSource {
    params: AbrParams,
    icr: f64,
    crm: u32,
    /// Allowed cell rate, cells/s.
    acr: f64,
    /// 1/ACR, rounded up to a picosecond (None: ACR is zero), kept with ACR: asked per cell.
    interval: Option<SimDuration>,
    /// No in-rate cell has been sent yet (the first is a forward RM cell).
    first: bool,
    /// In-rate cells sent since the last in-rate forward RM cell.
    since_frm: u32,
    last_frm_at: SimTime,
    /// A backward RM cell went in-rate since the last forward RM cell.
    brm_since_frm: bool,
    /// Forward RM cells sent since the last backward RM cell with BN = 0 came back.
    unanswered: u32,
    pub counts: AbrSourceCounts,
}

impl AbrSource {
    /// A source at connection set-up (ACR = ICR), with parameters already validated.
    pub fn new(params: AbrParams) -> Self {
        let icr = params.icr_operational();
        AbrSource {
            crm: params.crm(),
            icr,
            acr: icr,
            interval: interval_of(icr),
            first: true,
            since_frm: 0,
            last_frm_at: SimTime::ZERO,
            brm_since_frm: false,
            unanswered: 0,
            counts: AbrSourceCounts::default(),
            params,
        }
    }

    pub fn params(&self) -> &AbrParams {
        &self.params
    }

    /// The allowed cell rate now, cells/s.
    pub fn acr(&self) -> f64 {
        self.acr
    }

    /// The ICR in use (after the TBE/FRTT bound).
    pub fn icr(&self) -> f64 {
        self.icr
    }

    /// The least time between two in-rate cells at the current ACR (None: ACR is zero, and
    /// only out-of-rate RM cells may go).
    #[inline]
    pub fn cell_interval(&self) -> Option<SimDuration> {
        self.interval
    }

    fn set_acr(&mut self, acr: f64) {
        self.acr = acr;
        self.interval = interval_of(acr);
    }

    /// The in-rate cell to send at an opportunity at `now`, given whether data and a
    /// turned-around RM cell wait (TM 4.0 source rules 2, 3, 5–7, 10). None when nothing
    /// waits: a source with nothing to send sends no forward RM cell either.
    pub fn next_in_rate(&mut self, now: SimTime, data_waiting: bool, brm_waiting: bool) -> Option<InRate> {
        match self.in_rate_choice(now, data_waiting, brm_waiting)? {
            Choice::Frm => Some(InRate::Frm(self.forward_rm(now))),
            Choice::Brm => {
                self.since_frm += 1;
                self.brm_since_frm = true;
                self.counts.brm_sent += 1;
                Some(InRate::Brm)
            }
            Choice::Data => {
                self.since_frm += 1;
                self.counts.data_sent += 1;
                Some(InRate::Data)
            }
        }
    }

    /// Whether an opportunity at `now` with data waiting would take a data cell (as
    /// [`next_in_rate`](Self::next_in_rate) would choose), without taking it.
    pub fn takes_data_at(&self, now: SimTime, brm_waiting: bool) -> bool {
        self.in_rate_choice(now, true, brm_waiting) == Some(Choice::Data)
    }

    /// Rule 3's choice at an opportunity at `now`: a forward RM cell when one is due, else the
    /// waiting backward one unless one went since the last forward RM cell and data waits, else
    /// data.
    #[inline(always)]
    fn in_rate_choice(&self, now: SimTime, data_waiting: bool, brm_waiting: bool) -> Option<Choice> {
        if !data_waiting && !brm_waiting {
            None
        } else if self.frm_due(now) {
            Some(Choice::Frm)
        } else if brm_waiting && (!self.brm_since_frm || !data_waiting) {
            Some(Choice::Brm)
        } else {
            Some(Choice::Data)
        }
    }

    /// Whether the in-rate opportunity at `now` goes to a forward RM cell (rules 2 and 3: the
    /// first cell, Nrm − 1 cells since the last, or Trm elapsed with at least Mrm since).
    #[inline(always)]
    fn frm_due(&self, now: SimTime) -> bool {
        let trm_due = self.since_frm >= self.params.mrm && now.saturating_since(self.last_frm_at) >= self.params.trm;
        self.first || self.since_frm + 1 >= self.params.nrm || trm_due
    }

    /// In-rate opportunities at `at`, `at + gap`, … (at most `most`), with data waiting at each
    /// and no turned-around RM cell, taken for data as long as no forward RM cell is due: as
    /// many calls of [`next_in_rate`](Self::next_in_rate)`(at + j·gap, true, false)` as return
    /// `Data` in a row (the first that would send a forward RM cell is not taken). Returns how
    /// many were taken. (Data cells change no rate, so the run's spacing holds throughout.)
    #[inline]
    pub fn take_data_run(&mut self, at: SimTime, gap: SimDuration, most: u32) -> u32 {
        let (mut taken, mut t) = (0, at);
        while taken < most && !self.frm_due(t) {
            self.since_frm += 1;
            taken += 1;
            t += gap;
        }
        self.counts.data_sent += u64::from(taken);
        taken
    }

    /// Rules 5, 6, 7 and 10: the rate checks made before a forward RM cell, and its fields.
    fn forward_rm(&mut self, now: SimTime) -> RmCell {
        if !self.first && self.acr > self.icr && now.saturating_since(self.last_frm_at) > self.params.adtf {
            self.set_acr(self.icr);
            self.counts.adtf_resets += 1;
        }
        if self.unanswered >= self.crm && self.params.cdf > 0.0 {
            self.set_acr((self.acr - self.acr * self.params.cdf).max(self.params.mcr));
            self.counts.crm_cuts += 1;
        }
        self.unanswered = self.unanswered.saturating_add(1);
        self.first = false;
        self.since_frm = 0;
        self.last_frm_at = now;
        self.brm_since_frm = false;
        self.counts.frm_sent += 1;
        self.rm_fields()
    }

    /// An out-of-rate forward RM cell (rule 11: CLP = 1, at most TCR per second, when ACR is
    /// below TCR so that feedback can still arrive). It does not count as in-rate.
    pub fn out_of_rate_rm(&mut self) -> RmCell {
        self.counts.out_of_rate_frm_sent += 1;
        self.rm_fields()
    }

    /// Whether out-of-rate forward RM cells are due (ACR below TCR).
    pub fn needs_out_of_rate(&self) -> bool {
        self.acr < self.params.tcr
    }

    /// The least time between two out-of-rate RM cells (1/TCR).
    pub fn out_of_rate_interval(&self) -> SimDuration {
        SimDuration::from_picos((PS_PER_SEC as f64 / self.params.tcr).ceil() as u64)
    }

    fn rm_fields(&self) -> RmCell {
        RmCell::forward(
            AbrRate::from_cells_per_sec(self.params.pcr),
            AbrRate::from_cells_per_sec(self.acr),
            AbrRate::from_cells_per_sec(self.params.mcr),
        )
    }

    /// A backward RM cell reaches the source (rules 8 and 9).
    pub fn on_brm(&mut self, rm: &RmCell) {
        self.counts.brm_received += 1;
        if !rm.bn {
            self.unanswered = 0;
        }
        self.set_acr(self.params.acr_after_feedback(self.acr, rm.ci, rm.ni, rm.er));
    }
}

/// The least time between cells at `acr` cells/s, rounded up to a picosecond.
fn interval_of(acr: f64) -> Option<SimDuration> {
    if acr < 1e-9 {
        return None;
    }
    let ps = (PS_PER_SEC as f64 / acr).ceil();
    Some(SimDuration::from_picos((ps as u64).max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abr::rm::RmDirection;

    fn brm(ci: bool, ni: bool, er: f64) -> RmCell {
        RmCell {
            dir: RmDirection::Backward,
            bn: false,
            ci,
            ni,
            er: AbrRate::from_cells_per_sec(er),
            ccr: AbrRate::ZERO,
            mcr: AbrRate::ZERO,
        }
    }

    /// Reference test vector 4.a (TM 4.0 rules 8 and 9).
    #[test]
    fn acr_follows_backward_rm_cells() {
        let params = AbrParams { mcr: 100.0, icr: 1_000.0, ..AbrParams::tm4_defaults(10_000.0) };
        params.validate().unwrap();
        let mut s = AbrSource::new(params);
        let steps = [
            (brm(false, false, 10_000.0), 1_625.0),
            (brm(false, false, 10_000.0), 2_250.0),
            (brm(true, false, 10_000.0), 2_109.375),
            (brm(false, true, 10_000.0), 2_109.375),
            (brm(false, false, 500.0), 500.0),
            (brm(true, false, 50.0), 100.0),
        ];
        for (i, (rm, acr)) in steps.iter().enumerate() {
            s.on_brm(rm);
            assert!((s.acr() - acr).abs() < 1e-9, "step {i}: ACR {} not {acr}", s.acr());
        }
        assert_eq!(s.counts.brm_received, 6);
    }

    /// Reference test vector 4.b: CRM, the ICR bound and the CDF cut.
    #[test]
    fn crm_icr_bound_and_cdf_cut() {
        assert_eq!(AbrParams::tm4_defaults(1e5).crm(), 524_288);
        let bounded =
            AbrParams { tbe_cells: 4_096, frtt: SimDuration::from_millis(10), ..AbrParams::tm4_defaults(1e6) };
        assert!((bounded.icr_operational() - 409_600.0).abs() < 1e-6);
        // MSc98, Table 4.1: TBE 3200 cells, Nrm 32 → CRM 100; ICR 3 Mbit/s is below TBE/FRTT.
        let seed = AbrParams {
            icr: 3e6 / 424.0,
            tbe_cells: 3_200,
            frtt: SimDuration::from_millis(10),
            ..AbrParams::tm4_defaults(149.76e6 / 424.0)
        };
        assert_eq!(seed.crm(), 100);
        assert!((seed.icr_operational() - 3e6 / 424.0).abs() < 1e-9);
        // CRM = 1: the second forward RM cell without feedback cuts ACR by 1/16.
        let params = AbrParams { icr: 2_000.0, crm: Some(1), ..AbrParams::tm4_defaults(10_000.0) };
        let mut s = AbrSource::new(params);
        let t = SimTime::from_picos(1);
        assert!(matches!(s.next_in_rate(t, true, false), Some(InRate::Frm(_))));
        assert_eq!(s.acr(), 2_000.0);
        for _ in 0..31 {
            assert_eq!(s.next_in_rate(t, true, false), Some(InRate::Data));
        }
        assert!(matches!(s.next_in_rate(t, true, false), Some(InRate::Frm(_))));
        assert_eq!(s.acr(), 1_875.0);
        assert_eq!(s.counts.crm_cuts, 1);
        // A BN = 0 backward RM cell resets the count: the next forward RM cell cuts nothing.
        s.on_brm(&RmCell { ni: true, ..brm(false, true, 10_000.0) });
        for _ in 0..31 {
            s.next_in_rate(t, true, false);
        }
        assert!(matches!(s.next_in_rate(t, true, false), Some(InRate::Frm(_))));
        assert_eq!(s.acr(), 1_875.0);
    }

    /// Parameters with Nrm, Mrm and Trm drawn, so that every rule deciding a forward RM cell
    /// comes into play.
    fn random_rm_params(rng: &mut celltrain_core::rng::RngStream) -> AbrParams {
        AbrParams {
            nrm: 2 + rng.below(40) as u32,
            mrm: 1 + rng.below(4) as u32,
            trm: SimDuration::from_micros(1 + rng.below(400)),
            ..AbrParams::tm4_defaults(10_000.0)
        }
    }

    /// A data run takes the opportunities that `next_in_rate` gives to data, one by one, and
    /// stops where it gives a forward RM cell (Nrm, Trm after Mrm, the first cell), leaving the
    /// source as those calls leave it.
    #[test]
    fn a_data_run_is_the_calls_it_stands_for() {
        let mut rng = celltrain_core::rng::RngStream::derive(5, "abr-data-run");
        for case in 0..300 {
            let params = random_rm_params(&mut rng);
            let gap = SimDuration::from_micros(1 + rng.below(60));
            let (mut one, mut run) = (AbrSource::new(params.clone()), AbrSource::new(params));
            let mut t = SimTime::from_picos(rng.below(1_000) * 1_000_000);
            let after = |t: SimTime, cells: u32| SimTime::from_picos(t.as_picos() + gap.as_picos() * u64::from(cells));
            for _ in 0..30 {
                let most = rng.below(50) as u32;
                let taken = run.take_data_run(t, gap, most);
                let mut calls = 0;
                while calls < most {
                    let mut probe = one.clone();
                    if probe.next_in_rate(after(t, calls), true, false) != Some(InRate::Data) {
                        break;
                    }
                    one = probe;
                    calls += 1;
                }
                assert_eq!(taken, calls, "case {case}");
                assert_eq!((run.counts, run.since_frm), (one.counts, one.since_frm), "case {case}");
                t = after(t, taken);
                // Then an opportunity by the call itself (an FRM where the run stopped short).
                assert_eq!(run.next_in_rate(t, true, false), one.next_in_rate(t, true, false), "case {case}");
                t += gap;
            }
        }
    }

    /// `takes_data_at` answers as `next_in_rate` then chooses, whatever waits, and changes
    /// nothing.
    #[test]
    fn the_data_query_is_the_choice_it_stands_for() {
        let mut rng = celltrain_core::rng::RngStream::derive(7, "abr-data-query");
        for case in 0..200 {
            let params = random_rm_params(&mut rng);
            let mut s = AbrSource::new(params);
            let mut t = SimTime::ZERO;
            let (mut data_seen, mut other_seen) = (false, false);
            for _ in 0..60 {
                let (data, brm) = (rng.below(4) > 0, rng.below(3) == 0);
                let before = s.clone();
                let asked = s.takes_data_at(t, brm);
                assert_eq!(
                    (s.counts, s.since_frm, s.brm_since_frm),
                    (before.counts, before.since_frm, before.brm_since_frm)
                );
                let sent = s.next_in_rate(t, data, brm);
                if data {
                    assert_eq!(asked, sent == Some(InRate::Data), "case {case}");
                    data_seen |= asked;
                    other_seen |= !asked;
                }
                t += SimDuration::from_micros(1 + rng.below(100));
            }
            assert!(data_seen && other_seen, "case {case}: both answers drawn");
        }
    }

    /// Rule 3: the first cell is an FRM, then one FRM per Nrm cells; a waiting BRM goes at most
    /// once between FRMs while data waits; Trm forces an FRM after Mrm cells.
    #[test]
    fn in_rate_cell_order() {
        let params = AbrParams { nrm: 4, ..AbrParams::tm4_defaults(10_000.0) };
        let mut s = AbrSource::new(params);
        let t0 = SimTime::ZERO;
        assert_eq!(s.next_in_rate(t0, false, false), None, "nothing waits: nothing is sent");
        let frm = s.next_in_rate(t0, true, false);
        let Some(InRate::Frm(rm)) = frm else { panic!("the first cell is an FRM: {frm:?}") };
        assert_eq!((rm.dir, rm.bn, rm.ci, rm.ni), (RmDirection::Forward, false, false, false));
        assert_eq!(rm.ccr, AbrRate::from_cells_per_sec(10_000.0));
        let seq: Vec<InRate> = (0..8).filter_map(|_| s.next_in_rate(t0, true, true)).collect();
        assert_eq!(seq[0], InRate::Brm);
        assert_eq!(seq[1], InRate::Data, "a second BRM waits while data waits");
        assert_eq!(seq[2], InRate::Data);
        assert!(matches!(seq[3], InRate::Frm(_)), "Nrm − 1 = 3 cells after the FRM: {seq:?}");
        assert_eq!(seq[4], InRate::Brm);
        // Only BRMs wait: they go back to back (no data to protect).
        let mut s = AbrSource::new(AbrParams { nrm: 8, ..AbrParams::tm4_defaults(10_000.0) });
        assert!(matches!(s.next_in_rate(t0, false, true), Some(InRate::Frm(_))));
        assert_eq!(s.next_in_rate(t0, false, true), Some(InRate::Brm));
        assert_eq!(s.next_in_rate(t0, false, true), Some(InRate::Brm));
        // Trm: after Mrm = 2 cells and 100 ms, an FRM.
        let later = SimTime::ZERO + SimDuration::from_millis(100);
        assert!(matches!(s.next_in_rate(later, true, false), Some(InRate::Frm(_))));
        assert_eq!(s.next_in_rate(later + SimDuration::from_millis(200), true, false), Some(InRate::Data));
        assert!(matches!(s.next_in_rate(later + SimDuration::from_millis(200), true, false), Some(InRate::Data)));
        assert!(matches!(s.next_in_rate(later + SimDuration::from_millis(200), true, false), Some(InRate::Frm(_))));
    }

    /// Rule 5: an ACR above ICR falls back to ICR before an FRM sent more than ADTF after the
    /// last one.
    #[test]
    fn use_it_or_lose_it() {
        let params = AbrParams { icr: 1_000.0, ..AbrParams::tm4_defaults(10_000.0) };
        let mut s = AbrSource::new(params);
        let t0 = SimTime::ZERO;
        s.next_in_rate(t0, true, false);
        s.on_brm(&brm(false, false, 10_000.0));
        assert_eq!(s.acr(), 1_625.0);
        assert_eq!(s.next_in_rate(t0, true, false), Some(InRate::Data));
        assert_eq!(s.next_in_rate(t0, true, false), Some(InRate::Data));
        let idle = t0 + SimDuration::from_millis(501);
        assert!(matches!(s.next_in_rate(idle, true, false), Some(InRate::Frm(_))), "Trm passed");
        assert_eq!(s.acr(), 1_000.0);
        assert_eq!(s.counts.adtf_resets, 1);
    }

    #[test]
    fn cell_interval_is_the_rounded_up_reciprocal() {
        let s = AbrSource::new(AbrParams::tm4_defaults(353_207.547_169_811_3));
        // 424 bits at 149.76 Mbit/s = 2 831 196.58 ps.
        assert_eq!(s.cell_interval(), Some(SimDuration::from_picos(2_831_197)));
        let mut zero = AbrSource::new(AbrParams { icr: 0.0, ..AbrParams::tm4_defaults(100.0) });
        assert_eq!(zero.cell_interval(), None);
        assert!(zero.needs_out_of_rate());
        assert_eq!(zero.out_of_rate_interval(), SimDuration::from_millis(100));
        assert_eq!(zero.out_of_rate_rm().ccr, AbrRate::ZERO);
        assert_eq!(zero.counts.out_of_rate_frm_sent, 1);
    }

    #[test]
    fn parameters_are_validated() {
        let ok = AbrParams::tm4_defaults(1_000.0);
        assert!(ok.validate().is_ok());
        let bad = [
            AbrParams { nrm: 30, ..ok.clone() },
            AbrParams { mrm: 32, ..ok.clone() },
            AbrParams { mcr: 2_000.0, ..ok.clone() },
            AbrParams { icr: 2_000.0, ..ok.clone() },
            AbrParams { rif: 0.0, ..ok.clone() },
            AbrParams { cdf: 2.0, ..ok.clone() },
            AbrParams { pcr: f64::NAN, ..ok.clone() },
        ];
        for b in bad {
            assert!(b.validate().is_err(), "{b:?} accepted");
        }
    }
}
