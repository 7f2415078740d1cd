"""Ctrl-C in a sweep on a thread pool or on Dask: it stops within seconds (its running
simulations stopped, not waited for) and keeps the points that finished."""

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from test_hardening import _wait_for

# Each test here times how soon Ctrl-C or a cancel stops a sweep: see the `serial` marker.
pytestmark = pytest.mark.serial

# Three A4 points on two workers: the 0.05 s one finishes at once, the 60 s ones run for
# minutes (the 61 s one starts when the short one ends).
THREAD_SWEEP = textwrap.dedent(
    """
    import sys, threading, concurrent.futures as cf, celltrain
    with cf.ThreadPoolExecutor(2) as pool:
        try:
            celltrain.sweep("A4", grid={"duration": sys.argv[2].split(",")}, store=sys.argv[1],
                            executor=pool, progress=False, params={"warmup": "0.01 s"})
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr, flush=True)
            raise
    """
)


def _stored(store: Path) -> int:
    return len(list((store / "points").glob("*.json")))


def _interrupt_after_first_point(cmd, store: Path, settle_s: float = 1.0):
    """Starts ``cmd``, sends it SIGINT once a point is stored and the others are running;
    returns (seconds from the signal to the exit, exit code, stderr)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert _wait_for(lambda: _stored(store) >= 1, 120), "nothing finished"
        time.sleep(settle_s)  # the long points are running
        started = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=60)
        return time.monotonic() - started, proc.returncode, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def test_ctrl_c_stops_a_thread_pool_sweep_promptly(tmp_path):
    store = tmp_path / "store"
    took, code, err = _interrupt_after_first_point(
        [sys.executable, "-c", THREAD_SWEEP, str(store), "0.05 s,60 s,61 s"], store
    )
    assert took < 5, f"the sweep waited {took:.1f} s for its running points: {err}"
    assert code != 0 and "interrupted" in err, err
    assert _stored(store) == 1, "the finished point was not kept (or a stopped one was stored)"


def test_a_cancelled_token_stops_runs_on_threads():
    import concurrent.futures as cf

    from celltrain import _celltrain

    token = _celltrain.RunCancel()
    with cf.ThreadPoolExecutor(1) as pool:
        fut = pool.submit(_celltrain.run_json, "A4", [("duration", "60 s")], None, False, token)
        time.sleep(0.5)
        started = time.monotonic()
        token.cancel()
        with pytest.raises(KeyboardInterrupt):
            fut.result(timeout=10)
        assert time.monotonic() - started < 1.0, "the run did not stop within a second"
    assert token.cancelled
    # A cancelled token refuses to start a run; a run without it goes on.
    with pytest.raises(KeyboardInterrupt):
        _celltrain.run_json("A4", [("duration", "0.05 s")], None, False, token)
    assert '"scenario"' in _celltrain.run_json("A4", [("duration", "0.05 s"), ("warmup", "0.01 s")])


def test_ctrl_c_stops_a_dask_sweep_promptly(tmp_path):
    pytest.importorskip("distributed")
    store = tmp_path / "store"
    cmd = [
        sys.executable, "-m", "celltrain", "sweep", "A4", "--grid", "duration=0.05 s,60 s,61 s",
        "--set", "warmup=0.01 s", "--store", str(store), "--dask", "local", "--jobs", "2", "--quiet",
    ]
    took, code, err = _interrupt_after_first_point(cmd, store, settle_s=2.0)
    assert took < 10, f"the Dask sweep waited {took:.1f} s: {err}"
    assert code == 130, err
    assert "Traceback" not in err, err
    assert _stored(store) == 1, "the finished point was not kept"


DASK_API_SWEEP = textwrap.dedent(
    """
    import sys, threading, _thread, time, celltrain
    from pathlib import Path
    from distributed import Client, LocalCluster
    store = Path(sys.argv[1])
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    def interrupt_when_a_point_is_stored():
        while not list((store / "points").glob("*.json")):
            time.sleep(0.05)
        time.sleep(2.0)  # the long points are running
        _thread.interrupt_main()  # Ctrl-C
    threading.Thread(target=interrupt_when_a_point_is_stored, daemon=True).start()
    try:
        celltrain.sweep("A4", grid={"duration": ["0.05 s", "60 s", "61 s"]}, store=store,
                        executor=client, progress=False, params={"warmup": "0.01 s"})
    except KeyboardInterrupt:
        pass
    # The interrupted sweep's tasks are cancelled: the scheduler forgets them.
    deadline = time.monotonic() + 10
    left = -1
    while time.monotonic() < deadline:
        left = client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))
        if left == 0:
            break
        time.sleep(0.1)
    print("tasks left", left, flush=True)
    client.close()
    cluster.close(timeout=5)
    """
)


def test_ctrl_c_in_a_dask_sweep_from_python_cancels_its_tasks(tmp_path):
    pytest.importorskip("distributed")
    store = tmp_path / "store"
    proc = subprocess.run(
        [sys.executable, "-c", DASK_API_SWEEP, str(store)], capture_output=True, text=True, timeout=180
    )
    assert "tasks left 0" in proc.stdout, proc.stdout + proc.stderr
    assert _stored(store) == 1, "the finished point was not kept"
