"""ABR from Python: the summary's end systems, and the measures MSc98's reproduction derives."""

import math

import pytest

import celltrain
from celltrain.reproduce.measures import network_measures


def test_abr_run_reports_end_systems():
    r = celltrain.run("A1-udp", params={"service": "abr", "duration": "0.5 s", "warmup": "0.2 s"})
    abr = {a["vc"]: a for a in r.summary["abr"]}
    assert set(abr) == {"udp1", "udp1-rm"}  # the flow's VC and the one added to carry its RM cells back
    src = abr["udp1"]
    assert src["frm_sent"] > 1000 and src["brm_received"] > 1000
    assert src["acr_cells_per_s"] == pytest.approx(352_768)  # the PCR as the rate format carries it
    # The last ~5 ms of them (one way) are still on their way: about 55.
    assert 0 < src["frm_sent"] - abr["udp1-rm"]["frm_turned_around"] < 100
    agg = r.summary["aggregate"]
    assert agg["max_goodput_bps"] == pytest.approx(149.76e6 * 9140 / 10176 * 31 / 32)
    assert agg["goodput_bps"] == pytest.approx(130.306e6, rel=0.005)
    # Without ABR the list is absent from the summary.
    assert "abr" not in celltrain.run("A1-udp", params={"duration": "0.3 s", "warmup": "0.1 s"}).summary


def test_network_measures_by_hand():
    summary = {
        "aggregate": {"bottleneck": "a->b", "efficiency": 0.6},
        "ports": [{"name": "a->b", "max_queue_cells": 700, "utilization": 1.0, "cells_out": 1000}],
        "categories": [{"category": "nrt-vbr", "cells_sent": 420, "cells_dropped": 20}, {"category": "abr", "cells_sent": 600, "cells_dropped": 0}],
        "flows": [
            {"goodput_bps": 2e6, "packets_sent": 10, "packets_delivered": 3, "mean_delay_s": 0.010},
            {"goodput_bps": 8e6, "packets_sent": 10, "packets_delivered": 1, "mean_delay_s": 0.030},
        ],
        "abr": [{"max_queue_cells": 50}, {"max_queue_cells": 90}],
    }
    m = network_measures(summary)
    assert m["bottleneck_max_queue_cells"] == 700 and m["bottleneck_utilization"] == 1.0
    assert m["edge_max_queue_cells"] == 90
    assert m["min_max_goodput_ratio"] == pytest.approx(0.25)
    assert m["efficiency_of_capacity_left"] == pytest.approx(0.6 / (1 - 400 / 1000))  # VBR took 40 %
    assert m["mean_packet_delay_s"] == pytest.approx((3 * 0.010 + 0.030) / 4)
    empty = network_measures({"aggregate": {}, "flows": []})
    assert all(math.isnan(v) for v in empty.values())
    assert math.isnan(m["through_local_goodput_ratio"]), "no flows named vc<k> / local…"


def test_through_local_ratio_sets_vcs_1_and_2_against_the_local_vcs():
    """MSc98's configuration 1: the mean of vc1 and vc2 over the local VCs' mean (a locked-out
    local VC counts in the mean; `vc1-rm` style names are not through VCs)."""
    flows = [
        {"name": "vc1", "goodput_bps": 10e6},
        {"name": "vc2", "goodput_bps": 20e6},
        {"name": "vc1-extra", "goodput_bps": 99e6},
        {"name": "local1a", "goodput_bps": 30e6},
        {"name": "local1b", "goodput_bps": 0.0},
        {"name": "local2a", "goodput_bps": 60e6},
    ]
    m = network_measures({"aggregate": {}, "flows": flows})
    assert m["through_local_goodput_ratio"] == pytest.approx(15e6 / 30e6)
    dead = [{"name": "vc1", "goodput_bps": 1e6}, {"name": "local1a", "goodput_bps": 0.0}]
    assert math.isnan(network_measures({"aggregate": {}, "flows": dead})["through_local_goodput_ratio"])
