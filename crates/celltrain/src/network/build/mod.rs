//! Building a network: nodes, duplex links, VCs along explicit paths, flows and sources are
//! collected by [`NetworkBuilder`]; `build()` validates them and wires a runnable [`Network`]
//! in passes, one file each, each the only place its rules are checked: `topology` (ports of
//! links), `routing` (routes into hops and VCs), `ports` (output ports, adapters and their
//! rules), `transport` (MTU, TCP connections), `sources`, `record` (bottleneck, captures,
//! series); the plan of fast paths comes last (`network::plan`). It never panics: a
//! [`BuildError`] names what is wrong.

use super::{
    Adaptation, App, Event, Flow, FlowKind, FlowStats, HostCpu, Network, Node, NodeKind, Port, Source, TcpConn, Vc,
    VcStats,
};
use super::{Hop, Route};
use error::err;
pub use error::{BuildError, Field, Subject};
use topology::Topology;

mod abr;
mod apps;
mod error;
mod gfr;
mod limits;
mod ports;
mod record;
mod routing;
mod sources;
mod topology;
mod transport;
use super::packet_port::PacketLimits;
use super::{Mode, PacketQueue, RecordSpec, Recorder};
use crate::packet::{IPV4_HEADER_BYTES, UDP_HEADER_BYTES};
use crate::source::{OnOffSource, UdpSource};
use celltrain_atm::aal5::{self, Reassembler};
use celltrain_atm::contract::{ConformanceDef, Shaper, ShaperConfig, TrafficDescriptor, Upc};
use celltrain_atm::frame::FrameArena;
use celltrain_atm::ingress::Policer;
use celltrain_atm::port::{buffer_stream, OutputPort, PortConfig, TxClock};
use celltrain_atm::ServiceCategory;
use celltrain_core::ids::{ConnId, FlowId, NodeId, PortId, RouteId, SourceId, VcId};
use celltrain_core::rng::RngStream;
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::units::BitRate;
use celltrain_core::units::CELL_BITS;
use celltrain_core::EventQueue;
use celltrain_tcp::{SeqNum, TcpConfig, TcpEndpoint, TimerGranularity};
use std::collections::VecDeque;
use std::collections::{BTreeMap, BTreeSet};

struct NodeSpec {
    name: String,
    kind: NodeKind,
    /// Configuration of every output port of this node.
    port: PortConfig,
    /// Per-packet processing times (hosts).
    send_time: SimDuration,
    recv_time: SimDuration,
    /// Per-packet processing jitter, a fraction of the mean (0: none).
    processing_jitter: f64,
    /// AAL5 reassembly timer of the node's adapter.
    reassembly_timeout: Option<SimDuration>,
    /// Cell rate the node's adapter sends at, when set (else the VCs' PCR).
    adapter_rate: Option<BitRate>,
    /// The adapter shapes its VC's cells with a dual leaky bucket to the VC's contract.
    shaping: bool,
    /// The adapter tags PDUs that would not conform (BKD97's preventive tagging).
    tagging: bool,
    /// PDU-level rate control in the adapter: the least idle time between two PDUs (eq. 3).
    pdu_gap: Option<SimDuration>,
    /// Adapter service jitter: each PDU gap drawn within ±this fraction of `pdu_gap` (0: none).
    pdu_gap_jitter: f64,
    /// Packet mode: buffer limits in bytes and packets (default: the cell buffer's payload,
    /// buffer_cells × 48 bytes — AD97's "effective" buffer size).
    packet_limit: Option<PacketLimits>,
}

/// A TCP connection to set up: a bulk sender at the path's first host, a sink at its last.
#[derive(Clone, Debug)]
pub struct TcpSpec {
    pub config: TcpConfig,
    /// Bytes the application writes before closing; `None` = without end.
    pub bytes: Option<u64>,
    /// The application writes in blocking writes of this size (ttcp's buffer length).
    pub write_size: Option<u64>,
    /// Back-to-back transfers of this size, one connection each (then `bytes` is ignored).
    pub file_bytes: Option<u64>,
    /// When the sender connects.
    pub start: SimTime,
}

struct LinkSpec {
    a: NodeId,
    b: NodeId,
    rate: BitRate,
    delay: SimDuration,
    medium: Medium,
}

/// What a link carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Medium {
    /// ATM cells (in packet mode, every link carries packets).
    Atm,
    /// Whole packets, with no framing of their own (any link of a packet network).
    Packet,
    /// Whole packets in Ethernet frames: 38 octets of framing on the wire per packet (preamble
    /// and start delimiter 8, header 14, FCS 4, inter-frame gap 12), payloads padded to 46
    /// octets, IP packets of at most 1500 octets.
    Ethernet,
}

impl Medium {
    /// Carries whole packets rather than cells.
    pub const fn is_packet(self) -> bool {
        !matches!(self, Medium::Atm)
    }
}

/// Ethernet framing per packet on the wire, octets.
pub const ETHERNET_OVERHEAD_BYTES: u64 = 38;
/// Ethernet's smallest payload, octets (shorter IP packets are padded).
pub const ETHERNET_MIN_PAYLOAD_BYTES: u64 = 46;
/// Ethernet's MTU, octets.
pub const ETHERNET_MTU_BYTES: u64 = 1500;

/// A virtual circuit to set up.
#[derive(Clone, Debug)]
pub struct VcSpec {
    pub name: String,
    /// Nodes crossed, source host first, destination host last.
    pub path: Vec<NodeId>,
    pub category: ServiceCategory,
    /// Peak cell rate; `None` = the rate of the first link.
    pub pcr: Option<BitRate>,
    /// Traffic contract policed by a UPC at the ingress of the VC's first switch.
    pub contract: Option<TrafficDescriptor>,
    /// A VC name shared with other flows on the same path (BKD97 V7: several connections
    /// in one VC); None: the flow's own VC between hosts, "a->c" from or to a router.
    pub vc_name: Option<String>,
}

enum SourceSpec {
    Udp {
        flow: FlowId,
        app_bytes: u64,
        rate: Option<BitRate>,
        start: SimTime,
    },
    OnOff {
        flow: FlowId,
        pcr: Option<BitRate>,
        mean_on: SimDuration,
        mean_off: SimDuration,
        start: SimTime,
    },
    Poisson {
        flow: FlowId,
        app_bytes: u64,
        rate: BitRate,
        start: SimTime,
    },
    OnOffPacket {
        flow: FlowId,
        app_bytes: u64,
        peak: Option<BitRate>,
        on_off: (SimDuration, SimDuration),
        start: SimTime,
    },
}

/// Collects the parts of a network, then validates and wires them in [`NetworkBuilder::build`].
pub struct NetworkBuilder {
    seed: u64,
    duration: SimDuration,
    warmup: SimDuration,
    nodes: Vec<NodeSpec>,
    links: Vec<LinkSpec>,
    /// Flow paths, split into hops at build.
    routes: Vec<(VcSpec, Adaptation)>,
    flows: Vec<(String, FlowKind, RouteId, u64, u64)>,
    /// TCP flows: (flow, reverse route, spec).
    tcps: Vec<(FlowId, RouteId, TcpSpec)>,
    sources: Vec<(String, SourceSpec)>,
    bottleneck: Option<(NodeId, NodeId)>,
    mode: Mode,
    burst_gap: SimDuration,
    /// What to record: hosts to capture, series to sample (flows and ports by name).
    record: RecordRequest,
    /// Lookups that keep building linear in the size of the network.
    node_by_name: BTreeMap<String, NodeId>,
    /// Index in `links` of the link joining two nodes, under both orders.
    link_of: BTreeMap<(NodeId, NodeId), usize>,
    route_names: BTreeSet<String>,
    flow_names: BTreeSet<String>,
    abr: abr::AbrSettings,
    gfr: gfr::GfrParts,
    /// When each stopping flow's application stops, by flow name.
    stops: BTreeMap<String, SimTime>,
    /// Nodes whose packet ports serve by strict priority of service category.
    priority_nodes: BTreeSet<NodeId>,
    /// Token-bucket policing and shaping, by the direction (from, to) of a packet link.
    conditioning: BTreeMap<(NodeId, NodeId), crate::network::packet_conditioning::Conditioning>,
}

/// Recording asked for by name, resolved at build.
#[derive(Clone, Debug, Default)]
pub struct RecordRequest {
    pub pcap_hosts: Vec<NodeId>,
    /// Links (from, to) captured.
    pub pcap_links: Vec<(NodeId, NodeId)>,
    pub interval: Option<SimDuration>,
    /// Flow names whose TCP sender is sampled (empty: every TCP flow).
    pub flows: Vec<String>,
    /// Ports (from, to) whose queue is sampled (empty: the bottleneck).
    pub ports: Vec<(NodeId, NodeId)>,
    /// Sample each recorded flow's delivered bytes too.
    pub delivered: bool,
    /// Sample the recorded ports' queues per class or per pool too.
    pub queues: super::QueueDetail,
    /// Record every change of the TCP senders' windows and RTO and of the ports' queues.
    pub on_change: bool,
}

/// Default adapter buffer of a host, in cells: large enough that a host never drops.
pub const DEFAULT_NIC_BUFFER_CELLS: u32 = 1 << 20;

impl NetworkBuilder {
    pub fn new(seed: u64, duration: SimDuration, warmup: SimDuration) -> Self {
        NetworkBuilder {
            seed,
            duration,
            warmup,
            nodes: Vec::new(),
            links: Vec::new(),
            routes: Vec::new(),
            flows: Vec::new(),
            tcps: Vec::new(),
            sources: Vec::new(),
            bottleneck: None,
            mode: Mode::Cell,
            burst_gap: SimDuration::from_millis(10),
            record: RecordRequest::default(),
            node_by_name: BTreeMap::new(),
            link_of: BTreeMap::new(),
            route_names: BTreeSet::new(),
            flow_names: BTreeSet::new(),
            abr: abr::AbrSettings::default(),
            gfr: gfr::GfrParts::default(),
            stops: BTreeMap::new(),
            priority_nodes: BTreeSet::new(),
            conditioning: BTreeMap::new(),
        }
    }

    /// The parameters of every ABR end system (each VC's PCR replaces `params.pcr`; ICR and
    /// MCR are capped at it). Without them an ABR VC is refused.
    pub fn set_abr_params(&mut self, params: celltrain_atm::abr::AbrParams) {
        self.abr.params = Some(params);
    }

    /// Whether destinations send their turned-around RM cells back at once, outside their
    /// in-rate opportunities (`[abr] backward_rm = "ideal"`), rather than as TM 4.0's in-rate
    /// cells.
    pub fn set_abr_ideal_backward(&mut self, ideal: bool) {
        self.abr.ideal_backward = ideal;
    }

    /// Switch `switch` runs `algorithm` on every output port ABR VCs leave it by, with an
    /// averaging interval of `interval`.
    pub fn set_explicit_rate(
        &mut self,
        switch: NodeId,
        algorithm: celltrain_atm::abr::ExplicitRate,
        interval: SimDuration,
    ) -> Result<(), BuildError> {
        if self.nodes[switch.index()].kind != NodeKind::Switch {
            return err(Field::Abr, format!("'{}' is not a switch", self.nodes[switch.index()].name));
        }
        if interval.is_zero() {
            return err(Field::Abr, "averaging interval must be positive");
        }
        self.abr.switches.insert(switch, (algorithm, interval));
        Ok(())
    }

    pub fn node_id(&self, name: &str) -> Option<NodeId> {
        self.node_by_name.get(name).copied()
    }

    /// True when `node` is a host (not a switch or a router).
    pub fn is_host(&self, node: NodeId) -> bool {
        self.nodes[node.index()].kind == NodeKind::Host
    }

    fn add_node(&mut self, name: &str, kind: NodeKind, port: PortConfig) -> Result<NodeId, BuildError> {
        if self.node_id(name).is_some() {
            return err(Field::Name, format!("duplicate node name '{name}'"));
        }
        if port.buffer_cells == 0 {
            return err(Field::Buffer, format!("node '{name}': buffer must be at least 1 cell"));
        }
        self.node_by_name.insert(name.to_string(), NodeId::from_index(self.nodes.len()));
        self.nodes.push(NodeSpec {
            name: name.to_string(),
            kind,
            port,
            send_time: SimDuration::ZERO,
            recv_time: SimDuration::ZERO,
            processing_jitter: 0.0,
            packet_limit: None,
            reassembly_timeout: None,
            adapter_rate: None,
            shaping: false,
            tagging: false,
            pdu_gap: None,
            pdu_gap_jitter: 0.0,
        });
        Ok(NodeId::from_index(self.nodes.len() - 1))
    }

    /// A host whose adapter holds `nic_buffer_cells` cells (FIFO, tail drop).
    pub fn add_host(&mut self, name: &str, nic_buffer_cells: u32) -> Result<NodeId, BuildError> {
        self.add_node(name, NodeKind::Host, PortConfig::fifo(nic_buffer_cells))
    }

    /// A TCP sender's silence longer than `gap` ends a burst (BKD97's bursts and idle times).
    pub fn set_burst_gap(&mut self, gap: SimDuration) {
        self.burst_gap = gap;
    }

    /// What the run records (captures, time series).
    pub fn set_record(&mut self, record: RecordRequest) {
        self.record = record;
    }

    /// Carries whole packets through FIFO drop-tail routers instead of cells.
    pub fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
    }

    /// Packet mode: a node's buffer limit in bytes and, optionally, in packets.
    pub fn set_packet_limit(&mut self, node: NodeId, limits: PacketLimits) {
        self.nodes[node.index()].packet_limit = Some(limits);
    }

    /// The packets the link from `from` to `to` carries are shaped at its output port and/or
    /// policed where they reach `to` (packet links only: in packet mode, or of a packet medium).
    pub fn set_conditioning(
        &mut self,
        from: NodeId,
        to: NodeId,
        conditioning: crate::network::packet_conditioning::Conditioning,
    ) -> Result<(), BuildError> {
        let Some(link) = self.link_between(from, to) else { return self.check_link(from, to) };
        if self.mode != Mode::Packet && !link.medium.is_packet() {
            return err(
                Field::Link,
                "policing and shaping need a packet link (simulation.mode = \"packet\", or medium = \"packet\" or \"ethernet\")",
            );
        }
        self.conditioning.insert((from, to), conditioning);
        Ok(())
    }

    /// Makes a host's adapter send cells at `rate` (e.g. the VC's SCR: shaping in the adapter).
    pub fn set_adapter_rate(&mut self, node: NodeId, rate: BitRate) {
        self.nodes[node.index()].adapter_rate = Some(rate);
    }

    /// Makes a host's adapter shape its VC's cells to the VC's traffic contract (dual leaky
    /// bucket: each cell leaves at its earliest conforming time).
    pub fn set_shaping(&mut self, node: NodeId) {
        self.nodes[node.index()].shaping = true;
    }

    /// Makes a host's adapter tag, whole PDU at a time, the cells that would not conform to its
    /// VC's contract (CLP = 1 on every cell but the last).
    pub fn set_tagging(&mut self, node: NodeId) {
        self.nodes[node.index()].tagging = true;
    }

    /// Makes a host's adapter keep at least `gap` of idle time between the last cell of a PDU
    /// and the first cell of the next (BKD97's PDU-level rate control, eq. 3).
    pub fn set_pdu_gap(&mut self, node: NodeId, gap: SimDuration) {
        self.nodes[node.index()].pdu_gap = Some(gap);
    }

    /// Draws each PDU gap of a host's adapter uniformly within ±`fraction` (0..=1) of the
    /// gap set by [`NetworkBuilder::set_pdu_gap`] (adapter service jitter; 0 = fixed gaps).
    pub fn set_pdu_gap_jitter(&mut self, node: NodeId, fraction: f64) {
        self.nodes[node.index()].pdu_gap_jitter = fraction.clamp(0.0, 1.0);
    }

    /// Gives a host's (or router's) adapter an AAL5 reassembly timer.
    pub fn set_reassembly_timeout(&mut self, node: NodeId, timeout: SimDuration) {
        self.nodes[node.index()].reassembly_timeout = Some(timeout);
    }

    /// Sets a host's per-packet send and receive processing times.
    pub fn set_processing(&mut self, host: NodeId, send: SimDuration, recv: SimDuration) {
        let n = &mut self.nodes[host.index()];
        n.send_time = send;
        n.recv_time = recv;
    }

    /// Draws every packet's processing time at `host` uniformly within ±`fraction` (0..=1)
    /// of its mean (host timing variability; 0 = fixed times).
    pub fn set_processing_jitter(&mut self, host: NodeId, fraction: f64) {
        self.nodes[host.index()].processing_jitter = fraction.clamp(0.0, 1.0);
    }

    /// A TCP connection along `spec_vc.path` (data) and back (acknowledgements, on a VC
    /// named "<name>-ack" with the same category and PCR).
    pub fn add_tcp(&mut self, name: &str, spec_vc: VcSpec, tcp: TcpSpec) -> Result<FlowId, BuildError> {
        tcp.config.validate().map_err(|e| BuildError::new(Field::Tcp, format!("tcp: {e}")))?;
        let mut back = spec_vc.clone();
        back.name = format!("{name}-ack");
        back.vc_name = spec_vc.vc_name.as_ref().map(|n| format!("{n}-ack"));
        back.path.reverse();
        self.copy_gfr_contract(name, &back.name);
        self.copy_abr_conformance(name, &back.name);
        let fwd = self.add_route(spec_vc, Adaptation::Aal5)?;
        let rev = self.add_route(back, Adaptation::Aal5)?;
        let options = if tcp.config.timestamps { 12 } else { 0 };
        let mss = u64::from(tcp.config.mss.offer()).saturating_sub(options);
        let flow = self.add_flow(name, FlowKind::Tcp, fwd, mss, 40 + options)?;
        self.tcps.push((flow, rev, tcp));
        Ok(flow)
    }

    /// An IP router: its packet interfaces hold `packet_limit`; its ATM
    /// interfaces are adapters of `nic_buffer_cells` cells (FIFO, tail drop) feeding one VC
    /// per far-end router (MSc98 §5.3, BN01's internetwork).
    pub fn add_router(
        &mut self,
        name: &str,
        nic_buffer_cells: u32,
        packet_limit: PacketLimits,
    ) -> Result<NodeId, BuildError> {
        let id = self.add_node(name, NodeKind::Router, PortConfig::fifo(nic_buffer_cells))?;
        self.nodes[id.index()].packet_limit = Some(packet_limit);
        Ok(id)
    }

    /// A switch whose every output port is configured as `port`.
    pub fn add_switch(&mut self, name: &str, port: PortConfig) -> Result<NodeId, BuildError> {
        self.add_node(name, NodeKind::Switch, port)
    }

    /// A duplex ATM link: one output port at each end, same rate and delay both ways.
    pub fn add_link(&mut self, a: NodeId, b: NodeId, rate: BitRate, delay: SimDuration) -> Result<(), BuildError> {
        self.add_link_on(a, b, rate, delay, Medium::Atm)
    }

    /// A duplex link carrying `medium`.
    pub fn add_link_on(
        &mut self,
        a: NodeId,
        b: NodeId,
        rate: BitRate,
        delay: SimDuration,
        medium: Medium,
    ) -> Result<(), BuildError> {
        let switch = |n: NodeId| self.nodes[n.index()].kind == NodeKind::Switch;
        if medium.is_packet() && (switch(a) || switch(b)) {
            return err(Field::Link, "a packet link cannot end at an ATM switch (use a router)");
        }
        if a == b {
            return err(Field::Link, format!("link from '{}' to itself", self.nodes[a.index()].name));
        }
        if rate.as_bps() == 0 {
            return err(Field::Link, "link rate must be positive");
        }
        if self.link_of.contains_key(&(a, b)) {
            return err(
                Field::Link,
                format!("duplicate link between '{}' and '{}'", self.nodes[a.index()].name, self.nodes[b.index()].name),
            );
        }
        self.link_of.insert((a, b), self.links.len());
        self.link_of.insert((b, a), self.links.len());
        self.links.push(LinkSpec { a, b, rate, delay, medium });
        Ok(())
    }

    /// Whether a link joins `a` and `b` (an error naming them if not).
    pub fn check_link(&self, a: NodeId, b: NodeId) -> Result<(), BuildError> {
        match self.link_between(a, b) {
            Some(_) => Ok(()),
            None => err(
                Field::Link,
                format!("no link between '{}' and '{}'", self.nodes[a.index()].name, self.nodes[b.index()].name),
            ),
        }
    }

    fn link_between(&self, a: NodeId, b: NodeId) -> Option<&LinkSpec> {
        self.link_of.get(&(a, b)).map(|&i| &self.links[i])
    }

    /// Sets up the way along `spec.path`: every consecutive pair must be linked, the ends
    /// must be hosts and the nodes between them switches or routers. At build the path is
    /// split into hops: each packet link is one hop; each run of ATM links through switches
    /// is one VC — the flow's own VC (named after it) between two hosts, or a VC shared by
    /// every flow between the same two routers (or host and router), named "a->c".
    pub fn add_route(&mut self, spec: VcSpec, adaptation: Adaptation) -> Result<RouteId, BuildError> {
        if self.route_names.contains(&spec.name) {
            return err(Field::Name, format!("duplicate VC name '{}'", spec.name));
        }
        if spec.path.len() < 2 {
            return err(Field::Path, "a path needs at least a source and a destination");
        }
        let name = |n: NodeId| self.nodes[n.index()].name.clone();
        let last = spec.path.len() - 1;
        for (i, &n) in spec.path.iter().enumerate() {
            let kind = self.nodes[n.index()].kind;
            if (i == 0 || i == last) && kind != NodeKind::Host {
                return err(Field::Path, format!("path must start and end at a host; '{}' is not one", name(n)));
            }
            if i != 0 && i != last && kind == NodeKind::Host {
                return err(
                    Field::Path,
                    format!("path crosses host '{}'; only switches and routers may be in between", name(n)),
                );
            }
        }
        for w in spec.path.windows(2) {
            if self.link_between(w[0], w[1]).is_none() {
                return err(Field::Link, format!("no link between '{}' and '{}'", name(w[0]), name(w[1])));
            }
        }
        if spec.pcr.is_some_and(|p| p.as_bps() == 0) {
            return err(Field::Pcr, "pcr must be positive");
        }
        self.route_names.insert(spec.name.clone());
        self.routes.push((spec, adaptation));
        Ok(RouteId::from_index(self.routes.len() - 1))
    }

    fn add_flow(
        &mut self,
        name: &str,
        kind: FlowKind,
        route: RouteId,
        app_bytes: u64,
        header_bytes: u64,
    ) -> Result<FlowId, BuildError> {
        if !self.flow_names.insert(name.to_string()) {
            return err(Field::Name, format!("duplicate flow name '{name}'"));
        }
        self.flows.push((name.to_string(), kind, route, app_bytes, header_bytes));
        Ok(FlowId::from_index(self.flows.len() - 1))
    }

    /// A constant-rate UDP source on `route`; `rate` = None means the first hop's rate (the
    /// adapter's PCR: greedy).
    pub fn add_udp(
        &mut self,
        name: &str,
        route: RouteId,
        app_bytes: u64,
        rate: Option<BitRate>,
        start: SimTime,
    ) -> Result<FlowId, BuildError> {
        apps::check_datagram(app_bytes)?;
        if rate.is_some_and(|r| r.as_bps() == 0) {
            return err(Field::Rate, "rate must be positive");
        }
        let flow = self.add_flow(name, FlowKind::Udp, route, app_bytes, UDP_HEADER_BYTES + IPV4_HEADER_BYTES)?;
        self.sources.push((name.to_string(), SourceSpec::Udp { flow, app_bytes, rate, start }));
        Ok(flow)
    }

    /// An ATM-layer on/off source on `route` (one VC; raw cells at `pcr` while on; `None` =
    /// the VC's PCR).
    pub fn add_onoff(
        &mut self,
        name: &str,
        route: RouteId,
        pcr: Option<BitRate>,
        mean_on: SimDuration,
        mean_off: SimDuration,
        start: SimTime,
    ) -> Result<FlowId, BuildError> {
        if mean_on.is_zero() || mean_off.is_zero() {
            return err(Field::Period, "on and off periods must be positive");
        }
        let flow = self.add_flow(name, FlowKind::OnOff, route, 0, 0)?;
        self.sources.push((name.to_string(), SourceSpec::OnOff { flow, pcr, mean_on, mean_off, start }));
        Ok(flow)
    }

    /// Names the link whose capacity defines the theoretical maximum goodput.
    pub fn set_bottleneck(&mut self, from: NodeId, to: NodeId) -> Result<(), BuildError> {
        if self.link_between(from, to).is_none() {
            return err(Field::Bottleneck, "bottleneck: no such link");
        }
        self.bottleneck = Some((from, to));
        Ok(())
    }
    pub fn build(mut self) -> Result<Network, BuildError> {
        if self.duration.is_zero() {
            return err(Field::Duration, "duration must be positive");
        }
        if self.warmup >= self.duration {
            return err(Field::Duration, "warmup must be shorter than the duration");
        }
        let specs = std::mem::take(&mut self.sources);
        let nb = &self;
        let topo = Topology::new(nb);
        let mut routed = routing::route(nb, &topo)?;
        let abr_pairs = abr::pair(nb, &topo, &mut routed)?;
        let routing::Routed { vcs, routes, vcs_on_port, .. } = routed;
        if topo.ports.len() > super::MAX_COMPONENTS || specs.len() > super::MAX_COMPONENTS {
            return err(Field::Limit, format!("too many ports or sources (at most {})", super::MAX_COMPONENTS));
        }
        let mut ports = ports::ports(nb, &topo, &vcs, &vcs_on_port)?;
        let mut flows: Vec<Flow> = self
            .flows
            .iter()
            .map(|(name, kind, route, app_bytes, header_bytes)| Flow {
                name: name.clone(),
                kind: *kind,
                route: *route,
                app_bytes: *app_bytes,
                header_bytes: *header_bytes,
                stats: FlowStats::default(),
                conns: None,
                started_at: None,
            })
            .collect();
        transport::check_mtu(nb, &topo, &flows, &routes, &vcs)?;
        limits::tcp_segments_fit_aal5(nb, &flows, &routes)?;
        let mut queue = EventQueue::new();
        // First in its instant, so that the window opens before any source acts, and before a
        // host's processing that ends then (also first in its instant, with a greater code).
        let warmup = SimTime::ZERO + self.warmup;
        queue.schedule_first(warmup, Event::OpenWindow);
        let conns = transport::connections(nb, &mut flows, &routes, &mut queue)?;
        let sources = sources::sources(nb, specs, (&flows, &routes, &vcs), (&ports, &topo), &mut queue)?;
        let (bottleneck, recorder) = record::recorder(nb, &topo, (&flows, &routes, &vcs), &ports, &mut queue)?;
        record::trace_port_changes(&recorder, &mut ports);
        ports::mark_single_senders(&mut ports, &flows, &routes, &vcs);
        let seed = self.seed;
        let hosts = self
            .nodes
            .iter()
            .map(|n| HostCpu::new(n.send_time, n.recv_time).with_jitter(n.processing_jitter, seed, &n.name))
            .collect();
        let node_buffers: Vec<u32> = self.nodes.iter().map(|n| n.port.buffer_cells).collect();
        let abr_settings = std::mem::take(&mut self.abr);
        let mut network = Network {
            mode: self.mode,
            nodes: self.nodes.into_iter().map(|n| Node { name: n.name, kind: n.kind }).collect(),
            ports,
            vcs,
            routes,
            flows,
            sources,
            conns,
            hosts,
            frames: FrameArena::default(),
            queue,
            now: SimTime::ZERO,
            end: SimTime::ZERO + self.duration,
            tally: Default::default(),
            measure: super::tally::Measure { warmup, window_open: false, bottleneck, burst_gap: self.burst_gap },
            recorder,
            options: super::SimOptions::default(),
            carry_before: SimTime::ZERO,
            abr: Default::default(),
            fan_ins: Vec::new(),
            as_of: Default::default(),
            horizons: Default::default(),
            // (No event yet: no place a link's kept place could be compared with.)
            place: celltrain_core::Place::after(SimTime::ZERO),
        };
        network.abr = abr::end_systems(&abr_settings, &node_buffers, &abr_pairs, &mut network)?;
        for vc in &mut network.vcs {
            vc.stats.delays = crate::delay::CellDelays::above(vc.delay_floor(&network.ports));
        }
        network.plan();
        Ok(network)
    }
}

/// Every port a route crosses, in order.
pub fn route_ports(route: &Route, vcs: &[Vc]) -> Vec<PortId> {
    let mut out = Vec::new();
    for hop in &route.hops {
        match *hop {
            Hop::Port(p) => out.push(p),
            Hop::Vc(v) => out.extend(vcs[v.index()].route.iter().map(|&(p, _)| p)),
        }
    }
    out
}
