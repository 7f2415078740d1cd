"""Plots of celltrain results (matplotlib, no display needed).

Every function returns a :class:`matplotlib.figure.Figure` built without ``pyplot`` (so it
works in threads, on servers and in notebooks alike, where it displays as usual), or draws
into the ``ax=`` it is given and returns that axes' figure. Save with ``fig.savefig(path)``
or :func:`png_bytes`; :func:`data_uri` gives an ``<img src=…>`` value.

* :func:`measure_vs_param` — a measure against a swept parameter, one line per variant,
  mean over seeds with 95 % confidence bars (or min–max), optionally beside published points.
* :func:`flow_bars` — one bar per flow against an expected value (a fair share, a MCR…).
* :func:`timeseries` — a quantity against time, one line per group.
* :func:`quantity_over_time` — one quantity of a long series (a sweep's `SweepResult.timeseries`
  or `.changes`) against time, one line per sweep point.
"""

from __future__ import annotations

import base64
import io
from typing import Any, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = ["measure_vs_param", "flow_bars", "timeseries", "png_bytes", "data_uri", "new_axes"]

_LABELS = {
    "goodput_bps": ("goodput", "Mbit/s", 1e-6),
    "max_goodput_bps": ("max goodput", "Mbit/s", 1e-6),
    "efficiency": ("efficiency", "%", 100.0),
    "fairness_index": ("Jain fairness index", "", 1.0),
    "mean_plr": ("mean packet loss ratio", "%", 100.0),
    "mean_clr": ("mean cell loss ratio", "%", 100.0),
    "mean_retransmission_ratio": ("mean retransmission ratio", "%", 100.0),
    "packet_loss_ratio": ("packet loss ratio", "%", 100.0),
    "clr": ("cell loss ratio", "", 1.0),
    "n_sources": ("number of sources N", "", 1.0),
}


def _describe(column: str, scale: Optional[float], label: Optional[str]) -> Tuple[str, float]:
    name, unit, default = _LABELS.get(column, (column.replace("_", " "), "", 1.0))
    s = default if scale is None else scale
    if label is None:
        label = f"{name} ({unit})" if unit and s == default else name
    return label, s


class NotebookFigure(Figure):
    """A :class:`~matplotlib.figure.Figure` that shows itself in Jupyter as a PNG (the
    notebook's rich display protocol), whatever the backend: made without ``pyplot``, a
    figure would otherwise print as ``<Figure size …>`` unless ``%matplotlib inline`` or
    ``pyplot`` had been used first."""

    def _repr_png_(self) -> bytes:
        return png_bytes(self)


def new_axes(figsize: Tuple[float, float] = (6.4, 4.0)) -> Axes:
    """A fresh figure with one axes (no pyplot state involved; it displays in Jupyter)."""
    fig = NotebookFigure(figsize=figsize, layout="constrained")
    FigureCanvasAgg(fig)
    return fig.add_subplot()


def _groups(df: pd.DataFrame, by: Union[None, str, Sequence[str]]):
    if by is None:
        yield None, df
        return
    cols = [by] if isinstance(by, str) else list(by)
    for key, part in df.groupby(cols, sort=False, observed=True):
        key = key if isinstance(key, tuple) else (key,)
        yield ", ".join(str(k) for k in key), part


def measure_vs_param(
    data: pd.DataFrame,
    x: str,
    y: str,
    by: Union[None, str, Sequence[str]] = None,
    reference: Optional[Mapping[str, Tuple[Sequence[float], Sequence[float]]]] = None,
    ax: Optional[Axes] = None,
    scale: Optional[float] = None,
    ylabel: Optional[str] = None,
    xlabel: Optional[str] = None,
    title: Optional[str] = None,
    ylim: Optional[Tuple[float, float]] = None,
    bars: str = "ci95",
) -> Figure:
    """A measure ``y`` against a swept parameter ``x``, one line per value of ``by``.

    ``data`` is a sweep's ``aggregate`` table (any table with the columns works). Rows
    with the same ``x`` in a group (seeds) are averaged; bars show the 95 % confidence
    interval of the mean (Student t, :mod:`celltrain.stats`; none with one seed), or with
    ``bars="minmax"`` the seeds' min and max.
    ``reference`` maps a label to ``(xs, ys)`` in the same units as ``y`` (before
    ``scale``), drawn as open markers: published numbers, a theoretical curve…
    Known measures are scaled for display (efficiency in %, goodput in Mbit/s) unless
    ``scale`` is given.
    """
    ax = ax or new_axes()
    ylabel, s = _describe(y, scale, ylabel)
    xlabel, _ = _describe(x, 1.0, xlabel)
    markers = "osD^v<>ph*"
    if bars not in ("ci95", "minmax"):
        raise ValueError(f"bars={bars!r}: use 'ci95' or 'minmax'")
    for i, (label, part) in enumerate(_groups(data, by)):
        g = part.groupby(x, sort=True)[y].agg(["mean", "min", "max"])
        xs = g.index.to_numpy()
        mean = g["mean"].to_numpy(dtype=float) * s
        if bars == "ci95":
            from .stats import mean_ci95

            half = [mean_ci95(v.tolist())[1] for _x, v in part.groupby(x, sort=True)[y]]
            half = np.nan_to_num(np.asarray(half, dtype=float) * abs(s), nan=0.0)
            err = np.vstack([half, half])
        else:
            err = np.vstack([mean - g["min"].to_numpy(dtype=float) * s, g["max"].to_numpy(dtype=float) * s - mean])
        err = np.maximum(err, 0.0)  # a mean can fall a rounding error outside [min, max]
        ax.errorbar(
            xs, mean, yerr=err, marker=markers[i % len(markers)], capsize=3, label=label or y,
        )  # fmt: skip
    for j, (label, (rxs, rys)) in enumerate((reference or {}).items()):
        ax.plot(
            list(rxs), [v * s for v in rys], linestyle="--", marker=markers[(j + 5) % len(markers)],
            markerfacecolor="none", color="black", label=label,
        )  # fmt: skip
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if pd.api.types.is_integer_dtype(data[x]):
        # Counts (sources, links…): whole ticks only, never 7.5 sources.
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if ylim is not None:
        ax.set_ylim(*ylim)
    if title:
        ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    return ax.figure


def flow_bars(
    flows: pd.DataFrame,
    y: str = "goodput_bps",
    expected: Union[None, float, Sequence[float], Mapping[str, float]] = None,
    label: str = "name",
    ax: Optional[Axes] = None,
    scale: Optional[float] = None,
    ylabel: Optional[str] = None,
    title: Optional[str] = None,
    expected_label: str = "expected",
) -> Figure:
    """One bar per flow (row of ``flows``, labelled by column ``label``) of measure ``y``,
    against ``expected``: one value for all (a horizontal line), or one per flow
    (a sequence in row order, or a mapping from label to value), drawn as markers."""
    ax = ax or new_axes()
    ylabel, s = _describe(y, scale, ylabel)
    names = [str(v) for v in flows[label]]
    values = flows[y].to_numpy(dtype=float) * s
    pos = np.arange(len(names))
    ax.bar(pos, values, color="tab:blue", label=y.replace("_", " "))
    if expected is not None:
        if isinstance(expected, (int, float)):
            ax.axhline(float(expected) * s, color="black", linestyle="--", label=expected_label)
        else:
            if isinstance(expected, Mapping):
                ev = [expected.get(n, np.nan) for n in names]
            else:
                ev = list(expected)
            ax.plot(pos, np.asarray(ev, dtype=float) * s, "k_", markersize=22, mew=2, label=expected_label)
    ax.set_xticks(pos, names, rotation=60 if len(names) > 8 else 0, fontsize="small")
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize="small")
    return ax.figure


def timeseries(
    data: pd.DataFrame,
    y: str,
    time: str = "time_s",
    by: Union[None, str, Sequence[str]] = None,
    ax: Optional[Axes] = None,
    scale: Optional[float] = None,
    ylabel: Optional[str] = None,
    title: Optional[str] = None,
    step: bool = False,
) -> Figure:
    """``y`` against ``time`` (seconds), one line per value of ``by`` (e.g. a flow or port
    name column); ``step=True`` draws piecewise-constant values (queue lengths, windows)."""
    if time not in data.columns:
        raise KeyError(f"no time column {time!r} (columns: {list(data.columns)})")
    ax = ax or new_axes((7.0, 3.6))
    ylabel, s = _describe(y, scale, ylabel)
    for label, part in _groups(data, by):
        part = part.sort_values(time)
        t = part[time].to_numpy(dtype=float)
        v = part[y].to_numpy(dtype=float) * s
        if step:
            ax.step(t, v, where="post", label=label or y)
        else:
            ax.plot(t, v, label=label or y)
    ax.set_xlabel("time (s)")
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    ax.grid(True, alpha=0.3)
    if by is not None:
        ax.legend(fontsize="small")
    return ax.figure


def quantity_over_time(
    data: pd.DataFrame,
    quantity: str,
    subject: Optional[str] = None,
    by: Union[None, str, Sequence[str]] = None,
    ax: Optional[Axes] = None,
    scale: Optional[float] = None,
    ylabel: Optional[str] = None,
    title: Optional[str] = None,
    step: bool = True,
) -> Figure:
    """One ``quantity`` of a long (tidy) time series against time, one line per sweep point:
    ``data`` is :attr:`celltrain.SweepResult.timeseries` or ``.changes`` (or a run's
    ``timeseries_long`` / ``changes``). ``subject`` picks a flow or port (needed when the
    quantity has several); ``by`` names the columns that tell the lines apart (default: the
    columns before ``time_s`` other than ``scenario``, i.e. the point's parameters and seed).
    Values are drawn as steps (each holds until the next row), as change records mean."""
    for column in ("time_s", "subject", "quantity", "value"):
        if column not in data.columns:
            raise KeyError(f"not a long time series: no {column!r} column (columns: {list(data.columns)})")
    part = data[data["quantity"] == quantity]
    if part.empty:
        known = sorted(set(data["quantity"].dropna()))
        raise ValueError(f"no quantity {quantity!r} (quantities: {known})")
    subjects = sorted(set(part["subject"].dropna()))
    if subject is None and len(subjects) > 1:
        raise ValueError(f"{quantity!r} is recorded for {subjects}: pick one with subject=")
    if subject is not None:
        part = part[part["subject"] == subject]
        if part.empty:
            raise ValueError(f"no {quantity!r} of {subject!r} (subjects: {subjects})")
    if by is None:
        ident = list(data.columns[: list(data.columns).index("time_s")])
        by = [c for c in ident if c != "scenario" and part[c].nunique() > 1] or None
    name = f"{subject or subjects[0]}.{quantity}"
    part = part.rename(columns={"value": name})
    return timeseries(part, name, by=by, ax=ax, scale=scale, ylabel=ylabel, title=title, step=step)


def png_bytes(fig: Figure, dpi: int = 100) -> bytes:
    """The figure as PNG bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


def data_uri(fig_or_png: Union[Figure, bytes], dpi: int = 100) -> str:
    """A ``data:image/png;base64,…`` URI of a figure (or of PNG bytes)."""
    png = fig_or_png if isinstance(fig_or_png, bytes) else png_bytes(fig_or_png, dpi)
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")
