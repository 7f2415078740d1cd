//! Per-VC accounting on a shared FIFO: Selective Drop and Fair Buffer Allocation (the "UBR+"
//! buffer management of Goyal, Jain, Fahmy et al., "UBR+: Improving Performance of TCP over ATM-UBR
//! Service", ICC 1997; FBA after Heinanen & Kilkki, "A Fair Buffer Allocation Scheme", 1995).
//!
//! Both decide at each frame's first cell, as EPD does, from the pool's occupancy X, its
//! threshold R, its size K, the VC's own cells X_i and the number N_a of active VCs (those with
//! cells in the pool). A VC's load ratio is X_i·N_a/X: its share of the buffer over a fair share.
//! Above R, Selective Drop refuses the frame of a VC whose ratio exceeds Z; FBA refuses it when
//! the ratio exceeds Z·(K − R)/(X − R), a bound that falls from very large just above R to Z at a
//! full buffer, so VCs above their share are refused harder as the buffer fills. Below R every
//! frame is accepted; a full buffer falls back to PPD, keeping the end-of-frame cell when there is
//! room (the frame gates of the GFR policies).
//!
//! N_a is kept here from what the port shows: a VC becomes active when a cell of it is accepted
//! while it holds none, and idle when a departure leaves it none. The port counts cells per VC and
//! shows every departure to a policy that reads per-VC counts, so the count is exact on every path.

use super::frame_gate::FrameGates;
use super::threshold::{self, EpdThreshold, THRESHOLD_KEYS};
use super::{AcceptancePolicy, Admission, Departure, Occupancy, PortShape, UNKNOWN_SLOT};
use crate::cell::Cell;
use crate::drop_reason::DropReason;
use celltrain_core::rng::RngStream;
use celltrain_core::time::SimTime;
use celltrain_core::Keys;
use std::marker::PhantomData;

/// The fairness parameter Z when a scenario does not give it (Goyal et al. report 0.8 as a good
/// value for both schemes).
pub const DEFAULT_FAIRNESS_Z: f64 = 0.8;

/// The threshold R when a scenario does not give it: 90 % of the pool (Goyal et al.'s UBR+
/// simulations).
const DEFAULT_THRESHOLD: f64 = 0.9;

/// Selective Drop's and FBA's parameters: the threshold R (resolved per pool, as EPD's) and
/// the fairness parameter Z.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FairShareConfig {
    pub threshold: EpdThreshold,
    pub z: f64,
}

/// What Selective Drop and FBA share: the thresholds, the frame gates and the active VCs.
#[derive(Clone, Debug)]
struct FairShare {
    threshold_cells: u32,
    capacity_cells: u32,
    z: f64,
    gates: FrameGates,
    /// N_a: VCs with cells in the pool.
    active_vcs: u32,
}

impl FairShare {
    fn new(vcs: usize, threshold_cells: u32, capacity_cells: u32, z: f64) -> Self {
        FairShare { threshold_cells, capacity_cells, z, gates: FrameGates::new(vcs), active_vcs: 0 }
    }

    /// Admits `cell`; at a frame's first cell above R, `refuse(load, x, r, k)` says whether the
    /// frame goes, given the VC's load X_i·N_a and the pool's X, R and K.
    #[inline]
    fn admit(&mut self, cell: &Cell, at: Occupancy, refuse: impl FnOnce(f64, f64, f64, f64) -> bool) -> Admission {
        let (x, r) = (at.pool_cells, self.threshold_cells);
        let (active, k) = (self.active_vcs, self.capacity_cells);
        let admission = self.gates.admit(cell, at.slot, at.has_room(), || {
            // X > R ≥ 0, so X > 0; a VC with no cells has a load of 0 and is never refused.
            let above = x > r && at.vc_cells > 0;
            let load = f64::from(at.vc_cells) * f64::from(active);
            (above && refuse(load, f64::from(x), f64::from(r), f64::from(k))).then_some(DropReason::EarlyPacketDiscard)
        });
        if admission == Admission::Accept && at.vc_cells == 0 {
            self.active_vcs += 1;
        }
        admission
    }

    #[inline]
    fn on_departure(&mut self, departure: &Departure) {
        debug_assert!(departure.slot != UNKNOWN_SLOT, "a policy that reads per-VC counts is shown the VC");
        if departure.vc_cells == 0 {
            self.active_vcs -= 1;
        }
    }
}

/// What sets Selective Drop and FBA apart: the name, and when a frame goes above R.
pub trait FairShareRule {
    const NAME: &'static str;

    /// Whether the frame of a VC with load X_i·N_a = `load` goes, the pool holding X = `x`
    /// cells above its threshold R = `r`, of K = `k` cells, with fairness parameter `z`.
    fn refuses(load: f64, x: f64, r: f64, k: f64, z: f64) -> bool;
}

/// Selective Drop: above R, refuse the frame of a VC whose load ratio X_i·N_a/X exceeds Z.
#[derive(Clone, Copy, Debug)]
pub struct SelectiveDropRule;

impl FairShareRule for SelectiveDropRule {
    const NAME: &'static str = "selective-drop";

    fn refuses(load: f64, x: f64, _r: f64, _k: f64, z: f64) -> bool {
        load > z * x
    }
}

/// Fair Buffer Allocation: above R, refuse the frame of a VC whose load ratio X_i·N_a/X
/// exceeds Z·(K − R)/(X − R).
#[derive(Clone, Copy, Debug)]
pub struct FbaRule;

impl FairShareRule for FbaRule {
    const NAME: &'static str = "fba";

    /// Both sides multiplied by X·(X − R) > 0.
    fn refuses(load: f64, x: f64, r: f64, k: f64, z: f64) -> bool {
        load * (x - r) > z * (k - r) * x
    }
}

/// A policy of per-VC accounting on a shared FIFO, by its rule.
#[derive(Clone, Debug)]
pub struct FairShareDrop<R> {
    share: FairShare,
    rule: PhantomData<R>,
}

pub type SelectiveDrop = FairShareDrop<SelectiveDropRule>;
pub type Fba = FairShareDrop<FbaRule>;

impl<R: FairShareRule> FairShareDrop<R> {
    /// For a pool of `capacity_cells` shared by `vcs` VCs, with threshold R = `threshold_cells`.
    pub fn new(vcs: usize, threshold_cells: u32, capacity_cells: u32, z: f64) -> Self {
        FairShareDrop { share: FairShare::new(vcs, threshold_cells, capacity_cells, z), rule: PhantomData }
    }

    /// N_a, the VCs with cells in the pool.
    pub fn active_vcs(&self) -> u32 {
        self.share.active_vcs
    }
}

impl<R: FairShareRule> AcceptancePolicy for FairShareDrop<R> {
    const NAME: &'static str = R::NAME;
    const KEYS: &'static [&'static str] = &[THRESHOLD_KEYS[0], THRESHOLD_KEYS[1], "fairness_z"];
    type Config = FairShareConfig;

    fn read_config<K: Keys>(keys: &K, port: PortShape) -> Result<FairShareConfig, K::Error> {
        let threshold = threshold::read(keys, port, EpdThreshold::Fraction(DEFAULT_THRESHOLD))?;
        let z = keys.number("fairness_z")?.unwrap_or(DEFAULT_FAIRNESS_Z);
        if !(z > 0.0 && z.is_finite()) {
            return Err(keys.key_error("fairness_z", "must be a positive number (Z, the share of a fair share)".into()));
        }
        Ok(FairShareConfig { threshold, z })
    }

    fn pool_problem<K: Keys>(config: &FairShareConfig, keys: &K, capacity: u32) -> Option<String> {
        threshold::pool_problem(config.threshold, keys, capacity)
    }

    fn build(config: FairShareConfig, vcs: usize, capacity: u32, _rng: RngStream) -> Self {
        Self::new(vcs, config.threshold.cells_in(capacity), capacity, config.z)
    }
    const READS_VC_CELLS: bool = true;
    const WATCHES_DEPARTURES: bool = true;

    fn admit(&mut self, cell: &Cell, _now: SimTime, at: Occupancy) -> Admission {
        let z = self.share.z;
        self.share.admit(cell, at, |load, x, r, k| R::refuses(load, x, r, k, z))
    }

    fn on_departure(&mut self, departure: &Departure) {
        self.share.on_departure(departure);
    }
}
