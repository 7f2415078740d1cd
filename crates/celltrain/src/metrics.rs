//! The measures the papers report, computed from a finished run: goodput, efficiency, Jain
//! fairness, CLR, frame loss, queue statistics and utilisation (docs/references.md#metrics).

use crate::network::{lifetime_stats, route_ports, Adaptation, Hop, Mode, Network};
use celltrain_atm::port::buffer::DropReason;
use celltrain_atm::ServiceCategory;
use celltrain_core::ids::RouteId;
use celltrain_core::time::SimTime;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Jain's fairness index (Σx)² / (n·Σx²); undefined (None) for an empty or all-zero set: when
/// nobody got anything, the shares are neither fair nor unfair.
pub fn jain_index(xs: &[f64]) -> Option<f64> {
    let sum: f64 = xs.iter().sum();
    let sum_sq: f64 = xs.iter().map(|x| x * x).sum();
    if xs.is_empty() || sum_sq == 0.0 {
        return None;
    }
    Some(sum * sum / (xs.len() as f64 * sum_sq))
}

/// The name of the first VC of a route ("-" for a route of packet links only).
fn first_vc_name(net: &Network, route: RouteId) -> String {
    net.routes()[route.index()]
        .hops
        .iter()
        .find_map(|h| match *h {
            Hop::Vc(v) => Some(net.vcs()[v.index()].name.clone()),
            Hop::Port(_) => None,
        })
        .unwrap_or_else(|| "-".to_string())
}

fn ratio(num: u64, den: u64) -> f64 {
    if den == 0 {
        0.0
    } else {
        num as f64 / den as f64
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Aggregate {
    pub goodput_bps: f64,
    /// Theoretical maximum goodput of the bottleneck port from the overheads (`docs/references.md#maximum-goodput`).
    pub max_goodput_bps: Option<f64>,
    /// Goodput of the flows crossing the bottleneck over its maximum.
    pub efficiency: Option<f64>,
    pub fairness_index: Option<f64>,
    pub bottleneck: Option<String>,
    /// The mean of the CLRs of the VCs that carry the flows' data (their routes' VCs), as the
    /// papers average it; None when no flow crosses a VC.
    #[serde(default)]
    pub mean_clr: Option<f64>,
    /// The mean of the CLRs of the VCs that carry only TCP's acknowledgements (the receivers'
    /// routes'); None when there is none.
    #[serde(default)]
    pub mean_clr_reverse: Option<f64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FlowSummary {
    pub name: String,
    pub kind: String,
    pub vc: String,
    pub goodput_bps: f64,
    /// Data packets (datagrams, TCP segments with data, retransmissions included) sent in the
    /// window, and of those same packets the ones delivered to the receiving host and the ones
    /// lost by the end of the run (the rest were still in flight): the three count the same
    /// packets, so `packets_delivered + packets_lost <= packets_sent`. (Goodput counts the
    /// bytes delivered in the window, whenever they were sent.)
    pub packets_sent: u64,
    pub packets_delivered: u64,
    pub packets_lost: u64,
    /// Packets lost / packets sent in the window whose fate is known (delivered + lost).
    pub packet_loss_ratio: f64,
    /// Of the packets sent in the window, those neither delivered nor lost when the run ended:
    /// at the sender, in buffers or on links (sent = delivered + lost + these).
    /// The loss ratio does not count them; a source faster than its first hop leaves them
    /// piling up at the sender.
    #[serde(default)]
    pub packets_queued_at_end: u64,
    pub bytes_delivered: u64,
    /// Mean and largest delay of the delivered packets (those counted in `packets_delivered`),
    /// from the sending host to the receiving host (None when none was delivered).
    pub mean_delay_s: Option<f64>,
    pub max_delay_s: Option<f64>,
    /// TCP flows: the sender's counters over the window (None for other flows).
    pub segments_sent: Option<u64>,
    pub segments_retransmitted: Option<u64>,
    /// Retransmitted data segments / data segments sent.
    pub retransmission_ratio: Option<f64>,
    pub timeouts: Option<u64>,
    pub fast_retransmits: Option<u64>,
    /// TCP transfers of a given size: seconds from the start of the run to the receiving
    /// application seeing the end of the transfer, and the throughput that gives.
    pub completion_s: Option<f64>,
    pub transfer_throughput_bps: Option<f64>,
    /// TCP transfers of a given size: seconds from the sender's connect (its start, after
    /// any stagger) to the receiving application seeing the end (AD97's short transfers).
    pub transfer_time_s: Option<f64>,
    /// TCP senders: trains of data segments separated by more than the burst gap, their mean
    /// length in segments, and the mean idle time between them (BKD97's measures).
    pub bursts: Option<u64>,
    pub mean_burst_segments: Option<f64>,
    pub mean_idle_s: Option<f64>,
    /// TCP senders: RTT samples the estimator took in the window, their mean raw RTT (as
    /// measured, before the estimator's rounding to its ticks), and the smoothed RTT and the
    /// (backed-off) RTO the sender held at the end (None before its first sample). All in
    /// seconds; with BSD timers `srtt_s` is the estimator's tick count (`t_srtt` / 8 ticks) times
    /// the tick period, in steps of 1/8 tick, not a measured RTT (docs/scenarios.md, TCP flows).
    #[serde(default)]
    pub rtt_samples: Option<u64>,
    #[serde(default)]
    pub rtt_mean_s: Option<f64>,
    #[serde(default)]
    pub srtt_s: Option<f64>,
    #[serde(default)]
    pub rto_s: Option<f64>,
    /// TCP senders: the mean of the idle gaps that a retransmission timeout ended (the idle
    /// before a retransmission, BKD97 §4.2), seconds; None without such a gap.
    #[serde(default)]
    pub mean_timeout_idle_s: Option<f64>,
    /// TCP senders: payload bytes sent again over the window (AD97 bounds them per sender).
    #[serde(default)]
    pub bytes_retransmitted: Option<u64>,
    /// TCP senders: the bursts of two segments or more (trains; a lone retransmission is not
    /// one) and their mean length in segments.
    #[serde(default)]
    pub multi_segment_bursts: Option<u64>,
    #[serde(default)]
    pub mean_multi_burst_segments: Option<f64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct VcSummary {
    pub name: String,
    pub category: String,
    pub cells_sent: u64,
    pub cells_delivered: u64,
    pub cells_dropped: u64,
    /// Cells discarded by the UPC (included in `cells_dropped`) and cells it tagged CLP = 1.
    pub cells_policed: u64,
    pub cells_tagged: u64,
    /// Partial frames the destination's reassembly timer discarded.
    pub reassembly_timeouts: u64,
    /// Frames the source adapter tagged preventively.
    pub frames_tagged: u64,
    /// Cells lost / cells whose fate became known in the window (dropped + delivered), so
    /// that cells sent before the warm-up ended cannot push it above 1.
    pub clr: f64,
    pub frames_sent: u64,
    pub frames_delivered: u64,
    pub frames_lost: u64,
    /// Frames lost / frames whose fate is known.
    pub flr: f64,
    pub corrupted_pdus: u64,
    /// Cells in buffers and on links when the window opened and when it closed. Identity:
    /// `cells_sent + cells_in_flight_at_start = cells_delivered + cells_dropped + cells_in_flight_at_end`.
    pub cells_in_flight_at_start: u64,
    pub cells_in_flight_at_end: u64,
    /// GFR VCs: the contract and the ingress F-GCRA's counts (absent for other VCs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gfr: Option<crate::gfr_metrics::GfrVcSummary>,
    /// Transfer delay and delay variation of the user cells delivered in the window (absent
    /// when none was).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay: Option<crate::delay::DelaySummary>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PortSummary {
    pub name: String,
    pub rate_bps: u64,
    pub policy: String,
    pub cells_in: u64,
    pub cells_out: u64,
    pub dropped: BTreeMap<String, u64>,
    pub dropped_total: u64,
    pub queued_at_start: u64,
    pub queued_at_end: u64,
    pub max_queue_cells: u64,
    pub mean_queue_cells: f64,
    /// Cells sent (including cells of frames later discarded) / cell slots in the window;
    /// in packet mode, bits sent / bits the link could carry.
    pub utilization: f64,
    /// Packet mode only (None in cell mode).
    pub packets_in: Option<u64>,
    pub packets_out: Option<u64>,
    pub packets_dropped: Option<u64>,
    /// Packets queued when the window opened and when the run ended: with these,
    /// `packets_in + packets_queued_at_start = packets_out + packets_dropped + packets_queued_at_end`.
    pub packets_queued_at_start: Option<u64>,
    pub packets_queued_at_end: Option<u64>,
    pub max_queue_bytes: Option<u64>,
    pub mean_queue_bytes: Option<f64>,
    /// A packet link's token-bucket policer (where it delivers): packets that conformed and
    /// packets it dropped; None (null) without one.
    #[serde(default)]
    pub police_conforming: Option<u64>,
    #[serde(default)]
    pub police_dropped: Option<u64>,
    /// A packet port's token-bucket shaper: packets that waited for its tokens, and packets its
    /// queue limit refused (also in `packets_dropped`); None without one.
    #[serde(default)]
    pub shape_delayed: Option<u64>,
    #[serde(default)]
    pub shape_dropped: Option<u64>,
    /// Goodput of the packet flows crossing the port, and its share of the most the port could
    /// carry for them (as the aggregate's efficiency at the bottleneck); None where no packet
    /// flow crosses.
    #[serde(default)]
    pub goodput_bps: Option<f64>,
    #[serde(default)]
    pub efficiency: Option<f64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CategorySummary {
    pub category: String,
    pub cells_sent: u64,
    pub cells_dropped: u64,
    pub clr: f64,
    /// The category's cells' transfer delays (its VCs' together; absent when none arrived).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay: Option<crate::delay::DelaySummary>,
}

/// Everything a run reports; written as `summary.json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    pub scenario: String,
    pub title: String,
    pub version: String,
    pub seed: u64,
    pub params: serde_json::Map<String, serde_json::Value>,
    pub duration_s: f64,
    pub warmup_s: f64,
    pub aggregate: Aggregate,
    pub flows: Vec<FlowSummary>,
    pub vcs: Vec<VcSummary>,
    pub ports: Vec<PortSummary>,
    pub categories: Vec<CategorySummary>,
    /// The ABR end systems (absent from the file when there is none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abr: Vec<crate::abr_summary::AbrVcSummary>,
    /// "cell" or "packet".
    pub mode: String,
    pub events: u64,
    pub wall_s: f64,
    /// Hash of every processed event (hex), equal for equal runs.
    pub trace_hash: String,
    /// VCs a switch port's CAC refused, in the order they were asked for (absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refused_vcs: Vec<RefusedVc>,
    /// What the numbers cannot be trusted for (one sentence each; absent when none): printed by
    /// the command line, raised as Python warnings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// A VC that a switch port's connection admission control refused: it was not set up.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RefusedVc {
    pub flow: String,
    pub category: String,
    /// The refusing port, "switch->next".
    pub port: String,
    /// The CAC rule that refused it.
    pub rule: String,
    /// Why the CAC could not judge it, when that is the reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Identification of a run, recorded in its summary.
#[derive(Clone, Debug, Default)]
pub struct RunMeta {
    pub scenario: String,
    pub title: String,
    pub seed: u64,
    pub params: serde_json::Map<String, serde_json::Value>,
    /// VCs refused by a CAC while the scenario was set up.
    pub refused_vcs: Vec<RefusedVc>,
    /// What the scenario asks for that the run will not do (`file:line: key: message`).
    pub warnings: Vec<String>,
}

impl Summary {
    /// Summarises a finished run over its measurement window.
    pub fn from_network(net: &Network, meta: RunMeta, wall_s: f64) -> Summary {
        let window = net.end().saturating_since(net.warmup());
        let window_s = window.as_secs_f64();
        let flows: Vec<FlowSummary> = net.flows().iter().map(|f| flow_summary(net, f, window_s)).collect();
        let in_flight = net.vc_cells_in_flight();
        let vcs: Vec<VcSummary> = net
            .vcs()
            .iter()
            .zip(in_flight)
            .map(|(v, cells_in_flight_at_end)| VcSummary {
                name: v.name.clone(),
                category: v.category.name().to_string(),
                cells_sent: v.stats.cells_sent,
                cells_delivered: v.stats.cells_delivered,
                cells_dropped: v.stats.cells_dropped,
                cells_policed: v.stats.cells_policed,
                cells_tagged: v.stats.cells_tagged,
                reassembly_timeouts: v.stats.reassembly_timeouts,
                frames_tagged: v.stats.frames_tagged,
                clr: ratio(v.stats.cells_dropped, v.stats.cells_dropped + v.stats.cells_delivered),
                frames_sent: v.stats.frames_sent,
                frames_delivered: v.stats.frames_delivered,
                frames_lost: v.stats.frames_lost,
                flr: if v.adaptation == Adaptation::Aal5 {
                    ratio(v.stats.frames_lost, v.stats.frames_lost + v.stats.frames_delivered)
                } else {
                    0.0
                },
                corrupted_pdus: v.stats.corrupted_pdus,
                cells_in_flight_at_start: v.stats.cells_in_flight_at_start,
                cells_in_flight_at_end,
                gfr: crate::gfr_metrics::vc_summary(v),
                delay: v.stats.delays.summary(),
            })
            .collect();
        let mut ports: Vec<PortSummary> = net.ports().iter().map(|p| port_summary(net, p, window)).collect();
        for (port, (goodput, efficiency)) in ports.iter_mut().zip(crate::port_efficiency::per_port(net, &flows)) {
            (port.goodput_bps, port.efficiency) = (goodput, efficiency);
        }
        let categories = category_summaries(net);
        let aggregate = aggregate(net, &flows, &vcs);
        let abr = crate::abr_summary::abr_summaries(net);
        let mut warnings = meta.warnings;
        warnings
            .extend(crate::summary_warnings::of(net.flows().iter().filter(|f| f.app_bytes > 0).count(), &aggregate));
        warnings.extend(crate::summary_warnings::changes_cut(&net.changes_cut()));
        Summary {
            scenario: meta.scenario,
            title: meta.title,
            version: crate::VERSION.to_string(),
            seed: meta.seed,
            params: meta.params,
            duration_s: net.end().as_secs_f64(),
            warmup_s: net.warmup().as_secs_f64(),
            aggregate,
            flows,
            vcs,
            ports,
            categories,
            abr,
            mode: if net.mode() == Mode::Packet { "packet" } else { "cell" }.to_string(),
            events: net.events(),
            wall_s,
            trace_hash: format!("{:016x}", net.trace_hash()),
            refused_vcs: meta.refused_vcs,
            warnings,
        }
    }

    /// The summary without its wall-clock time, for comparing runs.
    pub fn without_wall_time(&self) -> Summary {
        Summary { wall_s: 0.0, ..self.clone() }
    }
}

/// One flow's measures over the window (TCP: its sender's counters).
fn flow_summary(net: &Network, f: &crate::network::Flow, window_s: f64) -> FlowSummary {
    let tcp = f.conns.map(|(sender, _)| {
        let c = &net.conns()[sender.index()];
        let (now, then) = (&lifetime_stats(c), &c.stats_at_window);
        let data = now.data_segments_sent - then.data_segments_sent;
        let rexmt = now.segments_retransmitted - then.segments_retransmitted;
        (
            now.segments_sent - then.segments_sent,
            rexmt,
            ratio(rexmt, data),
            now.timeouts - then.timeouts,
            now.fast_retransmits - then.fast_retransmits,
            now.bytes_retransmitted - then.bytes_retransmitted,
        )
    });
    let rtt = f.conns.map(|(sender, _)| {
        let c = &net.conns()[sender.index()];
        let (now, then) = (&lifetime_stats(c), &c.stats_at_window);
        let samples = now.rtt_samples - then.rtt_samples;
        let sum_ps = now.rtt_raw_sum_ps - then.rtt_raw_sum_ps;
        let mean = (samples > 0).then(|| sum_ps as f64 / 1e12 / samples as f64);
        (samples, mean, c.endpoint.srtt().map(|d| d.as_secs_f64()), c.endpoint.rto().as_secs_f64())
    });
    FlowSummary {
        name: f.name.clone(),
        kind: f.kind.name().to_string(),
        vc: first_vc_name(net, f.route),
        goodput_bps: f.stats.bytes_delivered as f64 * 8.0 / window_s,
        packets_sent: f.stats.packets_sent,
        packets_delivered: f.stats.packets_delivered,
        packets_lost: f.stats.packets_lost,
        packet_loss_ratio: ratio(f.stats.packets_lost, f.stats.packets_lost + f.stats.packets_delivered),
        // Every data packet sent in the window is delivered, lost or still on its way.
        packets_queued_at_end: f.stats.packets_sent.saturating_sub(f.stats.packets_delivered + f.stats.packets_lost),
        bytes_delivered: f.stats.bytes_delivered,
        mean_delay_s: (f.stats.packets_delivered > 0)
            .then(|| f.stats.delay_sum_ps as f64 / 1e12 / f.stats.packets_delivered as f64),
        max_delay_s: (f.stats.packets_delivered > 0).then(|| f.stats.delay_max_ps as f64 / 1e12),
        segments_sent: tcp.map(|t| t.0),
        segments_retransmitted: tcp.map(|t| t.1),
        retransmission_ratio: tcp.map(|t| t.2),
        timeouts: tcp.map(|t| t.3),
        fast_retransmits: tcp.map(|t| t.4),
        completion_s: f.stats.completed_at.map(SimTime::as_secs_f64),
        transfer_throughput_bps: f
            .stats
            .completed_at
            .map(|t| f.stats.bytes_delivered as f64 * 8.0 / t.as_secs_f64().max(1e-12)),
        transfer_time_s: f.stats.completed_at.zip(f.started_at).map(|(end, start)| (end - start).as_secs_f64()),
        bursts: tcp.map(|_| f.stats.bursts),
        mean_burst_segments: tcp.map(|_| ratio(f.stats.burst_segments, f.stats.bursts)),
        mean_idle_s: tcp.map(|_| {
            if f.stats.bursts > 1 {
                f.stats.idle_ps as f64 / 1e12 / (f.stats.bursts - 1) as f64
            } else {
                0.0
            }
        }),
        rtt_samples: rtt.map(|r| r.0),
        rtt_mean_s: rtt.and_then(|r| r.1),
        srtt_s: rtt.and_then(|r| r.2),
        rto_s: rtt.map(|r| r.3),
        mean_timeout_idle_s: tcp.and(
            (f.stats.timeout_idles > 0).then(|| f.stats.timeout_idle_ps as f64 / 1e12 / f.stats.timeout_idles as f64),
        ),
        bytes_retransmitted: tcp.map(|t| t.5),
        multi_segment_bursts: tcp.map(|_| multi_bursts(&f.stats).0),
        mean_multi_burst_segments: tcp.and(multi_bursts(&f.stats).1),
    }
}

/// (bursts of ≥ 2 segments, their mean length) with the burst in progress counted.
fn multi_bursts(stats: &crate::network::FlowStats) -> (u64, Option<f64>) {
    let mut s = stats.clone();
    s.close_burst();
    (s.multi_bursts, (s.multi_bursts > 0).then(|| s.multi_burst_segments as f64 / s.multi_bursts as f64))
}

/// One output port's measures over the window.
fn port_summary(net: &Network, p: &crate::network::Port, window: celltrain_core::time::SimDuration) -> PortSummary {
    let window_s = window.as_secs_f64();
    let s = &p.queue.stats;
    let slots = p.line_rate.cell_slots_floor(window);
    let pq = p.packets.as_ref();
    let policed = pq.filter(|q| q.policer().is_some());
    let shaped = pq.filter(|q| q.shaper().is_some());
    let packet_utilization =
        pq.map(|q| q.stats().wire_bytes_out as f64 * 8.0 / (p.line_rate.as_bps() as f64 * window_s));
    PortSummary {
        name: p.name.clone(),
        rate_bps: p.line_rate.as_bps(),
        policy: pq.map_or_else(|| p.queue.policy_name(), |q| q.policy_name()).to_string(),
        cells_in: s.cells_in,
        cells_out: s.cells_out,
        dropped: DropReason::ALL.iter().map(|r| (r.name().to_string(), s.dropped[*r as usize])).collect(),
        dropped_total: s.dropped_total(),
        queued_at_start: u64::from(s.queued_at_start),
        queued_at_end: u64::from(p.queue.occupancy()),
        max_queue_cells: u64::from(s.max_queue_cells),
        mean_queue_cells: s.mean_queue_cells(net.end(), p.queue.occupancy()),
        utilization: packet_utilization.unwrap_or_else(|| ratio(s.cells_out, slots)),
        packets_in: pq.map(|q| q.stats().packets_in),
        packets_out: pq.map(|q| q.stats().packets_out),
        packets_dropped: pq.map(|q| q.stats().dropped),
        packets_queued_at_start: pq.map(|q| q.stats().queued_at_start),
        packets_queued_at_end: pq.map(|q| q.len() as u64),
        max_queue_bytes: pq.map(|q| q.stats().max_queue_bytes),
        mean_queue_bytes: pq.map(|q| q.mean_queue_bytes(net.end())),
        police_conforming: policed.map(|q| q.stats().police_conforming),
        police_dropped: policed.map(|q| q.stats().police_dropped),
        shape_delayed: shaped.map(|q| q.stats().shape_delayed),
        shape_dropped: shaped.map(|q| q.stats().shape_dropped),
        goodput_bps: None,
        efficiency: None,
    }
}

/// Cells sent, dropped and the CLR per service category that has VCs.
fn category_summaries(net: &Network) -> Vec<CategorySummary> {
    ServiceCategory::ALL
        .iter()
        .filter_map(|&c| {
            let (sent, dropped, delivered) =
                net.vcs().iter().filter(|v| v.category == c).fold((0, 0, 0), |(s, d, r), v| {
                    (s + v.stats.cells_sent, d + v.stats.cells_dropped, r + v.stats.cells_delivered)
                });
            net.vcs().iter().any(|v| v.category == c).then(|| CategorySummary {
                category: c.name().to_string(),
                cells_sent: sent,
                cells_dropped: dropped,
                clr: ratio(dropped, dropped + delivered),
                delay: crate::delay::DelaySummary::of(
                    net.vcs().iter().filter(|v| v.category == c).map(|v| &v.stats.delays),
                ),
            })
        })
        .collect()
}

/// The share of the bottleneck's cells an ABR flow can fill with data, (Nrm − 1)/Nrm (1 when
/// the flow's VC across the bottleneck is not ABR).
pub(crate) fn abr_data_share(
    net: &Network,
    flow: &crate::network::Flow,
    bottleneck: celltrain_core::ids::PortId,
) -> f64 {
    let vc = net.routes()[flow.route.index()].hops.iter().find_map(|hop| match *hop {
        crate::network::Hop::Vc(v) if net.vcs()[v.index()].route.iter().any(|&(p, _)| p == bottleneck) => Some(v),
        _ => None,
    });
    match vc.and_then(|v| net.abr().of(v)) {
        Some(a) => {
            let nrm = f64::from(net.abr().ends[a].source.params().nrm);
            (nrm - 1.0) / nrm
        }
        None => 1.0,
    }
}

/// Goodput of the packet flows, against the bottleneck's theoretical maximum, and their fairness.
fn aggregate(net: &Network, flows: &[FlowSummary], vcs: &[VcSummary]) -> Aggregate {
    let packet_flows: Vec<&FlowSummary> =
        flows.iter().zip(net.flows()).filter(|(_, f)| f.app_bytes > 0).map(|(s, _)| s).collect();
    // Summed from +0.0: an empty float sum is −0.0.
    let goodput_bps: f64 = packet_flows.iter().fold(0.0, |acc, f| acc + f.goodput_bps);
    let max_goodput_bps = net.bottleneck().and_then(|b| crate::port_efficiency::max_goodput_at(net, b));
    let directions = vc_directions(net);
    // Efficiency counts the flows that cross the bottleneck (all of them, on one bottleneck;
    // on MSc98's chains, the VCs sharing the link the maximum is of).
    let through_bottleneck = |f: &crate::network::Flow| {
        net.bottleneck().is_some_and(|b| route_ports(&net.routes()[f.route.index()], net.vcs()).contains(&b))
    };
    let bottleneck_goodput_bps: f64 = flows
        .iter()
        .zip(net.flows())
        .filter(|(_, f)| f.app_bytes > 0 && through_bottleneck(f))
        .fold(0.0, |acc, (s, _)| acc + s.goodput_bps);
    Aggregate {
        goodput_bps,
        max_goodput_bps,
        efficiency: max_goodput_bps.map(|m| bottleneck_goodput_bps / m),
        fairness_index: jain_index(&packet_flows.iter().map(|f| f.goodput_bps).collect::<Vec<_>>()),
        bottleneck: net.bottleneck().map(|b| net.ports()[b.index()].name.clone()),
        mean_clr: mean_clr_of(vcs, |v| directions[v] == Direction::Data),
        mean_clr_reverse: mean_clr_of(vcs, |v| directions[v] == Direction::Acks),
    }
}

/// Which way a VC carries a flow's packets.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// Data: on a flow's route.
    Data,
    /// Only TCP's acknowledgements: on a receiver's route, on no flow's.
    Acks,
    /// Neither (set up for no flow).
    None,
}

/// Each VC's direction, by index.
fn vc_directions(net: &Network) -> Vec<Direction> {
    let mut directions = vec![Direction::None; net.vcs().len()];
    let vcs_of = |route: RouteId| {
        net.routes()[route.index()].hops.iter().filter_map(|h| match *h {
            Hop::Vc(v) => Some(v.index()),
            Hop::Port(_) => None,
        })
    };
    for (_, receiver) in net.flows().iter().filter_map(|f| f.conns) {
        vcs_of(net.conns()[receiver.index()].route_out).for_each(|v| directions[v] = Direction::Acks);
    }
    for f in net.flows() {
        vcs_of(f.route).for_each(|v| directions[v] = Direction::Data);
    }
    directions
}

/// The mean CLR of the VCs that `keep` (by index); None when it keeps none.
fn mean_clr_of(vcs: &[VcSummary], keep: impl Fn(usize) -> bool) -> Option<f64> {
    let clrs: Vec<f64> = vcs.iter().enumerate().filter(|&(i, _)| keep(i)).map(|(_, v)| v.clr).collect();
    (!clrs.is_empty()).then(|| clrs.iter().sum::<f64>() / clrs.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::jain_index;

    #[test]
    fn jain_vectors_reference_10() {
        let j = |xs: &[f64]| jain_index(xs).expect("defined");
        assert!((j(&[1.0, 1.0, 1.0, 1.0]) - 1.0).abs() < 1e-12);
        assert!((j(&[1.0, 2.0, 3.0, 4.0]) - 0.83333).abs() < 1e-5);
        assert!((j(&[10.0, 0.0, 0.0, 0.0]) - 0.25).abs() < 1e-12);
        assert!((j(&[30.2, 32.1, 35.9, 31.0]) - 0.99544).abs() < 1e-5);
    }

    #[test]
    fn jain_is_undefined_when_nobody_got_anything() {
        assert_eq!(jain_index(&[0.0, 0.0, 0.0]), None);
        assert_eq!(jain_index(&[]), None);
    }
}
