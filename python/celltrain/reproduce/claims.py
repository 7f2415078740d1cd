"""Checking the papers' claims against the measurements.

A claim (``[[experiment.claim]]`` in ``reproductions/<ID>.toml``) has a ``kind``; each
kind is judged by its own function in :data:`CHECKS`, which returns the verdict (``HOLDS``
or ``FAILS``) and the sentence that explains it from the measured numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from .._sweep import SweepResult
from .measures import fmt, mname
from .models import cac_regions
from .outcome import FAILS, HOLDS
from .rows import of_variant, point_cols, variants
from .significance import welch

Judged = Tuple[str, str]

#: Claim kinds judged once per variant of their run (the others compare variants, or have none).
PER_VARIANT = (
    "close_to", "all_at_least", "all_at_most", "all_between", "decreases", "increases", "min_flow_at_most", "best_at",
    "ratio_at_least", "ratio_at_most", "ratio_between", "run_ratio", "run_greater", "best_over_run_at_most",
)  # fmt: skip


@dataclass
class _Ask:
    """One claim put to one run (and variant): what every check needs."""

    claim: Mapping[str, Any]
    result: SweepResult
    variant: Optional[str]
    model: Mapping[str, Any]
    runs: Optional[Mapping[str, SweepResult]]
    measure: str
    #: " (mean over N seeds)" when the run has several seeds, else "".
    over: str

    def rows(self, variant: Optional[str]) -> pd.DataFrame:
        """The aggregate rows of ``variant`` the claim is about."""
        return _at_x(of_variant(self.result.aggregate, variant), self.claim)

    def by_x(self, variant: Optional[str]) -> pd.Series:
        """The seed-mean of the claim's measure at each of its ``x`` (of ``at_x``), for ``variant``."""
        return self.rows(variant).groupby(self.claim["x"], sort=True)[self.measure].mean()

    def samples_by_x(self, variant: Optional[str]) -> pd.Series:
        """The claim's measure at each ``x``, one value per seed (a list each), for ``variant``."""
        return self.rows(variant).groupby(self.claim["x"], sort=True)[self.measure].agg(list)

    def half_widths_by_x(self, variant: Optional[str]) -> pd.Series:
        """The 95 % confidence half-width of :meth:`by_x` at each ``x`` (0 with one seed)."""
        return self.rows(variant).groupby(self.claim["x"], sort=True)[self.measure].agg(_half_width)


def _verdict(ok: bool) -> str:
    return HOLDS if ok else FAILS


def _at_x(df: pd.DataFrame, claim: Optional[Mapping[str, Any]]) -> pd.DataFrame:
    """The rows a claim is about: those whose ``x`` is in its ``at_x`` list, if it has one."""
    if not claim or "at_x" not in claim:
        return df
    return df[df[claim["x"]].isin(list(claim["at_x"]))]


def _means(result: SweepResult, variant: Optional[str], measure: str, claim: Optional[Mapping[str, Any]] = None) -> pd.Series:
    """Mean of ``measure`` over seeds for each point of one variant (indexed by point)."""
    df = _at_x(of_variant(result.aggregate, variant), claim)
    cols = [c for c in point_cols(result) if c in df.columns and df[c].nunique(dropna=False) > 1]
    if not cols:
        return pd.Series([df[measure].mean()], index=["(single point)"])
    return df.groupby(cols, sort=True)[measure].mean()


def _index_names(means: pd.Series) -> List[str]:
    """The names of the grid columns that index ``means`` (none for a single point)."""
    return list(means.index.names) if means.index.name != None or means.index.nlevels > 1 else []  # noqa: E711


def _where(index_value: Any, names: Sequence[str]) -> str:
    if index_value == "(single point)":
        return ""
    vals = index_value if isinstance(index_value, tuple) else (index_value,)
    return " at " + ", ".join(f"{n}={v}" for n, v in zip(names, vals))


def _series_text(means: pd.Series, measure: str, x: str) -> str:
    return ", ".join(f"{x}={k}: {fmt(measure, v)}" for k, v in means.items())


def _all_text(means: pd.Series, measure: str, names: Sequence[str]) -> str:
    """Every point's value, when the points vary along one grid column."""
    return f"; all: {_series_text(means, measure, names[0])}" if len(names) == 1 else ""


def _ratio_bounds(claim: Mapping[str, Any]) -> Tuple[Any, Any, str]:
    """(``min_ratio``, ``max_ratio``, the criterion in words); either bound may be absent."""
    lo, hi = claim.get("min_ratio"), claim.get("max_ratio")
    crit = " and ".join(([f"≥ {float(lo):g}"] if lo is not None else []) + ([f"≤ {float(hi):g}"] if hi is not None else []))
    return lo, hi, crit


def _within(ratio: pd.Series, lo: Any, hi: Any) -> bool:
    return (lo is None or bool((ratio >= float(lo)).all())) and (hi is None or bool((ratio <= float(hi)).all()))


# --------------------------------------------------------------------------------------
# One function per claim kind


def _close_to(a: _Ask) -> Judged:
    """The seed-mean (over the ``at_x`` points, if given) within ``rel_tol`` of ``value``."""
    claim, measure = a.claim, a.measure
    m = float(a.rows(a.variant)[measure].mean())
    v = float(claim["value"])
    err = (m - v) / v
    ok = abs(err) <= float(claim["rel_tol"])
    where = f" at {claim['x']}=" + ", ".join(map(str, claim["at_x"])) if "at_x" in claim else ""
    return _verdict(ok), (
        f"measured {fmt(measure, m)}{a.over}{where} vs {fmt(measure, v)}: {err * 100:+.3f} % "
        f"({'within' if ok else 'outside'} the ±{float(claim['rel_tol']) * 100:g} % criterion)"
    )


def _all_between(a: _Ask) -> Judged:
    """Every point's seed-mean in [``min``, ``max``]."""
    claim, measure = a.claim, a.measure
    means = _means(a.result, a.variant, measure, claim).dropna()
    if means.empty:
        return FAILS, f"no point has a value of {mname(measure)}, so there is nothing to judge"
    names = _index_names(means)
    lo, hi = float(claim["min"]), float(claim["max"])
    out = means[(means < lo) | (means > hi)]
    ok = out.empty
    return _verdict(ok), (
        f"{mname(measure)}{a.over} ranges from {fmt(measure, float(means.min()))}{_where(means.idxmin(), names)} "
        f"to {fmt(measure, float(means.max()))}{_where(means.idxmax(), names)} (criterion: every point in "
        f"[{fmt(measure, lo)}, {fmt(measure, hi)}]"
        + ("" if ok else f"; {len(out)} of {len(means)} points outside") + ")"
        + _all_text(means, measure, names)
    )


def _run_ratio(a: _Ask) -> Judged:
    """At every point (of ``at_x``), this run's seed-mean over run ``than_run``'s, same
    variant, within [``min_ratio``, ``max_ratio``]."""
    claim, measure = a.claim, a.measure
    other = (a.runs or {})[claim["than_run"]]
    mine = _means(a.result, a.variant, measure, claim)
    theirs = _means(other, a.variant, measure, claim)
    ratio = (mine / theirs).replace([np.inf, -np.inf], np.nan).dropna()
    if ratio.empty:
        return FAILS, f"no point where both runs have a non-zero {mname(measure)}, so there is nothing to judge"
    names = _index_names(ratio)
    lo, hi, crit = _ratio_bounds(claim)
    ok = _within(ratio, lo, hi)
    label = names[0] if len(names) == 1 else "point"
    return _verdict(ok), (
        f"{mname(measure)}{a.over}, run '{claim['run']}' / run '{claim['than_run']}' ranges from {ratio.min():.3f}"
        f"{_where(ratio.idxmin(), names)} to {ratio.max():.3f}{_where(ratio.idxmax(), names)} "
        f"(criterion: {crit} at every point); "
        + ", ".join(f"{label}={k}: {fmt(measure, mine[k])} / {fmt(measure, theirs[k])} = {ratio[k]:.3f}" for k in ratio.index)
    )


def _run_greater(a: _Ask) -> Judged:
    """At every point (of ``at_x``), this run's seed-mean above run ``than_run``'s (same variant)
    by more than ``margin``: a comparison judged on the difference, which stays defined where
    the other run's value is 0 (a ratio against it is not)."""
    claim, measure = a.claim, a.measure
    mine = _means(a.result, a.variant, measure, claim)
    theirs = _means((a.runs or {})[claim["than_run"]], a.variant, measure, claim)
    diff = (mine - theirs).dropna()
    if diff.empty:
        return FAILS, f"no point where both runs have a value of {mname(measure)}, so there is nothing to judge"
    margin = float(claim.get("margin", 0.0))
    ok = bool((diff > margin).all())
    names = _index_names(diff)
    label = names[0] if len(names) == 1 else "point"
    return _verdict(ok), (
        f"{mname(measure)}{a.over}, run '{claim['run']}' − run '{claim['than_run']}' is at least "
        f"{_signed(measure, float(diff.min()))}{_where(diff.idxmin(), names)} (criterion: > {fmt(measure, margin)} at every point); "
        + ", ".join(
            ("" if k == "(single point)" else f"{label}={k}: ") + f"{fmt(measure, mine[k])} − {fmt(measure, theirs[k])}"
            + (f" (run '{claim['than_run']}' at 0: no ratio)" if theirs[k] == 0 else f" (ratio {mine[k] / theirs[k]:.3f})")
            for k in diff.index
        )
    )


def _every_point_bounded(a: _Ask, at_least: bool) -> Judged:
    """Every point's seed-mean ≥ (``at_least``) or ≤ ``value``: judged on the worst point."""
    claim, measure = a.claim, a.measure
    means = _means(a.result, a.variant, measure, claim).dropna()
    if means.empty:
        return FAILS, f"no point has a value of {mname(measure)} (e.g. no cell was lost), so there is nothing to judge"
    names = _index_names(means)
    v = float(claim["value"])
    if at_least:
        worst_at, worst = means.idxmin(), float(means.min())
        ok = worst >= v
        rel = "≥" if ok else "<"
    else:
        worst_at, worst = means.idxmax(), float(means.max())
        ok = worst <= v
        rel = "≤" if ok else ">"
    bound = "lowest" if at_least else "highest"
    return _verdict(ok), (
        f"{bound} {mname(measure)}{a.over} is {fmt(measure, worst)}{_where(worst_at, names)} "
        f"{rel} {fmt(measure, v)} (criterion: every point {'≥' if at_least else '≤'} "
        f"{fmt(measure, v)})" + _all_text(means, measure, names)
    )


def _all_at_least(a: _Ask) -> Judged:
    return _every_point_bounded(a, at_least=True)


def _all_at_most(a: _Ask) -> Judged:
    return _every_point_bounded(a, at_least=False)


def _trend(a: _Ask, falls: bool) -> Judged:
    """From the first ``x`` to the last, the seed-mean falls (``falls``) or rises, by at least
    ``margin``; with ``monotonic``, no step between neighbours goes the other way (by more than
    ``tolerance``).

    A paper's trend ("the goodput increases and the CLR decreases with increasing buffer
    size", Lorang, Renger, Pettersen et al., EXPERT) is a statement about the expected value
    at each ``x``, so with several seeds per point each change is judged by Welch's test at
    5 % (two-sided; :mod:`.significance`): the first-to-last change must go the stated way
    *significantly*, and a step between neighbours that goes the other way significantly is
    evidence against the trend and makes it fail (a step the other way that is not
    significant is named, not counted). The verdict gives every step's difference, t, df and
    p. With one value per point (one seed, or medians) there is no test: the change and every
    step the other way are taken at face value."""
    claim, measure = a.claim, a.measure
    x = claim["x"]
    means = a.by_x(a.variant)
    samples = a.samples_by_x(a.variant)
    first, last = float(means.iloc[0]), float(means.iloc[-1])
    margin = float(claim.get("margin", 0.0))
    change = last - first
    if falls:
        ok = change <= -margin if margin > 0 else change < 0
        need = f"a fall of at least {fmt(measure, margin)}" if margin > 0 else "a fall"
    else:
        ok = change >= margin if margin > 0 else change > 0
        need = f"a rise of at least {fmt(measure, margin)}" if margin > 0 else "a rise"
    overall = welch(samples.iloc[0], samples.iloc[-1])
    if overall is not None:
        ok = ok and overall.significant
        need += " significant at 5 % (Welch's test)"
        change_text = f"change {change:+.4g}, {overall.text()}"
    else:
        change_text = f"change {change:+.4g}; one value per point, no test"
    if claim.get("monotonic"):
        ok, steps_text = _monotonic(a, means, samples, falls, ok)
        need += steps_text
    return _verdict(ok), (
        f"{mname(measure)}{a.over} goes from {fmt(measure, first)} at {x}={means.index[0]} to "
        f"{fmt(measure, last)} at {x}={means.index[-1]} ({change_text}; criterion: {need}); "
        f"all: {_series_text(means, measure, x)}"
    )


def _monotonic(a: _Ask, means: pd.Series, samples: pd.Series, falls: bool, ok: bool) -> Tuple[bool, str]:
    """(``ok`` and no step the other way that counts, the criterion's words for the steps and
    each step's statistics): see :func:`_trend`."""
    x, measure = a.claim["x"], a.measure
    tol = float(a.claim.get("tolerance", 0.0))
    keys = list(means.index)
    wrong, noise, stats, tested = [], [], [], False
    for k0, k1 in zip(keys, keys[1:]):
        step = float(means[k1] - means[k0])
        test = welch(samples[k0], samples[k1])
        tested = tested or test is not None
        against = step > tol if falls else step < -tol
        counts = against and (test is None or test.significant)
        (wrong if counts else noise if against else []).append(k1)
        stats.append(f"{k0}→{k1}: {_signed(measure, step)}" + (f" ({test.text()})" if test else "") + (" — against" if counts else ""))
    text = (
        f", with no step between neighbouring {x} the other way"
        + (f" by more than {fmt(measure, tol)}" if tol else "")
        + (" significant at 5 % (Welch's test); a significant step the other way is evidence against the trend" if tested else "")
        + ("" if not wrong else f" — but it goes the other way at {x}=" + ", ".join(str(k) for k in wrong))
        + ("" if not noise else f"; steps the other way not significant, not counted: {x}=" + ", ".join(str(k) for k in noise))
        + "; steps: " + "; ".join(stats)
    )
    return ok and not wrong, text


def _signed(measure: str, value: float) -> str:
    """A difference of ``measure`` as the report writes its values, with its sign."""
    return ("+" if value >= 0 else "−") + fmt(measure, abs(value))


def _decreases(a: _Ask) -> Judged:
    return _trend(a, falls=True)


def _increases(a: _Ask) -> Judged:
    return _trend(a, falls=False)


def _min_flow_at_most(a: _Ask) -> Judged:
    """The worst-served flow of each run, averaged over the runs, at most ``value``."""
    measure = a.measure
    flows = of_variant(a.result.flows, a.variant)
    per_run = flows.groupby([c for c in point_cols(a.result) if c in flows.columns] + ["seed"])[measure].min()
    m = float(per_run.mean())
    v = float(a.claim["value"])
    ok = m <= v
    return _verdict(ok), (
        f"the worst-served flow gets {fmt(measure, m)}{' on average over ' + str(len(per_run)) + ' runs' if len(per_run) > 1 else ''}"
        f" (from {fmt(measure, float(per_run.min()))} to {fmt(measure, float(per_run.max()))}); "
        f"criterion: ≤ {fmt(measure, v)}"
    )


def _variant_greater(a: _Ask) -> Judged:
    """Variant ``variant`` above ``than`` (or each of a list of them) at every ``x``, by more
    than ``margin``. A tie (equal seed means: neither is above, e.g. both at 100 %) is not a
    failure; it is named, and at least one point must show the effect. With ``beyond_noise``
    (a paper's "clearly"), the difference must also exceed the sum of the two seed means' 95 %
    half-widths: the two intervals the report prints do not overlap (and a tie counts
    against); with one seed there is no interval and only ``margin`` applies."""
    claim, measure = a.claim, a.measure
    x, name = claim["x"], claim["variant"]
    thans = claim["than"] if isinstance(claim["than"], list) else [claim["than"]]
    ma, ha = a.by_x(name), a.half_widths_by_x(name)
    margin = float(claim.get("margin", 0.0))
    noise = bool(claim.get("beyond_noise"))
    ok, texts, tied = True, [], set()
    for b in thans:
        mb, hb = a.by_x(b), a.half_widths_by_x(b)
        diff = (ma - mb).dropna()
        need = margin + ((ha + hb).reindex(diff.index).fillna(0.0) if noise else 0.0 * diff)
        tie = (diff.abs() <= 1e-12 * (ma.abs().max() or 1.0)) & (not noise)
        judged = diff[~tie]
        tied |= set(diff.index[tie])
        ok = ok and bool(len(judged)) and bool((judged > need[judged.index]).all())
        pairs = ", ".join(
            f"{x}={k}: {fmt(measure, ma[k])} vs {fmt(measure, mb[k])}"
            + (f" (difference {diff[k]:.3g}, 95 % half-widths {ha[k]:.3g} + {hb[k]:.3g})" if noise else "")
            for k in diff.index
        )  # fmt: skip
        texts.append(f"'{name}' vs '{b}': {pairs}")
    return _verdict(ok), (
        f"{mname(measure)}{a.over}, " + "; ".join(texts) + f" (criterion: higher at every {x}"
        + (f" by more than {margin:g}" if margin else "")
        + (" by more than the two 95 % half-widths together (the intervals apart)" if noise else "")
        + (" than each" if len(thans) > 1 else "")
        + (f"; ties, not counted: {x}=" + ", ".join(str(k) for k in sorted(tied)) if tied else "")
        + ")"
    )


def _variant_ratio(a: _Ask) -> Judged:
    """Variant ``variant`` over variant ``than`` within [``min_ratio``, ``max_ratio``] at every ``x``."""
    claim, measure = a.claim, a.measure
    x, va, vb = claim["x"], claim["variant"], claim["than"]
    ma, mb = a.by_x(va), a.by_x(vb)
    ratio = (ma / mb).dropna()
    lo, hi, crit = _ratio_bounds(claim)
    ok = bool(len(ratio)) and _within(ratio, lo, hi)
    return _verdict(ok), (
        f"{mname(measure)}{a.over}, '{va}' / '{vb}' ranges from {ratio.min():.3f} to {ratio.max():.3f} "
        f"('{va}' {(ratio.min() - 1) * 100:+.1f} % to {(ratio.max() - 1) * 100:+.1f} % relative to '{vb}'; "
        f"criterion: {crit} at every {x}); "
        + ", ".join(f"{x}={k}: {fmt(measure, ma[k])} / {fmt(measure, mb[k])} = {ratio[k]:.3f}" for k in ratio.index)
    )


def _variant_spread_greater(a: _Ask) -> Judged:
    """Variant ``variant`` varies more over ``x`` (largest − smallest) than ``factor`` × variant ``than``."""
    claim, measure = a.claim, a.measure
    x, va, vb = claim["x"], claim["variant"], claim["than"]
    ma, mb = a.by_x(va), a.by_x(vb)
    sa, sb = float(ma.max() - ma.min()), float(mb.max() - mb.min())
    factor = float(claim.get("factor", 1.0))
    ok = sa > factor * sb
    return _verdict(ok), (
        f"spread (largest − smallest over {x}) of the {mname(measure)}{a.over}: '{va}' {fmt(measure, sa)} "
        f"({fmt(measure, float(ma.min()))} to {fmt(measure, float(ma.max()))}), '{vb}' {fmt(measure, sb)} "
        f"({fmt(measure, float(mb.min()))} to {fmt(measure, float(mb.max()))}) "
        f"(criterion: '{va}' spread > {'' if factor == 1 else f'{factor:g} × '}'{vb}' spread)"
    )


def _measure_ratio(a: _Ask, judge: Callable[[pd.Series], Tuple[bool, str]]) -> Judged:
    """Seed-mean of the measure over seed-mean of ``over``, at every ``x`` (of ``at_x``) where
    ``over`` is positive; ``judge`` gives (it holds, the criterion in words)."""
    claim, measure = a.claim, a.measure
    x, den = claim["x"], claim["over"]
    df = a.rows(a.variant)
    num_m = df.groupby(x, sort=True)[measure].mean()
    den_m = df.groupby(x, sort=True)[den].mean()
    judged = den_m[den_m > 0].index
    skipped = [k for k in den_m.index if k not in judged]
    skip_text = f"; left out, {mname(den)} 0 or undefined: {x}=" + ", ".join(map(str, skipped)) if skipped else ""
    if not len(judged):
        return FAILS, f"{mname(den)}{a.over} is 0 or undefined at every {x} considered (no loss), so there is nothing to judge"
    ratio = num_m[judged] / den_m[judged]
    ok, crit = judge(ratio)
    return _verdict(ok), (
        f"{mname(measure)} / {mname(den)}{a.over} ranges from {ratio.min():.3g} to {ratio.max():.3g} "
        f"(criterion: {crit} at every {x}); "
        + ", ".join(f"{x}={k}: {fmt(measure, num_m[k])} / {fmt(den, den_m[k])} = {ratio[k]:.3g}" for k in ratio.index)
        + skip_text
    )


def _ratio_at_least(a: _Ask) -> Judged:
    def judge(ratio: pd.Series) -> Tuple[bool, str]:
        v = float(a.claim["value"])
        return bool((ratio >= v).all()), f"≥ {v:g}"

    return _measure_ratio(a, judge)


def _ratio_at_most(a: _Ask) -> Judged:
    def judge(ratio: pd.Series) -> Tuple[bool, str]:
        v = float(a.claim["value"])
        return bool((ratio <= v).all()), f"≤ {v:g}"

    return _measure_ratio(a, judge)


def _ratio_between(a: _Ask) -> Judged:
    def judge(ratio: pd.Series) -> Tuple[bool, str]:
        lo, hi = float(a.claim["min"]), float(a.claim["max"])
        return bool(((ratio >= lo) & (ratio <= hi)).all()), f"in [{lo:g}, {hi:g}]"

    return _measure_ratio(a, judge)


def _settles_later(a: _Ask) -> Judged:
    """Variant ``variant`` needs a larger ``x`` than ``than`` before its seed-mean stays ≤
    ``value`` at every larger ``x``."""
    claim, measure = a.claim, a.measure
    x = claim["x"]
    v = float(claim["value"])

    def settles(name: str) -> Tuple[float, str]:
        means = of_variant(a.result.aggregate, name).groupby(x, sort=True)[measure].mean()
        point = math.inf
        for k in reversed(list(means.index)):
            if not float(means[k]) <= v:
                break
            point = k
        return point, (f"{x}={point}" if point != math.inf else f"not within the grid (up to {x}={means.index[-1]})")

    va, vb = claim["variant"], claim["than"]
    (pa, ta), (pb, tb) = settles(va), settles(vb)
    ok = pa > pb
    others = [n for n in variants(a.result.aggregate) if n not in (va, vb)]
    return _verdict(ok), (
        f"{mname(measure)}{a.over} ≤ {fmt(measure, v)} from {ta} on for '{va}', from {tb} on for '{vb}'"
        + "".join(f", from {settles(n)[1]} on for '{n}'" for n in others)
        + f" (criterion: '{va}' needs a larger {x} than '{vb}')"
    )


def _best_at(a: _Ask) -> Judged:
    """The highest seed-mean over ``x`` (of ``among``) is at one of ``at``, by more than ``margin``."""
    claim, measure = a.claim, a.measure
    x = claim["x"]
    df = of_variant(a.result.aggregate, a.variant)
    if "among" in claim:
        df = df[df[x].isin(list(claim["among"]))]
    means = df.groupby(x, sort=True)[measure].mean()
    best = ", ".join(str(k) for k in means.index[means == means.max()])
    at = list(claim["at"])
    top = means[means.index.isin(at)]
    rest = means[~means.index.isin(at)]
    margin = float(claim.get("margin", 0.0))
    ok = bool(len(top)) and (rest.empty or float(top.max()) > float(rest.max()) + margin)
    return _verdict(ok), (
        f"the highest {mname(measure)}{a.over} is {fmt(measure, float(means.max()))}, at {x} ∈ {{{best}}} "
        f"(criterion: the best of {x} ∈ {{{', '.join(map(str, means.index))}}} is at {x} ∈ {{{', '.join(map(str, at))}}}"
        + (f" by more than {fmt(measure, margin)}" if margin else "")
        + f"); all: {_series_text(means, measure, x)}"
    )


def _regions(a: _Ask):
    """The claim, every region, the measured one, the claim's rule with its region, their sizes
    and whether the rule's region lies inside the measured one."""
    claim = a.claim
    regions = cac_regions(a.result, a.model)
    measured = regions["measured"]
    name = claim["region"]
    reg = regions[name]
    return claim, regions, measured, name, reg, len(measured), len(reg), reg <= measured


def _region_ratio(a: _Ask) -> Judged:
    """The measured admissible region at least ``min_ratio`` × a CAC rule's (or the inverse),
    and with ``contains`` the rule's region inside the measured one."""
    claim, regions, measured, name, reg, n_m, n_r, inside = _regions(a)
    if claim.get("inverse"):
        ratio = n_r / n_m if n_m else float("inf")
        ratio_text = f"|{name}| / |measured| = {n_r}/{n_m} = {ratio:.2f}"
    else:
        ratio = n_m / n_r if n_r else float("inf")
        ratio_text = f"|measured| / |{name}| = {n_m}/{n_r} = {ratio:.2f}"
    ok = ratio >= float(claim["min_ratio"]) and (inside or not claim.get("contains", False))
    outside = sorted(reg - measured)
    return _verdict(ok), (
        f"admissible grid points: measured {n_m}, {name} {n_r}; {ratio_text} "
        f"(criterion ≥ {claim['min_ratio']}"
        + (", and the " + name + " region inside the measured one" if claim.get("contains") else "")
        + "); "
        + (f"{name} region inside the measured one" if inside else f"{len(outside)} {name} point(s) not admissible in the measurement, e.g. (N_rt, N_nrt) = {outside[0]}")
    )


def _region_between(a: _Ask) -> Judged:
    """A CAC rule's region strictly larger than the ``lower`` rule's, and inside the measured one."""
    claim, regions, measured, name, reg, n_m, n_r, inside = _regions(a)
    lower = regions[claim["lower"]]
    low_in = lower <= reg
    ok = low_in and len(reg) > len(lower) and inside
    return _verdict(ok), (
        f"admissible grid points: {claim['lower']} {len(lower)}, {name} {n_r}, measured {n_m}; "
        f"{claim['lower']} ⊆ {name}: {'yes' if low_in else 'no'}; {name} ⊆ measured: {'yes' if inside else 'no'} "
        f"(criterion: {claim['lower']} ⊊ {name} ⊆ measured)"
    )


CHECKS: Dict[str, Callable[[_Ask], Judged]] = {
    "close_to": _close_to,
    "all_between": _all_between,
    "run_ratio": _run_ratio,
    "run_greater": _run_greater,
    "all_at_least": _all_at_least,
    "all_at_most": _all_at_most,
    "decreases": _decreases,
    "increases": _increases,
    "min_flow_at_most": _min_flow_at_most,
    "variant_greater": _variant_greater,
    "variant_ratio": _variant_ratio,
    "variant_spread_greater": _variant_spread_greater,
    "ratio_at_least": _ratio_at_least,
    "ratio_at_most": _ratio_at_most,
    "ratio_between": _ratio_between,
    "settles_later": _settles_later,
    "best_at": _best_at,
    "region_ratio": _region_ratio,
    "region_between": _region_between,
}


#: Student's t, two-sided 95 %, by degrees of freedom (1–29); 1.96 beyond.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045)


def _half_width(values: pd.Series) -> float:
    """Half-width of the 95 % confidence interval of the mean of ``values`` (one per seed;
    Student's t with n − 1 degrees of freedom); 0 with fewer than two values."""
    g = values.dropna()
    n = len(g)
    if n < 2:
        return 0.0
    t = _T95[n - 2] if n - 2 < len(_T95) else 1.96
    return t * float(g.std(ddof=1)) / math.sqrt(n)


def _ci_text(result: SweepResult, variant: Optional[str], claim: Mapping[str, Any]) -> str:
    """"; 95 % CI ± h", h the widest half-width of the seed mean of the claim's measure over
    its points (Student's t on the seeds); "" when it cannot be computed."""
    measure = claim.get("measure", "")
    df = _at_x(of_variant(result.aggregate, variant), claim)
    if measure not in df.columns or "seed" not in df.columns:
        return ""
    cols = [c for c in point_cols(result) if c in df.columns and df[c].nunique(dropna=False) > 1]
    groups = df.groupby(cols, sort=True)[measure] if cols else [(None, df[measure])]
    widest = max((_half_width(g) for _, g in groups), default=0.0)
    return f"; 95 % CI ± {fmt(measure, widest)} at the widest point" if widest > 0 else ""


def check(
    claim: Mapping[str, Any],
    result: SweepResult,
    variant: Optional[str],
    model: Mapping[str, Any],
    runs: Optional[Mapping[str, SweepResult]] = None,
) -> Judged:
    """(``HOLDS`` or ``FAILS``, why) for ``claim`` on ``result`` (one ``variant`` of it, or
    ``None``); ``model`` is the experiment's ``[experiment.model]`` table and ``runs`` its
    other runs, by name (for claims that compare runs)."""
    kind = claim["kind"]
    seeds = result.aggregate["seed"].nunique()
    over = f" (mean over {seeds} seeds{_ci_text(result, variant, claim)})" if seeds > 1 else ""
    ask = _Ask(
        claim=claim, result=result, variant=variant, model=model, runs=runs,
        measure=claim.get("measure", ""), over=over,
    )  # fmt: skip
    judge = CHECKS.get(kind)
    if judge is None:
        raise ValueError(f"claim {claim.get('id')}: unknown kind {kind!r}")
    return judge(ask)


# Kinds kept in their own module, registered here (imported last: they use this module).
from .claims_variants import MORE_CHECKS  # noqa: E402

CHECKS.update(MORE_CHECKS)
