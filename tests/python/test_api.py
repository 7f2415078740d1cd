"""The Python front and the console script, as a user meets them."""

import json
import shutil
import subprocess
import sys

import pytest

import celltrain

SHORT = {"duration": "0.4 s", "warmup": "0.1 s"}


def test_run_builtin_returns_the_summary():
    s = celltrain.run("A1-udp", params=SHORT)
    assert s["scenario"] == "A1-udp"
    assert s["params"]["duration"] == "0.4 s"
    # Seed 001 Table 5.1: 134.513 Mbit/s, within 0.1 %.
    assert s["aggregate"]["goodput_bps"] == pytest.approx(134.513e6, rel=1e-3)
    assert s["aggregate"]["max_goodput_bps"] == pytest.approx(134.5132e6, rel=1e-6)
    assert [f["name"] for f in s["flows"]] == ["udp1"]
    for port in s["ports"]:
        identity = port["cells_out"] + port["dropped_total"] + port["queued_at_end"] - port["queued_at_start"]
        assert port["cells_in"] == identity, port["name"]


def test_run_from_toml_text_and_seed_determinism(tmp_path):
    from pathlib import Path

    toml = (Path(__file__).parents[1] / "good-minimal.toml").read_text()
    a = celltrain.run(toml, seed=3)
    b = celltrain.run(toml, seed=3)
    assert a["trace_hash"] == b["trace_hash"]
    assert a["flows"][0]["packets_delivered"] > 0


def test_scenario_error_carries_file_line_and_key():
    bad = '[scenario]\nid = "x"\ntitle = "y"\n[simulation]\nduration = "1 parsec"\n'
    with pytest.raises(celltrain.ScenarioError) as info:
        celltrain.run(bad)
    err = info.value
    assert err.file == "<string>"
    assert err.line == 5
    assert err.key == "simulation.duration"
    assert "bad duration" in str(err)
    with pytest.raises(celltrain.ScenarioError):
        celltrain.check("A4", params={"no_such_param": 1})


def test_scenarios_lists_the_builtins():
    names = {s["name"] for s in celltrain.scenarios()}
    assert {"A1-udp", "A4", "A5-udp", "E1-mux"} <= names


def test_console_script(tmp_path):
    exe = shutil.which("celltrain")
    assert exe, "the celltrain console script is installed"
    out = subprocess.run([exe, "list"], capture_output=True, text=True, check=True)
    assert "E1-mux" in out.stdout
    res = subprocess.run(
        [exe, "run", "E1-mux", "--set", "duration=2 s", "--set", "warmup=0.5 s", "--out", str(tmp_path), "--quiet"],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr
    summary = json.loads((tmp_path / "summary.json").read_text())
    cats = {c["category"]: c for c in summary["categories"]}
    assert set(cats) == {"rt-vbr", "nrt-vbr"}
    assert cats["rt-vbr"]["cells_sent"] > 0
    bad = subprocess.run([exe, "run", "A4", "--set", "buffer=-3 cells"], capture_output=True, text=True)
    assert bad.returncode == 2
    assert len(bad.stderr.strip().splitlines()) == 1


def test_python_dash_m():
    out = subprocess.run([sys.executable, "-m", "celltrain", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("celltrain ")
