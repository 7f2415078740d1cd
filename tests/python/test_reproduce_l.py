"""`celltrain reproduce L`: the experiment with no paper (issue 38) writes its section in quick
mode — tables of goodput, retransmissions and timeouts per point, its plots, and claims that
are reported with their numbers, never judged."""

import re

from celltrain import reproduce as rep
from conftest import celltrain_cli


def test_reproduce_l_quick_writes_its_section(tmp_path):
    assert rep.select("L") == ["L1"] == rep.select("l")
    res = celltrain_cli("reproduce", "L", "--quick", "--out", str(tmp_path), "--quiet")
    assert res.returncode == 0, res.stderr
    md = (tmp_path / "index.md").read_text()
    assert "\n## L1\n" in md
    section = md.split("\n## L1\n", 1)[1]
    # One table per run and measure, and a plot per run.
    for run in ("L1, CUBIC, SACK + RACK-TLP", "L1, Reno, SACK + RACK-TLP", "L1, CUBIC without SACK / RACK-TLP",
                "L1-atm, 1997's TCP (bsd) and today's (linux)"):
        for measure in ("transfer throughput", "segments retransmitted", "retransmission timeouts"):
            assert re.search(rf"\*\*{re.escape(run)}[^*]* — {measure}", section), (run, measure)
    assert len(list((tmp_path / "img").glob("L1-*.png"))) == 4
    # Every claim is reported, none judged: there is no paper to hold them to.
    table = md.split("\n## ", 1)[0]
    claims = dict(re.findall(r"^\| \[L1\]\(#l1\) \| ([\w.-]+) \| (.+) \|$", table, re.M))
    assert len(claims) == 6
    for claim, verdicts in claims.items():
        assert set(re.findall(r"📝 reported, not judged|✅|❌", verdicts)) == {"📝 reported, not judged"}, claim
    # The quick grid's two buckets, with the collapse under the policer at MTU 9000 and the
    # shaper near the rate.
    first = section.split("— transfer throughput**", 1)[1].split("\n\n", 2)[1]
    rows = {r.split(" | ")[0].strip("| "): r for r in first.splitlines()[2:]}
    assert sorted(rows) == ["10000", "106000"]
    cells = [float(c.split()[0]) for c in rows["10000"].strip("| ").split(" | ")[1:]]
    police_9000, shape_9000 = cells[2], cells[5]
    assert police_9000 < 1.0 < 8.5 < shape_9000, cells
