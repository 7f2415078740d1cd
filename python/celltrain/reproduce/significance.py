"""Welch's test of the difference between two seed means, for the criteria that ask whether a
difference is more than the seeds' noise (a stated trend's steps, "clearly outperform").

B. L. Welch (1947), "The generalization of 'Student's' problem when several different population
variances are involved": t = (mean_b − mean_a) / √(s_a²/n_a + s_b²/n_b), with the
Welch–Satterthwaite degrees of freedom (F. E. Satterthwaite, 1946, "An approximate distribution
of estimates of variance components"), which are not whole numbers. The two-sided p-value of
Student's t with ν degrees of freedom is the regularised incomplete beta function
I_{ν/(ν+t²)}(ν/2, 1/2) (Abramowitz and Stegun, 1964, Handbook of Mathematical Functions, 26.7.1
and 26.5.2), evaluated by its continued fraction (26.5.8) with Lentz's method (W. J. Lentz, 1976,
"Generating Bessel functions in Mie scattering calculations using continued fractions"), so
that no SciPy is needed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence

#: The two-sided level the criteria test at.
ALPHA = 0.05

_TINY = 1e-300
_EPS = 1e-14
_MAX_TERMS = 500


@dataclass(frozen=True)
class Difference:
    """``b − a`` between two seed means, with Welch's t, its degrees of freedom and the
    two-sided p-value; ``significant`` at :data:`ALPHA`."""

    diff: float
    t: float
    df: float
    p: float

    @property
    def significant(self) -> bool:
        return self.p < ALPHA

    def text(self) -> str:
        """"t = 2.61, df = 14.3, p = 0.018", as the verdicts print it."""
        df = "—" if math.isnan(self.df) else f"{self.df:.1f}"
        return f"Welch t = {self.t:.2f}, df = {df}, p = {self.p:.3g}"


def welch(a: Sequence[float], b: Sequence[float]) -> Optional[Difference]:
    """Welch's test of ``mean(b) − mean(a)`` (one value per seed on each side; NaNs left out);
    ``None`` when a side has fewer than two values, so no variance to test against. Two sides
    without spread (every seed alike) differ for certain when their means differ (p = 0) and not
    at all when they are equal (p = 1)."""
    xs = [float(v) for v in a if not math.isnan(float(v))]
    ys = [float(v) for v in b if not math.isnan(float(v))]
    if len(xs) < 2 or len(ys) < 2:
        return None
    ma, mb = sum(xs) / len(xs), sum(ys) / len(ys)
    qa = _variance(xs, ma) / len(xs)
    qb = _variance(ys, mb) / len(ys)
    diff = mb - ma
    se2 = qa + qb
    if se2 <= 0.0:
        if diff == 0.0:
            return Difference(diff, 0.0, math.nan, 1.0)
        return Difference(diff, math.copysign(math.inf, diff), math.nan, 0.0)
    df = se2 * se2 / (qa * qa / (len(xs) - 1) + qb * qb / (len(ys) - 1))
    t = diff / math.sqrt(se2)
    return Difference(diff, t, df, t_two_sided_p(t, df))


def _variance(xs: Sequence[float], mean: float) -> float:
    return sum((x - mean) ** 2 for x in xs) / (len(xs) - 1)


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| ≥ |t|) for Student's T with ``df`` > 0 degrees of freedom (not only whole ones)."""
    if df <= 0:
        raise ValueError("Student's t needs positive degrees of freedom")
    if math.isinf(t):
        return 0.0
    return incomplete_beta(df / (df + t * t), df / 2.0, 0.5)


def incomplete_beta(x: float, a: float, b: float) -> float:
    """The regularised incomplete beta function I_x(a, b), 0 ≤ x ≤ 1, a, b > 0."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    # The continued fraction converges fast only below the mean of the beta distribution;
    # above it, the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) brings x there.
    if x > (a + 1.0) / (a + b + 2.0):
        return 1.0 - incomplete_beta(1.0 - x, b, a)
    log_front = a * math.log(x) + b * math.log1p(-x) + math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    return math.exp(log_front) / a * _beta_fraction(x, a, b)


def _beta_fraction(x: float, a: float, b: float) -> float:
    """1 / (1 + d₁ / (1 + d₂ / (1 + …))), the continued fraction of I_x(a, b) (A&S 26.5.8):
    its denominator by Lentz's method."""
    value, c, d = 1.0, 1.0, 0.0
    for n in range(1, _MAX_TERMS + 1):
        coeff = _beta_term(n, x, a, b)
        d = 1.0 + coeff * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + coeff / c
        c = c if abs(c) > _TINY else _TINY
        step = c * d
        value *= step
        if abs(step - 1.0) < _EPS:
            return 1.0 / value
    raise ArithmeticError(f"the incomplete beta fraction did not converge at x={x}, a={a}, b={b}")


def _beta_term(n: int, x: float, a: float, b: float) -> float:
    """The n-th partial numerator d_n of A&S 26.5.8."""
    m = n // 2
    if n % 2 == 0:
        return m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
    return -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
