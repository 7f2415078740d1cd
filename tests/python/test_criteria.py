"""Issue 40, section 3: criteria read from the papers' words — a stated trend judged by Welch's
test of each step, "clearly" as a difference beyond the seeds' noise, a comparison against a
zero judged on the difference, and a claim that holds by construction reported as a
consistency check."""

import math

import pandas as pd
import pytest

from celltrain import reproduce as rep
from celltrain._sweep import SweepResult
from celltrain.reproduce.claims import _half_width
from celltrain.reproduce.significance import incomplete_beta, t_two_sided_p, welch
from celltrain.stats import t_975

FALLS = {"id": "t", "kind": "decreases", "measure": "data_clr", "x": "buffer", "margin": 0.0, "monotonic": True}

#: Ten seeds' deviations from a point's mean (sample standard deviation 0.908e-4).
DEV = [-1.5e-4, -1.0e-4, -0.6e-4, -0.3e-4, -0.1e-4, 0.1e-4, 0.3e-4, 0.6e-4, 1.0e-4, 1.5e-4]


def _fake(values_by_x, measure="data_clr", x="buffer", variant=None):
    """A sweep result with only an aggregate table: ``{x: [value per seed]}``."""
    rows = [
        {x: k, "seed": s + 1, measure: v, **({"variant": variant} if variant else {})}
        for k, vals in values_by_x.items() for s, v in enumerate(vals)
    ]  # fmt: skip
    r = SweepResult.__new__(SweepResult)
    r.aggregate, r._grid, r.params = pd.DataFrame(rows), [x], [x]
    return r


def _around(means):
    return {k: [m + d for d in DEV] for k, m in means.items()}


# ------------------------------------------------------------------------------------------
# The t distribution and Welch's test


def test_the_p_value_at_students_975_quantile_is_five_percent():
    for df in (1, 2, 3, 4, 7, 9, 15, 29, 30):
        assert t_two_sided_p(t_975(df), df) == pytest.approx(0.05, abs=2e-5)


def test_the_p_value_matches_the_closed_forms_of_one_and_two_degrees_of_freedom():
    for t in (0.3, 1.0, 2.5, 12.0):
        assert t_two_sided_p(t, 1) == pytest.approx(1 - 2 / math.pi * math.atan(t), rel=1e-10)
        assert t_two_sided_p(t, 2) == pytest.approx(1 - t / math.sqrt(2 + t * t), rel=1e-10)
    assert incomplete_beta(0.3, 2, 3) == pytest.approx(1 - (0.7**4 + 4 * 0.3 * 0.7**3), rel=1e-12)


def test_a_fractional_df_lies_between_its_neighbours():
    assert t_two_sided_p(2.4, 4) > t_two_sided_p(2.4, 4.5) > t_two_sided_p(2.4, 5)


def test_welch_by_hand():
    # Means 2 and 3.5, variances 1 and 5/3: t = 1.5 / √0.75, df = 0.75² / ((1/3)²/2 + (5/12)²/3).
    d = welch([1, 2, 3], [2, 3, 4, 5])
    assert d.diff == pytest.approx(1.5)
    assert d.t == pytest.approx(1.5 / math.sqrt(0.75))
    assert d.df == pytest.approx(0.5625 / ((1 / 9) / 2 + (25 / 144) / 3))
    assert not d.significant
    assert welch([1.0], [2.0, 3.0]) is None
    assert welch([1, 1], [2, 2]).p == 0.0 and welch([1, 1], [1, 1]).p == 1.0


# ------------------------------------------------------------------------------------------
# Trends


def test_two_significant_rises_among_five_steps_are_evidence_against_a_fall():
    # E2.clr-falls at MTU 1500: the CLR falls overall, but two of its five steps rise by
    # 1.1e-4 — Welch t ≈ 2.7 on ten seeds each, significant at 5 %, while the two points' 95 %
    # intervals overlap (the old rule let the claim hold).
    data = _fake(_around({1088: 20e-4, 1360: 14e-4, 1632: 15.1e-4, 1904: 9e-4, 2176: 10.1e-4, 2448: 3e-4}))
    rise = welch(data.aggregate.query("buffer == 1360").data_clr, data.aggregate.query("buffer == 1632").data_clr)
    halves = [_half_width(data.aggregate.query(f"buffer == {b}").data_clr) for b in (1360, 1632)]
    assert rise.significant and 2.5 < rise.t < 2.9 and rise.diff < sum(halves), "the premise: overlapping intervals"
    status, why = rep._check(FALLS, data, None, {})
    assert status == rep.FAILS, why
    assert "goes the other way at buffer=1632, 2176" in why and "evidence against the trend" in why
    assert "1360→1632: +1.10e-04 (Welch t = 2.71, df = 18.0, p = 0.0144) — against" in why
    assert "1088→1360: −6.00e-04 (Welch t = -14.78" in why


def test_a_rise_that_is_not_significant_is_named_and_not_counted():
    data = _fake(_around({1088: 20e-4, 1360: 14e-4, 1632: 14.3e-4, 1904: 3e-4}))
    status, why = rep._check(FALLS, data, None, {})
    assert status == rep.HOLDS, why
    assert "not significant, not counted: buffer=1632" in why and "— against" not in why


def test_the_overall_change_must_be_significant():
    # Every step falls, but by less than the seeds' noise, and so does the whole change.
    data = _fake(_around({1: 10e-4, 2: 9.95e-4, 3: 9.9e-4}), x="buffer")
    status, why = rep._check({**FALLS, "monotonic": False}, data, None, {})
    assert status == rep.FAILS, why
    assert "a fall significant at 5 % (Welch's test)" in why and "p = 0." in why


def test_one_value_per_point_takes_every_step_at_face_value():
    one = _fake({1: [5e-4], 2: [3e-4], 3: [3.1e-4], 4: [1e-4]})
    status, why = rep._check(FALLS, one, None, {})
    assert status == rep.FAILS and "goes the other way at buffer=3" in why and "no test" in why
    assert rep._check({**FALLS, "tolerance": 2e-5}, one, None, {})[0] == rep.HOLDS


# ------------------------------------------------------------------------------------------
# A claim the set-up was derived from


def test_a_claim_the_set_up_was_derived_from_is_a_consistency_check_not_a_hold():
    from celltrain.reproduce.report import _unjudged

    claim = {"id": "c", "consistency": True}
    kept = rep.Verdict(claim="c", text="", source="", status=rep.HOLDS, explanation="measured 5.8 ≤ 6")
    broken = rep.Verdict(claim="c", text="", source="", status=rep.FAILS, explanation="measured 6.2 > 6", finding="f")
    out = _unjudged(claim, False, [kept, broken])
    assert [v.status for v in out] == [rep.CONSISTENCY, rep.CONSISTENCY]
    assert out[0].explanation.startswith("consistent: ") and out[1].explanation.startswith("not consistent: ")
    assert out[1].finding == ""
    report = rep.Report(out=None, markdown=None, html=None, quick=False, not_runnable=[], wall_s=0.0,
                        experiments=[rep.ExperimentOutcome(id="V5", title="", paper="", source="", notes="", verdicts=out)])
    counts = report.verdict_counts()
    assert counts[rep.HOLDS] == 0 and counts[rep.CONSISTENCY] == 2


def test_v5_receive_limit_claim_is_reported_as_a_consistency_check():
    # Its 683 µs receive time is 512 B × 8 / 6 Mbit/s: the claim's own number.
    _info, _exps, papers = rep.catalogue()
    claim = next(c for e in papers["BKD97"]["experiment"] for c in e.get("claim", []) if c["id"] == "V5.552-below-6mbps")
    assert claim.get("consistency") is True


# ------------------------------------------------------------------------------------------
# Adjectives with margins


CLEARLY = {"id": "c", "kind": "variant_greater", "measure": "gfr_efficiency", "x": "duration",
           "variant": "per-VC threshold", "than": "simple switch", "beyond_noise": True}  # fmt: skip


def _arms(sched, simple):
    rows = [dict(duration="100 s", seed=s + 1, variant=name, gfr_efficiency=v)
            for name, vals in (("per-VC threshold", sched), ("simple switch", simple)) for s, v in enumerate(vals)]  # fmt: skip
    r = SweepResult.__new__(SweepResult)
    r.aggregate, r._grid, r.params = pd.DataFrame(rows), ["duration"], ["duration"]
    return r


def test_clearly_outperform_needs_a_difference_beyond_the_seeds_noise():
    # G4: 99.63 % against 99.61 %, each spread over its three seeds more than the 0.02 % apart.
    close = _arms([0.9960, 0.9963, 0.9966], [0.9958, 0.9961, 0.9964])
    status, why = rep._check(CLEARLY, close, None, {})
    assert status == rep.FAILS and "intervals apart" in why and "difference 0.0002" in why
    assert rep._check({**CLEARLY, "beyond_noise": False}, close, None, {})[0] == rep.HOLDS
    # G2: 95.8 % against 82.6 %, far beyond the seeds' spread.
    apart = _arms([0.955, 0.958, 0.961], [0.820, 0.826, 0.832])
    assert rep._check(CLEARLY, apart, None, {})[0] == rep.HOLDS
    # A tie is no effect: under "clearly" it counts against.
    assert rep._check(CLEARLY, _arms([1.0, 1.0, 1.0], [1.0, 1.0, 1.0]), None, {})[0] == rep.FAILS


def test_a_comparison_against_a_zero_is_judged_on_the_difference():
    # A10: UDP over UBR+EPD delivers 134 Mbit/s, over ABR nothing; a ratio is undefined.
    def run(v):
        r = SweepResult.__new__(SweepResult)
        r.aggregate, r._grid, r.params = pd.DataFrame([dict(seed=1, goodput_bps=v)]), [], []
        return r

    ubr, abr = run(134.4e6), run(0.0)
    claim = {"id": "w", "kind": "run_greater", "run": "udp-ubr", "than_run": "udp-abr", "measure": "goodput_bps"}
    status, why = rep._check(claim, ubr, None, {}, {"udp-abr": abr})
    assert status == rep.HOLDS and "134.400 Mbit/s − 0.000 Mbit/s" in why and "at 0: no ratio" in why
    assert rep._check({**claim, "kind": "run_ratio", "min_ratio": 1.0}, ubr, None, {}, {"udp-abr": abr})[0] == rep.FAILS
    assert rep._check(claim, abr, None, {}, {"udp-abr": ubr})[0] == rep.FAILS


def test_the_10_mbit_vcs_goodput_is_one_number_for_both(monkeypatch):
    from celltrain.reproduce import gfr

    rows = [
        {"group": g, "mcr_bps": m, "goodput_bps": good, "expected_bps": m, "ratio": good / m, "frames": 10,
         "tagged_frames": 1, "tagged_cells": 1, "eligible_frames": 9}
        for g, m, good in (("short", 2e6, 2.5e6), ("short", 10e6, 7.2e6), ("long", 2e6, 2.1e6), ("long", 10e6, 5.7e6))
    ]  # fmt: skip
    monkeypatch.setattr(gfr, "vc_table", lambda summary: rows)
    out = gfr.gfr_measures({"aggregate": {}, "ports": []})
    assert out["mcr10_goodput_bps"] == pytest.approx(6.45e6) and out["mcr2_goodput_bps"] == pytest.approx(2.3e6)
    _info, _exps, papers = rep.catalogue()
    claims = {c["id"]: c for e in papers["BN01"]["experiment"] for c in e.get("claim", [])}
    assert claims["G1.10M-7.5"]["measure"] == "mcr10_goodput_bps" and "G1.10M-long-7.5" not in claims
    # "somewhat penalized": two-sided, bounded by the simple switch's penalty in the text.
    assert claims["G2.high-MCR-penalised"]["kind"] == "all_between" and claims["G2.high-MCR-penalised"]["min"] < 0
