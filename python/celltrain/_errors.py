"""How the Python-implemented commands (``sweep``, ``reproduce``) fail: like the Rust ones,
with one ``error:`` line and an exit code — 2 for bad input, 1 for anything else (I/O, an
unreachable cluster, a bug) — never a traceback; and quietly, with 0, when the reader of
standard output went away (``celltrain sweep … | head``)."""

from __future__ import annotations

import os
import sys
import warnings
from typing import Callable, Sequence


def _one_line(text: object) -> str:
    return " ".join(str(text).split()) or "unknown error"


def _describe_os_error(e: OSError) -> str:
    where = f"{e.filename}: " if e.filename else ""
    return f"{where}{e.strerror or _one_line(e)}"


def _stdout_gone() -> None:
    """Points standard output at /dev/null, so that the interpreter's final flush of a
    closed pipe raises nothing more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _warning_line(message, category, filename, lineno, line=None) -> str:  # noqa: ANN001
    return f"warning: {_one_line(message)}\n"


def guarded(command: Callable[[Sequence[str]], int], argv: Sequence[str]) -> int:
    """Runs a Python command's main function, turning every failure into one line."""
    from ._celltrain import ScenarioError
    from ._store import StoreError

    input_errors: tuple = (ScenarioError, StoreError, ValueError, TypeError)
    try:
        from .reproduce import UnknownTarget

        input_errors += (UnknownTarget,)
    except ImportError:  # pragma: no cover - the reproduce package is optional here
        pass
    # Warnings on the command line are one line each, like errors.
    warnings.formatwarning = _warning_line
    try:
        return command(argv)
    except BrokenPipeError:
        _stdout_gone()
        return 0
    except input_errors as e:
        print(f"error: {_one_line(e)}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"error: {_one_line(_describe_os_error(e))}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # a panic of the simulator (pyo3's PanicException), a bug
        print(f"error: internal error ({type(e).__name__}): {_one_line(e)}", file=sys.stderr)
        return 1
