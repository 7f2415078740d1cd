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
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Tuple, Union

from . import _celltrain
from ._atomic import write_atomic
from ._celltrain import ScenarioError

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

Scenario = Union[str, "os.PathLike[str]"]
Params = Optional[Mapping[str, Any]]

#: The result files a run writes, as the command line's ``run --out`` does.
RESULT_FILES = ("summary.json", "flows.csv", "vcs.csv", "ports.csv")


# --------------------------------------------------------------------------------------
# Scenario and parameter handling


def param_text(value: Any) -> str:
    """The text of a parameter override, as ``--set name=TEXT`` would give it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def overrides(params: Params) -> List[Tuple[str, str]]:
    """``params`` as the ``(name, text)`` list the compiled module takes."""
    return [(str(name), param_text(value)) for name, value in (params or {}).items()]


def is_toml_text(scenario: Scenario) -> bool:
    """True when ``scenario`` is TOML text rather than a path or a built-in name."""
    # TOML text always holds a newline or a table header; a path or a name never does.
    return isinstance(scenario, str) and ("\n" in scenario or "[scenario]" in scenario)


def check(scenario: Scenario, params: Params = None, seed: Optional[int] = None) -> None:
    """Validates a scenario (and parameter overrides) without running it.

    Raises :class:`ScenarioError` (with ``.file``, ``.line``, ``.key``) if it is invalid.
    """
    _celltrain.check(os.fspath(scenario), overrides(params), seed, is_toml_text(scenario))


def scenarios() -> List[Dict[str, str]]:
    """The built-in scenarios: ``[{"name", "paper", "title"}, ...]`` in catalogue order."""
    return [{"name": n, "paper": p, "title": t} for (n, p, t) in _celltrain.scenarios()]


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
        trace_hash.
    flows, vcs, ports, categories : pandas.DataFrame
        One row per flow / VC / output port / service category (built on first access).
        Ports have one ``dropped_<reason>`` column per drop reason.
    timeseries : pandas.DataFrame or None
        The time series the scenario's ``[record]`` table asked for (``interval``, ``flows``,
        ``ports``): a ``time_s`` column and one column per sampled quantity (e.g.
        ``tcp1.cwnd_bytes``, ``sw1->sw2.queue_cells`` or ``r1->r2.queue_bytes`` on a packet link); ``None`` when nothing was sampled.
    out : pathlib.Path or None
        The directory the result files were written to, when ``out=`` was given.
    """

    def __init__(self, summary_json: str, out: Optional[Path] = None, series_csv: Optional[str] = None) -> None:
        self._json = summary_json
        self.summary: Dict[str, Any] = json.loads(summary_json)
        self.out = out
        self._series_csv = series_csv

    @functools.cached_property
    def timeseries(self) -> Optional["pd.DataFrame"]:
        if self._series_csv is None:
            return None
        import io

        import pandas as pd

        return pd.read_csv(io.StringIO(self._series_csv))

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

    def write(self, out: Union[str, "os.PathLike[str]"]) -> Path:
        """Writes ``summary.json``, ``flows.csv``, ``vcs.csv`` and ``ports.csv`` into ``out``.

        The files are those ``celltrain run --out`` writes, byte for byte: each is written
        to a temporary file, flushed to disk and renamed into place, and ``summary.json``
        comes last, so a present ``summary.json`` means a complete directory.
        """
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        # The time series first, as the command line does: summary.json is always last.
        if self._series_csv is not None:
            write_atomic(out / "timeseries.csv", self._series_csv)
        for name, text in result_files(self.summary, self._json):
            write_atomic(out / name, text)
        self.out = out
        return out

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

    Raises :class:`ScenarioError` (with ``.file``, ``.line``, ``.key``) on invalid input.
    The simulation runs without holding the interpreter lock, so runs in threads overlap.
    """
    pcap_dir = None if out is None else os.fspath(out)
    summary_json, series_csv = _celltrain.run_with_series(
        os.fspath(scenario), overrides(params), seed, is_toml_text(scenario), pcap_dir
    )
    result = Result(summary_json, series_csv=series_csv)
    if out is not None:
        result.write(out)
    return result


# --------------------------------------------------------------------------------------
# Result files, formatted exactly as the Rust command line formats them


def rust_f64(x: float) -> str:
    """Formats a float as Rust's ``f64::to_string`` does (shortest digits, no exponent)."""
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    from decimal import Decimal

    text = format(Decimal(repr(float(x))), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", "-0."):
        return "-0"
    return text


def _csv_field(value: Any) -> str:
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, float):
        text = rust_f64(value)
    elif value is None:
        text = ""
    else:
        text = str(value)
    if any(c in text for c in ',"\n'):
        text = '"' + text.replace('"', '""') + '"'
    return text


def _csv(header: List[str], rows: List[List[Any]]) -> str:
    lines = [",".join(header)]
    lines += [",".join(_csv_field(v) for v in row) for row in rows]
    return "\n".join(lines) + "\n"


FLOW_CSV = [
    "name", "kind", "vc", "goodput_bps", "packets_sent", "packets_delivered",
    "packets_lost", "packet_loss_ratio", "bytes_delivered",
]  # fmt: skip
VC_CSV = [
    "name", "category", "cells_sent", "cells_delivered", "cells_dropped", "clr",
    "frames_sent", "frames_delivered", "frames_lost", "flr", "corrupted_pdus",
]  # fmt: skip
PORT_CSV = [
    "name", "rate_bps", "policy", "cells_in", "cells_out", "dropped_total",
    "dropped_buffer_full", "dropped_epd", "dropped_ppd", "dropped_clp1", "queued_at_start",
    "queued_at_end", "max_queue_cells", "mean_queue_cells", "utilization",
]  # fmt: skip


def _port_row(p: Mapping[str, Any]) -> List[Any]:
    row = []
    for col in PORT_CSV:
        if col.startswith("dropped_") and col != "dropped_total":
            row.append(int(p.get("dropped", {}).get(col[len("dropped_") :], 0)))
        else:
            row.append(p[col])
    return row


def pretty_json(compact: str) -> str:
    """Re-indents compact JSON as serde_json's pretty printer does, keeping every token's
    text (so numbers are written exactly as the simulator wrote them)."""
    out: List[str] = []
    depth = 0
    i, n = 0, len(compact)
    while i < n:
        c = compact[i]
        if c == '"':
            j = i + 1
            while compact[j] != '"':
                j += 2 if compact[j] == "\\" else 1
            out.append(compact[i : j + 1])
            i = j + 1
            continue
        if c in "{[":
            close = "}" if c == "{" else "]"
            if i + 1 < n and compact[i + 1] == close:
                out.append(c + close)
                i += 2
                continue
            depth += 1
            out.append(c + "\n" + "  " * depth)
        elif c in "}]":
            depth -= 1
            out.append("\n" + "  " * depth + c)
        elif c == ",":
            out.append(",\n" + "  " * depth)
        elif c == ":":
            out.append(": ")
        elif not c.isspace():
            out.append(c)
        i += 1
    return "".join(out)


def result_files(summary: Mapping[str, Any], summary_json: Optional[str] = None) -> List[Tuple[str, str]]:
    """The (file name, text) pairs of a run's result directory, ``summary.json`` last."""
    if summary_json is None:
        summary_json = json.dumps(summary, separators=(",", ":"), ensure_ascii=False)
    flows = _csv(FLOW_CSV, [[f[c] for c in FLOW_CSV] for f in summary["flows"]])
    vcs = _csv(VC_CSV, [[v[c] for c in VC_CSV] for v in summary["vcs"]])
    ports = _csv(PORT_CSV, [_port_row(p) for p in summary["ports"]])
    return [
        ("flows.csv", flows),
        ("vcs.csv", vcs),
        ("ports.csv", ports),
        ("summary.json", pretty_json(summary_json) + "\n"),
    ]
