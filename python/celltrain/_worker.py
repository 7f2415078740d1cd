"""The function a sweep runs on its workers (processes, threads or Dask workers).

It only needs the compiled module, so that a worker starts fast and nothing but the
scenario text, the overrides and the seed cross the process boundary.
"""

from __future__ import annotations

import os
import signal
import threading
from typing import Any, List, Optional, Tuple

from . import _celltrain

#: How often a worker process looks whether the process that started it is still there.
PARENT_POLL_S = 0.5


def run_point(text: str, overrides: List[Tuple[str, str]], seed: Optional[int], cancel: Any = None) -> str:
    """Runs scenario TOML ``text``; returns the compact summary JSON. ``cancel`` (a
    ``RunCancel``, for points run on threads of this process) stops the run when cancelled."""
    return _celltrain.run_json(text, [tuple(o) for o in overrides], seed, True, cancel)


def run_point_series(
    text: str, overrides: List[Tuple[str, str]], seed: Optional[int], cancel: Any = None
) -> Tuple[str, Optional[str], Optional[str]]:
    """As :func:`run_point`, with the run's sampled series and change records as CSV text."""
    summary, series, changes = _celltrain.run_with_series(
        text, [tuple(o) for o in overrides], seed, True, None, False, None, cancel
    )
    return summary, series, changes


def init_process_worker() -> None:
    """Initialiser of a sweep's local worker processes.

    Ctrl-C goes to the whole process group: the sweep handles it (keeps the finished points,
    stops the workers), so the workers ignore it. And a worker exits as soon as its parent
    is gone (the sweep SIGKILLed): it would otherwise run on, orphaned, and never be
    collected.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()

    def watch() -> None:
        # The simulator releases the interpreter lock while it runs, so this thread gets
        # to look even in the middle of a long run.
        while os.getppid() == parent:
            threading.Event().wait(PARENT_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="celltrain-parent-watch", daemon=True).start()
