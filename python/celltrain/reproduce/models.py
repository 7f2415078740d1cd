"""The papers' analytic models, set beside the measurements.

* The packet-train conformance model of Bonaventure, Klovning & Danthine (1997), *Is VBR a
  solution for an ATM LAN?*: the longest train of PDUs a dual GCRA (PCR, SCR, MBS) accepts
  (their eq. 2), the idle for an endless train (eq. 3) and the recovery after a burst.
* The connection admission control rules of Lorang, Renger, Pettersen et al., *Experiments
  on Integrated Traffic Control for ATM in the ACTS project EXPERT*, for a delay-priority
  port: the bufferless convolution, a linear rule on per-class effective bandwidths
  (Guérin, Ahmadi & Naghshineh, 1991, *Equivalent capacity and its application to bandwidth
  allocation in high-speed networks*), and their combined RT/NRT boundary.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Dict, Mapping, Optional, Tuple

from .. import _celltrain, cac
from .._sweep import SweepResult
from .measures import transfer_measures

_CELL_BITS = 424


@functools.lru_cache(maxsize=None)
def gcra_train(scr: str, mbs: int, mtu: int, gap_s: float = 0.0, inter_pdu: Optional[str] = None) -> Dict[str, float]:
    """The packet-train model at PCR = line rate, as ``celltrain gcra train`` computes it
    (the Rust ``celltrain_atm::contract::train``, on the UPC's own integer intervals), for
    PDUs separated by ``gap_s`` of idle, or sent every ``inter_pdu`` (the host's inter-PDU
    time as text, e.g. ``"900 us"``; the idle is then what remains once the c cells are sent):
    ``cells_per_pdu`` (c), ``t_pcr_s``, ``t_scr_s``, ``idle_s`` (I_p), ``train_pdus`` (the
    longest conforming train, eq. 2; inf when unbounded),
    ``train_min_gap_s`` (the smallest idle for an endless train, eq. 3; NaN when one PDU
    exceeds the MBS) and ``train_recovery_s`` (the idle after a maximal burst before a whole
    PDU is accepted again, c·(T_SCR − T_PCR))."""
    if inter_pdu is None:
        m = _celltrain.gcra_train(scr, mbs, gap=f"{gap_s * 1e12:.0f} ps", mtu=mtu)
    else:
        m = _celltrain.gcra_train(scr, mbs, inter_pdu=inter_pdu, mtu=mtu)
    nan = float("nan")
    return {
        "cells_per_pdu": float(m["cells_per_pdu"]),
        "t_pcr_s": m["t_pcr_s"],
        "t_scr_s": m["t_scr_s"],
        "idle_s": m["idle_s"],
        "train_pdus": float("inf") if m["train_pdus"] is None else float(m["train_pdus"]),
        "train_min_gap_s": nan if m["train_min_gap_s"] is None else m["train_min_gap_s"],
        "train_recovery_s": m["train_recovery_s"],
    }


def packet_train_measures(summary: Mapping[str, Any]) -> Dict[str, float]:
    """The packet-train model at one run's parameters (``scr``, ``mbs``, ``mtu``,
    ``processing``: the host's inter-PDU time), for runs with ``model = "packet_train"``.

    The PDUs leave the adapter at the line rate (T_PCR per cell) every ``processing``, so
    the idle between them is I_p = processing − c·T_PCR (``inter_pdu_idle_s``, at least 0);
    ``train_*`` are :func:`gcra_train` at that I_p. ``scr_max_goodput_bps``: the most TCP
    data the SCR carries, full segments of MTU − 40 bytes in c cells each sent every
    c·T_SCR; ``scr_utilisation``: ``transfer_throughput_bps`` over it."""
    p = summary["params"]
    mtu = int(re.match(r"\s*(\d+)", str(p["mtu"])).group(1))  # type: ignore[union-attr]
    model = gcra_train(str(p["scr"]), int(p["mbs"]), mtu, inter_pdu=str(p["processing"]))
    max_goodput = (mtu - 40) * 8.0 / (model["cells_per_pdu"] * model["t_scr_s"])
    throughput = transfer_measures(summary, [])["transfer_throughput_bps"]
    return {
        "cells_per_pdu": model["cells_per_pdu"],
        "inter_pdu_idle_s": model["idle_s"],
        "train_pdus": model["train_pdus"],
        "train_min_gap_s": model["train_min_gap_s"],
        "train_recovery_s": model["train_recovery_s"],
        "scr_max_goodput_bps": max_goodput,
        "scr_utilisation": throughput / max_goodput,
    }


def e1_source(model: Mapping[str, Any]) -> cac.OnOff:
    return cac.OnOff.from_periods(float(model["peak_bps"]), float(model["on_s"]), float(model["off_s"]))


def convolution_loss(n: int, peak: float, capacity: float, p_on: float) -> float:
    """Bufferless (convolution) cell loss ratio of ``n`` on/off sources: E[(kR − C)+] / E[kR]
    (the Rust ``celltrain_atm::cac`` model)."""
    return cac.convolution([(n, cac.OnOff(peak, p_on))], capacity).fluid_clr


def effective_bandwidth(peak: float, on_s: float, off_s: float, buffer_bits: float, target: float) -> float:
    """Guérin, Ahmadi & Naghshineh's (1991) fluid effective bandwidth of an on/off source
    (the Rust ``celltrain_atm::cac`` model)."""
    return cac.effective_bandwidth(cac.OnOff.from_periods(peak, on_s, off_s), buffer_bits, target)


def e1_port(model: Mapping[str, Any]) -> cac.DelayPriorityPort:
    """LRP97's delay-priority port from a ``[experiment.model]`` table; the convolution tests
    hold the fluid CLR under the target (the measured criterion is a CLR too)."""
    return cac.DelayPriorityPort(
        capacity_bps=float(model["link_bps"]),
        rt_buffer_bits=float(model["rt_buffer_cells"]) * _CELL_BITS,
        nrt_buffer_bits=float(model["nrt_buffer_cells"]) * _CELL_BITS,
        target=float(model["target_clr"]),
    )


def _measured_region(result: SweepResult, points: list, target: float) -> Tuple[set, set]:
    """(the grid points whose worst CLR is within ``target``, those of them whose every
    smaller point is too)."""
    cats = result.categories
    worst: Dict[Tuple[int, int], float] = {pt: 0.0 for pt in points}
    for (a, b, clr) in zip(cats["n_rt"], cats["n_nrt"], cats["clr"]):
        key = (int(a), int(b))
        worst[key] = max(worst[key], float(clr) if clr == clr else 0.0)  # max over classes and seeds
    ok = {pt for pt in points if worst[pt] <= target}
    # The admissible region is downward closed: a point counts if every grid point with no
    # more sources of either class is admissible too.
    measured = {pt for pt in ok if all(q in ok for q in points if q[0] <= pt[0] and q[1] <= pt[1])}
    return ok, measured


def cac_regions(result: SweepResult, model: Mapping[str, Any]) -> Dict[str, set]:
    """Grid points (n_rt, n_nrt) admitted by the measurement and by each CAC rule."""
    agg = result.aggregate
    target = float(model["target_clr"])
    source = e1_source(model)
    port = e1_port(model)
    eb_rt = cac.effective_bandwidth(source, port.rt_buffer_bits, target)
    eb_nrt = cac.effective_bandwidth(source, port.nrt_buffer_bits, target)
    rows = getattr(result, "_region_rows", None)
    if rows is not None:
        # Measured by bisection: every N_nrt up to the limit, admissible up to the edge found.
        limit = int(getattr(result, "_region_limit"))
        points = [(int(a), b) for a in rows["n_rt"] for b in range(limit + 1)]
        edge = {int(a): int(e) for a, e in zip(rows["n_rt"], rows["largest_n_nrt"])}
        ok = {pt for pt in points if pt[1] <= edge[pt[0]]}
        measured = {pt for pt in ok if all(q in ok for q in points if q[0] <= pt[0] and q[1] <= pt[1])}
    else:
        points = sorted({(int(a), int(b)) for a, b in zip(agg["n_rt"], agg["n_nrt"])})
        ok, measured = _measured_region(result, points, target)

    def region(rule: str) -> set:
        return {pt for pt in points if port.admits(rule, [(pt[0], source)], [(pt[1], source)])}

    return {
        "measured": measured,
        "measured_raw": ok,
        "convolution": region("convolution"),
        "linear": region("linear"),
        "combined": region("combined"),
        "_eb": {"rt": eb_rt, "nrt": eb_nrt},  # type: ignore[dict-item]
        "_points": points,  # type: ignore[dict-item]
    }
