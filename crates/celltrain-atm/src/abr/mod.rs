//! ABR (ATM Forum TM 4.0, af-tm-0056.000): resource management cells, the source and
//! destination end systems, and the switch's explicit-rate algorithm. The network moves RM cells like other cells of their VC; their
//! fields live in an [`rm::RmArena`] so that a [`Cell`](crate::Cell) stays 24 bytes.
//!
//! ```text
//!  source ─FRM(DIR=0)─► switch port: ExplicitRate::on_forward_rm ─► … ─► destination
//!  source ◄─BRM(DIR=1)─ switch port: ExplicitRate::on_backward_rm ◄─ … ◄─ turn-around
//!                       every interval: ExplicitRate::on_interval (load measurement)
//! ```

pub mod destination;
pub mod erica;
pub mod explicit_rate;
pub mod rm;
pub mod source;

pub use destination::{Turnaround, TurnaroundCounts};
pub use erica::{Erica, EricaConfig, EricaState, QueueControl};
pub use explicit_rate::{
    BinaryMarking, ExplicitRate, ExplicitRateAlgorithm, IntervalLoad, NoExplicitRate, RmContext, EXPLICIT_RATE_KEYS,
    EXPLICIT_RATE_NAMES,
};
pub use rm::{AbrRate, RmArena, RmCell, RmDirection, RmId};
pub use source::{AbrParams, AbrSource, AbrSourceCounts, InRate};
