//! What a run leaves: its result files, written by the library's one result writer
//! ([`celltrain::report`], which the Python package uses too), and the printed summary.

use celltrain::metrics::{PortSummary, Summary};
use std::fmt::Write as _;

use celltrain::report::OutDir;
use std::path::Path;

/// Prepares `--out DIR` for a run of `network`: its captures go to a fresh staging directory.
pub fn stage(network: &mut celltrain::Network, dir: &Path) -> std::io::Result<OutDir> {
    let staged = OutDir::prepare(dir)?;
    network.attach_output(staged.staging())?;
    Ok(staged)
}

/// Finishes the captures and moves them, with the result files, into place.
pub fn commit(staged: OutDir, network: &mut celltrain::Network, summary: &Summary) -> std::io::Result<()> {
    network.finish_output()?;
    let series = network.recorder().series.as_ref().map(celltrain::report::series_csv);
    let files = celltrain::report::with_changes(celltrain::report::render(summary, series), network.changes_csv());
    staged.commit(&files)
}

/// A name from the scenario as a table shows it: control and Unicode format characters
/// (a newline, a bidi override) escaped, so they cannot break or reorder the table.
fn shown(name: &str) -> std::borrow::Cow<'_, str> {
    celltrain::file_names::escape_for_display(name)
}

fn mbps(bps: f64) -> String {
    format!("{:.3}", bps / 1e6)
}

/// How many busy ports the port table shows (`run --ports`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortRows {
    All,
    /// At most this many: the bottleneck and the busiest first when there are more.
    Most(usize),
}

impl PortRows {
    /// `all` or a positive count (the `--ports` flag).
    pub fn parse(text: &str) -> Result<PortRows, String> {
        match text.trim() {
            "all" => Ok(PortRows::All),
            n => match n.parse::<usize>() {
                Ok(n) if n > 0 => Ok(PortRows::Most(n)),
                _ => Err(format!("expected `all` or a positive number of ports, not {text:?}")),
            },
        }
    }
}

/// A readable, fixed-width rendering of a summary.
pub fn summary_table(s: &Summary, ports: PortRows) -> String {
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
    // The papers' mean CLR is over the connections' data VCs; TCP's acknowledgement VCs
    // lose almost nothing, so they are shown apart rather than averaged in.
    if let Some(clr) = a.mean_clr {
        let reverse = a.mean_clr_reverse.map_or(String::new(), |r| format!(", acknowledgement VCs {:.3} %", r * 100.0));
        let _ = writeln!(out, "mean CLR {:.3} % over the flows' data VCs{reverse}", clr * 100.0);
    }
    let packet_flows: Vec<_> = s.flows.iter().filter(|f| f.kind != "onoff").collect();
    if !packet_flows.is_empty() {
        let _ = writeln!(
            out,
            "\n{:<14} {:>6} {:>14} {:>10} {:>10} {:>9} {:>12}",
            "flow", "kind", "goodput Mbit/s", "sent", "delivered", "PLR", "queued (end)"
        );
        for f in packet_flows {
            let _ = writeln!(
                out,
                "{:<14} {:>6} {:>14} {:>10} {:>10} {:>8.3}% {:>12}",
                shown(&f.name),
                f.kind,
                mbps(f.goodput_bps),
                f.packets_sent,
                f.packets_delivered,
                f.packet_loss_ratio * 100.0,
                f.packets_queued_at_end
            );
        }
    }
    tcp_table(&mut out, s);
    if !s.vcs.is_empty() {
        let _ = writeln!(
            out,
            "\n{:<14} {:>8} {:>12} {:>12} {:>9} {:>9} {:>9} {:>11} {:>11}",
            "vc", "category", "cells sent", "dropped", "CLR", "frames", "FLR", "CTD mean", "CTD p99.9"
        );
    }
    for v in &s.vcs {
        let _ = writeln!(
            out,
            "{:<14} {:>8} {:>12} {:>12} {:>8.4}% {:>9} {:>8.3}% {:>11} {:>11}",
            shown(&v.name),
            v.category,
            v.cells_sent,
            v.cells_dropped,
            v.clr * 100.0,
            v.frames_sent,
            v.flr * 100.0,
            delay_text(v.delay.as_ref().map(|d| d.mean_s)),
            delay_text(v.delay.as_ref().map(|d| d.p999_s)),
        );
    }
    gfr_table(&mut out, s);
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
                shown(&a.vc),
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
        let _ = writeln!(
            out,
            "\n{:<10} {:>12} {:>12} {:>12} {:>11} {:>11}",
            "category", "cells sent", "dropped", "CLR", "CTD mean", "CTD p99.9"
        );
        for c in &s.categories {
            let _ = writeln!(
                out,
                "{:<10} {:>12} {:>12} {:>12.3e} {:>11} {:>11}",
                c.category,
                c.cells_sent,
                c.cells_dropped,
                c.clr,
                delay_text(c.delay.as_ref().map(|d| d.mean_s)),
                delay_text(c.delay.as_ref().map(|d| d.p999_s)),
            );
        }
    }
    let busy = s.ports.iter().filter(|p| p.cells_in > 0).collect();
    let (shown_ports, left_out) = most_used(busy, s, ports, |p| p.dropped_total);
    if !shown_ports.is_empty() {
        let _ = writeln!(
            out,
            "\n{:<16} {:>12} {:>10} {:>10} {:>10} {:>7} {:>7}",
            if left_out > 0 { "port (busiest)" } else { "port (busy)" },
            "cells out",
            "dropped",
            "max queue",
            "mean q",
            "util",
            "effic."
        );
    }
    for p in shown_ports {
        let _ = writeln!(
            out,
            "{:<16} {:>12} {:>10} {:>10} {:>10.1} {:>6.1}% {:>7}",
            shown(&p.name),
            p.cells_out,
            p.dropped_total,
            p.max_queue_cells,
            p.mean_queue_cells,
            p.utilization * 100.0,
            p.efficiency.map_or("-".to_string(), |e| format!("{:.1}%", e * 100.0))
        );
    }
    left_out_note(&mut out, left_out);
    packet_port_table(&mut out, s, ports);
    conditioning_table(&mut out, s);
    if !s.refused_vcs.is_empty() {
        let _ = writeln!(out, "\n{} VC(s) refused by connection admission control:", s.refused_vcs.len());
        for r in &s.refused_vcs {
            let why = r.reason.as_deref().map(|w| format!(" ({w})")).unwrap_or_default();
            let _ = writeln!(
                out,
                "  {:<14} {:>8}  at {} by the {} rule{why}",
                shown(&r.flow),
                r.category,
                shown(&r.port),
                r.rule
            );
        }
    }
    let _ = writeln!(out, "\n{} events in {:.3} s wall, trace {}", s.events, s.wall_s, s.trace_hash);
    out
}

/// The `busy` ports a table shows, and how many it leaves out: in the summary's order when all
/// fit; else the bottleneck first, then by `dropped`, then by utilization (the ports a reader
/// looks for), each tie in the summary's order.
fn most_used<'a>(
    mut busy: Vec<&'a PortSummary>,
    s: &Summary,
    rows: PortRows,
    dropped: impl Fn(&PortSummary) -> u64,
) -> (Vec<&'a PortSummary>, usize) {
    let most = match rows {
        PortRows::Most(n) if busy.len() > n => n,
        _ => return (busy, 0),
    };
    let bottleneck = s.aggregate.bottleneck.as_deref();
    busy.sort_by(|a, b| {
        let key = |p: &PortSummary| (Some(p.name.as_str()) != bottleneck, std::cmp::Reverse(dropped(p)));
        key(a).cmp(&key(b)).then(b.utilization.total_cmp(&a.utilization))
    });
    let left_out = busy.len() - most;
    busy.truncate(most);
    (busy, left_out)
}

fn left_out_note(out: &mut String, left_out: usize) {
    if left_out > 0 {
        let _ = writeln!(
            out,
            "  … and {left_out} more busy ports, less used (all of them: --ports all, or ports.csv with --out)"
        );
    }
}

/// The GFR VCs' contracts and what their ingress F-GCRA decided (BN01's measures): the MCR
/// each VC was promised, and the frames it found eligible for it or tagged CLP = 1.
fn gfr_table(out: &mut String, s: &Summary) {
    let gfr: Vec<_> = s.vcs.iter().filter_map(|v| v.gfr.as_ref().map(|g| (v, g))).collect();
    if gfr.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n{:<14} {:>7} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "gfr vc", "conf.", "MCR Mbit/s", "eligible", "ineligible", "tagged fr.", "tagged cl."
    );
    for (v, g) in gfr {
        let _ = writeln!(
            out,
            "{:<14} {:>7} {:>10} {:>10} {:>10} {:>10} {:>10}",
            shown(&v.name),
            g.conformance,
            mbps(g.mcr_bps as f64),
            g.eligible_frames,
            g.ineligible_frames,
            g.tagged_frames,
            g.tagged_cells
        );
    }
    let _ = writeln!(out, "  (frames counted by the ingress F-GCRA from the start of the run, not from the warm-up)");
}

/// The ports of packet links that carried packets (packet mode, and packet media in cell
/// mode): their own counters, in packets and bytes.
fn packet_port_table(out: &mut String, s: &Summary, rows: PortRows) {
    let busy: Vec<_> = s.ports.iter().filter(|p| p.packets_in.is_some_and(|n| n > 0)).collect();
    if busy.is_empty() {
        return;
    }
    let (busy, left_out) = most_used(busy, s, rows, |p| p.packets_dropped.unwrap_or(0));
    let _ = writeln!(
        out,
        "\n{:<16} {:>10} {:>10} {:>10} {:>12} {:>12} {:>7}",
        "packet port", "policy", "pkts out", "dropped", "max queue B", "mean q B", "util"
    );
    for p in busy {
        let _ = writeln!(
            out,
            "{:<16} {:>10} {:>10} {:>10} {:>12} {:>12.0} {:>6.1}%",
            shown(&p.name),
            p.policy,
            p.packets_out.unwrap_or(0),
            p.packets_dropped.unwrap_or(0),
            p.max_queue_bytes.unwrap_or(0),
            p.mean_queue_bytes.unwrap_or(0.0),
            p.utilization * 100.0
        );
    }
    left_out_note(out, left_out);
}

/// The packet links with a token-bucket policer or shaper: what each passed, delayed and
/// dropped ("-" where the port has no such conditioner).
fn conditioning_table(out: &mut String, s: &Summary) {
    let conditioned: Vec<_> =
        s.ports.iter().filter(|p| p.police_conforming.is_some() || p.shape_delayed.is_some()).collect();
    if conditioned.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n{:<16} {:>12} {:>12} {:>12} {:>12}",
        "conditioned", "policed ok", "policed drop", "shaped wait", "shaped drop"
    );
    for p in conditioned {
        let _ = writeln!(
            out,
            "{:<16} {:>12} {:>12} {:>12} {:>12}",
            shown(&p.name),
            count(p.police_conforming),
            count(p.police_dropped),
            count(p.shape_delayed),
            count(p.shape_dropped)
        );
    }
}

/// A count for the tables, "-" where there is none.
fn count(x: Option<u64>) -> String {
    x.map_or_else(|| "-".to_string(), |n| n.to_string())
}

/// A cell transfer delay for the tables, in the unit that suits it ("-" when no cell arrived).
fn delay_text(seconds: Option<f64>) -> String {
    match seconds {
        None => "-".to_string(),
        Some(s) if s < 1e-3 => format!("{:.2} us", s * 1e6),
        Some(s) if s < 1.0 => format!("{:.3} ms", s * 1e3),
        Some(s) => format!("{s:.3} s"),
    }
}

/// TCP senders: what they resent and why, and a transfer's end. A transfer of a given size is
/// measured over its own time (the run's goodput is over the whole run, however long the
/// transfer took), so its throughput and completion are shown here; "-" for a flow without a
/// size, or one whose transfer had not ended when the run did.
fn tcp_table(out: &mut String, s: &Summary) {
    let tcp: Vec<_> = s.flows.iter().filter(|f| f.segments_sent.is_some()).collect();
    if tcp.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n{:<14} {:>10} {:>12} {:>9} {:>10} {:>10} {:>16}",
        "tcp flow", "segments", "retransmits", "timeouts", "fast retx", "done at s", "transfer Mbit/s"
    );
    for f in tcp {
        let _ = writeln!(
            out,
            "{:<14} {:>10} {:>12} {:>9} {:>10} {:>10} {:>16}",
            shown(&f.name),
            count(f.segments_sent),
            count(f.segments_retransmitted),
            count(f.timeouts),
            count(f.fast_retransmits),
            f.completion_s.map_or("-".to_string(), |t| format!("{t:.3}")),
            f.transfer_throughput_bps.map_or("-".to_string(), mbps),
        );
    }
}
