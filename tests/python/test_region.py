"""The measured admissible region: its confidence bounds, its bisection on a synthetic loss
model whose answer is known, and on a simulated toy multiplexer whose answer is the closed
form of the bufferless model."""

import numpy as np
import pytest

from celltrain import cac, region


def test_poisson_bounds_match_the_tables():
    assert region.poisson_bounds(0, 0.95) == (0.0, pytest.approx(2.9957, abs=1e-4))
    lo, hi = region.poisson_bounds(10, 0.95)
    assert lo == pytest.approx(5.4254, abs=1e-3) and hi == pytest.approx(16.962, abs=1e-3)
    lo, hi = region.poisson_bounds(1000, 0.95)
    assert 947 < lo < 950 and 1052 < hi < 1055


def synthetic(p_of_n, cells_per_rep):
    """Losses of each class: binomial (cells, p(n_rt + n_nrt)), one RNG stream per seed."""

    def run(n_rt, n_nrt, seeds):
        out = []
        for seed in seeds:
            rng = np.random.default_rng([seed, n_rt, n_nrt])
            p = p_of_n(n_rt + n_nrt)
            out.append({c: (cells_per_rep, int(rng.binomial(cells_per_rep, p))) for c in ("rt", "nrt")})
        return out

    return run


def test_bisection_finds_the_known_edge():
    p = lambda n: min(1.0, 1e-6 * 4.0**n)  # noqa: E731  p(4) = 2.6e-4 > 1e-4 ≥ p(3) = 6.4e-5
    rows, points = region.measured_region([0, 1, 2, 3, 4], 12, synthetic(p, 10**7))
    assert list(rows["largest_n_nrt"]) == [3, 2, 1, 0, -1]
    assert (rows["undecided"] == 0).all()
    assert set(points["verdict"]) == {"pass", "fail"}


def test_a_run_too_short_to_decide_runs_longer_then_says_so():
    p = lambda n: 0.0 if n <= 2 else 1.0  # noqa: E731
    s = region.RegionSettings(target=1e-4, first_replications=2, max_replications=8)
    # 0 losses in 2 × 1000 cells bounds the CLR by 1.5e-3 only: undecided, 8 replications, still undecided.
    v = region.assess_point(synthetic(p, 1000), 0, 1, s)
    assert v.verdict == "undecided" and v.replications == 8
    # 30 000 cells per replication decide it at once.
    v = region.assess_point(synthetic(p, 30000), 0, 1, s)
    assert v.verdict == "pass" and v.replications == 2
    # Undecided counts as refused: the edge stays on the safe side.
    rows, _ = region.measured_region([0], 6, synthetic(p, 1000), s)
    assert rows["largest_n_nrt"][0] == -1 and rows["undecided"][0] >= 1


def test_bursty_losses_need_replications_before_a_pass():
    reps = [{"nrt": (10**6, 10)}, {"nrt": (10**6, 0)}]
    verdict, bounds = region.judge(reps, 1e-3, 0.95)
    assert verdict == "undecided" and bounds["nrt"].upper == float("inf")
    verdict, _ = region.judge(reps * 2, 1e-3, 0.95)
    assert verdict == "pass"


def test_measured_edge_of_a_toy_multiplexer_is_the_bufferless_closed_form():
    # n on/off sources of peak C/2.5 (on 1 ms, off 1 ms) into an 8-cell queue: the queue cannot
    # hold a burst, so the loss ratio is the fluid one of the bufferless model, in closed form.
    link = 149.76e6
    peak = link / 2.5
    target = 0.075
    src = cac.OnOff(peak, 0.5)
    clr = [cac.convolution([(n, src)], link).fluid_clr for n in range(8)]
    edge = max(n for n in range(8) if clr[n] <= target)
    assert edge == 3 and clr[edge] < target / 1.5 and clr[edge + 1] > 1.3 * target  # well apart
    run = region.sweep_runner(
        "E1-mux",
        params={
            "duration": "2 s",
            "warmup": "0.1 s",
            "peak": f"{peak:.0f} bit/s",
            "on": "1 ms",
            "off": "1 ms",
            "nrt_buffer": "8 cells",
        },
        jobs=1,
    )
    rows, points = region.measured_region([0], 7, run, region.RegionSettings(target=target))
    assert rows["largest_n_nrt"][0] == edge, points


def test_a_second_search_reuses_the_sweep_store(tmp_path, monkeypatch):
    import celltrain
    import celltrain._sweep

    params = {"duration": "1 s", "warmup": "0.1 s", "peak": "59904000 bit/s", "on": "1 ms", "off": "1 ms",
              "nrt_buffer": "8 cells"}  # fmt: skip
    s = region.RegionSettings(target=0.075)
    first, _ = region.measured_region([0], 6, region.sweep_runner("E1-mux", params=params, store=tmp_path, jobs=1), s)
    stored = len(celltrain.load(tmp_path).aggregate)
    assert stored >= 8  # at least four points of two replications

    def no_run(*args):
        raise AssertionError("a stored replication was run again")

    monkeypatch.setattr(celltrain._sweep, "run_point", no_run)
    again, _ = region.measured_region([0], 6, region.sweep_runner("E1-mux", params=params, store=tmp_path, jobs=1), s)
    assert len(celltrain.load(tmp_path).aggregate) == stored
    assert list(again["largest_n_nrt"]) == list(first["largest_n_nrt"])
