"""The CAC models through the Python front (celltrain.cac), against the textbook numbers and
an independent numpy computation of the binomial tail."""

import math

import numpy as np
import pytest

from celltrain import cac
from celltrain.reproduce import models

C = 149.76e6


def test_convolution_vectors_and_a_numpy_oracle():
    s = cac.OnOff(10e6, 0.1)
    r = cac.convolution([(40, s)], C)
    assert r.overflow_probability == pytest.approx(3.481e-6, rel=1e-3)
    assert r.fluid_clr == pytest.approx(1.956e-7, rel=1e-3)
    two = cac.convolution([(20, s), (30, cac.OnOff(2e6, 0.5))], C)
    assert two.overflow_probability == pytest.approx(6.805e-8, rel=1e-3)
    for n, p, peak, cap in [(12, 0.2, 31.1e6, C), (30, 0.3, 10e6, 60e6), (5, 0.9, 40e6, 100e6)]:
        k = np.arange(n + 1)
        pmf = np.array([math.comb(n, int(i)) * p**i * (1 - p) ** (n - i) for i in k])
        excess = np.maximum(k * peak - cap, 0.0)
        got = cac.convolution([(n, cac.OnOff(peak, p))], cap)
        assert got.overflow_probability == pytest.approx(pmf[k * peak > cap].sum(), rel=1e-9, abs=1e-300)
        assert got.fluid_clr == pytest.approx((pmf * excess).sum() / (n * p * peak), rel=1e-9, abs=1e-300)
        assert models.convolution_loss(n, peak, cap, p) == got.fluid_clr


def test_effective_bandwidth_vectors_and_the_delay_priority_port():
    s = cac.OnOff(10e6, 0.1, 0.1)
    assert cac.effective_bandwidth(s, 1e6, 1e-6) == pytest.approx(9_282_393, rel=1e-6)
    assert cac.effective_bandwidth(s, 0.0, 1e-6) == 10e6
    assert cac.aggregate([(50, s)], 1e6, 1e-6, "gaussian") == pytest.approx(157.735e6, rel=1e-5)
    assert cac.aggregate([(50, s)], 1e6, 1e-6, "min") == cac.aggregate([(50, s)], 1e6, 1e-6, "gaussian")
    port = cac.DelayPriorityPort(C, 48 * 424, 10e6, 1e-6, criterion="overflow")
    nrt = cac.OnOff(2e6, 0.5, 0.05)
    assert port.admits("combined", [(20, s)], [(67, nrt)])
    assert not port.admits("combined", [(20, s)], [(68, nrt)])
    assert port.boundary("combined", s, nrt, 20, 1000)[20] == 67


def test_bad_input_raises_value_error():
    with pytest.raises(ValueError, match="activity"):
        cac.convolution([(3, cac.OnOff(1e6, 1.5))], C)
    with pytest.raises(ValueError, match="rule"):
        cac.DelayPriorityPort(C, 0, 0, 1e-4).admits("best", [], [])
    with pytest.raises(ValueError, match="target"):
        cac.effective_bandwidth(cac.OnOff(1e6, 0.5, 0.1), 1e3, 1.5)


def test_a_switch_cac_refuses_vcs_and_the_result_lists_them():
    import celltrain

    text = celltrain.show("E1-mux").replace(
        'queueing = "fifo"', 'queueing = "fifo"\ncac = { rule = "combined", target = 1e-4 }'
    )
    r = celltrain.run(text, params={"n_rt": 2, "n_nrt": 10, "duration": "0.2 s", "warmup": "0.1 s"})
    port = cac.DelayPriorityPort(C, 48 * 424, 4000 * 424, 1e-4)
    s = cac.OnOff.from_periods(31.1e6, 0.020, 0.080)
    edge = port.boundary("combined", s, s, 2, 100)[2]
    assert len(r.flows) == 2 + edge
    assert list(r.refused["flow"]) == [f"nrt{i}" for i in range(edge + 1, 11)]
    assert set(r.refused["port"]) == {"mux->sink"} and set(r.refused["rule"]) == {"combined"}
    plain = celltrain.run("E1-mux", params={"n_rt": 2, "n_nrt": 10, "duration": "0.2 s", "warmup": "0.1 s"})
    assert plain.refused.empty and len(plain.flows) == 12
