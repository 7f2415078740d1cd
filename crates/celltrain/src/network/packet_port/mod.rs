//! Packet mode: an output port that queues whole IP packets (FIFO, drop-tail, limited in bytes
//! and optionally in packets) and serialises them at the link rate, for the packet network
//! that AD97 sets beside the ATM one (same topology, same TCP, routers instead of switches).
//!
//! A departure due at an instant is made before an arrival or a sample at that instant, as on
//! FIFO cell ports, whichever event was scheduled first. A FIFO on a link with a delay runs
//! analytically: a packet that must wait gets its start time as it arrives and goes on the link
//! then, and the buffer counts it out at that start when the port is next looked at.

pub mod conditioning;
mod limits;
mod path;
pub(crate) mod priority;

use crate::packet::Packet;
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::units::BitRate;
use conditioning::{PacketPolicerKind, PacketShaperKind};
pub use limits::PacketLimits;
use priority::PriorityClasses;
use std::collections::VecDeque;

/// Counters of a packet port over the measurement window. Identity:
/// `packets_in + queued_at_start = packets_out + dropped + queued_at_end`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PacketPortStats {
    pub packets_in: u64,
    pub packets_out: u64,
    pub dropped: u64,
    pub bytes_out: u64,
    /// Octets put on the wire: `bytes_out` plus the link's framing.
    pub wire_bytes_out: u64,
    pub queued_at_start: u64,
    pub max_queue_bytes: u64,
    /// The policer at the link's far end: packets it passed and dropped (the drops are not
    /// in `dropped`: they left this port).
    pub police_conforming: u64,
    pub police_dropped: u64,
    /// The shaper: packets that started later than the line alone let them, waiting for
    /// tokens, and packets its queue limit refused (these also in `dropped`).
    pub shape_delayed: u64,
    pub shape_dropped: u64,
    /// ∫ queued bytes dt, in byte·picoseconds.
    area: u128,
    last_change: SimTime,
    window_start: SimTime,
}

/// A drop-tail FIFO of packets in front of a link.
pub struct PacketQueue {
    rate: BitRate,
    /// Buffer limit in bytes (IP datagrams, headers included).
    limit_bytes: u64,
    /// Optional limit in packets.
    limit_packets: Option<u64>,
    queue: VecDeque<Packet>,
    queued_bytes: u64,
    /// Framing octets each packet costs on the wire (Ethernet: 38), and the smallest payload
    /// a frame carries (Ethernet: 46; shorter packets are padded).
    frame_overhead_bytes: u64,
    min_payload_bytes: u64,
    /// The transmitter is busy until then.
    busy_until: SimTime,
    stats: PacketPortStats,
    /// Strict priority by service category (`queueing = "priority"`); None: one FIFO (`queue`).
    classes: Option<PriorityClasses>,
    /// Packets a priority port evicted to make room (push-out), for the network to count lost.
    pushed_out: Vec<Packet>,
    /// The queued bytes' changes, when a time series asks for them (`[record] on_change`).
    changes: Option<Box<celltrain_core::ChangeTrace>>,
    /// The last packet size serialised and its time: a port mostly sends one size (data
    /// segments one way, acknowledgements the other), and the time takes a 128-bit division.
    last_tx: (u64, SimDuration),
    /// Plan: the port runs analytically (see [`PacketQueue::arrive_analytic`]): a packet goes
    /// on the wire as it arrives, at the start time the queue gives it. (The port's `path`
    /// stays `Queues`: it names how a cell port runs.)
    analytic: bool,
    /// An analytic port's accepted packets that have not started: start time and IP bytes.
    starts: VecDeque<(SimTime, u64)>,
    /// Token-bucket policing where the link's packets arrive (`police`).
    policer: Option<PacketPolicerKind>,
    /// Token-bucket shaping of the packets leaving (`shape`); a shaped port runs by events.
    shaper: Option<PacketShaperKind>,
    /// The transmitter waited for the shaper's tokens since the last packet started.
    waited_for_tokens: bool,
    /// Packets in propagation on the port's link, with their arrival times at the far end.
    pipe: VecDeque<(SimTime, Packet)>,
    /// Plan: the link is carried ahead (`PortPlan::carry`, kept beside the pipe).
    carried: bool,
    /// Plan: the link is carried by horizon (`horizon`).
    by_horizon: bool,
    /// A link carried by horizon: the place the `PipeHead` event of its last packet carried
    /// would have taken (see `packet_onto_horizon_link`).
    ghost: Option<celltrain_core::event_queue::Place>,
}

/// What became of a packet arriving at an analytic port (see [`PacketQueue::arrive_analytic`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Arrival {
    /// Onto the idle link now.
    Pass,
    /// Into the buffer, to start on the link at `start` and end at `done`.
    Waits { start: SimTime, done: SimTime },
    /// Refused by the buffer.
    Refused,
}

impl PacketQueue {
    pub fn new(rate: BitRate, limit_bytes: u64, limit_packets: Option<u64>) -> Self {
        PacketQueue {
            rate,
            limit_bytes,
            limit_packets,
            queue: VecDeque::new(),
            queued_bytes: 0,
            frame_overhead_bytes: 0,
            min_payload_bytes: 0,
            busy_until: SimTime::ZERO,
            stats: PacketPortStats::default(),
            classes: None,
            pushed_out: Vec::new(),
            changes: None,
            last_tx: (0, SimDuration::ZERO),
            analytic: false,
            starts: VecDeque::new(),
            policer: None,
            shaper: None,
            waited_for_tokens: false,
            pipe: VecDeque::new(),
            carried: false,
            by_horizon: false,
            ghost: None,
        }
    }

    /// Serves packets by strict priority of their route's class (`class_of_route`, 0 first),
    /// FIFO within a class, over the same shared buffer.
    pub fn with_priority(mut self, class_of_route: std::sync::Arc<[u8]>) -> Self {
        self.classes = Some(PriorityClasses::new(class_of_route));
        self
    }

    /// Whether the port may run analytically (`analytic`), on a link with a delay or not: a
    /// drop-tail FIFO, not recorded on change, not shaped (the plan adds the options and that
    /// the link is not captured).
    pub(super) fn may_run_analytically(&self, delayed: bool) -> bool {
        delayed && !self.is_priority() && self.changes.is_none() && self.shaper().is_none()
    }

    /// What the port counted (since the window opened).
    pub fn stats(&self) -> &PacketPortStats {
        &self.stats
    }

    /// The buffer's limit in bytes (IP datagrams, headers included).
    pub fn limit_bytes(&self) -> u64 {
        self.limit_bytes
    }

    /// The buffer's limit in packets, if it has one.
    pub fn limit_packets(&self) -> Option<u64> {
        self.limit_packets
    }

    /// The queued bytes' changes, when a time series records them.
    pub fn changes(&self) -> Option<&celltrain_core::ChangeTrace> {
        self.changes.as_deref()
    }

    /// The queued bytes' changes are recorded from now on, into `rows` (before the run).
    pub(crate) fn record_changes(&mut self, rows: celltrain_core::RowPool) {
        self.changes = Some(Box::new(celltrain_core::ChangeTrace::new(0.0, rows)));
    }

    /// Plan: whether the port runs analytically.
    pub(super) fn runs_analytically(&self) -> bool {
        self.analytic
    }

    /// Plan: the port runs analytically when the options let it (`allowed`) and it may, on a
    /// link with a delay or not (`delayed`).
    pub(super) fn plan_analytic(&mut self, allowed: bool, delayed: bool) {
        self.analytic = allowed && self.may_run_analytically(delayed);
    }

    /// Plan: whether the port's link is carried ahead (`PortPlan::carry`).
    pub(super) fn plan_carried(&mut self, carried: bool) {
        self.carried = carried;
    }

    /// Plan: whether the port's link is carried by horizon (`horizon`).
    pub(super) fn plan_horizon(&mut self, by_horizon: bool) {
        self.by_horizon = by_horizon;
    }

    /// Packets in the buffer and on the link.
    pub(super) fn packets_in_flight(&self) -> u64 {
        self.pipe.len() as u64 + self.held() as u64
    }

    /// Whether packets are served by strict priority of class.
    pub fn is_priority(&self) -> bool {
        self.classes.is_some()
    }

    /// The buffer's policy in reports: a drop-tail FIFO whatever cell policy the switch names,
    /// or push-out between priority classes (`queueing = "priority"`).
    pub fn policy_name(&self) -> &'static str {
        if self.is_priority() {
            "push-out"
        } else {
            "tail-drop"
        }
    }

    /// A link with framing: every packet costs `overhead_bytes` more on the wire, and payloads
    /// shorter than `min_payload_bytes` are padded.
    pub fn with_framing(mut self, overhead_bytes: u64, min_payload_bytes: u64) -> Self {
        self.frame_overhead_bytes = overhead_bytes;
        self.min_payload_bytes = min_payload_bytes;
        self
    }

    /// Octets an IP packet of `ip_bytes` occupies on the wire.
    pub fn wire_bytes(&self, ip_bytes: u64) -> u64 {
        ip_bytes.max(self.min_payload_bytes) + self.frame_overhead_bytes
    }

    /// Time to serialise an IP packet of `ip_bytes` (and its framing) on this link, rounded up.
    pub fn tx_time(&self, ip_bytes: u64) -> SimDuration {
        self.rate.tx_time_ceil(self.wire_bytes(ip_bytes) * 8)
    }

    /// [`tx_time`](Self::tx_time), remembering the last size asked.
    #[inline]
    fn tx_time_cached(&mut self, ip_bytes: u64) -> SimDuration {
        if self.last_tx.0 != ip_bytes {
            self.last_tx = (ip_bytes, self.tx_time(ip_bytes));
        }
        self.last_tx.1
    }

    fn note_change(&mut self, now: SimTime) {
        self.stats.area +=
            u128::from(self.queued_bytes) * u128::from(now.saturating_since(self.stats.last_change).as_picos());
        self.stats.last_change = now;
    }

    /// Offers an arriving packet: queued, or refused (drop-tail) when it does not fit.
    #[inline(always)]
    pub fn offer(&mut self, packet: Packet, now: SimTime) -> Result<(), Packet> {
        self.stats.packets_in += 1;
        if self.shaper_refuses(packet.ip_bytes) {
            return Err(packet);
        }
        if !self.fits(packet.ip_bytes) && !self.push_out_for(&packet, now) {
            self.stats.dropped += 1;
            return Err(packet);
        }
        self.count_admitted(packet.ip_bytes, now);
        match &mut self.classes {
            None => self.queue.push_back(packet),
            Some(classes) => classes.push(packet),
        }
        if let Some(changes) = &mut self.changes {
            changes.note(now, self.queued_bytes as f64);
        }
        Ok(())
    }

    /// Whether a packet of `ip_bytes` fits in the buffer beside the packets waiting there.
    #[inline]
    pub(super) fn fits(&self, ip_bytes: u64) -> bool {
        self.queued_bytes + ip_bytes <= self.limit_bytes && self.limit_packets.is_none_or(|n| (self.len() as u64) < n)
    }

    /// The IP bytes of the packet that would be taken next.
    pub(super) fn head_bytes(&self) -> Option<u64> {
        match &self.classes {
            None => self.queue.front().map(|p| p.ip_bytes),
            Some(classes) => classes.peek().map(|p| p.ip_bytes),
        }
    }

    /// The counters and statistics of a packet of `ip_bytes` accepted into the buffer at `now`.
    #[inline]
    fn count_admitted(&mut self, ip_bytes: u64, now: SimTime) {
        self.note_change(now);
        self.queued_bytes += ip_bytes;
        self.stats.max_queue_bytes = self.stats.max_queue_bytes.max(self.queued_bytes);
    }

    /// A priority port makes room for `packet` by evicting packets of lower classes, if they
    /// hold enough (into `pushed_out`); false (nothing evicted) if they do not.
    fn push_out_for(&mut self, packet: &Packet, now: SimTime) -> bool {
        let Some(classes) = &self.classes else { return false };
        let class = classes.class_of(packet);
        let (bytes_below, count_below) = classes.below(class);
        let excess_bytes = (self.queued_bytes + packet.ip_bytes).saturating_sub(self.limit_bytes);
        let excess_count = self.limit_packets.map_or(0, |n| (classes.len() as u64 + 1).saturating_sub(n));
        if bytes_below < excess_bytes || (count_below as u64) < excess_count {
            return false;
        }
        self.note_change(now);
        let (mut freed_bytes, mut freed_count) = (0, 0);
        while freed_bytes < excess_bytes || freed_count < excess_count {
            let classes = self.classes.as_mut().expect("checked above");
            let victim = classes.push_out_below(class).expect("the lower classes hold enough");
            freed_bytes += victim.ip_bytes;
            freed_count += 1;
            self.queued_bytes -= victim.ip_bytes;
            self.stats.dropped += 1;
            self.pushed_out.push(victim);
        }
        true
    }

    /// A packet reaching an idle port with nothing queued: [`offer`](Self::offer) and
    /// [`take`](Self::take) at once (the same counters and statistics: it occupies the
    /// buffer for no time), without queueing it. True: it is to be sent now; false: refused.
    #[inline]
    pub fn pass(&mut self, packet: &Packet, now: SimTime) -> bool {
        debug_assert!(self.is_empty(), "passing a queue");
        if self.changes.is_some() {
            return self.offer(*packet, now).is_ok() && self.take(now).is_some();
        }
        self.stats.packets_in += 1;
        if self.shaper_refuses(packet.ip_bytes) {
            return false;
        }
        // (An empty priority port has nothing to push out.)
        if packet.ip_bytes > self.limit_bytes || self.limit_packets == Some(0) {
            self.stats.dropped += 1;
            return false;
        }
        self.shaper_sends(packet.ip_bytes, now);
        // Nothing queued since the last change: no area to add.
        self.stats.last_change = now;
        self.stats.max_queue_bytes = self.stats.max_queue_bytes.max(packet.ip_bytes);
        self.stats.packets_out += 1;
        self.stats.bytes_out += packet.ip_bytes;
        self.stats.wire_bytes_out += self.wire_bytes(packet.ip_bytes);
        true
    }

    /// Takes the head packet for transmission at `now`.
    #[inline(always)]
    pub fn take(&mut self, now: SimTime) -> Option<Packet> {
        let Some(classes) = &mut self.classes else {
            // (Counted from the head, then popped last, straight into the return value.)
            let ip_bytes = self.queue.front()?.ip_bytes;
            self.count_taken(ip_bytes, now);
            return self.queue.pop_front();
        };
        let packet = classes.pop()?;
        self.count_taken(packet.ip_bytes, now);
        Some(packet)
    }

    /// The counters and statistics of a packet of `ip_bytes` leaving the buffer at `now`.
    #[inline]
    fn count_taken(&mut self, ip_bytes: u64, now: SimTime) {
        self.shaper_sends(ip_bytes, now);
        self.note_change(now);
        self.queued_bytes -= ip_bytes;
        self.stats.packets_out += 1;
        self.stats.bytes_out += ip_bytes;
        self.stats.wire_bytes_out += self.wire_bytes(ip_bytes);
        if let Some(changes) = &mut self.changes {
            changes.note(now, self.queued_bytes as f64);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Packets in the buffer (waiting to start).
    pub fn len(&self) -> usize {
        self.classes.as_ref().map_or(self.queue.len(), PriorityClasses::len) + self.starts.len()
    }

    /// Packets in the buffer that are not on the link yet (an analytic port's are already in
    /// its pipe).
    pub fn held(&self) -> usize {
        self.len() - self.starts.len()
    }

    /// An analytic port: `packet` arrives at `now`. The packets whose start has come leave the
    /// buffer first (a departure due now goes before an arrival now); then it passes onto an
    /// idle link (counted in and out as by [`pass`](Self::pass)), or is admitted as by
    /// [`offer`](Self::offer) and waits, already given its start, or is refused. Returns what
    /// became of it, and how many packets started (left the buffer) meanwhile.
    #[inline]
    pub(super) fn arrive_analytic(&mut self, packet: &Packet, now: SimTime) -> (Arrival, u64) {
        debug_assert!(self.analytic && self.classes.is_none() && self.queue.is_empty());
        let started = self.release(now);
        if now >= self.busy_until {
            debug_assert!(self.starts.is_empty(), "every start before the transmitter is free has come");
            let arrival = if self.pass(packet, now) { Arrival::Pass } else { Arrival::Refused };
            return (arrival, started);
        }
        self.stats.packets_in += 1;
        if !self.fits(packet.ip_bytes) {
            self.stats.dropped += 1;
            return (Arrival::Refused, started);
        }
        self.count_admitted(packet.ip_bytes, now);
        let start = self.busy_until;
        self.starts.push_back((start, packet.ip_bytes));
        self.busy_until = start + self.tx_time_cached(packet.ip_bytes);
        (Arrival::Waits { start, done: self.busy_until }, started)
    }

    /// An analytic port: the packets whose start has come by `now` leave the buffer, each at its
    /// start time; returns how many.
    #[inline]
    fn release(&mut self, now: SimTime) -> u64 {
        let mut n = 0;
        while let Some(&(start, ip_bytes)) = self.starts.front() {
            if start > now {
                break;
            }
            self.starts.pop_front();
            self.count_taken(ip_bytes, start);
            n += 1;
        }
        n
    }
    pub fn queued_bytes(&self) -> u64 {
        self.queued_bytes
    }

    /// Time-weighted mean queue in bytes from the window start to `now`.
    pub fn mean_queue_bytes(&self, now: SimTime) -> f64 {
        let span = now.saturating_since(self.stats.window_start).as_picos();
        if span == 0 {
            return self.queued_bytes as f64;
        }
        let area = self.stats.area
            + u128::from(self.queued_bytes) * u128::from(now.saturating_since(self.stats.last_change).as_picos());
        area as f64 / span as f64
    }

    pub fn open_window(&mut self, now: SimTime) {
        self.stats = PacketPortStats {
            queued_at_start: self.len() as u64,
            max_queue_bytes: self.queued_bytes,
            last_change: now,
            window_start: now,
            ..PacketPortStats::default()
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::Payload;
    use celltrain_core::ids::{FlowId, RouteId};

    fn packet(ip_bytes: u64) -> Packet {
        Packet {
            flow: FlowId(0),
            payload: Payload::Udp { seq: 0 },
            app_bytes: ip_bytes - 28,
            ip_bytes,
            sent_at: SimTime::ZERO,
            route: RouteId(0),
            hop: 0,
            counted: true,
        }
    }

    /// 10 Mbit/s: a 1500-byte datagram takes exactly 1.2 ms; in an Ethernet frame 1538
    /// octets on the wire (1.2304 ms), and a 40-byte ACK is padded to 46: 84 octets, 67.2 µs.
    #[test]
    fn serialisation_time_is_exact() {
        let q = PacketQueue::new(BitRate::from_bps(10_000_000), 10_000, None);
        assert_eq!(q.tx_time(1500), SimDuration::from_micros(1200));
        let e = PacketQueue::new(BitRate::from_bps(10_000_000), 10_000, None).with_framing(38, 46);
        assert_eq!(e.tx_time(1500), SimDuration::from_nanos(1_230_400));
        assert_eq!(e.tx_time(40), SimDuration::from_nanos(67_200));
    }

    /// Drop-tail on bytes: 3 × 1500 fit in 4500 bytes, the fourth does not, a 40-byte one
    /// neither (the limit is exact); the counters keep their identity.
    #[test]
    fn byte_limit_is_exact_and_counted() {
        let t = SimTime::ZERO;
        let mut q = PacketQueue::new(BitRate::from_bps(10_000_000), 4500, None);
        for _ in 0..3 {
            assert!(q.offer(packet(1500), t).is_ok());
        }
        assert!(q.offer(packet(1500), t).is_err());
        assert!(q.offer(packet(40), t).is_err());
        assert_eq!((q.len(), q.queued_bytes(), q.stats.max_queue_bytes), (3, 4500, 4500));
        assert_eq!(q.take(t).map(|p| p.ip_bytes), Some(1500));
        assert!(q.offer(packet(40), t).is_ok(), "room again after a departure");
        let s = &q.stats;
        assert_eq!(s.packets_in, s.packets_out + s.dropped + q.len() as u64);
        assert_eq!((s.packets_in, s.packets_out, s.dropped, s.bytes_out), (6, 1, 2, 1500));
    }

    /// Passing an idle port is offering and taking at once: the same counters, maximum and
    /// time-weighted mean queue, for packets that fit and packets refused (by bytes or count).
    #[test]
    fn passing_is_offer_then_take() {
        let ms = |x: u64| SimTime::ZERO + SimDuration::from_millis(x);
        for (limit_bytes, limit_packets) in [(4500, None), (1000, None), (1_000_000, Some(0)), (4500, Some(1))] {
            let mut a = PacketQueue::new(BitRate::from_bps(10_000_000), limit_bytes, limit_packets);
            let mut b = PacketQueue::new(BitRate::from_bps(10_000_000), limit_bytes, limit_packets);
            a.open_window(ms(0));
            b.open_window(ms(0));
            // Some queueing first, so that the mean has an area to keep.
            for q in [&mut a, &mut b] {
                let _ = q.offer(packet(40), ms(1));
                let _ = q.take(ms(3));
            }
            for (t, bytes) in [(5, 1500), (7, 40), (9, 1500)] {
                let offered = a.offer(packet(bytes), ms(t)).is_ok();
                let taken = offered && a.take(ms(t)).is_some();
                assert_eq!(b.pass(&packet(bytes), ms(t)), taken, "limit {limit_bytes} / {limit_packets:?}");
            }
            assert_eq!(a.stats, b.stats);
            assert_eq!(a.mean_queue_bytes(ms(12)), b.mean_queue_bytes(ms(12)));
        }
    }

    /// An analytic port's buffer is the event-run one's: offering packets as they arrive and
    /// releasing each at its start time gives the same counters, maximum and time-weighted
    /// mean as offering them and taking each when the transmitter comes free, with refusals by
    /// bytes and by count; each accepted packet starts when the one before it is done.
    #[test]
    fn analytic_buffer_is_offer_then_take() {
        let us = |x: u64| SimTime::ZERO + SimDuration::from_micros(x);
        for (limit_bytes, limit_packets) in [(4500, None), (3000, None), (1_000_000, Some(2))] {
            let rate = BitRate::from_bps(10_000_000);
            let mut events = PacketQueue::new(rate, limit_bytes, limit_packets);
            let mut analytic = PacketQueue::new(rate, limit_bytes, limit_packets);
            analytic.analytic = true;
            events.open_window(us(0));
            analytic.open_window(us(0));
            // 1500 bytes take 1200 us, 40 bytes 32 us: a busy period with arrivals between
            // departures, at a departure's instant and past the buffer's limits.
            let arrivals =
                [(0, 1500), (100, 1500), (200, 40), (300, 1500), (400, 1500), (1200, 1500), (2400, 40), (2500, 1500)];
            // The event run: the first passes; each `PortFree` takes the head when due.
            let mut starts = Vec::new();
            for &(t, bytes) in &arrivals {
                while events.busy_until <= us(t) && !events.is_empty() {
                    let at = events.busy_until;
                    let p = events.take(at).unwrap();
                    starts.push(at);
                    events.busy_until = at + events.tx_time(p.ip_bytes);
                }
                if events.is_empty() && us(t) >= events.busy_until {
                    assert!(events.pass(&packet(bytes), us(t)));
                    starts.push(us(t));
                    events.busy_until = us(t) + events.tx_time(bytes);
                } else {
                    let _ = events.offer(packet(bytes), us(t));
                }
            }
            let mut analytic_starts = Vec::new();
            for &(t, bytes) in &arrivals {
                match analytic.arrive_analytic(&packet(bytes), us(t)).0 {
                    Arrival::Pass => {
                        // (The network then sends it: `packet_send`.)
                        analytic_starts.push(us(t));
                        analytic.busy_until = us(t) + analytic.tx_time(bytes);
                    }
                    Arrival::Waits { start, .. } => analytic_starts.push(start),
                    Arrival::Refused => {}
                }
            }
            let end = us(10_000);
            loop {
                let at = events.busy_until;
                let Some(p) = events.take(at) else { break };
                starts.push(at);
                events.busy_until = at + events.tx_time(p.ip_bytes);
            }
            analytic.release(end);
            assert_eq!(analytic_starts, starts, "limit {limit_bytes} / {limit_packets:?}");
            assert_eq!(analytic.stats, events.stats, "limit {limit_bytes} / {limit_packets:?}");
            assert_eq!(analytic.mean_queue_bytes(end), events.mean_queue_bytes(end));
            assert!(analytic.stats.dropped > 0, "a refusal is exercised");
        }
    }

    /// Drop-tail on packets: the count limit binds before the byte limit.
    #[test]
    fn packet_limit_binds_first() {
        let t = SimTime::ZERO;
        let mut q = PacketQueue::new(BitRate::from_bps(10_000_000), 1_000_000, Some(2));
        assert!(q.offer(packet(40), t).is_ok() && q.offer(packet(40), t).is_ok());
        assert!(q.offer(packet(40), t).is_err());
        assert_eq!(q.len(), 2);
    }

    /// The time-averaged queue: 3000 bytes for the first half of the window, 1500 for the
    /// second: 2250 on average; a window opened with packets queued counts them as queued at start.
    #[test]
    fn mean_queue_is_time_weighted() {
        let mut q = PacketQueue::new(BitRate::from_bps(10_000_000), 10_000, None);
        let t0 = SimTime::ZERO;
        q.offer(packet(1500), t0).unwrap();
        q.offer(packet(1500), t0).unwrap();
        q.open_window(t0);
        assert_eq!(q.stats.queued_at_start, 2);
        q.take(t0 + SimDuration::from_millis(1)).unwrap();
        let mean = q.mean_queue_bytes(t0 + SimDuration::from_millis(2));
        assert!((mean - 2250.0).abs() < 1e-9, "{mean}");
    }
}
