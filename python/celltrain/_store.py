"""The result store of sweeps: one JSON record per (scenario, parameters, seed), that loses
nothing.

Layout::

    STORE/
      STORE.json                 {"format": "celltrain-store/1"}
      points/<key>.json          one record per run, written atomically

Key derivation (see :func:`point_identity`): the SHA-256 of the canonical JSON of

* the store format (``celltrain-store/1``),
* the simulator version (``celltrain.__version__``),
* the SHA-256 of the scenario's exact TOML text — a built-in's text is taken from the
  simulator itself (``celltrain show NAME``), a file's and a string's from their content,
  so editing a scenario, or a new version changing a built-in, gives new keys,
* every parameter override as ``[name, text]`` pairs sorted by name (the text the
  simulator parses, so ``5`` and ``"5"`` are the same point),
* the seed (``null`` = the scenario's own seed).

A record holds the key, that identity, the point's labels (``[[name, value], …]``: the
swept parameters' values and constant labels such as ``variant``, in column order), the
scenario reference as given, the time it was written, the summary and a
``checksum`` (SHA-256 of the canonical JSON of everything else). A record is reused only
if it parses, its checksum matches, its key and identity are the ones expected, and its
summary agrees (version, seed, scenario). Anything else — a truncated or corrupted file, a
record copied under another key, a result of another version — is reported and recomputed,
and the new record replaces it.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from ._atomic import remove_stale_temporaries, write_atomic

FORMAT = "celltrain-store/1"


def canonical(obj: Any) -> str:
    """The canonical JSON text used for keys and checksums."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def point_identity(
    version: str,
    scenario_sha256: str,
    overrides: Sequence[Tuple[str, str]],
    seed: Optional[int],
) -> Dict[str, Any]:
    """What a stored result's key is derived from."""
    return {
        "format": FORMAT,
        "simulator": version,
        "scenario_sha256": scenario_sha256,
        "overrides": sorted([str(k), str(v)] for k, v in overrides),
        "seed": seed,
    }


def key_of(identity: Mapping[str, Any]) -> str:
    return sha256(canonical(identity))


def _checksum(record: Mapping[str, Any]) -> str:
    body = {k: v for k, v in record.items() if k != "checksum"}
    return "sha256:" + sha256(canonical(body))


class StoreError(RuntimeError):
    """A store directory cannot be used (e.g. it belongs to another format)."""


class Store:
    """A directory of point records. Safe against crashes: every write is atomic."""

    def __init__(self, root: Union[str, "os.PathLike[str]"]) -> None:
        self.root = Path(root)
        self.points = self.root / "points"

    # -- setup -------------------------------------------------------------------------

    def open(self) -> "Store":
        """Creates the directories if needed, checks the format, removes stale temporaries."""
        try:
            self.points.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            # Bad input, not a failure of the machine: a path that is (or runs through) a file.
            raise StoreError(f"{self.root}: not a directory (a store is a directory)") from None
        marker = self.root / "STORE.json"
        if marker.exists():
            self._check_marker(marker)
        else:
            write_atomic(marker, json.dumps({"format": FORMAT}) + "\n")
        remove_stale_temporaries(self.points)
        return self

    def check_readable(self) -> "Store":
        """For reading only: the directory must be a store (its marker, or records written
        before markers); a ``StoreError`` otherwise."""
        marker = self.root / "STORE.json"
        if not self.root.is_dir():
            raise StoreError(f"{self.root}: no such store directory")
        if marker.exists():
            self._check_marker(marker)
        elif not self.points.is_dir():
            raise StoreError(f"{self.root}: not a celltrain store (no STORE.json, no points/)")
        return self

    def _check_marker(self, marker: Path) -> None:
        try:
            fmt = json.loads(marker.read_text(encoding="utf-8")).get("format")
        except (ValueError, OSError, AttributeError) as e:
            raise StoreError(f"{marker}: unreadable store marker: {e}") from None
        if fmt != FORMAT:
            raise StoreError(f"{marker}: store format {fmt!r}, expected {FORMAT!r}")

    def path(self, key: str) -> Path:
        return self.points / f"{key}.json"

    # -- records -----------------------------------------------------------------------

    @staticmethod
    def make_record(
        key: str,
        identity: Mapping[str, Any],
        labels: Sequence[Sequence[Any]],
        scenario_ref: str,
        summary: Mapping[str, Any],
        extra: Optional[Mapping[str, Any]] = None,
    ) -> Dict[str, Any]:
        """``extra``: more fields of the record (a sweep's time series), checksummed with it."""
        record: Dict[str, Any] = {
            "format": FORMAT,
            "key": key,
            "identity": dict(identity),
            "labels": [[str(k), v] for k, v in labels],
            "scenario_ref": scenario_ref,
            "written_unix": round(time.time(), 3),
            "summary": dict(summary),
            **dict(extra or {}),
        }
        record["checksum"] = _checksum(record)
        return record

    def put(self, record: Mapping[str, Any]) -> None:
        """Writes a record atomically (temporary file, fsync, rename, fsync directory)."""
        text = json.dumps(record, sort_keys=True, indent=1, ensure_ascii=False, allow_nan=False) + "\n"
        write_atomic(self.path(record["key"]), text)

    def read(self, path: Path) -> Tuple[Optional[Dict[str, Any]], Optional[str]]:
        """Reads and verifies one record file: ``(record, None)`` or ``(None, problem)``."""
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None, "missing"
        except OSError as e:
            return None, f"unreadable: {e}"
        try:
            record = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            return None, f"corrupt (not JSON: {e.__class__.__name__}; truncated?)"
        if not isinstance(record, dict) or record.get("format") != FORMAT:
            return None, "corrupt (not a celltrain-store/1 record)"
        if record.get("checksum") != _checksum(record):
            return None, "corrupt (checksum mismatch)"
        key = record.get("key")
        if path.name != f"{key}.json":
            return None, f"key mismatch (file {path.name} holds the record of {key})"
        identity = record.get("identity")
        if not isinstance(identity, dict) or key_of(identity) != key:
            return None, "key mismatch (identity does not hash to the key)"
        summary = record.get("summary")
        if not isinstance(summary, dict):
            return None, "corrupt (no summary)"
        if summary.get("version") != identity.get("simulator"):
            return None, "version mismatch (summary of another simulator version)"
        if identity.get("seed") is not None and summary.get("seed") != identity.get("seed"):
            return None, "seed mismatch"
        params = summary.get("params", {})
        if any(name not in params for name, _text in identity.get("overrides", [])):
            return None, "parameter mismatch"
        return record, None

    def get(self, key: str, identity: Mapping[str, Any]) -> Tuple[Optional[Dict[str, Any]], Optional[str]]:
        """The verified record of ``key`` if it is stored and matches ``identity``."""
        record, problem = self.read(self.path(key))
        if record is None:
            return None, problem
        if record["identity"] != dict(identity) or record["key"] != key:
            return None, "key mismatch (stored identity differs)"
        return record, None

    def scan(self) -> Iterator[Tuple[Path, Optional[Dict[str, Any]], Optional[str]]]:
        """Every record file with its verified record or its problem, in key order."""
        if not self.points.is_dir():
            return
        for path in sorted(self.points.glob("*.json")):
            record, problem = self.read(path)
            yield path, record, problem

    def records(self) -> List[Dict[str, Any]]:
        return [r for _p, r, _e in self.scan() if r is not None]
