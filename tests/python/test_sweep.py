"""Sweeps: parallel engines agree, the store resumes and never reuses a bad result."""

import hashlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import types
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd
import pytest

import celltrain
from celltrain._sweep import grid_points, parse_grid, parse_range
from conftest import SHORT

GRID = {"n_sources": [2, 3, 4]}
SEEDS = [1, 2]
# Jittered starts make seeds matter, so equal results are a real check.
PARAMS = {**SHORT, "start_jitter": "1 ms"}


def comparable(df: pd.DataFrame) -> pd.DataFrame:
    """A table without the columns that legitimately differ between runs (wall time)."""
    return df.drop(columns=[c for c in ("wall_s",) if c in df.columns]).reset_index(drop=True)


def assert_same(a: celltrain.SweepResult, b: celltrain.SweepResult) -> None:
    for name in ("flows", "aggregate", "vcs", "ports", "categories"):
        pd.testing.assert_frame_equal(comparable(getattr(a, name)), comparable(getattr(b, name)), obj=name)


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    store = tmp_path_factory.mktemp("serial")
    return celltrain.sweep("A5-udp", grid=GRID, seeds=SEEDS, store=store, jobs=1, progress=False, params=PARAMS)


def test_grid_and_cli_syntax():
    assert grid_points({"a": [1, 2], "b": ["x", "y"]}) == [
        {"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {"a": 2, "b": "x"}, {"a": 2, "b": "y"},
    ]  # fmt: skip
    assert grid_points(None) == [{}]
    with pytest.raises(ValueError):
        grid_points({"a": []})
    with pytest.raises(ValueError):
        grid_points({"a": [5, "5"]})  # the same point twice
    with pytest.raises(TypeError):
        grid_points({"a": "5,10"})
    assert parse_range("1..3") == [1, 2, 3]
    assert parse_range("5..20:5") == [5, 10, 15, 20]
    assert parse_range("5,10, 15") == [5, 10, 15]
    assert parse_range("0 s,1 ms") == ["0 s", "1 ms"]
    assert parse_range("0.5,2") == [0.5, 2]
    assert parse_grid(["n_sources=5,10", "start_jitter=0 s,1 ms"]) == {
        "n_sources": [5, 10], "start_jitter": ["0 s", "1 ms"],
    }  # fmt: skip


def test_sweep_tables(serial):
    s = serial
    assert s.params == ["n_sources"]
    agg = s.aggregate
    assert len(agg) == 6 and list(agg["n_sources"]) == [2, 2, 3, 3, 4, 4] and list(agg["seed"]) == [1, 2] * 3
    assert agg["n_sources"].dtype == "int64" and agg["seed"].dtype == "int64"
    assert list(agg.columns[:3]) == ["scenario", "n_sources", "seed"]
    for col in ("goodput_bps", "efficiency", "fairness_index", "mean_plr", "mean_clr", "trace_hash", "key"):
        assert col in agg.columns
    assert agg["efficiency"].dtype == "float64" and agg["events"].dtype == "int64"
    flows = s.flows
    assert len(flows) == 2 * (2 + 3 + 4)  # one row per point × seed × flow
    assert list(flows.columns[:4]) == ["scenario", "n_sources", "seed", "name"]
    per_run = flows.groupby(["n_sources", "seed"])["goodput_bps"].sum().to_numpy()
    assert per_run == pytest.approx(agg["goodput_bps"].to_numpy())
    assert len(s.summaries) == 6 and s.summaries[0]["params"]["n_sources"] == 2
    # The seeds really differ (jittered starts), so the equality tests below mean something.
    assert agg["trace_hash"].nunique() == 6
    assert s.stats["computed"] == 6 and s.stats["reused"] == 0


def test_parallel_engines_give_identical_results(serial, tmp_path):
    two = celltrain.sweep("A5-udp", grid=GRID, seeds=SEEDS, store=tmp_path / "two", jobs=2, progress=False, params=PARAMS)
    assert_same(serial, two)
    with ThreadPoolExecutor(2) as pool:
        threads = celltrain.sweep("A5-udp", grid=GRID, seeds=SEEDS, executor=pool, progress=False, params=PARAMS)
    assert_same(serial, threads)
    assert threads.store is None


def test_dask_local_cluster_gives_identical_results(serial):
    distributed = pytest.importorskip("distributed", reason="Dask's `distributed` is not installed")
    # Worker processes, as on a real cluster: the runs and their results cross process boundaries.
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        on_dask = celltrain.sweep("A5-udp", grid=GRID, seeds=SEEDS, executor=client, progress=False, params=PARAMS)
        workers = client.run(os.getpid)
    assert len(set(workers.values())) == 2 and os.getpid() not in workers.values()
    assert_same(serial, on_dask)  # aggregate (but wall time), flows, vcs, ports, categories


def test_rerun_reuses_and_load_reads_the_store(serial, tmp_path):
    again = celltrain.sweep("A5-udp", grid=GRID, seeds=SEEDS, store=serial.store, jobs=2, progress=False, params=PARAMS)
    assert again.stats["reused"] == 6 and again.stats["computed"] == 0
    assert_same(serial, again)
    loaded = celltrain.load(serial.store)
    assert_same(serial, loaded)
    pd.testing.assert_frame_equal(serial.aggregate, loaded.aggregate)  # wall time included: same records
    # A bigger grid over the same store runs only the new points.
    more = celltrain.sweep(
        "A5-udp", grid={"n_sources": [2, 3, 4, 5]}, seeds=SEEDS, store=tmp_path / "more", jobs=1, progress=False, params=PARAMS
    )
    assert more.stats["computed"] == 8
    import shutil

    shutil.copytree(serial.store, tmp_path / "grow")
    grown = celltrain.sweep(
        "A5-udp", grid={"n_sources": [2, 3, 4, 5]}, seeds=SEEDS, store=tmp_path / "grow", jobs=1, progress=False, params=PARAMS
    )
    assert grown.stats == {**grown.stats, "reused": 6, "computed": 2}
    assert_same(more, grown)


def test_parquet_export(serial, tmp_path):
    paths = serial.to_parquet(tmp_path / "tables")
    assert set(paths) == {"flows", "aggregate", "vcs", "ports", "categories"}
    flows = pd.read_parquet(paths["flows"])
    pd.testing.assert_frame_equal(
        comparable(flows), comparable(serial.flows), check_dtype=False, check_categorical=False
    )
    agg = pd.read_parquet(paths["aggregate"])
    assert list(agg["n_sources"]) == list(serial.aggregate["n_sources"])
    assert agg["efficiency"].tolist() == serial.aggregate["efficiency"].tolist()


def _records(store: Path):
    return sorted(store.joinpath("points").glob("*.json"))


def test_corrupted_truncated_and_misplaced_records_are_recomputed(serial, tmp_path):
    import shutil

    store = tmp_path / "store"
    shutil.copytree(serial.store, store)
    files = _records(store)
    assert len(files) == 6
    # 1. truncated (a half-written file, as a crash without atomic writes would leave)
    data = files[0].read_bytes()
    files[0].write_bytes(data[: len(data) // 2])
    # 2. valid JSON, one digit of a measure changed: only the checksum can tell
    rec = json.loads(files[1].read_text())
    rec["summary"]["aggregate"]["goodput_bps"] += 1.0
    files[1].write_text(json.dumps(rec, sort_keys=True, indent=1))
    # 3. a valid record stored under another point's key
    shutil.copyfile(files[3], files[2])
    # 4. a valid record whose identity was edited and re-checksummed (key no longer matches)
    from celltrain._store import _checksum

    rec = json.loads(files[4].read_text())
    rec["identity"]["seed"] = 99
    rec["checksum"] = _checksum(rec)
    files[4].write_text(json.dumps(rec, sort_keys=True, indent=1))
    # 5. a temporary file left by a dead process
    (store / "points" / ".junk.json.nohost.999999999.tmp").write_text("{")

    with pytest.warns(RuntimeWarning, match="invalid"):
        loaded = celltrain.load(store)
    assert len(loaded.aggregate) == 2 and len(loaded.stats["problems"]) == 4
    with pytest.raises(ValueError):
        celltrain.load(store, strict=True)

    with pytest.warns(RuntimeWarning, match="4 stored result"):
        fixed = celltrain.sweep("A5-udp", grid=GRID, seeds=SEEDS, store=store, jobs=1, progress=False, params=PARAMS)
    assert fixed.stats["recomputed"] == 4 and fixed.stats["computed"] == 4 and fixed.stats["reused"] == 2
    reasons = " ".join(why for _p, why in fixed.stats["problems"])
    assert "truncated" in reasons and "checksum" in reasons and "key mismatch" in reasons
    assert_same(serial, fixed)
    assert len(_records(store)) == 6
    clean = celltrain.load(store, strict=True)
    assert_same(serial, clean)


def test_a_changed_scenario_file_gets_new_keys(tmp_path):
    path = tmp_path / "a4.toml"
    path.write_text(celltrain.show("A4"))
    store = tmp_path / "store"
    first = celltrain.sweep(str(path), grid={"n_sources": [2]}, store=store, jobs=1, progress=False, params=SHORT)
    same = celltrain.sweep(str(path), grid={"n_sources": [2]}, store=store, jobs=1, progress=False, params=SHORT)
    assert same.stats["reused"] == 1
    path.write_text(path.read_text().replace('buffer = "8192 cells"', 'buffer = "4096 cells"'))
    changed = celltrain.sweep(str(path), grid={"n_sources": [2]}, store=store, jobs=1, progress=False, params=SHORT)
    assert changed.stats["computed"] == 1
    assert changed.aggregate["key"][0] != first.aggregate["key"][0]
    # The built-in of the same text shares the key: the key is the content, not the name.
    builtin = celltrain.sweep("A4", grid={"n_sources": [2]}, store=store, jobs=1, progress=False, params=SHORT)
    assert builtin.stats["reused"] == 1
    assert len(celltrain.load(store).aggregate) == 2


def test_bad_points_fail_before_anything_runs(tmp_path):
    with pytest.raises(celltrain.ScenarioError) as info:
        celltrain.sweep("A4", grid={"n_sources": [2, 3], "no_such": [1]}, store=tmp_path / "s", progress=False)
    assert info.value.key is not None
    assert not _records(tmp_path / "s") if (tmp_path / "s").exists() else True


SWEEP_SCRIPT = textwrap.dedent(
    """
    import sys, celltrain
    celltrain.sweep("A5-udp", grid={"n_sources": [2, 3, 4, 5, 6, 7]}, seeds=[1, 2], store=sys.argv[1],
                    jobs=int(sys.argv[2]), progress=False, params=%r)
    print("finished")
    """
    % (PARAMS,)
)


def _start(store: Path, jobs: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", SWEEP_SCRIPT, str(store), str(jobs)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: the kill takes its workers too
    )


def _kill_when(proc: subprocess.Popen, store: Path, at_least: int, timeout: float = 60.0) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        if len(_records(store)) >= at_least:
            break
        time.sleep(0.005)
    assert proc.poll() is None, "the sweep finished before it could be killed: " + proc.communicate()[1]
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    return len(_records(store))


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_sigkill_mid_sweep_resumes_with_nothing_lost_or_duplicated(tmp_path, jobs):
    store = tmp_path / "store"
    total = 12
    done_1 = _kill_when(_start(store, jobs), store, at_least=2)
    assert 2 <= done_1 < total
    done_2 = _kill_when(_start(store, jobs), store, at_least=done_1 + 2)
    assert done_1 + 2 <= done_2 < total
    # Every record on disk is complete and valid (atomic writes), whatever the kill hit.
    for path in _records(store):
        rec = json.loads(path.read_text())
        assert path.name == rec["key"] + ".json"
    resumed = celltrain.sweep(
        "A5-udp", grid={"n_sources": [2, 3, 4, 5, 6, 7]}, seeds=[1, 2], store=store, jobs=jobs, progress=False, params=PARAMS
    )
    assert resumed.stats["reused"] == done_2
    assert resumed.stats["computed"] == total - done_2
    assert resumed.stats["recomputed"] == 0
    assert len(_records(store)) == total
    assert not list((store / "points").glob(".*.tmp")), "temporaries of the killed runs are cleaned up"
    # Every point exactly once, equal to an uninterrupted run.
    assert resumed.aggregate.groupby(["n_sources", "seed"]).size().eq(1).all()
    assert len(resumed.aggregate) == total
    whole = celltrain.sweep(
        "A5-udp", grid={"n_sources": [2, 3, 4, 5, 6, 7]}, seeds=[1, 2], jobs=2, progress=False, params=PARAMS
    )
    assert_same(whole, resumed)
    assert_same(whole, celltrain.load(store, strict=True))


def test_cli_sweep(tmp_path, cli):
    store = tmp_path / "store"
    args = ["sweep", "A5-udp", "--grid", "n_sources=2,3", "--seeds", "1..2", "--store", str(store),
            "--set", "duration=0.3 s", "--set", "warmup=0.1 s", "--set", "start_jitter=1 ms", "--jobs", "2"]  # fmt: skip
    res = cli(*args)
    assert res.returncode == 0, res.stderr
    assert "4 runs: 0 reused from the store, 4 computed" in res.stdout
    assert "n_sources" in res.stdout and "fairness_index" in res.stdout
    assert (store / "tables" / "aggregate.parquet").exists() and (store / "tables" / "flows.parquet").exists()
    again = cli(*args)
    assert "4 runs: 4 reused from the store, 0 computed" in again.stdout
    api = celltrain.sweep(
        "A5-udp", grid={"n_sources": [2, 3]}, seeds=[1, 2], jobs=1, progress=False, params=PARAMS
    )
    assert_same(api, celltrain.load(store))
    flows = pd.read_parquet(store / "tables" / "flows.parquet")
    assert len(flows) == 2 * (2 + 3)

    bad = cli("sweep", "A4", "--grid", "nope=1,2", "--store", str(tmp_path / "bad"))
    assert bad.returncode == 2 and bad.stderr.startswith("error: ") and len(bad.stderr.strip().splitlines()) == 1
    bad = cli("sweep", "A4", "--grid", "n_sources")
    assert bad.returncode == 2 and "NAME=" in bad.stderr


def test_cli_sweep_on_dask_local(tmp_path, cli):
    pytest.importorskip("distributed")
    res = cli("sweep", "A4", "--grid", "n_sources=2,3", "--set", "duration=0.3 s", "--set", "warmup=0.1 s",
              "--dask", "local", "--jobs", "1", "--quiet")  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "2 runs: 0 reused from the store, 2 computed" in res.stderr


def test_load_tells_apart_the_results_of_two_scenario_texts(tmp_path):
    path = tmp_path / "a4.toml"
    text = celltrain.show("A4")
    path.write_text(text)
    store = tmp_path / "store"
    old = celltrain.sweep(str(path), grid={"n_sources": [2, 3]}, store=store, jobs=1, progress=False, params=SHORT)
    sha_old = hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert list(old.aggregate["scenario_sha256"]) == [sha_old[:12]] * 2
    assert list(old.aggregate["version"]) == [celltrain.__version__] * 2
    # An edit that leaves the parameters as they were: the same point and seed, a new key.
    path.write_text(text.replace('title = "', 'title = "edited: ', 1))
    new = celltrain.sweep(str(path), grid={"n_sources": [2]}, store=store, jobs=1, progress=False, params=SHORT)
    sha_new = new.aggregate["scenario_sha256"][0]
    assert sha_new != sha_old[:12] and len(sha_new) == 12

    with pytest.warns(RuntimeWarning, match=r"1 point\(s\) have results of more than one scenario text") as caught:
        both = celltrain.load(store)
    assert sha_old[:12] in str(caught[0].message) and sha_new in str(caught[0].message)
    assert both.stats["conflicts"] == 1 and both.stats["filtered"] == 0
    agg = both.aggregate
    assert list(agg["n_sources"]) == [2, 2, 3] and list(agg["seed"]) == [1, 1, 1]  # as if seed 1 ran twice
    assert sorted(agg["scenario_sha256"]) == sorted([sha_old[:12], sha_old[:12], sha_new])

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no conflict left
        latest = celltrain.load(store, latest=True)
        older = celltrain.load(store, scenario=sha_old[:8])
        exact = celltrain.load(store, scenario=sha_new.upper())
    assert list(latest.aggregate["scenario_sha256"]) == [sha_new] and latest.stats["filtered"] == 2
    assert latest.summaries[0]["title"].startswith("edited: ")
    assert_same(new, latest)
    assert_same(old, older)
    pd.testing.assert_frame_equal(exact.aggregate, latest.aggregate)
    with pytest.warns(RuntimeWarning, match="more than one scenario text"):
        assert len(celltrain.load(store, version=celltrain.__version__).aggregate) == 3
    with pytest.raises(ValueError, match=f"no record of scenario '0000'.*{sha_new}"):
        celltrain.load(store, scenario="0000")
    with pytest.raises(ValueError, match="no record of version '0.0.0'"):
        celltrain.load(store, version="0.0.0")


class _Bar:
    """Stands for tqdm.auto.tqdm: records the bars a sweep makes."""

    made: list = []

    def __init__(self, **kwargs):
        self.kwargs, self.n, self.closed = kwargs, kwargs.get("initial", 0), False
        _Bar.made.append(self)

    def update(self, n):
        self.n += n

    def close(self):
        self.closed = True


def test_progress_bar_only_when_someone_watches(monkeypatch):
    import io

    import tqdm.auto

    from celltrain import _sweep

    monkeypatch.setattr(tqdm.auto, "tqdm", _Bar)
    monkeypatch.setattr(_Bar, "made", [])
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # not a terminal
    monkeypatch.delitem(sys.modules, "IPython", raising=False)
    args = dict(grid={"n_sources": [2, 3]}, jobs=1, params=SHORT)
    assert not _sweep.interactive()
    celltrain.sweep("A4", **args)
    assert _Bar.made == []
    # A Jupyter kernel: the bar is tqdm.auto's (a widget, or text without ipywidgets).
    shell = types.SimpleNamespace(config={"IPKernelApp": {}})
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))
    assert _sweep.interactive()
    celltrain.sweep("A4", **args)
    assert len(_Bar.made) == 1
    bar = _Bar.made[0]
    assert bar.kwargs["total"] == 2 and bar.n == 2 and bar.closed and bar.kwargs["desc"] == "sweep A4"
    celltrain.sweep("A4", progress=False, **args)
    assert len(_Bar.made) == 1
    shell.config = {"TerminalIPythonApp": {}}  # IPython in a terminal: stderr decides
    assert not _sweep.interactive()


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_cli_sweep_shows_a_progress_bar_on_a_terminal_only():
    import fcntl
    import pty
    import struct
    import termios

    args = [sys.executable, "-m", "celltrain", "sweep", "A4", "--grid", "n_sources=2,3",
            "--set", "duration=0.3 s", "--set", "warmup=0.1 s", "--jobs", "1"]  # fmt: skip
    piped = subprocess.run(args, capture_output=True, text=True)
    assert piped.returncode == 0, piped.stderr
    assert "sweep A4" not in piped.stderr and "run/s" not in piped.stderr
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 100 columns for the bar
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    assert proc.wait(timeout=60) == 0
    text = out.decode("utf-8", errors="replace")
    assert "sweep A4" in text and "2/2" in text, text
