"""The measures a report shows: how each is written and named, and the ones it derives from
a run's summary (the aggregate table lacks them)."""

from __future__ import annotations

import math
from typing import Any, Dict, Mapping, Optional, Sequence

_TIMES = ("completion_s", "mean_idle_s", "inter_pdu_idle_s", "train_min_gap_s", "train_recovery_s")

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
    "transfer_throughput_bps": "transfer throughput",
    "completion_s": "transfer completion time",
    "retransmitted_fraction": "retransmitted share of the data packets",
    "mean_burst_segments": "mean burst length (segments)",
    "mean_idle_s": "mean idle time between bursts",
    "train_pdus": "longest conforming train, eq. (2) (PDUs)",
    "train_recovery_s": "recovery idle c·(T_SCR − T_PCR)",
    "inter_pdu_idle_s": "inter-PDU idle time I_p",
    "scr_max_goodput_bps": "most TCP data the SCR carries",
    "scr_utilisation": "throughput / the SCR's maximum",
}


def fmt(measure: str, value: Optional[float]) -> str:
    """A measure's value as the report writes it (Mbit/s, %, or plain)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if measure.endswith("_bps"):
        return f"{value / 1e6:.3f} Mbit/s"
    if measure in ("gfr_efficiency", "short_rtt_ratio", "long_rtt_ratio", "min_vc_ratio", "tagged_fraction", "tagged_fraction_below_mcr"):
        return f"{value * 100:.1f} %"
    if measure in ("efficiency", "mean_plr", "packet_loss_ratio", "utilization", "mean_retransmission_ratio", "retransmission_ratio"):
        return f"{value * 100:.2f} %"
    if measure in ("mean_clr", "clr", "flr", "data_clr", "data_flr"):
        return f"{value * 100:.2f} %" if value >= 1e-3 else f"{value:.2e}"
    if measure == "total_timeouts":
        return f"{value:.3g}"
    if measure in ("retransmitted_fraction", "scr_utilisation"):
        return f"{value * 100:.1f} %"
    if measure in _TIMES:
        if abs(value) < 1e-3:
            return f"{value * 1e6:.4g} µs"
        return f"{value * 1e3:.4g} ms" if abs(value) < 1 else f"{value:.4g} s"
    if measure == "fairness_index":
        return f"{value:.3f}"
    return f"{value:.4g}"


def mname(measure: str) -> str:
    """A measure's name in prose."""
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
    }


def transfer_measures(summary: Mapping[str, Any], data_vcs: Sequence[Mapping[str, Any]]) -> Dict[str, float]:
    """The measures of finite TCP transfers that Bonaventure, Klovning & Danthine (1997),
    *Is VBR a solution for an ATM LAN?*, report, over all the TCP flows of a run.

    ``transfer_throughput_bps``: the bytes the TCP flows delivered × 8 over the time the last
    one completed (the run's duration if one did not); ``completion_s``: that time (NaN if a
    transfer did not complete); ``segments_sent`` / ``segments_retransmitted``: sums;
    ``retransmitted_fraction``: retransmitted segments per original data segment (what
    ``netstat -s`` counts over the packets a transfer needs); ``mean_burst_segments`` and
    ``mean_idle_s``: over all the flows' bursts and the idle gaps between them;
    ``cells_policed``, ``corrupted_pdus``, ``reassembly_timeouts``: sums over the data VCs.
    NaN without TCP flows."""
    nan = float("nan")
    tcp = [f for f in summary.get("flows", []) if f.get("segments_sent") is not None]
    vc_sum = lambda k: float(sum(v.get(k) or 0 for v in data_vcs)) if data_vcs else nan  # noqa: E731
    out = {k: vc_sum(k) for k in ("cells_policed", "corrupted_pdus", "reassembly_timeouts")}
    if not tcp:
        return {**out, **dict.fromkeys(
            ("transfer_throughput_bps", "completion_s", "segments_sent", "segments_retransmitted",
             "retransmitted_fraction", "mean_burst_segments", "mean_idle_s"), nan)}  # fmt: skip
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
    }
