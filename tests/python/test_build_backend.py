"""The package's build backend (packaging/pgo_backend.py): maturin's, with the wheel built from a
profile when one can be made, and plain otherwise (never a failed install for want of one)."""

import importlib
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

maturin = pytest.importorskip("maturin")


@pytest.fixture
def backend(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "packaging"))
    module = importlib.import_module("pgo_backend")
    seen = []

    def fake_build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
        seen.append(os.environ.get("RUSTFLAGS"))
        return "celltrain-0-py3-none-any.whl"

    monkeypatch.setattr(module._maturin, "build_wheel", fake_build_wheel)
    module.seen = seen
    return module


def test_every_hook_of_maturin_is_offered(backend):
    hooks = [name for name in dir(maturin) if name.startswith(("build_", "get_requires_", "prepare_metadata_"))]
    assert "build_wheel" in hooks and "build_sdist" in hooks
    missing = [name for name in hooks if not callable(getattr(backend, name, None))]
    assert missing == []


def test_the_wheel_is_built_with_the_profile_and_the_flags_are_restored(backend, monkeypatch, tmp_path):
    profile = tmp_path / "merged.profdata"
    monkeypatch.setattr(backend, "_profile", lambda: str(profile))
    monkeypatch.setenv("RUSTFLAGS", "-Cdebug-assertions=no")
    assert backend.build_wheel(str(tmp_path)) == "celltrain-0-py3-none-any.whl"
    assert backend.seen == [f"-Cdebug-assertions=no -Cprofile-use={profile}"]
    assert os.environ["RUSTFLAGS"] == "-Cdebug-assertions=no"

    monkeypatch.delenv("RUSTFLAGS")
    backend.build_wheel(str(tmp_path))
    assert backend.seen[-1] == f"-Cprofile-use={profile}"
    assert "RUSTFLAGS" not in os.environ


def test_celltrain_pgo_0_builds_plain_without_making_a_profile(backend, monkeypatch, tmp_path):
    monkeypatch.setenv("CELLTRAIN_PGO", "0")
    monkeypatch.delenv("RUSTFLAGS", raising=False)

    def no_run(*args, **kwargs):
        raise AssertionError("no profile is made with CELLTRAIN_PGO=0")

    monkeypatch.setattr(backend.subprocess, "run", no_run)
    backend.build_wheel(str(tmp_path))
    assert backend.seen == [None]


def test_a_profile_that_cannot_be_made_gives_a_plain_build_and_says_why(backend, monkeypatch, tmp_path, capsys):
    failing = tmp_path / "build-pgo.sh"
    failing.write_text("echo 'rustup: command not found' >&2\nexit 1\n")
    monkeypatch.setattr(backend, "SCRIPT", failing)
    monkeypatch.delenv("CELLTRAIN_PGO", raising=False)
    monkeypatch.delenv("RUSTFLAGS", raising=False)
    backend.build_wheel(str(tmp_path))
    assert backend.seen == [None]
    err = capsys.readouterr().err
    assert "builds without a profile" in err and "exited 1" in err


def test_a_profile_path_with_a_space_gives_a_plain_build_and_says_why(backend, monkeypatch, tmp_path, capsys):
    where = tmp_path / "a dir"
    where.mkdir()
    (where / "merged.profdata").write_text("")
    script = tmp_path / "build-pgo.sh"
    script.write_text(f"echo '{where / 'merged.profdata'}'\n")
    monkeypatch.setattr(backend, "SCRIPT", script)
    monkeypatch.delenv("CELLTRAIN_PGO", raising=False)
    monkeypatch.delenv("RUSTFLAGS", raising=False)
    backend.build_wheel(str(tmp_path))
    assert backend.seen == [None]
    assert "white space" in capsys.readouterr().err


def test_no_bash_gives_a_plain_build_and_says_why(backend, monkeypatch, tmp_path, capsys):
    def no_bash(*args, **kwargs):
        raise FileNotFoundError(2, "No such file or directory", "bash")

    monkeypatch.setattr(backend.subprocess, "run", no_bash)
    monkeypatch.delenv("CELLTRAIN_PGO", raising=False)
    monkeypatch.delenv("RUSTFLAGS", raising=False)
    backend.build_wheel(str(tmp_path))
    assert backend.seen == [None]
    assert "cannot run scripts/build-pgo.sh" in capsys.readouterr().err


@pytest.mark.skipif(sys.platform == "win32", reason="bash script")
def test_the_profile_script_refuses_unknown_arguments():
    import subprocess

    done = subprocess.run(["bash", "scripts/build-pgo.sh", "--bogus"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and "usage" in done.stderr
