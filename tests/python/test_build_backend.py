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

    def fake_native_build():
        module.seen_native.append(os.environ.get("RUSTFLAGS"))
        return None

    monkeypatch.setattr(module._maturin, "build_wheel", fake_build_wheel)
    monkeypatch.setattr(module.native_command, "build", fake_native_build)
    module.seen = seen
    module.seen_native = []
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
    # The command is built with the extension's flags (so it reuses the compiled crates).
    assert backend.seen_native == backend.seen
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


# The wheel's `celltrain` command: the Rust binary in place of the console script
# (packaging/native_command.py).

DIST_INFO = "celltrain-0.1.0.dist-info"
SCRIPT = "celltrain-0.1.0.data/scripts/celltrain"


def _fake_wheel(path, entry_points):
    """A wheel as maturin writes one: a module, metadata, the console scripts, RECORD last."""
    import zipfile

    files = {
        "celltrain/__init__.py": b"",
        "celltrain/py.typed": b"",
        f"{DIST_INFO}/METADATA": b"Metadata-Version: 2.1\nName: celltrain\nVersion: 0.1.0\n",
        f"{DIST_INFO}/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\nTag: py3-none-any\n",
        f"{DIST_INFO}/entry_points.txt": entry_points.encode(),
    }
    with zipfile.ZipFile(path, "w") as z:
        for name, body in files.items():
            z.writestr(name, body)
        z.writestr(f"{DIST_INFO}/RECORD", "".join(f"{name},,\n" for name in [*files, f"{DIST_INFO}/RECORD"]))
    return path


def _csv_rows(text):
    import csv
    import io

    return csv.reader(io.StringIO(text))


def test_the_native_command_replaces_the_console_script_and_record_is_rewritten(backend, tmp_path):
    import base64
    import hashlib
    import zipfile

    nc = backend.native_command
    binary = tmp_path / "celltrain-bin"
    binary.write_bytes(b"\x7fELF not really")
    wheel = _fake_wheel(tmp_path / "celltrain-0.1.0-py3-none-any.whl", "[console_scripts]\ncelltrain=celltrain.cli:main\n")
    nc.ship(wheel, binary)
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        assert f"{DIST_INFO}/entry_points.txt" not in names, "the only console script is gone, and its file"
        assert "celltrain/py.typed" in names, "empty files are kept"
        assert z.read(SCRIPT) == binary.read_bytes()
        assert z.getinfo(SCRIPT).external_attr >> 16 == 0o100755
        assert names[-1] == f"{DIST_INFO}/RECORD"
        rows = list(_csv_rows(z.read(f"{DIST_INFO}/RECORD").decode()))
        assert sorted(r[0] for r in rows) == sorted(names)
        for name, digest, size in rows:
            if name.endswith("/RECORD"):
                assert (digest, size) == ("", "")
                continue
            body = z.read(name)
            assert digest == "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(body).digest()).rstrip(b"=").decode()
            assert size == str(len(body))


def test_other_entry_points_are_kept(backend, tmp_path):
    import zipfile

    binary = tmp_path / "celltrain-bin"
    binary.write_bytes(b"bin")
    wheel = _fake_wheel(
        tmp_path / "celltrain-0.1.0-py3-none-any.whl",
        "[console_scripts]\ncelltrain=celltrain.cli:main\nCelltrain-Plot=celltrain.plot:main\n\n[gui_scripts]\nx=y:z\n",
    )
    backend.native_command.ship(wheel, binary)
    with zipfile.ZipFile(wheel) as z:
        text = z.read(f"{DIST_INFO}/entry_points.txt").decode()
    assert "celltrain.cli:main" not in text
    assert "Celltrain-Plot = celltrain.plot:main" in text and "[gui_scripts]" in text


def test_pip_installs_the_shipped_binary_as_an_executable_script(backend, tmp_path):
    import subprocess

    binary = tmp_path / "celltrain-bin"
    binary.write_bytes(b"\x7fELF not really")
    wheel = _fake_wheel(tmp_path / "celltrain-0.1.0-py3-none-any.whl", "[console_scripts]\ncelltrain=celltrain.cli:main\n")
    backend.native_command.ship(wheel, binary)
    target = tmp_path / "installed"
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--disable-pip-version-check"]
    done = subprocess.run([*pip, "--target", str(target), str(wheel)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    script = target / "bin" / "celltrain"
    assert script.read_bytes() == binary.read_bytes(), "installed as is, not a generated console script"
    assert os.access(script, os.X_OK)


def test_the_wheel_gets_the_binary_cargo_built(backend, monkeypatch, tmp_path):
    import zipfile

    binary = tmp_path / "celltrain-bin"
    binary.write_bytes(b"bin")
    monkeypatch.setattr(backend, "_profile", lambda: None)

    def fake_build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
        _fake_wheel(Path(wheel_directory) / "celltrain-0.1.0-py3-none-any.whl", "[console_scripts]\ncelltrain=a:b\n")
        return "celltrain-0.1.0-py3-none-any.whl"

    monkeypatch.setattr(backend._maturin, "build_wheel", fake_build_wheel)
    monkeypatch.setattr(backend.native_command, "build", lambda: binary)
    name = backend.build_wheel(str(tmp_path))
    with zipfile.ZipFile(tmp_path / name) as z:
        assert z.read(SCRIPT) == b"bin"


def test_cargo_messages_name_the_executable(backend):
    messages = "\n".join(
        [
            '{"reason":"compiler-artifact","target":{"name":"celltrain_cli","kind":["lib"]},"executable":null}',
            "not json",
            '{"reason":"compiler-artifact","target":{"name":"celltrain","kind":["bin"]},"executable":"/t/release/celltrain"}',
            '{"reason":"build-finished","success":true}',
        ]
    )
    assert backend.native_command._executable(messages) == Path("/t/release/celltrain")
    assert backend.native_command._executable('{"reason":"build-finished"}') is None


@pytest.mark.skipif(sys.platform == "win32", reason="a shell script stands in for cargo")
def test_a_command_that_cannot_be_built_keeps_the_console_script_and_says_why(monkeypatch, tmp_path, capsys):
    monkeypatch.syspath_prepend(str(ROOT / "packaging"))
    nc = importlib.import_module("native_command")
    monkeypatch.delenv("CELLTRAIN_NATIVE", raising=False)
    failing = tmp_path / "cargo"
    failing.write_text("#!/bin/sh\necho 'error: could not compile' >&2\nexit 101\n")
    failing.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert nc.build() is None
    assert "console script (cargo rustc exited 101)" in capsys.readouterr().err


def _recording_cargo(tmp_path, fail_static):
    """A stand-in for cargo that writes its arguments to a file, one run a line, and names an
    executable as cargo's JSON messages do; if `fail_static`, a run with flags for rustc fails.
    Returns the file of arguments."""
    log = tmp_path / "cargo-args"
    cargo = tmp_path / "cargo"
    fail = 'case " $* " in *" -- "*) echo "error: linking with cc failed" >&2; exit 101;; esac\n' if fail_static else ""
    cargo.write_text(
        "#!/bin/sh\n"
        f'echo "$*" >> "{log}"\n'
        + fail
        + """echo '{"reason":"compiler-artifact","target":{"name":"celltrain"},"executable":"/t/release/celltrain"}'\n"""
    )
    cargo.chmod(0o755)
    return log


@pytest.mark.skipif(sys.platform == "win32", reason="a shell script stands in for cargo")
@pytest.mark.parametrize("fail_static", [False, True])
def test_the_command_is_linked_statically_where_it_can_be_else_dynamically(monkeypatch, tmp_path, capsys, fail_static):
    monkeypatch.syspath_prepend(str(ROOT / "packaging"))
    nc = importlib.import_module("native_command")
    monkeypatch.delenv("CELLTRAIN_NATIVE", raising=False)
    monkeypatch.setattr(nc, "static_link_flags", lambda: ["-C", "target-feature=+crt-static"])
    log = _recording_cargo(tmp_path, fail_static)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert nc.build() == Path("/t/release/celltrain")
    runs = log.read_text().splitlines()
    assert runs[0].startswith("rustc --release -p celltrain-cli --bin celltrain ")
    assert runs[0].endswith(" -- -C target-feature=+crt-static"), "the flags reach the binary's crate alone"
    err = capsys.readouterr().err
    if fail_static:
        assert len(runs) == 2 and " -- " not in runs[1]
        assert "could not be linked statically (cargo rustc exited 101)" in err
    else:
        assert len(runs) == 1 and err.count("note:") == 0


def test_static_linking_is_asked_on_linux_with_glibc_alone(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "packaging"))
    nc = importlib.import_module("native_command")
    monkeypatch.delenv("CELLTRAIN_STATIC", raising=False)
    monkeypatch.setattr(nc.sys, "platform", "linux")
    monkeypatch.setattr(nc.platform, "libc_ver", lambda: ("glibc", "2.36"))
    assert nc.static_link_flags() == ["-C", "target-feature=+crt-static"]
    monkeypatch.setenv("CELLTRAIN_STATIC", "0")
    assert nc.static_link_flags() == []
    monkeypatch.delenv("CELLTRAIN_STATIC")
    monkeypatch.setattr(nc.platform, "libc_ver", lambda: ("", ""))  # musl: static already
    assert nc.static_link_flags() == []
    monkeypatch.setattr(nc.sys, "platform", "darwin")
    monkeypatch.setattr(nc.platform, "libc_ver", lambda: ("glibc", "2.36"))
    assert nc.static_link_flags() == []


def test_celltrain_native_0_keeps_the_console_script_without_running_cargo(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "packaging"))
    nc = importlib.import_module("native_command")
    monkeypatch.setenv("CELLTRAIN_NATIVE", "0")

    def no_run(*args, **kwargs):
        raise AssertionError("cargo is not run with CELLTRAIN_NATIVE=0")

    monkeypatch.setattr(nc.subprocess, "run", no_run)
    assert nc.build() is None


def test_a_failed_rewrite_leaves_maturin_s_wheel_and_no_partial_file(backend, tmp_path):
    wheel = _fake_wheel(tmp_path / "celltrain-0.1.0-py3-none-any.whl", "[console_scripts]\ncelltrain=a:b\n")
    before = wheel.read_bytes()
    with pytest.raises(FileNotFoundError):
        backend.native_command.ship(wheel, tmp_path / "no-binary")
    assert wheel.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [wheel.name]
