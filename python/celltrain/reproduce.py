"""Reproductions of the source papers' experiments, and their report.

``celltrain reproduce ID|PAPER|all [--out DIR] [--quick]`` (or :func:`reproduce`) runs the
experiments of ``shared/experiments.md`` that exist as built-in scenarios, sets celltrain's
numbers beside the papers' published ones and checks each of the papers' claims, then
writes ``DIR/index.md`` (with ``DIR/img/*.png``) and a self-contained ``DIR/index.html``
(images embedded as data URIs).

What is run, the published numbers (each with the table it comes from) and the claims with
their criteria are data: ``reproductions/seedNNN.toml`` (``reproductions/README.md``
describes the schema). A claim's verdict — **holds**, **does not hold** or **not yet
runnable** — is always computed from the measured values and the claim's criterion; a claim
whose run needs a scenario celltrain does not have yet is *not yet runnable*.

Runs go through :func:`celltrain.sweep` into ``DIR/store``, so a report re-run (or one
interrupted) reuses every run already done.
"""

from __future__ import annotations

import ast
import datetime as _dt
import functools
import html
import math
import operator
import os
import re
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import pandas as pd

from . import _celltrain
from . import plot as _plot
from ._atomic import write_atomic
from ._core import builtin_names
from ._sweep import SweepResult, combine, sweep

try:  # Python >= 3.11
    import tomllib as _toml
except ModuleNotFoundError:  # pragma: no cover
    import tomli as _toml  # type: ignore[no-redef]

__all__ = ["reproduce", "Report", "Verdict", "UnknownTarget", "data_dir", "HOLDS", "FAILS", "NOT_RUNNABLE"]

HOLDS = "holds"
FAILS = "does not hold"
NOT_RUNNABLE = "not yet runnable"


class UnknownTarget(ValueError):
    """``reproduce`` was given something that is neither an experiment, a paper nor ``all``."""


def data_dir() -> Path:
    """The directory of the reproduction data files (``reproductions/`` in the repository)."""
    return Path(__file__).resolve().parent / "reproductions"


def _load_toml(path: Path) -> Dict[str, Any]:
    with open(path, "rb") as f:
        return _toml.load(f)


# --------------------------------------------------------------------------------------
# Formatting of measures


def fmt(measure: str, value: Optional[float]) -> str:
    """A measure's value as the report writes it (Mbit/s, %, or plain)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if measure.endswith("_bps"):
        return f"{value / 1e6:.3f} Mbit/s"
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


def _mname(measure: str) -> str:
    return MEASURE_NAMES.get(measure, measure.replace("_", " "))


# --------------------------------------------------------------------------------------
# Derived parameters: "{1.1 * 149.76 / n_sources} Mbit/s"

_OPS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
}


def _arith(expr: str, names: Mapping[str, Any]) -> float:
    """Evaluates + - * / ** on numbers and the point's parameters, nothing else."""

    def ev(node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return node.value
        if isinstance(node, ast.Name) and node.id in names:
            return float(names[node.id])
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.operand))
        raise ValueError(f"unsupported expression {expr!r}")

    return ev(ast.parse(expr, mode="eval"))


def _derive(value: Any, point: Mapping[str, Any]) -> Any:
    if not isinstance(value, str) or "{" not in value:
        return value
    return re.sub(r"\{([^{}]+)\}", lambda m: f"{_arith(m.group(1), point):.6g}", value)


# --------------------------------------------------------------------------------------
# Specifications


@dataclass
class RunSpec:
    name: str
    scenario: str
    grid: Dict[str, List[Any]]
    seeds: List[int]
    params: Dict[str, Any]
    variants: List[Dict[str, Any]]
    model: Optional[str] = None

    @classmethod
    def of(cls, d: Mapping[str, Any], quick: bool) -> "RunSpec":
        pick = lambda k, default: d.get(f"quick_{k}", d.get(k, default)) if quick else d.get(k, default)  # noqa: E731
        return cls(
            name=d["name"],
            scenario=d["scenario"],
            grid={k: list(v) for k, v in (pick("grid", {}) or {}).items()},
            seeds=list(pick("seeds", [1])),
            params=dict(pick("params", {})),
            variants=list(d.get("variants", [])),
            model=d.get("model"),
        )


@dataclass
class Verdict:
    """The verdict on one claim (for one variant of its run, where it has variants)."""

    claim: str
    text: str
    source: str
    status: str
    explanation: str
    variant: Optional[str] = None
    experiment: str = ""
    #: The claim's ``if_not`` text: what the investigation found when the verdict came out
    #: "does not hold" (shown only then).
    finding: str = ""


@dataclass
class Figure_:
    caption: str
    png: bytes
    filename: str


@dataclass
class Table:
    caption: str
    header: List[str]
    rows: List[List[str]]
    note: str = ""


@dataclass
class ExperimentOutcome:
    id: str
    title: str
    paper: str
    source: str
    notes: str
    runs: Dict[str, SweepResult] = field(default_factory=dict)
    run_specs: Dict[str, RunSpec] = field(default_factory=dict)
    missing: Dict[str, str] = field(default_factory=dict)  # run name -> scenario
    figures: List[Figure_] = field(default_factory=list)
    tables: List[Table] = field(default_factory=list)
    verdicts: List[Verdict] = field(default_factory=list)
    published_sources: List[str] = field(default_factory=list)
    wall_s: float = 0.0


@dataclass
class Report:
    """What :func:`reproduce` wrote: ``out``, ``markdown``, ``html`` paths and the outcomes."""

    out: Path
    markdown: Path
    html: Path
    quick: bool
    experiments: List[ExperimentOutcome]
    not_runnable: List[Dict[str, str]]
    wall_s: float

    @property
    def verdicts(self) -> List[Verdict]:
        return [v for e in self.experiments for v in e.verdicts]

    def verdict_counts(self) -> Dict[str, int]:
        counts = {HOLDS: 0, FAILS: 0, NOT_RUNNABLE: 0}
        for v in self.verdicts:
            counts[v.status] += 1
        return counts


# --------------------------------------------------------------------------------------
# Target selection


def _catalogue() -> Tuple[Dict[str, Any], List[Dict[str, Any]], Dict[str, Dict[str, Any]]]:
    cat = _load_toml(data_dir() / "catalogue.toml")
    papers: Dict[str, Dict[str, Any]] = {}
    for path in sorted(data_dir().glob("seed*.toml")):
        spec = _load_toml(path)
        papers[spec["paper"]] = spec
    return cat["papers"], cat["experiment"], papers


def select(target: str) -> List[str]:
    """The experiment ids ``target`` names: an id (``A5``), a paper (``seed001``, ``001``,
    ``1`` or its letter ``A``) or ``all``."""
    paper_info, experiments, _ = _catalogue()
    ids = [e["id"] for e in experiments]
    t = target.strip()
    if t.lower() == "all":
        return ids
    for i in ids:
        if i.lower() == t.lower():
            return [i]
    m = re.fullmatch(r"(?:seed)?0*(\d+)", t, re.IGNORECASE)
    for name, info in paper_info.items():
        number = int(name[len("seed") :])
        if (m and int(m.group(1)) == number) or t.upper() == info["letter"]:
            return [i for i in ids if re.fullmatch(re.escape(info["letter"]) + r"\d+", i)]
    raise UnknownTarget(
        f"unknown reproduction target {target!r}: use an experiment id ({', '.join(ids[:3])}, …), "
        f"a paper ({', '.join(paper_info)} or its letter {'/'.join(p['letter'] for p in paper_info.values())}) or 'all'"
    )


# --------------------------------------------------------------------------------------
# Running


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
        **_transfer_measures(summary, data),
    }


def _transfer_measures(summary: Mapping[str, Any], data_vcs: Sequence[Mapping[str, Any]]) -> Dict[str, float]:
    """Seed 000's measures of finite TCP transfers, over all the TCP flows of a run.

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


@functools.lru_cache(maxsize=None)
def gcra_train(scr: str, mbs: int, mtu: int, gap_s: float = 0.0, inter_pdu: Optional[str] = None) -> Dict[str, float]:
    """Seed 000's packet-train model at PCR = line rate, as ``celltrain gcra train`` computes
    it (the Rust ``celltrain_atm::contract::train``, on the UPC's own integer intervals), for
    PDUs separated by ``gap_s`` of idle, or sent every ``inter_pdu`` (the host's inter-PDU
    time as text, e.g. ``"900 us"``; the idle is then what remains once the c cells are sent):
    ``cells_per_pdu`` (c), ``t_pcr_s``, ``t_scr_s``, ``idle_s`` (I_p), ``train_pdus`` (the
    longest conforming train, eq. 2; inf when unbounded),
    ``train_min_gap_s`` (the smallest idle for an endless train, eq. 3; NaN when one PDU
    exceeds the MBS) and ``train_recovery_s`` (the idle after a maximal burst before a whole
    PDU is accepted again, c·(T_SCR − T_PCR))."""
    if inter_pdu is None:
        m = _celltrain.gcra_train(scr, mbs, gap=f"{gap_s * 1e12:.0f} ps", mtu=mtu)
    else:
        m = _celltrain.gcra_train(scr, mbs, inter_pdu=inter_pdu, mtu=mtu)
    nan = float("nan")
    return {
        "cells_per_pdu": float(m["cells_per_pdu"]),
        "t_pcr_s": m["t_pcr_s"],
        "t_scr_s": m["t_scr_s"],
        "idle_s": m["idle_s"],
        "train_pdus": float("inf") if m["train_pdus"] is None else float(m["train_pdus"]),
        "train_min_gap_s": nan if m["train_min_gap_s"] is None else m["train_min_gap_s"],
        "train_recovery_s": m["train_recovery_s"],
    }


def packet_train_measures(summary: Mapping[str, Any]) -> Dict[str, float]:
    """The packet-train model at one run's parameters (``scr``, ``mbs``, ``mtu``,
    ``processing``: the host's inter-PDU time), for runs with ``model = "packet_train"``.

    The PDUs leave the adapter at the line rate (T_PCR per cell) every ``processing``, so
    the idle between them is I_p = processing − c·T_PCR (``inter_pdu_idle_s``, at least 0);
    ``train_*`` are :func:`gcra_train` at that I_p. ``scr_max_goodput_bps``: the most TCP
    data the SCR carries, full segments of MTU − 40 bytes in c cells each sent every
    c·T_SCR; ``scr_utilisation``: ``transfer_throughput_bps`` over it."""
    p = summary["params"]
    mtu = int(re.match(r"\s*(\d+)", str(p["mtu"])).group(1))  # type: ignore[union-attr]
    model = gcra_train(str(p["scr"]), int(p["mbs"]), mtu, inter_pdu=str(p["processing"]))
    max_goodput = (mtu - 40) * 8.0 / (model["cells_per_pdu"] * model["t_scr_s"])
    throughput = _transfer_measures(summary, [])["transfer_throughput_bps"]
    return {
        "cells_per_pdu": model["cells_per_pdu"],
        "inter_pdu_idle_s": model["idle_s"],
        "train_pdus": model["train_pdus"],
        "train_min_gap_s": model["train_min_gap_s"],
        "train_recovery_s": model["train_recovery_s"],
        "scr_max_goodput_bps": max_goodput,
        "scr_utilisation": throughput / max_goodput,
    }


def _run(
    exp_id: str,
    spec: RunSpec,
    store: Path,
    executor: Any,
    jobs: Optional[int],
    progress: bool,
) -> SweepResult:
    variants = spec.variants or [{"name": None, "params": {}}]
    results = []
    for variant in variants:
        vparams = dict(variant.get("params", {}))

        def params_for(point: Dict[str, Any], vparams: Dict[str, Any] = vparams) -> Dict[str, Any]:
            merged = {**spec.params, **vparams}
            return {k: _derive(v, point) for k, v in merged.items()}

        labels = {"variant": variant["name"]} if variant.get("name") is not None else None
        results.append(
            sweep(
                spec.scenario,
                grid=spec.grid,
                seeds=spec.seeds,
                store=store,
                executor=executor,
                jobs=jobs,
                progress=progress,
                params=params_for,
                labels=labels,
            )
        )
    result = combine(results)
    order = {v["name"]: i for i, v in enumerate(variants)}
    if spec.variants:
        for name in ("flows", "vcs", "ports", "categories", "aggregate"):
            df = getattr(result, name)
            df = df.iloc[np.argsort(df["variant"].map(order).to_numpy(), kind="stable")].reset_index(drop=True)
            setattr(result, name, df)
        by_key = {k: s for (_l, s, k) in result._entries}
        result.summaries = [by_key[k] for k in result.aggregate["key"]]
    derived = pd.DataFrame([derived_measures(s) for s in result.summaries], index=result.aggregate.index)
    if spec.model == "packet_train":
        model = pd.DataFrame([packet_train_measures(s) for s in result.summaries], index=result.aggregate.index)
        derived = pd.concat([derived, model], axis=1)
    elif spec.model is not None:
        raise ValueError(f"run {spec.name}: unknown model {spec.model!r}")
    result.aggregate = pd.concat([result.aggregate.drop(columns=list(derived.columns), errors="ignore"), derived], axis=1)
    result._grid = list(spec.grid)  # type: ignore[attr-defined]
    return result


def _group_cols(df: pd.DataFrame, x: Optional[str] = None) -> List[str]:
    cols = []
    if "variant" in df.columns:
        cols.append("variant")
    if x:
        cols.append(x)
    return cols


def _variants(df: pd.DataFrame) -> List[Optional[str]]:
    if "variant" not in df.columns:
        return [None]
    return list(dict.fromkeys(df["variant"].tolist()))


def _of_variant(df: pd.DataFrame, variant: Optional[str]) -> pd.DataFrame:
    return df if variant is None else df[df["variant"] == variant]


def _point_cols(result: SweepResult) -> List[str]:
    grid = getattr(result, "_grid", None)
    if grid is not None:
        return list(grid)
    return [p for p in result.params if p != "variant"]


# --------------------------------------------------------------------------------------
# Claims


def _at_x(df: pd.DataFrame, claim: Optional[Mapping[str, Any]]) -> pd.DataFrame:
    """The rows a claim is about: those whose ``x`` is in its ``at_x`` list, if it has one."""
    if not claim or "at_x" not in claim:
        return df
    return df[df[claim["x"]].isin(list(claim["at_x"]))]


def _means(result: SweepResult, variant: Optional[str], measure: str, claim: Optional[Mapping[str, Any]] = None) -> pd.Series:
    """Mean of ``measure`` over seeds for each point of one variant (indexed by point)."""
    df = _at_x(_of_variant(result.aggregate, variant), claim)
    cols = [c for c in _point_cols(result) if c in df.columns and df[c].nunique(dropna=False) > 1]
    if not cols:
        return pd.Series([df[measure].mean()], index=["(single point)"])
    return df.groupby(cols, sort=True)[measure].mean()


def _where(index_value: Any, names: Sequence[str]) -> str:
    if index_value == "(single point)":
        return ""
    vals = index_value if isinstance(index_value, tuple) else (index_value,)
    return " at " + ", ".join(f"{n}={v}" for n, v in zip(names, vals))


def _series_text(means: pd.Series, measure: str, x: str) -> str:
    return ", ".join(f"{x}={k}: {fmt(measure, v)}" for k, v in means.items())


#: Claim kinds judged once per variant of their run (the others compare variants, or have none).
_PER_VARIANT = (
    "close_to", "all_at_least", "all_at_most", "all_between", "decreases", "increases", "min_flow_at_most", "best_at",
    "ratio_at_least", "ratio_at_most", "ratio_between", "run_ratio",
)  # fmt: skip


def _check(
    claim: Mapping[str, Any],
    result: SweepResult,
    variant: Optional[str],
    model: Mapping[str, Any],
    runs: Optional[Mapping[str, SweepResult]] = None,
) -> Tuple[str, str]:
    kind = claim["kind"]
    measure = claim.get("measure", "")
    seeds = result.aggregate["seed"].nunique()
    over = f" (mean over {seeds} seeds)" if seeds > 1 else ""
    if kind == "close_to":
        m = float(_at_x(_of_variant(result.aggregate, variant), claim)[measure].mean())
        v = float(claim["value"])
        err = (m - v) / v
        ok = abs(err) <= float(claim["rel_tol"])
        where = f" at {claim['x']}=" + ", ".join(map(str, claim["at_x"])) if "at_x" in claim else ""
        return (HOLDS if ok else FAILS), (
            f"measured {fmt(measure, m)}{over}{where} vs {fmt(measure, v)}: {err * 100:+.3f} % "
            f"({'within' if ok else 'outside'} the ±{float(claim['rel_tol']) * 100:g} % criterion)"
        )
    if kind == "all_between":
        means = _means(result, variant, measure, claim).dropna()
        if means.empty:
            return FAILS, f"no point has a value of {_mname(measure)}, so there is nothing to judge"
        names = list(means.index.names) if means.index.name != None or means.index.nlevels > 1 else []  # noqa: E711
        lo, hi = float(claim["min"]), float(claim["max"])
        out = means[(means < lo) | (means > hi)]
        ok = out.empty
        return (HOLDS if ok else FAILS), (
            f"{_mname(measure)}{over} ranges from {fmt(measure, float(means.min()))}{_where(means.idxmin(), names)} "
            f"to {fmt(measure, float(means.max()))}{_where(means.idxmax(), names)} (criterion: every point in "
            f"[{fmt(measure, lo)}, {fmt(measure, hi)}]"
            + ("" if ok else f"; {len(out)} of {len(means)} points outside") + ")"
            + (f"; all: {_series_text(means, measure, names[0])}" if len(names) == 1 else "")
        )
    if kind == "run_ratio":
        # At every point (of `at_x`), this run's seed-mean over run `than_run`'s, same variant.
        other = (runs or {})[claim["than_run"]]
        a = _means(result, variant, measure, claim)
        b = _means(other, variant, measure, claim)
        ratio = (a / b).replace([np.inf, -np.inf], np.nan).dropna()
        if ratio.empty:
            return FAILS, f"no point where both runs have a non-zero {_mname(measure)}, so there is nothing to judge"
        names = list(ratio.index.names) if ratio.index.name != None or ratio.index.nlevels > 1 else []  # noqa: E711
        lo, hi = claim.get("min_ratio"), claim.get("max_ratio")
        ok = (lo is None or bool((ratio >= float(lo)).all())) and (hi is None or bool((ratio <= float(hi)).all()))
        crit = " and ".join(([f"≥ {float(lo):g}"] if lo is not None else []) + ([f"≤ {float(hi):g}"] if hi is not None else []))
        label = names[0] if len(names) == 1 else "point"
        return (HOLDS if ok else FAILS), (
            f"{_mname(measure)}{over}, run '{claim['run']}' / run '{claim['than_run']}' ranges from {ratio.min():.3f}"
            f"{_where(ratio.idxmin(), names)} to {ratio.max():.3f}{_where(ratio.idxmax(), names)} "
            f"(criterion: {crit} at every point); "
            + ", ".join(f"{label}={k}: {fmt(measure, a[k])} / {fmt(measure, b[k])} = {ratio[k]:.3f}" for k in ratio.index)
        )
    if kind in ("all_at_least", "all_at_most"):
        means = _means(result, variant, measure, claim).dropna()
        if means.empty:
            return FAILS, f"no point has a value of {_mname(measure)} (e.g. no cell was lost), so there is nothing to judge"
        names = list(means.index.names) if means.index.name != None or means.index.nlevels > 1 else []  # noqa: E711
        v = float(claim["value"])
        if kind == "all_at_least":
            worst_at = means.idxmin()
            worst = float(means.min())
            ok = worst >= v
            rel = "≥" if ok else "<"
        else:
            worst_at = means.idxmax()
            worst = float(means.max())
            ok = worst <= v
            rel = "≤" if ok else ">"
        bound = "lowest" if kind == "all_at_least" else "highest"
        return (HOLDS if ok else FAILS), (
            f"{bound} {_mname(measure)}{over} is {fmt(measure, worst)}{_where(worst_at, names)} "
            f"{rel} {fmt(measure, v)} (criterion: every point {'≥' if kind == 'all_at_least' else '≤'} "
            f"{fmt(measure, v)})" + (f"; all: {_series_text(means, measure, names[0])}" if len(names) == 1 else "")
        )
    if kind in ("decreases", "increases"):
        x = claim["x"]
        df = _at_x(_of_variant(result.aggregate, variant), claim)
        means = df.groupby(x, sort=True)[measure].mean()
        first, last = float(means.iloc[0]), float(means.iloc[-1])
        margin = float(claim.get("margin", 0.0))
        change = last - first
        if kind == "decreases":
            ok = change <= -margin if margin > 0 else change < 0
            need = f"a fall of at least {fmt(measure, margin)}" if margin > 0 else "a fall"
        else:
            ok = change >= margin if margin > 0 else change > 0
            need = f"a rise of at least {fmt(measure, margin)}" if margin > 0 else "a rise"
        if claim.get("monotonic"):
            # …and no step between neighbouring points the wrong way by more than `tolerance`.
            tol = float(claim.get("tolerance", 0.0))
            steps = means.diff().iloc[1:]
            wrong = steps[steps > tol] if kind == "decreases" else steps[steps < -tol]
            ok = ok and wrong.empty
            need += (
                f", with no step between neighbouring {x} the other way"
                + (f" by more than {fmt(measure, tol)}" if tol else "")
                + ("" if wrong.empty else f" — but it goes the other way at {x}=" + ", ".join(str(k) for k in wrong.index))
            )
        return (HOLDS if ok else FAILS), (
            f"{_mname(measure)}{over} goes from {fmt(measure, first)} at {x}={means.index[0]} to "
            f"{fmt(measure, last)} at {x}={means.index[-1]} (change {change:+.4g}; criterion: {need}); "
            f"all: {_series_text(means, measure, x)}"
        )
    if kind == "min_flow_at_most":
        flows = _of_variant(result.flows, variant)
        per_run = flows.groupby([c for c in _point_cols(result) if c in flows.columns] + ["seed"])[measure].min()
        m = float(per_run.mean())
        v = float(claim["value"])
        ok = m <= v
        return (HOLDS if ok else FAILS), (
            f"the worst-served flow gets {fmt(measure, m)}{' on average over ' + str(len(per_run)) + ' runs' if len(per_run) > 1 else ''}"
            f" (from {fmt(measure, float(per_run.min()))} to {fmt(measure, float(per_run.max()))}); "
            f"criterion: ≤ {fmt(measure, v)}"
        )
    if kind == "variant_greater":
        # `than` may be a list: above each of those variants at every x.
        x = claim["x"]
        a = claim["variant"]
        thans = claim["than"] if isinstance(claim["than"], list) else [claim["than"]]
        ma = _at_x(_of_variant(result.aggregate, a), claim).groupby(x, sort=True)[measure].mean()
        margin = float(claim.get("margin", 0.0))
        ok, texts = True, []
        for b in thans:
            mb = _at_x(_of_variant(result.aggregate, b), claim).groupby(x, sort=True)[measure].mean()
            diff = (ma - mb).dropna()
            ok = ok and bool(len(diff)) and bool((diff > margin).all())
            pairs = ", ".join(f"{x}={k}: {fmt(measure, ma[k])} vs {fmt(measure, mb[k])}" for k in diff.index)
            texts.append(f"'{a}' vs '{b}': {pairs}")
        return (HOLDS if ok else FAILS), (
            f"{_mname(measure)}{over}, " + "; ".join(texts) + f" (criterion: higher at every {x}"
            + (f" by more than {margin:g}" if margin else "")
            + (" than each" if len(thans) > 1 else "")
            + ")"
        )
    if kind in ("variant_ratio", "variant_spread_greater"):
        x = claim["x"]
        a, b = claim["variant"], claim["than"]
        ma = _at_x(_of_variant(result.aggregate, a), claim).groupby(x, sort=True)[measure].mean()
        mb = _at_x(_of_variant(result.aggregate, b), claim).groupby(x, sort=True)[measure].mean()
        if kind == "variant_ratio":
            ratio = (ma / mb).dropna()
            lo, hi = claim.get("min_ratio"), claim.get("max_ratio")
            ok = bool(len(ratio)) and (lo is None or bool((ratio >= float(lo)).all())) and (hi is None or bool((ratio <= float(hi)).all()))
            crit = " and ".join(([f"≥ {float(lo):g}"] if lo is not None else []) + ([f"≤ {float(hi):g}"] if hi is not None else []))
            return (HOLDS if ok else FAILS), (
                f"{_mname(measure)}{over}, '{a}' / '{b}' ranges from {ratio.min():.3f} to {ratio.max():.3f} "
                f"('{a}' {(ratio.min() - 1) * 100:+.1f} % to {(ratio.max() - 1) * 100:+.1f} % relative to '{b}'; "
                f"criterion: {crit} at every {x}); "
                + ", ".join(f"{x}={k}: {fmt(measure, ma[k])} / {fmt(measure, mb[k])} = {ratio[k]:.3f}" for k in ratio.index)
            )
        sa, sb = float(ma.max() - ma.min()), float(mb.max() - mb.min())
        factor = float(claim.get("factor", 1.0))
        ok = sa > factor * sb
        return (HOLDS if ok else FAILS), (
            f"spread (largest − smallest over {x}) of the {_mname(measure)}{over}: '{a}' {fmt(measure, sa)} "
            f"({fmt(measure, float(ma.min()))} to {fmt(measure, float(ma.max()))}), '{b}' {fmt(measure, sb)} "
            f"({fmt(measure, float(mb.min()))} to {fmt(measure, float(mb.max()))}) "
            f"(criterion: '{a}' spread > {'' if factor == 1 else f'{factor:g} × '}'{b}' spread)"
        )
    if kind in ("ratio_at_least", "ratio_at_most", "ratio_between"):
        # Seed-mean of `measure` over seed-mean of `over`, at every point (of `at_x`).
        x, den = claim["x"], claim["over"]
        df = _at_x(_of_variant(result.aggregate, variant), claim)
        num_m = df.groupby(x, sort=True)[measure].mean()
        den_m = df.groupby(x, sort=True)[den].mean()
        judged = den_m[den_m > 0].index
        skipped = [k for k in den_m.index if k not in judged]
        skip_text = f"; left out, {_mname(den)} 0 or undefined: {x}=" + ", ".join(map(str, skipped)) if skipped else ""
        if not len(judged):
            return FAILS, f"{_mname(den)}{over} is 0 or undefined at every {x} considered (no loss), so there is nothing to judge"
        ratio = num_m[judged] / den_m[judged]
        if kind == "ratio_between":
            lo, hi = float(claim["min"]), float(claim["max"])
            ok = bool(((ratio >= lo) & (ratio <= hi)).all())
            crit = f"in [{lo:g}, {hi:g}]"
        else:
            v = float(claim["value"])
            ok = bool((ratio >= v).all()) if kind == "ratio_at_least" else bool((ratio <= v).all())
            crit = f"{'≥' if kind == 'ratio_at_least' else '≤'} {v:g}"
        return (HOLDS if ok else FAILS), (
            f"{_mname(measure)} / {_mname(den)}{over} ranges from {ratio.min():.3g} to {ratio.max():.3g} "
            f"(criterion: {crit} at every {x}); "
            + ", ".join(f"{x}={k}: {fmt(measure, num_m[k])} / {fmt(den, den_m[k])} = {ratio[k]:.3g}" for k in ratio.index)
            + skip_text
        )
    if kind == "settles_later":
        # The smallest x from which the seed-mean of `measure` stays ≤ `value` at every larger x.
        x = claim["x"]
        v = float(claim["value"])

        def settles(name: str) -> Tuple[float, str]:
            means = _of_variant(result.aggregate, name).groupby(x, sort=True)[measure].mean()
            point = math.inf
            for k in reversed(list(means.index)):
                if not float(means[k]) <= v:
                    break
                point = k
            return point, (f"{x}={point}" if point != math.inf else f"not within the grid (up to {x}={means.index[-1]})")

        a, b = claim["variant"], claim["than"]
        (pa, ta), (pb, tb) = settles(a), settles(b)
        ok = pa > pb
        others = [n for n in _variants(result.aggregate) if n not in (a, b)]
        return (HOLDS if ok else FAILS), (
            f"{_mname(measure)}{over} ≤ {fmt(measure, v)} from {ta} on for '{a}', from {tb} on for '{b}'"
            + "".join(f", from {settles(n)[1]} on for '{n}'" for n in others)
            + f" (criterion: '{a}' needs a larger {x} than '{b}')"
        )
    if kind == "best_at":
        x = claim["x"]
        df = _of_variant(result.aggregate, variant)
        if "among" in claim:
            df = df[df[x].isin(list(claim["among"]))]
        means = df.groupby(x, sort=True)[measure].mean()
        best = ", ".join(str(k) for k in means.index[means == means.max()])
        at = list(claim["at"])
        top = means[means.index.isin(at)]
        rest = means[~means.index.isin(at)]
        margin = float(claim.get("margin", 0.0))
        ok = bool(len(top)) and (rest.empty or float(top.max()) > float(rest.max()) + margin)
        return (HOLDS if ok else FAILS), (
            f"the highest {_mname(measure)}{over} is {fmt(measure, float(means.max()))}, at {x} ∈ {{{best}}} "
            f"(criterion: the best of {x} ∈ {{{', '.join(map(str, means.index))}}} is at {x} ∈ {{{', '.join(map(str, at))}}}"
            + (f" by more than {fmt(measure, margin)}" if margin else "")
            + f"); all: {_series_text(means, measure, x)}"
        )
    if kind in ("region_ratio", "region_between"):
        regions = _cac_regions(result, model)
        measured = regions["measured"]
        name = claim["region"]
        reg = regions[name]
        n_m, n_r = len(measured), len(reg)
        inside = reg <= measured
        if kind == "region_ratio":
            if claim.get("inverse"):
                ratio = n_r / n_m if n_m else float("inf")
                ratio_text = f"|{name}| / |measured| = {n_r}/{n_m} = {ratio:.2f}"
            else:
                ratio = n_m / n_r if n_r else float("inf")
                ratio_text = f"|measured| / |{name}| = {n_m}/{n_r} = {ratio:.2f}"
            ok = ratio >= float(claim["min_ratio"]) and (inside or not claim.get("contains", False))
            outside = sorted(reg - measured)
            return (HOLDS if ok else FAILS), (
                f"admissible grid points: measured {n_m}, {name} {n_r}; {ratio_text} "
                f"(criterion ≥ {claim['min_ratio']}"
                + (", and the " + name + " region inside the measured one" if claim.get("contains") else "")
                + "); "
                + (f"{name} region inside the measured one" if inside else f"{len(outside)} {name} point(s) not admissible in the measurement, e.g. (N_rt, N_nrt) = {outside[0]}")
            )
        lower = regions[claim["lower"]]
        low_in = lower <= reg
        ok = low_in and len(reg) > len(lower) and inside
        return (HOLDS if ok else FAILS), (
            f"admissible grid points: {claim['lower']} {len(lower)}, {name} {n_r}, measured {n_m}; "
            f"{claim['lower']} ⊆ {name}: {'yes' if low_in else 'no'}; {name} ⊆ measured: {'yes' if inside else 'no'} "
            f"(criterion: {claim['lower']} ⊊ {name} ⊆ measured)"
        )
    raise ValueError(f"claim {claim.get('id')}: unknown kind {kind!r}")


# --------------------------------------------------------------------------------------
# E1: CAC boundaries of the delay-priority port (seed 004, section 4)


def _binom_pmf(n: int, p: float) -> np.ndarray:
    k = np.arange(n + 1)
    logc = np.array([math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) for i in k])
    with np.errstate(divide="ignore"):
        return np.exp(logc + k * math.log(p) + (n - k) * (math.log1p(-p) if p < 1 else -np.inf))


def convolution_loss(n: int, peak: float, capacity: float, p_on: float) -> float:
    """Bufferless (convolution) cell loss ratio of ``n`` on/off sources: E[(kR − C)+] / E[kR]."""
    if n == 0:
        return 0.0
    pmf = _binom_pmf(n, p_on)
    k = np.arange(n + 1)
    excess = np.maximum(k * peak - capacity, 0.0)
    return float((pmf * excess).sum() / (n * p_on * peak))


def effective_bandwidth(peak: float, on_s: float, off_s: float, buffer_bits: float, target: float) -> float:
    """Guérin, Ahmadi & Naghshineh's (1991) fluid effective bandwidth of an on/off source."""
    rho = on_s / (on_s + off_s)
    alpha = math.log(1.0 / target)
    y = alpha * on_s * (1.0 - rho) * peak
    x = buffer_bits
    return peak * (y - x + math.sqrt((y - x) ** 2 + 4.0 * x * rho * y)) / (2.0 * y)


def _cac_regions(result: SweepResult, model: Mapping[str, Any]) -> Dict[str, set]:
    """Grid points (n_rt, n_nrt) admitted by the measurement and by each CAC rule."""
    cats = result.categories
    agg = result.aggregate
    target = float(model["target_clr"])
    C, R = float(model["link_bps"]), float(model["peak_bps"])
    p_on = model["on_s"] / (model["on_s"] + model["off_s"])
    eb_rt = effective_bandwidth(R, model["on_s"], model["off_s"], model["rt_buffer_cells"] * 424, target)
    eb_nrt = effective_bandwidth(R, model["on_s"], model["off_s"], model["nrt_buffer_cells"] * 424, target)
    points = sorted({(int(a), int(b)) for a, b in zip(agg["n_rt"], agg["n_nrt"])})
    worst: Dict[Tuple[int, int], float] = {pt: 0.0 for pt in points}
    for (a, b, clr) in zip(cats["n_rt"], cats["n_nrt"], cats["clr"]):
        key = (int(a), int(b))
        worst[key] = max(worst[key], float(clr) if clr == clr else 0.0)  # max over classes and seeds
    ok = {pt for pt in points if worst[pt] <= target}
    # The admissible region is downward closed: a point counts if every grid point with no
    # more sources of either class is admissible too.
    measured = {pt for pt in ok if all(q in ok for q in points if q[0] <= pt[0] and q[1] <= pt[1])}
    conv = {pt for pt in points if convolution_loss(pt[0] + pt[1], R, C, p_on) <= target}
    linear = {pt for pt in points if pt[0] * eb_rt + pt[1] * eb_nrt <= C * (1 + 1e-12)}
    combined = {
        pt for pt in points if convolution_loss(pt[0], R, C, p_on) <= target and (pt[0] + pt[1]) * eb_nrt <= C * (1 + 1e-12)
    }
    return {
        "measured": measured,
        "measured_raw": ok,
        "convolution": conv,
        "linear": linear,
        "combined": combined,
        "_eb": {"rt": eb_rt, "nrt": eb_nrt},  # type: ignore[dict-item]
        "_points": points,  # type: ignore[dict-item]
    }


def _cac_figure(result: SweepResult, model: Mapping[str, Any]) -> Any:
    regions = _cac_regions(result, model)
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
    n_rts = sorted({p[0] for p in points})
    styles = {"convolution": ("black", "-"), "linear": ("tab:blue", "--"), "combined": ("tab:purple", ":")}
    for name, (color, ls) in styles.items():
        ys = []
        for a in n_rts:
            inside = [p[1] for p in regions[name] if p[0] == a]
            ys.append(max(inside) if inside else np.nan)
        ax.step(n_rts, ys, where="mid", color=color, linestyle=ls, linewidth=2, label=f"{name} CAC (largest N_nrt)")
    ax.set_xlabel("N_rt (rt-VBR sources)")
    ax.set_ylabel("N_nrt (nrt-VBR sources)")
    ax.set_title("CAC region, target CLR 1e-4")
    ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(True, alpha=0.3)
    return ax.figure


def _cac_table(result: SweepResult, model: Mapping[str, Any], caption: str) -> Table:
    regions = _cac_regions(result, model)
    n_rts = sorted({p[0] for p in regions["_points"]})
    header = ["N_rt", "measured", "convolution (bufferless)", "linear, per-class EB", "combined RT + NRT"]
    rows = []
    for a in n_rts:
        row = [str(a)]
        for name in ("measured", "convolution", "linear", "combined"):
            inside = [p[1] for p in regions[name] if p[0] == a]
            row.append(str(max(inside)) if inside else "—")
        rows.append(row)
    eb = regions["_eb"]
    cats = result.categories
    worst_rt = cats[cats["category"] == "rt-vbr"].groupby("n_rt")["clr"].max()
    note = (
        f"Effective bandwidths (Guérin et al.): {eb['rt'] / 1e6:.2f} Mbit/s with the 48-cell rt buffer, "
        f"{eb['nrt'] / 1e6:.2f} Mbit/s with the 4000-cell nrt buffer (peak 31.1, mean 6.22 Mbit/s). "
        "Measured rt-VBR CLR by N_rt (worst over N_nrt): "
        + ", ".join(f"{int(k)}: {v:.1e}" for k, v in worst_rt.items())
        + "."
    )
    return Table(caption, header, rows, note)


# --------------------------------------------------------------------------------------
# Tables and figures of an experiment


def _cell(values: pd.Series, measure: str) -> str:
    values = values.dropna()
    if values.empty:
        return "—"
    mean = float(values.mean())
    if len(values) > 1 and values.max() != values.min():
        return f"{fmt(measure, mean)} [{fmt(measure, float(values.min()))}–{fmt(measure, float(values.max()))}]"
    return fmt(measure, mean)


def _compare_tables(spec: Mapping[str, Any], result: SweepResult, published: Optional[Mapping[str, Any]]) -> List[Table]:
    agg = result.aggregate
    variants = _variants(agg)
    vnames = [f"celltrain: {v}" if v else "celltrain" for v in variants]
    x = spec.get("x") or (published.get("x") if published else None)
    measures = list(spec["measures"])
    label = published.get("label", "paper") if published else None
    tables = []
    if x:
        for measure in measures:
            header = [x] + ([label] if published else []) + vnames
            rows = []
            pub = {r[x]: r for r in published["rows"]} if published else {}
            for xv in sorted(agg[x].unique()):
                row = [str(xv)]
                if published:
                    row.append(fmt(measure, pub.get(xv, {}).get(measure)))
                for v in variants:
                    part = _of_variant(agg, v)
                    row.append(_cell(part[part[x] == xv][measure], measure))
                rows.append(row)
            caption = spec["caption"] if len(measures) == 1 else f"{spec['caption']} — {_mname(measure)}"
            tables.append(Table(caption, header, rows))
    else:
        header = ["measure"] + ([label] if published else []) + vnames
        rows = []
        pub = published["rows"][0] if published else {}
        for measure in measures:
            row = [_mname(measure)]
            if published:
                row.append(fmt(measure, pub.get(measure)))
            for v in variants:
                row.append(_cell(_of_variant(agg, v)[measure], measure))
            rows.append(row)
        tables.append(Table(spec["caption"], header, rows))
    seeds = agg["seed"].nunique()
    if seeds > 1:
        for t in tables:
            t.note = f"celltrain: mean over {seeds} seeds, [min–max] when they differ."
    return tables


def _figure(spec: Mapping[str, Any], result: SweepResult, published: Optional[Mapping[str, Any]], model: Mapping[str, Any]):
    kind = spec["kind"]
    if kind == "measure_vs_param":
        x, y = spec["x"], spec["y"]
        reference = None
        if published:
            rows = [r for r in published["rows"] if y in r]
            reference = {published.get("label", "paper"): ([r[x] for r in rows], [r[y] for r in rows])}
        by = "variant" if "variant" in result.aggregate.columns else None
        if "model" in spec:  # a model column of the run (e.g. eq. 2's train_pdus), one dashed line per variant
            reference = dict(reference or {})
            for v in _variants(result.aggregate):
                m = _of_variant(result.aggregate, v).groupby(x, sort=True)[spec["model"]].mean()
                label = spec.get("model_label", spec["model"]) + (f", {v}" if v else "")
                reference[label] = (list(m.index), list(m.to_numpy(dtype=float)))
        ylim = tuple(spec["ylim"]) if "ylim" in spec else None
        auto = y.endswith("_bps") and y not in _plot._LABELS  # e.g. transfer_throughput_bps in Mbit/s
        scale = spec.get("scale", 1e-6 if auto else None)
        ylabel = spec.get("ylabel", f"{_mname(y)} (Mbit/s)" if auto else None)
        fig = _plot.measure_vs_param(
            result.aggregate, x, y, by=by, reference=reference, ylim=ylim, title=spec.get("title", spec.get("caption")),
            scale=scale, ylabel=ylabel,
        )  # fmt: skip
        if spec.get("logy"):
            fig.axes[0].set_yscale("log")
        return fig
    if kind == "flow_bars":
        from matplotlib.figure import Figure

        variants = _variants(result.aggregate)
        fig = Figure(figsize=(4.2 * len(variants) + 1.0, 3.8), layout="constrained")
        axes = fig.subplots(1, len(variants), squeeze=False)[0]
        for ax, v in zip(axes, variants):
            agg = _of_variant(result.aggregate, v)
            first = agg.iloc[0]
            flows = _of_variant(result.flows, v)
            flows = flows[(flows["seed"] == first["seed"]) & (flows["scenario"] == first["scenario"])]
            for c in _point_cols(result):
                if c in flows.columns:
                    flows = flows[flows[c] == first[c]]
            expected = spec.get("expected")
            if expected == "fair_share":
                expected = float(first["max_goodput_bps"]) / len(flows)
            _plot.flow_bars(flows, spec.get("y", "goodput_bps"), expected=expected, ax=ax,
                            title=f"{v or 'celltrain'} (seed {first['seed']})",
                            expected_label=spec.get("expected_label", "expected"))  # fmt: skip
        return fig
    if kind == "cac_region":
        return _cac_figure(result, model)
    raise ValueError(f"unknown plot kind {kind!r}")


# --------------------------------------------------------------------------------------


def _experiment(
    exp: Mapping[str, Any],
    paper: Mapping[str, Any],
    quick: bool,
    store: Path,
    executor: Any,
    jobs: Optional[int],
    progress: bool,
    builtins: Sequence[str],
) -> ExperimentOutcome:
    started = time.perf_counter()
    out = ExperimentOutcome(
        id=exp["id"], title=exp["title"], paper=paper["paper"], source=exp.get("source", ""), notes=exp.get("notes", "")
    )
    model = exp.get("model", {})
    for r in exp.get("run", []):
        spec = RunSpec.of(r, quick)
        if spec.scenario in builtins:
            out.run_specs[spec.name] = spec
            out.runs[spec.name] = _run(exp["id"], spec, store, executor, jobs, progress)
        else:
            out.missing[spec.name] = spec.scenario
    published = {p["name"]: p for p in exp.get("published", [])}
    out.published_sources = [f"{p.get('label', p['name'])}: {p['source']}" for p in exp.get("published", [])]
    for i, fspec in enumerate(exp.get("plot", [])):
        if fspec["run"] not in out.runs:
            continue
        fig = _figure(fspec, out.runs[fspec["run"]], published.get(fspec.get("published", "")), model)
        name = f"{exp['id']}-{i + 1}-{fspec.get('y', fspec['kind'])}.png"
        out.figures.append(Figure_(fspec.get("caption", ""), _plot.png_bytes(fig, dpi=90), name))
    for tspec in exp.get("table", []):
        if tspec["run"] not in out.runs:
            continue
        if tspec.get("kind") == "cac_boundaries":
            out.tables.append(_cac_table(out.runs[tspec["run"]], model, tspec["caption"]))
        else:
            out.tables += _compare_tables(tspec, out.runs[tspec["run"]], published.get(tspec.get("published", "")))
    for claim in exp.get("claim", []):
        base = dict(claim=claim["id"], text=claim["text"], source=claim.get("source", ""), experiment=exp["id"])
        run = claim["run"]
        if run not in out.runs:
            scenario = out.missing.get(run, "?")
            out.verdicts.append(
                Verdict(**base, status=NOT_RUNNABLE,
                        explanation=f"needs the built-in scenario {scenario}, which this celltrain does not have yet")  # fmt: skip
            )
            continue
        if "than_run" in claim and claim["than_run"] not in out.runs:
            scenario = out.missing.get(claim["than_run"], "?")
            out.verdicts.append(
                Verdict(**base, status=NOT_RUNNABLE,
                        explanation=f"needs the built-in scenario {scenario}, which this celltrain does not have yet")  # fmt: skip
            )
            continue
        result = out.runs[run]
        per_variant = claim["kind"] in _PER_VARIANT
        scope = claim.get("variants")
        for v in _variants(result.aggregate) if per_variant else [None]:
            if scope is not None and v not in scope:
                continue
            status, why = _check(claim, result, v, model, out.runs)
            finding = claim.get("if_not", "") if status == FAILS else ""
            out.verdicts.append(Verdict(**base, status=status, explanation=why, variant=v, finding=finding))
    out.wall_s = time.perf_counter() - started
    return out


def reproduce(
    target: str = "all",
    out: Union[str, "os.PathLike[str]"] = "results/report",
    quick: bool = False,
    jobs: Optional[int] = None,
    progress: bool = True,
    executor: Any = None,
) -> Report:
    """Runs the reproductions ``target`` names and writes the report into ``out``.

    ``target``: an experiment id (``"A5"``), a paper (``"seed001"``, ``"001"``, ``"A"``) or
    ``"all"``. ``quick`` runs short simulations with one seed. Runs are stored in
    ``out/store`` and reused when the report is made again. Returns a :class:`Report`.
    """
    started = time.perf_counter()
    ids = select(target)
    paper_info, catalogue, papers = _catalogue()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    store = out / "store"
    builtins = builtin_names()
    by_id = {}
    for name, paper in papers.items():
        for exp in paper.get("experiment", []):
            by_id[exp["id"]] = (exp, paper)
    owned = None
    n_jobs = jobs if jobs is not None else (os.cpu_count() or 1)
    if executor is None and n_jobs > 1:
        owned = executor = ProcessPoolExecutor(max_workers=n_jobs)
    outcomes: List[ExperimentOutcome] = []
    not_runnable: List[Dict[str, str]] = []
    try:
        for cat in catalogue:
            if cat["id"] not in ids:
                continue
            spec = by_id.get(cat["id"])
            runnable = spec is not None and any(r["scenario"] in builtins for r in spec[0].get("run", []))
            if not runnable:
                paper = next((p for p, info in paper_info.items() if cat["id"].startswith(info["letter"])), "")
                not_runnable.append({"id": cat["id"], "paper": paper, "title": cat["title"], "needs": cat["needs"]})
                continue
            outcomes.append(_experiment(spec[0], spec[1], quick, store, executor, 1 if executor is None else jobs, progress, builtins))
    finally:
        if owned is not None:
            owned.shutdown()
    report = Report(
        out=out, markdown=out / "index.md", html=out / "index.html", quick=quick, experiments=outcomes,
        not_runnable=not_runnable, wall_s=time.perf_counter() - started,
    )  # fmt: skip
    _write(report, target, paper_info)
    return report


# --------------------------------------------------------------------------------------
# Writing the report


def _md_table(t: Table) -> str:
    esc = lambda s: str(s).replace("|", "\\|")  # noqa: E731
    lines = [f"**{t.caption}**", "", "| " + " | ".join(esc(h) for h in t.header) + " |"]
    lines.append("|" + "|".join("---" for _ in t.header) + "|")
    lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in t.rows]
    if t.note:
        lines += ["", f"_{t.note}_"]
    return "\n".join(lines)


_BADGE = {HOLDS: "✅ holds", FAILS: "❌ does not hold", NOT_RUNNABLE: "⏳ not yet runnable"}


def _verdict_md(v: Verdict) -> str:
    scope = f" — *{v.variant}*" if v.variant else ""
    return f"- **{_BADGE[v.status]}**{scope}: {v.explanation}."


def _finding(vs: List[Verdict]) -> str:
    """The claim's explanation, if any of its verdicts is "does not hold"."""
    return next((v.finding for v in vs if v.finding), "")


def _grouped(verdicts: List[Verdict]) -> List[Tuple[Verdict, List[Verdict]]]:
    groups: Dict[str, List[Verdict]] = {}
    for v in verdicts:
        groups.setdefault(v.claim, []).append(v)
    return [(vs[0], vs) for vs in groups.values()]


def _runs(n: int) -> str:
    return f"{n} run" if n == 1 else f"{n} runs"


def _mode_text(report: Report) -> str:
    return "quick (short runs, one seed)" if report.quick else "full"


def _write(report: Report, target: str, paper_info: Mapping[str, Any]) -> None:
    out = report.out
    img = out / "img"
    img.mkdir(exist_ok=True)
    counts = report.verdict_counts()
    when = _dt.datetime.now().strftime("%Y-%m-%d %H:%M")
    md: List[str] = [
        "# celltrain reproductions",
        "",
        f"celltrain {_celltrain.__version__}, target `{target}`, {_mode_text(report)} mode, {when}, "
        f"{report.wall_s:.1f} s. Regenerate with `celltrain reproduce {target}"
        f"{' --quick' if report.quick else ''} --out {out}`.",
        "",
        f"Claims: **{counts[HOLDS]} hold**, **{counts[FAILS]} do not hold**, **{counts[NOT_RUNNABLE]} not yet runnable**. "
        "Every verdict is computed from the measured numbers and the claim's criterion "
        "(`reproductions/seedNNN.toml`); a claim is *not yet runnable* when the scenario it needs is not built in yet.",
        "",
        "| experiment | claim | verdict |",
        "|---|---|---|",
    ]
    for e in report.experiments:
        for first, vs in _grouped(e.verdicts):
            verdict = "; ".join(f"{_BADGE[v.status]}" + (f" ({v.variant})" if v.variant else "") for v in vs)
            md.append(f"| [{e.id}](#{e.id.lower()}) | {first.claim} | {verdict} |")
    md.append("")
    for e in report.experiments:
        md += [f"## {e.id}", "", f"**{e.title}** — {e.paper}, {e.source}", "", e.notes.replace("\n", " "), ""]
        for spec in e.run_specs.values():
            grid = ", ".join(f"{k} ∈ {{{', '.join(map(str, v))}}}" for k, v in spec.grid.items()) or "one point"
            params = ", ".join(f"{k} = {v}" for k, v in spec.params.items())
            variants = "; ".join(
                f"*{v['name']}*: " + ", ".join(f"{k} = {val}" for k, val in v.get("params", {}).items()) for v in spec.variants
            )
            md.append(
                f"- run `{spec.name}`: scenario `{spec.scenario}`, {grid}, seeds {spec.seeds}" + (f", {params}" if params else "")
                + (f"; variants — {variants}" if variants else "")
                + f" ({_runs(len(e.runs[spec.name].aggregate))})"
            )
        for name, scenario in e.missing.items():
            md.append(f"- run `{name}`: needs scenario `{scenario}` (not built in yet)")
        if e.published_sources:
            md += ["", "Published numbers: " + "; ".join(e.published_sources) + "."]
        md.append("")
        for f in e.figures:
            write_atomic(img / f.filename, f.png)
            md += [f"![{f.caption}](img/{f.filename})", "", f"*{f.caption}*", ""]
        for t in e.tables:
            md += [_md_table(t), ""]
        md += ["### Claims", ""]
        for first, vs in _grouped(e.verdicts):
            md.append(f"**{first.claim}** — {first.text} ({first.source})")
            md.append("")
            md += [_verdict_md(v) for v in vs]
            md.append("")
            finding = _finding(vs)
            if finding:
                md += [f"*Why it does not hold:* {finding}", ""]
    md += ["## Not yet runnable", ""]
    if report.not_runnable:
        md += ["| experiment | paper | title | needs |", "|---|---|---|---|"]
        md += [f"| {n['id']} | {n['paper']} | {n['title']} | {n['needs']} |" for n in report.not_runnable]
    else:
        md.append("None in this selection.")
    md.append("")
    write_atomic(report.markdown, "\n".join(md))
    write_atomic(report.html, _html(report, target, when))


_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#222;line-height:1.45}
h1{margin-bottom:.2rem} h2{border-bottom:2px solid #ddd;padding-bottom:.2rem;margin-top:2.5rem}
table{border-collapse:collapse;margin:.6rem 0 1rem 0;font-size:.92rem}
th,td{border:1px solid #ccc;padding:.25rem .55rem;text-align:left;vertical-align:top}
th{background:#f3f3f3} caption{caption-side:top;text-align:left;font-weight:600;padding:.3rem 0}
figure{margin:1rem 0;display:inline-block;vertical-align:top} figcaption{font-size:.9rem;color:#555}
img{max-width:100%;height:auto;border:1px solid #eee}
.badge{display:inline-block;border-radius:.3rem;padding:.05rem .45rem;font-weight:600;font-size:.85rem;white-space:nowrap}
.holds{background:#d8f5d8;color:#135c13} .fails{background:#fbdada;color:#8a1212} .pending{background:#eee;color:#555}
.claim{margin:.8rem 0 1.1rem 0} .claim p{margin:.2rem 0} .note{font-size:.88rem;color:#555}
ul.verdicts{margin:.2rem 0;padding-left:1.2rem} code{background:#f4f4f4;padding:0 .2rem}
"""

_CLASS = {HOLDS: "holds", FAILS: "fails", NOT_RUNNABLE: "pending"}


def _h(text: str) -> str:
    out = html.escape(text)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    return re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)


def _badge(status: str) -> str:
    return f'<span class="badge {_CLASS[status]}">{html.escape(status)}</span>'


def _html_table(t: Table) -> str:
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in t.rows)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in t.header)
    note = f'<p class="note">{_h(t.note)}</p>' if t.note else ""
    return f"<table><caption>{html.escape(t.caption)}</caption><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>{note}"


def _html(report: Report, target: str, when: str) -> str:
    counts = report.verdict_counts()
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>celltrain reproductions — {html.escape(target)}</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>celltrain reproductions</h1>",
        f'<p class="note">celltrain {html.escape(_celltrain.__version__)}, target <code>{html.escape(target)}</code>, '
        f"{html.escape(_mode_text(report))} mode, {html.escape(when)}, {report.wall_s:.1f} s. Regenerate with "
        f"<code>celltrain reproduce {html.escape(target)}{' --quick' if report.quick else ''} --out {html.escape(str(report.out))}</code>.</p>",
        f"<p>Claims: {_badge(HOLDS)} {counts[HOLDS]} &nbsp; {_badge(FAILS)} {counts[FAILS]} &nbsp; "
        f"{_badge(NOT_RUNNABLE)} {counts[NOT_RUNNABLE]}. Every verdict is computed from the measured numbers and the "
        "claim's criterion; a claim is <em>not yet runnable</em> when the scenario it needs is not built in yet.</p>",
        "<table><thead><tr><th>experiment</th><th>claim</th><th>verdict</th></tr></thead><tbody>",
    ]
    for e in report.experiments:
        for first, vs in _grouped(e.verdicts):
            verdict = " ".join(_badge(v.status) + (f" <small>{html.escape(v.variant)}</small>" if v.variant else "") for v in vs)
            parts.append(
                f'<tr><td><a href="#{e.id.lower()}">{html.escape(e.id)}</a></td><td>{html.escape(first.claim)}</td><td>{verdict}</td></tr>'
            )
    parts.append("</tbody></table>")
    for e in report.experiments:
        parts += [
            f'<h2 id="{e.id.lower()}">{html.escape(e.id)} — {html.escape(e.title)}</h2>',
            f'<p class="note">{html.escape(e.paper)}, {html.escape(e.source)}</p>',
            f"<p>{_h(e.notes)}</p>",
            "<ul>",
        ]
        for spec in e.run_specs.values():
            grid = ", ".join(f"{k} ∈ {{{', '.join(map(str, v))}}}" for k, v in spec.grid.items()) or "one point"
            params = ", ".join(f"{k} = {v}" for k, v in spec.params.items())
            variants = "; ".join(
                f"<em>{html.escape(v['name'])}</em>: " + html.escape(", ".join(f"{k} = {val}" for k, val in v.get("params", {}).items()))
                for v in spec.variants
            )
            parts.append(
                f"<li>run <code>{html.escape(spec.name)}</code>: scenario <code>{html.escape(spec.scenario)}</code>, "
                f"{html.escape(grid)}, seeds {html.escape(str(spec.seeds))}" + (f", {html.escape(params)}" if params else "")
                + (f"; variants — {variants}" if variants else "")
                + f" ({_runs(len(e.runs[spec.name].aggregate))})</li>"
            )
        for name, scenario in e.missing.items():
            parts.append(f"<li>run <code>{html.escape(name)}</code>: needs scenario <code>{html.escape(scenario)}</code> (not built in yet)</li>")
        parts.append("</ul>")
        if e.published_sources:
            parts.append(f'<p class="note">Published numbers: {html.escape("; ".join(e.published_sources))}.</p>')
        for f in e.figures:
            parts.append(
                f'<figure><img src="{_plot.data_uri(f.png)}" alt="{html.escape(f.caption)}">'
                f"<figcaption>{html.escape(f.caption)}</figcaption></figure>"
            )
        for t in e.tables:
            parts.append(_html_table(t))
        parts.append("<h3>Claims</h3>")
        for first, vs in _grouped(e.verdicts):
            items = "".join(
                f"<li>{_badge(v.status)}" + (f" <em>{html.escape(v.variant)}</em>" if v.variant else "") + f": {html.escape(v.explanation)}.</li>"
                for v in vs
            )
            finding = _finding(vs)
            why = f'<p class="finding"><em>Why it does not hold:</em> {html.escape(finding)}</p>' if finding else ""
            parts.append(
                f'<div class="claim"><p><strong>{html.escape(first.claim)}</strong> — {html.escape(first.text)} '
                f'<span class="note">({html.escape(first.source)})</span></p><ul class="verdicts">{items}</ul>{why}</div>'
            )
    parts.append('<h2 id="not-yet-runnable">Not yet runnable</h2>')
    if report.not_runnable:
        parts.append("<table><thead><tr><th>experiment</th><th>paper</th><th>title</th><th>needs</th></tr></thead><tbody>")
        for n in report.not_runnable:
            parts.append(
                "<tr>" + "".join(f"<td>{html.escape(n[k])}</td>" for k in ("id", "paper", "title", "needs")) + "</tr>"
            )
        parts.append("</tbody></table>")
    else:
        parts.append("<p>None in this selection.</p>")
    parts.append("</body></html>\n")
    return "\n".join(parts)
