//! The network: arenas of nodes, ports, VCs, flows and sources, the event enum and the run
//! loop. Components are plain structs in `Vec`s indexed by typed ids; events are small `Copy`
//! values naming their target; every component keeps at most one pending event of each kind
//! (a busy port's "free" event, a pipe's head-arrival event, a source's next tick), so the
//! event set grows with the number of components, never with the number of cells.

mod abr;
mod adapter;
mod address_map;
mod as_of;
mod build;
mod carry;
mod cell_path;
mod egress;
mod event;
mod fan_in;
mod fan_in_direct;
mod fifo_events;
mod horizon;
mod host_timing;
mod ip;
mod link;
mod packet_port;
mod pdu_gap;
mod plan;
mod port;
mod queues_ahead;
mod record;
mod record_changes;
mod record_parts;
mod rm;
mod sent_ahead;
mod sources;
mod starts;
mod tally;
mod tcp;
#[cfg(test)]
mod tests;
mod transmitter;

pub(crate) use abr::AbrEndSpec;
pub use abr::{AbrEnd, AbrEndCounts, AbrSystem};
pub use address_map::ADDRESS_MAP_FILE;
pub use build::{
    route_ports, BuildError, Field, Medium, NetworkBuilder, RecordRequest, Subject, TcpSpec, VcSpec,
    DEFAULT_NIC_BUFFER_CELLS,
};
pub(crate) use event::Event;
#[cfg(test)]
use event::EVENT_KINDS;
pub use event::MAX_COMPONENTS;
pub use host_timing::ProcessingJitter;
pub use packet_port::conditioning as packet_conditioning;
pub(crate) use packet_port::priority as packet_priority;
pub use packet_port::{PacketLimits, PacketPortStats, PacketQueue};
pub use plan::SimOptions;
pub(crate) use port::HandedBurst;
pub use port::{Port, PortPath};
pub use record::{node_address, RecordSpec, Recorder};
pub use record_changes::{ChangeRow, CHANGES_FILE, MAX_CHANGE_ROWS};
pub use record_parts::{QueueDetail, QueuePart};
pub use tcp::{lifetime_stats, App, HostCpu, TcpConn};

use crate::packet::{Packet, Payload};
use crate::source::{OnOffSource, UdpSource};
use adapter::AdapterRules;
use celltrain_atm::aal5::{self, FrameInfo, Reassembler, Reassembly, ReassemblyAfterTimeout};
use celltrain_atm::cell::{Cell, CellKind};
use celltrain_atm::frame::FrameArena;
use celltrain_atm::port::{OutputPort, TxClock};
use celltrain_atm::ServiceCategory;
use celltrain_core::ids::{ConnId, NodeId, PortId, RouteId, SourceId, VcId};
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::units::BitRate;
use celltrain_core::{EventQueue, TraceHash};
use std::collections::VecDeque;
use tally::{Measure, Tally};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Host,
    Switch,
    /// An IP router: forwards packets between its interfaces; on an ATM interface it
    /// segments them onto a VC (and reassembles what arrives on one).
    Router,
}

/// One step of a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hop {
    /// Across one packet link (Ethernet, or any link in packet mode).
    Port(PortId),
    /// Across an ATM VC, as AAL5 cells, to the VC's far end.
    Vc(VcId),
}

/// A flow's way from its source host to its destination host.
#[derive(Clone, Debug)]
pub struct Route {
    pub name: String,
    pub hops: Vec<Hop>,
    pub src: NodeId,
    pub dst: NodeId,
}

#[derive(Clone, Debug)]
pub struct Node {
    pub name: String,
    pub kind: NodeKind,
}

/// Whether the network carries cells (ATM) or whole packets (IP routers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Cell,
    Packet,
}

/// Counters of a VC over the measurement window.
///
/// Laid out in the order written (`repr(C)`): the counters every delivered cell changes first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct VcStats {
    pub cells_delivered: u64,
    pub cells_sent: u64,
    /// Transfer delays of the user cells delivered in the window.
    pub delays: crate::delay::CellDelays,
    pub cells_dropped: u64,
    /// Cells the UPC discarded (also counted in `cells_dropped`).
    pub cells_policed: u64,
    /// CLP = 0 cells the UPC tagged CLP = 1 (VBR.3).
    pub cells_tagged: u64,
    /// Partial frames the destination adapter's reassembly timer discarded.
    pub reassembly_timeouts: u64,
    /// Frames the source adapter tagged preventively (all cells but the last CLP = 1).
    pub frames_tagged: u64,
    pub frames_sent: u64,
    pub frames_delivered: u64,
    /// Frames whose fate became final without delivery (a cell dropped, or killed at
    /// reassembly by a neighbour's lost end-of-frame cell).
    pub frames_lost: u64,
    /// Reassembly errors seen by the receiver (one per discarded buffer).
    pub corrupted_pdus: u64,
    /// Cells in buffers and on links when the window opened: with `cells_sent` in the window,
    /// every one is delivered, dropped or still in flight at the end.
    pub cells_in_flight_at_start: u64,
}

/// How a VC's cells are carried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adaptation {
    /// AAL5 frames, reassembled at the destination.
    Aal5,
    /// Bare cells (ATM-layer sources), counted at the destination.
    Raw,
}

/// Laid out in the order written (`repr(C)`): what a cell reads of its VC at every hop (the
/// route), at the first switch (the policer) and at its destination (the reassembly timer, the
/// CDV's clock, the reassembler, the delivery counters and delays) comes first, the rest last.
/// (Over ABR the cells of many VCs interleave, and a line of the record is often out of cache
/// when a cell reads it.)
#[repr(C)]
pub struct Vc {
    /// Output ports crossed, the source's adapter first, each with the VC's slot in it (see
    /// [`OutputPort::new`](celltrain_atm::port::OutputPort::new)).
    pub route: Vec<(PortId, u32)>,
    /// Usage parameter control at the ingress of the first switch, when policed (out of line:
    /// most VCs have none, and every cell reaching its first switch asks).
    pub policer: Option<Box<celltrain_atm::ingress::Policer>>,
    /// The destination adapter's reassembly timer (None: none, as on the Fore adapters).
    pub reassembly_timeout: Option<SimDuration>,
    /// 1/PCR rounded down to the picosecond: the reference clock of the 1-point CDV.
    peak_interval: SimDuration,
    pub adaptation: Adaptation,
    pub category: ServiceCategory,
    reassembler: Reassembler,
    pub stats: VcStats,
    pub name: String,
    pub pcr: BitRate,
    pub src: NodeId,
    pub dst: NodeId,
}

impl Vc {
    pub(crate) fn peak_interval_of(pcr: BitRate) -> SimDuration {
        let ps = u128::from(celltrain_core::units::CELL_BITS) * 1_000_000_000_000 / u128::from(pcr.as_bps().max(1));
        SimDuration::from_picos(u64::try_from(ps).unwrap_or(u64::MAX))
    }

    /// The least transfer delay a cell of this VC can have: on each link of its route, the
    /// propagation delay and the least time a cell takes on the wire (a slot at the line rate,
    /// rounded down: a busy transmitter's slots are whole picoseconds, ceilings and floors of
    /// the exact slot). Its delays' histogram counts from here (see `delay`).
    pub(crate) fn delay_floor(&self, ports: &[Port]) -> SimDuration {
        let ps: u64 = self
            .route
            .iter()
            .map(|&(p, _)| {
                let port = &ports[p.index()];
                let wire = port.line_rate.cell_time_ceil().as_picos().saturating_sub(1);
                port.link.delay().as_picos().saturating_add(wire)
            })
            .fold(0, u64::saturating_add);
        SimDuration::from_picos(ps)
    }

    /// A user cell of this VC that entered the network at `entered` reaches its destination at
    /// `at`: it is counted delivered and its delay recorded. (The one body of a user cell's
    /// delivery, by its event, carried, or crossed directly in a loop; an RM cell is counted
    /// by `receive` itself, with no delay, before it goes to ABR's end systems.)
    #[inline]
    pub(super) fn deliver_user_cell(&mut self, entered: SimTime, at: SimTime) {
        self.stats.cells_delivered += 1;
        self.stats.delays.on_delivery(entered, at, self.peak_interval);
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowKind {
    Udp,
    OnOff,
    Tcp,
}

impl FlowKind {
    pub fn name(self) -> &'static str {
        match self {
            FlowKind::Udp => "udp",
            FlowKind::OnOff => "onoff",
            FlowKind::Tcp => "tcp",
        }
    }
}

/// Counters of a flow over the measurement window.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FlowStats {
    pub packets_sent: u64,
    pub packets_delivered: u64,
    pub packets_lost: u64,
    /// Application bytes delivered intact.
    pub bytes_delivered: u64,
    /// TCP: when the receiving application saw the end of the transfer (the peer's FIN).
    pub completed_at: Option<SimTime>,
    /// TCP sender: trains of data segments separated by more than the burst gap.
    pub bursts: u64,
    /// Data segments sent, over all bursts.
    pub burst_segments: u64,
    /// Sum of the idle gaps between bursts, in picoseconds.
    pub idle_ps: u64,
    /// The idle gaps that a retransmission timeout ended (BKD97's idle before a
    /// retransmission): how many, and their sum in picoseconds.
    pub timeout_idles: u64,
    pub timeout_idle_ps: u64,
    /// The sender's timeout count when it last sent a data segment.
    pub timeouts_seen: u64,
    /// Segments of the burst in progress, and the finished bursts of two segments or more
    /// with their segments (the trains of BKD97's packet-train model; a lone
    /// retransmission is not one).
    pub burst_len: u64,
    pub multi_bursts: u64,
    pub multi_burst_segments: u64,
    /// When the sender last sent a data segment.
    pub last_data_at: Option<SimTime>,
    /// Over the delivered packets (data segments, datagrams): the sum and the largest of
    /// their delays from the sending host's send to the receiving host's delivery, ps.
    pub delay_sum_ps: u64,
    pub delay_max_ps: u64,
}

impl FlowStats {
    /// Counts the burst in progress among the multi-segment bursts if it has two segments or
    /// more (when a gap ends it, and once more for the summary).
    pub fn close_burst(&mut self) {
        if self.burst_len >= 2 {
            self.multi_bursts += 1;
            self.multi_burst_segments += self.burst_len;
        }
        self.burst_len = 0;
    }
}

pub struct Flow {
    pub name: String,
    pub kind: FlowKind,
    /// The route of its packets (TCP: of the data; acknowledgements go the reverse route).
    pub route: RouteId,
    /// Application bytes per packet (0 for cell sources).
    pub app_bytes: u64,
    /// Transport + IP header bytes per packet.
    pub header_bytes: u64,
    pub stats: FlowStats,
    /// TCP flows: the sending and the receiving endpoint.
    pub conns: Option<(ConnId, ConnId)>,
    /// TCP flows: when the sender opens its (first) connection.
    pub started_at: Option<SimTime>,
}

impl Flow {
    /// A packet reached its destination or was lost: if it was counted as sent in the window
    /// (`Packet::counted`), it is counted as delivered or lost.
    #[inline]
    pub(crate) fn packet_settled(&mut self, counted: bool, lost: bool) {
        if counted {
            if lost {
                self.stats.packets_lost += 1;
            } else {
                self.stats.packets_delivered += 1;
            }
        }
    }
}

pub(crate) enum Source {
    Udp(UdpSource),
    OnOff(OnOffSource),
    Poisson(crate::packet_sources::PoissonSource),
    OnOffPacket(crate::packet_sources::OnOffPacketSource),
}

impl Source {
    /// The source emits nothing at or after this time.
    fn stop(&self) -> SimTime {
        match self {
            Source::Udp(s) => s.stop,
            Source::OnOff(s) => s.stop,
            Source::Poisson(s) => s.stop,
            Source::OnOffPacket(s) => s.stop,
        }
    }
}

/// Where a run stands, for progress reports.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub now: SimTime,
    pub end: SimTime,
    pub events: u64,
}

impl Progress {
    pub fn fraction(&self) -> f64 {
        if self.end == SimTime::ZERO {
            1.0
        } else {
            self.now.as_secs_f64() / self.end.as_secs_f64()
        }
    }
}

/// A network ready to run (built by [`NetworkBuilder`]).
pub struct Network {
    mode: Mode,
    nodes: Vec<Node>,
    ports: Vec<Port>,
    vcs: Vec<Vc>,
    routes: Vec<Route>,
    flows: Vec<Flow>,
    pub(crate) sources: Vec<Source>,
    /// TCP endpoints, two per TCP flow.
    conns: Vec<TcpConn>,
    /// Packet processing of each node (used by hosts), indexed by node.
    hosts: Vec<HostCpu>,
    frames: FrameArena<Packet>,
    queue: EventQueue<Event>,
    now: SimTime,
    /// When the run ends.
    end: SimTime,
    /// The run's events, hops, cells admitted in runs and trace hash.
    tally: Tally,
    /// The measurement window, the bottleneck and the burst gap.
    measure: Measure,
    /// Captures and time series.
    recorder: Recorder,
    /// The fast paths the run may take (see `plan`).
    options: SimOptions,
    /// Cells arriving before this instant may be carried ahead.
    carry_before: SimTime,
    /// The ABR end systems and the RM cells in flight.
    abr: AbrSystem,
    /// Plan: the pipes that lead to one port, sharing one entry in the event queue.
    fan_ins: Vec<fan_in::FanIn>,
    /// Plan: the ports answering as of an instant, and the RM steps due across their links.
    as_of: as_of::AsOfPorts,
    /// Plan: the packet links carried by horizon, and what bounds their feeders' next packets.
    horizons: horizon::Horizons,
    /// The place of the event being handled.
    place: celltrain_core::Place,
}

/// Trace-hash kinds of the non-event records (an event folds in its kind, 0 to 11: these stay above them).
const TRACE_DROP: u32 = 16;
const TRACE_DELIVERY: u32 = 17;

/// Slot-grid rounding tolerated when a cell reaches an idle port (see [`Network::arrive`]).
const ROUNDING_SLACK: SimDuration = SimDuration::from_picos(1);

/// Work (events and cell-hops: most cells move without events) between two progress callbacks.
const PROGRESS_EVERY: u64 = 1 << 18;

impl Network {
    /// Runs to the end time, calling `progress` now and then.
    pub fn run(&mut self, progress: &mut dyn FnMut(Progress)) {
        self.run_interruptible(&mut |p| {
            progress(p);
            std::ops::ControlFlow::Continue(())
        });
    }

    /// As [`run`](Self::run), calling `progress` every [`PROGRESS_EVERY`] units of work
    /// (a few milliseconds of wall time); when it answers `Break` (Ctrl-C) the run stops there
    /// and returns false: the network is then mid-run and its counters are no run's results.
    pub fn run_interruptible(&mut self, progress: &mut dyn FnMut(Progress) -> std::ops::ControlFlow<()>) -> bool {
        let mut next_progress = self.tally.events + self.tally.cell_hops + PROGRESS_EVERY;
        // (Debug builds check that time never runs back: no event is scheduled in the past.)
        #[cfg(debug_assertions)]
        let mut last = SimTime::ZERO;
        while let Some((place, event)) = self.queue.pop_placed_until(self.end) {
            let now = place.time();
            #[cfg(debug_assertions)]
            {
                debug_assert!(now >= last, "an event at {now:?} handled after one at {last:?}");
                last = now;
            }
            self.now = now;
            self.place = place;
            if let Event::FanIn(g) = event {
                // (Not an event of the run: it hands out pipe heads, each counted as one.)
                self.fan_in_due(g, place);
                continue;
            }
            self.tally.event(now, event);
            match event {
                Event::PortFree(p) => self.port_free(p, now),
                Event::PipeHead(p) if self.ports[p.index()].packets.is_some() => self.packet_pipe_head(p),
                Event::PipeHead(p) => self.pipe_head(p),
                Event::Source(s) => self.source_tick(s),
                Event::OpenWindow => self.open_window(),
                Event::TcpWake(c) => self.tcp_wake(c),
                Event::HostSend(h) => self.host_send_done(h),
                Event::HostRecv(h) => self.host_recv_done(h),
                Event::Sample => self.sample(),
                Event::RmInterval(p) => self.rm_interval(p),
                Event::AbrSend(v) => self.abr_send(v),
                Event::RmStep(p) => self.rm_step(p),
                Event::FanIn(_) => unreachable!("handled above"),
            }
            if self.tally.events + self.tally.cell_hops >= next_progress {
                next_progress = self.tally.events + self.tally.cell_hops + PROGRESS_EVERY;
                if progress(Progress { now, end: self.end, events: self.tally.events }).is_break() {
                    return false;
                }
            }
        }
        self.now = self.end;
        self.settle_all_deferred(self.end + SimDuration::from_picos(1));
        let end = self.end;
        self.release_all(end);
        let _ = progress(Progress { now: self.end, end: self.end, events: self.tally.events });
        true
    }

    /// The `PortFree` event of `p` at `now`.
    #[inline(always)]
    fn port_free(&mut self, p: PortId, now: SimTime) {
        let port = &mut self.ports[p.index()];
        if port.plan.path == PortPath::FifoEvents {
            // (An event overtaken by a departure before an arrival is stale.)
            if port.tx.event_is_due(now) {
                port.tx.departs();
                self.transmit_fifo(p);
            }
        } else {
            if port.packets.is_some() {
                self.settle_due_packet(p);
            } else {
                port.tx.departs();
                self.transmit(p);
            }
        }
    }

    /// Whether the network carries cells or packets.
    pub fn mode(&self) -> Mode {
        self.mode
    }
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }
    /// The output ports, one per direction of each link.
    pub fn ports(&self) -> &[Port] {
        &self.ports
    }
    pub fn vcs(&self) -> &[Vc] {
        &self.vcs
    }
    pub fn routes(&self) -> &[Route] {
        &self.routes
    }
    pub fn flows(&self) -> &[Flow] {
        &self.flows
    }
    /// TCP endpoints, two per TCP flow (the sender, then the sink).
    pub fn conns(&self) -> &[TcpConn] {
        &self.conns
    }
    /// When the measurement window opens.
    pub fn warmup(&self) -> SimTime {
        self.measure.warmup
    }
    /// When the run ends.
    pub fn end(&self) -> SimTime {
        self.end
    }
    /// The port whose capacity defines the theoretical maximum goodput.
    pub fn bottleneck(&self) -> Option<PortId> {
        self.measure.bottleneck
    }
    /// Captures and time series.
    pub fn recorder(&self) -> &Recorder {
        &self.recorder
    }
    /// The sampled time series, taken out of the network (None when nothing was sampled).
    pub fn take_series(&mut self) -> Option<crate::trace::TimeSeries> {
        self.recorder.series.take()
    }

    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Cells admitted to adapters in runs since the start (see [`SimOptions::run_admission`];
    /// an ABR end system's data cells sent ahead in runs count too).
    pub fn run_admitted_cells(&self) -> u64 {
        self.tally.run_admitted_cells
    }

    pub fn events(&self) -> u64 {
        self.tally.events
    }

    /// Cells moved across one link, summed over links, since the start of the run (cells
    /// put on the wire of an analytic port with a start time still ahead are not counted).
    pub fn cell_hops(&self) -> u64 {
        self.tally.cell_hops
            - self.ports.iter().map(|p| p.cells_not_started() + u64::from(p.starts.handed().pending())).sum::<u64>()
    }

    pub fn trace_hash(&self) -> u64 {
        self.tally.trace.value()
    }

    /// AAL5 frames still in flight (some cells neither dropped nor received).
    pub fn frames_in_flight(&self) -> usize {
        self.frames.live()
    }

    /// Packet mode: packets moved across one link, summed over links, since the start.
    pub fn packet_hops(&self) -> u64 {
        self.tally.packet_hops
    }

    /// Packets in packet-mode buffers and on links.
    pub fn packets_in_flight(&self) -> u64 {
        self.ports.iter().map(|p| p.packets.as_ref().map_or(0, |q| q.packets_in_flight())).sum()
    }

    /// Per VC: its cells in buffers and on links now (an analytic port's waiting cells are
    /// already in its pipe).
    pub fn vc_cells_in_flight(&self) -> Vec<u64> {
        let mut cells = vec![0u64; self.vcs.len()];
        // (Before the handed-over cells not started are taken off below: they are in trains.)
        self.fan_in_cells_in_trains(&mut cells);
        for port in &self.ports {
            for (_, cell) in port.link.cells() {
                cells[cell.vc.index()] += 1;
            }
            // Handed-over cells that have not started are not sent yet. At an observation (the
            // window's opening, the end) they are all still in the pipe, since carrying stops
            // there; between observations a carried adapter's may have crossed already, and the
            // count is only a lower bound.
            let handed = port.starts.handed();
            if handed.pending() > 0 {
                let vc = &mut cells[handed.vc.index()];
                *vc = vc.saturating_sub(u64::from(handed.pending()));
            }
            if port.plan.path != PortPath::Analytic {
                for cell in port.queue.queued_cells() {
                    cells[cell.vc.index()] += 1;
                }
            }
        }
        // Cells waiting in ABR end systems were sent by their source (segmented).
        for end in &self.abr.ends {
            cells[end.vc.index()] += end.queued_cells() as u64;
        }
        cells
    }

    /// Cells in buffers and on links: sent by a source, neither dropped nor received yet.
    pub fn cells_in_flight(&self) -> u64 {
        self.vc_cells_in_flight().iter().sum()
    }

    fn open_window(&mut self) {
        let now = self.now;
        // Cells starting exactly now count in the window: the opening was scheduled before any
        // event of the run, so the source event that would emit a handed-over cell now, or the
        // port-free event that would start a queued one, comes after it.
        self.settle_all_deferred(now);
        self.release_all(SimTime::from_picos(now.as_picos().saturating_sub(1)));
        for port in &mut self.ports {
            port.queue.open_window(now);
            if let Some(q) = &mut port.packets {
                q.open_window(now);
            }
        }
        let in_flight = self.vc_cells_in_flight();
        for (vc, cells) in self.vcs.iter_mut().zip(in_flight) {
            let delays = crate::delay::CellDelays::above(vc.stats.delays.floor());
            vc.stats = VcStats { cells_in_flight_at_start: cells, delays, ..VcStats::default() };
        }
        self.release_all(now);
        if self.recorder.spec.delivered {
            self.recorder.delivered_before_window = self.flows.iter().map(|f| f.stats.bytes_delivered).collect();
        }
        for flow in &mut self.flows {
            flow.stats = FlowStats::default();
        }
        for conn in &mut self.conns {
            conn.stats_at_window = tcp::lifetime_stats(conn);
        }
        self.measure.window_open = true;
        self.refresh_carry_bound();
    }
}
