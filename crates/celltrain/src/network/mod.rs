//! The network: arenas of nodes, ports, VCs, flows and sources, the event enum and the run
//! loop. Components are plain structs in `Vec`s indexed by typed ids; events are small `Copy`
//! values naming their target; every component keeps at most one pending event of each kind
//! (a busy port's "free" event, a pipe's head-arrival event, a source's next tick), so the
//! event set grows with the number of components, never with the number of cells.

mod adapter;
mod builder;
mod carry;
mod fifo_events;
mod packet_port;
mod plan;
mod record;
mod tcp;
#[cfg(test)]
mod tests;

pub use builder::{
    route_ports, BuildError, Medium, NetworkBuilder, RecordRequest, Subject, TcpSpec, VcSpec, DEFAULT_NIC_BUFFER_CELLS,
};
pub use packet_port::{PacketPortStats, PacketQueue};
pub use plan::SimOptions;
pub use record::{node_address, RecordSpec, Recorder};
pub use tcp::{lifetime_stats, App, HostCpu, TcpConn};

use crate::packet::{Packet, Payload};
use crate::source::{OnOffSource, UdpSource};
use adapter::AdapterRules;
use celltrain_atm::aal5::{self, FrameInfo, Reassembler, Reassembly, ReassemblyAfterTimeout};
use celltrain_atm::cell::{Cell, CellKind};
use celltrain_atm::frame::{FrameArena, FrameFate};
use celltrain_atm::port::{OutputPort, TxClock};
use celltrain_atm::ServiceCategory;
use celltrain_core::ids::{ConnId, NodeId, PortId, RouteId, SourceId, VcId};
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::units::BitRate;
use celltrain_core::{EventCode, EventQueue, TraceHash};
use std::collections::VecDeque;

/// What must happen when simulated time reaches an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Event {
    /// A port's transmitter is free and its queue is not empty.
    PortFree(PortId),
    /// The oldest cell on a port's outgoing pipe reaches the far end.
    PipeHead(PortId),
    /// A source emits its next unit.
    Source(SourceId),
    /// The warm-up ends: counters restart.
    OpenWindow,
    /// A TCP endpoint asked to be woken.
    TcpWake(ConnId),
    /// A host finished send processing of a packet.
    HostSend(NodeId),
    /// A host finished receive processing of a packet.
    HostRecv(NodeId),
    /// A time-series sampling instant.
    Sample,
}

/// Event codes: 4 bits of kind (room for the kinds ABR and GFR will add), 20 bits of id (a
/// million components of each kind).
const KIND_SHIFT: u32 = 20;
const ID_MASK: u32 = (1 << KIND_SHIFT) - 1;
/// Kinds of event (one more per new variant of [`Event`]: `trace_key` and `decode` list them).
const EVENT_KINDS: u32 = 8;
const _: () = assert!(EVENT_KINDS <= 1 << (celltrain_core::event_queue::CODE_BITS - KIND_SHIFT), "event kinds fit");
/// The most ports, sources or flows a network may have (ids must fit an event code).
pub const MAX_COMPONENTS: usize = ID_MASK as usize;

impl EventCode for Event {
    #[inline]
    fn encode(self) -> u32 {
        let (kind, id) = self.trace_key();
        (kind << KIND_SHIFT) | id
    }
    #[inline]
    fn decode(code: u32) -> Self {
        let id = code & ID_MASK;
        match code >> KIND_SHIFT {
            0 => Event::PortFree(PortId(id)),
            1 => Event::PipeHead(PortId(id)),
            2 => Event::Source(SourceId(id)),
            3 => Event::OpenWindow,
            4 => Event::TcpWake(ConnId(id)),
            5 => Event::HostSend(NodeId(id)),
            6 => Event::HostRecv(NodeId(id)),
            7 => Event::Sample,
            kind => unreachable!("event kind {kind} was never encoded"),
        }
    }
}

impl Event {
    #[inline]
    fn trace_key(self) -> (u32, u32) {
        match self {
            Event::PortFree(p) => (0, p.0),
            Event::PipeHead(p) => (1, p.0),
            Event::Source(s) => (2, s.0),
            Event::OpenWindow => (3, 0),
            Event::TcpWake(c) => (4, c.0),
            Event::HostSend(h) => (5, h.0),
            Event::HostRecv(h) => (6, h.0),
            Event::Sample => (7, 0),
        }
    }
}

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

/// One direction of a link: the output port that serialises onto it and the pipe that
/// carries cells to the far end (ns-3's device/channel split, htsim's queue/pipe).
pub struct Port {
    /// "from->to".
    pub name: String,
    pub from: NodeId,
    pub to: NodeId,
    pub line_rate: BitRate,
    pub delay: SimDuration,
    /// A host's adapter (segmentation side) rather than a switch port.
    pub is_nic: bool,
    pub(crate) clock: TxClock,
    pub queue: OutputPort,
    /// Cells in propagation, with their arrival times at the far end (increasing).
    pipe: VecDeque<(SimTime, Cell)>,
    /// A `PortFree` event is pending.
    free_pending: bool,
    /// Every VC shares one FIFO queue: each cell's start time is known when it arrives.
    single_fifo: bool,
    /// The scheduler sends whenever a cell is queued (else a cell reaching an idle port may
    /// still have to wait for it).
    work_conserving: bool,
    /// Plan: a single-FIFO port run analytically: cells are put on the wire when they arrive,
    /// with their (future) start times kept here until they pass, so the port needs no events.
    analytic: bool,
    /// Plan: a single-FIFO port run by events (the reference): departures due at an instant
    /// go before arrivals at that instant, as on an analytic port.
    fifo_events: bool,
    /// Start times of the cells admitted to an analytic port that have not started yet.
    starts: VecDeque<SimTime>,
    /// A single-FIFO port run by events: per queued cell, the earliest its adapter's rules let
    /// it start and whether it is a PDU's first cell.
    waiting: VecDeque<fifo_events::Waiting>,
    /// When the pending `PortFree` event is due (a single-FIFO port run by events: an event
    /// due at another time is stale, overtaken by a departure made before an arrival).
    free_event_at: SimTime,
    /// Packet mode: the packet FIFO that replaces the cell machinery.
    pub packets: Option<PacketQueue>,
    /// Packet mode: packets in propagation, with their arrival times.
    packet_pipe: VecDeque<(SimTime, Packet)>,
    /// Index of the capture recording this link, if any.
    capture: Option<u32>,
    /// A host adapter's shaping, PDU gap and preventive tagging, when it has any.
    rules: Option<Box<AdapterRules>>,
    /// The adapter's rules decide its cells' start times (a shaper or a PDU gap).
    adapter_rules: bool,
    /// An on/off source on this adapter may hand over a whole burst at once: the adapter
    /// carries that source's VC alone, in a buffer no burst can fill.
    may_take_bursts: bool,
    /// Plan: whole bursts are handed over (see [`Network::hand_over_burst`]).
    burst_handoff: bool,
    /// Plan: a frame's cells are admitted at once (see [`Network::arrive_run`]).
    paces_only: bool,
    /// The last burst handed over whole: its cells are not in the buffer; they enter the
    /// adapter when they start, as the source emits them.
    handed: HandedBurst,
    /// The far end hears only from this link: cells are carried across at once (see `carry`).
    carry: bool,
}

/// An on/off burst handed whole to its adapter (see [`Network::hand_over_burst`]): its k-th
/// cell starts at `start + ⌈k·424/rate⌉` (k < `cells`), the adapter's own slots from an idle
/// start; the first `started` have been counted in.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HandedBurst {
    pub(crate) vc: VcId,
    pub(crate) start: SimTime,
    pub(crate) rate: BitRate,
    pub(crate) cells: u32,
    pub(crate) started: u32,
}

impl HandedBurst {
    pub(crate) const NONE: HandedBurst =
        HandedBurst { vc: VcId(0), start: SimTime::ZERO, rate: BitRate::from_bps(1), cells: 0, started: 0 };

    /// Cells not started yet.
    fn pending(&self) -> u32 {
        self.cells - self.started
    }

    /// Counts in the cells that have started by `now` (k·424/rate ≤ now − start, as the slot's
    /// start is a whole picosecond); returns how many were not counted before.
    #[inline]
    fn release(&mut self, now: SimTime) -> u32 {
        if self.started == self.cells || now < self.start {
            return 0;
        }
        let by_now = 1 + self.rate.cell_slots_floor(now.saturating_since(self.start));
        let started = u32::try_from(by_now.min(u64::from(self.cells))).expect("at most `cells`");
        let passed = started - self.started;
        self.started = started;
        passed
    }
}

/// Whether the network carries cells (ATM) or whole packets (IP routers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Cell,
    Packet,
}

impl Port {
    /// Analytic ports: the cells whose start time has come leave the buffer; those of a
    /// handed-over burst pass through it. Returns how many of the latter started (they are
    /// sent then: see [`Network::release_started`], which counts them).
    #[inline]
    #[must_use]
    fn release_started(&mut self, now: SimTime) -> u32 {
        let passed = self.handed.release(now);
        if passed > 0 {
            self.queue.pass_virtual(passed);
        }
        while let Some(&start) = self.starts.front() {
            if start > now {
                break;
            }
            self.starts.pop_front();
            self.queue.depart_virtual(start);
        }
        passed
    }
}

/// Counters of a VC over the measurement window.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VcStats {
    pub cells_sent: u64,
    pub cells_delivered: u64,
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

pub struct Vc {
    pub name: String,
    pub category: ServiceCategory,
    pub pcr: BitRate,
    pub adaptation: Adaptation,
    /// Output ports crossed, the source's adapter first, each with the VC's slot in it (see
    /// [`OutputPort::new`](celltrain_atm::port::OutputPort::new)).
    pub route: Vec<(PortId, u32)>,
    /// Usage parameter control at the ingress of the first switch, when policed.
    pub policer: Option<celltrain_atm::ingress::Policer>,
    /// The destination adapter's reassembly timer (None: none, as on the Fore adapters).
    pub reassembly_timeout: Option<SimDuration>,
    pub src: NodeId,
    pub dst: NodeId,
    reassembler: Reassembler,
    pub stats: VcStats,
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
    /// When the sender last sent a data segment.
    pub last_data_at: Option<SimTime>,
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
}

pub(crate) enum Source {
    Udp(UdpSource),
    OnOff(OnOffSource),
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
    pub mode: Mode,
    pub nodes: Vec<Node>,
    pub ports: Vec<Port>,
    pub vcs: Vec<Vc>,
    pub routes: Vec<Route>,
    pub flows: Vec<Flow>,
    pub(crate) sources: Vec<Source>,
    /// TCP endpoints, two per TCP flow.
    pub conns: Vec<TcpConn>,
    /// Packet processing of each node (used by hosts), indexed by node.
    pub hosts: Vec<HostCpu>,
    frames: FrameArena<Packet>,
    queue: EventQueue<Event>,
    now: SimTime,
    pub warmup: SimTime,
    pub end: SimTime,
    trace: TraceHash,
    events: u64,
    /// Cells put on a link, summed over links, since the start (not reset at warm-up).
    cell_hops: u64,
    /// Packet mode: packets put on a link, summed over links, since the start.
    packet_hops: u64,
    /// The port whose capacity defines the theoretical maximum goodput.
    pub bottleneck: Option<PortId>,
    /// A TCP sender's silence longer than this ends a burst of segments.
    pub burst_gap: SimDuration,
    /// Captures and time series.
    pub recorder: Recorder,
    /// The fast paths the run may take (see `plan`).
    options: SimOptions,
    /// Cells arriving before this instant may be carried ahead.
    carry_before: SimTime,
    /// The measurement window has opened.
    window_open: bool,
    /// Cells admitted that way, since the start.
    run_admitted_cells: u64,
}

/// Trace-hash kinds of the non-event records (events use 0..=3).
const TRACE_DROP: u32 = 16;
const TRACE_DELIVERY: u32 = 17;

/// Slot-grid rounding tolerated when a cell reaches an idle port (see [`Network::arrive`]).
const ROUNDING_SLACK: SimDuration = SimDuration::from_picos(1);

/// Work (events and cell-hops: most cells move without events) between two progress callbacks.
const PROGRESS_EVERY: u64 = 1 << 18;

impl Network {
    /// Runs to the end time, calling `progress` now and then.
    pub fn run(&mut self, progress: &mut dyn FnMut(Progress)) {
        let mut next_progress = self.events + self.cell_hops + PROGRESS_EVERY;
        while let Some((now, event)) = self.queue.pop_until(self.end) {
            self.now = now;
            let (kind, target) = event.trace_key();
            self.trace.fold(now, kind, target);
            self.events += 1;
            match event {
                Event::PortFree(p) => {
                    let port = &mut self.ports[p.index()];
                    if port.fifo_events {
                        // (An event overtaken by a departure before an arrival is stale.)
                        if port.free_pending && port.free_event_at == now {
                            port.free_pending = false;
                            self.transmit_fifo(p);
                        }
                    } else {
                        port.free_pending = false;
                        if port.packets.is_some() {
                            self.packet_transmit(p);
                        } else {
                            self.transmit(p);
                        }
                    }
                }
                Event::PipeHead(p) if self.ports[p.index()].packets.is_some() => self.packet_pipe_head(p),
                Event::PipeHead(p) => self.pipe_head(p),
                Event::Source(s) => self.source_tick(s),
                Event::OpenWindow => self.open_window(),
                Event::TcpWake(c) => self.tcp_wake(c),
                Event::HostSend(h) => self.host_send_done(h),
                Event::HostRecv(h) => self.host_recv_done(h),
                Event::Sample => self.sample(),
            }
            if self.events + self.cell_hops >= next_progress {
                next_progress = self.events + self.cell_hops + PROGRESS_EVERY;
                progress(Progress { now, end: self.end, events: self.events });
            }
        }
        self.now = self.end;
        let end = self.end;
        self.release_all(end);
        progress(Progress { now: self.end, end: self.end, events: self.events });
    }

    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Cells admitted to adapters in runs since the start (see [`SimOptions::run_admission`]).
    pub fn run_admitted_cells(&self) -> u64 {
        self.run_admitted_cells
    }
    pub fn events(&self) -> u64 {
        self.events
    }
    /// Cells moved across one link, summed over links, since the start of the run (cells
    /// put on the wire of an analytic port with a start time still ahead are not counted).
    pub fn cell_hops(&self) -> u64 {
        self.cell_hops - self.ports.iter().map(|p| p.starts.len() as u64 + u64::from(p.handed.pending())).sum::<u64>()
    }
    pub fn trace_hash(&self) -> u64 {
        self.trace.value()
    }
    /// AAL5 frames still in flight (some cells neither dropped nor received).
    pub fn frames_in_flight(&self) -> usize {
        self.frames.live()
    }
    /// Packet mode: packets moved across one link, summed over links, since the start.
    pub fn packet_hops(&self) -> u64 {
        self.packet_hops
    }

    /// Packets in packet-mode buffers and on links.
    pub fn packets_in_flight(&self) -> u64 {
        self.ports.iter().map(|p| p.packet_pipe.len() as u64 + p.packets.as_ref().map_or(0, |q| q.len() as u64)).sum()
    }

    /// Per VC: its cells in buffers and on links now (an analytic port's waiting cells are
    /// already in its pipe).
    pub fn vc_cells_in_flight(&self) -> Vec<u64> {
        let mut cells = vec![0u64; self.vcs.len()];
        for port in &self.ports {
            for (_, cell) in &port.pipe {
                cells[cell.vc.index()] += 1;
            }
            // Handed-over cells that have not started are not sent yet. At an observation (the
            // window's opening, the end) they are all still in the pipe, since carrying stops
            // there; between observations a carried adapter's may have crossed already, and the
            // count is only a lower bound.
            if port.handed.pending() > 0 {
                let vc = &mut cells[port.handed.vc.index()];
                *vc = vc.saturating_sub(u64::from(port.handed.pending()));
            }
            if !port.analytic {
                for cell in port.queue.queued_cells() {
                    cells[cell.vc.index()] += 1;
                }
            }
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
        self.release_all(SimTime::from_picos(now.as_picos().saturating_sub(1)));
        for port in &mut self.ports {
            port.queue.open_window(now);
            if let Some(q) = &mut port.packets {
                q.open_window(now);
            }
        }
        let in_flight = self.vc_cells_in_flight();
        for (vc, cells) in self.vcs.iter_mut().zip(in_flight) {
            vc.stats = VcStats { cells_in_flight_at_start: cells, ..VcStats::default() };
        }
        self.release_all(now);
        for flow in &mut self.flows {
            flow.stats = FlowStats::default();
        }
        for conn in &mut self.conns {
            conn.stats_at_window = tcp::lifetime_stats(conn);
        }
        self.window_open = true;
        self.refresh_carry_bound();
    }

    /// Sends `packet` on its next hop, or hands it to its destination when the route ends.
    fn forward(&mut self, packet: Packet) {
        match self.routes[packet.route.index()].hops.get(usize::from(packet.hop)) {
            Some(&Hop::Port(p)) => self.packet_arrive(p, packet),
            Some(&Hop::Vc(vc)) => self.segment(vc, packet),
            None => self.packet_receive(packet),
        }
    }

    /// When a cell arriving at `now` may start on an adapter whose rules time its cells (an
    /// analytic port: the transmitter is free at `free_at` once the cells before it have left).
    #[cold]
    fn adapter_start(port: &mut Port, cell: &Cell, now: SimTime) -> SimTime {
        let rules = port.rules.as_mut().expect("an adapter with rules");
        let not_before = rules.not_before(now);
        rules.start(port.clock.free_at(), not_before, Self::first_of_pdu(cell))
    }

    /// A PDU's first cell: the one the gap between PDUs applies to.
    #[inline]
    fn first_of_pdu(cell: &Cell) -> bool {
        cell.index == 0 && cell.kind == CellKind::Aal5
    }

    /// A cell arrives at output port `p`, where its VC has `slot`.
    fn arrive(&mut self, p: PortId, slot: u32, cell: Cell) {
        let now = self.now;
        if self.ports[p.index()].analytic {
            self.release_started(p, now);
            let port = &mut self.ports[p.index()];
            let start =
                if port.adapter_rules { Self::adapter_start(port, &cell, now) } else { port.clock.free_at().max(now) };
            if port.starts.is_empty() && start == now {
                match port.queue.pass_through_at(&cell, slot, now) {
                    Ok(()) => self.start_cell(p, cell, now),
                    Err(_) => self.cell_lost(cell),
                }
                return;
            }
            if port.queue.admit_virtual(&cell, slot, now).is_err() {
                self.cell_lost(cell);
                return;
            }
            port.starts.push_back(start);
            self.start_cell(p, cell, start);
            return;
        }
        if self.ports[p.index()].fifo_events {
            self.arrive_fifo(p, slot, cell);
            return;
        }
        // Two transmitters at the same rate round their slot grids independently, so a cell
        // can arrive up to a picosecond before the next slot of an idle port; it then starts
        // on that slot without an event (exact to the picosecond, and no queueing decision
        // can intervene: the port holds nothing else).
        let port = &mut self.ports[p.index()];
        let transmitter_free = now + ROUNDING_SLACK >= port.clock.free_at();
        if !port.free_pending && transmitter_free && port.work_conserving {
            debug_assert!(port.queue.is_empty(), "no free event pending, yet cells queued");
            let at = now.max(port.clock.free_at());
            match port.queue.pass_through_at(&cell, slot, now) {
                Ok(()) => self.start_cell(p, cell, at),
                Err(_) => self.cell_lost(cell),
            }
            return;
        }
        if port.queue.offer(cell, slot, now).is_err() {
            self.cell_lost(cell);
            return;
        }
        if !port.free_pending {
            port.free_pending = true;
            self.queue.schedule(port.clock.free_at(), Event::PortFree(p));
        }
    }

    /// `cells` cells arrive together at output port `p`, where their VC has `slot` (a frame's
    /// cells from segmentation): the k-th is `cell_at(k)`. The same as
    /// `cells` calls of [`arrive`](Self::arrive); on an adapter that only paces (a single FIFO
    /// with a tail-drop buffer that holds them all, not shaping, captured or carried ahead)
    /// the admission is done once and the cells go straight onto the wire at their start times.
    fn arrive_run(&mut self, p: PortId, slot: u32, cells: u32, any_clp1: bool, cell_at: impl Fn(u32) -> Cell) {
        let mut k = 0;
        if self.ports[p.index()].paces_only {
            // A cell that starts at once passes through (or is refused): the per-cell path.
            let now = self.now;
            while k < cells {
                self.release_started(p, now);
                let port = &mut self.ports[p.index()];
                if !port.starts.is_empty() || port.clock.free_at() > now {
                    break;
                }
                self.arrive(p, slot, cell_at(k));
                k += 1;
            }
            let port = &mut self.ports[p.index()];
            if k < cells && port.queue.admit_virtual_run(slot, cells - k, any_clp1, now) {
                // Every cell waits for the one before it: each starts when the transmitter is free.
                self.run_admitted_cells += u64::from(cells - k);
                self.put_run_on_wire(p, k..cells, true, cell_at);
                return;
            }
        }
        for j in k..cells {
            self.arrive(p, slot, cell_at(j));
        }
    }

    /// The transmitter of `p` is free: start the next queued cell, if any.
    fn transmit(&mut self, p: PortId) {
        let Some(cell) = self.ports[p.index()].queue.take_next(self.now) else {
            self.wait_for_scheduler(p);
            return;
        };
        let at = self.now.max(self.ports[p.index()].clock.free_at());
        self.start_cell(p, cell, at);
        let port = &mut self.ports[p.index()];
        if !port.queue.is_empty() {
            port.free_pending = true;
            self.queue.schedule(port.clock.free_at(), Event::PortFree(p));
        }
    }

    /// The scheduler of `p` sent nothing: its queues are empty, or no cell is eligible yet (a
    /// scheduler that is not work-conserving), and the port tries again when one is.
    #[cold]
    fn wait_for_scheduler(&mut self, p: PortId) {
        use celltrain_atm::port::sched::Next;
        let port = &mut self.ports[p.index()];
        match port.queue.dequeue(self.now) {
            Next::Empty => {}
            Next::NotBefore(t) => {
                port.free_pending = true;
                self.queue.schedule(t, Event::PortFree(p));
            }
            Next::Cell(_) => unreachable!("the scheduler sends what it refused a moment ago"),
        }
    }

    /// Puts `cell` on the wire of `p` at `at` (now, the slot that starts within the rounding
    /// slack, or an analytic port's computed start) and into the pipe towards the far end.
    /// (`put_run_on_wire` does this for runs of cells on the adapters that only pace: a duty
    /// added here must be added there, or excluded by its callers' conditions.)
    #[inline]
    fn start_cell(&mut self, p: PortId, cell: Cell, at: SimTime) {
        let port = &mut self.ports[p.index()];
        if cell.end_of_frame && cell.kind == CellKind::Aal5 {
            if let Some(i) = port.capture {
                let (packet, from) = (self.frames.get(cell.frame).payload, port.from);
                self.capture_into(i as usize, &packet, from);
            }
        }
        let port = &mut self.ports[p.index()];
        self.cell_hops += 1;
        let end = port.clock.start(at);
        if port.adapter_rules {
            port.rules.as_mut().expect("an adapter with rules").on_started(end, cell.end_of_frame);
        }
        let arrival = end + port.delay;
        if self.may_carry(p, arrival) {
            self.carry(p, cell, arrival);
            return;
        }
        let port = &mut self.ports[p.index()];
        if port.pipe.is_empty() {
            self.queue.schedule(arrival, Event::PipeHead(p));
        }
        port.pipe.push_back((arrival, cell));
    }

    fn pipe_head(&mut self, p: PortId) {
        let port = &mut self.ports[p.index()];
        // A carried pipe may have been emptied ahead of its event (see `carry`).
        if port.pipe.front().is_none_or(|&(arrival, _)| arrival > self.now) {
            return;
        }
        let (_, cell) = port.pipe.pop_front().expect("pipe head checked");
        if let Some(&(next, _)) = port.pipe.front() {
            self.queue.schedule(next, Event::PipeHead(p));
        }
        self.cross(cell);
    }

    /// A cell reaches the far end of a link: the next port of its VC, or its destination.
    fn cross(&mut self, mut cell: Cell) {
        cell.hop += 1;
        if cell.hop == 1 {
            let vc = &mut self.vcs[cell.vc.index()];
            if let Some(policer) = &mut vc.policer {
                use celltrain_atm::contract::UpcAction;
                match policer.police(self.now, &mut cell) {
                    UpcAction::Pass => {}
                    UpcAction::Tag => vc.stats.cells_tagged += 1,
                    UpcAction::Discard => {
                        vc.stats.cells_policed += 1;
                        self.cell_lost(cell);
                        return;
                    }
                }
            }
        }
        let vc = &self.vcs[cell.vc.index()];
        match vc.route.get(usize::from(cell.hop)) {
            Some(&(next, slot)) => self.arrive(next, slot, cell),
            None => self.receive(cell),
        }
    }

    /// A cell reaches its VC's destination adapter.
    fn receive(&mut self, cell: Cell) {
        let vc = &mut self.vcs[cell.vc.index()];
        vc.stats.cells_delivered += 1;
        // Only AAL5 cells are reassembled (an RM cell's turnaround belongs to ABR's end system).
        if cell.kind != CellKind::Aal5 {
            return;
        }
        let record = self.frames.get(cell.frame);
        let frame = FrameInfo { cells: record.cells, serial: record.serial };
        let outcome = match vc.reassembly_timeout {
            None => vc.reassembler.on_cell(&cell, frame),
            Some(timeout) => match vc.reassembler.on_cell_timed(&cell, frame, self.now, timeout) {
                Reassembly::TimedOut { then, .. } => {
                    vc.stats.reassembly_timeouts += 1;
                    match then {
                        ReassemblyAfterTimeout::Pending => Reassembly::Pending,
                        ReassemblyAfterTimeout::Delivered(f) => Reassembly::Delivered(f),
                        ReassemblyAfterTimeout::Corrupted => Reassembly::Corrupted { cells: 0, frames: 0 },
                    }
                }
                other => other,
            },
        };
        match outcome {
            Reassembly::Pending | Reassembly::TimedOut { .. } => {}
            Reassembly::Delivered(frame) => {
                self.trace.fold(self.now, TRACE_DELIVERY, cell.vc.0);
                vc.stats.frames_delivered += 1;
                let rec = self.frames.get_mut(frame);
                rec.delivered = true;
                let mut packet = rec.payload;
                self.account_cell(cell);
                // The VC's far end reached: the packet goes on along its route.
                packet.hop += 1;
                self.forward(packet);
                return;
            }
            Reassembly::Corrupted { .. } => vc.stats.corrupted_pdus += 1,
        }
        self.account_cell(cell);
    }

    fn cell_lost(&mut self, cell: Cell) {
        // Drops and frame outcomes are folded too: two policies can produce the same event
        // timing while losing different cells.
        self.trace.fold(self.now, TRACE_DROP, cell.vc.0);
        self.vcs[cell.vc.index()].stats.cells_dropped += 1;
        if cell.kind == CellKind::Aal5 {
            self.account_cell(cell);
        }
    }

    /// One more cell of an AAL5 frame is dropped or received; settle the frame's fate when
    /// it was the last.
    fn account_cell(&mut self, cell: Cell) {
        if let Some((FrameFate::Lost, packet)) = self.frames.account_cell(cell.frame) {
            self.vcs[cell.vc.index()].stats.frames_lost += 1;
            self.flows[packet.flow.index()].stats.packets_lost += 1;
        }
    }

    fn source_tick(&mut self, s: SourceId) {
        let now = self.now;
        let next = match &mut self.sources[s.index()] {
            Source::Udp(src) => {
                let (flow, seq, app_bytes) = (src.flow, src.sent, src.app_bytes);
                src.sent += 1;
                let next = src.next_time();
                let f = &mut self.flows[flow.index()];
                f.stats.packets_sent += 1;
                let packet = Packet {
                    flow,
                    payload: Payload::Udp { seq },
                    app_bytes,
                    ip_bytes: app_bytes + f.header_bytes,
                    sent_at: now,
                    route: f.route,
                    hop: 0,
                };
                let route = f.route;
                self.send(route, packet);
                next
            }
            Source::OnOff(src) => {
                let flow = src.flow;
                let Hop::Vc(vc) = self.routes[self.flows[flow.index()].route.index()].hops[0] else {
                    unreachable!("an on/off route is one VC (checked at build)")
                };
                let (first, slot) = self.vcs[vc.index()].route[0];
                Self::release_in(&mut self.ports, &mut self.vcs, first, now);
                let port = &self.ports[first.index()];
                // An idle adapter paced at exactly the source's peak rate starts each cell of a
                // burst as the source emits it: it may take the whole burst now.
                let whole_burst = src.at_burst_start()
                    && port.burst_handoff
                    && port.starts.is_empty()
                    && port.handed.pending() == 0
                    && port.clock.is_idle_at(now)
                    && port.clock.service_rate() == src.pcr;
                if whole_burst {
                    let (cells, next) = src.burst(now);
                    let cells = u32::try_from(cells).expect("a burst has fewer than 2^32 cells");
                    self.hand_over_burst(first, vc, cells);
                    next
                } else {
                    let next = src.step(now);
                    self.vcs[vc.index()].stats.cells_sent += 1;
                    self.arrive(first, slot, Cell::raw(vc));
                    next
                }
            }
        };
        if next <= self.end {
            self.queue.schedule(next, Event::Source(s));
        }
    }

    /// An on/off burst of `cells` cells of `vc`, handed whole to its adapter `p` as it starts
    /// (now): the adapter is idle and serves cells at the source's peak rate, so each cell
    /// starts as the source emits it and never queues. Each cell is put on the wire at its
    /// start time now, with no event per cell; it enters the adapter — port `cells_in` and
    /// `cells_out`, VC `cells_sent` — only when it starts (`release_started`), as the cell the
    /// source emits then would, so every counter reads as with one source event per cell.
    fn hand_over_burst(&mut self, p: PortId, vc: VcId, cells: u32) {
        let now = self.now;
        let cell = Cell::raw(vc);
        let port = &mut self.ports[p.index()];
        debug_assert!(port.starts.is_empty() && port.handed.pending() == 0, "a burst handed to a busy adapter");
        port.handed = HandedBurst { vc, start: now, rate: port.clock.service_rate(), cells, started: 0 };
        if port.carry {
            for _ in 0..cells {
                let start = self.ports[p.index()].clock.free_at().max(now);
                self.start_cell(p, cell, start);
            }
            return;
        }
        self.put_run_on_wire(p, 0..cells, false, |_| cell);
    }

    /// Puts cells `cell_at(j)`, j in `run`, on the wire of adapter `p` back to back, each when
    /// the transmitter is free (from now), into the pipe: what `start_cell` does for each, less
    /// what such an adapter cannot have (a capture, shaping rules, carrying ahead). `queued`:
    /// they wait in the buffer until they start (admitted there), so their start times are kept.
    fn put_run_on_wire(&mut self, p: PortId, run: std::ops::Range<u32>, queued: bool, cell_at: impl Fn(u32) -> Cell) {
        let now = self.now;
        let port = &mut self.ports[p.index()];
        debug_assert!(port.capture.is_none() && !port.adapter_rules && !port.carry);
        let was_empty = port.pipe.is_empty();
        self.cell_hops += u64::from(run.end - run.start);
        for j in run {
            let start = port.clock.free_at().max(now);
            if queued {
                port.starts.push_back(start);
            }
            let end = port.clock.start(start);
            port.pipe.push_back((end + port.delay, cell_at(j)));
        }
        if was_empty {
            if let Some(&(head, _)) = port.pipe.front() {
                self.queue.schedule(head, Event::PipeHead(p));
            }
        }
    }

    /// Port `p` releases the cells that have started by `now`; those of a burst handed over
    /// to it are sent then.
    #[inline]
    pub(super) fn release_started(&mut self, p: PortId, now: SimTime) {
        Self::release_in(&mut self.ports, &mut self.vcs, p, now);
    }

    /// [`release_started`](Self::release_started) on the network's ports and VCs, for a caller
    /// that holds another part of the network (a source).
    #[inline(always)]
    fn release_in(ports: &mut [Port], vcs: &mut [Vc], p: PortId, now: SimTime) {
        let port = &mut ports[p.index()];
        let passed = port.release_started(now);
        if passed > 0 {
            vcs[port.handed.vc.index()].stats.cells_sent += u64::from(passed);
        }
    }

    /// Every port releases the cells that have started by `now`.
    fn release_all(&mut self, now: SimTime) {
        for i in 0..self.ports.len() {
            self.release_started(PortId::from_index(i), now);
        }
    }

    /// Preventive tagging: would a PDU of `cells` cells, leaving adapter `p` now, conform
    /// whole to the VC's contract (see [`AdapterRules::tags_pdu`])? True: tag it.
    fn preventive_tag(&mut self, p: PortId, cells: u32) -> bool {
        let now = self.now;
        let port = &self.ports[p.index()];
        if port.rules.as_ref().is_none_or(|r| r.tagger.is_none()) {
            return false;
        }
        let clock = if port.fifo_events { Self::clock_after_queue(port) } else { port.clock.clone() };
        self.ports[p.index()].rules.as_mut().expect("checked").tags_pdu(clock, now, cells)
    }

    /// A host sends `packet` along `route`.
    fn send(&mut self, route: RouteId, mut packet: Packet) {
        packet.route = route;
        packet.hop = 0;
        self.capture(self.routes[route.index()].src, &packet);
        self.forward(packet);
    }

    /// Segments a datagram into AAL5 cells and hands them to the first port of `vc_id`.
    fn segment(&mut self, vc_id: VcId, packet: Packet) {
        let cells = aal5::cells_for_ip_datagram(packet.ip_bytes);
        let cells32 = u32::try_from(cells).expect("frame size checked at build");
        let frame = self.frames.insert(packet, cells32);
        let vc = &mut self.vcs[vc_id.index()];
        vc.stats.frames_sent += 1;
        vc.stats.cells_sent += cells;
        let (first, slot) = vc.route[0];
        let tag = self.preventive_tag(first, cells32);
        if tag {
            self.vcs[vc_id.index()].stats.frames_tagged += 1;
        }
        let any_clp1 = tag && cells32 > 1;
        self.arrive_run(first, slot, cells32, any_clp1, |index| Cell {
            vc: vc_id,
            frame,
            index: u16::try_from(index).expect("frame size checked at build"),
            hop: 0,
            end_of_frame: index + 1 == cells32,
            // Preventive tagging keeps the last cell CLP = 0, so the frame stays delimited.
            clp: tag && index + 1 < cells32,
            efci: false,
            kind: CellKind::Aal5,
        });
    }
}
