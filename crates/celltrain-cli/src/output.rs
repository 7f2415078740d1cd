//! Result files and the printed summary.
//!
//! Files are written to a temporary name in the target directory and renamed into place, so
//! a reader never sees a partial result file.

use celltrain::metrics::Summary;
use celltrain::trace::TimeSeries;
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::Path;

fn write_atomic(path: &Path, contents: &str) -> io::Result<()> {
    let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
    fs::write(&tmp, contents)?;
    fs::rename(&tmp, path)
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv(header: &[&str], rows: impl Iterator<Item = Vec<String>>) -> String {
    let mut out = header.join(",");
    out.push('\n');
    for row in rows {
        out.push_str(&row.iter().map(|f| csv_field(f)).collect::<Vec<_>>().join(","));
        out.push('\n');
    }
    out
}

/// Writes `summary.json`, `flows.csv`, `vcs.csv`, `ports.csv` and, when recorded,
/// `timeseries.csv` into `dir`.
pub fn write_results(dir: &Path, s: &Summary, series: Option<&TimeSeries>) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    if let Some(series) = series {
        let mut text = Vec::new();
        series.write_csv(&mut text)?;
        write_atomic(&dir.join("timeseries.csv"), &String::from_utf8(text).expect("CSV is UTF-8"))?;
    }
    let flows = csv(
        &[
            "name",
            "kind",
            "vc",
            "goodput_bps",
            "packets_sent",
            "packets_delivered",
            "packets_lost",
            "packet_loss_ratio",
            "bytes_delivered",
        ],
        s.flows.iter().map(|f| {
            vec![
                f.name.clone(),
                f.kind.clone(),
                f.vc.clone(),
                f.goodput_bps.to_string(),
                f.packets_sent.to_string(),
                f.packets_delivered.to_string(),
                f.packets_lost.to_string(),
                f.packet_loss_ratio.to_string(),
                f.bytes_delivered.to_string(),
            ]
        }),
    );
    let vcs = csv(
        &[
            "name",
            "category",
            "cells_sent",
            "cells_delivered",
            "cells_dropped",
            "clr",
            "frames_sent",
            "frames_delivered",
            "frames_lost",
            "flr",
            "corrupted_pdus",
        ],
        s.vcs.iter().map(|v| {
            vec![
                v.name.clone(),
                v.category.clone(),
                v.cells_sent.to_string(),
                v.cells_delivered.to_string(),
                v.cells_dropped.to_string(),
                v.clr.to_string(),
                v.frames_sent.to_string(),
                v.frames_delivered.to_string(),
                v.frames_lost.to_string(),
                v.flr.to_string(),
                v.corrupted_pdus.to_string(),
            ]
        }),
    );
    let ports = csv(
        &[
            "name",
            "rate_bps",
            "policy",
            "cells_in",
            "cells_out",
            "dropped_total",
            "dropped_buffer_full",
            "dropped_epd",
            "dropped_ppd",
            "dropped_clp1",
            "queued_at_start",
            "queued_at_end",
            "max_queue_cells",
            "mean_queue_cells",
            "utilization",
        ],
        s.ports.iter().map(|p| {
            let d = |k: &str| p.dropped.get(k).copied().unwrap_or(0).to_string();
            vec![
                p.name.clone(),
                p.rate_bps.to_string(),
                p.policy.clone(),
                p.cells_in.to_string(),
                p.cells_out.to_string(),
                p.dropped_total.to_string(),
                d("buffer_full"),
                d("epd"),
                d("ppd"),
                d("clp1"),
                p.queued_at_start.to_string(),
                p.queued_at_end.to_string(),
                p.max_queue_cells.to_string(),
                p.mean_queue_cells.to_string(),
                p.utilization.to_string(),
            ]
        }),
    );
    write_atomic(&dir.join("flows.csv"), &flows)?;
    write_atomic(&dir.join("vcs.csv"), &vcs)?;
    write_atomic(&dir.join("ports.csv"), &ports)?;
    // Last, so that a present summary.json means a complete result directory.
    let json = serde_json::to_string_pretty(s).expect("summary serialises") + "\n";
    write_atomic(&dir.join("summary.json"), &json)
}

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
    let _ = writeln!(
        out,
        "\n{:<14} {:>8} {:>12} {:>12} {:>9} {:>9} {:>9}",
        "vc", "category", "cells sent", "dropped", "CLR", "frames", "FLR"
    );
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
    if s.categories.len() > 1 {
        let _ = writeln!(out, "\n{:<10} {:>12} {:>12} {:>12}", "category", "cells sent", "dropped", "CLR");
        for c in &s.categories {
            let _ = writeln!(out, "{:<10} {:>12} {:>12} {:>12.3e}", c.category, c.cells_sent, c.cells_dropped, c.clr);
        }
    }
    let _ = writeln!(
        out,
        "\n{:<16} {:>12} {:>10} {:>10} {:>10} {:>7}",
        "port (busy)", "cells out", "dropped", "max queue", "mean q", "util"
    );
    for p in s.ports.iter().filter(|p| p.cells_in > 0) {
        let _ = writeln!(
            out,
            "{:<16} {:>12} {:>10} {:>10} {:>10.1} {:>6.1}%",
            p.name,
            p.cells_out,
            p.dropped_total,
            p.max_queue_cells,
            p.mean_queue_cells,
            p.utilization * 100.0
        );
    }
    let _ = writeln!(out, "\n{} events in {:.3} s wall, trace {}", s.events, s.wall_s, s.trace_hash);
    out
}
