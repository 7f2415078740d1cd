//! The topology pass: one output port per direction of each link.

use super::*;

/// One direction of a link: (from, to, rate, delay, what it carries).
pub(super) type PortSpec = (NodeId, NodeId, BitRate, SimDuration, Medium);

/// The ports of the links, and which port joins two nodes.
pub(super) struct Topology<'a> {
    pub(super) ports: Vec<PortSpec>,
    links: &'a [LinkSpec],
    link_of: &'a BTreeMap<(NodeId, NodeId), usize>,
}

impl<'a> Topology<'a> {
    pub(super) fn new(nb: &'a NetworkBuilder) -> Self {
        // In packet mode every ATM link carries packets.
        let mut ports = Vec::with_capacity(2 * nb.links.len());
        for l in &nb.links {
            let medium = if nb.mode == Mode::Packet && l.medium == Medium::Atm { Medium::Packet } else { l.medium };
            ports.push((l.a, l.b, l.rate, l.delay, medium));
            ports.push((l.b, l.a, l.rate, l.delay, medium));
        }
        Topology { ports, links: &nb.links, link_of: &nb.link_of }
    }

    /// The port from `from` to `to`: link i gives ports 2i (a to b) and 2i + 1 (b to a).
    pub(super) fn port_of(&self, from: NodeId, to: NodeId) -> PortId {
        let i = *self.link_of.get(&(from, to)).expect("link checked in add_route");
        PortId::from_index(2 * i + usize::from(self.links[i].a != from))
    }
}
