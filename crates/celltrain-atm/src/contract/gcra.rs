//! GCRA(T, τ) by the virtual scheduling algorithm, its continuous-state leaky-bucket twin (kept
//! to prove the equivalence in tests) and the dual GCRA of a VBR contract.
//!
//! Everything is integer picoseconds; no floats take part in a decision. Both algorithms are
//! pure state machines: the caller passes the arrival time, in non-decreasing order.
//!
//! ```text
//!  arrival t ──► test(t)? ──no──► NonConforming (state unchanged)
//!                   │yes
//!                   └──► update(t): TAT = max(t, TAT) + T ──► Conforming
//! ```
//!
//! Naming follows ITU-T I.371 / ATM Forum TM 4.0: `increment` = T (I), `limit` = τ (L),
//! `tat` = theoretical arrival time. (Not a rate limiter's `tau = t · max_burst` convention: in
//! ATM, τ is a tolerance derived from CDVT or from BT = (MBS − 1)(T_SCR − T_PCR).)

use super::interval::CellInterval;
use celltrain_core::{SimDuration, SimTime};

/// Outcome of a conformance test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Conformance {
    Conforming,
    NonConforming,
}

impl Conformance {
    pub const fn is_conforming(self) -> bool {
        matches!(self, Conformance::Conforming)
    }
}

/// GCRA(T, τ), virtual scheduling algorithm (ITU-T I.371; `docs/references.md#gcra`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gcra {
    /// T: nominal time between conforming cells (1/rate).
    increment: CellInterval,
    /// τ: how much earlier than its TAT a cell may arrive and still conform.
    limit: SimDuration,
    /// Theoretical arrival time of the next cell. Starts at `SimTime::ZERO`, which is
    /// equivalent to the standard `TAT = t_a(1)`: the first update computes
    /// `max(t_a(1), 0) + T = t_a(1) + T` and the first test `t_a(1) < 0 − τ` is always false.
    tat: SimTime,
}

impl Gcra {
    /// A fresh GCRA(`increment`, `limit`); the first cell always conforms.
    pub const fn new(increment: CellInterval, limit: SimDuration) -> Self {
        Gcra { increment, limit, tat: SimTime::ZERO }
    }

    /// The sustainable-rate GCRA of a VBR contract: GCRA(T_SCR, BT + CDVT_SCR) with
    /// BT = (MBS − 1)(T_SCR − T_PCR) ([`burst_tolerance`]).
    pub fn for_scr(t_scr: CellInterval, t_pcr: CellInterval, mbs: u32, cdvt_scr: SimDuration) -> Self {
        Gcra::new(t_scr, burst_tolerance(t_pcr, t_scr, mbs) + cdvt_scr)
    }

    /// T.
    pub const fn increment(&self) -> CellInterval {
        self.increment
    }
    /// τ.
    pub const fn limit(&self) -> SimDuration {
        self.limit
    }
    /// Current theoretical arrival time (`SimTime::ZERO` before the first conforming cell).
    pub const fn tat(&self) -> SimTime {
        self.tat
    }

    /// Would a cell arriving at `t` conform? Does not change the state.
    pub fn test(&self, t: SimTime) -> bool {
        //= docs/references.md#gcra (virtual scheduling)
        //# if t_a < TAT - τ:  cell NON-CONFORMING  # TAT unchanged
        // Written as t_a + τ < TAT so that nothing is subtracted from an unsigned time.
        t + self.limit >= self.tat
    }

    /// Account a cell at `t` as conforming. Call only after [`Gcra::test`] returned true (or
    /// from a shaper that delayed the cell to [`Gcra::earliest_conforming`]).
    pub fn update(&mut self, t: SimTime) {
        debug_assert!(self.test(t), "GCRA update for a non-conforming cell at {t:?}");
        //= docs/references.md#gcra
        //# else: TAT = max(t_a, TAT) + T ; cell CONFORMING
        self.tat = self.tat.max(t) + self.increment.as_duration();
    }

    /// Test and, if conforming, update.
    pub fn check(&mut self, t: SimTime) -> Conformance {
        if self.test(t) {
            self.update(t);
            Conformance::Conforming
        } else {
            Conformance::NonConforming
        }
    }

    /// Earliest time ≥ `t` at which a cell would conform: `max(t, TAT − τ)` (shaper use).
    pub fn earliest_conforming(&self, t: SimTime) -> SimTime {
        let boundary = SimTime::from_picos(self.tat.as_picos().saturating_sub(self.limit.as_picos()));
        t.max(boundary)
    }
}

/// GCRA(T, τ), continuous-state leaky bucket (ITU-T I.371; `docs/references.md#gcra`). Same
/// decisions as [`Gcra`];
/// kept so that the equivalence is a test rather than a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeakyBucket {
    /// T: content added by each conforming cell (ps).
    increment: CellInterval,
    /// τ: largest content (after draining) that still admits a cell; capacity is T + τ.
    limit: SimDuration,
    /// X: bucket content in ps right after the last conforming cell.
    x: SimDuration,
    /// LCT: last conformance time. Starts at zero, equivalent to `LCT = t_a(1)` because the
    /// drained content `X − (t_a − LCT)` is clamped at zero either way when X = 0.
    lct: SimTime,
}

impl LeakyBucket {
    /// An empty bucket.
    pub const fn new(increment: CellInterval, limit: SimDuration) -> Self {
        LeakyBucket { increment, limit, x: SimDuration::ZERO, lct: SimTime::ZERO }
    }

    /// X after the last conforming cell.
    pub const fn content(&self) -> SimDuration {
        self.x
    }
    /// LCT.
    pub const fn last_conformance_time(&self) -> SimTime {
        self.lct
    }

    /// Test and, if conforming, fill the bucket. Arrivals must not go back in time.
    pub fn check(&mut self, t: SimTime) -> Conformance {
        debug_assert!(t >= self.lct, "leaky bucket: arrival {t:?} before LCT");
        //= docs/references.md#gcra (continuous-state leaky bucket)
        //# X' = X - (t_a - LCT) ; if X' < 0: X' = 0
        let drained = self.x - t.saturating_since(self.lct); // saturates at zero
                                                             //# if X' > τ: cell NON-CONFORMING  # X, LCT unchanged
        if drained > self.limit {
            return Conformance::NonConforming;
        }
        //# else: X = X' + T ; LCT = t_a ; cell CONFORMING
        self.x = drained + self.increment.as_duration();
        self.lct = t;
        Conformance::Conforming
    }
}

/// BT = (MBS − 1)(T_SCR − T_PCR): the burst tolerance τ_SCR of BKD97 eq. (1)
/// (ATM Forum UNI 3.0; TM 4.0 calls it τ_S), computed exactly on integer intervals.
///
/// With CDVT = 0 a back-to-back burst of exactly MBS cells at the PCR then conforms to
/// GCRA(T_SCR, BT) and the (MBS+1)-th does not. Saturates instead of overflowing; `mbs = 0`
/// is treated as 1 (the descriptor rejects it earlier). For the real-valued formula on rates
/// with a named rounding see [`super::descriptor::burst_tolerance_from_rates`].
pub fn burst_tolerance(t_pcr: CellInterval, t_scr: CellInterval, mbs: u32) -> SimDuration {
    //= BKD97 eq. (1)
    //# τ_SCR = (MBS − 1) × (T_SCR − T_PCR)
    t_scr.saturating_sub(t_pcr).saturating_mul(u64::from(mbs.saturating_sub(1)))
}

/// Which GCRA of a dual GCRA rejected a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Violation {
    /// GCRA(T_PCR, CDVT).
    Pcr,
    /// GCRA(T_SCR, BT + CDVT_SCR).
    Scr,
}

/// Dual GCRA of a VBR contract (`docs/references.md#dual-gcra`): a cell conforms only if it
/// conforms to both
/// GCRA(T_PCR, CDVT) and GCRA(T_SCR, BT + CDVT_SCR); both states advance only on conforming
/// cells. Applies to every cell (CLP=0+1, i.e. VBR.1); [`super::Upc`] handles the CLP variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DualGcra {
    /// Peak-rate GCRA(T_PCR, CDVT).
    pcr: Gcra,
    /// Sustainable-rate GCRA(T_SCR, BT + CDVT_SCR).
    scr: Gcra,
}

impl DualGcra {
    /// From the two GCRAs (use [`Gcra::for_scr`] for the SCR one).
    pub const fn new(pcr: Gcra, scr: Gcra) -> Self {
        DualGcra { pcr, scr }
    }

    /// From contract parameters: PCR GCRA(t_pcr, cdvt), SCR GCRA(t_scr, BT + cdvt_scr).
    pub fn from_contract(
        t_pcr: CellInterval,
        cdvt: SimDuration,
        t_scr: CellInterval,
        mbs: u32,
        cdvt_scr: SimDuration,
    ) -> Self {
        DualGcra::new(Gcra::new(t_pcr, cdvt), Gcra::for_scr(t_scr, t_pcr, mbs, cdvt_scr))
    }

    pub const fn pcr(&self) -> &Gcra {
        &self.pcr
    }
    pub const fn scr(&self) -> &Gcra {
        &self.scr
    }

    /// The first GCRA (PCR before SCR) that a cell at `t` would violate; no state change.
    pub fn first_violation(&self, t: SimTime) -> Option<Violation> {
        if !self.pcr.test(t) {
            Some(Violation::Pcr)
        } else if !self.scr.test(t) {
            Some(Violation::Scr)
        } else {
            None
        }
    }

    /// Test both and update both only if the cell conforms to both.
    pub fn check(&mut self, t: SimTime) -> Conformance {
        //= docs/references.md#dual-gcra
        //# A cell conforms only if it conforms to both; the state (TAT) of each GCRA is
        //# updated only for conforming cells
        if self.first_violation(t).is_some() {
            return Conformance::NonConforming;
        }
        self.pcr.update(t);
        self.scr.update(t);
        Conformance::Conforming
    }
}
