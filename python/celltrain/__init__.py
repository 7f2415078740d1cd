"""celltrain: a fast, exact, cell-level simulator of TCP/IP over ATM.

The simulation runs in Rust; this package is a thin front:

>>> import celltrain
>>> summary = celltrain.run("A1-udp")            # a built-in scenario, a path, or TOML text
>>> round(summary["aggregate"]["goodput_bps"] / 1e6, 1)
134.5
"""

from __future__ import annotations

import json
import os
from typing import Any, Mapping, Optional, Union

from ._celltrain import ScenarioError, __version__
from . import _celltrain

__all__ = ["run", "check", "scenarios", "ScenarioError", "__version__"]

Scenario = Union[str, "os.PathLike[str]"]


def _overrides(params: Optional[Mapping[str, Any]]) -> list[tuple[str, str]]:
    out = []
    for name, value in (params or {}).items():
        if isinstance(value, bool):
            text = "true" if value else "false"
        else:
            text = str(value)
        out.append((str(name), text))
    return out


def _is_text(scenario: Scenario) -> bool:
    # TOML text always holds a newline or a table header; a path or a name never does.
    return isinstance(scenario, str) and ("\n" in scenario or "[scenario]" in scenario)


def run(scenario: Scenario, params: Optional[Mapping[str, Any]] = None, seed: Optional[int] = None) -> dict:
    """Runs a scenario and returns its summary (the content of ``summary.json``) as a dict.

    ``scenario`` is a file path, the name of a built-in scenario, or scenario TOML text.
    ``params`` overrides the scenario's ``[params]`` (like ``--set name=value``).
    Raises :class:`ScenarioError` (with ``.file``, ``.line``, ``.key``) on invalid input.
    """
    text = _is_text(scenario)
    out = _celltrain.run_json(os.fspath(scenario), _overrides(params), seed, text)
    return json.loads(out)


def check(scenario: Scenario, params: Optional[Mapping[str, Any]] = None) -> None:
    """Validates a scenario without running it; raises :class:`ScenarioError` if invalid."""
    _celltrain.check(os.fspath(scenario), _overrides(params), None, _is_text(scenario))


def scenarios() -> list[dict]:
    """The built-in scenarios: ``[{"name", "paper", "title"}, ...]``."""
    return [{"name": n, "paper": p, "title": t} for (n, p, t) in _celltrain.scenarios()]


def _error_fields(self: ScenarioError) -> tuple:
    args = self.args
    return args if len(args) == 5 else (str(self), None, None, None, str(self))


ScenarioError.file = property(lambda self: _error_fields(self)[1])  # type: ignore[attr-defined]
ScenarioError.line = property(lambda self: _error_fields(self)[2])  # type: ignore[attr-defined]
ScenarioError.key = property(lambda self: _error_fields(self)[3])  # type: ignore[attr-defined]
ScenarioError.__str__ = lambda self: str(_error_fields(self)[0])  # type: ignore[assignment]
