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
use celltrain_core::rng::RngStream;
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_tcp::{Segment, State, TcpEndpoint, TcpStats};
use std::collections::VecDeque;

/// What the application on an endpoint does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum App {
    /// Writes `remaining` bytes (None: without end) as fast as the send buffer takes them,
    /// then closes the connection. With `write_size`, in blocking writes of that many bytes
    /// like ttcp (TCP gets the chance to send after each piece a write hands over).
    Bulk { remaining: Option<u64>, write_size: Option<u64> },
    /// Back-to-back transfers of `file_bytes` each, one connection per file (BN01): when
    /// a transfer has closed at both ends, a new connection starts at once.
    Files { file_bytes: u64, remaining: u64, write_size: Option<u64>, files_done: u64 },
    /// Reads everything that arrives, at once; closes when the peer has closed.
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
    /// Counters of this end's earlier connections (back-to-back files), added to the
    /// current endpoint's when reported.
    pub stats_before: TcpStats,
    closed: bool,
    /// Bytes of the application's current write not yet taken by the send buffer.
    in_write: u64,
    /// Initial sequence numbers of later connections (back-to-back files), from the seed.
    pub iss: RngStream,
    /// The application writes nothing at or after this time and closes (`SimTime::MAX`: never).
    pub stop: SimTime,
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
            stats_before: TcpStats::default(),
            closed: false,
            in_write: 0,
            iss: RngStream::derive(0, "iss"),
            stop: SimTime::MAX,
        }
    }
}

/// A FIFO server that takes a time per packet (a host's protocol processing): `time`, or a
/// draw around it when the host has timing jitter.
#[derive(Default)]
pub struct ProcessingQueue {
    pub time: SimDuration,
    pub jitter: super::ProcessingJitter,
    /// A host that takes no time: whether it delivers each segment when everything else of
    /// its arrival's instant has happened, by an event of its own (`schedule_recv_done`),
    /// rather than within the event that brings it. Set by the plan (`plan_carry`), from the
    /// network alone.
    pub(super) closes_instant: bool,
    free_at: SimTime,
    /// Packets in processing, with the time each is done.
    queue: VecDeque<(SimTime, Packet)>,
}

impl ProcessingQueue {
    /// The least time a packet may take.
    pub fn least_time(&self) -> SimDuration {
        self.jitter.least(self.time)
    }

    /// Queues `packet` at `now`; returns when it will be done if the caller must schedule
    /// that (the queue was empty), None otherwise (an event is already pending).
    fn push(&mut self, now: SimTime, packet: Packet) -> Option<SimTime> {
        let done = self.free_at.max(now) + self.jitter.draw(self.time);
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
/// taking a fixed time per packet (MSc98: 300 µs).
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

    /// The same host with per-packet times drawn uniformly within ±`fraction` of each mean,
    /// from the streams `<host>/send-processing` and `<host>/recv-processing` of `seed`.
    pub fn with_jitter(mut self, fraction: f64, seed: u64, host: &str) -> Self {
        use celltrain_core::RngStream;
        let stream = |what: &str| RngStream::derive(seed, &format!("{host}/{what}-processing"));
        self.send.jitter = super::ProcessingJitter::uniform(fraction, stream("send"));
        self.recv.jitter = super::ProcessingJitter::uniform(fraction, stream("recv"));
        self
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
        match conn.app {
            App::Bulk { .. } | App::Files { .. } => self.app_write(c),
            App::Sink => {
                let n = conn.endpoint.read();
                let stats = &mut self.flows[conn.flow.index()].stats;
                stats.bytes_delivered += n;
                if conn.endpoint.fin_received() && stats.completed_at.is_none() {
                    stats.completed_at = Some(self.now);
                }
                if conn.endpoint.fin_received() && !conn.closed {
                    conn.endpoint.close();
                    conn.closed = true;
                }
                if conn.endpoint.state() == State::Closed && conn.closed {
                    let sender = conn.peer;
                    let sender_conn = &self.conns[sender.index()];
                    if matches!(sender_conn.app, App::Files { .. }) && now < sender_conn.stop {
                        self.next_file(sender);
                        return;
                    }
                }
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
        if self.recorder.changes.is_some() {
            self.note_tcp_change(c);
        }
    }

    /// The sending application writes what the send buffer takes, a piece at a time when it
    /// makes fixed-size writes, letting TCP send after each piece; closes at the end.
    fn app_write(&mut self, c: ConnId) {
        let now = self.now;
        loop {
            let conn = &mut self.conns[c.index()];
            if now >= conn.stop {
                // Stopped: a write in progress is abandoned; what the socket holds still goes.
                if !conn.closed {
                    conn.endpoint.close();
                    conn.closed = true;
                }
                return;
            }
            let (remaining, write_size) = match &mut conn.app {
                App::Bulk { remaining, write_size } => (remaining.as_mut(), *write_size),
                App::Files { remaining, write_size, .. } => (Some(remaining), *write_size),
                App::Sink => unreachable!("a sink does not write"),
            };
            let left = remaining.as_ref().map_or(u64::MAX, |r| **r);
            if conn.in_write == 0 {
                conn.in_write = write_size.unwrap_or(u64::MAX).min(left);
            }
            let took = if conn.in_write > 0 { conn.endpoint.write(conn.in_write) } else { 0 };
            conn.in_write -= took;
            if let Some(r) = remaining {
                *r -= took;
            }
            let done = left == took;
            if done && !conn.closed {
                conn.endpoint.close();
                conn.closed = true;
            }
            if took == 0 || done || write_size.is_none() {
                return;
            }
            // A blocking write hands its bytes over piece by piece; TCP may send after each.
            while let Some(segment) = self.conns[c.index()].endpoint.poll_transmit(now) {
                self.tcp_send(c, segment);
            }
        }
    }

    /// Back-to-back files: the transfer on `sender`'s connection closed at both ends; the
    /// next one starts on a new connection (new port and sequence numbers, fresh windows).
    fn next_file(&mut self, sender: ConnId) {
        let now = self.now;
        let sink = self.conns[sender.index()].peer;
        for c in [sender, sink] {
            let conn = &mut self.conns[c.index()];
            let old = conn.endpoint.stats().clone();
            add_stats(&mut conn.stats_before, &old);
            let cfg = conn.endpoint.config().clone();
            let (local, remote) = (conn.endpoint.local_port(), conn.endpoint.remote_port());
            let iss = celltrain_tcp::SeqNum(conn.iss.next_u64() as u32);
            conn.endpoint = if c == sender {
                // A new ephemeral port for each file, as a new socket would get.
                TcpEndpoint::connect(cfg, local.wrapping_add(1).max(1024), remote, iss, now)
            } else {
                TcpEndpoint::listen(cfg, local, iss)
            };
            conn.closed = false;
            conn.in_write = 0;
            conn.armed = None;
            if let App::Files { file_bytes, remaining, files_done, .. } = &mut conn.app {
                *remaining = *file_bytes;
                *files_done += 1;
            }
        }
        self.queue.schedule(now, Event::TcpWake(sender));
    }

    /// A segment leaves endpoint `c`: through the host's send processing onto its VC.
    fn tcp_send(&mut self, c: ConnId, segment: Segment) {
        let conn = &self.conns[c.index()];
        let flow = conn.flow;
        let data = segment.payload_len > 0 && !matches!(conn.app, App::Sink);
        let counted = data && self.measure.window_open;
        if data {
            let now = self.now;
            let timeouts = conn.stats_before.timeouts + conn.endpoint.stats().timeouts;
            let s = &mut self.flows[flow.index()].stats;
            s.packets_sent += 1;
            s.burst_segments += 1;
            match s.last_data_at {
                Some(last) if now.saturating_since(last) <= self.measure.burst_gap => s.burst_len += 1,
                Some(last) => {
                    s.close_burst();
                    s.burst_len = 1;
                    s.bursts += 1;
                    let idle = now.saturating_since(last).as_picos();
                    s.idle_ps += idle;
                    // A timeout since the last data segment: this gap ends in a retransmission.
                    if timeouts > s.timeouts_seen {
                        s.timeout_idles += 1;
                        s.timeout_idle_ps += idle;
                    }
                }
                None => {
                    s.bursts += 1;
                    s.burst_len = 1;
                }
            }
            s.timeouts_seen = timeouts;
            s.last_data_at = Some(now);
        }
        let packet = Packet {
            flow,
            payload: Payload::Tcp { segment, to: conn.peer },
            app_bytes: u64::from(segment.payload_len),
            ip_bytes: u64::from(segment.header_len()) + IPV4_HEADER_BYTES + u64::from(segment.payload_len),
            sent_at: self.now,
            route: conn.route_out,
            hop: 0,
            counted,
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
        if cpu.time.is_zero() && !cpu.closes_instant {
            self.tcp_deliver(packet);
            return;
        }
        // The end of a segment's processing has a place among the events of its instant by
        // rule, not by when it was scheduled: whether it was scheduled as the segment arrived
        // or when the segment before it was done must not decide its order against the host's
        // timers, and a segment carried ahead to the host (`plan_carry`) is queued before its
        // arrival time.
        if let Some(done) = cpu.push(self.now, packet) {
            self.schedule_recv_done(host, done);
        }
    }

    /// A host finished receive processing of the packet at the head of its queue.
    pub(super) fn host_recv_done(&mut self, h: NodeId) {
        let (packet, next) = self.hosts[h.index()].recv.pop();
        if let Some(next) = next {
            self.schedule_recv_done(h, next);
        }
        self.tcp_deliver(packet);
    }

    /// Host `h`'s receive processing of its head packet ends at `done`. A host that takes a
    /// time to process a segment ends it first in that instant; one that takes none (and
    /// `closes_instant`), when everything else of the instant it arrives in has happened
    /// (after the events placed last in it: a transmitter coming free, an RM cell reaching its
    /// destination), as if it took an instant to answer. (First cannot be its place: scheduled
    /// at the current instant, it would come after the instant's events already handled.)
    #[inline]
    fn schedule_recv_done(&mut self, h: NodeId, done: SimTime) {
        if self.hosts[h.index()].recv.closes_instant {
            self.queue.schedule_closing(done, Event::HostRecv(h));
        } else {
            self.queue.schedule_first(done, Event::HostRecv(h));
        }
    }

    fn tcp_deliver(&mut self, packet: Packet) {
        let Payload::Tcp { segment, to } = packet.payload else { return };
        self.conns[to.index()].endpoint.on_segment(self.now, &segment);
        self.tcp_service(to);
    }
}

/// Adds the counters of a finished connection to a running total.
fn add_stats(total: &mut TcpStats, s: &TcpStats) {
    total.segments_sent += s.segments_sent;
    total.data_segments_sent += s.data_segments_sent;
    total.bytes_sent += s.bytes_sent;
    total.segments_retransmitted += s.segments_retransmitted;
    total.bytes_retransmitted += s.bytes_retransmitted;
    total.timeouts += s.timeouts;
    total.fast_retransmits += s.fast_retransmits;
    total.loss_probes += s.loss_probes;
    total.dup_acks += s.dup_acks;
    total.bytes_delivered += s.bytes_delivered;
    total.rtt_samples += s.rtt_samples;
    total.rtt_raw_sum_ps += s.rtt_raw_sum_ps;
}

/// The counters of `conn` over its whole life (earlier connections included).
pub fn lifetime_stats(conn: &TcpConn) -> TcpStats {
    let mut total = conn.stats_before.clone();
    add_stats(&mut total, conn.endpoint.stats());
    total
}
