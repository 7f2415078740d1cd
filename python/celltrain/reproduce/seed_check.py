"""Whether a run's seeds are really several draws: with deterministic hosts every seed of a
point can give the byte-identical run (the same trace hash), so "N seeds" are one draw and a
mean over them has no spread to speak of."""

from __future__ import annotations

from typing import Optional

from .._sweep import SweepResult
from .rows import point_cols


def identical_seeds_warning(name: str, result: SweepResult) -> Optional[str]:
    """A sentence for the report when, at some point of run ``name``, every seed gave the
    same trace hash; None when each point's seeds differ (or there is one seed)."""
    agg = result.aggregate
    if "trace_hash" not in agg.columns or agg["seed"].nunique() < 2:
        return None
    keys = [c for c in ["variant", *point_cols(result)] if c in agg.columns]
    groups = agg.groupby(keys, sort=False, dropna=False) if keys else [(None, agg)]
    points = same = 0
    for _, g in groups:
        if len(g) < 2:
            continue
        points += 1
        same += int(g["trace_hash"].nunique() == 1)
    if not same:
        return None
    return (
        f"Warning: in run '{name}' the seeds gave byte-identical results (one trace hash) at {same} of "
        f"{points} points: there the seeds are one draw, not several."
    )
