"""MSc98's experiments run every arm the thesis tabulates (issue 40, section 2): TCP over ABR
beside Table 5.1 (A1) and Table 5.5 (A5), the UDP arm of Table 5.17 (A11), and A13's UDP arm
(Table 5.20) and sweep over the number of congested links (Figures 5.11-5.14)."""

import celltrain
from celltrain import reproduce as rep
from celltrain.reproduce.specs import RunSpec, catalogue


def _experiment(exp_id):
    return next(e for e in catalogue()[2]["MSc98"]["experiment"] if e["id"] == exp_id)


def _run(exp, name, quick=False):
    return RunSpec.of(next(r for r in exp["run"] if r["name"] == name), quick=quick)


def _published(exp, name):
    return next(p for p in exp["published"] if p["name"] == name)


def _claims_on(exp, run):
    return {c["id"]: c for c in exp["claim"] if c["run"] == run}


def _assert_arm(exp_id, run, scenario, service, published, rows, claims):
    """The run exists with the scenario and service, its published rows are the table's, and
    the named claims judge it."""
    exp = _experiment(exp_id)
    spec = _run(exp, run)
    assert spec.scenario == scenario and spec.params.get("service", "ubr") == service
    assert spec.scenario in {s["name"] for s in celltrain.scenarios()}
    assert _published(exp, published)["rows"] == rows
    assert set(claims) <= set(_claims_on(exp, run))
    assert any(t["run"] == run and t.get("published") == published for t in exp["table"])
    return exp


def test_a1_runs_tcp_over_abr_beside_table_5_1(tmp_path):
    _assert_arm(
        "A1", "tcp-abr", "A1-tcp", "abr", "table_5_1_tcp_abr",
        [{"goodput_bps": 129e6, "max_goodput_bps": 130.306e6}], {"A1.tcp-abr"},
    )  # fmt: skip
    report = rep.reproduce("A1", out=tmp_path, quick=True, jobs=1, progress=False)
    verdicts = {v.claim: v for v in report.experiments[0].verdicts}
    assert verdicts["A1.tcp-abr"].status in (rep.HOLDS, rep.FAILS)
    assert "129.000 Mbit/s" in verdicts["A1.tcp-abr"].explanation


def test_a5_runs_tcp_over_abr_beside_table_5_5():
    table_5_5_abr = [(5, 129e6, 0.9899, 0.999), (10, 128.91e6, 0.9895, 0.998), (15, 128.53e6, 0.9894, 0.998),
                     (20, 129e6, 0.9899, 0.997)]  # fmt: skip
    rows = [
        dict(n_sources=n, goodput_bps=g, efficiency=e, fairness_index=fi, mean_clr=0.0, mean_plr=0.0,
             mean_retransmission_ratio=0.0)
        for n, g, e, fi in table_5_5_abr
    ]  # fmt: skip
    exp = _assert_arm(
        "A5", "tcp-abr", "A5-tcp", "abr", "table_5_5_tcp_abr", rows,
        {"A5.tcp-abr-efficiency", "A5.tcp-abr-fair", "A5.tcp-abr-wins", "A5.tcp-abr-fairer"},
    )  # fmt: skip
    # The same loads as the UBR+EPD arm it is compared with, in full and in quick mode.
    for quick in (False, True):
        assert _run(exp, "tcp-abr", quick).grid == _run(exp, "tcp-ubr", quick).grid
    assert _run(exp, "tcp-abr").grid == {"n_sources": [5, 10, 15, 20]}


def test_a11_runs_udp_through_edge_routers_beside_table_5_17(tmp_path):
    table_5_17_abr = [(5, 120.6e6, 0.924, 0.996, 0.756, 0.9462), (10, 120.2e6, 0.912, 0.997, 0.845, 0.956),
                      (15, 118.9e6, 0.907, 0.996, 0.886, 0.967), (20, 117.99e6, 0.904, 0.996, 0.897, 0.973)]  # fmt: skip
    rows = [
        dict(n_sources=n, goodput_bps=g, efficiency=e, fairness_index=fi, mean_clr=clr, mean_plr=plr)
        for n, g, e, fi, clr, plr in table_5_17_abr
    ]
    exp = _assert_arm("A11", "udp-abr", "A10-udp", "abr", "table_5_17_abr", rows, {"A11.udp-gain", "A11.udp-abr-plr"})
    # B_e = 8192 / N at every N, for both services, as the TCP arm has it.
    for run in ("udp-ubr", "udp-abr"):
        spec = _run(exp, run)
        assert spec.scenario == "A10-udp" and spec.grid == {"n_sources": [5, 10, 15, 20]}
        assert spec.params["nic_buffer"] == "{8192 // n_sources} cells"
    report = rep.reproduce("A11", out=tmp_path, quick=True, jobs=1, progress=False)
    verdicts = {v.claim: v.status for v in report.experiments[0].verdicts}
    assert verdicts["A11.udp-gain"] in (rep.HOLDS, rep.FAILS)
    assert verdicts["A11.udp-abr-plr"] in (rep.HOLDS, rep.FAILS)


def test_a13_runs_udp_beside_table_5_20():
    rows = [{"goodput_bps": 80.3e6, "efficiency": 0.6162, "fairness_index": 1.0, "mean_clr": 0.553, "mean_plr": 0.6531}]
    _assert_arm("A13", "udp-abr", "A13-udp", "abr", "table_5_20_abr", rows, {"A13.udp-abr-wins"})


def test_a13_sweeps_the_number_of_congested_links_in_quick_mode_too():
    exp = _experiment("A13")
    for run, scenario in (("tcp-ubr-links", "A13"), ("tcp-abr-links", "A13"), ("udp-ubr-links", "A13-udp"),
                          ("udp-abr-links", "A13-udp")):  # fmt: skip
        assert _run(exp, run).grid == {"n_links": [1, 2, 3, 4, 5]} and _run(exp, run).scenario == scenario
        assert _run(exp, run, quick=True).grid == {"n_links": [1, 3, 5]}
    claims = {c["id"]: c for c in exp["claim"]}
    assert claims["A13.links-ubr-vc1-falls"]["run"] == "tcp-ubr-links"
    assert claims["A13.links-gain"]["than_run"] == "tcp-ubr-links"


def test_a13_udp_scenario_takes_the_number_of_links():
    """A13-udp is A13 with greedy UDP sources: two through VCs and two local VCs per link."""
    short = {"duration": "0.3 s", "warmup": "0.1 s"}
    for n_links in (1, 4):
        flows = celltrain.run("A13-udp", params={**short, "n_links": str(n_links)}).flows
        assert len(flows) == 2 + 2 * n_links
        assert set(flows["kind"]) == {"udp"} and flows["goodput_bps"].sum() > 0
