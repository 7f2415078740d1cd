//! The CSV tables of a summary: one row per flow, VC and port.
//!
//! Each table is a list of columns, a header with the accessor that gives its field, so a
//! header and its field cannot be listed in different orders. The columns are the fields of
//! the summary's rows (nested tables aside), in the order of the Python DataFrames; a test
//! holds the two equal. Numbers are written as Rust
//! writes them (`to_string`: shortest text that reads back as the same value, no exponent).

use crate::metrics::{FlowSummary, PortSummary, VcSummary};
use celltrain_atm::port::buffer::DropReason;

pub const FLOWS_FILE: &str = "flows.csv";
pub const VCS_FILE: &str = "vcs.csv";
pub const PORTS_FILE: &str = "ports.csv";

/// A column of a table: its header and how a row gives its field.
struct Column<T> {
    name: &'static str,
    field: fn(&T) -> String,
}

const FLOW_COLUMNS: &[Column<FlowSummary>] = &[
    Column { name: "name", field: |f| f.name.clone() },
    Column { name: "kind", field: |f| f.kind.clone() },
    Column { name: "vc", field: |f| f.vc.clone() },
    Column { name: "goodput_bps", field: |f| f.goodput_bps.to_string() },
    Column { name: "packets_sent", field: |f| f.packets_sent.to_string() },
    Column { name: "packets_delivered", field: |f| f.packets_delivered.to_string() },
    Column { name: "packets_lost", field: |f| f.packets_lost.to_string() },
    Column { name: "packet_loss_ratio", field: |f| f.packet_loss_ratio.to_string() },
    Column { name: "bytes_delivered", field: |f| f.bytes_delivered.to_string() },
    Column { name: "packets_queued_at_end", field: |f| f.packets_queued_at_end.to_string() },
    // TCP flows only, sized transfers, bursts and delays: empty where the summary has null.
    Column { name: "segments_sent", field: |f| opt(f.segments_sent) },
    Column { name: "segments_retransmitted", field: |f| opt(f.segments_retransmitted) },
    Column { name: "retransmission_ratio", field: |f| opt(f.retransmission_ratio) },
    Column { name: "timeouts", field: |f| opt(f.timeouts) },
    Column { name: "fast_retransmits", field: |f| opt(f.fast_retransmits) },
    Column { name: "completion_s", field: |f| opt(f.completion_s) },
    Column { name: "transfer_throughput_bps", field: |f| opt(f.transfer_throughput_bps) },
    Column { name: "bursts", field: |f| opt(f.bursts) },
    Column { name: "mean_burst_segments", field: |f| opt(f.mean_burst_segments) },
    Column { name: "mean_idle_s", field: |f| opt(f.mean_idle_s) },
    Column { name: "transfer_time_s", field: |f| opt(f.transfer_time_s) },
    Column { name: "mean_delay_s", field: |f| opt(f.mean_delay_s) },
    Column { name: "max_delay_s", field: |f| opt(f.max_delay_s) },
    Column { name: "rtt_samples", field: |f| opt(f.rtt_samples) },
    Column { name: "rtt_mean_s", field: |f| opt(f.rtt_mean_s) },
    Column { name: "srtt_s", field: |f| opt(f.srtt_s) },
    Column { name: "rto_s", field: |f| opt(f.rto_s) },
    Column { name: "mean_timeout_idle_s", field: |f| opt(f.mean_timeout_idle_s) },
    Column { name: "bytes_retransmitted", field: |f| opt(f.bytes_retransmitted) },
    Column { name: "multi_segment_bursts", field: |f| opt(f.multi_segment_bursts) },
    Column { name: "mean_multi_burst_segments", field: |f| opt(f.mean_multi_burst_segments) },
];

const VC_COLUMNS: &[Column<VcSummary>] = &[
    Column { name: "name", field: |v| v.name.clone() },
    Column { name: "category", field: |v| v.category.clone() },
    Column { name: "cells_sent", field: |v| v.cells_sent.to_string() },
    Column { name: "cells_delivered", field: |v| v.cells_delivered.to_string() },
    Column { name: "cells_dropped", field: |v| v.cells_dropped.to_string() },
    Column { name: "clr", field: |v| v.clr.to_string() },
    Column { name: "frames_sent", field: |v| v.frames_sent.to_string() },
    Column { name: "frames_delivered", field: |v| v.frames_delivered.to_string() },
    Column { name: "frames_lost", field: |v| v.frames_lost.to_string() },
    Column { name: "flr", field: |v| v.flr.to_string() },
    Column { name: "corrupted_pdus", field: |v| v.corrupted_pdus.to_string() },
    Column { name: "cells_policed", field: |v| v.cells_policed.to_string() },
    Column { name: "cells_tagged", field: |v| v.cells_tagged.to_string() },
    Column { name: "frames_tagged", field: |v| v.frames_tagged.to_string() },
    Column { name: "reassembly_timeouts", field: |v| v.reassembly_timeouts.to_string() },
    Column { name: "cells_in_flight_at_start", field: |v| v.cells_in_flight_at_start.to_string() },
    Column { name: "cells_in_flight_at_end", field: |v| v.cells_in_flight_at_end.to_string() },
    Column { name: "delay_cells", field: |v| v.delay.as_ref().map_or_else(String::new, |d| d.cells.to_string()) },
    Column { name: "delay_mean_s", field: |v| delay_field(v, |d| d.mean_s) },
    Column { name: "delay_min_s", field: |v| delay_field(v, |d| d.min_s) },
    Column { name: "delay_p50_s", field: |v| delay_field(v, |d| d.p50_s) },
    Column { name: "delay_p99_s", field: |v| delay_field(v, |d| d.p99_s) },
    Column { name: "delay_p999_s", field: |v| delay_field(v, |d| d.p999_s) },
    Column { name: "delay_max_s", field: |v| delay_field(v, |d| d.max_s) },
    Column { name: "delay_cdv_2pt_999_s", field: |v| delay_field(v, |d| d.cdv_2pt_999_s) },
    Column { name: "delay_cdv_1pt_max_s", field: |v| delay_field(v, |d| d.cdv_1pt_max_s) },
    Column { name: "delay_resolution_s", field: |v| delay_field(v, |d| d.resolution_s) },
];

/// A field of a VC's cell delays; empty when no cell was delivered.
fn delay_field(v: &VcSummary, field: fn(&crate::delay::DelaySummary) -> f64) -> String {
    v.delay.as_ref().map_or_else(String::new, |d| field(d).to_string())
}

/// The port columns before the per-reason drop counts (`dropped_<reason>`, one per
/// [`DropReason::ALL`], in its order) ...
const PORT_COLUMNS_BEFORE_DROPS: &[Column<PortSummary>] = &[
    Column { name: "name", field: |p| p.name.clone() },
    Column { name: "rate_bps", field: |p| p.rate_bps.to_string() },
    Column { name: "policy", field: |p| p.policy.clone() },
    Column { name: "cells_in", field: |p| p.cells_in.to_string() },
    Column { name: "cells_out", field: |p| p.cells_out.to_string() },
    Column { name: "dropped_total", field: |p| p.dropped_total.to_string() },
];

/// ... and after them.
const PORT_COLUMNS_AFTER_DROPS: &[Column<PortSummary>] = &[
    Column { name: "queued_at_start", field: |p| p.queued_at_start.to_string() },
    Column { name: "queued_at_end", field: |p| p.queued_at_end.to_string() },
    Column { name: "max_queue_cells", field: |p| p.max_queue_cells.to_string() },
    Column { name: "mean_queue_cells", field: |p| p.mean_queue_cells.to_string() },
    Column { name: "utilization", field: |p| p.utilization.to_string() },
    // Packet mode only (empty in cell mode).
    Column { name: "packets_in", field: |p| opt(p.packets_in) },
    Column { name: "packets_out", field: |p| opt(p.packets_out) },
    Column { name: "packets_dropped", field: |p| opt(p.packets_dropped) },
    Column { name: "packets_queued_at_start", field: |p| opt(p.packets_queued_at_start) },
    Column { name: "packets_queued_at_end", field: |p| opt(p.packets_queued_at_end) },
    Column { name: "max_queue_bytes", field: |p| opt(p.max_queue_bytes) },
    Column { name: "mean_queue_bytes", field: |p| opt(p.mean_queue_bytes) },
    // Packet links with a token-bucket policer or shaper only.
    Column { name: "police_conforming", field: |p| opt(p.police_conforming) },
    Column { name: "police_dropped", field: |p| opt(p.police_dropped) },
    Column { name: "shape_delayed", field: |p| opt(p.shape_delayed) },
    Column { name: "shape_dropped", field: |p| opt(p.shape_dropped) },
    // The packet flows crossing the port (empty where none does).
    Column { name: "goodput_bps", field: |p| opt(p.goodput_bps) },
    Column { name: "efficiency", field: |p| opt(p.efficiency) },
];

/// An optional field: its number, or empty (a null of summary.json, NaN/NA in pandas).
fn opt<T: ToString>(x: Option<T>) -> String {
    x.map(|v| v.to_string()).unwrap_or_default()
}

/// The column of the cells a port dropped for `reason`.
pub fn drop_column(reason: DropReason) -> String {
    format!("dropped_{}", reason.name())
}

/// Appends one CSV field, quoted when it holds a separator, a quote or a line break.
fn push_field(out: &mut String, field: &str) {
    if field.contains([',', '"', '\n']) {
        out.push('"');
        out.push_str(&field.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(field);
    }
}

fn push_record<S: AsRef<str>>(out: &mut String, fields: impl IntoIterator<Item = S>) {
    for (i, field) in fields.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_field(out, field.as_ref());
    }
    out.push('\n');
}

fn table<T>(columns: &[Column<T>], rows: &[T]) -> String {
    let mut out = String::new();
    push_record(&mut out, columns.iter().map(|c| c.name));
    for row in rows {
        push_record(&mut out, columns.iter().map(|c| (c.field)(row)));
    }
    out
}

/// `flows.csv`: one row per flow.
pub fn flows_csv(flows: &[FlowSummary]) -> String {
    table(FLOW_COLUMNS, flows)
}

/// `vcs.csv`: one row per VC.
pub fn vcs_csv(vcs: &[VcSummary]) -> String {
    table(VC_COLUMNS, vcs)
}

/// `ports.csv`: one row per output port, with one `dropped_<reason>` column per drop reason.
pub fn ports_csv(ports: &[PortSummary]) -> String {
    let mut out = String::new();
    let header = PORT_COLUMNS_BEFORE_DROPS
        .iter()
        .map(|c| c.name.to_string())
        .chain(DropReason::ALL.iter().map(|r| drop_column(*r)))
        .chain(PORT_COLUMNS_AFTER_DROPS.iter().map(|c| c.name.to_string()));
    push_record(&mut out, header);
    for p in ports {
        // A reason missing from the map (a summary of an older simulator) dropped nothing.
        let drops = DropReason::ALL.iter().map(|r| p.dropped.get(r.name()).copied().unwrap_or(0).to_string());
        let fields = PORT_COLUMNS_BEFORE_DROPS
            .iter()
            .map(|c| (c.field)(p))
            .chain(drops)
            .chain(PORT_COLUMNS_AFTER_DROPS.iter().map(|c| (c.field)(p)));
        push_record(&mut out, fields);
    }
    out
}
