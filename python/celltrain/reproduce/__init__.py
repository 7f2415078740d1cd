"""Reproductions of the source papers' experiments, and their report.

``celltrain reproduce ID|PAPER|all [--out DIR] [--quick]`` (or :func:`reproduce`) runs the
experiments of the source papers (listed in ``reproductions/catalogue.toml``) that exist as
built-in scenarios, sets celltrain's numbers beside the papers' published ones and checks
each of the papers' claims, then writes ``DIR/index.md`` (with ``DIR/img/*.png``) and a
self-contained ``DIR/index.html`` (images embedded as data URIs).

What is run, the published numbers (each with the table it comes from) and the claims with
their criteria are data: ``reproductions/<ID>.toml`` (``reproductions/README.md``
describes the schema). A claim's verdict — **holds**, **does not hold** or **not yet
runnable** — is always computed from the measured values and the claim's criterion; a claim
whose run needs a scenario celltrain does not have yet is *not yet runnable*.

Runs go through :func:`celltrain.sweep` into ``DIR/store``, so a report re-run (or one
interrupted) reuses every run already done.

The modules: :mod:`.specs` (the data files and targets), :mod:`.running` (a run's sweeps),
:mod:`.measures` (derived measures and their formatting), :mod:`.models` (the papers'
analytic models), :mod:`.claims` (one check per claim kind), :mod:`.figures` and
:mod:`.tables`, :mod:`.markdown` and :mod:`.html` (the renderings), :mod:`.report` (the
whole report, :func:`reproduce`).
"""

from __future__ import annotations

from .claims import CHECKS, PER_VARIANT, check
from .measures import MEASURE_NAMES, derived_measures, fmt
from .models import cac_regions, convolution_loss, effective_bandwidth, gcra_train, packet_train_measures
from .outcome import (
    CONSISTENCY, FAILS, HOLDS, NOT_JUDGED_QUICK, NOT_RUNNABLE, REPORTED, ExperimentOutcome, Figure_, Report, Table, Verdict,
)  # fmt: skip
from .report import reproduce, run_experiment
from .specs import RunSpec, UnknownTarget, catalogue, data_dir, select

#: The name the claim check had when this package was one module (the tests use it).
_check = check

__all__ = [
    "reproduce", "Report", "Verdict", "UnknownTarget", "data_dir", "HOLDS", "FAILS", "NOT_RUNNABLE", "NOT_JUDGED_QUICK", "REPORTED", "CONSISTENCY",
]
