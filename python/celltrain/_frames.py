"""Summaries as pandas DataFrames with explicit dtypes.

Counts are ``int64`` (``Int64`` when some are null: the TCP counters of UDP flows, the
packet counters of cell-mode ports), rates, ratios and times ``float64`` (NaN when
null), names strings, and the few low-cardinality labels (flow kind, service category,
port policy) ``category``: no column is ``object``. Fields that a later simulator version
adds to a summary come along as extra columns, typed from their values (all-null ones as
``float64``).
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from . import _celltrain

STR = "str"
CAT = "category"
I64 = "int64"
F64 = "float64"

FLOW_COLUMNS: List[Tuple[str, str]] = [
    ("name", STR), ("kind", CAT), ("vc", STR), ("goodput_bps", F64),
    ("packets_sent", I64), ("packets_delivered", I64), ("packets_lost", I64),
    ("packet_loss_ratio", F64), ("bytes_delivered", I64),
    # Sent, neither delivered nor lost when the run ended (absent from older summaries).
    ("packets_queued_at_end", I64 + "?"),
    # TCP flows only (null for the others); present when the simulator reports them.
    ("segments_sent", I64 + "?"), ("segments_retransmitted", I64 + "?"),
    ("retransmission_ratio", F64 + "?"), ("timeouts", I64 + "?"), ("fast_retransmits", I64 + "?"),
    # Sized TCP transfers and TCP senders' bursts (null when they do not apply).
    ("completion_s", F64 + "?"), ("transfer_throughput_bps", F64 + "?"), ("bursts", I64 + "?"),
    ("mean_burst_segments", F64 + "?"), ("mean_idle_s", F64 + "?"), ("transfer_time_s", F64 + "?"),
    # Delay of the delivered packets, host to host (null when none was delivered).
    ("mean_delay_s", F64 + "?"), ("max_delay_s", F64 + "?"),
    # TCP senders' RTT, seconds: samples in the window, their mean raw RTT, the final SRTT and RTO
    # (with BSD timers SRTT is the estimator's ticks × the tick period, in steps of 1/8 tick).
    ("rtt_samples", I64 + "?"), ("rtt_mean_s", F64 + "?"), ("srtt_s", F64 + "?"), ("rto_s", F64 + "?"),
    # TCP senders: the idle before a retransmission (timeout-ended gaps), bytes sent again.
    ("mean_timeout_idle_s", F64 + "?"), ("bytes_retransmitted", I64 + "?"),
    ("multi_segment_bursts", I64 + "?"), ("mean_multi_burst_segments", F64 + "?"),
]  # fmt: skip
VC_COLUMNS: List[Tuple[str, str]] = [
    ("name", STR), ("category", CAT), ("cells_sent", I64), ("cells_delivered", I64),
    ("cells_dropped", I64), ("clr", F64), ("frames_sent", I64), ("frames_delivered", I64),
    ("frames_lost", I64), ("flr", F64), ("corrupted_pdus", I64),
    # UPC, preventive tagging and reassembly timer.
    ("cells_policed", I64 + "?"), ("cells_tagged", I64 + "?"), ("frames_tagged", I64 + "?"),
    ("reassembly_timeouts", I64 + "?"),
    # Cells in buffers and on links when the window opened and closed (the VC's identity).
    ("cells_in_flight_at_start", I64 + "?"), ("cells_in_flight_at_end", I64 + "?"),
]  # fmt: skip
#: Cell transfer delay and CDV of the user cells delivered (a VC's or a category's), the
#: summary's ``delay`` object flattened; null when no cell was delivered.
DELAY_COLUMNS: List[Tuple[str, str]] = [
    ("delay_cells", I64), ("delay_mean_s", F64), ("delay_min_s", F64),
    ("delay_p50_s", F64), ("delay_p99_s", F64), ("delay_p999_s", F64),
    ("delay_max_s", F64), ("delay_cdv_2pt_999_s", F64), ("delay_cdv_1pt_max_s", F64),
    ("delay_resolution_s", F64),
]  # fmt: skip
VC_COLUMNS += DELAY_COLUMNS
#: The reasons a port drops cells, as the simulator names them, in its column order.
DROP_REASONS: Tuple[str, ...] = _celltrain.DROP_REASONS
PORT_COLUMNS: List[Tuple[str, str]] = [
    ("name", STR), ("rate_bps", I64), ("policy", CAT), ("cells_in", I64), ("cells_out", I64),
    ("dropped_total", I64), *[(f"dropped_{reason}", I64) for reason in DROP_REASONS],
    ("queued_at_start", I64), ("queued_at_end", I64),
    ("max_queue_cells", I64), ("mean_queue_cells", F64), ("utilization", F64),
    # Packet mode only (null in cell mode).
    ("packets_in", I64 + "?"), ("packets_out", I64 + "?"), ("packets_dropped", I64 + "?"),
    ("packets_queued_at_start", I64 + "?"), ("packets_queued_at_end", I64 + "?"),
    ("max_queue_bytes", I64 + "?"), ("mean_queue_bytes", F64 + "?"),
    # Packet links with a token-bucket policer or shaper only (null elsewhere).
    ("police_conforming", I64 + "?"), ("police_dropped", I64 + "?"),
    ("shape_delayed", I64 + "?"), ("shape_dropped", I64 + "?"),
    # The packet flows crossing the port: their goodput and efficiency there (null elsewhere).
    ("goodput_bps", F64 + "?"), ("efficiency", F64 + "?"),
]  # fmt: skip
CATEGORY_COLUMNS: List[Tuple[str, str]] = [
    ("category", CAT), ("cells_sent", I64), ("cells_dropped", I64), ("clr", F64),
    *DELAY_COLUMNS,
]  # fmt: skip

#: Columns of the aggregated view of a sweep (after the point columns and ``seed``).
AGGREGATE_COLUMNS: List[Tuple[str, str]] = [
    ("goodput_bps", F64), ("max_goodput_bps", F64), ("efficiency", F64),
    ("fairness_index", F64), ("bottleneck", STR), ("n_flows", I64), ("mean_plr", F64),
    ("mean_clr", F64), ("mean_clr_reverse", F64), ("mean_retransmission_ratio", F64), ("duration_s", F64), ("warmup_s", F64), ("events", I64),
    ("wall_s", F64), ("trace_hash", STR), ("scenario_sha256", STR), ("version", STR), ("key", STR),
]  # fmt: skip


def _string_dtype() -> Any:
    # pandas >= 3 has a default string dtype ("str"); before, strings are objects.
    try:
        return pd.api.types.pandas_dtype("str") if int(pd.__version__.split(".")[0]) >= 3 else object
    except TypeError:  # pragma: no cover
        return object


def _typed(rows: Sequence[Mapping[str, Any]], columns: Sequence[Tuple[str, str]]) -> pd.DataFrame:
    present = {k for row in rows for k in row}
    # Optional columns (dtype ending in "?") only when some row has them; unknown fields
    # (of a newer simulator) after the known ones, in name order.
    columns = [(c, t.rstrip("?")) for c, t in columns if not t.endswith("?") or c in present]
    names = [c for c, _ in columns]
    extra = sorted(present - set(names))
    data: Dict[str, Any] = {}
    for name, dtype in columns:
        values = [row.get(name) for row in rows]
        if dtype == STR:
            data[name] = pd.Series(values, dtype=_string_dtype())
        elif dtype == CAT:
            data[name] = pd.Series(values, dtype="category")
        elif dtype == I64:
            if any(v is None for v in values):
                data[name] = pd.Series(values, dtype="Int64")
            else:
                data[name] = pd.Series(values, dtype=I64)
        else:
            data[name] = pd.Series([np.nan if v is None else v for v in values], dtype=F64)
    for name in extra:
        data[name] = _column_values([row.get(name) for row in rows], missing=F64)
    return pd.DataFrame(data, columns=names + extra)


def _flat_port(p: Mapping[str, Any]) -> Dict[str, Any]:
    row = {k: v for k, v in p.items() if k != "dropped"}
    for reason, count in (p.get("dropped") or {}).items():
        row[f"dropped_{reason}"] = count
    # A reason missing from a summary dropped nothing (as in ports.csv).
    for reason in DROP_REASONS:
        row.setdefault(f"dropped_{reason}", 0)
    return row


def _flat_nested(row: Mapping[str, Any]) -> Dict[str, Any]:
    """A row whose ``delay`` object (cell transfer delay) becomes ``delay_<key>`` columns, as in
    ``vcs.csv``."""
    flat: Dict[str, Any] = {}
    for k, v in row.items():
        if k == "delay" and isinstance(v, Mapping):
            for sub, x in v.items():
                flat[f"{k}_{sub}"] = x
        else:
            flat[k] = v
    return flat


def flows_frame(flows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    return _typed(flows, FLOW_COLUMNS)


def vcs_frame(vcs: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    return _typed([_flat_nested(v) for v in vcs], VC_COLUMNS)


def ports_frame(ports: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    return _typed([_flat_port(p) for p in ports], PORT_COLUMNS)


def categories_frame(categories: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    return _typed([_flat_nested(c) for c in categories], CATEGORY_COLUMNS)


# --------------------------------------------------------------------------------------
# Sweeps: many summaries, one tidy table per kind of row


def aggregate_row(
    summary: Mapping[str, Any], key: Optional[str] = None, scenario_sha256: Optional[str] = None
) -> Dict[str, Any]:
    a = summary["aggregate"]
    flows = summary["flows"]
    vcs = summary["vcs"]
    retrans = [f["retransmission_ratio"] for f in flows if f.get("retransmission_ratio") is not None]
    return {
        "goodput_bps": a.get("goodput_bps"),
        "max_goodput_bps": a.get("max_goodput_bps"),
        "efficiency": a.get("efficiency"),
        "fairness_index": a.get("fairness_index"),
        "bottleneck": a.get("bottleneck"),
        "n_flows": len(flows),
        "mean_plr": float(np.mean([f["packet_loss_ratio"] for f in flows])) if flows else None,
        "mean_clr": a["mean_clr"] if "mean_clr" in a else _data_vcs_mean_clr(flows, vcs),
        "mean_clr_reverse": a.get("mean_clr_reverse"),
        "mean_retransmission_ratio": float(np.mean(retrans)) if retrans else None,
        "duration_s": summary.get("duration_s"),
        "warmup_s": summary.get("warmup_s"),
        "events": summary.get("events"),
        "wall_s": summary.get("wall_s"),
        "trace_hash": summary.get("trace_hash"),
        "scenario_sha256": scenario_sha256,
        "version": summary.get("version"),
        "key": key,
    }


def _data_vcs_mean_clr(flows: List[Mapping[str, Any]], vcs: List[Mapping[str, Any]]) -> Optional[float]:
    """A summary written before the aggregate held ``mean_clr``: the mean CLR of the flows'
    (first) VCs, which carry their data, not of every VC (TCP's acknowledgement VCs lose
    almost nothing, and would halve it)."""
    data = {f["vc"] for f in flows}
    clrs = [v["clr"] for v in vcs if v["name"] in data]
    return float(np.mean(clrs)) if clrs else None


def _value_sort_key(v: Any) -> Tuple[int, Any]:
    if v is None or (isinstance(v, float) and v != v):
        return (3, 0)
    if isinstance(v, bool):
        return (0, int(v))
    if isinstance(v, (int, float)):
        return (0, v)
    from .units import quantity

    q = quantity(v)
    if q is not None:  # "500 cells" before "1000 cells": by value, within its kind
        return (1, (q[1], q[0], str(v)))
    return (2, str(v))


def _with_numeric_quantities(df: pd.DataFrame, names: Sequence[str], taken: Sequence[str] = ()) -> pd.DataFrame:
    """Beside each parameter column whose values are all quantities of one kind (``"1000
    cells"``), the numbers in the kind's base unit (``buffer_cells``), for tables and plots;
    not where that name is a column already, here or in ``taken`` (a swept ``duration`` beside
    the summary's own ``duration_s``)."""
    from .units import column_name, quantity

    for name in names:
        if name not in df.columns or not len(df):
            continue
        parsed = [quantity(v) for v in df[name]]
        kinds = {q[1] for q in parsed if q is not None}
        if len(kinds) != 1 or any(q is None for q in parsed):
            continue
        kind = kinds.pop()
        numeric = column_name(name, kind)
        if numeric in df.columns or numeric in taken:
            continue
        values = [q[0] for q in parsed]  # type: ignore[index]
        whole = kind in ("cells", "bytes") and all(float(v).is_integer() for v in values)
        column = pd.Series([int(v) for v in values] if whole else values, index=df.index, dtype=I64 if whole else F64)
        df.insert(list(df.columns).index(name) + 1, numeric, column)
    return df


def _column_values(values: List[Any], missing: Any = object) -> pd.Series:
    """A column of values whose type is not declared: ``int64`` (``Int64`` with nulls),
    ``float64``, strings, or ``missing`` when every value is null."""
    kinds = {type(v) for v in values if v is not None}
    if not kinds and values:
        return pd.Series([np.nan] * len(values) if missing == F64 else values, dtype=missing)
    if kinds and kinds <= {int}:
        return pd.Series(values, dtype="Int64" if None in values else I64)
    if kinds and kinds <= {int, float}:
        return pd.Series([np.nan if v is None else float(v) for v in values], dtype=F64)
    if kinds and kinds <= {str}:
        return pd.Series(values, dtype=_string_dtype())
    return pd.Series(values, dtype=object)


def tidy_tables(
    entries: Iterable[Tuple[Mapping[str, Any], Mapping[str, Any], Optional[str]]],
    param_names: Sequence[str] = (),
    extra_labels: Sequence[str] = (),
    scenario_hashes: Optional[Mapping[str, str]] = None,
) -> Dict[str, pd.DataFrame]:
    """Builds the tidy tables of a sweep from ``(labels, summary, key)`` entries.

    ``labels`` maps swept parameter names (and e.g. ``variant``) to the values of the
    point. The identifying columns are ``scenario``, the labels in ``extra_labels``, the
    swept parameters (plus every resolved parameter that differs between entries) and
    ``seed``; rows are sorted by them. ``scenario_hashes`` maps keys to the
    ``scenario_sha256`` column of ``aggregate``.
    """
    hashes = dict(scenario_hashes or {})
    entries = list(entries)
    names = list(param_names)
    for labels, _s, _k in entries:
        for k in labels:
            if k not in names and k not in extra_labels:
                names.append(k)
    # Resolved parameters that vary between entries are identifying too.
    resolved: Dict[str, set] = {}
    for _l, s, _k in entries:
        for k, v in s.get("params", {}).items():
            resolved.setdefault(k, set()).add(repr(v))
    for k, seen in resolved.items():
        missing = any(k not in s.get("params", {}) for _l, s, _k in entries)
        if (len(seen) > 1 or missing) and k not in names and len(entries) > 1:
            names.append(k)

    def ident(labels: Mapping[str, Any], s: Mapping[str, Any]) -> Dict[str, Any]:
        row: Dict[str, Any] = {"scenario": s["scenario"]}
        for k in extra_labels:
            row[k] = labels.get(k)
        for k in names:
            row[k] = labels[k] if k in labels else s.get("params", {}).get(k)
        row["seed"] = s["seed"]
        return row

    order = sorted(
        range(len(entries)),
        key=lambda i: (
            entries[i][1]["scenario"],
            tuple(_value_sort_key(entries[i][0].get(k)) for k in extra_labels),
            tuple(
                _value_sort_key(entries[i][0].get(k, entries[i][1].get("params", {}).get(k)))
                for k in names
            ),
            entries[i][1]["seed"],
            entries[i][2] or "",
        ),
    )
    id_cols = ["scenario", *extra_labels, *[n if n not in _RESERVED else f"param_{n}" for n in names], "seed"]

    # A column that is null throughout one table (a parameter of the scenarios without
    # VCs, in ``vcs``) takes the type it has over all the entries.
    src_names = ["scenario", *extra_labels, *names, "seed"]
    every = [ident(labels, s) for labels, s, _k in entries]
    null_dtype = {}
    for src in src_names:
        dtype = _column_values([r[src] for r in every]).dtype
        null_dtype[src] = "Int64" if str(dtype) in (I64, "Int64") else dtype

    def build(rows_of, columns) -> pd.DataFrame:
        idents: List[Dict[str, Any]] = []
        rows: List[Mapping[str, Any]] = []
        for i in order:
            labels, s, key = entries[i]
            for row in rows_of(s, key):
                idents.append(ident(labels, s))
                rows.append(row)
        body = _typed(rows, columns)
        head: Dict[str, Any] = {}
        for col, src in zip(id_cols, src_names):
            head[col] = _column_values([r[src] for r in idents], missing=null_dtype[src])
        head_df = pd.DataFrame(head, columns=id_cols, index=body.index)
        head_df = _with_numeric_quantities(
            head_df, [c for c in id_cols if c not in ("scenario", "seed")], taken=list(body.columns)
        )
        return pd.concat([head_df, body], axis=1)

    return {
        "flows": build(lambda s, k: s["flows"], FLOW_COLUMNS),
        "vcs": build(lambda s, k: [_flat_nested(v) for v in s["vcs"]], VC_COLUMNS),
        "ports": build(lambda s, k: [_flat_port(p) for p in s["ports"]], PORT_COLUMNS),
        "categories": build(lambda s, k: [_flat_nested(c) for c in s["categories"]], CATEGORY_COLUMNS),
        "aggregate": build(lambda s, k: [aggregate_row(s, k, hashes.get(k or ""))], AGGREGATE_COLUMNS),
    }


_RESERVED = {
    c for cols in (FLOW_COLUMNS, VC_COLUMNS, PORT_COLUMNS, CATEGORY_COLUMNS, AGGREGATE_COLUMNS) for c, _ in cols
} | {"scenario", "seed"}
