//! TCP in the network: connections (a sans-IO endpoint with its application), the hosts'
//! per-packet processing, and the wake-up discipline.
//!
//! ```text
//! app (bulk writer) ─write─► TcpEndpoint ─poll_transmit─► host send queue (processing time)
//!   ─► AAL5 onto the connection's VC ─► … ─► reassembly ─► host receive queue
//!   ─► peer TcpEndpoint::on_segment ─► read by the application (goodput)
//! ```
//!
//! Each endpoint has at most one wake-up that the network keeps track of (`armed`); when its
//! deadline moves earlier a new one is scheduled and the later one, when it fires, is a
//! harmless spurious wake-up (the endpoint answers `on_timeout` early by doing nothing).

use super::{Event, Network};
use crate::packet::{Packet, Payload, IPV4_HEADER_BYTES};
use celltrain_core::ids::{ConnId, FlowId, NodeId, RouteId};
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_tcp::{Segment, TcpEndpoint, TcpStats};
use std::collections::VecDeque;

/// What the application on an endpoint does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum App {
    /// Writes data as fast as the send buffer takes it: `remaining` bytes (None: without
    /// end), then closes the connection.
    Bulk { remaining: Option<u64> },
    /// Reads everything that arrives, at once.
    Sink,
}

/// One end of a TCP connection.
pub struct TcpConn {
    pub endpoint: TcpEndpoint,
    pub flow: FlowId,
    pub host: NodeId,
    /// The route of this endpoint's segments.
    pub route_out: RouteId,
    pub peer: ConnId,
    pub app: App,
    /// The earliest wake-up scheduled for this endpoint.
    armed: Option<SimTime>,
    /// Endpoint counters when the measurement window opened.
    pub stats_at_window: TcpStats,
    closed: bool,
}

impl TcpConn {
    pub fn new(endpoint: TcpEndpoint, flow: FlowId, host: NodeId, route_out: RouteId, peer: ConnId, app: App) -> Self {
        TcpConn {
            endpoint,
            flow,
            host,
            route_out,
            peer,
            app,
            armed: None,
            stats_at_window: TcpStats::default(),
            closed: false,
        }
    }
}

/// A FIFO server that takes a fixed time per packet (a host's protocol processing).
#[derive(Default)]
pub struct ProcessingQueue {
    pub time: SimDuration,
    free_at: SimTime,
    /// Packets in processing, with the time each is done.
    queue: VecDeque<(SimTime, Packet)>,
}

impl ProcessingQueue {
    /// Queues `packet` at `now`; returns when it will be done if the caller must schedule
    /// that (the queue was empty), None otherwise (an event is already pending).
    fn push(&mut self, now: SimTime, packet: Packet) -> Option<SimTime> {
        let done = self.free_at.max(now) + self.time;
        self.free_at = done;
        let schedule = self.queue.is_empty().then_some(done);
        self.queue.push_back((done, packet));
        schedule
    }

    /// The head packet is done; returns it and when the next one will be.
    fn pop(&mut self) -> (Packet, Option<SimTime>) {
        let (_, packet) = self.queue.pop_front().expect("processing event without a packet");
        (packet, self.queue.front().map(|&(t, _)| t))
    }
}

/// A host's packet processing: one FIFO server for sending and one for receiving, each
/// taking a fixed time per packet (seed 001: 300 µs).
#[derive(Default)]
pub struct HostCpu {
    pub send: ProcessingQueue,
    pub recv: ProcessingQueue,
}

impl HostCpu {
    pub fn new(send_time: SimDuration, recv_time: SimDuration) -> Self {
        HostCpu {
            send: ProcessingQueue { time: send_time, ..ProcessingQueue::default() },
            recv: ProcessingQueue { time: recv_time, ..ProcessingQueue::default() },
        }
    }
}

impl Network {
    /// An endpoint's wake-up fired.
    pub(super) fn tcp_wake(&mut self, c: ConnId) {
        let now = self.now;
        let conn = &mut self.conns[c.index()];
        if conn.armed == Some(now) {
            conn.armed = None;
        }
        if conn.endpoint.poll_timeout().is_some_and(|t| t <= now) {
            conn.endpoint.on_timeout(now);
        }
        self.tcp_service(c);
    }

    /// Lets the application and the endpoint act, sends what the endpoint has to send, and
    /// re-arms its wake-up.
    pub(super) fn tcp_service(&mut self, c: ConnId) {
        let now = self.now;
        let conn = &mut self.conns[c.index()];
        match &mut conn.app {
            App::Bulk { remaining } => {
                let free = conn.endpoint.send_buffer_free();
                let want = remaining.map_or(free, |r| r.min(free));
                if want > 0 {
                    let took = conn.endpoint.write(want);
                    if let Some(r) = remaining {
                        *r -= took;
                    }
                }
                if *remaining == Some(0) && !conn.closed {
                    conn.endpoint.close();
                    conn.closed = true;
                }
            }
            App::Sink => {
                let n = conn.endpoint.read();
                self.flows[conn.flow.index()].stats.bytes_delivered += n;
            }
        }
        while let Some(segment) = self.conns[c.index()].endpoint.poll_transmit(now) {
            self.tcp_send(c, segment);
        }
        let conn = &mut self.conns[c.index()];
        if let Some(deadline) = conn.endpoint.poll_timeout() {
            let at = deadline.max(now);
            if conn.armed.is_none_or(|armed| at < armed) {
                conn.armed = Some(at);
                self.queue.schedule(at, Event::TcpWake(c));
            }
        }
    }

    /// A segment leaves endpoint `c`: through the host's send processing onto its VC.
    fn tcp_send(&mut self, c: ConnId, segment: Segment) {
        let conn = &self.conns[c.index()];
        let flow = conn.flow;
        if segment.payload_len > 0 && matches!(conn.app, App::Bulk { .. }) {
            self.flows[flow.index()].stats.packets_sent += 1;
        }
        let packet = Packet {
            flow,
            payload: Payload::Tcp { segment, to: conn.peer },
            app_bytes: u64::from(segment.payload_len),
            ip_bytes: u64::from(segment.header_len()) + IPV4_HEADER_BYTES + u64::from(segment.payload_len),
            sent_at: self.now,
            route: conn.route_out,
            hop: 0,
        };
        let (route, host) = (conn.route_out, conn.host);
        let cpu = &mut self.hosts[host.index()].send;
        if cpu.time.is_zero() {
            self.send(route, packet);
            return;
        }
        if let Some(done) = cpu.push(self.now, packet) {
            self.queue.schedule(done, Event::HostSend(host));
        }
    }

    /// A host finished send processing of the packet at the head of its queue.
    pub(super) fn host_send_done(&mut self, h: NodeId) {
        let (packet, next) = self.hosts[h.index()].send.pop();
        if let Some(next) = next {
            self.queue.schedule(next, Event::HostSend(h));
        }
        let Payload::Tcp { to, .. } = packet.payload else { unreachable!("only TCP uses host processing") };
        let route = self.conns[self.conns[to.index()].peer.index()].route_out;
        self.send(route, packet);
    }

    /// An intact TCP segment reached its destination host's adapter.
    pub(super) fn tcp_arrive(&mut self, packet: Packet) {
        let Payload::Tcp { to, .. } = packet.payload else { return };
        let host = self.conns[to.index()].host;
        let cpu = &mut self.hosts[host.index()].recv;
        if cpu.time.is_zero() {
            self.tcp_deliver(packet);
            return;
        }
        if let Some(done) = cpu.push(self.now, packet) {
            self.queue.schedule(done, Event::HostRecv(host));
        }
    }

    /// A host finished receive processing of the packet at the head of its queue.
    pub(super) fn host_recv_done(&mut self, h: NodeId) {
        let (packet, next) = self.hosts[h.index()].recv.pop();
        if let Some(next) = next {
            self.queue.schedule(next, Event::HostRecv(h));
        }
        self.tcp_deliver(packet);
    }

    fn tcp_deliver(&mut self, packet: Packet) {
        let Payload::Tcp { segment, to } = packet.payload else { return };
        self.conns[to.index()].endpoint.on_segment(self.now, &segment);
        self.tcp_service(to);
    }
}
