"""Single runs: scenario resolution, :func:`run`, :class:`Result` and the result files.

Only the standard library and the compiled module are imported here, so that worker
processes of a sweep start fast; pandas is imported when a DataFrame is first asked for.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Tuple, Union

from . import _celltrain, _outdir
from ._args import check_params, check_progress, check_seed
from ._celltrain import ScenarioError

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

# A run on a thread other than the main one cannot see Ctrl-C (Python handles signals on the
# main thread): when the interpreter starts shutting down (after a KeyboardInterrupt, say), runs
# still going on other threads are stopped, so that exiting does not wait for them. This is the
# hook concurrent.futures uses for the same purpose; older interpreters fall back to atexit.
#
# A stopped run then removes what it staged in ``out``, in Python, on its own thread; the exit
# waits for that too (up to ``_CLEANUP_WAIT_S``): Python 3.11's ``Thread.join`` interrupted by
# Ctrl-C can mark the joined thread as finished while it still runs (the bpo-45274 handling
# releases the thread's lock whenever it is held), and the interpreter then exits under it,
# leaving a half-removed staging directory.
import threading as _threading

_CLEANUP_WAIT_S = 2.0
_staging_runs = 0
_staging_idle = _threading.Condition()


def _wait_for_staging_runs() -> None:
    with _staging_idle:
        _staging_idle.wait_for(lambda: _staging_runs == 0, timeout=_CLEANUP_WAIT_S)


def _staging_run(delta: int) -> None:
    global _staging_runs
    with _staging_idle:
        _staging_runs += delta
        _staging_idle.notify_all()


try:
    # (The last registered runs first: runs are cancelled, then their cleanups awaited.)
    _threading._register_atexit(_wait_for_staging_runs)  # type: ignore[attr-defined]
    _threading._register_atexit(_celltrain.cancel_runs)  # type: ignore[attr-defined]
except (AttributeError, RuntimeError):  # pragma: no cover
    import atexit as _atexit

    _atexit.register(_wait_for_staging_runs)
    _atexit.register(_celltrain.cancel_runs)

Scenario = Union[str, "os.PathLike[str]"]
Params = Optional[Mapping[str, Any]]

# --------------------------------------------------------------------------------------
# Scenario and parameter handling


def param_text(value: Any) -> str:
    """The text of a parameter override, as ``--set name=TEXT`` would give it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def overrides(params: Params) -> List[Tuple[str, str]]:
    """``params`` as the ``(name, text)`` list the compiled module takes."""
    check_params(params)
    return [(str(name), param_text(value)) for name, value in (params or {}).items()]


def is_toml_text(scenario: Scenario) -> bool:
    """True when ``scenario`` is TOML text rather than a path or a built-in name."""
    # TOML text always holds a newline or a table header; a path or a name never does.
    return isinstance(scenario, str) and ("\n" in scenario or "[scenario]" in scenario)


def check(scenario: Scenario, params: Params = None, seed: Optional[int] = None) -> None:
    """Validates a scenario (and parameter overrides) without running it.

    Raises :class:`ScenarioError` (with ``.file``, ``.line``, ``.key``) if it is invalid;
    what it asks for that a run would not do (e.g. EPD on a switch in packet mode) is raised as a
    ``RuntimeWarning`` naming the file, line and key.
    """
    check_seed(seed)
    found = _celltrain.check(os.fspath(scenario), overrides(params), seed, is_toml_text(scenario))
    for message in found or []:
        warnings.warn(message, RuntimeWarning, stacklevel=2)


def scenarios() -> List[Dict[str, str]]:
    """The built-in scenarios: ``[{"name", "paper", "title"}, ...]`` in catalogue order;
    ``paper`` is the short id of the paper it reproduces (see :func:`papers`)."""
    return [{"name": n, "paper": p, "title": t} for (n, p, t) in _celltrain.scenarios()]


def papers() -> List[Dict[str, str]]:
    """The reproduced papers: ``[{"id", "number", "letter", "authors", "year", "title",
    "citation"}, ...]``. ``id`` names the paper everywhere (``"AD97"``), ``number`` is the one
    the project once gave it (``"002"``, still accepted by ``celltrain reproduce``), ``letter``
    the first letter of its experiments' ids."""
    out = []
    for pid, number, letter, authors, year, title in _celltrain.papers():
        citation = f"{authors} ({year}), {title}"
        out.append({"id": pid, "number": number, "letter": letter, "authors": authors, "year": year, "title": title,
                    "citation": citation})  # fmt: skip
    return out


def paper_label(paper_id: str) -> str:
    """``"AD97"`` → ``"AD97: M. Aron, P. Druschel (1997), End-to-End …"`` (the id itself when
    it names no reproduced paper)."""
    for p in papers():
        if p["id"] == paper_id:
            return f"{p['id']}: {p['citation']}"
    return paper_id


def builtin_names() -> List[str]:
    return [name for (name, _p, _t) in _celltrain.scenarios()]


@functools.lru_cache(maxsize=None)
def show(name: str) -> str:
    """The TOML text of the built-in scenario ``name`` (what ``celltrain show NAME`` prints).

    Raises :class:`ScenarioError` if there is no such built-in scenario.
    """
    # The Rust command line prints the text; it runs in a child process so that its
    # output cannot mix with this process's stdout.
    # The child imports this very package (not another one on its path).
    parent = str(Path(__file__).resolve().parent.parent)
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); from celltrain import _celltrain; "
        "sys.exit(_celltrain.main(['celltrain', 'show', sys.argv[2]]))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, parent, name],
        capture_output=True,
        text=True,
        encoding="utf-8",
    )
    if proc.returncode != 0:
        message = proc.stderr.strip().removeprefix("error: ") or f"cannot show {name!r}"
        raise ScenarioError(message, name, None, "(scenario)", message)
    return proc.stdout


class ResolvedScenario:
    """A scenario pinned to its exact text, with the hash that identifies it.

    ``ref`` is what the user gave (a built-in name, a path, or ``"<string>"``); ``kind`` is
    ``"builtin"``, ``"file"`` or ``"text"``; ``text`` the TOML; ``sha256`` its content hash.
    A file takes precedence over a built-in of the same name, as in the command line.
    """

    __slots__ = ("ref", "kind", "text", "sha256")

    def __init__(self, ref: str, kind: str, text: str) -> None:
        self.ref = ref
        self.kind = kind
        self.text = text
        self.sha256 = hashlib.sha256(text.encode("utf-8")).hexdigest()

    @classmethod
    def of(cls, scenario: Scenario) -> "ResolvedScenario":
        if is_toml_text(scenario):
            return cls("<string>", "text", str(scenario))
        path = Path(os.fspath(scenario))
        if path.is_file():
            return cls(str(path), "file", path.read_text(encoding="utf-8"))
        return cls(str(scenario), "builtin", show(str(scenario)))

    @property
    def runnable(self) -> str:
        """What to hand the compiled module with ``is_text=False`` for good error messages."""
        return "<string>" if self.kind == "text" else self.ref

    def __repr__(self) -> str:
        return f"ResolvedScenario({self.ref!r}, {self.kind!r}, sha256={self.sha256[:12]}…)"


# --------------------------------------------------------------------------------------
# Running


def run_summary_json(scenario: Scenario, params: Params = None, seed: Optional[int] = None) -> str:
    """Runs a scenario and returns the compact summary JSON (the interpreter is released)."""
    return _celltrain.run_json(os.fspath(scenario), overrides(params), seed, is_toml_text(scenario))


class Result:
    """What one run produced.

    Attributes
    ----------
    summary : dict
        The content of ``summary.json``: scenario, title, version, seed, params,
        duration_s, warmup_s, aggregate{goodput_bps, max_goodput_bps, efficiency,
        fairness_index, bottleneck}, flows, vcs, ports, categories, events, wall_s,
        trace_hash, refused_vcs when a switch's admission control refused VCs, and warnings
        (sentences, also raised as ``RuntimeWarning`` by :func:`run`) when a number must not be
        read as a measurement (``fairness_index`` is None when no flow delivered anything).
    flows, vcs, ports, categories : pandas.DataFrame
        One row per flow / VC / output port / service category (built on first access).
        Ports have one ``dropped_<reason>`` column per drop reason.
    refused : pandas.DataFrame
        The VCs refused by a switch's connection admission control (``cac = {...}``).
    changes : pandas.DataFrame or None
        With ``[record] on_change = true``: every change of the TCP senders' cwnd, ssthresh,
        RTO and SRTT and of the recorded ports' queues, in long form (``time_s``, ``subject``,
        ``quantity``, ``value``); see :attr:`changes`.
    timeseries : pandas.DataFrame or None
        The time series the scenario's ``[record]`` table asked for (``interval``, ``flows``,
        ``ports``): a ``time_s`` column and one column per sampled quantity (e.g.
        ``tcp1.cwnd_bytes``, ``sw1->sw2.queue_cells`` or ``r1->r2.queue_bytes`` on a packet link); ``None`` when nothing was sampled.
    out : pathlib.Path or None
        The directory the result files were written to, when ``out=`` was given.
    """

    def __init__(
        self,
        summary_json: str,
        out: Optional[Path] = None,
        series_csv: Optional[str] = None,
        changes_csv: Optional[str] = None,
    ) -> None:
        self._json = summary_json
        self.summary: Dict[str, Any] = json.loads(summary_json)
        self.out = out
        self._series_csv = series_csv
        self._changes_csv = changes_csv

    @functools.cached_property
    def changes(self) -> Optional["pd.DataFrame"]:
        """The change records of ``[record] on_change = true`` in long (tidy) form: one row
        per change, columns ``time_s``, ``subject`` (flow or port), ``quantity``
        (``cwnd_bytes``, ``ssthresh_bytes``, ``rto_s``, ``srtt_s``, ``queue_cells`` or ``queue_bytes``) and
        ``value``, in time order; each value holds until the subject's next row for that
        quantity (a step function). ``None`` when changes were not recorded."""
        if self._changes_csv is None:
            return None
        from ._sweep_series import read_changes

        return read_changes(self._changes_csv)

    @functools.cached_property
    def timeseries(self) -> Optional["pd.DataFrame"]:
        if self._series_csv is None:
            return None
        import io

        import pandas as pd

        return pd.read_csv(io.StringIO(self._series_csv))

    @functools.cached_property
    def timeseries_long(self) -> Optional["pd.DataFrame"]:
        """:attr:`timeseries` in long (tidy) form: one row per sample and quantity, columns
        ``time_s``, ``subject`` (the flow, port or VC: ``tcp1``, ``sw1->sw2``), ``quantity``
        (``cwnd_bytes``, ``queue_cells``, …) and ``value``; ``None`` when nothing was sampled.
        For :func:`celltrain.plot.timeseries` with ``by="subject"``, or for seaborn."""
        wide = self.timeseries
        if wide is None:
            return None
        from ._sweep_series import wide_to_long

        return wide_to_long(wide)

    # The summary's most used fields, for convenience.
    @property
    def scenario(self) -> str:
        return self.summary["scenario"]

    @property
    def seed(self) -> int:
        return self.summary["seed"]

    @property
    def params(self) -> Dict[str, Any]:
        return self.summary["params"]

    @property
    def aggregate(self) -> Dict[str, Any]:
        return self.summary["aggregate"]

    @functools.cached_property
    def flows(self) -> "pd.DataFrame":
        from ._frames import flows_frame

        return flows_frame(self.summary["flows"])

    @functools.cached_property
    def vcs(self) -> "pd.DataFrame":
        from ._frames import vcs_frame

        return vcs_frame(self.summary["vcs"])

    @functools.cached_property
    def ports(self) -> "pd.DataFrame":
        from ._frames import ports_frame

        return ports_frame(self.summary["ports"])

    @functools.cached_property
    def categories(self) -> "pd.DataFrame":
        from ._frames import categories_frame

        return categories_frame(self.summary["categories"])

    @functools.cached_property
    def refused(self) -> "pd.DataFrame":
        """The VCs a switch port's admission control refused (``flow``, ``category``, ``port``,
        ``rule``, ``reason``): the summary's ``refused_vcs``; empty when no switch runs a CAC."""
        import pandas as pd

        columns = ["flow", "category", "port", "rule", "reason"]
        return pd.DataFrame(self.summary.get("refused_vcs", []), columns=columns)

    def write(self, out: Union[str, "os.PathLike[str]"]) -> Path:
        """Writes ``summary.json``, ``flows.csv``, ``vcs.csv``, ``ports.csv`` and, when a time
        series was recorded, ``timeseries.csv`` into ``out``.

        The files are those ``celltrain run --out`` writes, byte for byte: each is written
        to a temporary file, flushed to disk and renamed into place, and ``summary.json``
        comes last, so a present ``summary.json`` means a complete directory.
        """
        return self._write(out, _outdir.prepare(out))

    def _write(self, out: Union[str, "os.PathLike[str]"], staging: Path) -> Path:
        # The texts come from the simulator's one result writer, in its order (summary.json
        # last); they join what the run staged (its captures) and replace the previous run.
        files = _celltrain.result_files(self._json, self._series_csv, self._changes_csv)
        _outdir.commit(out, staging, files)
        self.out = Path(out)
        return self.out

    def __repr__(self) -> str:
        a = self.summary["aggregate"]
        eff = a.get("efficiency")
        fi = a.get("fairness_index")
        return (
            f"<celltrain.Result {self.summary['scenario']} seed={self.summary['seed']} "
            f"goodput={a['goodput_bps'] / 1e6:.3f} Mbit/s"
            + (f" efficiency={eff:.4f}" if eff is not None else "")
            + (f" fairness={fi:.4f}" if fi is not None else "")
            + f" flows={len(self.summary['flows'])}>"
        )


def run(
    scenario: Scenario,
    params: Params = None,
    seed: Optional[int] = None,
    out: Union[None, str, "os.PathLike[str]"] = None,
    reference: bool = False,
    progress: Union[None, bool, Any] = None,
    cancel: Optional["_celltrain.RunCancel"] = None,
) -> Result:
    """Runs a scenario and returns its :class:`Result`.

    Parameters
    ----------
    scenario
        The name of a built-in scenario (``celltrain.scenarios()``), a file path, or
        scenario TOML text.
    params
        Overrides of the scenario's ``[params]``, like ``--set name=value``:
        ``{"n_sources": 10, "duration": "0.5 s"}``.
    seed
        Seed of every random stream (default: the scenario's).
    out
        If given, a directory to write ``summary.json`` and the CSV tables into, as
        ``celltrain run --out`` does (atomically), and the pcap captures the scenario's
        ``[record]`` table asks for (written while the run goes on; ``summary.json`` last).
    reference
        Take no fast path: every cell by events at every port and on every link, the
        reference the fast paths are tested against (the same results, more events, slower).

    progress
        ``True``: a progress bar (tqdm: a widget in Jupyter, text elsewhere); a callable:
        called as ``progress(fraction, simulated_seconds)`` every 200 ms of wall time and at
        the end (an exception it raises, even in the last call, stops the run, leaves nothing
        in ``out`` and propagates); ``None`` or ``False``: nothing. Anything else is a
        ``TypeError``.
    cancel
        A :class:`celltrain.RunCancel` token: ``token.cancel()``, from any thread, stops the run
        within milliseconds with ``KeyboardInterrupt`` (nothing left in ``out``). Ctrl-C reaches
        only a run on the main thread; a run on a worker thread is stopped through its token
        (one token may be given to several runs; a cancelled token stops every later run too).

    Raises :class:`ScenarioError` (with ``.file``, ``.line``, ``.key``) on invalid input.
    The simulation runs without holding the interpreter lock, so runs in threads overlap.
    Ctrl-C (KeyboardInterrupt) stops a run within milliseconds, leaving nothing behind in
    ``out``.
    """
    check_seed(seed)
    check_progress(progress)
    if cancel is not None and not isinstance(cancel, _celltrain.RunCancel):
        raise TypeError(f"cancel must be a celltrain.RunCancel, not {cancel!r}")
    bar = None
    callback = progress if callable(progress) else None
    if progress is True:
        from tqdm.auto import tqdm

        bar = tqdm(total=1000, desc=f"run {Path(os.fspath(scenario)).name if not is_toml_text(scenario) else 'scenario'}",
                   unit="‰", bar_format="{l_bar}{bar}| {postfix} [{elapsed}<{remaining}]")  # fmt: skip

        def callback(fraction: float, sim_s: float) -> None:
            bar.update(int(fraction * 1000) - bar.n)
            bar.set_postfix_str(f"sim {sim_s:.3f} s", refresh=False)

    # Captures and result files go to a staging directory, moved into place whole at the end.
    staging = None if out is None else _outdir.prepare(out)
    _staging_run(+1)
    try:
        try:
            summary_json, series_csv, changes_csv = _celltrain.run_with_series(
                os.fspath(scenario), overrides(params), seed, is_toml_text(scenario), staging and os.fspath(staging),
                reference, callback, cancel,
            )  # fmt: skip
        except BaseException:
            if staging is not None:
                _outdir.discard(staging)
            raise
        finally:
            if bar is not None:
                bar.close()
        result = Result(summary_json, series_csv=series_csv, changes_csv=changes_csv)
        if out is not None:
            result._write(out, staging)
    finally:
        _staging_run(-1)
    # What the numbers cannot be trusted for (e.g. a fairness index with nothing delivered).
    for message in result.summary.get("warnings", []):
        warnings.warn(message, RuntimeWarning, stacklevel=2)
    return result
