"""A run's output directory, written as ``celltrain run --out`` writes it (the Rust
``report::OutDir``): everything goes to a fresh staging directory inside it, and only a
complete, fsync'd set replaces the previous run's files — ``summary.json`` removed first and
moved in last — so a present ``summary.json`` always means one complete run, never a mix.

The directory itself is never removed (it may hold the user's own files): only the files the
previous run's manifest (``.celltrain-files``) lists, and the result files' names.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Iterable, Tuple, Union

from ._atomic import _fsync_dir, _pid_alive

MANIFEST = ".celltrain-files"
STAGING_PREFIX = ".celltrain-staging-"
SUMMARY = "summary.json"
RESULT_NAMES = ("timeseries.csv", "flows.csv", "vcs.csv", "ports.csv", "timeseries_changes.csv")


def _write_synced(path: Path, data: bytes) -> None:
    with open(path, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def prepare(out: Union[str, "os.PathLike[str]"]) -> Path:
    """Creates ``out`` if need be, removes staging directories of dead runs, and returns a
    fresh, writable staging directory inside it (so an unwritable ``out`` fails now)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob(STAGING_PREFIX + "*"):
        pid = old.name[len(STAGING_PREFIX) :]
        if pid.isdigit() and int(pid) != os.getpid() and not _pid_alive(int(pid)):
            shutil.rmtree(old, ignore_errors=True)
    staging = out / f"{STAGING_PREFIX}{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    _write_synced(staging / ".probe", b"")
    (staging / ".probe").unlink()
    return staging


def discard(staging: Path) -> None:
    """Removes a staging directory whose run failed."""
    shutil.rmtree(staging, ignore_errors=True)


def commit(out: Union[str, "os.PathLike[str]"], staging: Path, files: Iterable[Tuple[str, str]]) -> None:
    """Writes ``files`` (name, text) beside what the run staged, then replaces the previous
    run's files in ``out``; on an error the staging directory is removed."""
    out = Path(out)
    try:
        for name, text in files:
            _write_synced(staging / name, text.encode("utf-8"))
        names = sorted(p.name for p in staging.iterdir() if p.is_file())
        for name in names:
            with open(staging / name, "rb") as f:
                os.fsync(f.fileno())
        names.sort(key=lambda n: n == SUMMARY)  # summary.json last
        (out / SUMMARY).unlink(missing_ok=True)
        previous = set(RESULT_NAMES)
        try:
            listed = (out / MANIFEST).read_text(encoding="utf-8").splitlines()
            previous |= {n for n in listed if n and not n.startswith(".") and "/" not in n and "\\" not in n}
        except (OSError, UnicodeDecodeError):
            pass
        for old in previous - set(names):
            (out / old).unlink(missing_ok=True)
        _write_synced(staging / MANIFEST, "".join(f"{n}\n" for n in names).encode("utf-8"))
        os.replace(staging / MANIFEST, out / MANIFEST)
        for name in names:
            os.replace(staging / name, out / name)
        _fsync_dir(out)
    finally:
        discard(staging)
