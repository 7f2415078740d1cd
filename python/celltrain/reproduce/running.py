"""Running the sweeps of one run specification: each variant of it swept over the grid and
seeds (into the shared result store, so a report made again reuses the runs), the variants
combined in their declared order, and the derived and model columns added."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Optional

import numpy as np
import pandas as pd

from .._sweep import SweepResult, combine, sweep
from .measures import derived_measures
from .gfr import gfr_measures
from .models import packet_train_measures
from .seed_median import median_over_seeds
from .specs import RunSpec, derive

#: The models a run can ask for (``model = "..."``): columns computed from each run's summary.
_MODELS = {"packet_train": packet_train_measures, "gfr": gfr_measures}


def run_sweeps(
    spec: RunSpec, store: Path, executor: Any, jobs: Optional[int], progress: bool, model: Optional[Dict[str, Any]] = None
) -> SweepResult:
    """Every variant of ``spec`` swept, combined into one result with the derived columns."""
    if spec.region is not None:
        result = _measure_region(spec, store, executor, jobs, model or {})
        _add_derived_columns(result, spec)
        return result
    variants = spec.variants or [{"name": None, "params": {}}]
    result = combine([_sweep_variant(spec, v, store, executor, jobs, progress) for v in variants])
    if spec.variants:
        _order_by_variant(result, variants)
    _add_derived_columns(result, spec)
    result._grid = list(spec.grid)  # type: ignore[attr-defined]
    if spec.statistic == "median":
        median_over_seeds(result)
    elif spec.statistic != "mean":
        raise ValueError(f"run {spec.name}: unknown statistic {spec.statistic!r} (mean or median)")
    return result


def _measure_region(spec: RunSpec, store: Path, executor: Any, jobs: Optional[int], model: Dict[str, Any]) -> SweepResult:
    """The admissible region by bisection (``celltrain.region``): every replication it ran, as
    one result, with the search's rows (largest N_nrt by N_rt) and points attached."""
    from ..region import RegionSettings, measured_region, sweep_runner

    r = spec.region or {}
    settings = RegionSettings(
        target=float(model.get("target_clr", 1e-4)),
        max_replications=int(r.get("max_replications", 16)),
    )
    runs: List[SweepResult] = []
    runner = sweep_runner(spec.scenario, params=spec.params, store=store, executor=executor, jobs=jobs, collect=runs)
    rows, points = measured_region([int(v) for v in r["n_rt"]], int(r["limit"]), runner, settings)
    result = combine(runs)
    result._region_rows = rows  # type: ignore[attr-defined]
    result._region_points = points  # type: ignore[attr-defined]
    result._region_limit = int(r["limit"])  # type: ignore[attr-defined]
    result._grid = ["n_rt", "n_nrt"]  # type: ignore[attr-defined]
    return result


def _sweep_variant(
    spec: RunSpec, variant: Dict[str, Any], store: Path, executor: Any, jobs: Optional[int], progress: bool
) -> SweepResult:
    vparams = dict(variant.get("params", {}))

    def params_for(point: Dict[str, Any]) -> Dict[str, Any]:
        merged = {**spec.params, **vparams}
        return {k: derive(v, point) for k, v in merged.items()}

    labels = {"variant": variant["name"]} if variant.get("name") is not None else None
    return sweep(
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


def _order_by_variant(result: SweepResult, variants: List[Dict[str, Any]]) -> None:
    """Sorts every table (stably) by the order the variants are declared in, and the
    summaries as the aggregate table."""
    order = {v["name"]: i for i, v in enumerate(variants)}
    for name in ("flows", "vcs", "ports", "categories", "aggregate"):
        df = getattr(result, name)
        df = df.iloc[np.argsort(df["variant"].map(order).to_numpy(), kind="stable")].reset_index(drop=True)
        setattr(result, name, df)
    by_key = {k: s for (_l, s, k) in result._entries}
    result.summaries = [by_key[k] for k in result.aggregate["key"]]


def _add_derived_columns(result: SweepResult, spec: RunSpec) -> None:
    derived = pd.DataFrame([derived_measures(s) for s in result.summaries], index=result.aggregate.index)
    if spec.model is not None:
        model_of = _MODELS.get(spec.model)
        if model_of is None:
            raise ValueError(f"run {spec.name}: unknown model {spec.model!r}")
        model = pd.DataFrame([model_of(s) for s in result.summaries], index=result.aggregate.index)
        derived = pd.concat([derived, model], axis=1)
    result.aggregate = pd.concat([result.aggregate.drop(columns=list(derived.columns), errors="ignore"), derived], axis=1)
