"""The Python package's build backend: maturin's, with the wheel built profile-guided (PGO).

`pip install .`, `pip wheel .` and `python -m build` call `build_wheel` here. It first makes a
profile (`scripts/build-pgo.sh --profile`: an instrumented build of the command-line tool runs
every built-in scenario and the benchmark workloads), then has maturin build the extension with
`-Cprofile-use`. The extension shares the simulator's crates with the command-line tool, so the
tool's profile lays out and inlines the same hot paths. Results do not change: the same integer
arithmetic is compiled either way (benches/same_results.py finds a PGO build identical to a
plain one, event counts and trace hashes included); only speed does (benches/README.md).

The profile adds about a minute to a build from source. `CELLTRAIN_PGO=0` builds without it;
so does a machine where the profile cannot be made (no rustup to fetch llvm-tools, say), with a
note saying why. An editable install (`pip install -e .`) is a development build: plain.

The wheel's `celltrain` command is the Rust binary, built with the same flags right after the
extension (native_command.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Mapping, Optional

import maturin as _maturin
import native_command

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "build-pgo.sh"

# Everything but the wheel is maturin's own.
build_sdist = _maturin.build_sdist
build_editable = _maturin.build_editable
get_requires_for_build_wheel = _maturin.get_requires_for_build_wheel
get_requires_for_build_sdist = _maturin.get_requires_for_build_sdist
get_requires_for_build_editable = _maturin.get_requires_for_build_editable
prepare_metadata_for_build_wheel = _maturin.prepare_metadata_for_build_wheel
prepare_metadata_for_build_editable = _maturin.prepare_metadata_for_build_editable


def build_wheel(
    wheel_directory: str,
    config_settings: Optional[Mapping[str, Any]] = None,
    metadata_directory: Optional[str] = None,
) -> str:
    with _rustflags(_profile()):
        wheel = _maturin.build_wheel(wheel_directory, config_settings, metadata_directory)
        binary = native_command.build()
    if binary is not None:
        native_command.ship(Path(wheel_directory) / wheel, binary)
    return wheel


@contextmanager
def _rustflags(profile: Optional[str]) -> Iterator[None]:
    """RUSTFLAGS with `-Cprofile-use` while the extension and the command are built (both from
    the same flags, so the command reuses the extension's compiled crates)."""
    before = os.environ.get("RUSTFLAGS")
    if profile is not None:
        os.environ["RUSTFLAGS"] = f"{before} -Cprofile-use={profile}" if before else f"-Cprofile-use={profile}"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("RUSTFLAGS", None)
        else:
            os.environ["RUSTFLAGS"] = before


def _profile() -> Optional[str]:
    """The merged profile's path, or None (with a note on stderr) to build without one."""
    if os.environ.get("CELLTRAIN_PGO", "1") == "0":
        return None
    if not SCRIPT.exists():
        _note(f"{SCRIPT.relative_to(ROOT)} is missing")
        return None
    print("celltrain: making the profile for a profile-guided build (CELLTRAIN_PGO=0 skips it)", file=sys.stderr)
    sys.stderr.flush()
    try:
        done = subprocess.run(["bash", str(SCRIPT), "--profile"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    except OSError as e:  # no bash (Windows without one, say)
        _note(f"cannot run scripts/build-pgo.sh: {e}")
        return None
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines or not Path(lines[-1]).is_file():
        _note(f"scripts/build-pgo.sh --profile exited {done.returncode}")
        return None
    if any(c.isspace() for c in lines[-1]):
        # RUSTFLAGS is split at white space: the flag would reach rustc cut in two.
        _note(f"the profile's path has white space: {lines[-1]!r}")
        return None
    return lines[-1]


def _note(why: str) -> None:
    print(f"note: celltrain builds without a profile ({why}); it runs slower, with the same results", file=sys.stderr)
