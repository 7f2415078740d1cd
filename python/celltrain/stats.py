"""Statistics over replications: the mean of a measure over seeds with its 95 % confidence
interval (Student t), and the check that replications differ at all.

A sweep with several seeds per point gives, per point, n independent runs; the interval is
mean ± t(0.975, n − 1) · s / √n, with s the sample standard deviation. With one seed there is
no interval (NaN). The t quantiles come from a table (n − 1 ≤ 30) and, beyond it, from the
Cornish–Fisher expansion of t about the normal quantile (error below 1e-4), so that no SciPy is
needed.
"""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING, List, Optional, Sequence, Tuple

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["t_975", "mean_ci95", "replication_table", "warn_if_replications_identical"]

# t(0.975, df) for df = 1 … 30.
_T975 = (
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
    2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
    2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
)  # fmt: skip
_Z975 = 1.959963984540054


def t_975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom (df ≥ 1)."""
    if df < 1:
        raise ValueError("Student's t needs at least one degree of freedom")
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    return z + g1 / df + g2 / df**2 + g3 / df**3


def mean_ci95(values: Sequence[float]) -> Tuple[float, float, int]:
    """``(mean, half_width, n)`` of the finite values: the 95 % interval is mean ± half_width
    (NaN with fewer than two values; NaN mean with none)."""
    xs = [float(v) for v in values if v is not None and math.isfinite(float(v))]
    n = len(xs)
    if n == 0:
        return math.nan, math.nan, 0
    mean = sum(xs) / n
    if n < 2:
        return mean, math.nan, n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, t_975(n - 1) * math.sqrt(var / n), n


def replication_table(
    data: "pd.DataFrame", by: Sequence[str], measures: Sequence[str]
) -> "pd.DataFrame":
    """One row per group of ``by`` (a sweep's parameters): for each measure ``m``, ``m_mean``
    and ``m_ci95`` (the half-width of the 95 % interval) over the group's rows (its seeds),
    and ``replications`` (the rows). Groups keep their order of first appearance."""
    import pandas as pd

    keys = list(by)
    rows: List[dict] = []
    groups = data.groupby(keys, sort=False, observed=True, dropna=False) if keys else [((), data)]
    for key, part in groups:
        key = key if isinstance(key, tuple) else (key,)
        row = dict(zip(keys, key))
        row["replications"] = len(part)
        for m in measures:
            mean, half, _n = mean_ci95(part[m].tolist())
            row[f"{m}_mean"] = mean
            row[f"{m}_ci95"] = half
        rows.append(row)
    return pd.DataFrame(rows, columns=[*keys, "replications", *[f"{m}_{s}" for m in measures for s in ("mean", "ci95")]])


def warn_if_replications_identical(
    aggregate: "pd.DataFrame", by: Sequence[str], stacklevel: int = 2
) -> Optional[str]:
    """Warns (RuntimeWarning) and returns the message when every point run with more than one
    seed gave byte-identical results (equal trace hashes): the scenario draws nothing random,
    so the seeds are not replications and their interval is no confidence interval."""
    if "trace_hash" not in aggregate.columns or "seed" not in aggregate.columns:
        return None
    keys = list(by)
    groups = aggregate.groupby(keys, sort=False, observed=True, dropna=False) if keys else [((), aggregate)]
    replicated = [part for _k, part in groups if part["seed"].nunique() > 1]
    if not replicated or any(part["trace_hash"].nunique() > 1 for part in replicated):
        return None
    message = (
        "every seed gave byte-identical results (equal trace hashes): the scenario draws nothing "
        "random, so more seeds add no information and the confidence intervals are empty"
    )
    warnings.warn(message, RuntimeWarning, stacklevel=stacklevel + 1)
    return message
