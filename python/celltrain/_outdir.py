"""A run's output directory, written as ``celltrain run --out`` writes it (the Rust
``report::OutDir``): everything goes to a fresh staging directory inside it, and only a
complete, fsync'd set replaces the previous run's files — ``summary.json`` removed first and
moved in last — so a present ``summary.json`` always means one complete run, never a mix.

The directory itself is never removed (it may hold the user's own files): only the files the
previous run's manifest (``.celltrain-files``) lists, and the result files' names.

A report (``celltrain reproduce --out``) is written the same way, with ``index.md`` and
``index.html`` as its markers and its ``img/`` directory replaced whole; its run store
(``store/``) is not the report's to replace and is never touched.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Iterable, Sequence, Tuple, Union

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
    if not os.fspath(out):
        # Path("") is the current directory: a run would scatter its files there.
        raise ValueError("out must name a directory, not an empty string")
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


def commit(
    out: Union[str, "os.PathLike[str]"],
    staging: Path,
    files: Iterable[Tuple[str, str]],
    markers: Sequence[str] = (SUMMARY,),
    known: Sequence[str] = RESULT_NAMES,
) -> None:
    """Writes ``files`` (name, text) beside what the run staged, then replaces the previous
    run's files in ``out``; on an error the staging directory is removed.

    ``markers``: the files whose presence means a complete set (removed first, moved in
    last). ``known``: names a set from before manifests may have left (``name/`` a
    directory). A directory staged (one level: ``img/``) replaces the previous one whole."""
    out = Path(out)
    try:
        for name, text in files:
            _write_synced(staging / name, text.encode("utf-8"))
        names = sorted(p.name for p in staging.iterdir() if p.is_file())
        dirs = sorted(p.name for p in staging.iterdir() if p.is_dir())
        for path in [staging / n for n in names] + [f for d in dirs for f in (staging / d).iterdir() if f.is_file()]:
            with open(path, "rb") as f:
                os.fsync(f.fileno())
        for d in dirs:
            _fsync_dir(staging / d)
        names.sort(key=lambda n: n in markers)  # the markers last
        for marker in markers:
            (out / marker).unlink(missing_ok=True)
        previous = set(known)
        try:
            listed = (out / MANIFEST).read_text(encoding="utf-8").splitlines()
            previous |= {n for n in listed if _plain(n.removesuffix("/"))}
        except (OSError, UnicodeDecodeError):
            pass
        entries = names + [f"{d}/" for d in dirs]
        for old in previous - set(entries):
            if old.endswith("/"):
                shutil.rmtree(out / old, ignore_errors=True)
            else:
                (out / old).unlink(missing_ok=True)
        _write_synced(staging / MANIFEST, "".join(f"{n}\n" for n in entries).encode("utf-8"))
        os.replace(staging / MANIFEST, out / MANIFEST)
        for d in dirs:
            # The previous directory is moved aside (into the staging directory, removed
            # below), so the new one takes its name in one rename.
            if (out / d).is_dir():
                os.replace(out / d, staging / f".old-{d}")
            os.replace(staging / d, out / d)
        for name in names:
            os.replace(staging / name, out / name)
        _fsync_dir(out)
    finally:
        discard(staging)


def _plain(name: str) -> bool:
    """A plain name inside the directory (a manifest line trusted to name no other place)."""
    return bool(name) and not name.startswith(".") and "/" not in name and "\\" not in name
