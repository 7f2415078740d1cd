//! Buffer acceptance: whether an arriving cell may enter its buffer pool.
//!
//! ```text
//!  OutputPort::offer ─► CLP = 1 threshold ─► BufferAcceptance::admit(cell, now, Occupancy) ─► Accept / Drop
//!  OutputPort (a cell leaves) ─────────────► BufferAcceptance::on_departure(Departure)
//! ```
//! A policy sees the time, its pool's occupancy and capacity, and the VC's own occupancy in
//! the port; it is told of every departure from its pool and is built with its own random
//! stream. Per-VC frame state ("discarding this frame") lives in the policy, not in the cell;
//! occupancies are kept by the port, the one writer of pools and queues. Each policy implements [`AcceptancePolicy`]
//! (its contract); dispatch is by an enum declared from one table.

mod epd;
mod fair_share;
mod frame_gate;
mod frame_red;
mod gfr_fifo;
mod gfr_keys;
mod per_vc_threshold;
mod ppd;
mod red;
mod tail_drop;
#[cfg(test)]
mod tests;
mod threshold;

use crate::cell::Cell;
pub use crate::drop_reason::DropReason;
use celltrain_core::rng::RngStream;
use celltrain_core::time::SimTime;
use celltrain_core::Keys;
pub use epd::{Epd, EpdConfig};
pub use fair_share::{FairShareConfig, Fba, SelectiveDrop, DEFAULT_FAIRNESS_Z};
pub use frame_red::{FrameRed, FrameRedConfig};
pub use gfr_fifo::{GfrFifo, GfrFifoConfig};
pub use per_vc_threshold::{PerVcThreshold, PerVcThresholdConfig};
pub use ppd::Ppd;
pub use red::{Red, RedParams};
use std::fmt;
pub use tail_drop::TailDrop;
pub use threshold::EpdThreshold;

/// The decision for one arriving cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    Accept,
    Drop(DropReason),
}

/// What a policy may see of the port when a cell of the VC in `slot` arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occupancy {
    /// The VC's dense per-port index.
    pub slot: u32,
    /// Cells in the cell's pool now.
    pub pool_cells: u32,
    /// Size of the cell's pool.
    pub capacity_cells: u32,
    /// Cells of the cell's VC queued in the port now (counted only for policies that
    /// [read it](BufferAcceptance::reads_vc_cells); 0 for the others).
    pub vc_cells: u32,
}

impl Occupancy {
    /// Whether the pool can take one more cell.
    #[inline]
    pub fn has_room(&self) -> bool {
        self.pool_cells < self.capacity_cells
    }
}

/// The `slot` of a departure from a port that does not count cells per VC (its policies do not
/// [read per-VC occupancy](BufferAcceptance::reads_vc_cells)).
pub const UNKNOWN_SLOT: u32 = u32::MAX;

/// A cell that left a policy's pool (occupancies are those after it left).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Departure {
    /// The VC's slot, or [`UNKNOWN_SLOT`] when the port does not count per VC and cannot tell
    /// (then `vc_cells` is 0, as it is whenever the port does not count).
    pub slot: u32,
    pub now: SimTime,
    pub pool_cells: u32,
    pub vc_cells: u32,
}

/// The contract of a buffer pool's acceptance policy.
///
/// - The port is the one writer of occupancies: a policy reads them in [`Occupancy`] and keeps
///   only its own state (per-VC frame state, averages, its random stream).
/// - [`admit`](Self::admit) is asked once for every cell offered to the pool, in arrival order,
///   after the port's CLP = 1 threshold has passed it; `Accept` means the cell enters the pool
///   (a policy must not accept into a full pool).
/// - `at.vc_cells` and everything [`Departure`] says of the VC are counted only for a policy
///   that declares [`READS_VC_CELLS`](Self::READS_VC_CELLS) (else they read 0); such a policy
///   is told of every departure from its pool, on every path that runs a port (the port then
///   watches departures). A policy that does not declare it is told of none, where departures
///   are not watched for another reason, so no path pays a call per departure for it.
/// - [`ACCEPTS_WHILE_ROOM`](Self::ACCEPTS_WHILE_ROOM): the policy accepts every cell while the
///   pool has room and keeps no state; a run of cells that fits may then be admitted at once and
///   a run that never waited counted in and out without being shown to it.
///
/// - The policy's file owns its configuration: the scenario keys it reads
///   ([`KEYS`](Self::KEYS)), their defaults and their validation
///   ([`read_config`](Self::read_config)), and the policy built from them
///   ([`build`](Self::build)).
///
/// A new policy is a file here implementing this trait and one line in the table of
/// [`BufferAcceptance`] (`acceptance_policies!` below), which declares [`DiscardConfig`] and
/// the list of policies ([`DISCARD_POLICIES`]) from the same line.
pub trait AcceptancePolicy: Sized {
    /// The name `discard = "..."` takes.
    const NAME: &'static str;
    /// The switch keys of the policy's own (`docs/scenarios.md`), beside the port's (buffer,
    /// reserved pools, queueing, CLP = 1 and EFCI thresholds): a scenario that gives one with
    /// another policy is told which policies take it.
    const KEYS: &'static [&'static str] = &[];
    /// Whether a scenario must give keys of the policy's own (thresholds with no default).
    const NEEDS_KEYS: bool = false;
    /// Those of its keys that are one threshold on a pool's occupancy, in cells, applied to
    /// every pool of the port (a reserved pool no larger than one never sees it act before it
    /// is full: the scenario warns). EPD's threshold is not one: it is resolved per pool.
    const POOL_THRESHOLDS: &'static [&'static str] = &[];
    /// Whether the port queues per VC when the scenario does not say (`queueing`): the
    /// policies designed for a fair scheduler.
    const QUEUES_PER_VC_BY_DEFAULT: bool = false;
    const READS_VC_CELLS: bool = false;
    /// Whether [`on_departure`](Self::on_departure) does anything (only such a policy is
    /// called there; it must also declare `READS_VC_CELLS`, which has departures watched).
    const WATCHES_DEPARTURES: bool = false;
    const ACCEPTS_WHILE_ROOM: bool = false;

    /// The policy's configuration, as a port's keys give it.
    type Config: Clone + Copy + fmt::Debug + PartialEq;

    /// Reads the policy's keys from a port's table, with their defaults, and validates them
    /// against the port's shared pool.
    fn read_config<K: Keys>(keys: &K, port: PortShape) -> Result<Self::Config, K::Error>;

    /// What is wrong with `config` for a reserved pool of `capacity` cells, if anything (a
    /// threshold that suits the shared pool may not suit a small reserved one).
    fn pool_problem<K: Keys>(config: &Self::Config, keys: &K, capacity: u32) -> Option<String> {
        let _ = (config, keys, capacity);
        None
    }

    /// The policy for a pool of `capacity` cells shared by `vcs` VCs, with its own random
    /// stream (which most policies drop).
    fn build(config: Self::Config, vcs: usize, capacity: u32, rng: RngStream) -> Self;

    /// The name in reports (the configured variant, where the policy has options).
    fn report_name(&self) -> &'static str {
        Self::NAME
    }

    /// Whether `cell`, arriving at `now`, may enter the pool.
    fn admit(&mut self, cell: &Cell, now: SimTime, at: Occupancy) -> Admission;

    /// A cell of the pool left the port (occupancies are those after it left).
    #[inline(always)]
    fn on_departure(&mut self, departure: &Departure) {
        let _ = departure;
    }
}

/// Declares [`BufferAcceptance`], one variant per policy: those admitted inline on the arrival
/// path, then those boxed and dispatched out of line (the enum, and so the port, keeps its
/// size, and the inline dispatch stays small enough to inline into the network's arrival path:
/// with the GFR policies inline it did not, and every port paid +15 % instructions on the null
/// pipeline).
macro_rules! acceptance_policies {
    (inline: $($inline:ident($inline_t:ty)),+; boxed: $($boxed:ident($boxed_t:ty)),+ $(,)?) => {
        /// The acceptance policy of one buffer pool. (`repr(u8)`: a plain tag, so that dispatch
        /// on every cell is one byte compare, not the decoding of a niche in a variant's vector.)
        #[derive(Clone, Debug)]
        #[repr(u8)]
        pub enum BufferAcceptance {
            $($inline($inline_t),)+
            $($boxed(Box<$boxed_t>),)+
        }

        /// The buffer acceptance policy of a port, as configured: one variant per policy,
        /// holding its configuration.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub enum DiscardConfig {
            $($inline(<$inline_t as AcceptancePolicy>::Config),)+
            $($boxed(<$boxed_t as AcceptancePolicy>::Config),)+
        }

        impl DiscardConfig {
            /// Reads the keys of policy `name` (one of [`DISCARD_NAMES`]; None for another).
            pub fn read<K: Keys>(name: &str, keys: &K, port: PortShape) -> Option<Result<Self, K::Error>> {
                $(if name == <$inline_t as AcceptancePolicy>::NAME {
                    return Some(<$inline_t as AcceptancePolicy>::read_config(keys, port).map(Self::$inline));
                })+
                $(if name == <$boxed_t as AcceptancePolicy>::NAME {
                    return Some(<$boxed_t as AcceptancePolicy>::read_config(keys, port).map(Self::$boxed));
                })+
                None
            }

            /// See [`AcceptancePolicy::pool_problem`].
            pub fn pool_problem<K: Keys>(&self, keys: &K, capacity: u32) -> Option<String> {
                match self {
                    $(Self::$inline(c) => <$inline_t as AcceptancePolicy>::pool_problem(c, keys, capacity),)+
                    $(Self::$boxed(c) => <$boxed_t as AcceptancePolicy>::pool_problem(c, keys, capacity),)+
                }
            }

            /// See [`AcceptancePolicy::QUEUES_PER_VC_BY_DEFAULT`].
            pub fn queues_per_vc_by_default(&self) -> bool {
                match self {
                    $(Self::$inline(_) => <$inline_t as AcceptancePolicy>::QUEUES_PER_VC_BY_DEFAULT,)+
                    $(Self::$boxed(_) => <$boxed_t as AcceptancePolicy>::QUEUES_PER_VC_BY_DEFAULT,)+
                }
            }

            /// Builds the policy for a pool of `capacity` cells shared by `vcs` VCs, handing it
            /// its own random stream.
            pub fn build(self, vcs: usize, capacity: u32, rng: RngStream) -> BufferAcceptance {
                match self {
                    $(Self::$inline(c) => BufferAcceptance::$inline(<$inline_t as AcceptancePolicy>::build(c, vcs, capacity, rng)),)+
                    $(Self::$boxed(c) => BufferAcceptance::$boxed(Box::new(<$boxed_t as AcceptancePolicy>::build(c, vcs, capacity, rng))),)+
                }
            }
        }

        /// Every policy's name, as `discard = "..."` takes it, in the table's order.
        pub const DISCARD_NAMES: &[&str] =
            &[$(<$inline_t as AcceptancePolicy>::NAME,)+ $(<$boxed_t as AcceptancePolicy>::NAME,)+];

        /// Every policy, in the table's order: its name and whether it needs keys of its own.
        pub const DISCARD_POLICIES: &[DiscardPolicy] = &[
            $(DiscardPolicy::of::<$inline_t>(),)+
            $(DiscardPolicy::of::<$boxed_t>(),)+
        ];

        impl BufferAcceptance {
            /// The policy's name in reports.
            pub fn name(&self) -> &'static str {
                match self {
                    $(Self::$inline(p) => p.report_name(),)+
                    $(Self::$boxed(p) => p.report_name(),)+
                }
            }

            /// [`admit`](Self::admit), with the VC's count (`at.vc_cells` is not read) asked of
            /// `vc_cells` only by a policy that reads it: the port's arrival path then neither
            /// looks the count up nor writes the whole `Occupancy` out for the inline policies.
            #[inline(always)]
            pub fn admit_counting(
                &mut self,
                cell: &Cell,
                now: SimTime,
                at: Occupancy,
                vc_cells: impl FnOnce() -> u32,
            ) -> Admission {
                match self {
                    $(Self::$inline(p) => {
                        let vc_cells = if <$inline_t as AcceptancePolicy>::READS_VC_CELLS { vc_cells() } else { 0 };
                        p.admit(cell, now, Occupancy { vc_cells, ..at })
                    })+
                    _ => self.admit_boxed(cell, now, Occupancy { vc_cells: vc_cells(), ..at }),
                }
            }

            #[cold]
            #[inline(never)]
            fn admit_boxed(&mut self, cell: &Cell, now: SimTime, at: Occupancy) -> Admission {
                match self {
                    $(Self::$boxed(p) => admit_out_of_line(&mut **p, cell, now, at),)+
                    $(Self::$inline(_))|+ => unreachable!("dispatched in `admit_counting`"),
                }
            }

            /// A cell of the pool left the port: see [`AcceptancePolicy::on_departure`] (only
            /// the policies that declare `WATCHES_DEPARTURES` are called: the others' dispatch
            /// is one compare of the tag).
            #[inline(always)]
            pub fn on_departure(&mut self, departure: &Departure) {
                match self {
                    $(Self::$inline(p) if <$inline_t as AcceptancePolicy>::WATCHES_DEPARTURES => p.on_departure(departure),)+
                    $(Self::$boxed(p) if <$boxed_t as AcceptancePolicy>::WATCHES_DEPARTURES => p.on_departure(departure),)+
                    _ => {}
                }
            }

            /// See [`AcceptancePolicy::READS_VC_CELLS`]: the port then counts cells per VC,
            /// which costs every cell a little (and a queue shared by several VCs a ring of
            /// their slots).
            #[inline]
            pub fn reads_vc_cells(&self) -> bool {
                match self {
                    $(Self::$inline(_) => <$inline_t as AcceptancePolicy>::READS_VC_CELLS,)+
                    $(Self::$boxed(_) => <$boxed_t as AcceptancePolicy>::READS_VC_CELLS,)+
                }
            }

            /// See [`AcceptancePolicy::WATCHES_DEPARTURES`].
            #[inline]
            pub fn watches_departures(&self) -> bool {
                match self {
                    $(Self::$inline(_) => <$inline_t as AcceptancePolicy>::WATCHES_DEPARTURES,)+
                    $(Self::$boxed(_) => <$boxed_t as AcceptancePolicy>::WATCHES_DEPARTURES,)+
                }
            }

            /// See [`AcceptancePolicy::ACCEPTS_WHILE_ROOM`] (`OutputPort::admit_virtual_run`,
            /// `OutputPort::pass_virtual`).
            #[inline]
            pub fn accepts_while_room(&self) -> bool {
                match self {
                    $(Self::$inline(_) => <$inline_t as AcceptancePolicy>::ACCEPTS_WHILE_ROOM,)+
                    $(Self::$boxed(_) => <$boxed_t as AcceptancePolicy>::ACCEPTS_WHILE_ROOM,)+
                }
            }
        }
    };
}

/// A policy as the table lists it, for the tools that name policies (the scenario reader, the
/// random scenario generator).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiscardPolicy {
    pub name: &'static str,
    /// See [`AcceptancePolicy::KEYS`].
    pub keys: &'static [&'static str],
    /// See [`AcceptancePolicy::NEEDS_KEYS`].
    pub needs_keys: bool,
    /// See [`AcceptancePolicy::POOL_THRESHOLDS`].
    pub pool_thresholds: &'static [&'static str],
}

impl DiscardPolicy {
    const fn of<P: AcceptancePolicy>() -> Self {
        DiscardPolicy { name: P::NAME, keys: P::KEYS, needs_keys: P::NEEDS_KEYS, pool_thresholds: P::POOL_THRESHOLDS }
    }

    /// The policy `discard = name` chooses, if `name` is one of [`DISCARD_NAMES`].
    pub fn named(name: &str) -> Option<&'static DiscardPolicy> {
        DISCARD_POLICIES.iter().find(|p| p.name == name)
    }

    /// The policies that take switch key `key`, in the table's order.
    pub fn taking(key: &str) -> impl Iterator<Item = &'static str> + '_ {
        DISCARD_POLICIES.iter().filter(move |p| p.keys.contains(&key)).map(|p| p.name)
    }
}

/// What a policy's keys are read against: the port's shared pool, and the MTU that the
/// thresholds' defaults are written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortShape {
    pub buffer_cells: u32,
    pub mtu_cells: u32,
}

/// A boxed policy's `admit`, a function of its own: inlined into `admit_boxed` with the others,
/// every cell paid for the registers the largest of them needs.
#[inline(never)]
fn admit_out_of_line<P: AcceptancePolicy>(p: &mut P, cell: &Cell, now: SimTime, at: Occupancy) -> Admission {
    p.admit(cell, now, at)
}

acceptance_policies! {
    inline: TailDrop(TailDrop), Ppd(Ppd), Epd(Epd);
    boxed: GfrFifo(GfrFifo), PerVcThreshold(PerVcThreshold), FrameRed(FrameRed),
        SelectiveDrop(SelectiveDrop), Fba(Fba),
}

impl BufferAcceptance {
    /// Decides whether `cell`, arriving at `now`, may enter the pool.
    #[inline]
    pub fn admit(&mut self, cell: &Cell, now: SimTime, at: Occupancy) -> Admission {
        self.admit_counting(cell, now, Occupancy { vc_cells: 0, ..at }, || at.vc_cells)
    }
}
