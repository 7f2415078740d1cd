"""The Python commands on bad input and bad luck: one ``error:`` line and an exit code, never
a traceback; workers that never outlive their sweep; wrong argument types named."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import celltrain
from conftest import SHORT, celltrain_cli


def assert_one_error_line(proc: subprocess.CompletedProcess, code: int) -> None:
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr


def test_a_store_that_is_a_file_is_one_error_line_with_exit_2(tmp_path):
    store = tmp_path / "store"
    store.write_text("not a directory")
    proc = celltrain_cli("sweep", "A4", "--store", str(store), "--set", "duration=0.05 s", "--set", "warmup=0.01 s")
    assert_one_error_line(proc, 2)  # bad input, as every other wrong argument
    assert str(store) in proc.stderr and "not a directory" in proc.stderr


def test_bad_sweep_input_is_one_error_line_with_exit_2():
    proc = celltrain_cli("sweep", "A4", "--grid", "n_sourcez=1,2", "--quiet")
    assert_one_error_line(proc, 2)
    proc = celltrain_cli("reproduce", "Z99", "--quick")
    assert_one_error_line(proc, 2)


def test_an_unreachable_dask_scheduler_fails_fast():
    started = time.monotonic()
    proc = celltrain_cli("sweep", "A4", "--dask", "tcp://127.0.0.1:9", "--quiet", timeout=60)
    assert_one_error_line(proc, 1)
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in proc.stderr
    assert time.monotonic() - started < 30, "waited Dask's default 30 s"


def test_a_closed_standard_output_ends_the_sweep_quietly(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "celltrain", "sweep", "A4", "--grid", "n_sources=2,3", "--jobs", "1",
         "--set", "duration=0.05 s", "--set", "warmup=0.01 s"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    proc.stdout.close()  # `| head` that has read enough
    stderr = proc.stderr.read()
    proc.wait(timeout=120)
    assert proc.returncode == 0, stderr
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr, stderr


def test_a_directory_where_a_record_belongs_is_skipped_with_a_warning(tmp_path):
    store = tmp_path / "store"
    first = celltrain.sweep("A4", grid={"n_sources": [2, 3]}, store=store, jobs=1, progress=False, params=SHORT)
    record = sorted((store / "points").glob("*.json"))[0]
    record.unlink()
    record.mkdir()
    with pytest.warns(RuntimeWarning, match="is a directory, not a record"):
        again = celltrain.sweep("A4", grid={"n_sources": [2, 3]}, store=store, jobs=1, progress=False, params=SHORT)
    assert len(again.aggregate) == 2
    assert list(again.aggregate["goodput_bps"]) == list(first.aggregate["goodput_bps"])


def test_wrong_argument_types_name_the_argument():
    with pytest.raises(TypeError, match="params"):
        celltrain.run("A4", params=[("n_sources", 2)])
    with pytest.raises(ValueError, match="seed"):
        celltrain.run("A4", seed=-1)
    with pytest.raises(TypeError, match="seed"):
        celltrain.run("A4", seed=True)
    with pytest.raises(TypeError, match="seed"):
        celltrain.check("A4", seed="1")
    with pytest.raises(TypeError, match="jobs"):
        celltrain.sweep("A4", grid={"n_sources": [2]}, jobs="2", progress=False)
    with pytest.raises(ValueError, match="jobs"):
        celltrain.sweep("A4", grid={"n_sources": [2]}, jobs=0, progress=False)
    with pytest.raises(TypeError, match="grid"):
        celltrain.sweep("A4", grid="n_sources=2,3", progress=False)
    with pytest.raises(TypeError, match="seeds"):
        celltrain.sweep("A4", grid={"n_sources": [2]}, seeds=3, progress=False)
    with pytest.raises(TypeError, match="seeds"):
        celltrain.sweep("A4", grid={"n_sources": [2]}, seeds=[1, True], progress=False)


def test_a_crash_inside_a_command_is_one_line():
    from celltrain._errors import guarded

    class FakePanic(BaseException):  # pyo3's PanicException derives from BaseException
        pass

    def crashing(argv):
        raise FakePanic("called `Option::unwrap()` on a `None` value\nat src/x.rs")

    import io
    from contextlib import redirect_stderr

    err = io.StringIO()
    with redirect_stderr(err):
        assert guarded(crashing, []) == 1
    assert err.getvalue().count("\n") == 1 and err.getvalue().startswith("error: internal error (FakePanic)")


# -- workers never outlive their sweep ------------------------------------------------------

LONG_SWEEP = textwrap.dedent(
    """
    import sys, celltrain
    celltrain.sweep("A4", grid={"duration": sys.argv[2].split(",")}, store=sys.argv[1], jobs=2,
                    progress=False, params={"warmup": "0.01 s"})
    """
)


def _children(pid: int):
    """The pids whose parent is ``pid`` (Linux /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _kill_all(pids) -> None:
    """Cleans up after a failure: no test leaves a 60 s run behind."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _wait_for(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.serial
def test_a_sigkilled_sweep_leaves_no_workers(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-c", LONG_SWEEP, str(tmp_path / "store"), "60 s,61 s"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    workers = []
    try:
        assert _wait_for(lambda: len(_children(proc.pid)) >= 2, 60), "no workers started"
        time.sleep(1.0)  # the workers are inside their 60 s runs
        workers = _children(proc.pid)
        proc.kill()  # the sweep alone (not its process group)
        proc.wait(timeout=10)
        assert _wait_for(lambda: not any(_alive(w) for w in workers), 10), "workers outlived the sweep"
    finally:
        if proc.poll() is None:
            proc.kill()
        _kill_all(workers)
        _kill_all(workers)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.serial
def test_ctrl_c_keeps_the_finished_points_and_stops_promptly(tmp_path):
    store = tmp_path / "store"
    proc = subprocess.Popen(
        [sys.executable, "-c", LONG_SWEEP, str(store), "0.05 s,60 s,61 s"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    workers = []
    try:
        assert _wait_for(lambda: len(list((store / "points").glob("*.json"))) >= 1, 60), "nothing finished"
        time.sleep(1.0)  # the two long points are running
        workers = _children(proc.pid)
        started = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=30)
        assert time.monotonic() - started < 10, "the sweep waited for its running points"
        assert proc.returncode != 0
        assert len(list((store / "points").glob("*.json"))) == 1, "the finished point was not kept"
        assert _wait_for(lambda: not any(_alive(w) for w in workers), 10), "workers outlived the sweep"
    finally:
        if proc.poll() is None:
            proc.kill()
        _kill_all(workers)


def test_sweeps_too_large_to_build_are_refused_first():
    started = time.monotonic()
    with pytest.raises(ValueError, match="too many"):
        celltrain.sweep("A4", grid={"a": range(100_000), "b": range(100_000)}, progress=False)
    with pytest.raises(ValueError, match="too many runs"):
        celltrain.sweep("A4", grid={"n_sources": [2, 3]}, seeds=range(600_000), progress=False)
    assert time.monotonic() - started < 10, "the grid was built before it was refused"
    proc = celltrain_cli("sweep", "A4", "--seeds", "1..100000000", "--quiet")
    assert_one_error_line(proc, 2)
    assert "too many" in proc.stderr


def test_run_out_holds_only_the_last_run(tmp_path):
    toml = (Path(__file__).parents[1] / "good-minimal.toml").read_text().replace('duration = "1 s"', 'duration = "20 ms"')
    captured = toml + '\n[record]\npcap = ["h2"]\ninterval = "1 ms"\n'
    out = tmp_path / "out"
    celltrain.run(captured, out=out)
    assert (out / "h2.pcap").exists() and (out / "timeseries.csv").exists()
    (out / "notes.txt").write_text("the user's own file")
    celltrain.run(toml, out=out)
    assert sorted(p.name for p in out.iterdir()) == [
        ".celltrain-files", "flows.csv", "notes.txt", "ports.csv", "summary.json", "vcs.csv"
    ], "the first run's capture or series survived"
    with pytest.raises(celltrain.ScenarioError):
        celltrain.run(toml.replace('"20 ms"', '"0 s"'), out=out)
    assert not [p for p in out.iterdir() if p.name.startswith(".celltrain-staging-")]
