"""Parameter sweeps: a grid of points × seeds, run in parallel, stored so nothing is lost."""

from __future__ import annotations

import concurrent.futures as cf
import itertools
import json
import math
import os
import re
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _celltrain
from ._args import check_grid, check_jobs, check_params, check_seed
from ._atomic import write_atomic
from ._core import ResolvedScenario, Scenario, param_text
from ._store import Store, canonical, key_of, point_identity
from ._worker import init_process_worker, run_point, run_point_series
from . import _sweep_series

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

Grid = Optional[Mapping[str, Sequence[Any]]]


class SweepResult:
    """The results of a sweep (or of a whole store, from :func:`load`).

    Attributes
    ----------
    flows : pandas.DataFrame
        The tidy table: one row per point × seed × flow. Columns: ``scenario``, one column
        per swept parameter (and per label, e.g. ``variant``), ``seed``, then the flow
        measures of :attr:`celltrain.Result.flows`.
    aggregate : pandas.DataFrame
        One row per point × seed (:meth:`replications`: one per point, mean ± 95 % CI): the same identifying columns, then ``goodput_bps``,
        ``max_goodput_bps``, ``efficiency``, ``fairness_index``, ``bottleneck``,
        ``n_flows``, ``mean_plr`` (mean of the flows' packet loss ratios), ``mean_clr``
        (mean of the cell loss ratios of the VCs that carry the flows' data, as the papers
        average; ``mean_clr_reverse``: of the VCs that carry only TCP's acknowledgements), ``mean_retransmission_ratio`` (mean over the
        TCP flows; NaN without TCP), ``duration_s``, ``warmup_s``, ``events``,
        ``wall_s``, ``trace_hash``, ``scenario_sha256`` (the first 12 hex digits of the
        SHA-256 of the scenario text the run used), ``version`` (the simulator's) and
        ``key`` (the store key).
    vcs, ports, categories : pandas.DataFrame
        Tidy tables of the VCs, ports and service categories, like ``flows``.
    summaries : list of dict
        The summaries, in the order of ``aggregate``'s rows.
    params : list of str
        The identifying parameter columns (swept parameters and labels).
    stats : dict
        ``total``, ``reused`` (valid stored results), ``computed`` (new runs, including
        ``recomputed``), ``recomputed`` (stored results found invalid and replaced) and
        ``problems`` (``[(path, reason), …]`` of the invalid ones); from :func:`load`,
        also ``conflicts`` (points with results of more than one scenario text or
        simulator version) and ``filtered`` (records left out by its filters).
    store : pathlib.Path or None
    """

    def __init__(
        self,
        entries: List[Tuple[Dict[str, Any], Dict[str, Any], Optional[str]]],
        params: Sequence[str],
        stats: Dict[str, Any],
        store: Optional[Path],
        identities: Optional[Mapping[str, Mapping[str, Any]]] = None,
        series: Optional[Mapping[str, "_sweep_series.Texts"]] = None,
    ) -> None:
        from ._frames import tidy_tables

        self._entries = entries
        self._names = list(params)
        self._identities = dict(identities or {})
        hashes = {k: i["scenario_sha256"][:12] for k, i in self._identities.items() if i.get("scenario_sha256")}
        tables = tidy_tables(entries, params, scenario_hashes=hashes)
        self.flows: "pd.DataFrame" = tables["flows"]
        self.vcs: "pd.DataFrame" = tables["vcs"]
        self.ports: "pd.DataFrame" = tables["ports"]
        self.categories: "pd.DataFrame" = tables["categories"]
        self.aggregate: "pd.DataFrame" = tables["aggregate"]
        by_key = {k: s for (_l, s, k) in entries}
        self.summaries: List[Dict[str, Any]] = [by_key[k] for k in self.aggregate["key"]]
        ident = [c for c in self.aggregate.columns[: list(self.aggregate.columns).index("seed")] if c != "scenario"]
        self.params: List[str] = ident
        self.stats = stats
        self.store = store
        self._series: Dict[str, "_sweep_series.Texts"] = dict(series or {})

    def _gather(self, which: int) -> Optional["pd.DataFrame"]:
        columns = ["scenario", *self.params, "seed"]
        rows = self.aggregate[[*columns, "key"]].to_dict("records")
        return _sweep_series.gather(rows, self._series, columns, which)

    @property
    def timeseries(self) -> Optional["pd.DataFrame"]:
        """The runs' sampled time series (``[record] interval``) in long (tidy) form, kept by
        ``sweep(..., timeseries=True)``: ``scenario``, the point's parameter columns, ``seed``,
        then ``time_s``, ``subject``, ``quantity`` and ``value`` (as
        :attr:`celltrain.Result.timeseries_long`). None when no run kept a series."""
        return self._gather(0)

    @property
    def changes(self) -> Optional["pd.DataFrame"]:
        """The runs' change records (``[record] on_change = true``) in long form, with the
        same identifying columns as :attr:`timeseries` (as :attr:`celltrain.Result.changes`)."""
        return self._gather(1)

    #: The measures :meth:`replications` summarises by default.
    REPLICATION_MEASURES = ("goodput_bps", "efficiency", "fairness_index", "mean_plr", "mean_clr")

    def replications(self, measures: Optional[Sequence[str]] = None) -> "pd.DataFrame":
        """One row per point: ``replications`` (its seeds) and, per measure ``m`` of ``aggregate``,
        ``m_mean`` and ``m_ci95``, the half-width of the 95 % confidence interval of the
        mean over the seeds (Student t; NaN with one seed): see :mod:`celltrain.stats`."""
        from .stats import replication_table

        chosen = [m for m in (measures or self.REPLICATION_MEASURES) if m in self.aggregate.columns]
        return replication_table(self.aggregate, ["scenario", *self.params], chosen)

    def to_parquet(self, directory: Union[str, "os.PathLike[str]"]) -> Dict[str, Path]:
        """Writes ``flows``, ``aggregate``, ``vcs``, ``ports`` and ``categories`` as
        ``<name>.parquet`` files into ``directory`` (each atomically); returns their paths."""
        import io

        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        paths = {}
        for name in ("flows", "aggregate", "vcs", "ports", "categories"):
            df = _parquet_safe(getattr(self, name))
            buf = io.BytesIO()
            df.to_parquet(buf, index=False, engine="pyarrow")
            path = directory / f"{name}.parquet"
            write_atomic(path, buf.getvalue())
            paths[name] = path
        for name in ("timeseries", "changes"):
            df = getattr(self, name)
            if df is not None:
                buf = io.BytesIO()
                _parquet_safe(df).to_parquet(buf, index=False, engine="pyarrow")
                paths[name] = directory / f"{name}.parquet"
                write_atomic(paths[name], buf.getvalue())
        return paths

    def __repr__(self) -> str:
        s = self.stats
        return (
            f"<celltrain.SweepResult {len(self.aggregate)} runs, {len(self.flows)} flow rows; "
            f"params {self.params}; reused {s.get('reused', 0)}, computed {s.get('computed', 0)}"
            f"{', recomputed ' + str(s['recomputed']) if s.get('recomputed') else ''}>"
        )


def combine(results: Sequence[SweepResult]) -> SweepResult:
    """One :class:`SweepResult` of several (e.g. one sweep per variant)."""
    entries: List[Tuple[Dict[str, Any], Dict[str, Any], Optional[str]]] = []
    identities: Dict[str, Mapping[str, Any]] = {}
    series: Dict[str, _sweep_series.Texts] = {}
    names: List[str] = []
    stats: Dict[str, Any] = {"total": 0, "reused": 0, "computed": 0, "recomputed": 0, "problems": []}
    for r in results:
        entries += r._entries
        identities.update(r._identities)
        series.update(r._series)
        for n in r._names:
            if n not in names:
                names.append(n)
        for k in ("total", "reused", "computed", "recomputed"):
            stats[k] += r.stats.get(k, 0)
        stats["problems"] += r.stats.get("problems", [])
    store = results[0].store if results else None
    return SweepResult(entries, names, stats, store, identities, series)


def _parquet_safe(df: "pd.DataFrame") -> "pd.DataFrame":
    """Columns mixing Python types (ints and strings of two sweeps) become strings."""
    out = df.copy()
    for col in out.columns:
        if out[col].dtype == object:
            types = {type(v) for v in out[col] if v is not None}
            if len(types) > 1:
                out[col] = out[col].map(lambda v: None if v is None else str(v))
    return out


# --------------------------------------------------------------------------------------


#: The most runs (points × seeds) one sweep takes: its tasks are built in memory first.
MAX_RUNS = 1_000_000


def grid_points(grid: Grid) -> List[Dict[str, Any]]:
    """The points of a grid: the Cartesian product of its value lists, in order."""
    grid = dict(grid or {})
    for name, values in grid.items():
        if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
            raise TypeError(f"grid[{name!r}] must be a list of values, not {values!r}")
    names = list(grid)
    sizes = [len(grid[n]) if hasattr(grid[n], "__len__") else None for n in names]
    if all(n is not None for n in sizes) and math.prod(sizes) > MAX_RUNS:  # type: ignore[arg-type]
        raise ValueError(f"the grid has {math.prod(sizes):,} points: too many (max {MAX_RUNS:,} runs)")  # type: ignore[arg-type]
    lists = [list(grid[n]) for n in names]
    for name, values in zip(names, lists):
        if not values:
            raise ValueError(f"grid[{name!r}] is empty")
        texts = [param_text(v) for v in values]
        if len(set(texts)) != len(texts):
            raise ValueError(f"grid[{name!r}] repeats a value: {values!r}")
        for v in values:
            if not isinstance(v, (str, int, float, bool)):
                raise TypeError(f"grid[{name!r}]: {v!r} is not a str, int, float or bool")
    return [dict(zip(names, combo)) for combo in itertools.product(*lists)]


def interactive() -> bool:
    """True when a progress bar has a watcher: stderr is a terminal or we run in Jupyter."""
    try:
        if sys.stderr is not None and sys.stderr.isatty():
            return True
    except (AttributeError, ValueError):  # a replaced or closed stderr
        pass
    ipython = sys.modules.get("IPython")
    try:
        shell = ipython.get_ipython() if ipython is not None else None  # type: ignore[attr-defined]
        return shell is not None and "IPKernelApp" in shell.config
    except Exception:  # an IPython without a shell, or not the real one
        return False


def _is_dask_client(executor: Any) -> bool:
    return type(executor).__module__.split(".")[0] == "distributed" and hasattr(executor, "get_executor")


def check_executor(executor: Any) -> None:
    """``executor`` is ``None``, a Dask client, or has a ``submit`` (a ``concurrent.futures``
    executor or one like it): a ``TypeError`` naming the argument otherwise, before any run."""
    if executor is None or _is_dask_client(executor) or callable(getattr(executor, "submit", None)):
        return
    raise TypeError(
        f"executor must be None, a concurrent.futures.Executor or a Dask distributed.Client, not {executor!r}"
    )


class _Inline:
    """Runs tasks in the calling thread, one at a time (``jobs=1``)."""


def sweep(
    scenario: Scenario,
    grid: Grid = None,
    seeds: Optional[Sequence[Optional[int]]] = None,
    store: Union[None, str, "os.PathLike[str]"] = None,
    executor: Any = None,
    jobs: Optional[int] = None,
    progress: Union[bool, Callable[[int, int], Any]] = True,
    params: Union[None, Mapping[str, Any], Callable[[Dict[str, Any]], Mapping[str, Any]]] = None,
    labels: Optional[Mapping[str, Any]] = None,
    timeseries: bool = False,
) -> SweepResult:
    """Runs ``scenario`` at every point of ``grid`` × ``seeds`` and returns a :class:`SweepResult`.

    Parameters
    ----------
    scenario
        A built-in name, a scenario file or TOML text. The exact text is resolved once
        (a built-in's from the simulator) and sent to the workers, so every run uses the
        text the store key was derived from.
    grid
        ``{"n_sources": [5, 10, 15, 20], ...}``; the points are the Cartesian product.
    seeds
        Seeds to run each point with (default: the scenario's own seed).
    store
        A directory for the results. Each run's result is written there atomically as soon
        as it finishes; points already stored (and valid) are not run again, so an
        interrupted sweep — even by SIGKILL — resumes where it stopped. Invalid stored
        results (corrupted, truncated, another key) are recomputed and replaced.
    executor
        Where the runs go: ``None`` for local processes (``jobs`` of them, default one per
        core; ``jobs=1`` runs in this process), any :class:`concurrent.futures.Executor`
        (a ``ThreadPoolExecutor`` works well: the simulator releases the interpreter lock),
        or a Dask ``distributed.Client`` (its workers need celltrain installed); anything
        else is a ``TypeError``. On Ctrl-C
        (or any error) the points not started are cancelled, and the running ones stopped:
        local processes are terminated, runs on a ``ThreadPoolExecutor`` stopped within
        milliseconds, Dask futures cancelled; the points that finished stay in the store.
    progress
        A progress bar with ETA (tqdm) when someone watches: stderr is a terminal, or this
        is a Jupyter kernel (a widget there). ``False``: never. A callable: called as
        ``progress(done, total)`` (runs) as each run finishes, and no bar.
    params
        Parameters set at every point (``{"duration": "0.5 s"}``), or a function of the
        point returning them (derived parameters: ``lambda p: {"udp_rate":
        f"{150 / p['n_sources']} Mbit/s"}``). They are part of the store key, not columns.
    labels
        Constant columns added to every row (``{"variant": "jittered"}``), stored too.
    timeseries
        Keep each run's time series (what the scenario's ``[record]`` table samples, and its
        change records with ``on_change = true``) in its store record beside the summary, and
        expose them as :attr:`SweepResult.timeseries` / :attr:`SweepResult.changes` in long
        form. A stored result kept without them is run again.

    Raises :class:`ScenarioError` before running anything if a point is invalid.
    """
    check_grid(grid)
    check_jobs(jobs)
    check_executor(executor)
    if params is not None and not callable(params):
        check_params(params)
    resolved = ResolvedScenario.of(scenario)
    version = _celltrain.__version__
    points = grid_points(grid)
    if seeds is not None and (isinstance(seeds, (str, bytes)) or not isinstance(seeds, Iterable)):
        raise TypeError(f"seeds must be a list of non-negative ints, not {seeds!r}")
    seed_list: List[Optional[int]] = [None] if seeds is None else list(seeds)
    for s in seed_list:
        check_seed(s, "seeds")
    if not seed_list:
        raise ValueError("seeds is empty")
    if len(points) * len(seed_list) > MAX_RUNS:
        raise ValueError(f"{len(points):,} points × {len(seed_list):,} seeds: too many runs (max {MAX_RUNS:,})")
    if len(set(seed_list)) != len(seed_list):
        raise ValueError(f"seeds repeat a value: {seed_list!r}")
    def fixed_for(point: Dict[str, Any]) -> Dict[str, Any]:
        return dict((params(point) if callable(params) else params) or {})

    label_items = list((labels or {}).items())
    clash = set(k for k, _ in label_items) & set(points[0]) if points else set()
    if clash:
        raise ValueError(f"{sorted(clash)} are both labels and swept parameters")

    # Validate every point before running any (errors name the file, line and key).
    is_text = resolved.kind == "text"
    for point in points:
        ovr = [(k, param_text(v)) for k, v in {**fixed_for(point), **point}.items()]
        _celltrain.check(resolved.text if is_text else resolved.ref, ovr, None, is_text)

    the_store = Store(store).open() if store is not None else None

    tasks = []  # (labels list, overrides, seed, identity, key)
    for point in points:
        ovr = [(k, param_text(v)) for k, v in {**fixed_for(point), **point}.items()]
        point_labels = [[k, v] for k, v in label_items] + [[k, v] for k, v in point.items()]
        for seed in seed_list:
            identity = point_identity(version, resolved.sha256, ovr, seed)
            tasks.append((point_labels, ovr, seed, identity, key_of(identity)))

    summaries: Dict[str, Dict[str, Any]] = {}
    series: Dict[str, _sweep_series.Texts] = {}
    problems: List[Tuple[str, str]] = []
    todo = []
    for t in tasks:
        _labels, _ovr, _seed, identity, key = t
        if the_store is not None:
            record, problem = the_store.get(key, identity)
            kept = _sweep_series.from_record(record) if record is not None else None
            if record is not None and (kept is not None or not timeseries):
                summaries[key] = record["summary"]
                if kept is not None:
                    series[key] = kept
                continue
            # (A valid record kept without the series asked for now is simply run again.)
            if record is None and problem != "missing":
                problems.append((str(the_store.path(key)), problem or "invalid"))
        todo.append(t)
    if problems:
        warnings.warn(
            f"{len(problems)} stored result(s) invalid, recomputing: "
            + "; ".join(f"{Path(p).name}: {why}" for p, why in problems[:5])
            + (" …" if len(problems) > 5 else ""),
            RuntimeWarning,
            stacklevel=2,
        )

    bar = None
    report = progress if callable(progress) else None
    done = [len(tasks) - len(todo)]
    if progress is True and not interactive():
        # A batch log: one line now and then instead of a bar.
        report = _log_lines(len(tasks) - len(todo))
    if progress is True and interactive():
        from tqdm.auto import tqdm  # a widget in Jupyter (text without ipywidgets)

        bar = tqdm(
            total=len(tasks),
            initial=len(tasks) - len(todo),
            desc=f"sweep {resolved.ref if resolved.kind != 'text' else 'scenario'}",
            unit="run",
            dynamic_ncols=True,
            smoothing=0.05,
        )

    def finish(task: Tuple[Any, ...], outcome: Union[str, Tuple[str, Optional[str], Optional[str]]]) -> None:
        point_labels, _ovr, seed, identity, key = task
        texts = None
        if isinstance(outcome, str):
            summary_json = outcome
        else:
            summary_json, texts = outcome[0], (outcome[1], outcome[2])
            series[key] = texts
        summary = json.loads(summary_json)
        if summary.get("version") != version:
            raise RuntimeError(
                f"a worker runs celltrain {summary.get('version')}, this process {version}: "
                "install the same version everywhere"
            )
        if the_store is not None and the_store.path(key).is_dir():
            # Something else sits where the record belongs: keep the result, say so, go on.
            warnings.warn(f"{the_store.path(key)} is a directory, not a record: result not stored", RuntimeWarning)
        elif the_store is not None:
            extra = None if texts is None else {_sweep_series.RECORD_FIELD: _sweep_series.to_record(texts)}
            the_store.put(Store.make_record(key, identity, point_labels, resolved.ref, summary, extra))
        summaries[key] = summary
        if bar is not None:
            bar.update(1)
        if report is not None:
            done[0] += 1
            report(done[0], len(tasks))

    try:
        _execute(todo, resolved.text, executor, jobs, finish, run_point_series if timeseries else run_point)
    finally:
        if bar is not None:
            bar.close()

    entries = []
    for point_labels, _ovr, _seed, _identity, key in tasks:
        entries.append((dict((k, v) for k, v in point_labels), summaries[key], key))
    names = [k for k, _ in label_items] + (list(points[0]) if points else [])
    stats = {
        "total": len(tasks),
        "reused": len(tasks) - len(todo),
        "computed": len(todo),
        "recomputed": len(problems),
        "problems": problems,
    }
    identities = {t[4]: t[3] for t in tasks}
    result = SweepResult(entries, names, stats, the_store.root if the_store else None, identities, series)
    if len(seed_list) > 1:
        from .stats import warn_if_replications_identical

        warn_if_replications_identical(result.aggregate, result.params)
    return result


def _log_lines(reused: int) -> Callable[[int, int], None]:
    """``progress(done, total)`` that prints ``sweep: done/total runs …`` to stderr every 10 s
    (``CELLTRAIN_PROGRESS_SECONDS``) of wall time, for logs where a bar would be noise."""
    import time

    try:
        every = float(os.environ.get("CELLTRAIN_PROGRESS_SECONDS", "10"))
    except ValueError:
        every = 10.0
    started = last = time.monotonic()

    def line(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last < every or done >= total:
            return
        last = now
        computed = done - reused
        eta = (now - started) / computed * (total - done) if computed > 0 else float("nan")
        print(f"sweep: {done}/{total} runs  wall {now - started:.0f} s  eta {eta:.0f} s", file=sys.stderr, flush=True)

    return line


def _execute(todo: list, text: str, executor: Any, jobs: Optional[int], finish, run=run_point) -> None:
    if not todo:
        return
    owned = None
    if executor is None:
        n = jobs if jobs is not None else (os.cpu_count() or 1)
        if n < 1:
            raise ValueError(f"jobs must be >= 1, not {jobs}")
        if n == 1 or len(todo) == 1:
            for task in todo:
                finish(task, run(text, task[1], task[2]))
            return
        owned = executor = cf.ProcessPoolExecutor(max_workers=min(n, len(todo)), initializer=init_process_worker)
    elif _is_dask_client(executor):
        executor = executor.get_executor(pure=False)
    # Points on threads of this process are stopped through a token their runs look at (a
    # thread cannot be sent Ctrl-C); a token does not cross to other processes.
    cancel = _celltrain.RunCancel() if isinstance(executor, cf.ThreadPoolExecutor) else None
    extra = (cancel,) if cancel is not None else ()
    futures: Dict[cf.Future, Tuple[Any, ...]] = {}
    finished: set = set()
    try:
        for task in todo:
            futures[executor.submit(run, text, task[1], task[2], *extra)] = task
        for fut in cf.as_completed(futures):
            finish(futures[fut], fut.result())
            finished.add(fut)
    except BaseException:
        for fut in futures:
            fut.cancel()
        # Promptly: a worker in the middle of a long run would hold the exit until it ends.
        if owned is not None:
            stop_workers(owned)
            owned = None
        if cancel is not None:
            _stop_threads(cancel, futures, finished, finish)
        if type(executor).__module__.startswith("distributed"):
            # Cancels every Dask future of the sweep, running ones too (the client is the
            # caller's to close; the command line closes its own).
            executor.shutdown(wait=False)
        raise
    finally:
        if owned is not None:
            owned.shutdown(wait=True)


#: The longest a stopped sweep waits for its runs on threads to notice their cancellation.
THREAD_STOP_WAIT_S = 2.0


def _stop_threads(cancel: Any, futures: Dict[cf.Future, Tuple[Any, ...]], finished: set, finish) -> None:
    """Stops a sweep's points running on threads (within milliseconds), and keeps those that
    finished in the meantime."""
    cancel.cancel()
    cf.wait(list(futures), timeout=THREAD_STOP_WAIT_S)
    for fut, task in futures.items():
        if fut in finished or not fut.done() or fut.cancelled() or fut.exception() is not None:
            continue
        try:
            finish(task, fut.result())
        except Exception:  # storing failed: the sweep is stopping anyway, with its own error
            return


def stop_workers(pool: cf.ProcessPoolExecutor) -> None:
    """Stops a process pool now: pending tasks cancelled, running workers terminated."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        try:
            p.terminate()
        except (OSError, AttributeError):  # already gone
            pass
    for p in processes:
        p.join(timeout=5)


def load(
    store: Union[str, "os.PathLike[str]"],
    strict: bool = False,
    *,
    latest: bool = False,
    scenario: Optional[str] = None,
    version: Optional[str] = None,
) -> SweepResult:
    """Reads every valid result of a store back as a :class:`SweepResult`.

    Invalid records (corrupted, truncated, under a wrong key) are never used: they are
    listed in ``stats["problems"]`` with a warning, or raise ``ValueError`` if ``strict``.
    A sweep over the same store recomputes them.

    A store keeps the results of every scenario text and simulator version it was swept
    with (they have other keys), so after a scenario was edited — in a way that leaves its
    parameters as they were — or the simulator changed, a point and seed can have two
    results that look like two runs of one seed. The ``aggregate`` table tells them apart
    by ``scenario_sha256`` and ``version``; ``load`` warns about such points (counted in
    ``stats["conflicts"]``), and these keyword arguments select records:

    latest
        For each scenario (by its ``[scenario] id``), only the records of the scenario text
        and simulator version of its most recently written record.
    scenario
        Only the records of the scenario text whose SHA-256 starts with this (the
        ``scenario_sha256`` column's value, or more digits).
    version
        Only the records of this simulator version (``celltrain.__version__``).

    A ``scenario`` or ``version`` that no valid record has raises ``ValueError``; a directory that
    is not a store (no ``STORE.json`` and no ``points/``) raises :class:`StoreError`.
    """
    the_store = Store(store)
    if not the_store.root.exists():
        raise FileNotFoundError(f"{the_store.root}: no such store")
    the_store.check_readable()
    records = []
    problems = []
    for path, record, problem in the_store.scan():
        if record is None:
            problems.append((str(path), problem or "invalid"))
        else:
            records.append(record)
    if problems:
        message = f"{len(problems)} invalid record(s) in {the_store.root} skipped: " + "; ".join(
            f"{Path(p).name}: {why}" for p, why in problems[:5]
        )
        if strict:
            raise ValueError(message)
        warnings.warn(message, RuntimeWarning, stacklevel=2)

    def text_of(r: Mapping[str, Any]) -> Tuple[str, str]:
        return (str(r["identity"].get("scenario_sha256")), str(r["identity"].get("simulator")))

    total = len(records)
    if scenario is not None:
        prefix = scenario.strip().lower()
        chosen = [r for r in records if prefix and text_of(r)[0].startswith(prefix)]
        if not chosen:
            known = ", ".join(sorted({text_of(r)[0][:12] for r in records})) or "none"
            raise ValueError(f"{the_store.root}: no record of scenario {scenario!r} (stored: {known})")
        records = chosen
    if version is not None:
        chosen = [r for r in records if text_of(r)[1] == version]
        if not chosen:
            known = ", ".join(sorted({text_of(r)[1] for r in records})) or "none"
            raise ValueError(f"{the_store.root}: no record of version {version!r} (stored: {known})")
        records = chosen
    if latest:
        newest: Dict[str, Tuple[float, Tuple[str, str]]] = {}
        for r in records:
            name = r["summary"]["scenario"]
            when = float(r.get("written_unix") or 0)
            if name not in newest or when > newest[name][0]:
                newest[name] = (when, text_of(r))
        records = [r for r in records if text_of(r) == newest[r["summary"]["scenario"]][1]]

    # Points (scenario, resolved parameters, other labels, seed) with more than one text.
    texts: Dict[str, set] = {}
    for r in records:
        summary = r["summary"]
        labels = {str(k): v for k, v in r.get("labels") or [] if str(k) not in summary.get("params", {})}
        point = canonical([summary["scenario"], summary.get("params", {}), labels, summary["seed"]])
        texts.setdefault(point, set()).add(text_of(r))
    conflicts = [(json.loads(p), t) for p, t in texts.items() if len(t) > 1]
    if conflicts:
        (name, _params, _labels, seed), seen = conflicts[0]
        warnings.warn(
            f"{the_store.root}: {len(conflicts)} point(s) have results of more than one scenario text or "
            f"simulator version, which look like duplicate seeds (e.g. {name} seed {seed}: "
            + ", ".join(f"scenario {sha[:12]} version {v}" for sha, v in sorted(seen))
            + "); load(..., latest=True), scenario=SHA256 or version=V selects one",
            RuntimeWarning,
            stacklevel=2,
        )

    entries = []
    names: List[str] = []
    for record in records:
        labels = {str(k): v for k, v in record.get("labels") or []}
        for k in labels:
            if k not in names:
                names.append(k)
        entries.append((labels, record["summary"], record["key"]))
    stats = {
        "total": len(entries),
        "reused": len(entries),
        "computed": 0,
        "recomputed": 0,
        "problems": problems,
        "conflicts": len(conflicts),
        "filtered": total - len(records),
    }
    identities = {r["key"]: r["identity"] for r in records}
    kept = {r["key"]: _sweep_series.from_record(r) for r in records}
    series = {k: v for k, v in kept.items() if v is not None}
    return SweepResult(entries, names, stats, the_store.root, identities, series)


# --------------------------------------------------------------------------------------
# Command-line syntax


def parse_value(text: str) -> Union[int, float, str]:
    """``"5"`` → 5, ``"0.5"`` → 0.5, anything else (``"1 ms"``) stays text."""
    t = text.strip()
    if re.fullmatch(r"[+-]?\d+", t):
        return int(t)
    if re.fullmatch(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?", t):
        return float(t)
    return t


def parse_range(text: str) -> List[Union[int, float, str]]:
    """``"5,10,15"``, ``"1..3"`` (inclusive) or ``"5..20:5"`` (with a step)."""
    m = re.fullmatch(r"\s*([+-]?\d+)\s*\.\.\s*([+-]?\d+)\s*(?::\s*(\d+)\s*)?", text)
    if m:
        lo, hi, step = int(m.group(1)), int(m.group(2)), int(m.group(3) or 1)
        if step <= 0 or hi < lo:
            raise ValueError(f"bad range {text!r}")
        if (hi - lo) // step + 1 > MAX_RUNS:
            raise ValueError(f"range {text!r} has {(hi - lo) // step + 1:,} values: too many (max {MAX_RUNS:,})")
        return list(range(lo, hi + 1, step))
    values = [parse_value(v) for v in text.split(",") if v.strip()]
    if not values:
        raise ValueError(f"no values in {text!r}")
    return values


def parse_grid(specs: Sequence[str]) -> Dict[str, List[Any]]:
    """``["n_sources=5,10,15,20", "start_jitter=0 s,1 ms"]`` → a grid dict."""
    grid: Dict[str, List[Any]] = {}
    for spec in specs:
        name, sep, values = spec.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--grid {spec}: expected NAME=V1,V2,… or NAME=A..B[:STEP]")
        grid[name.strip()] = parse_range(values)
    return grid
