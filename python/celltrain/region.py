"""The measured admissible region of a two-class multiplexer (LRP97's Fig. 3, measured):
for each N_rt, the largest N_nrt whose cell loss ratio stays within the target in both
classes, found by bisection on simulations, each point decided with a stated confidence.

A point is run as independent replications (seeds 1..k) through :func:`celltrain.sweep`, so
every run lands in (and is reused from) the sweep store, on local cores or Dask. For each
class with sources, from the pooled counts (``cells_sent``, ``cells_dropped``):

* no cell lost in any replication: the CLR is below ``−ln(1 − confidence) / cells`` (the exact
  Poisson bound for zero events; "rule of three" at 95 %);
* cells lost: the exact Poisson bounds on the pooled count, widened by the spread between
  replications (batch means, normal quantile), because losses come in bursts and are not
  independent cell by cell; at least ``min_loss_replications`` replications are needed
  before a class with losses is judged either way.

The point passes when every class's upper bound is within the target, fails when some
class's lower bound is above it, and is otherwise undecided: it is run again with twice as
many replications, up to ``max_replications``; a point still undecided then is reported as
such and counted as not admissible (the search stays on the safe side).
"""

from __future__ import annotations

import concurrent.futures as cf
import math
import statistics
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

# One replication of a point: category -> (cells sent, cells dropped).
Replication = Dict[str, Tuple[int, int]]
# Runs the point (n_rt, n_nrt) with the given seeds; one Replication per seed.
Runner = Callable[[int, int, Sequence[int]], List[Replication]]



#: How each CAC rule's boundary is drawn: (colour, line style, label); shared with the report.
BOUNDARY_STYLES = {
    "peak": ("tab:gray", "-", "peak allocation"),
    "convolution": ("black", "-", "convolution (bufferless, all sources)"),
    "linear": ("tab:blue", "--", "linear: EB per class, own buffer"),
    "rt": ("tab:orange", "-.", "RT boundary: convolution of rt"),
    "nrt": ("tab:green", "-.", "NRT boundary: EB of all, nrt buffer"),
    "combined": ("tab:purple", ":", "combined RT + NRT"),
}

def _poisson_cdf(k: int, lam: float) -> float:
    if lam <= 0.0:
        return 1.0
    term = math.exp(-lam)
    total = term
    for j in range(1, k + 1):
        term *= lam / j
        total += term
    return min(total, 1.0)


def poisson_bounds(k: int, confidence: float) -> Tuple[float, float]:
    """One-sided bounds (lower, upper) on the mean of a Poisson count observed as ``k``, each at
    ``confidence`` (exact for k ≤ 300, normal with continuity correction above)."""
    alpha = 1.0 - confidence
    if k == 0:
        return 0.0, -math.log(alpha)
    if k > 300:
        z = statistics.NormalDist().inv_cdf(confidence)
        return max(0.0, (math.sqrt(k) - z / 2) ** 2), (math.sqrt(k + 1) + z / 2) ** 2

    def solve(f: Callable[[float], bool], lo: float, hi: float) -> float:
        for _ in range(100):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if f(mid) else (lo, mid)
        return 0.5 * (lo + hi)

    hi_bound = k + 20.0 * math.sqrt(k) + 50.0
    upper = solve(lambda lam: _poisson_cdf(k, lam) > alpha, float(k), hi_bound)
    lower = solve(lambda lam: 1.0 - _poisson_cdf(k - 1, lam) < alpha, 0.0, float(k))
    return lower, upper


@dataclass
class ClassBound:
    cells: int
    lost: int
    clr: float
    lower: float
    upper: float


def bound_class(per_rep: Sequence[Tuple[int, int]], confidence: float, min_loss_replications: int) -> ClassBound:
    """Bounds on one class's CLR from its replications' (sent, dropped)."""
    cells = sum(s for s, _ in per_rep)
    lost = sum(d for _, d in per_rep)
    clr = lost / cells if cells else 0.0
    lo_k, hi_k = poisson_bounds(lost, confidence)
    lower, upper = lo_k / cells, hi_k / cells
    if lost > 0:
        ratios = [d / s for s, d in per_rep if s > 0]
        if len(ratios) < min_loss_replications:
            # Too few replications to judge bursty losses (the Poisson bounds assume cells lost
            # independently): neither a pass nor a fail yet.
            lower, upper = 0.0, math.inf
        else:
            z = statistics.NormalDist().inv_cdf(confidence)
            se = statistics.stdev(ratios) / math.sqrt(len(ratios))
            upper = max(upper, clr + z * se)
            lower = min(lower, clr - z * se)
    return ClassBound(cells, lost, clr, max(lower, 0.0), upper)


@dataclass
class PointVerdict:
    n_rt: int
    n_nrt: int
    replications: int
    verdict: str  # "pass", "fail" or "undecided"
    classes: Dict[str, ClassBound] = field(default_factory=dict)

    @property
    def cells(self) -> int:
        return sum(b.cells for b in self.classes.values())

    @property
    def worst_clr(self) -> float:
        return max((b.clr for b in self.classes.values()), default=0.0)


def judge(
    reps: Sequence[Replication], target: float, confidence: float, min_loss_replications: int = 4
) -> Tuple[str, Dict[str, ClassBound]]:
    """The verdict on a point from its replications (a class that sent no cell is left out)."""
    names = sorted({c for r in reps for c in r})
    bounds = {}
    for c in names:
        per_rep = [r.get(c, (0, 0)) for r in reps]
        if sum(s for s, _ in per_rep) > 0:
            bounds[c] = bound_class(per_rep, confidence, min_loss_replications)
    if any(b.lower > target for b in bounds.values()):
        return "fail", bounds
    if all(b.upper <= target for b in bounds.values()):
        return "pass", bounds
    return "undecided", bounds


@dataclass
class RegionSettings:
    target: float = 1e-4
    confidence: float = 0.95
    first_replications: int = 2
    max_replications: int = 32
    min_loss_replications: int = 4


def assess_point(run: Runner, n_rt: int, n_nrt: int, s: RegionSettings) -> PointVerdict:
    """Runs a point with more and more replications until it is decided or the budget is spent."""
    k = max(1, s.first_replications)
    while True:
        reps = run(n_rt, n_nrt, list(range(1, k + 1)))
        verdict, bounds = judge(reps, s.target, s.confidence, s.min_loss_replications)
        if verdict != "undecided" or k >= s.max_replications:
            return PointVerdict(n_rt, n_nrt, k, verdict, bounds)
        k = min(2 * k, s.max_replications)


def largest_admissible(n_rt: int, limit: int, assess: Callable[[int, int], PointVerdict]) -> Tuple[Optional[int], List[PointVerdict]]:
    """The largest n_nrt ≤ ``limit`` that passes beside ``n_rt`` (None: not even 0), by bisection:
    loss grows with the number of sources, so pass at n implies pass below n. ``limit`` itself
    is returned when it passes (the search found no edge below it)."""
    trail: List[PointVerdict] = []

    def ok(n: int) -> bool:
        v = assess(n_rt, n)
        trail.append(v)
        return v.verdict == "pass"

    if not ok(0):
        return None, trail
    if ok(limit):
        return limit, trail
    lo, hi = 0, limit
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid
    return lo, trail


def sweep_runner(
    scenario: str = "E1-mux",
    params: Optional[Mapping[str, Any]] = None,
    store: Any = None,
    executor: Any = None,
    jobs: Optional[int] = None,
    rt_param: str = "n_rt",
    nrt_param: str = "n_nrt",
    collect: Optional[List[Any]] = None,
) -> Runner:
    """A :data:`Runner` on :func:`celltrain.sweep` (the store is shared and reused); every
    sweep it makes is appended to ``collect`` when given (to keep every run's summary)."""
    from ._sweep import sweep

    # Runs already seen in this search (the store keeps them across searches).
    seen: Dict[Tuple[int, int, int], Replication] = {}

    def run(n_rt: int, n_nrt: int, seeds: Sequence[int]) -> List[Replication]:
        missing = [s for s in seeds if (n_rt, n_nrt, s) not in seen]
        if missing:
            for seed, rep in zip(missing, _run_sweep(n_rt, n_nrt, missing)):
                seen[(n_rt, n_nrt, seed)] = rep
        return [seen[(n_rt, n_nrt, s)] for s in seeds]

    def _run_sweep(n_rt: int, n_nrt: int, seeds: Sequence[int]) -> List[Replication]:
        res = sweep(
            scenario,
            grid={rt_param: [n_rt], nrt_param: [n_nrt]},
            seeds=list(seeds),
            store=store,
            executor=executor,
            jobs=jobs,
            progress=False,
            params=dict(params or {}),
        )
        if collect is not None:
            collect.append(res)
        cats = res.categories
        out: List[Replication] = []
        for seed in seeds:
            rows = cats[cats["seed"] == seed]
            out.append({str(r.category): (int(r.cells_sent), int(r.cells_dropped)) for r in rows.itertuples()})
        return out

    return run


def measured_region(
    n_rt: Iterable[int],
    limit: int,
    run: Runner,
    settings: Optional[RegionSettings] = None,
    parallel: int = 1,
) -> Tuple["Any", "Any"]:
    """For each N_rt, the largest admissible N_nrt ≤ ``limit``. Returns two DataFrames: one row
    per N_rt (``n_rt``, ``largest_n_nrt`` (−1: none), ``at_limit``, ``points``,
    ``undecided`` (points left undecided, counted as refused), ``cells`` (simulated over every
    point), ``max_replications``), and one row per assessed point (its verdict, replications,
    cells, worst CLR and upper bound). ``parallel``: how many N_rt are searched at once (their
    runs share ``run``'s executor)."""
    import pandas as pd

    s = settings or RegionSettings()
    values = list(n_rt)

    def one(nr: int) -> Tuple[int, Optional[int], List[PointVerdict]]:
        best, trail = largest_admissible(nr, limit, lambda a, b: assess_point(run, a, b, s))
        return nr, best, trail

    if parallel > 1:
        with cf.ThreadPoolExecutor(max_workers=parallel) as pool:
            found = list(pool.map(one, values))
    else:
        found = [one(v) for v in values]
    rows, points = [], []
    for nr, best, trail in found:
        rows.append(
            {
                "n_rt": nr,
                "largest_n_nrt": -1 if best is None else best,
                "at_limit": best == limit,
                "points": len(trail),
                "undecided": sum(v.verdict == "undecided" for v in trail),
                "cells": sum(v.cells for v in trail),
                "max_replications": max(v.replications for v in trail),
            }
        )
        for v in trail:
            points.append(
                {
                    "n_rt": v.n_rt,
                    "n_nrt": v.n_nrt,
                    "verdict": v.verdict,
                    "replications": v.replications,
                    "cells": v.cells,
                    "worst_clr": v.worst_clr,
                    "worst_upper": max((b.upper for b in v.classes.values()), default=0.0),
                }
            )
    return pd.DataFrame(rows), pd.DataFrame(points)


def plot(rows: "Any", port: "Any", rt: "Any", nrt: "Any", limit: int, ax: "Any" = None) -> "Any":
    """LRP97's Fig. 3: the measured edge (largest admissible N_nrt by N_rt; hollow where a
    point was left undecided) and every CAC boundary of ``port`` (a
    :class:`celltrain.cac.DelayPriorityPort`) as step lines."""
    import numpy as np

    from . import plot as _plot

    if ax is None:
        ax = _plot.new_axes((8.4, 4.6))
    n_rt = [int(v) for v in rows["n_rt"]]
    top = max(n_rt)
    styles = BOUNDARY_STYLES
    xs = list(range(top + 1))
    for rule, (color, ls, label) in styles.items():
        edge = port.boundary(rule, rt, nrt, top, limit)
        ys = [np.nan if e is None else min(e, limit) for e in edge]
        ax.step(xs, ys, where="mid", color=color, linestyle=ls, linewidth=2, label=label)
    measured = [np.nan if v < 0 else v for v in rows["largest_n_nrt"]]
    ax.plot(n_rt, measured, "o-", color="tab:red", linewidth=2.5, label="measured (bisection, 95 %)")
    shaky = rows[rows["undecided"] > 0]
    if len(shaky):
        ax.scatter(shaky["n_rt"], [max(v, 0) for v in shaky["largest_n_nrt"]], s=160, facecolors="none",
                   edgecolors="tab:red", label="an undecided point above (counted as refused)")  # fmt: skip
    ax.set_xlabel("N_rt (rt-VBR sources)")
    ax.set_ylabel("largest admissible N_nrt")
    ax.set_title(f"CAC region, target CLR {port.target:.0e}")
    ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(True, alpha=0.3)
    return ax.figure
