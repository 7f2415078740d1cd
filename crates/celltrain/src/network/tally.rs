//! What a run counts of itself, and how it measures its flows: the counters every hop and
//! event bumps, and the window, bottleneck and burst gap the summary's measures are taken by.

use super::*;

/// The run's own counters: its events, its cell and packet hops, the cells admitted to
/// adapters in runs, and the trace hash the events fold into (the fingerprint two runs are
/// compared by).
#[derive(Default)]
pub(super) struct Tally {
    pub(super) trace: TraceHash,
    pub(super) events: u64,
    /// Cells put on a link, summed over links, since the start (not reset at warm-up).
    pub(super) cell_hops: u64,
    /// Packet mode: packets put on a link, summed over links, since the start.
    pub(super) packet_hops: u64,
    /// Cells admitted to adapters in runs (a frame's cells at once, and the data cells an ABR
    /// end system sends ahead in runs), since the start.
    pub(super) run_admitted_cells: u64,
    /// RM cells carried into ports answering as of an instant whose step at the explicit-rate
    /// algorithm took its own event (`as_of`), since the start.
    pub(super) rm_steps: u64,
}

impl Tally {
    /// An event of the run is handled at `now`: it is counted and folded into the trace.
    #[inline(always)]
    pub(super) fn event(&mut self, now: SimTime, event: Event) {
        let (kind, target) = event.trace_key();
        self.trace.fold(now, kind, target);
        self.events += 1;
    }
}

/// How the run measures: the window its results count over, the port its goodput is set
/// against, and the silence that ends a TCP sender's burst.
pub(super) struct Measure {
    /// When the measurement window opens.
    pub(super) warmup: SimTime,
    /// The measurement window has opened.
    pub(super) window_open: bool,
    /// The port whose capacity defines the theoretical maximum goodput.
    pub(super) bottleneck: Option<PortId>,
    /// A TCP sender's silence longer than this ends a burst of segments.
    pub(super) burst_gap: SimDuration,
}
