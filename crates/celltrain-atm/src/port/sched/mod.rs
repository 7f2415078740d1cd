//! Cell schedulers: which queue of a port sends next.
//!
//! ```text
//!  OutputPort::offer ──► Scheduler::on_enqueue(queue, class, was_empty)
//!  OutputPort::dequeue ─► Scheduler::pick(now) ─► Queue(q) ─► port pops q ─► Scheduler::on_dequeue
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
use celltrain_core::time::SimTime;
pub use priority_rr::PriorityRoundRobin;
pub use virtual_spacing::VirtualSpacing;
pub use wf2q::Wf2qPlus;
pub use wrr::WeightedRoundRobin;

/// A port's scheduler, as configured.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SchedulerConfig {
    /// Strict priority by service category, round robin inside a category (today's ports).
    #[default]
    PriorityRoundRobin,
    /// WF²Q+ over all the port's queues (service categories are not prioritised), with one
    /// weight per VC in the port's slot order (e.g. its MCR in bit/s); a queue weighs the sum
    /// of its VCs'.
    Wf2qPlus { vc_weights: Vec<u64> },
    /// Virtual Spacing over all the port's queues, weighted as [`Self::Wf2qPlus`].
    VirtualSpacing { vc_weights: Vec<u64> },
    /// Weighted round robin over all the port's queues, weighted as [`Self::Wf2qPlus`]
    /// (quantised to cells per round: `wrr`).
    WeightedRoundRobin { vc_weights: Vec<u64> },
}

impl SchedulerConfig {
    /// The scheduler of a port whose VC k is in queue `queue_of[k]`, of `queues` queues.
    pub fn build(&self, queue_of: &[u16], queues: usize) -> Scheduler {
        match self {
            Self::PriorityRoundRobin => Scheduler::PriorityRoundRobin(PriorityRoundRobin::default()),
            Self::Wf2qPlus { vc_weights } => Scheduler::Wf2qPlus(Box::new(Wf2qPlus::new(weights::spacings(
                &weights::per_queue(vc_weights, queue_of, queues),
            )))),
            Self::VirtualSpacing { vc_weights } => Scheduler::VirtualSpacing(Box::new(VirtualSpacing::new(
                weights::spacings(&weights::per_queue(vc_weights, queue_of, queues)),
            ))),
            Self::WeightedRoundRobin { vc_weights } => Scheduler::WeightedRoundRobin(Box::new(
                WeightedRoundRobin::new(&weights::per_queue(vc_weights, queue_of, queues)),
            )),
        }
    }

    /// The scheduler's name in reports and scenarios.
    pub fn name(&self) -> &'static str {
        match self {
            Self::PriorityRoundRobin => PriorityRoundRobin::NAME,
            Self::Wf2qPlus { .. } => Wf2qPlus::NAME,
            Self::VirtualSpacing { .. } => VirtualSpacing::NAME,
            Self::WeightedRoundRobin { .. } => WeightedRoundRobin::NAME,
        }
    }
}

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
/// - The port owns the queues: the scheduler is told of every cell appended
///   ([`on_enqueue`](Self::on_enqueue), `was_empty`: the queue held nothing before it) and of
///   every head removed ([`on_dequeue`](Self::on_dequeue), always the queue its last
///   [`pick`](Self::pick) answered, at once), and keeps only its own order.
/// - `pick` answers a backlogged queue, `Empty` exactly when nothing is queued, or
///   `NotBefore(t)` when cells wait but none may leave before `t` (the caller retries then).
/// - [`WORK_CONSERVING`](Self::WORK_CONSERVING): `pick` never answers `NotBefore`, and a single
///   queue is served in arrival order, so a single-FIFO port's departures can be computed at
///   arrival (the analytic and lifted paths rely on it).
///
/// A new scheduler is a file here implementing this trait and one line in the table of
/// [`Scheduler`] (`schedulers!` below), with its [`SchedulerConfig`].
pub trait CellScheduler {
    /// The name `scheduler = "..."` takes.
    const NAME: &'static str;
    const WORK_CONSERVING: bool = true;

    fn on_enqueue(&mut self, queue: u16, class: u8, was_empty: bool, now: SimTime);
    fn pick(&mut self, now: SimTime) -> Pick;
    fn on_dequeue(&mut self, queue: u16, now_empty: bool, now: SimTime);
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

        impl Scheduler {
            /// See [`CellScheduler::WORK_CONSERVING`].
            pub fn is_work_conserving(&self) -> bool {
                match self {
                    Self::$inline(_) => <$inline_t as CellScheduler>::WORK_CONSERVING,
                    $(Self::$boxed(_) => <$boxed_t as CellScheduler>::WORK_CONSERVING,)+
                }
            }

            #[inline(always)]
            pub fn on_enqueue(&mut self, queue: u16, class: u8, was_empty: bool, now: SimTime) {
                match self {
                    Self::$inline(s) => s.on_enqueue(queue, class, was_empty, now),
                    $(Self::$boxed(s) => s.on_enqueue(queue, class, was_empty, now),)+
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
        }
    };
}

schedulers! {
    inline: PriorityRoundRobin(PriorityRoundRobin);
    boxed: Wf2qPlus(Wf2qPlus), VirtualSpacing(VirtualSpacing), WeightedRoundRobin(WeightedRoundRobin),
}
