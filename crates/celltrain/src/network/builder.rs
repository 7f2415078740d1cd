//! Building a network: nodes, duplex links, VCs along explicit paths, flows and sources.
//! `build()` validates and returns a runnable [`Network`] or a [`BuildError`]; it never panics.

use super::{
    Adaptation, App, Event, Flow, FlowKind, FlowStats, HostCpu, Network, Node, NodeKind, Port, Source, TcpConn, Vc,
    VcStats,
};
use super::{Hop, Route};
use super::{Mode, PacketQueue, RecordSpec, Recorder};
use crate::packet::{IPV4_HEADER_BYTES, UDP_HEADER_BYTES};
use crate::source::{OnOffSource, UdpSource};
use celltrain_atm::aal5::{self, Reassembler};
use celltrain_atm::contract::{ConformanceDef, Shaper, ShaperConfig, TrafficDescriptor, Upc};
use celltrain_atm::frame::FrameArena;
use celltrain_atm::ingress::Policer;
use celltrain_atm::port::sched::SchedulerConfig;
use celltrain_atm::port::{buffer_stream, OutputPort, PortConfig, TxClock};
use celltrain_atm::ServiceCategory;
use celltrain_core::ids::{ConnId, FlowId, NodeId, PortId, RouteId, SourceId, VcId};
use celltrain_core::rng::RngStream;
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::units::BitRate;
use celltrain_core::units::CELL_BITS;
use celltrain_core::{EventQueue, TraceHash};
use celltrain_tcp::{SeqNum, TcpConfig, TcpEndpoint, TimerGranularity};
use std::collections::VecDeque;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Why a network could not be built; the scenario layer adds file, line and key — those of
/// the error's subject, when it has one (an error found only once the whole network is known).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError(pub String, pub Option<Subject>);

/// The named part of a scenario an error is about.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Subject {
    Host(String),
    Vc(String),
    Flow(String),
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Host(n) => write!(f, "host '{n}'"),
            Subject::Vc(n) => write!(f, "VC '{n}'"),
            Subject::Flow(n) => write!(f, "flow '{n}'"),
        }
    }
}

impl BuildError {
    /// An error about `subject`, shown as "<subject>: <message>".
    pub fn about(subject: Subject, message: impl fmt::Display) -> Self {
        BuildError(format!("{subject}: {message}"), Some(subject))
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for BuildError {}

fn err<T>(msg: impl Into<String>) -> Result<T, BuildError> {
    Err(BuildError(msg.into(), None))
}

struct NodeSpec {
    name: String,
    kind: NodeKind,
    /// Configuration of every output port of this node.
    port: PortConfig,
    /// Per-packet processing times (hosts).
    send_time: SimDuration,
    recv_time: SimDuration,
    /// AAL5 reassembly timer of the node's adapter.
    reassembly_timeout: Option<SimDuration>,
    /// Cell rate the node's adapter sends at, when set (else the VCs' PCR).
    adapter_rate: Option<BitRate>,
    /// The adapter shapes its VC's cells with a dual leaky bucket to the VC's contract.
    shaping: bool,
    /// The adapter tags PDUs that would not conform (seed 000's preventive tagging).
    tagging: bool,
    /// PDU-level rate control in the adapter: the least idle time between two PDUs (eq. 3).
    pdu_gap: Option<SimDuration>,
    /// Packet mode: buffer limits in bytes and packets (default: the cell buffer's payload,
    /// buffer_cells × 48 bytes — seed 002's "effective" buffer size).
    packet_limit: Option<(u64, Option<u64>)>,
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
    /// A VC name shared with other flows on the same path (seed 000 V7: several connections
    /// in one VC); None: the flow's own VC between hosts, "a->c" from or to a router.
    pub vc_name: Option<String>,
}

enum SourceSpec {
    Udp { flow: FlowId, app_bytes: u64, rate: Option<BitRate>, start: SimTime },
    OnOff { flow: FlowId, pcr: Option<BitRate>, mean_on: SimDuration, mean_off: SimDuration, start: SimTime },
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
        }
    }

    pub fn node_id(&self, name: &str) -> Option<NodeId> {
        self.node_by_name.get(name).copied()
    }

    fn add_node(&mut self, name: &str, kind: NodeKind, port: PortConfig) -> Result<NodeId, BuildError> {
        if self.node_id(name).is_some() {
            return err(format!("duplicate node name '{name}'"));
        }
        if port.buffer_cells == 0 {
            return err(format!("node '{name}': buffer must be at least 1 cell"));
        }
        self.node_by_name.insert(name.to_string(), NodeId::from_index(self.nodes.len()));
        self.nodes.push(NodeSpec {
            name: name.to_string(),
            kind,
            port,
            send_time: SimDuration::ZERO,
            recv_time: SimDuration::ZERO,
            packet_limit: None,
            reassembly_timeout: None,
            adapter_rate: None,
            shaping: false,
            tagging: false,
            pdu_gap: None,
        });
        Ok(NodeId::from_index(self.nodes.len() - 1))
    }

    /// A host whose adapter holds `nic_buffer_cells` cells (FIFO, tail drop).
    pub fn add_host(&mut self, name: &str, nic_buffer_cells: u32) -> Result<NodeId, BuildError> {
        self.add_node(name, NodeKind::Host, PortConfig::fifo(nic_buffer_cells))
    }

    /// A TCP sender's silence longer than `gap` ends a burst (seed 000's bursts and idle times).
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
    pub fn set_packet_limit(&mut self, node: NodeId, bytes: u64, packets: Option<u64>) {
        self.nodes[node.index()].packet_limit = Some((bytes, packets));
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
    /// and the first cell of the next (seed 000's PDU-level rate control, eq. 3).
    pub fn set_pdu_gap(&mut self, node: NodeId, gap: SimDuration) {
        self.nodes[node.index()].pdu_gap = Some(gap);
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

    /// A TCP connection along `spec_vc.path` (data) and back (acknowledgements, on a VC
    /// named "<name>-ack" with the same category and PCR).
    pub fn add_tcp(&mut self, name: &str, spec_vc: VcSpec, tcp: TcpSpec) -> Result<FlowId, BuildError> {
        tcp.config.validate().map_err(|e| BuildError(format!("tcp: {e}"), None))?;
        let mut back = spec_vc.clone();
        back.name = format!("{name}-ack");
        back.vc_name = spec_vc.vc_name.as_ref().map(|n| format!("{n}-ack"));
        back.path.reverse();
        let fwd = self.add_route(spec_vc, Adaptation::Aal5)?;
        let rev = self.add_route(back, Adaptation::Aal5)?;
        let options = if tcp.config.timestamps { 12 } else { 0 };
        let mss = u64::from(tcp.config.mss.offer()).saturating_sub(options);
        let flow = self.add_flow(name, FlowKind::Tcp, fwd, mss, 40 + options)?;
        self.tcps.push((flow, rev, tcp));
        Ok(flow)
    }

    /// An IP router: its packet interfaces hold `packet_limit` (bytes, packets); its ATM
    /// interfaces are adapters of `nic_buffer_cells` cells (FIFO, tail drop) feeding one VC
    /// per far-end router (seed 001 §5.3, seed 003's internetwork).
    pub fn add_router(
        &mut self,
        name: &str,
        nic_buffer_cells: u32,
        packet_limit: (u64, Option<u64>),
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
            return err("a packet link cannot end at an ATM switch (use a router)");
        }
        if a == b {
            return err(format!("link from '{}' to itself", self.nodes[a.index()].name));
        }
        if rate.as_bps() == 0 {
            return err("link rate must be positive");
        }
        if self.link_of.contains_key(&(a, b)) {
            return err(format!(
                "duplicate link between '{}' and '{}'",
                self.nodes[a.index()].name,
                self.nodes[b.index()].name
            ));
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
            None => {
                err(format!("no link between '{}' and '{}'", self.nodes[a.index()].name, self.nodes[b.index()].name))
            }
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
            return err(format!("duplicate VC name '{}'", spec.name));
        }
        if spec.path.len() < 2 {
            return err("a path needs at least a source and a destination");
        }
        let name = |n: NodeId| self.nodes[n.index()].name.clone();
        let last = spec.path.len() - 1;
        for (i, &n) in spec.path.iter().enumerate() {
            let kind = self.nodes[n.index()].kind;
            if (i == 0 || i == last) && kind != NodeKind::Host {
                return err(format!("path must start and end at a host; '{}' is not one", name(n)));
            }
            if i != 0 && i != last && kind == NodeKind::Host {
                return err(format!("path crosses host '{}'; only switches and routers may be in between", name(n)));
            }
        }
        for w in spec.path.windows(2) {
            if self.link_between(w[0], w[1]).is_none() {
                return err(format!("no link between '{}' and '{}'", name(w[0]), name(w[1])));
            }
        }
        if spec.pcr.is_some_and(|p| p.as_bps() == 0) {
            return err("pcr must be positive");
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
            return err(format!("duplicate flow name '{name}'"));
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
        let ip_bytes = app_bytes + UDP_HEADER_BYTES + IPV4_HEADER_BYTES;
        if app_bytes == 0 || ip_bytes + aal5::LLC_SNAP_BYTES > aal5::MAX_PAYLOAD_BYTES {
            return err(format!(
                "datagram of {app_bytes} bytes does not fit an AAL5 frame (1..={} bytes)",
                aal5::MAX_PAYLOAD_BYTES - 36
            ));
        }
        if rate.is_some_and(|r| r.as_bps() == 0) {
            return err("rate must be positive");
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
            return err("on and off periods must be positive");
        }
        let flow = self.add_flow(name, FlowKind::OnOff, route, 0, 0)?;
        self.sources.push((name.to_string(), SourceSpec::OnOff { flow, pcr, mean_on, mean_off, start }));
        Ok(flow)
    }

    /// Names the link whose capacity defines the theoretical maximum goodput.
    pub fn set_bottleneck(&mut self, from: NodeId, to: NodeId) -> Result<(), BuildError> {
        if self.link_between(from, to).is_none() {
            return err("bottleneck: no such link");
        }
        self.bottleneck = Some((from, to));
        Ok(())
    }

    pub fn build(self) -> Result<Network, BuildError> {
        if self.duration.is_zero() {
            return err("duration must be positive");
        }
        if self.warmup >= self.duration {
            return err("warmup must be shorter than the duration");
        }
        // Ports: one per direction of each link, indexed by (from, to).
        let mut port_specs: Vec<(NodeId, NodeId, BitRate, SimDuration, Medium)> = Vec::new();
        for l in &self.links {
            let medium = if self.mode == Mode::Packet && l.medium == Medium::Atm { Medium::Packet } else { l.medium };
            port_specs.push((l.a, l.b, l.rate, l.delay, medium));
            port_specs.push((l.b, l.a, l.rate, l.delay, medium));
        }
        // Link i gives ports 2i (a to b) and 2i + 1 (b to a).
        let link_of = &self.link_of;
        let links = &self.links;
        let port_of = |from: NodeId, to: NodeId| -> PortId {
            let i = *link_of.get(&(from, to)).expect("link checked in add_route");
            PortId::from_index(2 * i + usize::from(links[i].a != from))
        };
        // Routes: packet links are hops of their own; runs of ATM links through switches are VCs.
        let mut vcs: Vec<Vc> = Vec::new();
        let mut vc_paths: Vec<Vec<NodeId>> = Vec::new();
        let mut vc_by_name: BTreeMap<String, usize> = BTreeMap::new();
        // Per port, the category of each VC crossing it; a VC's index here is its slot there.
        let mut vcs_on_port: Vec<Vec<ServiceCategory>> = vec![Vec::new(); port_specs.len()];
        let mut routes = Vec::with_capacity(self.routes.len());
        for (spec, adaptation) in &self.routes {
            let path = &spec.path;
            let mut hops = Vec::new();
            let mut i = 0;
            while i + 1 < path.len() {
                let first = port_of(path[i], path[i + 1]);
                if port_specs[first.index()].4.is_packet() {
                    hops.push(Hop::Port(first));
                    i += 1;
                    continue;
                }
                let mut k = i + 1;
                while self.nodes[path[k].index()].kind == NodeKind::Switch {
                    k += 1;
                }
                let nodes = path[i..=k].to_vec();
                let whole = i == 0 && k == path.len() - 1;
                let vc_name = if let Some(shared) = &spec.vc_name {
                    shared.clone()
                } else if whole {
                    spec.name.clone()
                } else {
                    format!("{}->{}", self.nodes[path[i].index()].name, self.nodes[path[k].index()].name)
                };
                let existing = vc_by_name.get(&vc_name).copied();
                let vc = match existing {
                    Some(v) if vc_paths[v] == nodes => VcId::from_index(v),
                    Some(_) => {
                        return Err(BuildError::about(
                            Subject::Vc(vc_name.clone()),
                            "two flows take different paths between its ends",
                        ))
                    }
                    None => {
                        let ports: Vec<PortId> = nodes.windows(2).map(|w| port_of(w[0], w[1])).collect();
                        if ports.iter().any(|p| port_specs[p.index()].4.is_packet()) {
                            return Err(BuildError::about(Subject::Vc(vc_name.clone()), "crosses a packet link"));
                        }
                        if ports.len() > usize::from(u8::MAX) {
                            return Err(BuildError::about(Subject::Vc(vc_name.clone()), "longer than 255 hops"));
                        }
                        let first_rate = port_specs[ports[0].index()].2;
                        let pcr = spec.pcr.unwrap_or(first_rate);
                        if pcr > first_rate {
                            return Err(BuildError::about(
                                Subject::Vc(vc_name.clone()),
                                format!("pcr {pcr} exceeds the first link's rate {first_rate}"),
                            ));
                        }
                        let id = VcId::from_index(vcs.len());
                        // The UPC sits where the VC enters the first switch.
                        let policer = match (&spec.contract, self.nodes[nodes[1].index()].kind) {
                            (Some(desc), NodeKind::Switch) => Some(Policer::Upc(Upc::new(desc).map_err(|e| {
                                BuildError::about(Subject::Vc(vc_name.clone()), format!("contract: {e}"))
                            })?)),
                            _ => None,
                        };
                        let mut hops = Vec::with_capacity(ports.len());
                        for &p in &ports {
                            let slot = u32::try_from(vcs_on_port[p.index()].len()).expect("VCs per port fit 32 bits");
                            hops.push((p, slot));
                            vcs_on_port[p.index()].push(spec.category);
                        }
                        vc_by_name.insert(vc_name.clone(), vcs.len());
                        vcs.push(Vc {
                            name: vc_name,
                            category: spec.category,
                            pcr,
                            adaptation: *adaptation,
                            src: nodes[0],
                            dst: nodes[nodes.len() - 1],
                            route: hops,
                            policer,
                            reassembly_timeout: self.nodes[nodes[nodes.len() - 1].index()].reassembly_timeout,
                            reassembler: Reassembler::default(),
                            stats: VcStats::default(),
                        });
                        vc_paths.push(nodes);
                        id
                    }
                };
                hops.push(Hop::Vc(vc));
                i = k;
            }
            if hops.len() > usize::from(u8::MAX) {
                return err(format!("route '{}': more than 255 hops", spec.name));
            }
            routes.push(Route { name: spec.name.clone(), hops, src: path[0], dst: path[path.len() - 1] });
        }
        if port_specs.len() > super::MAX_COMPONENTS || self.sources.len() > super::MAX_COMPONENTS {
            return err(format!("too many ports or sources (at most {})", super::MAX_COMPONENTS));
        }
        // The highest PCR of the VCs each port originates (an adapter's default cell rate).
        let mut first_pcr: Vec<Option<BitRate>> = vec![None; port_specs.len()];
        for v in &vcs {
            let slot = &mut first_pcr[v.route[0].0.index()];
            *slot = Some(slot.map_or(v.pcr, |r| r.max(v.pcr)));
        }
        let mut ports: Vec<Port> = port_specs
            .iter()
            .enumerate()
            .map(|(i, &(from, to, rate, delay, medium))| {
                let node = &self.nodes[from.index()];
                let is_nic = node.kind != NodeKind::Switch;
                // A host adapter serves cells at the highest PCR of the VCs it originates
                // (one VC per adapter until per-VC shaping exists).
                // An adapter serves cells at its configured cell rate (seed 000: shaping to the
                // SCR in the adapter), else at the highest PCR of the VCs it originates.
                let service = if is_nic {
                    node.adapter_rate.unwrap_or_else(|| first_pcr[i].unwrap_or(rate)).min(rate)
                } else {
                    rate
                };
                let name = format!("{}->{}", node.name, self.nodes[to.index()].name);
                let queue =
                    OutputPort::with_parts(&node.port, &vcs_on_port[i], SchedulerConfig::PriorityRoundRobin, |k| {
                        buffer_stream(self.seed, &name, k)
                    });
                Port {
                    name,
                    work_conserving: queue.is_work_conserving(),
                    from,
                    to,
                    line_rate: rate,
                    delay,
                    is_nic,
                    clock: TxClock::new(rate, service),
                    pipe: VecDeque::new(),
                    free_pending: false,
                    single_fifo: queue.is_single_fifo(),
                    path: super::PortPath::Queues,
                    starts: VecDeque::new(),
                    waiting: VecDeque::new(),
                    free_event_at: SimTime::ZERO,
                    queue,
                    packets: medium.is_packet().then(|| {
                        let (bytes, count) =
                            node.packet_limit.unwrap_or((u64::from(node.port.buffer_cells) * 48, None));
                        let q = PacketQueue::new(rate, bytes, count);
                        if medium == Medium::Ethernet {
                            q.with_framing(ETHERNET_OVERHEAD_BYTES, ETHERNET_MIN_PAYLOAD_BYTES)
                        } else {
                            q
                        }
                    }),
                    packet_pipe: VecDeque::new(),
                    capture: None,
                    rules: None,
                    adapter_rules: false,
                    // A whole on/off burst may be handed over at once only to an adapter whose
                    // buffer no burst can fill, and that sends for the source alone (see
                    // `single_sender_ports`, applied below).
                    may_take_bursts: is_nic && node.port.buffer_cells >= DEFAULT_NIC_BUFFER_CELLS,
                    burst_handoff: false,
                    paces_only: false,
                    handed: super::HandedBurst::NONE,
                    carry: false,
                }
            })
            .collect();
        for port in ports.iter_mut().filter(|p| p.is_nic) {
            let node = &self.nodes[port.from.index()];
            if let Some(gap) = node.pdu_gap {
                if !port.single_fifo {
                    return Err(BuildError::about(
                        Subject::Host(node.name.clone()),
                        "pdu_gap needs a single-FIFO adapter",
                    ));
                }
                port.rules.get_or_insert_with(Box::default).pdu_gap = Some(gap);
            }
        }
        for (i, port) in ports.iter_mut().enumerate() {
            let node = &self.nodes[port.from.index()];
            if !(node.shaping || node.tagging) || !port.is_nic {
                continue;
            }
            let Some(vc) = vcs.iter().find(|v| v.route[0].0.index() == i) else { continue };
            let Some(desc) = self.routes.iter().find_map(|(spec, _)| {
                (spec.path.first() == Some(&port.from) && spec.contract.is_some())
                    .then(|| spec.contract.expect("checked"))
            }) else {
                return Err(BuildError::about(
                    Subject::Host(node.name.clone()),
                    format!("shapes, but VC '{}' has no traffic contract", vc.name),
                ));
            };
            if !port.single_fifo {
                return Err(BuildError::about(
                    Subject::Host(node.name.clone()),
                    "shaping and tagging need a single-FIFO adapter",
                ));
            }
            if node.tagging {
                // Tagged cells are checked against the PCR only: VBR.2's rule for CLP = 1.
                let tagging = TrafficDescriptor { def: ConformanceDef::Vbr2, ..desc };
                port.rules.get_or_insert_with(Box::default).tagger = Some(
                    Upc::new(&tagging)
                        .map_err(|e| BuildError::about(Subject::Host(node.name.clone()), format!("tagging: {e}")))?,
                );
            }
            if node.shaping {
                let config = ShaperConfig::from_descriptor(&desc, Some(port.line_rate), usize::MAX)
                    .map_err(|e| BuildError::about(Subject::Host(node.name.clone()), format!("shaper: {e}")))?;
                port.rules.get_or_insert_with(Box::default).shaper = Some(
                    Shaper::new(config)
                        .map_err(|e| BuildError::about(Subject::Host(node.name.clone()), format!("shaper: {e}")))?,
                );
            }
        }
        for port in &mut ports {
            port.adapter_rules = port.rules.as_ref().is_some_and(|r| r.times_cells());
        }
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
            })
            .collect();
        // An IP packet larger than an Ethernet link's MTU would need fragmenting, which no
        // router here does: refuse such a route, naming the flow.
        if port_specs.iter().any(|p| p.4 == Medium::Ethernet) {
            let mut largest: Vec<u64> = flows.iter().map(|f| f.app_bytes + f.header_bytes).collect();
            for (f, _, spec) in &self.tcps {
                let options = if spec.config.timestamps { 12 } else { 0 };
                largest[f.index()] = u64::from(spec.config.mss.offer()) + 40 + options;
            }
            for (f, &bytes) in flows.iter().zip(&largest).filter(|(_, &b)| b > ETHERNET_MTU_BYTES) {
                let on_ethernet = route_ports(&routes[f.route.index()], &vcs)
                    .into_iter()
                    .find(|p| port_specs[p.index()].4 == Medium::Ethernet);
                if let Some(p) = on_ethernet {
                    let (a, b) = (port_specs[p.index()].0, port_specs[p.index()].1);
                    return Err(BuildError::about(
                        Subject::Flow(f.name.clone()),
                        format!(
                            "{bytes}-byte IP packets cross the Ethernet link {}->{} (MTU {ETHERNET_MTU_BYTES} bytes); use a smaller mtu or mss, or medium = \"packet\"",
                            self.nodes[a.index()].name,
                            self.nodes[b.index()].name
                        ),
                    ));
                }
            }
        }
        let mut queue = EventQueue::new();
        // Scheduled first so that, at equal times, the window opens before any source acts.
        let warmup = SimTime::ZERO + self.warmup;
        queue.schedule(warmup, Event::OpenWindow);
        // TCP: a sender and a sink per flow; every connection of a host shares the host's
        // timer phase (what synchronises connections in seed 000), drawn from the seed.
        let mut conns = Vec::with_capacity(2 * self.tcps.len());
        for (i, (flow, rev, spec)) in self.tcps.iter().enumerate() {
            let f = &mut flows[flow.index()];
            let (src, dst) = (routes[f.route.index()].src, routes[f.route.index()].dst);
            let phase = |host: NodeId| {
                let mut rng = RngStream::derive(self.seed, &format!("{}/timers", self.nodes[host.index()].name));
                match spec.config.timer_granularity {
                    TimerGranularity::Ticks(period) => SimDuration::from_picos(rng.below(period.as_picos().max(1))),
                    _ => SimDuration::ZERO,
                }
            };
            let mut rng = RngStream::derive(self.seed, &format!("{}/iss", f.name));
            let (sender, sink) = (ConnId::from_index(conns.len()), ConnId::from_index(conns.len() + 1));
            let src_port = u16::try_from(1024 + i % 60_000).expect("port fits");
            let dst_port = 5001;
            let mut cfg = spec.config.clone();
            cfg.tick_phase = phase(src);
            let iss = SeqNum(rng.next_u64() as u32);
            let active = TcpEndpoint::connect(cfg.clone(), src_port, dst_port, iss, spec.start);
            cfg.tick_phase = phase(dst);
            let passive = TcpEndpoint::listen(cfg, dst_port, SeqNum(rng.next_u64() as u32));
            let app = match spec.file_bytes {
                Some(file_bytes) => {
                    App::Files { file_bytes, remaining: file_bytes, write_size: spec.write_size, files_done: 0 }
                }
                None => App::Bulk { remaining: spec.bytes, write_size: spec.write_size },
            };
            let mut active = TcpConn::new(active, *flow, src, f.route, sink, app);
            active.iss = RngStream::derive(self.seed, &format!("{}/iss/later", f.name));
            conns.push(active);
            let mut passive = TcpConn::new(passive, *flow, dst, *rev, sender, App::Sink);
            passive.iss = RngStream::derive(self.seed, &format!("{}/iss/later-sink", f.name));
            conns.push(passive);
            f.conns = Some((sender, sink));
            queue.schedule(spec.start, Event::TcpWake(sender));
        }
        if conns.len() > super::MAX_COMPONENTS {
            return err(format!("too many TCP connections (at most {})", super::MAX_COMPONENTS / 2));
        }
        let mut sources = Vec::with_capacity(self.sources.len());
        for (i, (name, spec)) in self.sources.into_iter().enumerate() {
            let id = SourceId::from_index(i);
            let (source, first) = match spec {
                SourceSpec::Udp { flow, app_bytes, rate, start } => {
                    // Greedy: one datagram per datagram-time of the first hop, at its rate (a
                    // paced rate is given as the first hop's bit rate it fills).
                    let ip_bytes = app_bytes + flows[flow.index()].header_bytes;
                    let (line, wire_bits) = match routes[flows[flow.index()].route.index()].hops[0] {
                        Hop::Vc(v) => (vcs[v.index()].pcr, aal5::cells_for_ip_datagram(ip_bytes) * CELL_BITS),
                        Hop::Port(p) => {
                            let q = ports[p.index()].packets.as_ref().expect("a packet hop has a packet queue");
                            (port_specs[p.index()].2, q.wire_bytes(ip_bytes) * 8)
                        }
                    };
                    let rate = rate.unwrap_or(line);
                    (Source::Udp(UdpSource { flow, app_bytes, wire_bits, rate, start, sent: 0 }), start)
                }
                SourceSpec::OnOff { flow, pcr, mean_on, mean_off, start } => {
                    let route = &routes[flows[flow.index()].route.index()];
                    let [Hop::Vc(v)] = route.hops[..] else {
                        return err(format!(
                            "flow '{name}': an on/off cell source needs an ATM path from host to host"
                        ));
                    };
                    let vc = &vcs[v.index()];
                    let pcr = pcr.unwrap_or(vc.pcr);
                    let rng = RngStream::derive(self.seed, &name);
                    let (src, first) = OnOffSource::new(flow, pcr, mean_on, mean_off, rng, start);
                    (Source::OnOff(src), first)
                }
            };
            queue.schedule(first, Event::Source(id));
            sources.push(source);
        }
        let bottleneck = match self.bottleneck {
            Some((a, b)) => Some(port_of(a, b)),
            None => busiest_port(&ports, &flows, &routes, &vcs),
        };
        let mut spec = RecordSpec {
            pcap_hosts: self.record.pcap_hosts.clone(),
            pcap_ports: self.record.pcap_links.iter().map(|&(a, b)| port_of(a, b)).collect(),
            interval: self.record.interval,
            ..RecordSpec::default()
        };
        for f in &flows {
            let wanted = self.record.flows.is_empty() || self.record.flows.contains(&f.name);
            if let (true, Some((sender, _))) = (wanted, f.conns) {
                spec.senders.push((sender, f.name.clone()));
            }
        }
        if let Some(missing) =
            self.record.flows.iter().find(|n| !flows.iter().any(|f| &f.name == *n && f.conns.is_some()))
        {
            return err(format!("record: no TCP flow named '{missing}'"));
        }
        spec.ports = if self.record.ports.is_empty() {
            bottleneck.into_iter().collect()
        } else {
            self.record.ports.iter().map(|&(a, b)| port_of(a, b)).collect()
        };
        // A port's queue is sampled in its own unit: cells, or bytes on a packet link.
        let queue_columns: Vec<String> = ports
            .iter()
            .map(|p| format!("{}.queue_{}", p.name, if p.packets.is_some() { "bytes" } else { "cells" }))
            .collect();
        let recorder = Recorder::new(spec, self.nodes.len(), &queue_columns);
        if let Some(first) = recorder.first_sample() {
            queue.schedule(first, Event::Sample);
        }
        // Another sender's cells would queue behind a whole burst instead of between its cells.
        let alone = single_sender_ports(ports.len(), &flows, &routes, &vcs);
        for (port, alone) in ports.iter_mut().zip(alone) {
            port.may_take_bursts &= alone;
        }
        let hosts = self.nodes.iter().map(|n| HostCpu::new(n.send_time, n.recv_time)).collect();
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
            warmup,
            end: SimTime::ZERO + self.duration,
            trace: TraceHash::default(),
            events: 0,
            cell_hops: 0,
            packet_hops: 0,
            bottleneck,
            burst_gap: self.burst_gap,
            recorder,
            options: super::SimOptions::default(),
            carry_before: SimTime::ZERO,
            window_open: false,
            run_admitted_cells: 0,
        };
        network.plan();
        Ok(network)
    }
}

/// Per port, whether one sender alone puts cells into it as the first port of a VC: one route
/// enters a VC there, and at most one flow takes that route (several flows may share a named
/// VC, or a route; a route no flow takes — a TCP flow's acknowledgements — is one sender).
fn single_sender_ports(ports: usize, flows: &[Flow], routes: &[Route], vcs: &[Vc]) -> Vec<bool> {
    let mut flows_on_route = vec![0usize; routes.len()];
    for f in flows {
        flows_on_route[f.route.index()] += 1;
    }
    let mut senders = vec![0usize; ports];
    for (route, &flows) in routes.iter().zip(&flows_on_route) {
        for hop in &route.hops {
            if let Hop::Vc(v) = *hop {
                senders[vcs[v.index()].route[0].0.index()] += flows.max(1);
            }
        }
    }
    senders.iter().map(|&n| n == 1).collect()
}

/// The port crossed by the most packet flows (ties: the slowest, then the first): the default
/// bottleneck for the theoretical maximum goodput.
fn busiest_port(ports: &[Port], flows: &[Flow], routes: &[Route], vcs: &[Vc]) -> Option<PortId> {
    let mut crossing = vec![0usize; ports.len()];
    for f in flows.iter().filter(|f| f.app_bytes > 0) {
        for p in route_ports(&routes[f.route.index()], vcs) {
            crossing[p.index()] += 1;
        }
    }
    let mut best: Option<(usize, std::cmp::Reverse<BitRate>, std::cmp::Reverse<usize>)> = None;
    for (i, port) in ports.iter().enumerate() {
        if crossing[i] == 0 {
            continue;
        }
        let key = (crossing[i], std::cmp::Reverse(port.line_rate), std::cmp::Reverse(i));
        if best.is_none_or(|b| key > b) {
            best = Some(key);
        }
    }
    best.map(|(_, _, std::cmp::Reverse(i))| PortId::from_index(i))
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
