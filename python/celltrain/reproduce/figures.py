"""The report's matplotlib figures, one function per ``[[experiment.plot]]`` kind."""

from __future__ import annotations

from typing import Any, Callable, Dict, Mapping, Optional

import numpy as np

from .. import plot as _plot
from .._sweep import SweepResult
from .measures import mname
from .gfr import vc_figure
from .models import e1_source, cac_regions, e1_port
from .rows import of_variant, point_cols, variants


def figure(spec: Mapping[str, Any], result: SweepResult, published: Optional[Mapping[str, Any]], model: Mapping[str, Any]) -> Any:
    """The figure a ``[[experiment.plot]]`` asks for, of run ``result``."""
    draw = _KINDS.get(spec["kind"])
    if draw is None:
        raise ValueError(f"unknown plot kind {spec['kind']!r}")
    return draw(spec, result, published, model)


def _measure_vs_param(spec: Mapping[str, Any], result: SweepResult, published: Optional[Mapping[str, Any]], model: Mapping[str, Any]) -> Any:
    """A measure against a grid parameter, one line per variant; the published numbers and a
    model column of the run (e.g. eq. 2's ``train_pdus``) as reference lines."""
    x, y = spec["x"], spec["y"]
    reference = None
    if published:
        rows = [r for r in published["rows"] if y in r]
        reference = {published.get("label", "paper"): ([r[x] for r in rows], [r[y] for r in rows])}
    by = "variant" if "variant" in result.aggregate.columns else None
    if "model" in spec:
        reference = dict(reference or {})
        for v in variants(result.aggregate):
            m = of_variant(result.aggregate, v).groupby(x, sort=True)[spec["model"]].mean()
            label = spec.get("model_label", spec["model"]) + (f", {v}" if v else "")
            reference[label] = (list(m.index), list(m.to_numpy(dtype=float)))
    ylim = tuple(spec["ylim"]) if "ylim" in spec else None
    auto = y.endswith("_bps") and y not in _plot._LABELS  # e.g. transfer_throughput_bps in Mbit/s
    scale = spec.get("scale", 1e-6 if auto else None)
    ylabel = spec.get("ylabel", f"{mname(y)} (Mbit/s)" if auto else None)
    fig = _plot.measure_vs_param(
        result.aggregate, x, y, by=by, reference=reference, ylim=ylim, title=spec.get("title", spec.get("caption")),
        scale=scale, ylabel=ylabel,
    )  # fmt: skip
    if spec.get("logy"):
        fig.axes[0].set_yscale("log")
    return fig


def _flow_bars(spec: Mapping[str, Any], result: SweepResult, published: Optional[Mapping[str, Any]], model: Mapping[str, Any]) -> Any:
    """Each flow's measure in the first run of each variant, beside the expected share."""
    from matplotlib.figure import Figure

    names = variants(result.aggregate)
    fig = Figure(figsize=(4.2 * len(names) + 1.0, 3.8), layout="constrained")
    axes = fig.subplots(1, len(names), squeeze=False)[0]
    for ax, v in zip(axes, names):
        agg = of_variant(result.aggregate, v)
        first = agg.iloc[0]
        flows = of_variant(result.flows, v)
        flows = flows[(flows["seed"] == first["seed"]) & (flows["scenario"] == first["scenario"])]
        for c in point_cols(result):
            if c in flows.columns:
                flows = flows[flows[c] == first[c]]
        expected = spec.get("expected")
        if expected == "fair_share":
            expected = float(first["max_goodput_bps"]) / len(flows)
        _plot.flow_bars(flows, spec.get("y", "goodput_bps"), expected=expected, ax=ax,
                        title=f"{v or 'celltrain'} (seed {first['seed']})",
                        expected_label=spec.get("expected_label", "expected"))  # fmt: skip
    return fig


def _cac_region(spec: Mapping[str, Any], result: SweepResult, published: Optional[Mapping[str, Any]], model: Mapping[str, Any]) -> Any:
    """The measured admissible grid points, and each CAC rule's boundary as a step line."""
    regions = cac_regions(result, model)
    points = regions["_points"]
    ax = _plot.new_axes((8.4, 4.6))
    raw = regions["measured_raw"]
    adm = [p for p in points if p in regions["measured"]]
    rej = [p for p in points if p not in raw]
    hole = [p for p in points if p in raw and p not in regions["measured"]]
    if adm:
        ax.scatter([p[0] for p in adm], [p[1] for p in adm], c="tab:green", marker="o", label="measured: admissible")
    if hole:
        ax.scatter([p[0] for p in hole], [p[1] for p in hole], c="tab:olive", marker="o", alpha=0.5,
                   label="CLR ≤ target, above an inadmissible point")  # fmt: skip
    if rej:
        ax.scatter([p[0] for p in rej], [p[1] for p in rej], c="tab:red", marker="x", label="measured: CLR > target")
    _cac_boundaries(ax, points, model)
    ax.set_xlabel("N_rt (rt-VBR sources)")
    ax.set_ylabel("N_nrt (nrt-VBR sources)")
    ax.set_title("CAC region, target CLR 1e-4")
    ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(True, alpha=0.3)
    return ax.figure


def _cac_boundaries(ax: Any, points: list, model: Mapping[str, Any]) -> None:
    """Every CAC rule's boundary (the largest N_nrt it admits by N_rt) as a step line, over the
    grid's N_rt and up to its largest N_nrt."""
    n_rts = sorted({p[0] for p in points})
    top = max(p[1] for p in points)
    source = e1_source(model)
    from ..region import BOUNDARY_STYLES

    for rule, (color, ls, label) in BOUNDARY_STYLES.items():
        edge = e1_port(model).boundary(rule, source, source, max(n_rts), top)
        ys = [np.nan if edge[a] is None else edge[a] for a in n_rts]
        ax.step(n_rts, ys, where="mid", color=color, linestyle=ls, linewidth=2, label=f"{label} (largest N_nrt)")


_KINDS: Dict[str, Callable[..., Any]] = {
    "measure_vs_param": _measure_vs_param,
    "flow_bars": _flow_bars,
    "cac_region": _cac_region,
    "gfr_vcs": vc_figure,
}
