"""The wheel's `celltrain` command: the Rust binary, in place of the Python console script.

maturin's wheel installs `celltrain` as a console script (`[project.scripts]`), which starts
Python (some 50 ms and 22 MiB) before every command. The build backend (pgo_backend.py) then
builds the command-line binary with cargo, in the same target directory and with the same
flags (the same profile) as the extension, so only the binary's own crate is compiled and
linked, and puts it in the wheel as `<name>.data/scripts/celltrain` (PEP 427: installed beside
the interpreter, as a console script would be) in place of the console script. The binary
runs the Rust commands itself and hands `sweep` and `reproduce` to `python -m celltrain`
(crates/celltrain-cli/src/python_front.rs).

On Linux with glibc the binary is linked statically (`-C target-feature=+crt-static`, on the
binary's own crate alone: the extension's compiled crates are reused as they are). A dynamically
linked one spends about half a millisecond of every start in the dynamic loader and its
relocations (benches/README.md), which is a few percent of a short run. A machine without the
static C library (`libc.a`) gets a dynamically linked binary instead, with a note;
`CELLTRAIN_STATIC=0` asks for one.

Development installs (`maturin develop`, `pip install -e .`) do not come here: they keep the
console script, which runs every command too. `CELLTRAIN_NATIVE=0` keeps it in a wheel as well;
so does a binary that cannot be built, with a note saying why.
"""

from __future__ import annotations

import base64
import configparser
import csv
import hashlib
import io
import json
import os
import platform
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
NAME = "celltrain"
#: rwxr-xr-x, a regular file: what installers give the script.
SCRIPT_MODE = 0o100755


def build() -> Optional[Path]:
    """The binary cargo built (with this process's RUSTFLAGS), or None, with a note, to keep the
    console script."""
    if os.environ.get("CELLTRAIN_NATIVE", "1") == "0":
        return None
    print("celltrain: building the native celltrain command (CELLTRAIN_NATIVE=0 skips it)", file=sys.stderr)
    sys.stderr.flush()
    command = ["cargo", "rustc", "--release", "-p", "celltrain-cli", "--bin", NAME, "--message-format=json-render-diagnostics"]
    static = static_link_flags()
    try:
        if static:
            done = subprocess.run([*command, "--", *static], cwd=ROOT, stdout=subprocess.PIPE, text=True)
            if done.returncode == 0:
                return _named(done)
            print(
                f"note: the celltrain command could not be linked statically (cargo rustc exited {done.returncode});"
                " it is linked dynamically instead, and starts about 0.5 ms slower",
                file=sys.stderr,
            )
        done = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    except OSError as e:
        _note(f"cannot run cargo: {e}")
        return None
    if done.returncode != 0:
        _note(f"cargo rustc exited {done.returncode}")
        return None
    return _named(done)


def static_link_flags() -> List[str]:
    """The flags that link the binary statically here: on Linux with glibc, unless
    `CELLTRAIN_STATIC=0` (musl links statically already; other systems do not offer it)."""
    if os.environ.get("CELLTRAIN_STATIC", "1") == "0":
        return []
    if not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc":
        return []
    return ["-C", "target-feature=+crt-static"]


def _named(done: "subprocess.CompletedProcess[str]") -> Optional[Path]:
    """The executable a successful cargo run named, or None with a note."""
    binary = _executable(done.stdout)
    if binary is None:
        _note("cargo named no executable")
    return binary


def _executable(messages: str) -> Optional[Path]:
    """The `celltrain` executable among cargo's JSON messages."""
    for line in messages.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        target = message.get("target") or {}
        if message.get("reason") == "compiler-artifact" and target.get("name") == NAME and message.get("executable"):
            return Path(message["executable"])
    return None


def ship(wheel: Path, binary: Path) -> None:
    """Rewrites `wheel` with `binary` as its `celltrain` script and without the console script
    of that name; RECORD is written anew, with every file's hash."""
    staging = wheel.with_name(wheel.name + ".part")
    try:
        with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(staging, "w") as dst:
            _copy_with_binary(src, dst, binary)
    except BaseException:
        staging.unlink(missing_ok=True)
        raise
    os.replace(staging, wheel)


def _copy_with_binary(src: zipfile.ZipFile, dst: zipfile.ZipFile, binary: Path) -> None:
    dist_info = _dist_info(src)
    record = f"{dist_info}/RECORD"
    entry_points = f"{dist_info}/entry_points.txt"
    rows: List[Tuple[str, str, str]] = []
    for info in src.infolist():
        if info.filename == record:
            continue
        body = src.read(info)
        if info.filename == entry_points:
            body = _without_console_script(body)
            if not body:
                continue
        _write(dst, info, body, rows)
    _write(dst, _script_info(dist_info), binary.read_bytes(), rows)
    rows.append((record, "", ""))
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    dst.writestr(src.getinfo(record), text.getvalue())


def _script_info(dist_info: str) -> zipfile.ZipInfo:
    name = f"{dist_info[: -len('.dist-info')]}.data/scripts/{NAME}"
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.external_attr = SCRIPT_MODE << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def _dist_info(wheel: zipfile.ZipFile) -> str:
    return next(n.rsplit("/", 1)[0] for n in wheel.namelist() if n.count("/") == 1 and n.endswith(".dist-info/RECORD"))


def _write(dst: zipfile.ZipFile, info: zipfile.ZipInfo, body: bytes, rows: List[Tuple[str, str, str]]) -> None:
    dst.writestr(info, body)
    digest = base64.urlsafe_b64encode(hashlib.sha256(body).digest()).rstrip(b"=").decode()
    rows.append((info.filename, f"sha256={digest}", str(len(body))))


def _without_console_script(entry_points: bytes) -> bytes:
    """entry_points.txt without the `celltrain` console script (empty when nothing is left)."""
    parser = configparser.ConfigParser(delimiters=("=",), interpolation=None)
    parser.optionxform = str  # names are case-sensitive
    parser.read_string(entry_points.decode())
    if parser.has_section("console_scripts"):
        parser.remove_option("console_scripts", NAME)
    for section in [s for s in parser.sections() if not parser.options(s)]:
        parser.remove_section(section)
    text = io.StringIO()
    parser.write(text)
    return text.getvalue().strip().encode() + b"\n" if parser.sections() else b""


def _note(why: str) -> None:
    print(f"note: the celltrain command is the Python console script ({why}); it starts slower, with the same results", file=sys.stderr)
