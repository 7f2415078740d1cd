"""celltrain: a fast, exact, cell-level simulator of TCP/IP over ATM.

The simulation runs in Rust; this package is the Python front:

>>> import celltrain
>>> r = celltrain.run("A1-udp", params={"duration": "0.3 s", "warmup": "0.1 s"})
>>> round(r.summary["aggregate"]["goodput_bps"] / 1e6, 1)
134.5
>>> r.flows[["name", "goodput_bps"]]                        # pandas DataFrames
>>> s = celltrain.sweep("A5-udp", grid={"n_sources": [5, 10]}, seeds=[1, 2], store="results/a5")
>>> s.aggregate[["n_sources", "seed", "efficiency", "fairness_index"]]

* :func:`run` → :class:`Result` (``.summary``, ``.flows``, ``.vcs``, ``.ports``,
  ``.categories``, ``.timeseries``); ``out=`` writes the files ``celltrain run --out`` writes.
* :func:`sweep` → :class:`SweepResult` (tidy ``.flows`` and per-run ``.aggregate``
  tables), in parallel on local processes, any ``concurrent.futures`` executor or Dask,
  with a crash-safe result store; :func:`load` reads a store back.
* :mod:`celltrain.plot`: matplotlib figures; :mod:`celltrain.reproduce`: the paper
  reproductions and their report.
* :mod:`celltrain.cac`: connection admission control models (peak, convolution, effective
  bandwidth, LRP97's delay-priority boundaries); :mod:`celltrain.region`: a two-class
  admissible region measured by bisection on simulations, with confidence bounds.
* :class:`RunCancel`: a token that stops a run from another thread (``run(..., cancel=token)``;
  Ctrl-C reaches only runs on the main thread).
* :func:`check`, :func:`scenarios`, :func:`papers`, :func:`show`, :class:`ScenarioError`.
"""

from __future__ import annotations

import importlib
from typing import Any

from . import _celltrain
from ._celltrain import RunCancel, ScenarioError, __version__
from ._core import Result, check, papers, run, scenarios, show
from ._store import StoreError
from ._sweep import SweepResult, load, sweep

__all__ = [
    "run",
    "Result",
    "RunCancel",
    "sweep",
    "SweepResult",
    "load",
    "check",
    "scenarios",
    "papers",
    "show",
    "ScenarioError",
    "StoreError",
    "plot",
    "reproduce",
    "__version__",
]


def __getattr__(name: str) -> Any:
    # The plotting and report modules import matplotlib: only when first used.
    if name in ("plot", "reproduce"):
        module = importlib.import_module(f".{name}", __name__)
        globals()[name] = module
        return module
    raise AttributeError(f"module 'celltrain' has no attribute {name!r}")


# The compiled class is ``celltrain._celltrain.ScenarioError`` and its ``args`` are
# (message, file, line, key, detail): pickle rebuilds it from them, so an error raised in a
# worker process reaches the caller whole; the properties below only read ``args``.
def _error_fields(self: ScenarioError) -> tuple:
    args = self.args
    return args if len(args) == 5 else (str(self.args[0]) if self.args else "", None, None, None, "")


ScenarioError.file = property(lambda self: _error_fields(self)[1])  # type: ignore[attr-defined]
ScenarioError.line = property(lambda self: _error_fields(self)[2])  # type: ignore[attr-defined]
ScenarioError.key = property(lambda self: _error_fields(self)[3])  # type: ignore[attr-defined]
ScenarioError.__str__ = lambda self: str(_error_fields(self)[0])  # type: ignore[assignment]
del _celltrain
