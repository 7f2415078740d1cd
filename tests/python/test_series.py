"""Issue 19 item 9: change records (``[record] on_change``), delivered bytes and per-pool
queues on the grid, and sweeps that keep their time series in long form."""

import json
import warnings

import pandas as pd
import pytest

import celltrain
from celltrain import plot

#: A short A1-tcp (one TCP Reno flow over the two-switch path).
A1 = {"duration": "0.6 s", "warmup": "0.2 s"}


def test_run_gives_change_records_in_long_form(tmp_path):
    r = celltrain.run("A1-tcp", params={**A1, "record.on_change": True}, out=tmp_path / "r")
    ch = r.changes
    assert list(ch.columns) == ["time_s", "subject", "quantity", "value"]
    assert ch["time_s"].is_monotonic_increasing
    cwnd = ch[(ch.subject == "tcp1") & (ch.quantity == "cwnd_bytes")]["value"]
    assert len(cwnd) > 3 and (cwnd.diff().dropna() != 0).all(), "one row per change of the window"
    queue = ch[(ch.subject == "sw1->sw2") & (ch.quantity == "queue_cells")]["value"]
    port = r.ports.set_index("name").loc["sw1->sw2"]
    assert queue.max() == port["max_queue_cells"]
    written = pd.read_csv(tmp_path / "r" / "timeseries_changes.csv")
    assert len(written) == len(ch)
    assert r.timeseries is None, "no grid asked for"


def test_no_change_records_unless_asked(tmp_path):
    r = celltrain.run("A1-tcp", params=A1, out=tmp_path / "r")
    assert r.changes is None
    assert not (tmp_path / "r" / "timeseries_changes.csv").exists()


def test_delivered_and_pool_columns():
    r = celltrain.run("A1-tcp", params={**A1, "record.interval": "10 ms", "record.delivered": True})
    delivered = r.timeseries["tcp1.delivered_bytes"]
    assert delivered.is_monotonic_increasing and delivered.iloc[-1] > 1e6
    e1 = {"duration": "0.3 s", "warmup": "0.05 s", "n_rt": 6, "n_nrt": 6}
    sets = {"record.interval": "100 us", "record.ports": ["mux->sink"], "record.queues": "pools"}
    ts = celltrain.run("E1-mux", params={**e1, **sets}).timeseries
    parts = ts["mux->sink.shared.pool_cells"] + ts["mux->sink.rt-vbr.pool_cells"]
    assert (parts == ts["mux->sink.queue_cells"]).all()


def test_sweep_keeps_time_series_in_the_store(tmp_path):
    params = {**A1, "record.interval": "20 ms", "record.on_change": True}
    grid = {"window_segments": [10, 20]}
    s = celltrain.sweep("A1-tcp", grid=grid, store=tmp_path, jobs=1, progress=False, params=params, timeseries=True)
    ts, ch = s.timeseries, s.changes
    assert list(ts.columns[:3]) == ["scenario", "window_segments", "seed"]
    assert list(ts.columns[3:]) == ["time_s", "subject", "quantity", "value"]
    assert set(ts["window_segments"]) == {10, 20} and set(ch["window_segments"]) == {10, 20}
    # A smaller window caps the congestion window lower.
    top = ch[ch.quantity == "cwnd_bytes"].groupby("window_segments")["value"].max()
    assert top[10] < top[20]
    # The series are in the store records, and load() gives them back.
    records = [json.loads(p.read_text()) for p in (tmp_path / "points").glob("*.json")]
    assert all(r["timeseries"]["changes_csv"].startswith("time_s,subject,quantity,value") for r in records)
    again = celltrain.load(tmp_path)
    pd.testing.assert_frame_equal(
        again.changes.sort_values(["window_segments", "time_s"], kind="stable").reset_index(drop=True),
        ch.sort_values(["window_segments", "time_s"], kind="stable").reset_index(drop=True),
    )
    # Rerun: reused, not recomputed.
    s2 = celltrain.sweep("A1-tcp", grid=grid, store=tmp_path, jobs=1, progress=False, params=params, timeseries=True)
    assert s2.stats["reused"] == 2 and len(s2.changes) == len(ch)
    fig = plot.quantity_over_time(s.changes, "cwnd_bytes")
    assert [line.get_label() for line in fig.axes[0].lines] == ["10", "20"]
    with pytest.raises(ValueError, match="subject="):
        plot.quantity_over_time(s.timeseries.assign(subject="x").pipe(lambda d: pd.concat([d, d.assign(subject="y")])), "queue_cells")


def test_sweep_without_series_reruns_when_series_are_asked(tmp_path):
    params = {**A1, "record.on_change": True}
    plain = celltrain.sweep("A1-tcp", store=tmp_path, jobs=1, progress=False, params=params)
    assert plain.timeseries is None and plain.changes is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # not an invalid record: just one without series
        kept = celltrain.sweep("A1-tcp", store=tmp_path, jobs=1, progress=False, params=params, timeseries=True)
    assert kept.stats["computed"] == 1 and kept.stats["recomputed"] == 0 and kept.changes is not None


def test_cli_sweep_timeseries(cli, tmp_path):
    store = tmp_path / "store"
    done = cli(
        "sweep", "A1-tcp", "--grid", "window_segments=10,20", "--set", "duration=0.6 s", "--set", "warmup=0.2 s",
        "--set", "record.on_change=true", "--store", str(store), "--jobs", "1", "--quiet", "--timeseries",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    changes = pd.read_parquet(store / "tables" / "changes.parquet")
    assert set(changes["window_segments"]) == {10, 20}
