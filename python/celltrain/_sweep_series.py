"""Time series kept by sweeps (``sweep(..., timeseries=True)``): stored in each point's
record beside its summary, and gathered in long (tidy) form with the point's columns."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Tuple

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

#: The record field that holds a point's series: ``{"series_csv": …, "changes_csv": …}``.
RECORD_FIELD = "timeseries"

#: A point's texts: its sampled series (``timeseries.csv``) and its change records
#: (``timeseries_changes.csv``), each None when the scenario does not record it.
Texts = Tuple[Optional[str], Optional[str]]


def from_record(record: Mapping[str, Any]) -> Optional[Texts]:
    """The series a stored record keeps, or None if it was stored without them."""
    kept = record.get(RECORD_FIELD)
    if not isinstance(kept, dict):
        return None
    return kept.get("series_csv"), kept.get("changes_csv")


def to_record(texts: Texts) -> Dict[str, Optional[str]]:
    return {"series_csv": texts[0], "changes_csv": texts[1]}


def wide_to_long(wide: "pd.DataFrame") -> "pd.DataFrame":
    """A wide series (``time_s`` and ``<subject>.<quantity>`` columns) in long form:
    ``time_s``, ``subject``, ``quantity``, ``value``, sorted by subject, quantity and time."""
    import pandas as pd

    long = wide.melt(id_vars=["time_s"], var_name="column", value_name="value")
    # The quantity is the last dotted part (names of ports hold no dot; "a->b" stays whole).
    parts = long["column"].str.rsplit(".", n=1, expand=True)
    if parts.shape[1] < 2:  # no column at all besides time_s
        return pd.DataFrame({"time_s": [], "subject": [], "quantity": [], "value": []})
    out = pd.DataFrame({"time_s": long["time_s"], "subject": parts[0], "quantity": parts[1], "value": long["value"]})
    return out.sort_values(["subject", "quantity", "time_s"], kind="stable").reset_index(drop=True)


def read_changes(text: str) -> "pd.DataFrame":
    """``timeseries_changes.csv`` as a DataFrame (subjects and quantities as strings)."""
    import pandas as pd

    return pd.read_csv(
        io.StringIO(text), dtype={"subject": "string", "quantity": "string", "value": "float64"},
        keep_default_na=False, na_values={"value": [""]},
    )  # fmt: skip


def gather(
    rows: Sequence[Mapping[str, Any]],
    texts: Mapping[str, Texts],
    columns: Sequence[str],
    which: int,
) -> Optional["pd.DataFrame"]:
    """The long series of every run in ``rows`` (the sweep's aggregate rows, with ``key``),
    each prefixed with the run's identifying ``columns``; ``which``: 0 for the sampled series,
    1 for the change records. None when no run kept any."""
    import pandas as pd

    frames: List["pd.DataFrame"] = []
    for row in rows:
        kept = texts.get(row["key"])
        text = kept[which] if kept is not None else None
        if text is None:
            continue
        long = wide_to_long(pd.read_csv(io.StringIO(text))) if which == 0 else read_changes(text)
        for i, c in enumerate(columns):
            long.insert(i, c, [row[c]] * len(long))
        frames.append(long)
    if not frames:
        return None
    return pd.concat(frames, ignore_index=True)
