//! One direction of a link at the ATM layer: the output port (a host adapter or a switch port)
//! by its parts — the plan's choices, what the port is, its transmitter (`transmitter.rs`), the
//! link it drives with the pipe of cells in propagation (`link.rs`), its queue — and, in packet
//! mode, the packet queue that replaces the cell machinery.

use super::*;
use crate::network::link::Link;
use crate::network::plan::PortPlan;
use crate::network::transmitter::Transmitter;

/// One direction of a link: the output port that serialises onto it and the pipe that
/// carries cells to the far end (ns-3's device/channel split, htsim's queue/pipe).
///
/// Laid out in the order written (`repr(C)`), what a cell or packet reads at every hop first:
/// the plan's flags, the port's facts, the transmitter and the link share the record's first
/// cache lines, then the queue; what only set-up, packet mode or rare paths read comes last.
#[repr(C)]
pub struct Port {
    /// How the port runs, as the plan chose (read by every cell that reaches it).
    pub(super) plan: PortPlan,
    /// What the port is, fixed when the network is built.
    pub(crate) facts: PortFacts,
    pub(crate) tx: Transmitter,
    /// The link the port drives: its delay, its capture and the cells in propagation.
    pub(super) link: Link,
    /// An analytic port's cells admitted and not started yet (see [`Starts`]).
    pub(super) starts: Starts,
    pub queue: OutputPort,
    /// Packet mode: the packet FIFO that replaces the cell machinery, with its link's packets
    /// in propagation (out of line: a cell port's record stays small).
    pub packets: Option<Box<PacketQueue>>,
    /// A single-FIFO port run by events: per queued cell, the earliest its adapter's rules let
    /// it start and whether it is a PDU's first cell.
    pub(super) waiting: VecDeque<fifo_events::Waiting>,
    /// A switch port's explicit-rate algorithm (ABR), when it has one.
    pub(super) er: Option<Box<super::rm::ErPort>>,
    /// A host adapter's shaping, PDU gap and preventive tagging, when it has any.
    pub(super) rules: Option<Box<AdapterRules>>,
    /// "from->to".
    pub name: String,
    pub from: NodeId,
    pub to: NodeId,
    pub line_rate: BitRate,
}

/// What a port is and how its queue serves, fixed when the network is built: the plan reads
/// them, the cell path the few it must.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct PortFacts {
    /// Every VC shares one FIFO queue: each cell's start time is known when it arrives.
    pub(super) single_fifo: bool,
    /// The scheduler sends whenever a cell is queued (else a cell reaching an idle port may
    /// still have to wait for it).
    pub(super) work_conserving: bool,
    /// The adapter's rules decide its cells' start times (a shaper or a PDU gap).
    pub(super) adapter_rules: bool,
    /// An on/off source on this adapter may hand over a whole burst at once: the adapter
    /// carries that source's VC alone, in a buffer no burst can fill.
    pub(super) may_take_bursts: bool,
    /// A host's adapter (segmentation side) rather than a switch port.
    pub(super) is_nic: bool,
}

/// How an ATM output port runs (chosen by the plan, see `plan`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortPath {
    /// Queues and a scheduler, by `PortFree` events (several queues, or packet mode).
    Queues,
    /// A single FIFO run analytically: cells are put on the wire when they arrive, with their
    /// (future) start times kept until they pass, so the port needs no events.
    Analytic,
    /// A single FIFO run by events (the reference for `Analytic`): departures due at an
    /// instant go before arrivals at that instant, as on an analytic port (`fifo_events`).
    FifoEvents,
}

pub(crate) use super::starts::{HandedBurst, Starts};

impl Port {
    /// The propagation delay of the link the port drives.
    pub fn delay(&self) -> SimDuration {
        self.link.delay()
    }

    /// Whether the port runs analytically with nothing but its clock deciding when its cells
    /// start, and nothing watching them go: no adapter timing rules, no capture. (What
    /// carrying into it, direct crossing, run admission, burst hand-off and ABR pacing ahead
    /// ask of a port.)
    #[inline]
    pub(super) fn plainly_analytic(&self) -> bool {
        self.plan.path == PortPath::Analytic && !self.facts.adapter_rules && !self.link.is_captured()
    }

    /// Cells admitted to an analytic port that have not started yet.
    pub(super) fn cells_not_started(&self) -> u64 {
        self.starts.cells_not_started()
    }

    /// Whether every cell admitted to an analytic port has started.
    #[inline]
    pub(super) fn all_started(&self) -> bool {
        self.starts.all_started()
    }

    /// The cells of the runs that have started by `now` leave the buffer.
    #[inline(never)]
    fn release_runs(&mut self, now: SimTime) {
        let Port { starts, queue, .. } = self;
        starts.release_runs_by(|run| queue.depart_virtual_run(run, now));
    }

    /// The adapter's rules when they time its cells (a shaper or a PDU gap).
    #[inline]
    pub(super) fn timing_rules(&self) -> Option<&AdapterRules> {
        self.rules.as_deref().filter(|_| self.facts.adapter_rules)
    }

    /// Whether this port's pipe may empty between two cells its transmitter starts back to
    /// back: its slot (at its service rate: a paced adapter's PCR) is longer than a cell's time
    /// on the wire plus the link's delay. A cell put on such a link before its start (a burst
    /// handed over, a frame's cells, a cell held for its slot) would otherwise take its
    /// `PipeHead` event's place before the event that starts it would have: the rule of
    /// `PortPlan::heads_late`.
    pub(super) fn pipe_may_empty_between_slots(&self) -> bool {
        let slot = self.tx.clock.service_rate().cell_time_ceil();
        slot > self.tx.clock.line_cell_time() + self.link.delay()
    }

    /// Analytic ports: the cells whose start time has come leave the buffer, but those kept
    /// by runs (see [`release_runs_started`](Self::release_runs_started)); those of a
    /// handed-over burst pass through it. Returns how many of the latter started (they are
    /// sent then: see [`Network::release_started`], which counts them).
    #[inline]
    #[must_use]
    pub(super) fn release_started(&mut self, now: SimTime) -> u32 {
        let passed = self.starts.release_handed(now);
        if passed > 0 {
            self.queue.pass_virtual(passed);
        }
        self.release_queued(now);
        passed
    }

    /// Then the cells kept by runs whose start time has come leave the buffer. (A step of its
    /// own, in the caller: a call in `release_started`, even one never taken, makes it save
    /// registers on every arrival at every analytic port: `bench null` +7 % instructions.)
    #[inline(always)]
    pub(super) fn release_runs_started(&mut self, now: SimTime) {
        if self.starts.only_runs() {
            self.release_runs(now);
        }
    }

    /// Analytic ports: `cell` of the VC in `slot`, arriving now with its start time known, is
    /// offered to the buffer: it passes straight through when it starts now with nothing
    /// queued, else it waits there (virtually) until `start`; or it is refused. `RUNS`: the
    /// port may keep start times by runs (else it is known to keep none, as the target of a
    /// fan-in group crossed directly: runs are kept on links with trains only, a group's or a
    /// lone one's).
    #[inline(always)]
    pub(super) fn admit_analytic<const RUNS: bool>(
        &mut self,
        cell: &Cell,
        slot: u32,
        start: SimTime,
        now: SimTime,
    ) -> Result<(), celltrain_atm::DropReason> {
        debug_assert!(RUNS || self.starts.no_runs());
        let passes = if RUNS { self.all_started() && start == now } else { self.starts.passes(start, now) };
        if passes {
            self.queue.pass_through_at(cell, slot, now)
        } else if RUNS {
            self.queue.admit_virtual(cell, slot, now).map(|()| self.starts.push(start))
        } else {
            self.queue.admit_virtual(cell, slot, now).map(|()| self.starts.push_one_by_one(start))
        }
    }

    /// Analytic ports: the queued cells whose start time has come leave the buffer, but those
    /// kept by runs (all that `release_started` does on a port never handed a burst).
    #[inline(always)]
    pub(super) fn release_queued(&mut self, now: SimTime) {
        while let Some(start) = self.starts.times.front() {
            if start > now {
                break;
            }
            self.starts.times.pop_front();
            self.queue.depart_virtual(start);
        }
    }
}
