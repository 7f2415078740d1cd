//! Traffic-contract state machines: GCRA, dual GCRA, UPC (policer), shaper, F-GCRA and the
//! packet-train model of BKD97. Mounted as `celltrain_atm::contract`.
//!
//! Heads up, required reading: `docs/references.md#traffic-contracts` (GCRA, dual GCRA,
//! conformance definitions, UPC, shaper, F-GCRA; ITU-T I.371, ATM Forum TM 4.0/4.1), including
//! `docs/references.md#packet-train-model` (BKD97 eqs. (1)–(3)).
//!
//! ```text
//!  TrafficDescriptor ──validate()/params(Rounding)──► ContractParams (integer T, τ)
//!        │                                               │                 │
//!        │ Rounding::Strict                 Rounding::Lenient              │
//!        ▼                                               ▼                 ▼
//!  source ─► Shaper (dual leaky bucket) ─► link ─► Upc (Gcra PCR + SCR) ─► switch
//!                                                  Fgcra (GFR eligibility, per frame)
//!                                                  Dgcra (ABR: rate from backward RM cells)
//!  train::TrainModel: closed-form predictions of what the Upc does to a PDU train
//! ```
//!
//! What is modelled: the decision logic on integer picosecond time ([`celltrain_core::SimTime`]);
//! no floats take part in any decision. What is abstracted away: the cell itself (callers pass
//! the arrival time and CLP and apply the returned action), timers and queues of the caller.
//! Ordering contract: every component expects arrivals in non-decreasing time order and is
//! deterministic (no randomness, no hash maps).
//!
//! Rounding contract: rates are converted to intervals once, with a named direction; a shaper
//! uses [`Rounding::Strict`] and a policer [`Rounding::Lenient`], so a shaped stream always
//! passes a policer of the same contract (see `interval.rs`).

mod descriptor;
mod dgcra;
mod fgcra;
mod gcra;
mod gfr;
mod interval;
mod shaper;
pub mod train;
mod upc;

pub use descriptor::{
    burst_tolerance_from_rates, Clp, ConformanceDef, ContractError, ContractParams, GcraParams, TrafficDescriptor,
};
pub use dgcra::{Dgcra, DgcraContract, DgcraCounters, DgcraError, MAX_RECORDS as DGCRA_MAX_RECORDS};
pub use fgcra::{Eligibility, Fgcra, FgcraCounters};
pub use gcra::{burst_tolerance, Conformance, DualGcra, Gcra, LeakyBucket, Violation};
pub use gfr::{GfrConformance, GfrContract, GfrError};
pub use interval::{CellInterval, Rounding};
pub use shaper::{Shaper, ShaperConfig, ShaperCounters};
pub use train::{cells_per_pdu, cells_per_sdu, Bound, TrainModel, TrainReport};
pub use upc::{Upc, UpcAction, UpcCounters};

#[cfg(test)]
mod tests;
