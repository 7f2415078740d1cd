"""GFR's measures and figure (Bonaventure & Nelissen 2001, *Guaranteed Frame Rate: a better
service for TCP/IP in ATM networks*): each GFR VC's goodput against its expected goodput — its
MCR plus the unreserved rate shared in proportion to the MCRs, less the ATM, AAL5, IP and TCP
overheads — and what the ingress F-GCRA tagged.

The data VCs are the VCs the flows send on, in the order of the flows (Tables 1 and 2: pairs
1–5 have the short delay, 6–10 the long one); the first half of them is the short-RTT group.
A run asks for these with ``model = "gfr"``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

import numpy as np

_DROPS_OF_CLP0 = ("buffer_full", "epd", "ppd")


def _data_vcs(summary: Mapping[str, Any]) -> List[Mapping[str, Any]]:
    """The GFR VCs that carry the flows' data, in the order of the flows."""
    by_name = {v["name"]: v for v in summary.get("vcs", []) if v.get("gfr")}
    order = list(dict.fromkeys(f["vc"] for f in summary.get("flows", [])))
    return [by_name[n] for n in order if n in by_name]


def vc_table(summary: Mapping[str, Any]) -> List[Dict[str, Any]]:
    """Per data VC: name, MCR, goodput (sum of its flows'), expected goodput, their ratio,
    group ("short" / "long"), frames tagged and seen by the F-GCRA."""
    vcs = _data_vcs(summary)
    if not vcs:
        return []
    goodput: Dict[str, float] = {}
    for f in summary["flows"]:
        goodput[f["vc"]] = goodput.get(f["vc"], 0.0) + float(f["goodput_bps"])
    total_mcr = sum(v["gfr"]["mcr_bps"] for v in vcs)
    # The bottleneck's rate less every overhead: what the VCs share in proportion to their MCRs.
    usable = float(summary["aggregate"].get("max_goodput_bps") or np.nan)
    rows = []
    half = len(vcs) // 2
    for k, v in enumerate(vcs):
        g = v["gfr"]
        expected = usable * g["mcr_bps"] / total_mcr
        frames = g["eligible_frames"] + g["ineligible_frames"]
        rows.append({
            "vc": v["name"], "mcr_bps": float(g["mcr_bps"]), "goodput_bps": goodput.get(v["name"], 0.0),
            "expected_bps": expected, "ratio": goodput.get(v["name"], 0.0) / expected,
            "group": "short" if k < half else "long", "tagged_frames": g["tagged_frames"],
            "tagged_cells": g["tagged_cells"], "eligible_frames": g["eligible_frames"], "frames": frames,
        })  # fmt: skip
    return rows


def _mean(xs: List[float]) -> float:
    return float(np.mean(xs)) if xs else float("nan")


def gfr_measures(summary: Mapping[str, Any]) -> Dict[str, float]:
    """The GFR measures of one run (empty without GFR VCs).

    ``gfr_efficiency``: Σ goodput / Σ expected goodput; ``short_rtt_ratio`` /
    ``long_rtt_ratio``: the same over each delay group, and ``rtt_bias`` their difference;
    ``min_vc_ratio``, ``mean_abs_deviation`` (mean |goodput/expected − 1|) and
    ``short_abs_deviation`` (over the short group); ``high_minus_low_mcr_ratio``: the mean
    ratio of the highest-MCR VCs less that of the lowest-MCR ones; ``mcr{M}_{short,long}_goodput_bps``
    for each MCR of M Mbit/s, and ``mcr{M}_goodput_bps`` the mean over both delay groups (BN01
    gives one number for "the workstation attached to a 10 Mb/s VC"); ``tagged_cells``, ``eligible_frames``, ``tagged_fraction`` (tagged
    frames / frames) and ``tagged_fraction_below_mcr`` (the least tagged fraction among the VCs
    whose goodput stayed below their MCR); ``clp0_dropped_cells``: cells the bottleneck dropped
    other than by its CLP = 1 rule (buffer full, whole-frame refusals, PPD)."""
    rows = vc_table(summary)
    if not rows:
        return {}
    out: Dict[str, float] = {}
    total_good, total_exp = sum(r["goodput_bps"] for r in rows), sum(r["expected_bps"] for r in rows)
    out["gfr_efficiency"] = total_good / total_exp
    for group in ("short", "long"):
        part = [r for r in rows if r["group"] == group]
        out[f"{group}_rtt_ratio"] = sum(r["goodput_bps"] for r in part) / sum(r["expected_bps"] for r in part)
        for r in part:
            out[f"mcr{r['mcr_bps'] / 1e6:g}_{group}_goodput_bps"] = r["goodput_bps"]
    for mcr in sorted({r["mcr_bps"] for r in rows}):
        out[f"mcr{mcr / 1e6:g}_goodput_bps"] = _mean([r["goodput_bps"] for r in rows if r["mcr_bps"] == mcr])
    out["rtt_bias"] = out["short_rtt_ratio"] - out["long_rtt_ratio"]
    out["min_vc_ratio"] = min(r["ratio"] for r in rows)
    out["mean_abs_deviation"] = _mean([abs(r["ratio"] - 1.0) for r in rows])
    out["short_abs_deviation"] = _mean([abs(r["ratio"] - 1.0) for r in rows if r["group"] == "short"])
    lo, hi = min(r["mcr_bps"] for r in rows), max(r["mcr_bps"] for r in rows)
    out["high_minus_low_mcr_ratio"] = _mean([r["ratio"] for r in rows if r["mcr_bps"] == hi]) - _mean(
        [r["ratio"] for r in rows if r["mcr_bps"] == lo]
    )
    frames = sum(r["frames"] for r in rows)
    out["tagged_cells"] = float(sum(r["tagged_cells"] for r in rows))
    out["eligible_frames"] = float(sum(r["eligible_frames"] for r in rows))
    out["tagged_fraction"] = sum(r["tagged_frames"] for r in rows) / frames if frames else float("nan")
    below = [r["tagged_frames"] / r["frames"] for r in rows if r["goodput_bps"] < r["mcr_bps"] and r["frames"]]
    out["tagged_fraction_below_mcr"] = min(below) if below else float("nan")
    out["clp0_dropped_cells"] = float(_clp0_drops(summary))
    return out


def _clp0_drops(summary: Mapping[str, Any]) -> int:
    name = summary["aggregate"].get("bottleneck")
    port = next((p for p in summary.get("ports", []) if p["name"] == name), None)
    return sum(port["dropped"].get(k, 0) for k in _DROPS_OF_CLP0) if port else 0


def vc_figure(spec: Mapping[str, Any], result: Any, published: Optional[Mapping[str, Any]], model: Mapping[str, Any]) -> Any:
    """Goodput against MCR per VC (seed-mean), short and long delay groups apart, beside the
    expected goodput — BN01's Figs. 6, 7, 9 and 10 — one panel per variant."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from .rows import variants

    names = variants(result.aggregate)
    fig = Figure(figsize=(4.4 * len(names) + 0.6, 3.8), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, len(names), squeeze=False)[0]
    keys = result.aggregate["key"].tolist()
    labels = result.aggregate["variant"].tolist() if "variant" in result.aggregate.columns else [None] * len(keys)
    by_key = dict(zip(result.aggregate["key"], result.summaries))
    for ax, v in zip(axes, names):
        tables = [vc_table(by_key[k]) for k, lab in zip(keys, labels) if lab == v]
        rows = tables[0]
        for group, marker in (("short", "o"), ("long", "s")):
            idx = [i for i, r in enumerate(rows) if r["group"] == group]
            mcr = [rows[i]["mcr_bps"] / 1e6 for i in idx]
            good = [_mean([t[i]["goodput_bps"] for t in tables]) / 1e6 for i in idx]
            ax.plot(mcr, good, marker=marker, linestyle="-", label=f"{group} delay (pairs {idx[0] + 1}–{idx[-1] + 1})")
        exp = sorted({(r["mcr_bps"] / 1e6, r["expected_bps"] / 1e6) for r in rows})
        ax.plot([e[0] for e in exp], [e[1] for e in exp], "k--", label="expected goodput")
        ax.set_xlabel("MCR (Mbit/s)")
        ax.set_ylabel("goodput (Mbit/s)")
        ax.set_title(f"{v or 'celltrain'} (mean of {len(tables)} run{'s' if len(tables) > 1 else ''})", fontsize="small")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="x-small")
    return fig


def _names() -> None:
    """The GFR measures' names in prose (added to the report's table of names)."""
    from .measures import MEASURE_NAMES

    MEASURE_NAMES.update({
        "gfr_efficiency": "goodput efficiency (Σ goodput / Σ expected goodput)",
        "short_rtt_ratio": "goodput / expected goodput of the short-delay VCs",
        "long_rtt_ratio": "goodput / expected goodput of the long-delay VCs",
        "rtt_bias": "short-delay minus long-delay goodput ratio",
        "min_vc_ratio": "the worst VC's goodput / expected goodput",
        "mean_abs_deviation": "mean |goodput / expected − 1| over the VCs",
        "short_abs_deviation": "mean |goodput / expected − 1| over the short-delay VCs",
        "high_minus_low_mcr_ratio": "goodput ratio of the highest-MCR VCs minus that of the lowest-MCR VCs",
        "tagged_fraction": "share of the frames tagged by the F-GCRA",
        "tagged_fraction_below_mcr": "least share of frames tagged among the VCs below their MCR",
        "clp0_dropped_cells": "cells the bottleneck dropped other than by its CLP = 1 rule",
        "tagged_cells": "cells tagged by the F-GCRA",
        "eligible_frames": "frames found eligible by the F-GCRA",
    })  # fmt: skip


_names()
