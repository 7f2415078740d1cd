//! Tests of the contract module: hand-computed vectors (2.a–2.c, 5.a of
//! `docs/references.md#test-vectors`), property tests
//! (seeded, deterministic) and the BKD97 train numbers as literals.

mod properties;
mod train;
mod upc;
mod vectors;

use super::CellInterval;
use celltrain_core::{SimDuration, SimTime};

/// Time `ps` picoseconds (test vectors count abstract slots as picoseconds).
fn t(ps: u64) -> SimTime {
    SimTime::from_picos(ps)
}
/// Duration of `ps` picoseconds.
fn d(ps: u64) -> SimDuration {
    SimDuration::from_picos(ps)
}
/// Interval of `ps` picoseconds.
fn iv(ps: u64) -> CellInterval {
    CellInterval::from_picos(ps)
}
