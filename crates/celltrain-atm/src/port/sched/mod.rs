//! Cell schedulers: which queue of a port sends next.
//!
//! ```text
//!  OutputPort::offer ──► (the queue was empty) Scheduler::on_backlogged(queue, class)
//!  OutputPort::dequeue ─► Scheduler::serve(now) = pick(now) ─► Queue(q) ─► on_dequeue(q) ─► port pops q
//!                                              ├► Empty
//!                                              └► NotBefore(t): cells wait, none eligible before t
//! ```
//! The port owns the queues and the occupancies; a scheduler keeps only its own order (rings,
//! tags, eligibility times). `NotBefore` is for schedulers that are not work-conserving
//! (virtual spacing, shaping): the caller then retries at `t`. Each scheduler implements
//! [`CellScheduler`] (its contract); dispatch is by an enum declared from one table.

mod priority_rr;
#[cfg(test)]
mod tests;
mod virtual_spacing;
pub mod weights;
mod wf2q;
pub(crate) mod wrr;

use crate::cell::Cell;
use celltrain_core::keys::Keys;
use celltrain_core::time::SimTime;
pub use priority_rr::PriorityRoundRobin;
pub use virtual_spacing::VirtualSpacing;
pub use wf2q::Wf2qPlus;
pub use wrr::WeightedRoundRobin;

/// The key that chooses a port's scheduler.
pub const SCHEDULER_KEY: &str = "scheduler";

/// What a scheduler answers when asked for the queue to serve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// Serve the head of this queue.
    Queue(u16),
    /// Nothing is queued.
    Empty,
    /// Cells are queued but none may leave before this time.
    NotBefore(SimTime),
}

/// What a port answers when asked for its next cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// This cell leaves now (it has been removed from the port).
    Cell(Cell),
    /// Nothing is queued.
    Empty,
    /// Cells are queued but none may leave before this time.
    NotBefore(SimTime),
}

/// The contract of a cell scheduler.
///
/// - The port owns the queues: the scheduler is told of every queue that becomes backlogged
///   ([`on_backlogged`](Self::on_backlogged): a cell appended to an empty queue; a cell
///   appended behind others changes no scheduler's order, and is not told) and of every head
///   removed ([`on_dequeue`](Self::on_dequeue), always the queue its last
///   [`pick`](Self::pick) answered, at once: the port asks for both in one call,
///   [`serve`](Self::serve)), and keeps only its own order.
/// - `pick` answers a backlogged queue, `Empty` exactly when nothing is queued, or
///   `NotBefore(t)` when cells wait but none may leave before `t` (the caller retries then).
/// - [`WORK_CONSERVING`](Self::WORK_CONSERVING): `pick` never answers `NotBefore`, and a single
///   queue is served in arrival order, so a single-FIFO port's departures can be computed at
///   arrival (the analytic and lifted paths rely on it).
///
/// A new scheduler is a file here implementing this trait and one line in the table of
/// [`Scheduler`] (`schedulers!` below): the table gives it its [`SchedulerKind`] and its name
/// in scenarios.
pub trait CellScheduler {
    /// The name `scheduler = "..."` takes.
    const NAME: &'static str;
    const WORK_CONSERVING: bool = true;
    /// Whether the scheduler weighs its queues (else the builder gives it no weights). Every
    /// scheduler says: one that forgot would get its weights wrong or not at all.
    const WEIGHTED: bool;

    /// The scheduler of queues of these weights (each the sum of its VCs'; 0 counts as 1). An
    /// unweighted scheduler ignores them.
    fn with_queue_weights(queue_weights: &[u64]) -> Self;

    /// Queue `queue`, of class `class`, held nothing and now holds a cell.
    fn on_backlogged(&mut self, queue: u16, class: u8, now: SimTime);
    fn pick(&mut self, now: SimTime) -> Pick;
    fn on_dequeue(&mut self, queue: u16, now_empty: bool, now: SimTime);

    /// [`pick`](Self::pick), and when it answers a queue, [`on_dequeue`](Self::on_dequeue) of
    /// that queue's head (`len(q)`: the cells queue `q` holds before its head leaves): how a
    /// port takes its next cell, in one dispatch.
    #[inline(always)]
    fn serve(&mut self, now: SimTime, len: impl Fn(u16) -> usize) -> Pick {
        let pick = self.pick(now);
        if let Pick::Queue(q) = pick {
            self.on_dequeue(q, len(q) == 1, now);
        }
        pick
    }
}

/// Declares [`Scheduler`], one variant per scheduler: the default inline, the others boxed
/// (the port's layout, and so the default scheduler's speed, stays as it was).
macro_rules! schedulers {
    (inline: $inline:ident($inline_t:ty); boxed: $($boxed:ident($boxed_t:ty)),+ $(,)?) => {
        /// The scheduler of one port.
        #[derive(Clone, Debug)]
        pub enum Scheduler {
            $inline($inline_t),
            $($boxed(Box<$boxed_t>),)+
        }

        /// Every scheduler's name, as `scheduler = "..."` takes it, in the table's order.
        pub const SCHEDULER_NAMES: &[&str] =
            &[<$inline_t as CellScheduler>::NAME, $(<$boxed_t as CellScheduler>::NAME,)+];

        /// Which scheduler a port has, before it is built (the first of the table by default).
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub enum SchedulerKind {
            #[default]
            $inline,
            $($boxed,)+
        }

        impl SchedulerKind {
            /// The kind named `name` (one of [`SCHEDULER_NAMES`]).
            pub fn by_name(name: &str) -> Option<Self> {
                match name {
                    <$inline_t as CellScheduler>::NAME => Some(Self::$inline),
                    $(<$boxed_t as CellScheduler>::NAME => Some(Self::$boxed),)+
                    _ => None,
                }
            }

            /// Its name in scenarios and reports.
            pub fn name(self) -> &'static str {
                match self {
                    Self::$inline => <$inline_t as CellScheduler>::NAME,
                    $(Self::$boxed => <$boxed_t as CellScheduler>::NAME,)+
                }
            }

            /// See [`CellScheduler::WEIGHTED`].
            pub fn is_weighted(self) -> bool {
                match self {
                    Self::$inline => <$inline_t as CellScheduler>::WEIGHTED,
                    $(Self::$boxed => <$boxed_t as CellScheduler>::WEIGHTED,)+
                }
            }

            /// The scheduler of queues of these weights.
            pub fn build(self, queue_weights: &[u64]) -> Scheduler {
                match self {
                    Self::$inline => Scheduler::$inline(<$inline_t>::with_queue_weights(queue_weights)),
                    $(Self::$boxed => Scheduler::$boxed(Box::new(<$boxed_t>::with_queue_weights(queue_weights))),)+
                }
            }

            /// Reads `scheduler = "..."` (one of [`SCHEDULER_NAMES`]; the first by default).
            pub fn read<K: Keys>(keys: &K) -> Result<Self, K::Error> {
                let name = keys.keyword(SCHEDULER_KEY, SCHEDULER_NAMES)?;
                Ok(name.map_or_else(Self::default, |name| Self::by_name(name).expect("one of the names")))
            }
        }

        impl Scheduler {
            /// See [`CellScheduler::WORK_CONSERVING`].
            pub fn is_work_conserving(&self) -> bool {
                match self {
                    Self::$inline(_) => <$inline_t as CellScheduler>::WORK_CONSERVING,
                    $(Self::$boxed(_) => <$boxed_t as CellScheduler>::WORK_CONSERVING,)+
                }
            }

            #[inline(always)]
            pub fn on_backlogged(&mut self, queue: u16, class: u8, now: SimTime) {
                match self {
                    Self::$inline(s) => s.on_backlogged(queue, class, now),
                    $(Self::$boxed(s) => s.on_backlogged(queue, class, now),)+
                }
            }

            #[inline(always)]
            pub fn pick(&mut self, now: SimTime) -> Pick {
                match self {
                    Self::$inline(s) => s.pick(now),
                    $(Self::$boxed(s) => s.pick(now),)+
                }
            }

            #[inline(always)]
            pub fn on_dequeue(&mut self, queue: u16, now_empty: bool, now: SimTime) {
                match self {
                    Self::$inline(s) => s.on_dequeue(queue, now_empty, now),
                    $(Self::$boxed(s) => s.on_dequeue(queue, now_empty, now),)+
                }
            }

            #[inline(always)]
            pub fn serve(&mut self, now: SimTime, len: impl Fn(u16) -> usize) -> Pick {
                match self {
                    Self::$inline(s) => s.serve(now, len),
                    $(Self::$boxed(s) => s.serve(now, len),)+
                }
            }
        }
    };
}

schedulers! {
    inline: PriorityRoundRobin(PriorityRoundRobin);
    boxed: Wf2qPlus(Wf2qPlus), VirtualSpacing(VirtualSpacing), WeightedRoundRobin(WeightedRoundRobin),
}
