//! A tiny deterministic two-party driver (quinn `Pair` style): two endpoints, a fixed
//! one-way delay, an optional line rate, a drop predicate, and stepping by the earliest
//! pending time (segment arrival or endpoint timeout).

use crate::{Segment, SeqNum, TcpConfig, TcpEndpoint};
use celltrain_core::{SimDuration, SimTime};
use std::collections::VecDeque;

/// Which endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    A,
    B,
}

impl Side {
    fn idx(self) -> usize {
        match self {
            Side::A => 0,
            Side::B => 1,
        }
    }
}

/// One transmitted segment.
#[derive(Clone, Copy, Debug)]
pub struct Rec {
    /// Time it left the sender.
    pub t: SimTime,
    /// Sender.
    pub from: Side,
    /// The segment.
    pub seg: Segment,
    /// Dropped by the predicate.
    pub dropped: bool,
}

/// The application on one side.
#[derive(Clone, Debug, Default)]
pub struct App {
    /// Octets to write in total.
    pub to_write: u64,
    /// Octets accepted so far.
    pub written: u64,
    /// Octets read so far.
    pub read: u64,
    /// Read after every input (a prompt reader).
    pub reads: bool,
    /// Close once everything is written.
    pub close_when_done: bool,
    /// Close once the peer's FIN has arrived.
    pub close_on_fin: bool,
    /// `close()` was called.
    pub closed: bool,
}

/// Decides, as a segment is sent, whether the network loses it.
pub type DropFn = Box<dyn FnMut(Side, &Segment) -> bool>;

/// Decides, as a segment is sent, how much longer than the link's delay it takes (later
/// segments may overtake it).
pub type HoldFn = Box<dyn FnMut(Side, &Segment) -> SimDuration>;

/// Two endpoints joined by a pair of FIFO links.
pub struct Pair {
    /// The active opener (port 1000).
    pub a: TcpEndpoint,
    /// The passive opener (port 80).
    pub b: TcpEndpoint,
    /// Current simulated time.
    pub now: SimTime,
    /// One-way propagation delay.
    pub delay: SimDuration,
    /// Line rate (bit/s) applied to IP datagrams (serialisation, FIFO); `None` = infinitely fast.
    pub rate_bps: Option<u64>,
    /// When each link's transmitter is next free (with a line rate).
    busy: [SimTime; 2],
    /// Segments in flight per direction (0: A→B, 1: B→A) with their arrival times.
    wire: [VecDeque<(SimTime, Segment)>; 2],
    /// Every segment sent, in order.
    pub log: Vec<Rec>,
    /// Returns true to drop a segment as it is sent.
    pub drop: DropFn,
    /// Extra delay of a segment, reordering it behind later ones.
    pub hold: HoldFn,
    /// The applications on A and B.
    pub apps: [App; 2],
    /// (time, side, cwnd) after every segment delivered to that side.
    pub cwnd_trace: Vec<(SimTime, Side, u32)>,
}

/// `x` milliseconds after time zero.
pub fn ms(x: u64) -> SimTime {
    SimTime::ZERO + SimDuration::from_millis(x)
}

impl Pair {
    /// A (port 1000, ISS 1000) connects to B (port 80, ISS 5000, listening) at time 0.
    pub fn new(cfg_a: TcpConfig, cfg_b: TcpConfig, delay: SimDuration) -> Pair {
        Pair::with(cfg_a, cfg_b, delay, SeqNum(1000), SeqNum(5000), SimTime::ZERO)
    }

    /// Full control over the ISSs and the start time.
    pub fn with(
        cfg_a: TcpConfig,
        cfg_b: TcpConfig,
        delay: SimDuration,
        iss_a: SeqNum,
        iss_b: SeqNum,
        start: SimTime,
    ) -> Pair {
        Pair {
            a: TcpEndpoint::connect(cfg_a, 1000, 80, iss_a, start),
            b: TcpEndpoint::listen(cfg_b, 80, iss_b),
            now: start,
            delay,
            rate_bps: None,
            busy: [start; 2],
            wire: [VecDeque::new(), VecDeque::new()],
            log: Vec::new(),
            drop: Box::new(|_, _| false),
            hold: Box::new(|_, _| SimDuration::ZERO),
            apps: [App { reads: true, ..App::default() }, App { reads: true, close_on_fin: true, ..App::default() }],
            cwnd_trace: Vec::new(),
        }
    }

    /// A bulk transfer of `bytes` from A to B; both close at the end.
    pub fn bulk(mut self, bytes: u64) -> Pair {
        self.apps[0].to_write = bytes;
        self.apps[0].close_when_done = true;
        self
    }

    /// The endpoint on `side`.
    pub fn ep(&mut self, side: Side) -> &mut TcpEndpoint {
        match side {
            Side::A => &mut self.a,
            Side::B => &mut self.b,
        }
    }

    /// The endpoint on `side`, shared.
    pub fn ep_ref(&self, side: Side) -> &TcpEndpoint {
        match side {
            Side::A => &self.a,
            Side::B => &self.b,
        }
    }

    /// The application on `side` writes `bytes` more now.
    pub fn write(&mut self, side: Side, bytes: u64) {
        self.apps[side.idx()].to_write += bytes;
        self.service(side);
    }

    /// Application actions after an input, then a full drain (one `tcp_output` call).
    pub fn service(&mut self, side: Side) {
        let i = side.idx();
        let mut app = std::mem::take(&mut self.apps[i]);
        let ep = self.ep(side);
        if app.reads {
            app.read += ep.read();
        }
        while app.written < app.to_write {
            let n = ep.write(app.to_write - app.written);
            if n == 0 {
                break;
            }
            app.written += n;
        }
        let done_writing = app.written == app.to_write;
        if !app.closed && ((app.close_when_done && done_writing) || (app.close_on_fin && ep.fin_received())) {
            ep.close();
            app.closed = true;
        }
        self.apps[i] = app;
        self.drain(side);
    }

    /// Drains `poll_transmit` of one side onto its outgoing link.
    pub fn drain(&mut self, side: Side) {
        let now = self.now;
        for _ in 0..100_000 {
            let Some(seg) = self.ep(side).poll_transmit(now) else {
                return;
            };
            let dropped = (self.drop)(side, &seg);
            self.log.push(Rec { t: now, from: side, seg, dropped });
            if dropped {
                continue;
            }
            let i = side.idx();
            let departs = match self.rate_bps {
                Some(r) => {
                    let start = self.busy[i].max(now);
                    let bits = u64::from(seg.ip_len()) * 8;
                    let end = start + SimDuration::from_picos((bits * 1_000_000_000_000).div_ceil(r));
                    self.busy[i] = end;
                    end
                }
                None => now,
            };
            let arrives = departs + self.delay + (self.hold)(side, &seg);
            // In arrival order; a segment held back lets the later ones pass.
            let at = self.wire[i].partition_point(|&(t, _)| t <= arrives);
            self.wire[i].insert(at, (arrives, seg));
        }
        panic!("poll_transmit did not return None within 100000 segments");
    }

    /// Starts the connection: A sends its SYN.
    pub fn start(&mut self) {
        self.service(Side::A);
    }

    fn next_time(&self) -> Option<SimTime> {
        [
            self.wire[0].front().map(|&(t, _)| t),
            self.wire[1].front().map(|&(t, _)| t),
            self.a.poll_timeout(),
            self.b.poll_timeout(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// Advances to the next event time and handles everything due then. False if idle.
    pub fn step(&mut self) -> bool {
        let Some(t) = self.next_time() else { return false };
        assert!(t >= self.now, "time went backwards");
        self.now = t;
        // Arrivals, FIFO per link, A→B first on ties.
        loop {
            let pick = (0..2).find(|&i| self.wire[i].front().is_some_and(|&(at, _)| at <= t));
            let Some(i) = pick else { break };
            let (_, seg) = self.wire[i].pop_front().expect("front exists");
            let to = if i == 0 { Side::B } else { Side::A };
            self.ep(to).on_segment(t, &seg);
            let cwnd = self.ep_ref(to).cwnd();
            self.cwnd_trace.push((t, to, cwnd));
            self.service(to);
        }
        for side in [Side::A, Side::B] {
            if self.ep_ref(side).poll_timeout().is_some_and(|d| d <= t) {
                self.ep(side).on_timeout(t);
                self.service(side);
            }
        }
        true
    }

    /// Steps while events are at or before `until`.
    pub fn run_until(&mut self, until: SimTime) {
        while self.next_time().is_some_and(|t| t <= until) {
            self.step();
        }
        self.now = self.now.max(until);
    }

    /// Steps until nothing is pending or `limit` is passed.
    pub fn run(&mut self, limit: SimTime) {
        while self.next_time().is_some_and(|t| t <= limit) {
            self.step();
        }
    }

    /// Segments sent by `side` (including dropped ones).
    pub fn sent(&self, side: Side) -> impl Iterator<Item = &Rec> + '_ {
        self.log.iter().filter(move |r| r.from == side)
    }

    /// Data segments sent by `side`.
    pub fn data(&self, side: Side) -> impl Iterator<Item = &Rec> + '_ {
        self.sent(side).filter(|r| r.seg.payload_len > 0)
    }
}
