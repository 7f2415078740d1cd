"""Argument checks of the public functions: a wrong type or value is a ``TypeError`` or
``ValueError`` naming the argument, before anything runs (not an ``AttributeError`` or an
``OverflowError`` from deep inside)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

#: The largest seed the simulator takes (a 64-bit unsigned integer).
MAX_SEED = 2**64 - 1


def check_params(params: Any, name: str = "params") -> None:
    """``params`` is ``None`` or a mapping of parameter names to values."""
    if params is None:
        return
    if not isinstance(params, Mapping):
        raise TypeError(f"{name} must be a mapping of parameter names to values, not {type(params).__name__}")
    for key in params:
        if not isinstance(key, str):
            raise TypeError(f"{name}: parameter names are strings, not {key!r}")


def check_seed(seed: Any, name: str = "seed") -> Optional[int]:
    """``seed`` is ``None`` or an int in 0..2**64-1 (a bool is not a seed)."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"{name} must be a non-negative int, not {seed!r}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"{name} must be in 0..2**64-1, not {seed}")
    return seed


def check_progress(progress: Any) -> None:
    """``progress`` is ``None``, a bool, or a callable."""
    if progress is None or isinstance(progress, bool) or callable(progress):
        return
    raise TypeError(f"progress must be True, False, None or a callable, not {progress!r}")


def check_jobs(jobs: Any) -> Optional[int]:
    """``jobs`` is ``None`` or a positive int."""
    if jobs is None:
        return None
    if isinstance(jobs, bool) or not isinstance(jobs, int):
        raise TypeError(f"jobs must be a positive int, not {jobs!r}")
    if jobs < 1:
        raise ValueError(f"jobs must be >= 1, not {jobs}")
    return jobs


def check_grid(grid: Any) -> None:
    """``grid`` is ``None`` or a mapping of names to lists of values."""
    if grid is None:
        return
    if not isinstance(grid, Mapping):
        raise TypeError(f"grid must be a mapping of parameter names to lists of values, not {type(grid).__name__}")
