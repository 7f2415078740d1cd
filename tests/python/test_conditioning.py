"""Token-bucket policing and shaping of packet links, seen from Python: the port frame's
conditioning counters (nullable integers, null where a port has no policer or shaper)."""

from pathlib import Path

import celltrain

SCENARIO = Path(__file__).parents[1] / "policed-shaped-udp.toml"


def test_the_port_frame_counts_what_policers_and_shapers_did():
    r = celltrain.run(SCENARIO)
    ports = r.ports.set_index("name")
    for column in ("police_conforming", "police_dropped", "shape_delayed", "shape_dropped"):
        assert ports[column].dtype == "Int64", column
    policed, shaped = ports.loc["src->r"], ports.loc["r->dst"]
    assert policed["police_conforming"] > 0 and policed["police_dropped"] > 0
    assert ports["police_conforming"].isna().sum() == len(ports) - 1
    assert shaped["shape_delayed"] > 0 and 0 < shaped["shape_dropped"] <= shaped["packets_dropped"]
    assert ports["shape_delayed"].isna().sum() == len(ports) - 1
    # What the policer passed is what reaches the shaper's port, at most 8 Mbit/s of it.
    assert shaped["packets_in"] <= policed["police_conforming"]
    assert r.summary["ports"][0]["police_conforming"] == policed["police_conforming"]
