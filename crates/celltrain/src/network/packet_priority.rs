//! Strict priority at a packet port (`queueing = "priority"`): one FIFO per service category,
//! served in the order the ATM ports serve them (CBR, rt-VBR, nrt-VBR, ABR, GFR, UBR), each
//! packet in the class of its flow's VC. The classes share the port's buffer (its byte and
//! packet limits), with push-out: a packet that does not fit evicts the newest packets of the
//! classes served after its own (the tail of the lowest non-empty class first) when they hold
//! enough to make room; if they do not, the arriving packet is dropped (tail drop) and nothing
//! is evicted. Without push-out a greedy low class keeps the shared buffer full and the high
//! class loses whatever arrives to a full buffer (two thirds of a 3 Mbit/s CBR flow's packets
//! in `tests/mixed_traffic.rs`): priority would then protect its delay but not its rate.

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
