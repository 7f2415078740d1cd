"""The installed `celltrain` command is the Rust binary (packaging/native_command.py): the Rust
commands start without a Python interpreter, and the Python ones (`sweep`, `reproduce`) reach
`python -m celltrain` through it, with their output and exit codes."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import celltrain
from test_sweep_interrupt import _interrupt_after_first_point, _stored

ROOT = Path(__file__).resolve().parents[2]
TINY = ["--set", "duration=1 us", "--set", "warmup=0 s", "--quiet"]


@pytest.fixture(scope="module")
def exe():
    if ROOT / "python" in Path(celltrain.__file__).resolve().parents:
        pytest.skip("a development install (maturin develop, pip install -e .) keeps the Python console script")
    # pip puts the script beside the interpreter of the environment it installs into.
    path = Path(sys.executable).parent / f"celltrain{'.exe' if sys.platform == 'win32' else ''}"
    assert path.is_file(), f"no celltrain command beside {sys.executable}"
    return path


def run(exe, *args, **env):
    return subprocess.run([str(exe), *args], capture_output=True, text=True, env={**os.environ, **env})


def test_the_command_is_a_native_executable(exe):
    head = exe.read_bytes()[:4]
    assert not head.startswith(b"#!"), "a script, run by an interpreter"
    if sys.platform.startswith("linux"):
        assert head == b"\x7fELF"


def _dynamic_loader(path):
    """The dynamic loader an ELF executable names (its PT_INTERP segment), or None."""
    import struct

    data = path.read_bytes()
    assert data[:4] == b"\x7fELF" and data[4] == 2, "a 64-bit ELF file"
    order = "<" if data[5] == 1 else ">"
    (phoff,) = struct.unpack_from(order + "Q", data, 0x20)
    phentsize, phnum = struct.unpack_from(order + "HH", data, 0x36)
    for i in range(phnum):
        at = phoff + i * phentsize
        p_type, _, p_offset = struct.unpack_from(order + "IIQ", data, at)
        if p_type == 3:  # PT_INTERP
            (p_filesz,) = struct.unpack_from(order + "Q", data, at + 0x20)
            return data[p_offset : p_offset + p_filesz].rstrip(b"\0").decode()
    return None


def test_the_command_is_linked_statically_where_the_c_library_allows(exe):
    # A dynamically linked command spends about half a millisecond of every start in the
    # dynamic loader (packaging/native_command.py).
    import platform
    import shutil

    if not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc":
        pytest.skip("static linking is asked on Linux with glibc alone")
    if os.environ.get("CELLTRAIN_STATIC") == "0":
        pytest.skip("CELLTRAIN_STATIC=0 asked for a dynamically linked command")
    cc = shutil.which("cc")
    found = cc and subprocess.run([cc, "-print-file-name=libc.a"], capture_output=True, text=True).stdout.strip()
    if not found or not os.path.isabs(found):
        pytest.skip("no static C library here (libc.a): the command is linked dynamically, by design")
    # (The reader finds the loader of a dynamically linked program: the C compiler's.)
    assert _dynamic_loader(Path(cc).resolve()) is not None
    assert _dynamic_loader(exe) is None


def test_the_rust_commands_run_without_python(exe, tmp_path):
    # No interpreter to be found: neither the override nor anything on the PATH.
    no_python = {"CELLTRAIN_PYTHON": str(tmp_path / "no-python"), "PATH": str(tmp_path)}
    listed = run(exe, "list", **no_python)
    assert listed.returncode == 0 and "E1-mux" in listed.stdout, listed.stderr
    ran = run(exe, "run", "A4", *TINY, "--out", str(tmp_path / "out"), **no_python)
    assert ran.returncode == 0, ran.stderr
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["scenario"]
    # ...while a Python command needs one, and says so in one line.
    sweep = run(exe, "sweep", "--help", **no_python)
    assert sweep.returncode == 1 and sweep.stderr.startswith("error: celltrain sweep: cannot start Python")


def test_the_python_commands_are_reached_through_it(exe):
    sweep = run(exe, "sweep", "--help")
    assert sweep.returncode == 0 and "Usage: celltrain sweep [OPTIONS] <SCENARIO>" in sweep.stdout, sweep.stderr
    assert "--grid" in sweep.stdout
    reproduce = run(exe, "reproduce", "--help")
    assert reproduce.returncode == 0 and "--quick" in reproduce.stdout, reproduce.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["run", "A4", "--set", "buffer=-3 cells"],
        ["sweep", "A4", "--grid", "bogus"],
        ["reproduce", "no-such-target", "--quiet"],
        ["no-such-command"],
    ],
    ids=["run", "sweep", "reproduce", "unknown"],
)
def test_bad_input_is_one_error_line_and_exit_code_2(exe, args):
    out = run(exe, *args)
    assert out.returncode == 2, out.stderr
    assert out.stderr.startswith("error: "), out.stderr
    if args[0] != "no-such-command":  # (clap adds its usage and a hint)
        assert len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_the_help_lists_the_rust_and_the_python_commands(exe):
    out = run(exe, "--help")
    assert out.returncode == 0
    for command in ("run", "check", "list", "show", "bench", "cac", "sweep", "reproduce"):
        assert f"\n  {command} " in out.stdout, command


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
@pytest.mark.serial
def test_ctrl_c_reaches_a_python_command_as_it_does_python_m_celltrain(exe, tmp_path):
    store = tmp_path / "store"
    cmd = [str(exe), "sweep", "A4", "--grid", "duration=0.05 s,60 s,61 s", "--set", "warmup=0.01 s",
           "--store", str(store), "--jobs", "1", "--quiet"]  # fmt: skip
    took, code, err = _interrupt_after_first_point(cmd, store)
    assert code == 130 and err.strip().endswith("interrupted"), err
    assert took < 5, f"the sweep waited {took:.1f} s"
    assert _stored(store) == 1, "the finished point was not kept"
