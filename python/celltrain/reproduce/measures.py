"""The measures a report shows: how each is written and named, and the ones it derives from
a run's summary (the aggregate table lacks them)."""

from __future__ import annotations

import math
import re
from typing import Any, Dict, Mapping, Optional, Sequence

_TIMES = ("completion_s", "mean_transfer_time_s", "mean_idle_s", "mean_timeout_idle_s", "inter_pdu_idle_s",
          "train_min_gap_s", "train_recovery_s", "mean_packet_delay_s")

MEASURE_NAMES = {
    "goodput_bps": "aggregate goodput",
    "max_goodput_bps": "theoretical max goodput",
    "efficiency": "efficiency",
    "fairness_index": "Jain fairness index",
    "mean_plr": "mean packet loss ratio",
    "mean_clr": "mean cell loss ratio",
    "mean_retransmission_ratio": "mean retransmission ratio",
    "data_clr": "cell loss ratio of the data VCs",
    "data_flr": "frame loss ratio of the data VCs",
    "total_timeouts": "retransmission timeouts (sum over flows)",
    "retransmitted_link_share": "retransmitted data / link capacity",
    "mean_transfer_time_s": "mean transfer time (connect to last byte read)",
    "mean_transfer_efficiency": "mean effective throughput of a transfer",
    "transfer_throughput_bps": "transfer throughput",
    "completion_s": "transfer completion time",
    "retransmitted_fraction": "retransmitted share of the data packets",
    "mean_burst_segments": "mean burst length (segments)",
    "mean_idle_s": "mean idle time between bursts",
    "mean_timeout_idle_s": "mean idle time before a retransmission (timeout-ended gaps)",
    "mean_bytes_retransmitted": "retransmitted bytes per sender (mean over the senders)",
    "mean_multi_burst_segments": "mean length of the bursts of two segments or more (segments)",
    "train_pdus": "longest conforming train, eq. (2) (PDUs)",
    "train_recovery_s": "recovery idle c·(T_SCR − T_PCR)",
    "inter_pdu_idle_s": "inter-PDU idle time I_p",
    "scr_max_goodput_bps": "most TCP data the SCR carries",
    "scr_utilisation": "throughput / the SCR's maximum",
    "bottleneck_max_queue_cells": "largest queue at the bottleneck (cells)",
    "edge_max_queue_cells": "largest queue in an ABR end system (cells)",
    "min_max_goodput_ratio": "least / greatest flow goodput",
    "through_local_goodput_ratio": "goodput of VCs 1 and 2 / the local VCs' (mean per VC)",
    "bottleneck_utilization": "bottleneck link utilisation",
    "efficiency_of_capacity_left": "efficiency over the capacity CBR/VBR left",
    "mean_packet_delay_s": "mean packet delay, host to host",
}


def fmt(measure: str, value: Optional[float]) -> str:
    """A measure's value as the report writes it (Mbit/s, %, or plain)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if measure.endswith("_bps"):
        return f"{value / 1e6:.3f} Mbit/s"
    if measure in ("gfr_efficiency", "short_rtt_ratio", "long_rtt_ratio", "min_vc_ratio", "tagged_fraction", "tagged_fraction_below_mcr"):
        return f"{value * 100:.1f} %"
    if measure in ("efficiency", "mean_transfer_efficiency", "mean_plr", "packet_loss_ratio", "utilization",
                   "mean_retransmission_ratio", "retransmission_ratio", "bottleneck_utilization",
                   "efficiency_of_capacity_left"):  # fmt: skip
        return f"{value * 100:.2f} %"
    if measure in ("mean_clr", "clr", "flr", "data_clr", "data_flr"):
        return f"{value * 100:.2f} %" if value >= 1e-3 else f"{value:.2e}"
    if measure == "retransmitted_link_share":
        return f"{value * 100:.3f} %"
    if measure in ("bottleneck_max_queue_cells", "edge_max_queue_cells"):
        return f"{value:.0f} cells"
    if measure in ("min_max_goodput_ratio", "through_local_goodput_ratio"):
        return f"{value:.3f}"
    if measure == "total_timeouts":
        return f"{value:.3g}"
    if measure in ("retransmitted_fraction", "scr_utilisation"):
        return f"{value * 100:.1f} %"
    if measure in _TIMES or measure.startswith(("ctd_max_s_", "ctd_p999_s_")):
        if abs(value) < 1e-3:
            return f"{value * 1e6:.4g} µs"
        return f"{value * 1e3:.4g} ms" if abs(value) < 1 else f"{value:.4g} s"
    if measure == "fairness_index":
        return f"{value:.3f}"
    return f"{value:.4g}"


def mname(measure: str) -> str:
    """A measure's name in prose."""
    for prefix, text in (("ctd_max_s_", "largest cell transfer delay of "), ("ctd_p999_s_", "p99.9 cell transfer delay of ")):
        if measure.startswith(prefix):
            return text + measure[len(prefix) :].replace("_", "-")
    return MEASURE_NAMES.get(measure, measure.replace("_", " "))


def derived_measures(summary: Mapping[str, Any]) -> Dict[str, float]:
    """Measures of one run that the aggregate table lacks, added to it by the report.

    ``data_clr`` / ``data_flr``: cells dropped / (delivered + dropped) and frames lost /
    (delivered + lost), summed over the data VCs (not the ``-ack`` VCs of TCP flows), as the
    per-VC ``clr`` / ``flr``; NaN when the data VCs carried no cells (packet mode).
    ``total_timeouts``: the TCP flows' retransmission timeouts, summed (NaN without TCP
    flows)."""
    nan = float("nan")
    data = [v for v in summary.get("vcs", []) if not str(v["name"]).endswith("-ack")]
    dropped = sum(v["cells_dropped"] for v in data)
    cells = dropped + sum(v["cells_delivered"] for v in data)
    lost = sum(v["frames_lost"] for v in data)
    frames = lost + sum(v["frames_delivered"] for v in data)
    timeouts = [f["timeouts"] for f in summary.get("flows", []) if f.get("timeouts") is not None]
    return {
        "data_clr": dropped / cells if cells else nan,
        "data_flr": lost / frames if frames else nan,
        "total_timeouts": float(sum(timeouts)) if timeouts else nan,
        **transfer_measures(summary, data),
        **network_measures(summary),
        "retransmitted_link_share": retransmitted_link_share(summary),
        **short_transfer_measures(summary),
        **category_delay_measures(summary),
    }


def category_delay_measures(summary: Mapping[str, Any]) -> Dict[str, float]:
    """``ctd_max_s_<category>`` and ``ctd_p999_s_<category>`` (``rt_vbr``, ``nrt_vbr``, …): the
    largest and the 0.999-quantile cell transfer delay of the category's user cells delivered in
    the window, for each category that delivered any."""
    out: Dict[str, float] = {}
    for c in summary.get("categories", []):
        delay = c.get("delay")
        if delay:
            name = str(c["category"]).replace("-", "_")
            out[f"ctd_max_s_{name}"] = float(delay["max_s"])
            out[f"ctd_p999_s_{name}"] = float(delay["p999_s"])
    return out


def network_measures(summary: Mapping[str, Any]) -> Dict[str, float]:
    """Measures of where the network queues and whom it serves (MSc98's comparisons).

    ``bottleneck_max_queue_cells`` and ``bottleneck_utilization``: of the bottleneck port;
    ``edge_max_queue_cells``: the largest queue any ABR end system held (NaN without ABR);
    ``min_max_goodput_ratio``: the least flow goodput over the greatest (1 when all are
    equal; NaN without packet flows); ``efficiency_of_capacity_left``: the efficiency over the
    share of the bottleneck's capacity that CBR and VBR cells left (they are served first);
    ``through_local_goodput_ratio``: MSc98's configuration 1, the mean goodput of the VCs
    crossing every congested link (flows ``vc1``, ``vc2``) over the mean of the local VCs' (flows
    ``local…``), NaN where the run has no such flows or the local VCs delivered nothing;
    ``mean_packet_delay_s``: the delay of every delivered packet, host to host, averaged."""
    nan = float("nan")
    agg = summary.get("aggregate") or {}
    port = next((p for p in summary.get("ports", []) if p.get("name") == agg.get("bottleneck")), None)
    goodputs = [f["goodput_bps"] for f in summary.get("flows", []) if f.get("packets_sent") and "goodput_bps" in f]
    abr = summary.get("abr") or []
    out = {
        "bottleneck_max_queue_cells": float(port.get("max_queue_cells", nan)) if port else nan,
        "bottleneck_utilization": float(port.get("utilization", nan)) if port else nan,
        "edge_max_queue_cells": float(max(a["max_queue_cells"] for a in abr)) if abr else nan,
        "min_max_goodput_ratio": min(goodputs) / max(goodputs) if goodputs and max(goodputs) > 0 else nan,
        "through_local_goodput_ratio": _through_local_ratio(summary.get("flows", [])),
        "efficiency_of_capacity_left": nan,
        "mean_packet_delay_s": nan,
    }
    delivered = [(f.get("packets_delivered"), f.get("mean_delay_s")) for f in summary.get("flows", [])]
    delivered = [(n, d) for n, d in delivered if n and d is not None]
    if delivered:
        out["mean_packet_delay_s"] = sum(n * d for n, d in delivered) / sum(n for n, _ in delivered)
    eff = agg.get("efficiency")
    if port and eff is not None and port.get("utilization", 0) > 0 and "cells_out" in port:
        priority = ("cbr", "rt-vbr", "nrt-vbr")
        cells = sum(c["cells_sent"] - c["cells_dropped"] for c in summary.get("categories", []) if c["category"] in priority)
        capacity_cells = port["cells_out"] / port["utilization"]
        left = 1.0 - cells / capacity_cells if capacity_cells > 0 else nan
        out["efficiency_of_capacity_left"] = eff / left if left > 0 else nan
    return out


def _through_local_ratio(flows: Sequence[Mapping[str, Any]]) -> float:
    """Mean goodput of flows ``vc<k>`` over the mean of flows ``local…`` (see
    :func:`network_measures`)."""
    through = [f["goodput_bps"] for f in flows if re.fullmatch(r"vc\d+", f.get("name", "")) and "goodput_bps" in f]
    local = [f["goodput_bps"] for f in flows if f.get("name", "").startswith("local") and "goodput_bps" in f]
    if not through or not local or sum(local) <= 0:
        return float("nan")
    return (sum(through) / len(through)) / (sum(local) / len(local))


def short_transfer_measures(summary: Mapping[str, Any]) -> Dict[str, float]:
    """AD97's short transfers (§5.3): ``mean_transfer_time_s``, the mean over the TCP flows
    of the time from the sender's connect to the receiving application reading the last byte;
    ``mean_transfer_efficiency``, the mean over them of (bytes × 8 / that time) over the most
    the bottleneck carries (``max_goodput_bps``: the paper's effective throughput, per
    transfer). NaN unless every TCP transfer completed."""
    nan = float("nan")
    tcp = [f for f in summary.get("flows", []) if f.get("segments_sent") is not None]
    times = [f.get("transfer_time_s") for f in tcp]
    if not tcp or any(t is None or t <= 0 for t in times):
        return {"mean_transfer_time_s": nan, "mean_transfer_efficiency": nan}
    top = float((summary.get("aggregate") or {}).get("max_goodput_bps") or nan)
    rates = [f["bytes_delivered"] * 8.0 / t for f, t in zip(tcp, times)]
    return {"mean_transfer_time_s": sum(times) / len(times), "mean_transfer_efficiency": sum(rates) / len(rates) / top}


#: AD97's segment on the wire, octets (Aron & Druschel: 9168 bytes, 191 cells' payload).
AD97_SEGMENT_BYTES = 9168


def retransmitted_link_share(summary: Mapping[str, Any]) -> float:
    """AD97's cost of retransmissions: the TCP flows' retransmitted segments × 9168 bytes
    × 8 over what the bottleneck link (its ``link_rate`` parameter) carries in the run's
    duration. NaN for a run without TCP flows or without a ``link_rate`` parameter."""
    rate = _rate_bps(str((summary.get("params") or {}).get("link_rate", "")))
    span = float(summary.get("duration_s") or 0.0)
    tcp = [f for f in summary.get("flows", []) if f.get("segments_retransmitted") is not None]
    if not tcp or not rate or span <= 0:
        return float("nan")
    retx = sum(f["segments_retransmitted"] for f in tcp)
    return retx * AD97_SEGMENT_BYTES * 8.0 / (rate * span)


def _rate_bps(text: str) -> float:
    """``"141.33 Mbit/s"`` → 141.33e6; 0 if it is not a rate."""
    units = {"bit/s": 1.0, "kbit/s": 1e3, "Mbit/s": 1e6, "Gbit/s": 1e9}
    parts = text.split()
    if len(parts) != 2 or parts[1] not in units:
        return 0.0
    try:
        return float(parts[0]) * units[parts[1]]
    except ValueError:
        return 0.0


def transfer_measures(summary: Mapping[str, Any], data_vcs: Sequence[Mapping[str, Any]]) -> Dict[str, float]:
    """The measures of finite TCP transfers that Bonaventure, Klovning & Danthine (1997),
    *Is VBR a solution for an ATM LAN?*, report, over all the TCP flows of a run.

    ``transfer_throughput_bps``: the bytes the TCP flows delivered × 8 over the time the last
    one completed (the run's duration if one did not); ``completion_s``: that time (NaN if a
    transfer did not complete); ``segments_sent`` / ``segments_retransmitted``: sums;
    ``retransmitted_fraction``: retransmitted segments per original data segment (what
    ``netstat -s`` counts over the packets a transfer needs); ``mean_burst_segments`` and
    ``mean_idle_s``: over all the flows' bursts and the idle gaps between them;
    ``mean_timeout_idle_s``: the gaps a retransmission timeout ended (the idle before a
    retransmission), mean over the flows that had one; ``mean_bytes_retransmitted``: per sender;
    ``mean_multi_burst_segments``: over the bursts of two segments or more (trains);
    ``cells_policed``, ``corrupted_pdus``, ``reassembly_timeouts``: sums over the data VCs.
    NaN without TCP flows."""
    nan = float("nan")
    tcp = [f for f in summary.get("flows", []) if f.get("segments_sent") is not None]
    vc_sum = lambda k: float(sum(v.get(k) or 0 for v in data_vcs)) if data_vcs else nan  # noqa: E731
    out = {k: vc_sum(k) for k in ("cells_policed", "corrupted_pdus", "reassembly_timeouts")}
    if not tcp:
        return {**out, **dict.fromkeys(
            ("transfer_throughput_bps", "completion_s", "segments_sent", "segments_retransmitted",
             "retransmitted_fraction", "mean_burst_segments", "mean_idle_s", "mean_timeout_idle_s",
             "mean_bytes_retransmitted", "mean_multi_burst_segments"), nan)}  # fmt: skip
    done = [f.get("completion_s") for f in tcp]
    completion = max(done) if all(t is not None for t in done) else nan
    span = completion if completion == completion else float(summary.get("duration_s") or nan)
    sent = sum(f["segments_sent"] for f in tcp)
    retx = sum(f["segments_retransmitted"] for f in tcp)
    bursts = sum(f.get("bursts") or 0 for f in tcp)
    gaps = sum(max((f.get("bursts") or 0) - 1, 0) for f in tcp)
    return {
        **out,
        "transfer_throughput_bps": sum(f["bytes_delivered"] for f in tcp) * 8.0 / span if span > 0 else nan,
        "completion_s": completion,
        "segments_sent": float(sent),
        "segments_retransmitted": float(retx),
        "retransmitted_fraction": retx / (sent - retx) if sent > retx else nan,
        "mean_burst_segments": sum((f.get("mean_burst_segments") or 0) * (f.get("bursts") or 0) for f in tcp) / bursts if bursts else nan,
        "mean_idle_s": sum((f.get("mean_idle_s") or 0) * max((f.get("bursts") or 0) - 1, 0) for f in tcp) / gaps if gaps else nan,
        "mean_timeout_idle_s": _mean_timeout_idle(tcp),
        "mean_bytes_retransmitted": _mean_bytes_retransmitted(tcp),
        "mean_multi_burst_segments": _mean_multi_burst(tcp),
    }


def _mean_multi_burst(tcp: list) -> float:
    """Segments per burst of two segments or more, over all the flows' such bursts."""
    n = sum(f.get("multi_segment_bursts") or 0 for f in tcp)
    segs = sum((f.get("mean_multi_burst_segments") or 0) * (f.get("multi_segment_bursts") or 0) for f in tcp)
    return segs / n if n else float("nan")


def _mean_bytes_retransmitted(tcp: list) -> float:
    """Payload bytes sent again, averaged over the TCP senders (NaN if the simulator does not
    report them)."""
    sent = [f["bytes_retransmitted"] for f in tcp if f.get("bytes_retransmitted") is not None]
    return sum(sent) / len(sent) if sent else float("nan")


def _mean_timeout_idle(tcp: list) -> float:
    """The idle before a retransmission, averaged over the flows that had one (unweighted:
    the summaries give each flow's mean, not its count of such gaps)."""
    idles = [f["mean_timeout_idle_s"] for f in tcp if f.get("mean_timeout_idle_s") is not None]
    return sum(idles) / len(idles) if idles else float("nan")
