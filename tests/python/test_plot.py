"""Plot helpers, on synthetic data (time series do not exist in the simulator yet)."""

import base64

import numpy as np
import pandas as pd
import pytest

from celltrain import plot

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _png_size(png: bytes):
    assert png[:8] == PNG_MAGIC
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def test_measure_vs_param_draws_one_line_per_variant_with_seed_means():
    rows = []
    for variant, base in (("a", 0.9), ("b", 0.5)):
        for n in (5, 10, 20):
            for seed, noise in ((1, -0.01), (2, 0.01)):
                rows.append({"variant": variant, "n_sources": n, "seed": seed, "fairness_index": base - n / 100 + noise})
    df = pd.DataFrame(rows)
    fig = plot.measure_vs_param(
        df, "n_sources", "fairness_index", by="variant", reference={"paper": ([5, 10, 20], [0.78, 0.4, 0.27])}
    )
    ax = fig.axes[0]
    lines = {c.get_label(): c.lines[0] for c in ax.containers}  # error-bar plots
    lines.update({line.get_label(): line for line in ax.get_lines() if not line.get_label().startswith("_")})
    assert set(lines) == {"a", "b", "paper"}
    np.testing.assert_allclose(lines["a"].get_xdata(), [5, 10, 20])
    np.testing.assert_allclose(lines["a"].get_ydata(), [0.85, 0.8, 0.7])  # means over the two seeds
    np.testing.assert_allclose(lines["paper"].get_ydata(), [0.78, 0.4, 0.27])
    assert ax.get_ylabel() == "Jain fairness index"
    w, h = _png_size(plot.png_bytes(fig, dpi=50))
    assert w > 100 and h > 100


def test_measure_vs_param_scales_known_measures():
    df = pd.DataFrame({"n": [1, 2], "efficiency": [0.5, 0.75]})
    ax = plot.measure_vs_param(df, "n", "efficiency").axes[0]
    np.testing.assert_allclose(ax.containers[0].lines[0].get_ydata(), [50.0, 75.0])
    assert "%" in ax.get_ylabel()


def test_measure_vs_param_survives_rounding_of_equal_seeds():
    # The mean of three equal floats can round just below their minimum.
    v = 0.7
    df = pd.DataFrame({"n": [1, 1, 1], "y": [v, v, v]})
    assert df["y"].mean() < v
    fig = plot.measure_vs_param(df, "n", "y")
    assert fig.axes[0].containers[0].lines[0].get_ydata()[0] == pytest.approx(v)


def test_flow_bars_against_expected_values():
    flows = pd.DataFrame({"name": ["f1", "f2", "f3"], "goodput_bps": [10e6, 20e6, 30e6]})
    fig = plot.flow_bars(flows, expected=20e6)
    ax = fig.axes[0]
    heights = [p.get_height() for p in ax.patches]
    assert heights == pytest.approx([10, 20, 30])  # Mbit/s
    assert any(line.get_ydata()[0] == pytest.approx(20) for line in ax.get_lines())
    assert [t.get_text() for t in ax.get_xticklabels()] == ["f1", "f2", "f3"]
    fig2 = plot.flow_bars(flows, expected={"f1": 5e6, "f2": 15e6, "f3": 25e6})
    marks = [line for line in fig2.axes[0].get_lines() if line.get_label() == "expected"][0]
    np.testing.assert_allclose(marks.get_ydata(), [5, 15, 25])


def test_timeseries_with_synthetic_data():
    t = np.linspace(0, 1, 50)
    df = pd.concat(
        [pd.DataFrame({"time_s": t, "port": p, "queue_cells": q * np.sin(t * 6) ** 2}) for p, q in (("sw1", 100), ("sw2", 50))]
    ).sample(frac=1.0, random_state=1)  # unsorted on purpose
    fig = plot.timeseries(df, "queue_cells", by="port", step=True)
    ax = fig.axes[0]
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert set(lines) == {"sw1", "sw2"}
    assert np.all(np.diff(lines["sw1"].get_xdata()) >= 0)  # sorted by time
    assert ax.get_xlabel() == "time (s)"
    uri = plot.data_uri(fig)
    assert uri.startswith("data:image/png;base64,")
    assert base64.b64decode(uri.split(",", 1)[1])[:8] == PNG_MAGIC
    with pytest.raises(KeyError):
        plot.timeseries(df.rename(columns={"time_s": "t"}), "queue_cells")


def test_plots_draw_into_given_axes():
    ax = plot.new_axes()
    df = pd.DataFrame({"x": [1, 2, 3], "y": [3.0, 2.0, 1.0]})
    fig = plot.measure_vs_param(df, "x", "y", ax=ax)
    assert fig is ax.figure and len(fig.axes) == 1


def test_counts_on_the_x_axis_get_whole_ticks():
    df = pd.DataFrame({"n_links": [1, 2, 3], "efficiency": [0.9, 0.8, 0.7]})
    ax = plot.measure_vs_param(df, "n_links", "efficiency").axes[0]
    ticks = [t for t in ax.get_xticks() if 1 <= t <= 3]
    assert ticks and all(float(t).is_integer() for t in ticks), ticks
