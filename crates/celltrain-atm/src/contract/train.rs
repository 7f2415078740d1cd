//! The packet-train model of BKD97 (Bonaventure, Klovning, Danthine, "Is VBR a solution for
//! an ATM LAN?", §4.1 and §5.3): how many AAL5-PDUs sent back to back at the PCR survive a
//! VBR UPC, and how long the sender must stay idle.
//!
//! ```text
//!  PDU 0: c cells, T_PCR apart     idle I_p    PDU 1             idle I_p   PDU 2 ...
//!  |■■■■■■■■■■|___________________|■■■■■■■■■■|_________________|■■■■■■■■■■|
//!  0          c·T_PCR                c·T_PCR + I_p
//!  cell j of PDU k arrives at  k·(c·T_PCR + I_p) + j·T_PCR
//! ```
//! `I_p` (here `idle`) is the time the link carries no cell of the VC between two PDUs, as in
//! eq. (2): the last cell of a PDU and the first of the next are `T_PCR + I_p` apart.
//! Eq. (3) only makes sense with `I_p` read as that cell-to-cell spacing (see
//! [`TrainModel::min_spacing_eq3`]); the two readings differ by exactly one T_PCR.
//!
//! The PCR GCRA never rejects such a train when CDVT = 0 (cells are at least T_PCR apart), so
//! only GCRA(T_SCR, τ_SCR) matters, starting idle, as the paper assumes. The model uses the
//! same integer intervals as the UPC, so its predictions are exact for [`super::DualGcra`].

use super::descriptor::{ContractError, TrafficDescriptor};
use super::gcra::burst_tolerance;
use super::interval::{CellInterval, Rounding};
use celltrain_core::{SimDuration, CELL_PAYLOAD_BYTES};
use std::fmt;

/// LLC/SNAP header octets added to an IP datagram (RFC 1483/2684, Classical IP).
pub const LLC_SNAP_BYTES: u64 = 8;
/// AAL5 CPCS trailer octets.
pub const AAL5_TRAILER_BYTES: u64 = 8;

/// Cells of one AAL5-PDU carrying an IP datagram of `mtu_bytes` with LLC/SNAP:
/// ⌈(MTU + 8 + 8) / 48⌉ (`docs/references.md#maximum-goodput`: 9180 → 9188 AAL5 payload → 192 cells).
///
/// BKD97 calls 9188 bytes "the default MTU size for IP over ATM [RFC 1626]"; RFC 1626's MTU
/// is 9180, and 9188 = 9180 + LLC/SNAP, i.e. the AAL5 payload. For the paper's sizes the count
/// is the same under either reading (552 → 12, 1500 → 32, 4832 → 101, 9188 → 192 cells, and
/// [`cells_per_sdu`] gives the same), so the ambiguity does not change any number.
pub const fn cells_per_pdu(mtu_bytes: u64) -> u64 {
    cells_per_sdu(mtu_bytes + LLC_SNAP_BYTES)
}

/// Cells of one AAL5-PDU whose payload (CPCS-SDU, LLC/SNAP included) is `sdu_bytes`:
/// ⌈(SDU + 8) / 48⌉.
pub const fn cells_per_sdu(sdu_bytes: u64) -> u64 {
    (sdu_bytes + AAL5_TRAILER_BYTES).div_ceil(CELL_PAYLOAD_BYTES)
}

/// A count that may be unbounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bound {
    Finite(u64),
    Unbounded,
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bound::Finite(n) => write!(f, "{n}"),
            Bound::Unbounded => f.write_str("unbounded"),
        }
    }
}

/// A regular train of c-cell PDUs at the PCR against GCRA(T_SCR, τ_SCR).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrainModel {
    /// T_PCR: spacing of the cells inside a PDU (the paper's 2.726 µs).
    t_pcr: CellInterval,
    /// T_SCR (the paper's 42.4 µs).
    t_scr: CellInterval,
    /// τ_SCR = (MBS − 1)(T_SCR − T_PCR) (+ CDVT_SCR).
    tau_scr: SimDuration,
    /// c: cells per PDU, ≥ 1.
    cells_per_pdu: u64,
}

/// Everything the CLI prints for one (contract, c, I_p).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrainReport {
    /// The model the numbers come from.
    pub model: TrainModel,
    /// I_p: idle time between PDUs (eq. 2 reading).
    pub idle: SimDuration,
    /// (a) Longest train of whole PDUs that conforms, eq. (2).
    pub max_pdus: Bound,
    /// (b) Smallest idle time for which an infinite train conforms (eq. 2 reading);
    /// `None` if one PDU alone exceeds the burst tolerance.
    pub min_idle_infinite: Option<SimDuration>,
    /// (b') The same bound as eq. (3) states it: last-cell-to-first-cell spacing.
    pub min_spacing_eq3: Option<SimDuration>,
    /// (c) Idle time after a maximal burst before a whole PDU is accepted: c·(T_SCR − T_PCR).
    pub recovery_idle: SimDuration,
}

impl TrainModel {
    /// From integer parameters. Errors if T_SCR < T_PCR or c = 0.
    pub fn new(
        t_pcr: CellInterval,
        t_scr: CellInterval,
        tau_scr: SimDuration,
        cells_per_pdu: u64,
    ) -> Result<Self, ContractError> {
        if t_scr < t_pcr {
            return Err(ContractError::ScrIntervalBelowPcr { t_scr, t_pcr });
        }
        if cells_per_pdu == 0 {
            return Err(ContractError::ZeroCellsPerPdu);
        }
        Ok(TrainModel { t_pcr, t_scr, tau_scr, cells_per_pdu })
    }

    /// τ_SCR from MBS by eq. (1) on the integer intervals: (MBS − 1)(T_SCR − T_PCR).
    pub fn from_intervals(
        t_pcr: CellInterval,
        t_scr: CellInterval,
        mbs: u32,
        cells_per_pdu: u64,
    ) -> Result<Self, ContractError> {
        if mbs == 0 {
            return Err(ContractError::ZeroMbs);
        }
        let tau_scr = burst_tolerance(t_pcr, t_scr, mbs);
        TrainModel::new(t_pcr, t_scr, tau_scr, cells_per_pdu)
    }

    /// The parameters a [`super::Upc`] built from `desc` enforces ([`Rounding::Lenient`]), so
    /// that the prediction is exactly what the simulated UPC does. `desc` must be VBR.
    pub fn from_descriptor(desc: &TrafficDescriptor, cells_per_pdu: u64) -> Result<Self, ContractError> {
        let params = desc.params(Rounding::Lenient)?;
        let scr = params.scr.ok_or(ContractError::MissingScr(desc.def))?;
        TrainModel::new(params.pcr.increment, scr.increment, scr.limit, cells_per_pdu)
    }

    /// T_PCR.
    pub const fn t_pcr(&self) -> CellInterval {
        self.t_pcr
    }
    /// T_SCR.
    pub const fn t_scr(&self) -> CellInterval {
        self.t_scr
    }
    /// τ_SCR.
    pub const fn tau_scr(&self) -> SimDuration {
        self.tau_scr
    }
    /// c.
    pub const fn cells_per_pdu(&self) -> u64 {
        self.cells_per_pdu
    }

    /// δ = T_SCR − T_PCR in ps.
    fn delta(&self) -> u128 {
        u128::from(self.t_scr.saturating_sub(self.t_pcr).as_picos())
    }

    /// Offset from the first cell of cell `j` of PDU `k`: k·(c·T_PCR + I_p) + j·T_PCR.
    pub fn cell_offset(&self, idle: SimDuration, k: u64, j: u64) -> SimDuration {
        (self.t_pcr.times(self.cells_per_pdu) + idle).saturating_mul(k) + self.t_pcr.times(j)
    }

    /// Offsets of every cell of the first `pdus` PDUs, in order.
    pub fn cell_offsets(&self, idle: SimDuration, pdus: u64) -> impl Iterator<Item = SimDuration> + '_ {
        (0..pdus).flat_map(move |k| (0..self.cells_per_pdu).map(move |j| self.cell_offset(idle, k, j)))
    }

    /// Eq. (2) checked literally, cell by cell: does a train of `pdus` PDUs conform?
    pub fn eq2_holds(&self, idle: SimDuration, pdus: u64) -> bool {
        let (c, ts, tp) =
            (u128::from(self.cells_per_pdu), u128::from(self.t_scr.as_picos()), u128::from(self.t_pcr.as_picos()));
        let (ip, tau) = (u128::from(idle.as_picos()), u128::from(self.tau_scr.as_picos()));
        (0..u128::from(pdus)).all(|k| {
            (0..c).all(|j| {
                //= BKD97 eq. (2)
                //# ∀k = 0…(p−1), ∀j = 0…(c−1):
                //# (k×c + j) × T_SCR ≤ k × (c × 2.726 + I_p) + j × 2.726 + τ_SCR
                (k * c + j) * ts <= k * (c * tp + ip) + j * tp + tau
            })
        })
    }

    /// (a) The largest p for which eq. (2) holds (closed form).
    ///
    /// The left side minus the right side of eq. (2) is k·D + j·δ − τ with δ = T_SCR − T_PCR
    /// ≥ 0 and D = c·δ − I_p, so the binding cell is the last one (j = c−1) of the last PDU:
    /// p = 0 if (c−1)·δ > τ; unbounded if D ≤ 0; else p = 1 + ⌊(τ − (c−1)·δ) / D⌋.
    pub fn max_train(&self, idle: SimDuration) -> Bound {
        let (c, delta) = (u128::from(self.cells_per_pdu), self.delta());
        let tau = u128::from(self.tau_scr.as_picos());
        let first = (c - 1) * delta;
        if first > tau {
            return Bound::Finite(0);
        }
        let per_pdu = c * delta;
        let idle = u128::from(idle.as_picos());
        if idle >= per_pdu {
            return Bound::Unbounded;
        }
        let p = 1 + (tau - first) / (per_pdu - idle);
        Bound::Finite(u64::try_from(p).unwrap_or(u64::MAX))
    }

    /// Eq. (3) as written: the PDU size c that an infinite train with last-cell-to-first-cell
    /// `spacing` I may have, c = 1 + ⌊min(I − T_SCR, τ_SCR) / (T_SCR − T_PCR)⌋ (0 if I < T_SCR;
    /// unbounded if T_SCR = T_PCR and I ≥ T_SCR).
    pub fn max_cells_eq3(&self, spacing: SimDuration) -> Bound {
        let ts = self.t_scr.as_duration();
        if spacing < ts {
            // min(I − T_SCR, τ) < 0 so the floor is ≤ −1 and c ≤ 0.
            return Bound::Finite(0);
        }
        let delta = self.delta();
        if delta == 0 {
            return Bound::Unbounded;
        }
        //= BKD97 eq. (3)
        //# c = 1 + floor[ min(I_p − T_SCR, τ_SCR) / (T_SCR − T_PCR) ]
        let num = u128::from((spacing - ts).min(self.tau_scr).as_picos());
        Bound::Finite(u64::try_from(1 + num / delta).unwrap_or(u64::MAX))
    }

    /// (b') Smallest spacing I for which eq. (3) admits c: T_SCR + (c − 1)·δ, i.e.
    /// c·δ + T_PCR. `None` if (c − 1)·δ > τ_SCR (no spacing helps: the PDU exceeds MBS).
    pub fn min_spacing_eq3(&self) -> Option<SimDuration> {
        self.min_idle_infinite().map(|idle| idle + self.t_pcr.as_duration())
    }

    /// (b) Smallest idle time I_p (eq. 2 reading) for which an infinite train conforms:
    /// c·(T_SCR − T_PCR), provided one PDU fits the burst tolerance ((c − 1)·δ ≤ τ_SCR).
    pub fn min_idle_infinite(&self) -> Option<SimDuration> {
        let c = u128::from(self.cells_per_pdu);
        if (c - 1) * self.delta() > u128::from(self.tau_scr.as_picos()) {
            return None;
        }
        Some(self.recovery_idle())
    }

    /// (c) Idle time after a maximal burst (SCR bucket full) before a whole PDU sent at the PCR
    /// is accepted again: c·(T_SCR − T_PCR) (BKD97 §4.1: "7.6 msec with the 9188 bytes MTU").
    pub fn recovery_idle(&self) -> SimDuration {
        self.t_scr.saturating_sub(self.t_pcr).saturating_mul(self.cells_per_pdu)
    }

    /// All the numbers for an idle time `idle` between PDUs.
    pub fn report(&self, idle: SimDuration) -> TrainReport {
        TrainReport {
            model: *self,
            idle,
            max_pdus: self.max_train(idle),
            min_idle_infinite: self.min_idle_infinite(),
            min_spacing_eq3: self.min_spacing_eq3(),
            recovery_idle: self.recovery_idle(),
        }
    }
}

/// `Some(d)` as a duration, `None` as "impossible".
struct OrImpossible(Option<SimDuration>);

impl fmt::Display for OrImpossible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(d) => write!(f, "{d}"),
            None => f.write_str("impossible (PDU longer than MBS)"),
        }
    }
}

impl fmt::Display for TrainReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = &self.model;
        writeln!(
            f,
            "packet train: c = {} cells/PDU, T_PCR = {}, T_SCR = {}, tau_SCR = {}, I_p = {}",
            m.cells_per_pdu,
            m.t_pcr.as_duration(),
            m.t_scr.as_duration(),
            m.tau_scr,
            self.idle
        )?;
        writeln!(f, "(a) longest conforming train, eq. (2): {} PDUs", self.max_pdus)?;
        writeln!(
            f,
            "(b) min I_p for an infinite train: {} (eq. (3) as written, cell-to-cell: {})",
            OrImpossible(self.min_idle_infinite),
            OrImpossible(self.min_spacing_eq3)
        )?;
        write!(f, "(c) idle after a maximal burst before a whole PDU is accepted: {}", self.recovery_idle)
    }
}
