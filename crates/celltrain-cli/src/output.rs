//! What a run leaves: its result files, written by the library's one result writer
//! ([`celltrain::report`], which the Python package uses too), and the printed summary.

use celltrain::metrics::Summary;
use std::fmt::Write as _;

pub use celltrain::report::write_results;

fn mbps(bps: f64) -> String {
    format!("{:.3}", bps / 1e6)
}

/// A readable, fixed-width rendering of a summary.
pub fn summary_table(s: &Summary) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} — {}", s.scenario, s.title);
    let params: Vec<String> = s.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let _ = writeln!(
        out,
        "seed {}  duration {} s  warm-up {} s  params: {}",
        s.seed,
        s.duration_s,
        s.warmup_s,
        if params.is_empty() { "-".to_string() } else { params.join(" ") }
    );
    let a = &s.aggregate;
    let opt = |x: Option<f64>, f: &dyn Fn(f64) -> String| x.map_or("-".to_string(), f);
    let _ = writeln!(
        out,
        "aggregate goodput {} Mbit/s  max {} Mbit/s  efficiency {}  fairness {}  (bottleneck {})",
        mbps(a.goodput_bps),
        opt(a.max_goodput_bps, &mbps),
        opt(a.efficiency, &|e| format!("{:.2} %", e * 100.0)),
        opt(a.fairness_index, &|f| format!("{f:.3}")),
        a.bottleneck.as_deref().unwrap_or("-")
    );
    // Where flows cross different links (a parking lot), the aggregate goodput is not what
    // the bottleneck carried: say what the efficiency counts.
    if let (Some(e), Some(m)) = (a.efficiency, a.max_goodput_bps) {
        if (e * m - a.goodput_bps).abs() > 1e-6 * a.goodput_bps.max(1.0) {
            let _ = writeln!(
                out,
                "  (efficiency: the {} Mbit/s of the flows crossing the bottleneck; each port's own in the port tables)",
                mbps(e * m)
            );
        }
    }
    let packet_flows: Vec<_> = s.flows.iter().filter(|f| f.kind != "onoff").collect();
    if !packet_flows.is_empty() {
        let _ = writeln!(
            out,
            "\n{:<14} {:>6} {:>14} {:>10} {:>10} {:>9}",
            "flow", "kind", "goodput Mbit/s", "sent", "delivered", "PLR"
        );
        for f in packet_flows {
            let _ = writeln!(
                out,
                "{:<14} {:>6} {:>14} {:>10} {:>10} {:>8.3}%",
                f.name,
                f.kind,
                mbps(f.goodput_bps),
                f.packets_sent,
                f.packets_delivered,
                f.packet_loss_ratio * 100.0
            );
        }
    }
    if !s.vcs.is_empty() {
        let _ = writeln!(
            out,
            "\n{:<14} {:>8} {:>12} {:>12} {:>9} {:>9} {:>9}",
            "vc", "category", "cells sent", "dropped", "CLR", "frames", "FLR"
        );
    }
    for v in &s.vcs {
        let _ = writeln!(
            out,
            "{:<14} {:>8} {:>12} {:>12} {:>8.4}% {:>9} {:>8.3}%",
            v.name,
            v.category,
            v.cells_sent,
            v.cells_dropped,
            v.clr * 100.0,
            v.frames_sent,
            v.flr * 100.0
        );
    }
    if !s.abr.is_empty() {
        let _ = writeln!(
            out,
            "\n{:<14} {:>12} {:>9} {:>9} {:>9} {:>10} {:>9}",
            "abr vc", "ACR Mbit/s", "FRM sent", "BRM sent", "BRM recv", "max queue", "refused"
        );
        for a in &s.abr {
            let _ = writeln!(
                out,
                "{:<14} {:>12} {:>9} {:>9} {:>9} {:>10} {:>9}",
                a.vc,
                mbps(a.acr_cells_per_s * 424.0),
                a.frm_sent + a.out_of_rate_frm_sent,
                a.brm_sent,
                a.brm_received,
                a.max_queue_cells,
                a.cells_refused
            );
        }
    }
    if s.categories.len() > 1 {
        let _ = writeln!(out, "\n{:<10} {:>12} {:>12} {:>12}", "category", "cells sent", "dropped", "CLR");
        for c in &s.categories {
            let _ = writeln!(out, "{:<10} {:>12} {:>12} {:>12.3e}", c.category, c.cells_sent, c.cells_dropped, c.clr);
        }
    }
    if s.ports.iter().any(|p| p.cells_in > 0) {
        let _ = writeln!(
            out,
            "\n{:<16} {:>12} {:>10} {:>10} {:>10} {:>7} {:>7}",
            "port (busy)", "cells out", "dropped", "max queue", "mean q", "util", "effic."
        );
    }
    for p in s.ports.iter().filter(|p| p.cells_in > 0) {
        let _ = writeln!(
            out,
            "{:<16} {:>12} {:>10} {:>10} {:>10.1} {:>6.1}% {:>7}",
            p.name,
            p.cells_out,
            p.dropped_total,
            p.max_queue_cells,
            p.mean_queue_cells,
            p.utilization * 100.0,
            p.efficiency.map_or("-".to_string(), |e| format!("{:.1}%", e * 100.0))
        );
    }
    packet_port_table(&mut out, s);
    if !s.refused_vcs.is_empty() {
        let _ = writeln!(out, "\n{} VC(s) refused by connection admission control:", s.refused_vcs.len());
        for r in &s.refused_vcs {
            let why = r.reason.as_deref().map(|w| format!(" ({w})")).unwrap_or_default();
            let _ = writeln!(out, "  {:<14} {:>8}  at {} by the {} rule{why}", r.flow, r.category, r.port, r.rule);
        }
    }
    let _ = writeln!(out, "\n{} events in {:.3} s wall, trace {}", s.events, s.wall_s, s.trace_hash);
    out
}

/// The ports of packet links that carried packets (packet mode, and packet media in cell
/// mode): their own counters, in packets and bytes.
fn packet_port_table(out: &mut String, s: &Summary) {
    let busy: Vec<_> = s.ports.iter().filter(|p| p.packets_in.is_some_and(|n| n > 0)).collect();
    if busy.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n{:<16} {:>10} {:>10} {:>10} {:>12} {:>12} {:>7}",
        "packet port", "policy", "pkts out", "dropped", "max queue B", "mean q B", "util"
    );
    for p in busy {
        let _ = writeln!(
            out,
            "{:<16} {:>10} {:>10} {:>10} {:>12} {:>12.0} {:>6.1}%",
            p.name,
            p.policy,
            p.packets_out.unwrap_or(0),
            p.packets_dropped.unwrap_or(0),
            p.max_queue_bytes.unwrap_or(0),
            p.mean_queue_bytes.unwrap_or(0.0),
            p.utilization * 100.0
        );
    }
}
