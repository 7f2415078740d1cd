"""Making a report: each experiment of the target run (its sweeps), drawn (figures and
tables) and judged (its claims), then ``index.md``, ``img/*.png`` and ``index.html`` written."""

from __future__ import annotations

import datetime as _dt
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from .. import _outdir
from .. import plot as _plot
from .._core import builtin_names, paper_label
from . import html as _html
from . import markdown as _markdown
from .claims import PER_VARIANT, check
from .seed_check import identical_seeds_warning
from .figures import figure
from .outcome import (
    CONSISTENCY, FAILS, HOLDS, NOT_JUDGED_QUICK, NOT_RUNNABLE, REPORTED, ExperimentOutcome, Figure_, Report, Verdict,
)  # fmt: skip
from .rows import variants
from .running import run_sweeps
from .specs import RunSpec, catalogue, select
from .tables import cac_table, compare_tables


def reproduce(
    target: str = "all",
    out: Union[str, "os.PathLike[str]"] = "results/report",
    quick: bool = False,
    jobs: Optional[int] = None,
    progress: bool = True,
    executor: Any = None,
    seed_offset: int = 0,
) -> Report:
    """Runs the reproductions ``target`` names and writes the report into ``out``.

    ``target``: an experiment id (``"A5"``), a paper (``"MSc98"``, ``"msc98"``, ``"A"``) or
    ``"all"``. ``quick`` runs short simulations with one seed. Runs are stored in
    ``out/store`` and reused when the report is made again. ``seed_offset`` adds N to every
    declared seed of every run (the bisection of a measured region keeps its seeds 1, 2, …):
    with N at least the largest declared seed, the seeds are disjoint from the default ones.
    Returns a :class:`Report`.
    """
    started = time.perf_counter()
    if seed_offset < 0:
        raise ValueError(f"seed offset {seed_offset}: seeds are non-negative, the offset must be ≥ 0")
    ids = select(target)
    paper_info, experiments, papers = catalogue()
    out = Path(out)
    # Staged as `run --out` is (the report's files replaced whole at the end, nothing
    # half-written on an error or Ctrl-C); an unwritable directory is found before the runs.
    staging = _outdir.prepare(out)
    store = out / "store"
    builtins = builtin_names()
    by_id = {exp["id"]: (exp, paper) for paper in papers.values() for exp in paper.get("experiment", [])}
    owned = None
    n_jobs = jobs if jobs is not None else (os.cpu_count() or 1)
    if executor is None and n_jobs > 1:
        owned = executor = ProcessPoolExecutor(max_workers=n_jobs)
    outcomes: List[ExperimentOutcome] = []
    not_runnable: List[Dict[str, str]] = []
    try:
        for entry in experiments:
            if entry["id"] not in ids:
                continue
            spec = by_id.get(entry["id"])
            runnable = spec is not None and any(r["scenario"] in builtins for r in spec[0].get("run", []))
            if not runnable:
                paper = next((p for p, info in paper_info.items() if entry["id"].startswith(info["letter"])), "")
                not_runnable.append(
                    {"id": entry["id"], "paper": paper_label(paper), "title": entry["title"], "needs": entry["needs"]}
                )
                continue
            run_jobs = 1 if executor is None else jobs
            outcomes.append(run_experiment(spec[0], spec[1], quick, store, executor, run_jobs, progress, builtins, seed_offset))
    except BaseException:
        _outdir.discard(staging)
        raise
    finally:
        if owned is not None:
            owned.shutdown()
    report = Report(
        out=out, markdown=out / "index.md", html=out / "index.html", quick=quick, experiments=outcomes,
        not_runnable=not_runnable, wall_s=time.perf_counter() - started, seed_offset=seed_offset,
    )  # fmt: skip
    write(report, target, staging)
    return report


def run_experiment(
    exp: Mapping[str, Any],
    paper: Mapping[str, Any],
    quick: bool,
    store: Path,
    executor: Any,
    jobs: Optional[int],
    progress: bool,
    builtins: Sequence[str],
    seed_offset: int = 0,
) -> ExperimentOutcome:
    """One ``[[experiment]]`` of a paper: its runs that have a built-in scenario, its figures,
    tables and the verdict on each of its claims."""
    started = time.perf_counter()
    out = ExperimentOutcome(
        id=exp["id"], title=exp["title"], paper=paper_label(paper["paper"]), source=exp.get("source", ""), notes=exp.get("notes", "")
    )
    for r in exp.get("run", []):
        spec = RunSpec.of(r, quick, seed_offset)
        if spec.scenario in builtins:
            out.run_specs[spec.name] = spec
            out.runs[spec.name] = run_sweeps(spec, store, executor, jobs, progress, exp.get("model"))
            warning = identical_seeds_warning(spec.name, out.runs[spec.name])
            if warning:
                out.notes = f"{out.notes}\n\n{warning}" if out.notes else warning
        else:
            out.missing[spec.name] = spec.scenario
    _draw(exp, out)
    for claim in exp.get("claim", []):
        quick_blind = quick and (claim.get("quick") is False or _run_of(exp, claim).get("quick_judged") is False)
        out.verdicts += _unjudged(claim, quick_blind, _judge(claim, exp, out))
    out.wall_s = time.perf_counter() - started
    return out


def _draw(exp: Mapping[str, Any], out: ExperimentOutcome) -> None:
    """The experiment's figures and tables, of the runs that were done."""
    model = exp.get("model", {})
    published = {p["name"]: p for p in exp.get("published", [])}
    out.published_sources = [f"{p.get('label', p['name'])}: {p['source']}" for p in exp.get("published", [])]
    for i, fspec in enumerate(exp.get("plot", [])):
        if fspec["run"] not in out.runs:
            continue
        fig = figure(fspec, out.runs[fspec["run"]], published.get(fspec.get("published", "")), model)
        name = f"{exp['id']}-{i + 1}-{fspec.get('y', fspec['kind'])}.png"
        out.figures.append(Figure_(fspec.get("caption", ""), _plot.png_bytes(fig, dpi=90), name))
    for tspec in exp.get("table", []):
        if tspec["run"] not in out.runs:
            continue
        if tspec.get("kind") == "cac_boundaries":
            out.tables.append(cac_table(out.runs[tspec["run"]], model, tspec["caption"]))
        else:
            out.tables += compare_tables(tspec, out.runs[tspec["run"]], published.get(tspec.get("published", "")))


def _judge(claim: Mapping[str, Any], exp: Mapping[str, Any], out: ExperimentOutcome) -> List[Verdict]:
    """The verdicts on one claim: once per variant of its run for the kinds judged so, else
    once; *not yet runnable* when a run it needs has no built-in scenario."""
    base = dict(claim=claim["id"], text=claim["text"], source=claim.get("source", ""), experiment=exp["id"])
    for needed in [claim["run"]] + ([claim["than_run"]] if "than_run" in claim else []):
        if needed not in out.runs:
            scenario = out.missing.get(needed, "?")
            return [Verdict(**base, status=NOT_RUNNABLE,
                            explanation=f"needs the built-in scenario {scenario}, which this celltrain does not have yet")]  # fmt: skip
    result = out.runs[claim["run"]]
    scope = claim.get("variants")
    verdicts = []
    for v in variants(result.aggregate) if claim["kind"] in PER_VARIANT else [None]:
        if scope is not None and v not in scope:
            continue
        status, why = check(claim, result, v, exp.get("model", {}), out.runs)
        finding = claim.get("if_not", "") if status == FAILS else ""
        verdicts.append(Verdict(**base, status=status, explanation=why, variant=v, finding=finding))
    return verdicts


def _run_of(exp: Mapping[str, Any], claim: Mapping[str, Any]) -> Mapping[str, Any]:
    return next((r for r in exp.get("run", []) if r.get("name") == claim.get("run")), {})


def _unjudged(claim: Mapping[str, Any], quick_blind: bool, verdicts: List[Verdict]) -> List[Verdict]:
    """Verdicts withheld: a conjecture (``conjecture = true``: the paper did not measure it)
    is reported with its numbers; on a quick run a claim with ``quick = false`` (or whose
    run has ``quick_judged = false``) is not judged: the short run cannot measure what it
    states; a claim the set-up was derived from (``consistency = true``) is a consistency
    check, whose explanation says whether the run agrees with it."""
    status = (
        REPORTED if claim.get("conjecture") else NOT_JUDGED_QUICK if quick_blind
        else CONSISTENCY if claim.get("consistency") else None
    )  # fmt: skip
    if status is None:
        return verdicts
    for v in verdicts:
        if v.status == NOT_RUNNABLE:
            continue
        if status == CONSISTENCY:
            v.explanation = f"{'consistent' if v.status == HOLDS else 'not consistent'}: {v.explanation}"
        v.status, v.finding = status, ""
    return verdicts


#: A report's files: its entry points (present only when the whole report is) and its figures.
REPORT_MARKERS = ("index.md", "index.html")
REPORT_NAMES = REPORT_MARKERS + ("img/",)


def write(report: Report, target: str, staging: Optional[Path] = None) -> None:
    """Writes the report's figures into ``img/``, then ``index.md`` and ``index.html``: into
    ``staging`` (a fresh one if not given), then in place of the previous report's files."""
    staging = _outdir.prepare(report.out) if staging is None else staging
    try:
        img = staging / "img"
        img.mkdir(exist_ok=True)
        when = _dt.datetime.now().strftime("%Y-%m-%d %H:%M")
        for e in report.experiments:
            for f in e.figures:
                (img / f.filename).write_bytes(f.png)
        files = [("index.md", _markdown.render(report, target, when)), ("index.html", _html.render(report, target, when))]
        _outdir.commit(report.out, staging, files, markers=REPORT_MARKERS, known=REPORT_NAMES)
    finally:
        _outdir.discard(staging)
