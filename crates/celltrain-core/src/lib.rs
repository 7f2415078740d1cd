//! The model-independent heart of celltrain: time, units, typed ids, the event queue,
//! per-component random streams and the trace hash.
//!
//! # Model of time
//! Simulated time is an integer number of picoseconds ([`SimTime`], [`SimDuration`]).
//! One cell at OC-12 lasts about 0.68 µs, so picoseconds keep exact slot arithmetic
//! over long runs; `u64` picoseconds cover about 213 days.
//!
//! # Ordering contract
//! Events run in order of (time, insertion sequence). Events scheduled for the same
//! instant run in the order they were scheduled; a handler that schedules at `now`
//! runs after every event already queued for `now`. Nothing depends on heap layout.
//!
//! # Determinism contract
//! The same scenario and seed give the same sequence of processed events: there is no
//! wall-clock input, no hash-order iteration in model code, and every random draw comes
//! from a stream derived from the scenario seed and the drawing component's name
//! ([`rng::RngStream::derive`]), so adding a component never changes another's draws.
#![forbid(unsafe_code)]

pub mod change_trace;
pub mod event_queue;
pub mod ids;
pub mod keys;
pub mod ring;
pub mod rng;
pub mod time;
pub mod trace;
pub mod units;

pub use change_trace::{ChangeTrace, RowPool};
pub use event_queue::{EventCode, EventQueue, Place};
pub use keys::Keys;
pub use rng::RngStream;
pub use time::{SimDuration, SimTime};
pub use trace::TraceHash;
pub use units::{BitRate, Bytes, SlotCounter, CELL_BITS, CELL_BYTES, CELL_PAYLOAD_BYTES};
