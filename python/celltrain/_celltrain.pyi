"""The compiled half of celltrain (crates/celltrain-py). Use the ``celltrain`` package instead."""

from typing import List, Optional, Tuple

__version__: str

class ScenarioError(ValueError):
    """A scenario is invalid. ``args`` = (message, file, line, key, detail)."""

    file: Optional[str]
    line: Optional[int]
    key: Optional[str]

def main(argv: List[str]) -> int:
    """Runs the Rust command line (``argv[0]`` is the program name); returns the exit code."""

def run_json(
    scenario: str,
    overrides: List[Tuple[str, str]],
    seed: Optional[int] = None,
    is_text: bool = False,
) -> str:
    """Runs a scenario (path, built-in name, or TOML text when ``is_text``); returns the
    summary as compact JSON. Releases the interpreter lock while it runs."""

def check(
    scenario: str,
    overrides: List[Tuple[str, str]],
    seed: Optional[int] = None,
    is_text: bool = False,
) -> None:
    """Validates a scenario; raises :class:`ScenarioError` if it is invalid."""

def scenarios() -> List[Tuple[str, str, str]]:
    """The built-in scenarios as ``(name, paper, title)``."""

def run_with_series(
    scenario: str, overrides: list[tuple[str, str]], seed: Optional[int] = None, is_text: bool = False
) -> tuple[str, Optional[str]]:
    """As :func:`run_json`, plus the recorded time series as CSV text (``None`` when the
    scenario's ``[record]`` table asks for no sampling)."""
    ...
