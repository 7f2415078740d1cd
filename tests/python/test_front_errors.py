"""The Python front on wrong arguments and from other threads: a clear exception naming what is
wrong, or a documented handle, never a silent surprise (issue 39, item 11)."""

import concurrent.futures as cf
import threading
import time

import pytest

import celltrain
from conftest import SHORT


def test_an_empty_out_is_refused_before_anything_is_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match="out must name a directory"):
        celltrain.run("A4", params=SHORT, out="")
    result = celltrain.run("A4", params=SHORT)
    with pytest.raises(ValueError, match="out must name a directory"):
        result.write("")
    assert list(tmp_path.iterdir()) == [], "nothing in the current directory"


def test_an_exception_in_the_last_progress_call_propagates(tmp_path):
    calls = []

    def progress(fraction, sim_s):
        calls.append(fraction)
        if fraction >= 1.0:
            raise RuntimeError("the last call failed")

    out = tmp_path / "out"
    with pytest.raises(RuntimeError, match="the last call failed"):
        celltrain.run("A4", params=SHORT, out=out, progress=progress)
    assert calls and calls[-1] == 1.0
    assert not (out / "summary.json").exists(), "no result from a run whose callback failed"


@pytest.mark.parametrize("progress", [5, "yes", 0.5])
def test_progress_must_be_a_bool_none_or_a_callable(progress):
    with pytest.raises(TypeError, match="progress must be True, False, None or a callable"):
        celltrain.run("A4", params=SHORT, progress=progress)


def test_progress_false_and_none_show_nothing():
    for progress in (False, None):
        assert celltrain.run("A4", params=SHORT, progress=progress).summary["flows"]


def test_loading_a_directory_that_is_not_a_store_raises(tmp_path):
    (tmp_path / "notes.txt").write_text("my own files")
    with pytest.raises(celltrain.StoreError, match="not a celltrain store"):
        celltrain.load(tmp_path)
    (tmp_path / "STORE.json").write_text('{"format": "other/9"}')
    with pytest.raises(celltrain.StoreError, match="store format 'other/9'"):
        celltrain.load(tmp_path)


def test_an_empty_store_loads_empty(tmp_path):
    celltrain.sweep("A4", grid={"n_sources": [2]}, store=tmp_path / "s", jobs=1, progress=False, params=SHORT)
    assert len(celltrain.load(tmp_path / "s").aggregate) == 1


@pytest.mark.parametrize("executor", [5, "threads", object()])
def test_a_wrong_executor_is_a_type_error_before_any_run(executor, tmp_path):
    with pytest.raises(TypeError, match="executor must be None, a concurrent.futures.Executor"):
        celltrain.sweep("A4", grid={"n_sources": [2, 3]}, store=tmp_path / "s", executor=executor, progress=False,
                        params=SHORT)  # fmt: skip
    assert not (tmp_path / "s").exists()


@pytest.mark.serial
def test_a_run_on_a_worker_thread_stops_by_its_cancel_token(tmp_path):
    token = celltrain.RunCancel()
    out = tmp_path / "out"
    with cf.ThreadPoolExecutor(1) as pool:
        future = pool.submit(celltrain.run, "A4", {"duration": "1000 s"}, None, out, False, None, token)
        time.sleep(0.5)
        assert not future.done(), "the run is long"
        started = time.monotonic()
        token.cancel()
        with pytest.raises(KeyboardInterrupt, match="cancelled"):
            future.result(timeout=30)
        assert time.monotonic() - started < 5
    assert token.cancelled
    assert not (out / "summary.json").exists()
    assert [p for p in out.iterdir() if p.name.startswith(".celltrain-staging")] == [], "staging removed"


def test_a_cancel_token_has_a_type():
    with pytest.raises(TypeError, match="cancel must be a celltrain.RunCancel"):
        celltrain.run("A4", params=SHORT, cancel=threading.Event())


def test_sweep_tables_read_units_as_the_simulator_does():
    from celltrain.units import quantity

    assert quantity("10 mbit/s") == (10e6, "bps") == quantity("10 MBIT/S") == quantity("10 mbps")
    assert quantity("8 Cells") == (8.0, "cells")
    assert quantity("10 MBps") is None, "bytes are not bits"
    assert quantity("5 MS") is None and quantity("5 ms") == (0.005, "s")
