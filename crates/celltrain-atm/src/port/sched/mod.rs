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
//! (virtual spacing, shaping): the caller then retries at `t`. Dispatch is by enum: a new
//! scheduler is a new file here and a variant of [`Scheduler`].

mod priority_rr;
#[cfg(test)]
mod tests;
mod virtual_spacing;
pub mod weights;
mod wf2q;

use crate::cell::Cell;
use celltrain_core::time::SimTime;
pub use priority_rr::PriorityRoundRobin;
pub use virtual_spacing::VirtualSpacing;
pub use wf2q::Wf2qPlus;

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
        }
    }

    /// The scheduler's name in reports and scenarios.
    pub fn name(&self) -> &'static str {
        match self {
            Self::PriorityRoundRobin => "priority",
            Self::Wf2qPlus { .. } => "wfq",
            Self::VirtualSpacing { .. } => "virtual-spacing",
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

/// The scheduler of one port.
#[derive(Clone, Debug)]
pub enum Scheduler {
    PriorityRoundRobin(PriorityRoundRobin),
    /// (Boxed, as the next: the port's layout, and so the default scheduler's speed, stays
    /// as it was.)
    Wf2qPlus(Box<Wf2qPlus>),
    VirtualSpacing(Box<VirtualSpacing>),
}

impl Scheduler {
    /// Whether the scheduler sends whenever a cell is queued, in arrival order for a single
    /// queue (so a single-FIFO port's departures can be computed at arrival).
    pub fn is_work_conserving(&self) -> bool {
        match self {
            Self::PriorityRoundRobin(_) | Self::Wf2qPlus(_) | Self::VirtualSpacing(_) => true,
        }
    }

    /// A cell of class `class` was appended to `queue` at `now` (`was_empty`: the queue held
    /// nothing before it).
    #[inline]
    pub fn on_enqueue(&mut self, queue: u16, class: u8, was_empty: bool, now: SimTime) {
        let _ = now;
        match self {
            Self::PriorityRoundRobin(s) => s.on_enqueue(queue, class, was_empty),
            Self::Wf2qPlus(s) => s.on_enqueue(queue, was_empty),
            Self::VirtualSpacing(s) => s.on_enqueue(queue, was_empty),
        }
    }

    /// The queue whose head cell leaves next.
    #[inline]
    pub fn pick(&mut self, now: SimTime) -> Pick {
        let _ = now;
        match self {
            Self::PriorityRoundRobin(s) => s.pick(),
            Self::Wf2qPlus(s) => s.pick(),
            Self::VirtualSpacing(s) => s.pick(),
        }
    }

    /// The port removed the head of the queue [`pick`](Self::pick) answered (`now_empty`: the
    /// queue is empty after it).
    #[inline]
    pub fn on_dequeue(&mut self, queue: u16, now_empty: bool, now: SimTime) {
        let _ = now;
        match self {
            Self::PriorityRoundRobin(s) => s.on_dequeue(queue, now_empty),
            Self::Wf2qPlus(s) => s.on_dequeue(queue, now_empty),
            Self::VirtualSpacing(s) => s.on_dequeue(queue, now_empty),
        }
    }
}
