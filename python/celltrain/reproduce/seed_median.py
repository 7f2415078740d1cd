"""Summarising a grid point's seeds by their median, as Aron & Druschel (1997) report "medians
from 5 runs": the aggregate table keeps one row per point (and variant), whose every numeric
measure is the median over the seeds, and whose ``seed`` says so. The claims and tables then
read that one row as they read a mean over seeds."""

from __future__ import annotations

import pandas as pd

from .._sweep import SweepResult
from .rows import point_cols


def median_over_seeds(result: SweepResult) -> None:
    """Replaces ``result.aggregate`` by one row per point (and variant): numeric columns by
    their median over the seeds, the others from the point's first seed."""
    agg = result.aggregate
    keys = [c for c in point_cols(result) if c in agg.columns]
    if "variant" in agg.columns:
        keys.append("variant")
    if not keys:
        agg = agg.assign(_point=0)
        keys = ["_point"]
    seeds = agg.groupby(keys, sort=False, dropna=False)["seed"].nunique()
    numeric = [c for c in agg.select_dtypes("number").columns if c not in keys and c != "seed"]
    groups = agg.groupby(keys, sort=False, dropna=False)
    out = groups.first()
    out[numeric] = groups[numeric].median()
    out["seed"] = [f"median of {n}" for n in seeds.reindex(out.index)]
    result.aggregate = out.reset_index().drop(columns=["_point"], errors="ignore")
