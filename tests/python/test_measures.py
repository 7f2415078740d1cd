"""The aggregate measures as the papers define them, as the Python front reports them."""

import celltrain

#: A3 long enough for its EPD switch to drop cells.
A3 = {"duration": "1.5 s", "warmup": "0.5 s"}


def test_mean_clr_is_over_the_data_vcs_in_sweeps_and_replications():
    s = celltrain.sweep("A3", grid={"n_sources": [5]}, seeds=[1], params=A3)
    row = s.aggregate.iloc[0]
    vcs = s.vcs
    data = set(s.flows["vc"])
    of_data = vcs[vcs["name"].isin(data)]["clr"].mean()
    of_acks = vcs[~vcs["name"].isin(data)]["clr"].mean()
    assert of_data > 0, "A3's data VCs lose cells"
    assert row["mean_clr"] == of_data
    assert row["mean_clr_reverse"] == of_acks
    # Every VC averaged together reads about half: the acknowledgement VCs lose nothing.
    assert row["mean_clr"] > vcs["clr"].mean()
    rep = s.replications(["mean_clr", "mean_clr_reverse"])
    assert rep["mean_clr_mean"].iloc[0] == of_data


def test_the_run_summary_carries_both_directions():
    r = celltrain.run("A3", params=A3)
    a = r.summary["aggregate"]
    assert a["mean_clr"] > a["mean_clr_reverse"] >= 0
    for v in r.summary["vcs"]:
        d = v.get("delay")
        if d:
            assert d["min_s"] <= d["p50_s"] <= d["p99_s"] <= d["p999_s"] <= d["max_s"]
            assert 0 <= d["resolution_s"] <= (d["max_s"] - d["min_s"]) / 2 + 1e-15
