"""Results a user can trust from Python: undefined numbers reported as such with a warning,
ignored keys warned about, and Ctrl-C stopping a run promptly with nothing half-written."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import celltrain
from celltrain import plot

TRUST = Path(__file__).parents[1] / "trust"


def test_fairness_of_flows_that_delivered_nothing_is_none_with_a_warning():
    with pytest.warns(RuntimeWarning, match="no flow delivered anything"):
        r = celltrain.run(TRUST / "nothing-delivered.toml")
    assert r.aggregate["fairness_index"] is None
    assert any("fairness index is undefined" in w for w in r.summary["warnings"])


def test_check_warns_about_switch_keys_packet_mode_ignores():
    with pytest.warns(RuntimeWarning) as caught:
        celltrain.check(TRUST / "packet-mode-epd.toml")
    messages = [str(w.message) for w in caught]
    assert any(":11: switch[1].discard: ignored in packet mode" in m for m in messages), messages
    assert any(":13: switch[1].queueing: ignored in packet mode" in m for m in messages), messages


_MAIN_THREAD = """
import sys, celltrain
print("started", flush=True)
celltrain.run(sys.argv[1], out=sys.argv[2])
"""

_OTHER_THREAD = """
import sys, threading, celltrain
t = threading.Thread(target=celltrain.run, args=(sys.argv[1],), kwargs={"out": sys.argv[2]})
t.start()
print("started", flush=True)
t.join()
"""


def _interrupt(args, out: Path):
    """Starts `args`, sends SIGINT once the run is under way; returns (exit code, seconds to
    exit after the signal, stderr)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    # The capture is written in the run's staging directory until the run completes.
    capture = out / f".celltrain-staging-{proc.pid}" / "h1.pcap"
    deadline = time.monotonic() + 60
    while not capture.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.02)
    time.sleep(0.3)
    assert proc.poll() is None and capture.exists(), "the run is under way"
    proc.send_signal(signal.SIGINT)
    signalled = time.monotonic()
    try:
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    return proc.returncode, time.monotonic() - signalled, err


@pytest.mark.parametrize("code", [_MAIN_THREAD, _OTHER_THREAD], ids=["main-thread", "other-thread"])
@pytest.mark.serial
def test_sigint_stops_a_python_run_promptly_and_leaves_nothing(tmp_path, code):
    out = tmp_path / "out"
    rc, seconds, err = _interrupt([sys.executable, "-c", code, str(TRUST / "long-capture.toml"), str(out)], out)
    assert "KeyboardInterrupt" in err, err
    assert rc != 0
    assert seconds < 1.0, f"took {seconds:.2f} s to stop"
    assert not out.exists() or list(out.iterdir()) == [], list(out.iterdir())


@pytest.mark.serial
def test_sigint_stops_the_console_script_with_exit_code_130(tmp_path):
    out = tmp_path / "out"
    args = [sys.executable, "-m", "celltrain", "run", str(TRUST / "long-capture.toml"), "--quiet", "--out", str(out)]
    rc, seconds, err = _interrupt(args, out)
    assert rc == 130, err
    assert seconds < 1.0, f"took {seconds:.2f} s to stop"
    assert "interrupted" in err
    assert not out.exists() or list(out.iterdir()) == []


@pytest.mark.parametrize("scenario", ["nothing-delivered.toml", "packet-mode-epd.toml"])
def test_csv_tables_have_the_dataframes_columns(tmp_path, scenario):
    with pytest.warns(RuntimeWarning):
        r = celltrain.run(TRUST / scenario, out=tmp_path)
    for table in ("flows", "vcs", "ports"):
        header = (tmp_path / f"{table}.csv").read_text().splitlines()[0].split(",")
        frame = getattr(r, table)
        if len(frame):
            assert header == list(frame.columns), table
    if r.summary["mode"] == "packet":
        ports = r.ports.set_index("name")
        assert ports.loc["sw1->h2", "policy"] == "tail-drop"
        assert ports.loc["sw1->h2", "packets_out"] > 100


def test_papers_are_named_by_authors_year_and_title_with_a_short_id(cli):
    papers = {p["id"]: p for p in celltrain.papers()}
    assert papers["AD97"]["authors"] == "M. Aron, P. Druschel" and papers["AD97"]["year"] == "1997"
    assert "End-to-End TCP Congestion Control over ATM Networks" in papers["AD97"]["citation"]
    assert all("seed" not in pid.lower() and not pid.isdigit() for pid in papers)
    by_name = {s["name"]: s for s in celltrain.scenarios()}
    assert by_name["T1"]["paper"] == "AD97" and by_name["E1-mux"]["paper"] == "LRP97"
    listed = cli("list")
    assert listed.returncode == 0
    assert "AD97       M. Aron, P. Druschel (1997), End-to-End TCP Congestion Control" in listed.stdout
    assert "seed" not in listed.stdout.lower()
    from celltrain.reproduce.specs import select

    assert select("AD97") == select("ad97") == select("T")


def test_run_reports_progress_to_a_python_callback():
    seen = []
    celltrain.run("E1-mux", params={"duration": "40 s", "warmup": "0.5 s"}, progress=lambda f, t: seen.append((f, t)))
    assert seen, "called at least at the end"
    assert seen[-1] == (1.0, 40.0)
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and all(0.0 <= f <= 1.0 for f in fractions)


def test_an_exception_in_the_progress_callback_stops_the_run(tmp_path):
    class Stop(Exception):
        pass

    def stop(fraction, sim_s):
        raise Stop()

    with pytest.raises(Stop):
        celltrain.run(TRUST / "long-capture.toml", out=tmp_path / "out", progress=stop)
    assert list((tmp_path / "out").iterdir()) == []


def test_run_shows_a_tqdm_bar(capsys):
    celltrain.run("E1-mux", params={"duration": "2 s", "warmup": "0.5 s"}, progress=True)
    assert "100%" in capsys.readouterr().err


def test_sweep_reports_progress_to_a_python_callback():
    seen = []
    celltrain.sweep("E1-mux", grid={"n_nrt": [4, 5]}, jobs=1, progress=lambda done, total: seen.append((done, total)),
                    params={"duration": "1 s", "warmup": "0.5 s"})  # fmt: skip
    assert seen == [(1, 2), (2, 2)]


def test_time_series_in_long_form_feed_the_plot_helpers():
    text = (TRUST.parents[0] / "good-minimal.toml").read_text() + '\n[record]\ninterval = "10 ms"\nports = ["h1->sw1", "sw1->h2"]\n'
    r = celltrain.run(text)
    long = r.timeseries_long
    assert list(long.columns) == ["time_s", "subject", "quantity", "value"]
    assert set(long["subject"]) == {"h1->sw1", "sw1->h2"} and set(long["quantity"]) == {"queue_cells"}
    assert len(long) == 2 * len(r.timeseries)
    one = long[long["subject"] == "h1->sw1"]
    assert list(one["value"]) == list(r.timeseries["h1->sw1.queue_cells"])
    fig = plot.timeseries(long[long["quantity"] == "queue_cells"], "value", by="subject", step=True)
    assert len(fig.axes[0].lines) == 2


def test_dotted_overrides_from_python_and_in_sweep_grids():
    with pytest.warns(RuntimeWarning, match="ignored in packet mode"):
        r = celltrain.run("A4", params={"duration": "0.2 s", "warmup": "0.05 s", "simulation.mode": "packet"})
    assert r.summary["mode"] == "packet"
    assert r.params["simulation.mode"] == "packet"
    s = celltrain.sweep(
        "A4", grid={"switch.sw1.buffer": ["8192 cells", "2000 cells"]}, jobs=1, progress=False,
        params={"duration": "0.2 s", "warmup": "0.05 s"},
    )  # fmt: skip
    agg = s.aggregate
    assert list(agg["switch.sw1.buffer_cells"]) == [2000, 8192]
    assert s.summaries[0]["params"]["switch.sw1.buffer"] == "2000 cells"
    assert agg["trace_hash"].nunique() == 2, "the override changed the runs"


def test_a_sweep_in_a_batch_log_prints_progress_lines():
    env = dict(os.environ, CELLTRAIN_PROGRESS_SECONDS="0.000001")
    args = [sys.executable, "-m", "celltrain", "sweep", "E1-mux", "--grid", "n_nrt=3,4,5", "--set", "duration=1 s",
            "--set", "warmup=0.5 s", "--jobs", "1"]  # fmt: skip
    done = subprocess.run(args, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    lines = [l for l in done.stderr.splitlines() if l.startswith("sweep: ")]
    assert lines and lines[0].startswith("sweep: 1/3 runs"), done.stderr
