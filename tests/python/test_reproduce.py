"""`celltrain reproduce`: the report's files, computed verdicts, and the HTML in a browser."""

import copy
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

import celltrain
from celltrain import reproduce as rep
from celltrain._sweep import SweepResult
from conftest import SHORT, celltrain_cli


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    res = celltrain_cli("reproduce", "all", "--quick", "--out", str(out), "--quiet")
    assert res.returncode == 0, res.stderr
    assert str(out / "index.html") in res.stdout
    return out


def test_quick_report_files(report_dir):
    md = (report_dir / "index.md").read_text()
    html = (report_dir / "index.html").read_text()
    pngs = sorted((report_dir / "img").glob("*.png"))
    assert len(pngs) >= 6
    for exp in ("A1", "A3", "A4", "A5", "E1", "T1", "E2", "E3", "E4", "V1", "V2", "V3", "V4", "V5", "V6", "V7", "L1"):
        assert f"\n## {exp}\n" in md, exp
        assert f'id="{exp.lower()}"' in html, exp
    # Every image of the markdown exists; the HTML embeds them all, and loads nothing else.
    linked = re.findall(r"!\[[^\]]*\]\((img/[^)]+)\)", md)
    assert sorted(linked) == sorted(f"img/{p.name}" for p in pngs)
    srcs = re.findall(r'<img src="([^"]+)"', html)
    assert len(srcs) == len(pngs) and all(s.startswith("data:image/png;base64,") for s in srcs)
    assert not re.search(r'(src|href)="(https?:|file:|/)', html)
    # Published numbers beside celltrain's, with their sources.
    assert "Table 5.6" in md and "0.780" in md and "98.70 %" in md and "134.513 Mbit/s" in md
    # Every experiment of the catalogue runs: none is left in a not-yet-runnable list.
    section = md.split("## Not yet runnable", 1)[1] if "## Not yet runnable" in md else ""
    for exp in ("A2", "A5", "A6", "A7", "A8", "A9", "A10", "A11", "A12", "A13", "T1", "T2", "T3", "T4", "T5", "T6",
                "E2", "E3", "E4", "V1", "V4", "V7", "G1", "G2", "G3", "G4"):
        assert f"| {exp} |" not in section, exp
    # Every claim has a verdict (or is a consistency check); ABR claims are computed too.
    table = md.split("\n## ", 1)[0]
    claims = re.findall(r"^\| \[\w+\]\(#\w+\) \| ([\w.-]+) \| (.+) \|$", table, re.M)
    assert len(claims) >= 20
    for claim, verdicts in claims:
        assert re.fullmatch(
            r"(✅ holds|❌ does not hold|⏳ not yet runnable|⏸ not judged in quick mode|📝 reported, not judged"
            r"|🔁 consistency check)"
            r"( \([^)]*\))?(; .*)?",
            verdicts,
        ), claim
    # T1's quick runs are 3 s of slow start (the paper's are 10 s): not judged in quick mode.
    assert claims and dict(claims)["T1.atm-below-packet"].startswith("⏸ not judged in quick mode")
    verdict_of = dict(claims)
    # AD97 (T1) and LRP97's TCP experiments (E2-E4) run: every claim gets a computed verdict.
    for claim in ("T1.atm-below-packet", "T1.buffer-sensitive", "T1.timeouts", "T1.dead-cells", "E2.zero-loss",
                  "E2.flr-above-clr", "E2.small-mtu-more-buffer", "E3.ppd-best-small-buffer", "E3.epd-integer-b",
                  "E3.clr-approx-flr", "E4.dack-goodput-ppd", "E4.dack-fairness-epd", "E4.epd-fairness",
                  "T2.atm-as-packet", "T3.rm-two-thirds", "T4.afr-extra-retransmissions",
                  "T5.vegas-afr-above-lite-up-to-100k", "T6.vegas-unaffected"):  # fmt: skip
        assert "not yet runnable" not in verdict_of[claim], claim
    assert "![" in md.split("\n## T1\n", 1)[1] and "img/E3-" in md
    # BN01 (G1-G4) runs whole, with its per-VC figures.
    for claim in ("G1.10M-7.5", "G2.RTT-bias", "G3.fewer-tagged", "G4.efficiency-94.3"):
        assert "not yet runnable" not in verdict_of[claim], claim
    assert "img/G1-" in md and "img/G4-" in md
    # BKD97 (V1-V7) runs whole: each of its claims holds or does not, none is left pending.
    v_claims = {c: v for c, v in claims if c.startswith("V")}
    assert len(v_claims) >= 20 and {c.split(".")[0] for c in v_claims} == {f"V{i}" for i in range(1, 8)}
    for claim, verdicts in v_claims.items():
        assert "not yet runnable" not in verdicts, claim
    assert "img/V2-" in md and "eq. (2)" in md and "7.6 ms" in md
    # Every BKD97 claim that does not hold says why (its if_not finding); one that holds does not.
    for block in re.split(r"\n(?=\*\*V\d\.)", md.split("\n## V1\n", 1)[1].split("\n## Not yet runnable", 1)[0])[1:]:
        claim = block.split("**", 2)[1]
        fails = "❌ does not hold" in block.split("\n## ", 1)[0]
        assert fails == ("*Why it does not hold:*" in block.split("\n## ", 1)[0]), claim
    assert "V5.pdu-rate-conforms" in md
    for claim in ("A5.udp-gain", "A3.abr-wins", "A2.abr-switch-bounded", "A7.tcp-abr-fair", "A9.abr", "A12.abr-unfair"):
        assert "not yet runnable" not in verdict_of[claim], claim
    assert verdict_of["A3.abr-wins"] == "✅ holds"
    assert verdict_of["A1.udp-ubr"] == "✅ holds"
    assert verdict_of["A1.udp-theory"] == "✅ holds"
    # The store makes a second report reuse every run.
    assert any((report_dir / "store" / "points").glob("*.json"))


def test_report_rerun_reuses_the_store(report_dir, tmp_path):
    shutil.copytree(report_dir / "store", tmp_path / "store")
    report = rep.reproduce("A5", out=tmp_path, quick=True, jobs=1, progress=False)
    runs = report.experiments[0].runs["udp-ubr"]
    assert runs.stats["computed"] == 0 and runs.stats["reused"] == 12


def test_verdicts_are_computed_from_the_numbers():
    result = celltrain.sweep("A5-udp", grid={"n_sources": [2, 3]}, jobs=1, progress=False, params=SHORT)

    def with_values(**measures):
        entries = []
        for labels, summary, key in result._entries:
            s = copy.deepcopy(summary)
            for name, values in measures.items():
                s["aggregate"][name] = values[labels["n_sources"]]
            entries.append((labels, s, key))
        return SweepResult(entries, ["n_sources"], {}, None)

    claim = {"id": "t", "kind": "all_at_least", "measure": "efficiency", "value": 0.95}
    good = with_values(efficiency={2: 0.99, 3: 0.97})
    bad = with_values(efficiency={2: 0.99, 3: 0.90})
    assert rep._check(claim, good, None, {})[0] == rep.HOLDS
    status, why = rep._check(claim, bad, None, {})
    assert status == rep.FAILS and "90.00 %" in why and "n_sources=3" in why
    falls = {"id": "t", "kind": "decreases", "measure": "fairness_index", "x": "n_sources", "margin": 0.1}
    assert rep._check(falls, with_values(fairness_index={2: 0.8, 3: 0.5}), None, {})[0] == rep.HOLDS
    assert rep._check(falls, with_values(fairness_index={2: 0.8, 3: 0.75}), None, {})[0] == rep.FAILS
    close = {"id": "t", "kind": "close_to", "measure": "goodput_bps", "value": 100e6, "rel_tol": 0.01}
    assert rep._check(close, with_values(goodput_bps={2: 100.5e6, 3: 100.5e6}), None, {})[0] == rep.HOLDS
    assert rep._check(close, with_values(goodput_bps={2: 102e6, 3: 102e6}), None, {})[0] == rep.FAILS


def test_derived_measures_and_new_claim_kinds():
    vc = lambda name, dropped, delivered, lost, frames: dict(  # noqa: E731
        name=name, cells_dropped=dropped, cells_delivered=delivered, frames_lost=lost, frames_delivered=frames)
    summary = {
        "vcs": [vc("tcp1", 10, 990, 2, 98), vc("tcp1-ack", 0, 500, 0, 250), vc("tcp2", 0, 1000, 0, 100)],
        "flows": [{"timeouts": 2}, {"timeouts": 3}],
    }
    d = rep.derived_measures(summary)
    assert d["data_clr"] == pytest.approx(10 / 2000) and d["data_flr"] == pytest.approx(2 / 200)
    assert d["total_timeouts"] == 5

    def fake(rows):  # a sweep result with only an aggregate table (variant, x, seed, measures)
        r = SweepResult.__new__(SweepResult)
        r.aggregate, r._grid, r.params = pd.DataFrame(rows), ["x"], ["x"]
        return r

    rows = [dict(variant=v, x=x, seed=1, eff=e, clr=c, flr=f)
            for v, x, e, c, f in [("a", 1, 0.6, 1e-3, 5e-3), ("a", 2, 0.8, 0.0, 0.0), ("a", 3, 0.7, 0.0, 0.0),
                                  ("b", 1, 0.7, 2e-3, 3e-3), ("b", 2, 0.95, 1e-3, 1e-3), ("b", 3, 0.8, 0.0, 0.0)]]  # fmt: skip
    r = fake(rows)
    ratio = {"kind": "variant_ratio", "measure": "eff", "x": "x", "variant": "a", "than": "b", "max_ratio": 0.95}
    status, why = rep._check(ratio, r, None, {})
    assert status == rep.HOLDS and "0.842" in why and "0.875" in why  # 0.8/0.95 … 0.7/0.8
    assert rep._check({**ratio, "max_ratio": 0.87}, r, None, {})[0] == rep.FAILS
    spread = {"kind": "variant_spread_greater", "measure": "eff", "x": "x", "variant": "a", "than": "b"}
    assert rep._check(spread, r, None, {})[0] == rep.FAILS  # 0.2 vs 0.25
    assert rep._check({**spread, "variant": "b", "than": "a"}, r, None, {})[0] == rep.HOLDS
    flr = {"kind": "ratio_at_least", "measure": "flr", "over": "clr", "x": "x", "value": 2}
    status, why = rep._check(flr, r, "a", {})
    assert status == rep.HOLDS and "left out" in why  # 5 at x=1; x=2, 3 without loss
    assert rep._check(flr, r, "b", {})[0] == rep.FAILS  # 1.5 and 1
    settles = {"kind": "settles_later", "measure": "clr", "x": "x", "value": 0.0, "variant": "b", "than": "a"}
    status, why = rep._check(settles, r, None, {})
    assert status == rep.HOLDS and "x=3" in why and "x=2" in why
    best = {"kind": "best_at", "measure": "eff", "x": "x", "at": [2]}
    assert rep._check(best, r, "a", {})[0] == rep.HOLDS
    assert rep._check({**best, "among": [1, 3]}, r, "a", {})[0] == rep.FAILS
    rises = {"kind": "increases", "measure": "eff", "x": "x", "margin": 0.0}
    assert rep._check(rises, r, "a", {})[0] == rep.HOLDS
    assert rep._check({**rises, "monotonic": True}, r, "a", {})[0] == rep.FAILS  # 0.8 → 0.7 at x=3
    at_most = {"kind": "all_at_most", "measure": "clr", "x": "x", "at_x": [2, 3], "value": 0.0}
    assert rep._check(at_most, r, "a", {})[0] == rep.HOLDS and rep._check(at_most, r, "b", {})[0] == rep.FAILS


def test_ad97_median_link_share_and_claim_kinds():
    from celltrain.reproduce.seed_median import median_over_seeds

    def fake(rows):
        r = SweepResult.__new__(SweepResult)
        r.aggregate, r._grid, r.params = pd.DataFrame(rows), ["x"], ["x"]
        return r

    # Five seeds per point: the median, not the mean (one outlier seed).
    effs = {"lite": [0.5, 0.52, 0.1, 0.55, 0.51], "rm": [0.7] * 5, "afr": [0.8] * 5}
    rows = [dict(variant=v, x=x, seed=s + 1, eff=e + (0.1 if x == 2 else 0.0), retx=0.001 * (v == "afr") * x)
            for v, es in effs.items() for x in (1, 2) for s, e in enumerate(es)]
    r = fake(rows)
    median_over_seeds(r)
    assert len(r.aggregate) == 6 and set(r.aggregate["seed"]) == {"median of 5"}
    lite = r.aggregate[r.aggregate["variant"] == "lite"].set_index("x")["eff"]
    assert lite[1] == pytest.approx(0.51) and lite[2] == pytest.approx(0.61)  # the means would be 0.436, 0.536
    share = {"kind": "variant_gain_share", "measure": "eff", "x": "x", "variant": "rm", "than": "afr", "base": "lite",
             "min": 0.5, "max": 0.85}
    status, why = rep._check(share, r, None, {})
    assert status == rep.HOLDS and "= 0.66" in why  # (0.75 − 0.56) / (0.85 − 0.56)
    assert rep._check({**share, "max": 0.6}, r, None, {})[0] == rep.FAILS
    assert rep._check({**share, "base": "afr", "than": "lite"}, r, None, {})[0] == rep.FAILS  # negative gain
    diff = {"kind": "variant_difference", "measure": "retx", "x": "x", "pairs": [["afr", "lite"], ["rm", "lite"]],
            "max_at_most": 0.0062, "mean_between": [0.0005, 0.002]}
    status, why = rep._check(diff, r, None, {})
    assert status == rep.HOLDS and "largest 0.002, mean 0.00075" in why  # differences 0.001, 0.002, 0, 0
    assert rep._check({**diff, "max_at_most": 0.0015}, r, None, {})[0] == rep.FAILS
    assert rep._check({**diff, "min_at_least": 0.0005}, r, None, {})[0] == rep.FAILS
    greater = {"kind": "variant_mean_greater", "measure": "eff", "x": "x", "variant": "afr", "than": ["rm", "lite"],
               "margin": 0.09}
    assert rep._check(greater, r, None, {})[0] == rep.HOLDS  # 0.85 vs 0.75
    assert rep._check({**greater, "margin": 0.11}, r, None, {})[0] == rep.FAILS
    # AD97's retransmission cost: 10 segments × 9168 B × 8 over 141.33 Mbit/s × 10 s.
    summary = {"params": {"link_rate": "141.33 Mbit/s"}, "duration_s": 10.0,
               "flows": [{"segments_retransmitted": 4}, {"segments_retransmitted": 6}]}
    assert rep.derived_measures(summary)["retransmitted_link_share"] == pytest.approx(10 * 9168 * 8 / 1.4133e9)
    assert rep.derived_measures({**summary, "params": {}})["retransmitted_link_share"] != \
        rep.derived_measures(summary)["retransmitted_link_share"]  # NaN without a link rate


def test_bkd97_measures_and_claim_kinds():
    tcp = lambda seg, retx, done, bursts, burst, idle: dict(  # noqa: E731
        segments_sent=seg, segments_retransmitted=retx, completion_s=done, bytes_delivered=1_000_000,
        bursts=bursts, mean_burst_segments=burst, mean_idle_s=idle, timeouts=1)  # fmt: skip
    vc = lambda name, policed, corrupted: dict(  # noqa: E731
        name=name, cells_dropped=policed, cells_delivered=1000, frames_lost=1, frames_delivered=10,
        cells_policed=policed, corrupted_pdus=corrupted, reassembly_timeouts=0)  # fmt: skip
    summary = {"duration_s": 100.0, "flows": [tcp(120, 20, 4.0, 10, 12.0, 1.0), tcp(130, 30, 8.0, 4, 32.5, 2.0)],
               "vcs": [vc("vbr", 50, 3), vc("vbr-ack", 0, 0)]}  # fmt: skip
    d = rep.derived_measures(summary)
    assert d["transfer_throughput_bps"] == pytest.approx(2e6 * 8 / 8.0)  # all bytes over the last completion
    assert d["retransmitted_fraction"] == pytest.approx(50 / 200)
    assert d["mean_burst_segments"] == pytest.approx(250 / 14) and d["mean_idle_s"] == pytest.approx((9 + 6) / 12)
    assert (d["cells_policed"], d["corrupted_pdus"], d["completion_s"]) == (50, 3, 8.0)
    summary["flows"][1]["completion_s"] = None  # one transfer unfinished: over the run's duration
    d = rep.derived_measures(summary)
    assert d["transfer_throughput_bps"] == pytest.approx(2e6 * 8 / 100.0) and d["completion_s"] != d["completion_s"]
    # The packet-train model is the command line's (eq. 2 and the recovery idle at two points).
    m = rep.gcra_train("10 Mbit/s", 1000, 9188, 376e-6)
    assert (m["cells_per_pdu"], m["train_pdus"]) == (192, 5) and m["train_recovery_s"] == pytest.approx(7.617e-3, rel=1e-3)
    assert rep.gcra_train("10 Mbit/s", 1000, 552, 272e-6)["train_pdus"] == 193
    p = rep.packet_train_measures({"params": {"scr": "10 Mbit/s", "mbs": 1000, "mtu": "9188 B", "processing": "900 us"},
                                   "flows": [tcp(500, 40, 4.0, 1, 500, 0)], "vcs": []})  # fmt: skip
    assert p["inter_pdu_idle_s"] == pytest.approx(900e-6 - 192 * 2.726337e-6, rel=1e-6)
    assert p["scr_max_goodput_bps"] == pytest.approx(9148 * 8 / (192 * 42.4e-6))

    def fake(rows):
        r = SweepResult.__new__(SweepResult)
        r.aggregate, r._grid, r.params = pd.DataFrame(rows), ["x"], ["x"]
        return r

    a = fake([dict(variant=v, x=x, seed=1, y=y, m=mo) for v, x, y, mo in
              [("p", 1, 1.0, 1.0), ("p", 2, 2.0, 2.5), ("q", 1, 3.0, 1.0), ("q", 2, 4.0, 2.0)]])  # fmt: skip
    b = fake([dict(variant=v, x=x, seed=1, y=y) for v, x, y in [("p", 1, 0.5), ("p", 2, 1.0), ("q", 1, 3.0), ("q", 2, 1.0)]])
    between = {"kind": "all_between", "measure": "y", "x": "x", "min": 0.5, "max": 2.0}
    assert rep._check(between, a, "p", {})[0] == rep.HOLDS and rep._check(between, a, "q", {})[0] == rep.FAILS
    rb = {"kind": "ratio_between", "measure": "y", "over": "m", "x": "x", "min": 0.75, "max": 1.25}
    assert rep._check(rb, a, "p", {})[0] == rep.HOLDS  # 1 / 1 and 2 / 2.5
    assert rep._check({**rb, "min": 0.85}, a, "p", {})[0] == rep.FAILS
    rr = {"kind": "run_ratio", "run": "a", "than_run": "b", "measure": "y", "min_ratio": 1.5, "max_ratio": 2.5}
    status, why = rep._check(rr, a, "p", {}, {"a": a, "b": b})
    assert status == rep.HOLDS and "2.000" in why
    assert rep._check(rr, a, "q", {}, {"a": a, "b": b})[0] == rep.FAILS  # 1.0 and 4.0
    vg = {"kind": "variant_greater", "measure": "y", "x": "x", "variant": "q", "than": ["p"]}
    assert rep._check(vg, a, None, {})[0] == rep.HOLDS
    # A tie (equal means, e.g. both at 100 %) is named, not a failure; a point below still fails,
    # and ties alone show no effect.
    t = fake([dict(variant=v, x=x, seed=1, y=y) for v, x, y in [("p", 1, 1.0), ("p", 2, 2.0), ("q", 1, 1.0), ("q", 2, 3.0)]])
    status, why = rep._check(vg, t, None, {})
    assert status == rep.HOLDS and "ties, not counted: x=1" in why
    below = fake([dict(variant=v, x=x, seed=1, y=y) for v, x, y in [("p", 1, 1.0), ("p", 2, 2.0), ("q", 1, 0.5), ("q", 2, 3.0)]])
    assert rep._check(vg, below, None, {})[0] == rep.FAILS
    flat = fake([dict(variant=v, x=x, seed=1, y=1.0) for v, x in [("p", 1), ("p", 2), ("q", 1), ("q", 2)]])
    assert rep._check(vg, flat, None, {})[0] == rep.FAILS
    # Several seeds: the explanation gives the seed mean's 95 % confidence half-width (Student's t).
    two = fake([dict(variant="p", x=1, seed=sd, y=y) for sd, y in [(1, 1.0), (2, 3.0)]])
    status, why = rep._check({"kind": "all_at_most", "measure": "y", "value": 2.5}, two, "p", {})
    assert status == rep.HOLDS and "mean over 2 seeds; 95 % CI ± 12.71" in why  # 12.706 × √2 / √2
    assert "CI" not in rep._check({"kind": "all_at_most", "measure": "y", "value": 2.5}, a, "p", {})[1]
    close = {"kind": "close_to", "measure": "y", "x": "x", "at_x": [2], "value": 2.0, "rel_tol": 0.01}
    assert rep._check(close, a, "p", {})[0] == rep.HOLDS and rep._check(close, a, "q", {})[0] == rep.FAILS


def test_identical_seeds_are_warned_about():
    from celltrain.reproduce.seed_check import identical_seeds_warning

    def fake(hashes):
        r = SweepResult.__new__(SweepResult)
        rows = [dict(variant="v", x=x, seed=sd, trace_hash=h) for (x, sd), h in hashes.items()]
        r.aggregate, r._grid, r.params = pd.DataFrame(rows), ["x"], ["x"]
        return r

    same = fake({(1, 1): "a", (1, 2): "a", (2, 1): "b", (2, 2): "c"})
    assert "at 1 of 2 points" in identical_seeds_warning("r", same)
    assert identical_seeds_warning("r", fake({(1, 1): "a", (1, 2): "b"})) is None
    assert identical_seeds_warning("r", fake({(1, 1): "a", (2, 1): "a"})) is None  # one seed


def test_conjectures_and_quick_blind_claims_are_not_judged():
    def verdicts():
        return [rep.Verdict(claim="c", text="t", source="s", status=rep.FAILS, explanation="why", finding="f")]

    conj = rep.report._unjudged({"conjecture": True}, False, verdicts())
    assert [(v.status, v.finding, v.explanation) for v in conj] == [(rep.REPORTED, "", "why")]
    blind = rep.report._unjudged({}, True, verdicts())
    assert blind[0].status == rep.NOT_JUDGED_QUICK and blind[0].explanation == "why"
    assert rep.report._unjudged({}, False, verdicts())[0].status == rep.FAILS
    pending = [rep.Verdict(claim="c", text="t", source="s", status=rep.NOT_RUNNABLE, explanation="")]
    assert rep.report._unjudged({"conjecture": True}, True, pending)[0].status == rep.NOT_RUNNABLE
    exp = {"run": [{"name": "r", "quick_judged": False}, {"name": "q"}]}
    assert rep.report._run_of(exp, {"run": "r"})["quick_judged"] is False
    assert rep.report._run_of(exp, {"run": "z"}) == {}


def test_missing_scenarios_make_claims_not_yet_runnable(tmp_path, monkeypatch):
    monkeypatch.setattr(rep.report, "builtin_names", lambda: ["A1-udp"])  # where reproduce() looks it up
    report = rep.reproduce("MSc98", out=tmp_path, quick=True, jobs=1, progress=False)
    assert [e.id for e in report.experiments] == ["A1"]
    assert {n["id"] for n in report.not_runnable} >= {"A4", "A5", "A13"}
    statuses = {v.claim: v.status for v in report.verdicts}
    assert statuses["A1.udp-ubr"] == rep.HOLDS
    assert statuses["A1.tcp-ubr"] == rep.NOT_RUNNABLE


def test_every_kind_in_the_data_has_a_check_or_a_figure():
    _, _, papers = rep.catalogue()
    kinds = set()
    for paper in papers.values():
        for exp in paper.get("experiment", []):
            for claim in exp.get("claim", []):
                assert claim["kind"] in rep.CHECKS, claim["id"]
                kinds.add(claim["kind"])
            for plot in exp.get("plot", []):
                assert plot["kind"] in rep.figures._KINDS, exp["id"]
    assert kinds == set(rep.CHECKS)  # no check without a claim that uses it
    r = SweepResult.__new__(SweepResult)
    r.aggregate = pd.DataFrame([dict(seed=1, y=1.0)])
    with pytest.raises(ValueError, match="unknown kind 'nope'"):
        rep._check({"id": "t", "kind": "nope", "measure": "y"}, r, None, {})


def test_targets():
    assert rep.select("A5") == ["A5"] == rep.select("a5")
    a = rep.select("MSc98")
    assert a == rep.select("001") == rep.select("A") and a[0] == "A1" and len(a) == 13
    assert rep.select("E") == ["E1", "E2", "E3", "E4"]
    assert len(rep.select("all")) == 35  # the five papers' 34 and L1
    assert rep.select("L") == ["L1"] == rep.select("005")
    with pytest.raises(rep.UnknownTarget):
        rep.select("Z9")
    res = celltrain_cli("reproduce", "Z9", "--quick")
    assert res.returncode == 2 and res.stderr.startswith("error: unknown reproduction target")


def test_cac_models():
    # Bufferless: 5 sources of 31.1 Mbit/s (on 20 %) fit 149.76 Mbit/s at CLR 1e-4, 6 do not.
    assert rep.convolution_loss(5, 31.1e6, 149.76e6, 0.2) == pytest.approx(5.9e-5, rel=0.02)
    assert rep.convolution_loss(6, 31.1e6, 149.76e6, 0.2) > 1e-4
    assert rep.convolution_loss(4, 31.1e6, 149.76e6, 0.2) == 0.0
    # Effective bandwidth: the peak with no buffer, towards the mean with a huge one.
    assert rep.effective_bandwidth(31.1e6, 0.02, 0.08, 0.0, 1e-4) == pytest.approx(31.1e6)
    assert rep.effective_bandwidth(31.1e6, 0.02, 0.08, 1e12, 1e-4) == pytest.approx(6.22e6, rel=1e-3)
    eb = rep.effective_bandwidth(31.1e6, 0.02, 0.08, 4000 * 424, 1e-4)
    assert 6.22e6 < eb < 31.1e6


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


CHECK_SCRIPT = """
<script>
window.addEventListener('load', function () {
  var imgs = Array.prototype.slice.call(document.images);
  var bad = imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0 && i.naturalHeight > 0); });
  document.body.setAttribute('data-images', String(imgs.length));
  document.body.setAttribute('data-broken', String(bad.length));
  document.body.setAttribute('data-widths', imgs.map(function (i) { return i.naturalWidth; }).join(','));
});
</script>
"""


def test_html_report_renders_in_headless_chromium(report_dir, tmp_path):
    browser = _chromium()
    if browser is None:
        pytest.skip("Chromium is not installed (scripts/test.sh installs it with apt-get); HTML rendering not checked")
    html = (report_dir / "index.html").read_text()
    n_images = html.count("<img ")
    assert n_images >= 6
    page = tmp_path / "check.html"  # a copy with a probe script, beside nothing else
    page.write_text(html.replace("</body>", CHECK_SCRIPT + "</body>"))
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
             f"--user-data-dir={tmp_path / 'profile'}"]  # fmt: skip
    dom = subprocess.run(
        [browser, *flags, "--virtual-time-budget=10000", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert dom.returncode == 0, dom.stderr[-2000:]
    m = re.search(r'data-images="(\d+)" data-broken="(\d+)" data-widths="([\d,]*)"', dom.stdout)
    assert m, "the probe did not run: " + dom.stdout[:500]
    assert int(m.group(1)) == n_images
    assert int(m.group(2)) == 0, "images that did not load: widths " + m.group(3)
    assert all(int(w) > 100 for w in m.group(3).split(","))
    shot = tmp_path / "shot.png"
    res = subprocess.run(
        [browser, *flags, f"--screenshot={shot}", "--window-size=1200,3000", (report_dir / "index.html").as_uri()],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert res.returncode == 0 and shot.exists(), res.stderr[-2000:]
    assert shot.stat().st_size > 50_000  # a rendered page, not a blank one


def test_region_run_measures_the_admissible_region_by_bisection(tmp_path):
    """A run with ``region`` (E1's full report) bisects N_nrt for each N_rt instead of sweeping a
    grid; the CAC comparison reads the measured region from the edges it found."""
    from celltrain.reproduce.models import cac_regions
    from celltrain.reproduce.running import run_sweeps
    from celltrain.reproduce.specs import RunSpec

    d = {
        "name": "mux", "scenario": "E1-mux", "grid": {"n_rt": [1], "n_nrt": [0]}, "seeds": [1],
        "params": {"duration": "2 s", "warmup": "0.2 s"},
        "region": {"n_rt": [0, 6], "limit": 6, "max_replications": 2},
    }  # fmt: skip
    assert RunSpec.of(d, quick=True).region is None, "the quick report keeps the grid"
    spec = RunSpec.of(d, quick=False)
    assert "bisection" in spec.grid_text()
    model = {"link_bps": 149.76e6, "peak_bps": 31.1e6, "on_s": 0.02, "off_s": 0.08,
             "rt_buffer_cells": 48, "nrt_buffer_cells": 4000, "target_clr": 1e-4}  # fmt: skip
    result = run_sweeps(spec, tmp_path / "store", None, 1, False, model)
    rows = result._region_rows
    assert list(rows["n_rt"]) == [0, 6]
    edge = dict(zip(rows["n_rt"], rows["largest_n_nrt"]))
    # Six rt sources at 31.1 Mbit/s peak overload the 48-cell rt queue: not even N_nrt = 0 passes.
    assert edge[6] == -1 and edge[0] >= 1
    regions = cac_regions(result, model)
    assert regions["measured"] == {(0, b) for b in range(edge[0] + 1)}
    assert len(regions["_points"]) == 2 * 7
    # Every replication the search ran is in the result, with its point's parameters.
    assert set(result.aggregate["n_rt"]) == {0, 6} and len(result.summaries) == len(result.aggregate)
