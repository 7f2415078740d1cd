//! The address map written beside pcap captures (`addresses.csv`): which IP address stands
//! for which node, and which ports for which flow, so that a capture opened in Wireshark reads
//! as the scenario (captures carry synthetic addresses: 10.x.y.z from the node's index).

use super::record::node_address;
use super::{FlowKind, Network, NodeKind};
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

/// The map's file name in the output directory.
pub const ADDRESS_MAP_FILE: &str = "addresses.csv";

/// UDP datagrams carry these ports in captures.
const UDP_PORTS: (u16, u16) = (5000, 5001);

impl Network {
    /// The address map: one row per node (its address), then one per flow (its source's and
    /// destination's addresses and ports; a TCP flow's ports are its first connection's, and
    /// `files` transfers take the next source ports in turn).
    pub fn address_map_csv(&self) -> String {
        let mut out = String::from("name,role,address,port,peer,peer_address,peer_port\n");
        for (i, node) in self.nodes.iter().enumerate() {
            let role = match node.kind {
                NodeKind::Host => "host",
                NodeKind::Switch => "switch",
                NodeKind::Router => "router",
            };
            let id = celltrain_core::ids::NodeId::from_index(i);
            let _ = writeln!(out, "{},{role},{},,,,", csv(&node.name), node_address(id));
        }
        for flow in &self.flows {
            let route = &self.routes[flow.route.index()];
            let (sport, dport) = match (flow.kind, flow.conns) {
                (FlowKind::Tcp, Some((sender, _))) => {
                    let e = &self.conns[sender.index()].endpoint;
                    (e.local_port(), e.remote_port())
                }
                _ => UDP_PORTS,
            };
            let role = format!("{} flow", flow.kind.name());
            let _ = writeln!(
                out,
                "{},{role},{},{sport},{},{},{dport}",
                csv(&flow.name),
                node_address(route.src),
                csv(&self.nodes[route.dst.index()].name),
                node_address(route.dst)
            );
        }
        out
    }

    /// Writes the address map into `dir`; returns its path.
    pub(super) fn write_address_map(&self, dir: &Path) -> io::Result<PathBuf> {
        let path = dir.join(ADDRESS_MAP_FILE);
        std::fs::write(&path, self.address_map_csv())?;
        Ok(path)
    }
}

/// A CSV field, quoted when it holds a separator or a quote.
fn csv(field: &str) -> String {
    if field.contains([',', '"', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}
