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
import math
import re
from typing import Any, Dict, Mapping, Optional, Tuple

import numpy as np

from .. import _celltrain
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


def _binom_pmf(n: int, p: float) -> np.ndarray:
    k = np.arange(n + 1)
    logc = np.array([math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) for i in k])
    with np.errstate(divide="ignore"):
        return np.exp(logc + k * math.log(p) + (n - k) * (math.log1p(-p) if p < 1 else -np.inf))


def convolution_loss(n: int, peak: float, capacity: float, p_on: float) -> float:
    """Bufferless (convolution) cell loss ratio of ``n`` on/off sources: E[(kR − C)+] / E[kR]."""
    if n == 0:
        return 0.0
    pmf = _binom_pmf(n, p_on)
    k = np.arange(n + 1)
    excess = np.maximum(k * peak - capacity, 0.0)
    return float((pmf * excess).sum() / (n * p_on * peak))


def effective_bandwidth(peak: float, on_s: float, off_s: float, buffer_bits: float, target: float) -> float:
    """Guérin, Ahmadi & Naghshineh's (1991) fluid effective bandwidth of an on/off source."""
    rho = on_s / (on_s + off_s)
    alpha = math.log(1.0 / target)
    y = alpha * on_s * (1.0 - rho) * peak
    x = buffer_bits
    return peak * (y - x + math.sqrt((y - x) ** 2 + 4.0 * x * rho * y)) / (2.0 * y)


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
    C, R = float(model["link_bps"]), float(model["peak_bps"])
    p_on = model["on_s"] / (model["on_s"] + model["off_s"])
    eb_rt = effective_bandwidth(R, model["on_s"], model["off_s"], model["rt_buffer_cells"] * _CELL_BITS, target)
    eb_nrt = effective_bandwidth(R, model["on_s"], model["off_s"], model["nrt_buffer_cells"] * _CELL_BITS, target)
    points = sorted({(int(a), int(b)) for a, b in zip(agg["n_rt"], agg["n_nrt"])})
    ok, measured = _measured_region(result, points, target)
    conv = {pt for pt in points if convolution_loss(pt[0] + pt[1], R, C, p_on) <= target}
    linear = {pt for pt in points if pt[0] * eb_rt + pt[1] * eb_nrt <= C * (1 + 1e-12)}
    combined = {
        pt for pt in points if convolution_loss(pt[0], R, C, p_on) <= target and (pt[0] + pt[1]) * eb_nrt <= C * (1 + 1e-12)
    }
    return {
        "measured": measured,
        "measured_raw": ok,
        "convolution": conv,
        "linear": linear,
        "combined": combined,
        "_eb": {"rt": eb_rt, "nrt": eb_nrt},  # type: ignore[dict-item]
        "_points": points,  # type: ignore[dict-item]
    }
