"""Replications: mean ± 95 % confidence (Student t) in sweep tables and plots, a warning when
the seeds are no replications, and swept quantities with units read as numbers."""

import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import celltrain
from celltrain import plot
from celltrain.stats import mean_ci95, replication_table, t_975
from celltrain.units import quantity

GOOD_MINIMAL = Path(__file__).parents[1] / "good-minimal.toml"
SHORT_E1 = {"duration": "2 s", "warmup": "0.5 s"}


def test_student_t_quantiles_match_the_tables():
    # Published two-sided 95 % values.
    for df, t in [(1, 12.706), (2, 4.303), (5, 2.571), (10, 2.228), (30, 2.042), (40, 2.021), (60, 2.000),
                  (120, 1.980), (10**6, 1.960)]:  # fmt: skip
        assert t_975(df) == pytest.approx(t, abs=1e-3), df


def test_mean_ci95_of_known_samples():
    mean, half, n = mean_ci95([1.0, 2.0, 3.0])
    assert (mean, n) == (2.0, 3)
    assert half == pytest.approx(4.3027 / math.sqrt(3), rel=1e-4)
    assert math.isnan(mean_ci95([5.0])[1])
    assert mean_ci95([2.0, 2.0, 2.0])[1] == 0.0


def test_replication_table_groups_points():
    df = pd.DataFrame({"n": [1, 1, 2, 2], "seed": [1, 2, 1, 2], "y": [1.0, 3.0, 10.0, 10.0]})
    t = replication_table(df, ["n"], ["y"])
    assert list(t.columns) == ["n", "replications", "y_mean", "y_ci95"]
    assert list(t["n"]) == [1, 2] and list(t["replications"]) == [2, 2]
    assert list(t["y_mean"]) == [2.0, 10.0]
    assert t["y_ci95"].iloc[0] == pytest.approx(12.7062 * 1.0, rel=1e-4)  # s = √2, /√2
    assert t["y_ci95"].iloc[1] == 0.0


def test_a_sweep_reports_mean_and_ci_over_random_seeds():
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # the seeds differ: no warning
        s = celltrain.sweep("E1-mux", grid={"n_nrt": [5]}, seeds=[1, 2, 3], jobs=1, progress=False, params=SHORT_E1)
    rep = s.replications()
    assert list(rep["replications"]) == [3]
    assert rep["mean_clr_ci95"].iloc[0] > 0
    mean, half, _ = mean_ci95(s.aggregate["mean_clr"].tolist())
    assert rep["mean_clr_mean"].iloc[0] == pytest.approx(mean)
    assert rep["mean_clr_ci95"].iloc[0] == pytest.approx(half)


def test_identical_seeds_are_warned_about():
    with pytest.warns(RuntimeWarning, match="byte-identical"):
        s = celltrain.sweep(GOOD_MINIMAL, seeds=[1, 2], jobs=1, progress=False)
    assert s.aggregate["trace_hash"].nunique() == 1


def test_the_sweep_command_prints_confidence_intervals(cli):
    done = cli("sweep", "E1-mux", "--grid", "n_nrt=5", "--seeds", "1..3", "--set", "duration=2 s",
               "--set", "warmup=0.5 s", "--jobs", "1")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "±95% CI" in done.stdout and " ± " in done.stdout, done.stdout


def test_plot_bars_are_the_confidence_interval():
    df = pd.DataFrame({"n": [1, 1, 1], "y": [1.0, 2.0, 3.0]})
    ax = plot.measure_vs_param(df, "n", "y").axes[0]
    segments = ax.containers[0].lines[2][0].get_segments()
    low, high = segments[0][0][1], segments[0][1][1]
    assert (high - low) / 2 == pytest.approx(mean_ci95([1.0, 2.0, 3.0])[1])
    ax = plot.measure_vs_param(df, "n", "y", bars="minmax").axes[0]
    segments = ax.containers[0].lines[2][0].get_segments()
    assert (segments[0][0][1], segments[0][1][1]) == (1.0, 3.0)


def test_quantities_read_as_numbers():
    assert quantity("1000 cells") == (1000.0, "cells")
    assert quantity("5 ms") == (0.005, "s")
    assert quantity("149.76 Mbit/s") == (149.76e6, "bps")
    assert quantity("48 KiB") == (49152.0, "bytes")
    assert quantity("80 %") == (0.8, "fraction")
    assert quantity("reno") is None and quantity(5) is None


def test_swept_quantities_get_a_numeric_column_and_sort_by_value():
    s = celltrain.sweep(
        "A4", grid={"buffer": ["1000 cells", "800 cells", "8192 cells"]}, jobs=1, progress=False,
        params={"duration": "0.2 s", "warmup": "0.05 s"},
    )  # fmt: skip
    agg = s.aggregate
    assert "buffer_cells" in agg.columns and str(agg["buffer_cells"].dtype) == "int64"
    assert list(agg["buffer_cells"]) == [800, 1000, 8192], "ordered by value, not as text"
    assert list(agg.columns).index("buffer_cells") == list(agg.columns).index("buffer") + 1


def test_a_swept_duration_keeps_the_summary_s_own_duration_column():
    """A swept ``duration`` would get the numeric column ``duration_s``, which the aggregate
    already has (the run's duration): the table keeps one column of that name, and groups."""
    s = celltrain.sweep(
        "A4", grid={"duration": ["0.2 s", "0.3 s"]}, jobs=1, progress=False, params={"warmup": "0.05 s"},
    )  # fmt: skip
    agg = s.aggregate
    assert list(agg.columns).count("duration_s") == 1
    assert list(agg["duration_s"]) == [0.2, 0.3]
    assert len(agg.groupby(["duration", "duration_s"])) == 2
