"""The function a sweep runs on its workers (processes, threads or Dask workers).

It only needs the compiled module, so that a worker starts fast and nothing but the
scenario text, the overrides and the seed cross the process boundary.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from . import _celltrain


def run_point(text: str, overrides: List[Tuple[str, str]], seed: Optional[int]) -> str:
    """Runs scenario TOML ``text``; returns the compact summary JSON."""
    return _celltrain.run_json(text, [tuple(o) for o in overrides], seed, True)
