"""Issue 18: a trend claim's monotonic steps judged against the seeds' noise (since issue 40, by
Welch's test of each step), and `celltrain reproduce --seed-offset` for a disjoint set of seeds."""

import pandas as pd

from celltrain import reproduce as rep
from celltrain._sweep import SweepResult
from conftest import celltrain_cli

RISES = {"id": "t", "kind": "increases", "measure": "eff", "x": "x", "margin": 0.0, "monotonic": True}


def _fake(values_by_x):
    """A sweep result with only an aggregate table: ``{x: [value per seed]}``."""
    rows = [dict(x=x, seed=s + 1, eff=v) for x, vals in values_by_x.items() for s, v in enumerate(vals)]
    r = SweepResult.__new__(SweepResult)
    r.aggregate, r._grid, r.params = pd.DataFrame(rows), ["x"], ["x"]
    return r


def test_a_wrong_way_step_within_the_seeds_noise_is_not_counted():
    # Seed means 0.50, 0.80, 0.78, 0.95: the step 2 → 3 falls by 0.02, while each of the two
    # points spreads ±0.1 over its five seeds (95 % half-width ≈ 0.12).
    noisy = _fake({
        1: [0.48, 0.50, 0.52, 0.49, 0.51],
        2: [0.70, 0.90, 0.80, 0.72, 0.88],
        3: [0.68, 0.88, 0.78, 0.70, 0.86],
        4: [0.94, 0.96, 0.95, 0.94, 0.96],
    })  # fmt: skip
    status, why = rep._check(RISES, noisy, None, {})
    assert status == rep.HOLDS, why
    assert "Welch's test" in why and "not significant, not counted: x=3" in why


def test_a_significant_wrong_way_step_fails():
    # The step 2 → 3 falls by 0.2 with a spread of ±0.01 at each point: intervals far apart.
    clear = _fake({
        1: [0.49, 0.50, 0.51],
        2: [0.89, 0.90, 0.91],
        3: [0.69, 0.70, 0.71],
        4: [0.94, 0.95, 0.96],
    })  # fmt: skip
    status, why = rep._check(RISES, clear, None, {})
    assert status == rep.FAILS and "goes the other way at x=3" in why


def test_the_overall_change_must_still_go_the_stated_way():
    # Every step is within the (wide) intervals, but the last point is below the first.
    flat = _fake({1: [0.5, 0.9, 0.7], 2: [0.6, 0.8, 0.7], 3: [0.4, 0.9, 0.6]})
    assert rep._check(RISES, flat, None, {})[0] == rep.FAILS


def test_one_seed_falls_back_to_every_wrong_way_step():
    one = _fake({1: [0.50], 2: [0.80], 3: [0.78], 4: [0.95]})
    status, why = rep._check(RISES, one, None, {})
    assert status == rep.FAILS and "goes the other way at x=3" in why and "overlap" not in why
    assert rep._check({**RISES, "tolerance": 0.05}, one, None, {})[0] == rep.HOLDS


def test_decreases_uses_the_intervals_too():
    falls = {**RISES, "kind": "decreases"}
    noisy = _fake({1: [0.9, 0.92, 0.88], 2: [0.5, 0.7, 0.6], 3: [0.55, 0.75, 0.62], 4: [0.1, 0.12, 0.11]})
    assert rep._check(falls, noisy, None, {})[0] == rep.HOLDS
    clear = _fake({1: [0.9, 0.91, 0.89], 2: [0.5, 0.51, 0.49], 3: [0.7, 0.71, 0.69], 4: [0.1, 0.11, 0.12]})
    assert rep._check(falls, clear, None, {})[0] == rep.FAILS


def test_seed_offset_gives_a_disjoint_set_of_seeds():
    d = {"name": "r", "scenario": "V1", "seeds": [1, 2, 3], "quick_seeds": [1]}
    assert rep.RunSpec.of(d, quick=False).seeds == [1, 2, 3]
    assert rep.RunSpec.of(d, quick=False, seed_offset=100).seeds == [101, 102, 103]
    assert rep.RunSpec.of(d, quick=True, seed_offset=10).seeds == [11]


def test_reproduce_seed_offset_on_the_command_line(tmp_path):
    bad = celltrain_cli("reproduce", "A5", "--quick", "--seed-offset", "-3", "--out", str(tmp_path / "r"))
    assert bad.returncode == 2 and "--seed-offset" in bad.stderr and "negative" in bad.stderr
    res = celltrain_cli("reproduce", "A5", "--quick", "--seed-offset", "7", "--out", str(tmp_path / "r"), "--quiet", "--jobs", "1")
    assert res.returncode == 0, res.stderr
    md = (tmp_path / "r" / "index.md").read_text()
    assert "seeds [8]" in md and "seeds [1]" not in md
    assert "--seed-offset 7 --out" in md, "the regenerate command keeps the offset"
