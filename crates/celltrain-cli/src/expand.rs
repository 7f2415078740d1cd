//! `celltrain check --expand` and `--dot`: the network a scenario expands to, as text and as
//! Graphviz, so that a user sees which nodes, ports and routes their `count`s, `{i}`s and
//! paths made before running anything.

use celltrain::network::{Hop, Mode, Network, NodeKind};
use std::fmt::Write as _;

fn kind_name(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::Host => "host",
        NodeKind::Switch => "switch",
        NodeKind::Router => "router",
    }
}

/// The expanded network: nodes, ports (each direction of a link), VCs with their routes,
/// flows with their hops, and the bottleneck.
pub fn text(net: &Network) -> String {
    let mut out = String::new();
    let mode = if net.mode() == Mode::Packet { "packet" } else { "cell" };
    let _ = writeln!(out, "mode {mode}");
    let _ = writeln!(out, "\nnodes ({})", net.nodes().len());
    for n in net.nodes() {
        let _ = writeln!(out, "  {:<16} {}", n.name, kind_name(n.kind));
    }
    let _ = writeln!(out, "\nports ({}; one per direction of each link)", net.ports().len());
    let _ = writeln!(out, "  {:<20} {:>16} {:>12} {:>16}  policy", "port", "rate", "delay", "buffer");
    for p in net.ports() {
        let buffer = match &p.packets {
            Some(q) if q.limit_bytes() < u64::MAX / 4 => format!("{} B", q.limit_bytes()),
            Some(_) => "unlimited".to_string(),
            None => {
                let pools: Vec<String> = p.queue.pool_capacities().map(|c| c.to_string()).collect();
                format!("{} cells", pools.join("+"))
            }
        };
        let policy = p.packets.as_ref().map_or_else(|| p.queue.policy_name(), |q| q.policy_name());
        let (rate, delay) = (p.line_rate.to_string(), p.delay().to_string());
        let _ = writeln!(out, "  {:<20} {rate:>16} {delay:>12} {buffer:>16}  {policy}", p.name);
    }
    if !net.vcs().is_empty() {
        let _ = writeln!(out, "\nVCs ({})", net.vcs().len());
        for v in net.vcs() {
            let route: Vec<&str> = v.route.iter().map(|&(port, _)| net.ports()[port.index()].name.as_str()).collect();
            let pcr = v.pcr.to_string();
            let _ = writeln!(out, "  {:<16} {:<8} pcr {pcr:<14} {}", v.name, v.category.name(), route.join(" "));
        }
    }
    let _ = writeln!(out, "\nflows ({})", net.flows().len());
    for f in net.flows() {
        let hops: Vec<String> = net.routes()[f.route.index()]
            .hops
            .iter()
            .map(|h| match *h {
                Hop::Vc(v) => format!("vc {}", net.vcs()[v.index()].name),
                Hop::Port(p) => format!("link {}", net.ports()[p.index()].name),
            })
            .collect();
        let _ = writeln!(out, "  {:<16} {:<6} {}", f.name, f.kind.name(), hops.join(", "));
    }
    let bottleneck = net.bottleneck().map_or("-".to_string(), |b| net.ports()[b.index()].name.clone());
    let _ = writeln!(out, "\nbottleneck {bottleneck}");
    out
}

/// The network as a Graphviz digraph: one node per node (hosts as boxes, switches as
/// ellipses, routers as diamonds), one edge per port labelled with its rate and delay, the
/// bottleneck in red.
pub fn dot(net: &Network) -> String {
    let mut out = String::from("digraph celltrain {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n");
    for n in net.nodes() {
        let shape = match n.kind {
            NodeKind::Host => "box",
            NodeKind::Switch => "ellipse",
            NodeKind::Router => "diamond",
        };
        let _ = writeln!(out, "  {} [shape={shape}];", quote(&n.name));
    }
    for (i, p) in net.ports().iter().enumerate() {
        let (from, to) = (&net.nodes()[p.from.index()].name, &net.nodes()[p.to.index()].name);
        let hot = net.bottleneck().is_some_and(|b| b.index() == i);
        let style = if hot { ", color=red, penwidth=2" } else { "" };
        let label = quote(&format!("{} / {}", p.line_rate, p.delay()));
        let _ = writeln!(out, "  {} -> {} [label={label}{style}];", quote(from), quote(to));
    }
    out.push_str("}\n");
    out
}

/// A Graphviz quoted ID.
fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}
