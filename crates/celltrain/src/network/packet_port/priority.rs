//! Strict priority at a packet port (`queueing = "priority"`): one FIFO per service category,
//! served in the order the ATM ports serve them (CBR, rt-VBR, nrt-VBR, ABR, GFR, UBR), each
//! packet in the class of its flow's VC. The classes share the port's buffer (its byte and
//! packet limits), with push-out: a packet that does not fit evicts the newest packets of the
//! classes served after its own (the tail of the lowest non-empty class first) when they hold
//! enough to make room; if they do not, the arriving packet is dropped (tail drop) and nothing
//! is evicted. Without push-out a greedy low class keeps the shared buffer full and the high
//! class loses whatever arrives to a full buffer (two thirds of a 3 Mbit/s CBR flow's packets
//! in the overload of `tests/mixed_traffic.rs`, measured without push-out): priority would then
//! protect its delay but not its rate.

use crate::packet::Packet;
use celltrain_atm::ServiceCategory;
use std::collections::VecDeque;
use std::sync::Arc;

/// The class queues of one packet port.
pub struct PriorityClasses {
    /// Each route's class (its category's priority level, 0 served first), by route index.
    class_of_route: Arc<[u8]>,
    queues: [VecDeque<Packet>; ServiceCategory::COUNT],
    /// IP bytes queued per class.
    bytes: [u64; ServiceCategory::COUNT],
    len: usize,
}

impl PriorityClasses {
    pub fn new(class_of_route: Arc<[u8]>) -> Self {
        PriorityClasses { class_of_route, queues: Default::default(), bytes: [0; ServiceCategory::COUNT], len: 0 }
    }

    /// Packets queued, every class together.
    pub fn len(&self) -> usize {
        self.len
    }

    /// A packet's class (0 served first); a route without one is served last.
    pub fn class_of(&self, packet: &Packet) -> usize {
        self.class_of_route.get(packet.route.index()).map_or(ServiceCategory::COUNT - 1, |&c| usize::from(c))
    }

    pub fn push(&mut self, packet: Packet) {
        let class = self.class_of(&packet);
        self.bytes[class] += packet.ip_bytes;
        self.queues[class].push_back(packet);
        self.len += 1;
    }

    /// The packet [`pop`](Self::pop) would take.
    pub fn peek(&self) -> Option<&Packet> {
        self.queues.iter().find_map(VecDeque::front)
    }

    /// The head of the highest non-empty class.
    pub fn pop(&mut self) -> Option<Packet> {
        let (class, queue) = self.queues.iter_mut().enumerate().find(|(_, q)| !q.is_empty())?;
        let packet = queue.pop_front()?;
        self.bytes[class] -= packet.ip_bytes;
        self.len -= 1;
        Some(packet)
    }

    /// Bytes and packets queued in the classes served after `class`.
    pub fn below(&self, class: usize) -> (u64, usize) {
        let bytes = self.bytes[class + 1..].iter().sum();
        (bytes, self.queues[class + 1..].iter().map(VecDeque::len).sum())
    }

    /// Evicts the newest packet of the lowest non-empty class served after `class`.
    pub fn push_out_below(&mut self, class: usize) -> Option<Packet> {
        let (lowest, queue) = self.queues.iter_mut().enumerate().skip(class + 1).rev().find(|(_, q)| !q.is_empty())?;
        let packet = queue.pop_back()?;
        self.bytes[lowest] -= packet.ip_bytes;
        self.len -= 1;
        Some(packet)
    }
}

/// Each route's class, from its VC's category (by route index).
pub fn classes_of(categories: impl Iterator<Item = ServiceCategory>) -> Arc<[u8]> {
    categories.map(|c| c.priority() as u8).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::PacketQueue;
    use crate::packet::Payload;
    use celltrain_core::ids::{FlowId, RouteId};
    use celltrain_core::time::SimTime;
    use celltrain_core::units::BitRate;

    /// A 1500-byte packet of route 0 (CBR) or 1 (UBR), numbered `seq`.
    fn packet(route: u32, seq: u64) -> Packet {
        Packet {
            flow: FlowId(route),
            payload: Payload::Udp { seq },
            app_bytes: 1472,
            ip_bytes: 1500,
            sent_at: SimTime::ZERO,
            route: RouteId(route),
            hop: 0,
            counted: true,
        }
    }

    fn queue(limit_packets: Option<u64>) -> PacketQueue {
        let classes = classes_of([ServiceCategory::Cbr, ServiceCategory::Ubr].into_iter());
        PacketQueue::new(BitRate::from_bps(10_000_000), 4500, limit_packets).with_priority(classes)
    }

    /// CBR is served before UBR that arrived earlier; FIFO within a class.
    #[test]
    fn serves_by_class_then_fifo() {
        let (t, mut q) = (SimTime::ZERO, queue(None));
        for p in [packet(1, 0), packet(0, 1), packet(1, 2)] {
            q.offer(p, t).unwrap();
        }
        let order: Vec<u64> = std::iter::from_fn(|| q.take(t)).map(|p| p.payload_seq()).collect();
        assert_eq!(order, [1, 0, 2]);
    }

    /// A full buffer: an arriving CBR packet pushes out the newest UBR one; an arriving UBR
    /// packet, or a CBR one when only CBR is queued, is dropped and evicts nothing. Every
    /// eviction is a drop in the port's counters, whose identity holds.
    #[test]
    fn pushes_out_the_newest_lower_packet() {
        for limit_packets in [None, Some(3)] {
            let (t, mut q) = (SimTime::ZERO, queue(limit_packets));
            for seq in 0..3 {
                q.offer(packet(1, seq), t).unwrap();
            }
            q.offer(packet(0, 10), t).unwrap();
            assert_eq!(q.pushed_out.iter().map(|p| p.payload_seq()).collect::<Vec<_>>(), [2]);
            q.pushed_out.clear();
            assert!(q.offer(packet(1, 3), t).is_err() && q.pushed_out.is_empty());
            q.offer(packet(0, 11), t).unwrap();
            q.offer(packet(0, 12), t).unwrap();
            assert!(q.offer(packet(0, 13), t).is_err(), "only CBR queued: tail drop");
            assert_eq!(q.pushed_out.len(), 2);
            assert_eq!((q.len(), q.queued_bytes()), (3, 4500));
            let s = &q.stats;
            assert_eq!((s.packets_in, s.dropped), (8, 5));
            assert_eq!(s.packets_in, s.packets_out + s.dropped + q.len() as u64);
        }
    }

    impl Packet {
        fn payload_seq(&self) -> u64 {
            match self.payload {
                Payload::Udp { seq } => seq,
                Payload::Tcp { .. } => u64::MAX,
            }
        }
    }
}
