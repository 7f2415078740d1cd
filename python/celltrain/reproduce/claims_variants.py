"""Claim kinds that weigh variants of one run against each other over a whole sweep (AD97:
shares of a gain, differences between pairs of variants, averages over buffer sizes).

``variant_gain_share``: (mean over ``x`` of variant − base) / (mean over ``x`` of than − base)
in [``min``, ``max``]; ``variant_difference``: for each pair ``[a, b]`` of ``pairs`` and each
``x``, a − b; holds when the largest is ≤ ``max_at_most`` and the smallest ≥ ``min_at_least``
(each if given) and their mean is in ``mean_between`` (if given); ``variant_mean_greater``: the mean over ``x`` of ``variant``
exceeds that of ``than`` (each of them, if a list) by more than ``margin``;
``variant_ratio_somewhere``: at one ``x`` at least, variant / than lies in [``min_ratio``,
``max_ratio``] (either bound optional) — a paper's "can be 10–30 % lower";
``best_over_run_at_most``: the best seed-mean over this run's ``x`` (per variant) over run
``than_run``'s seed-mean (same variant, all its points) at most ``max_ratio``."""

from __future__ import annotations

from typing import Callable, Dict, List

from .claims import Judged, _Ask, _verdict
from .measures import fmt, mname


def _mean(a: _Ask, variant: str) -> float:
    return float(a.by_x(variant).mean())


def _gain_share(a: _Ask) -> Judged:
    c, m = a.claim, a.measure
    part, whole, base = _mean(a, c["variant"]), _mean(a, c["than"]), _mean(a, c["base"])
    gain_part, gain_whole = part - base, whole - base
    share = gain_part / gain_whole if gain_whole else float("nan")
    lo, hi = float(c["min"]), float(c["max"])
    ok = gain_whole > 0 and lo <= share <= hi
    return _verdict(ok), (
        f"mean {mname(m)}{a.over} over {c['x']}: '{c['base']}' {fmt(m, base)}, '{c['variant']}' {fmt(m, part)}, "
        f"'{c['than']}' {fmt(m, whole)}; gain of '{c['variant']}' / gain of '{c['than']}' = "
        f"{fmt(m, gain_part)} / {fmt(m, gain_whole)} = {share:.2f} (criterion: a positive gain, share in [{lo:g}, {hi:g}])"
    )


def _difference(a: _Ask) -> Judged:
    c, m = a.claim, a.measure
    diffs: List[float] = []
    parts = []
    for va, vb in c["pairs"]:
        d = a.by_x(va) - a.by_x(vb)
        diffs.extend(float(v) for v in d.dropna())
        parts.append(f"'{va}' − '{vb}': " + ", ".join(f"{k}: {fmt(m, float(v))}" for k, v in d.items()))
    if not diffs:
        return _verdict(False), "no pair of variants has values to compare"
    worst, least, mean = max(diffs), min(diffs), sum(diffs) / len(diffs)
    ok, crit = True, []
    if "min_at_least" in c:
        ok &= least >= float(c["min_at_least"])
        crit.append(f"smallest ≥ {fmt(m, float(c['min_at_least']))}")
    if "max_at_most" in c:
        ok &= worst <= float(c["max_at_most"])
        crit.append(f"largest ≤ {fmt(m, float(c['max_at_most']))}")
    if "mean_between" in c:
        lo, hi = (float(v) for v in c["mean_between"])
        ok &= lo <= mean <= hi
        crit.append(f"mean in [{fmt(m, lo)}, {fmt(m, hi)}]")
    return _verdict(ok), (
        f"differences in {mname(m)}{a.over}: smallest {fmt(m, least)}, largest {fmt(m, worst)}, mean {fmt(m, mean)} "
        f"(criterion: {'; '.join(crit)}); " + "; ".join(parts)
    )


def _mean_greater(a: _Ask) -> Judged:
    c, m = a.claim, a.measure
    than = c["than"] if isinstance(c["than"], list) else [c["than"]]
    margin = float(c.get("margin", 0.0))
    mine = _mean(a, c["variant"])
    others = {t: _mean(a, t) for t in than}
    ok = all(mine > v + margin for v in others.values())
    return _verdict(ok), (
        f"mean {mname(m)}{a.over} over {c['x']}: '{c['variant']}' {fmt(m, mine)}; "
        + ", ".join(f"'{t}' {fmt(m, v)}" for t, v in others.items())
        + f" (criterion: above each by more than {fmt(m, margin)})"
    )


def _ratio_somewhere(a: _Ask) -> Judged:
    c, m = a.claim, a.measure
    ratio = (a.by_x(c["variant"]) / a.by_x(c["than"])).dropna()
    lo, hi = c.get("min_ratio"), c.get("max_ratio")
    inside = ratio[(ratio >= float(lo) if lo is not None else True) & (ratio <= float(hi) if hi is not None else True)]
    crit = " and ".join(([f"≥ {float(lo):g}"] if lo is not None else []) + ([f"≤ {float(hi):g}"] if hi is not None else []))
    return _verdict(bool(len(inside))), (
        f"{mname(m)}{a.over}, '{c['variant']}' / '{c['than']}': "
        + ", ".join(f"{c['x']}={k}: {float(v):.3f}" for k, v in ratio.items())
        + f" (criterion: {crit} at one {c['x']} at least"
        + (f"; met at {c['x']}=" + ", ".join(str(k) for k in inside.index) if len(inside) else "")
        + ")"
    )


def _best_over_run(a: _Ask) -> Judged:
    c, m = a.claim, a.measure
    mine = a.by_x(a.variant).dropna()
    other = (a.runs or {})[c["than_run"]].aggregate
    theirs = other[other["variant"] == a.variant][m] if "variant" in other.columns else other[m]
    if mine.empty or theirs.dropna().empty:
        return _verdict(False), f"no value of {mname(m)} in one of the runs, so there is nothing to judge"
    best, base = float(mine.max()), float(theirs.mean())
    ratio = best / base if base else float("nan")
    hi = float(c["max_ratio"])
    return _verdict(ratio <= hi), (
        f"best {mname(m)}{a.over} of run '{c['run']}' is {fmt(m, best)} at {c['x']}={mine.idxmax()}, run "
        f"'{c['than_run']}' gives {fmt(m, base)}: ratio {ratio:.3f} (criterion: ≤ {hi:g}); all: "
        + ", ".join(f"{c['x']}={k}: {fmt(m, float(v))}" for k, v in mine.items())
    )


MORE_CHECKS: Dict[str, Callable[[_Ask], Judged]] = {
    "best_over_run_at_most": _best_over_run,
    "variant_ratio_somewhere": _ratio_somewhere,
    "variant_gain_share": _gain_share,
    "variant_difference": _difference,
    "variant_mean_greater": _mean_greater,
}
