"""The report's tables: celltrain's numbers beside the papers' published ones, and the CAC
boundaries of the delay-priority port beside the measured admissible region."""

from __future__ import annotations

from typing import Any, List, Mapping, Optional

import pandas as pd

from .._sweep import SweepResult
from .measures import fmt, mname
from .models import cac_regions
from .outcome import Table
from .rows import of_variant, variants


def _cell(values: pd.Series, measure: str) -> str:
    """The seed-mean, with [min–max] when the seeds differ."""
    values = values.dropna()
    if values.empty:
        return "—"
    mean = float(values.mean())
    if len(values) > 1 and values.max() != values.min():
        return f"{fmt(measure, mean)} [{fmt(measure, float(values.min()))}–{fmt(measure, float(values.max()))}]"
    return fmt(measure, mean)


def compare_tables(spec: Mapping[str, Any], result: SweepResult, published: Optional[Mapping[str, Any]]) -> List[Table]:
    """A ``[[experiment.table]]``: one table per measure along ``x`` (published beside it), or
    one table of all the measures when the run has a single point."""
    agg = result.aggregate
    x = spec.get("x") or (published.get("x") if published else None)
    tables = _tables_along_x(spec, agg, x, published) if x else [_table_of_measures(spec, agg, published)]
    seeds = agg["seed"].nunique()
    if seeds > 1:
        for t in tables:
            t.note = f"celltrain: mean over {seeds} seeds, [min–max] when they differ."
    return tables


def _variant_names(agg: pd.DataFrame) -> List[str]:
    return [f"celltrain: {v}" if v else "celltrain" for v in variants(agg)]


def _tables_along_x(spec: Mapping[str, Any], agg: pd.DataFrame, x: str, published: Optional[Mapping[str, Any]]) -> List[Table]:
    measures = list(spec["measures"])
    label = published.get("label", "paper") if published else None
    tables = []
    for measure in measures:
        header = [x] + ([label] if published else []) + _variant_names(agg)
        rows = []
        pub = {r[x]: r for r in published["rows"]} if published else {}
        for xv in sorted(agg[x].unique()):
            row = [str(xv)]
            if published:
                row.append(fmt(measure, pub.get(xv, {}).get(measure)))
            for v in variants(agg):
                part = of_variant(agg, v)
                row.append(_cell(part[part[x] == xv][measure], measure))
            rows.append(row)
        caption = spec["caption"] if len(measures) == 1 else f"{spec['caption']} — {mname(measure)}"
        tables.append(Table(caption, header, rows))
    return tables


def _table_of_measures(spec: Mapping[str, Any], agg: pd.DataFrame, published: Optional[Mapping[str, Any]]) -> Table:
    label = published.get("label", "paper") if published else None
    header = ["measure"] + ([label] if published else []) + _variant_names(agg)
    rows = []
    pub = published["rows"][0] if published else {}
    for measure in list(spec["measures"]):
        row = [mname(measure)]
        if published:
            row.append(fmt(measure, pub.get(measure)))
        for v in variants(agg):
            row.append(_cell(of_variant(agg, v)[measure], measure))
        rows.append(row)
    return Table(spec["caption"], header, rows)


def cac_table(result: SweepResult, model: Mapping[str, Any], caption: str) -> Table:
    """The largest N_nrt each rule (and the measurement) admits, by N_rt."""
    regions = cac_regions(result, model)
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
    rows_found = getattr(result, "_region_rows", None)
    if rows_found is not None:
        undecided = int(rows_found["undecided"].sum())
        note += (
            f" Measured by bisection at 95 % confidence: {int(rows_found['points'].sum())} points decided with"
            f" up to {int(rows_found['max_replications'].max())} replications, {undecided} left undecided"
            " (counted as refused)."
        )
    return Table(caption, header, rows, note)
