"""The README's setup scripts work where the system Python refuses `pip install` (PEP 668)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# A `python3` that behaves as an externally managed system interpreter: `python3 -m pip
# install` fails as Debian's does; everything else (creating a venv, …) goes to the real one.
# With NO_ENSUREPIP set it also cannot put pip into a new venv (Debian without python3-venv).
FAKE_PYTHON3 = """#!/usr/bin/env bash
args=" $* "
if [[ "$args" == *" -m pip install "* && "$args" != *" --python "* ]]; then
    echo "error: externally-managed-environment" >&2
    exit 1
fi
if [[ -n "${NO_ENSUREPIP:-}" && "$args" == *" -m venv "* && "$args" != *" --without-pip "* ]]; then
    echo "Error: ensurepip is not available" >&2
    exit 1
fi
exec REAL "$@"
"""


@pytest.fixture
def externally_managed(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "python3"
    fake.write_text(FAKE_PYTHON3.replace("REAL", sys.executable))
    fake.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    refused = subprocess.run([str(fake), "-m", "pip", "install", "pytest"], env=env, capture_output=True, text=True)
    assert refused.returncode != 0 and "externally-managed" in refused.stderr
    return env


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("no_ensurepip", [False, True], ids=["venv", "venv-without-pip"])
def test_test_script_sets_up_a_virtual_environment(tmp_path, externally_managed, no_ensurepip):
    env = dict(externally_managed, CELLTRAIN_SETUP_ONLY="1", CELLTRAIN_VENV=str(tmp_path / "venv"))
    if no_ensurepip:
        env["NO_ENSUREPIP"] = "1"
    done = subprocess.run(["bash", "scripts/test.sh"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    py = tmp_path / "venv" / "bin" / "python"
    assert f"python environment ready: {py}" in done.stdout
    inside = subprocess.run(
        [str(py), "-c", "import sys; print(sys.prefix != sys.base_prefix)"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert inside.stdout.strip() == "True", inside.stderr


def test_readme_quick_start_commands_are_the_scripts():
    readme = (ROOT / "README.md").read_text()
    for command in ("bash scripts/quickstart.sh", "bash scripts/test.sh"):
        assert command in readme
    for script in ("quickstart.sh", "test.sh"):
        text = (ROOT / "scripts" / script).read_text()
        assert ". scripts/python-env.sh" in text and "celltrain_python" in text, script
        assert "python3 -m pip install" not in text, f"{script} installs into the system Python"


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize(
    ("args", "message"),
    [([], "name at least one seed"), (["--bogus", "1"], "unknown option --bogus")],
    ids=["no-seed", "unknown-option"],
)
def test_soak_script_refuses_bad_usage_before_building(args, message):
    # (Exit 2 and one line, before cargo is asked for anything.)
    done = subprocess.run(["bash", "scripts/soak.sh", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and done.stdout == ""
