"""Picking rows of a sweep result: one variant's, or the columns that name a grid point."""

from __future__ import annotations

from typing import List, Optional

import pandas as pd

from .._sweep import SweepResult


def variants(df: pd.DataFrame) -> List[Optional[str]]:
    """The variants of a table in order of appearance; ``[None]`` for a run without variants."""
    if "variant" not in df.columns:
        return [None]
    return list(dict.fromkeys(df["variant"].tolist()))


def of_variant(df: pd.DataFrame, variant: Optional[str]) -> pd.DataFrame:
    return df if variant is None else df[df["variant"] == variant]


def point_cols(result: SweepResult) -> List[str]:
    """The columns that tell a run's grid points apart (not its variant)."""
    grid = getattr(result, "_grid", None)
    if grid is not None:
        return list(grid)
    return [p for p in result.params if p != "variant"]
