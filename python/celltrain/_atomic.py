"""Atomic file writes: a temporary file in the same directory, fsync, rename, fsync dir.

A reader (or a process that restarts after a crash or SIGKILL) sees either the old file or
the complete new one, never a partial one. Temporary files are named
``.<name>.<host>.<pid>-<thread>.tmp`` so that :func:`remove_stale_temporaries` can tell a
temporary left by a dead process from one still being written.
"""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path
from typing import Union

_HOST = socket.gethostname().replace(".", "_") or "host"


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def write_atomic(path: Union[str, "os.PathLike[str]"], data: Union[str, bytes]) -> None:
    """Writes ``data`` to ``path`` atomically and durably."""
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    tmp = path.parent / f".{path.name}.{_HOST}.{os.getpid()}-{threading.get_ident()}.tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
    _fsync_dir(path.parent)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - alive, owned by someone else
        return True
    return True


def remove_stale_temporaries(directory: Union[str, "os.PathLike[str]"]) -> int:
    """Removes temporaries left in ``directory`` by dead processes of this host."""
    removed = 0
    directory = Path(directory)
    if not directory.is_dir():
        return 0
    for tmp in directory.glob(".*.tmp"):
        parts = tmp.name[1:-4].rsplit(".", 2)
        if len(parts) != 3 or parts[1] != _HOST:
            continue
        try:
            pid = int(parts[2].split("-")[0])
        except ValueError:
            continue
        if pid == os.getpid() or _pid_alive(pid):
            continue
        try:
            tmp.unlink()
            removed += 1
        except OSError:  # pragma: no cover
            pass
    return removed
