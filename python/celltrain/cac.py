"""Connection admission control (CAC) models, computed by the Rust core
(``celltrain_atm::cac``; ``celltrain cac …`` on the command line).

Sources are on/off: peak rate ``peak_bps`` while on, a fraction ``activity`` of the time,
mean on-period ``mean_on_s`` (only the effective bandwidths use it). Buffers are in bits
(``cells * 424``).

* :func:`convolution`: the bufferless model — the exact distribution of the aggregate rate of
  heterogeneous classes — giving P(rate > C) and the fluid CLR E[(rate − C)+] / E[rate].
* :func:`effective_bandwidth`: Guérin, Ahmadi & Naghshineh (1991), one source with a buffer;
  :func:`aggregate`: Σ ĉ, the Gaussian m + α'σ, or the smaller of the two.
* :func:`admits` and :func:`boundary`: the rules of a delay-priority port (LRP97, Lorang,
  Renger, Pettersen et al.): ``peak``, ``convolution`` (all sources, bufferless), ``linear``
  (ĉ per class with its own buffer), ``rt`` (convolution of the rt sources), ``nrt`` (ĉ of
  every source with the nrt buffer) and ``combined`` (``rt`` and ``nrt``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, NamedTuple, Optional, Sequence, Tuple

from . import _celltrain

CELL_BITS = 424
RULES = ("peak", "convolution", "linear", "rt", "nrt", "combined")


@dataclass(frozen=True)
class OnOff:
    """An on/off source; :meth:`from_periods` from mean on- and off-periods."""

    peak_bps: float
    activity: float
    mean_on_s: float = 1.0

    @classmethod
    def from_periods(cls, peak_bps: float, on_s: float, off_s: float) -> "OnOff":
        return cls(peak_bps, on_s / (on_s + off_s), on_s)


Mix = Sequence[Tuple[int, OnOff]]


def _tuples(mix: Mix) -> List[Tuple[int, float, float, Optional[float]]]:
    return [(int(n), float(s.peak_bps), float(s.activity), float(s.mean_on_s)) for n, s in mix]


class Convolution(NamedTuple):
    mean_bps: float
    overflow_probability: float
    fluid_clr: float


def convolution(mix: Mix, capacity_bps: float) -> Convolution:
    """The bufferless model of ``mix`` (``[(count, OnOff), ...]``) at ``capacity_bps``."""
    return Convolution(*_celltrain.cac_convolution(_tuples(mix), float(capacity_bps)))


def effective_bandwidth(source: OnOff, buffer_bits: float, target: float) -> float:
    """ĉ (bit/s) of one source with a buffer of ``buffer_bits`` and overflow target ``target``."""
    return _celltrain.cac_effective_bandwidth(
        float(source.peak_bps), float(source.activity), float(source.mean_on_s), float(buffer_bits), float(target)
    )


def aggregate(mix: Mix, buffer_bits: float, target: float, method: str = "min") -> float:
    """The capacity ``mix`` needs with one buffer: ``fluid`` (Σ ĉ), ``gaussian`` or ``min``."""
    return _celltrain.cac_aggregate(_tuples(mix), float(buffer_bits), float(target), method)


@dataclass(frozen=True)
class DelayPriorityPort:
    """A port with a strict-priority rt queue and an nrt queue, and the CAC targets."""

    capacity_bps: float
    rt_buffer_bits: float
    nrt_buffer_bits: float
    target: float
    criterion: str = "clr"  # what the convolution tests hold under the target: "clr" or "overflow"
    method: str = "fluid"  # how the effective-bandwidth tests add up: "fluid", "gaussian" or "min"

    def _args(self) -> tuple:
        return (float(self.capacity_bps), float(self.rt_buffer_bits), float(self.nrt_buffer_bits), float(self.target))

    def admits(self, rule: str, rt: Mix, nrt: Mix) -> bool:
        """Does ``rule`` (one of :data:`RULES`) admit the mix of rt and nrt classes?"""
        return _celltrain.cac_admits(rule, _tuples(rt), _tuples(nrt), *self._args(), self.criterion, self.method)

    def boundary(self, rule: str, rt: OnOff, nrt: OnOff, n_rt_max: int, limit: int) -> List[Optional[int]]:
        """For n_rt = 0..n_rt_max, the largest n_nrt ≤ ``limit`` that ``rule`` admits together with
        every smaller n_nrt (``None``: not even 0)."""
        src = lambda s: (float(s.peak_bps), float(s.activity), float(s.mean_on_s))  # noqa: E731
        return _celltrain.cac_boundary(
            rule, src(rt), src(nrt), int(n_rt_max), int(limit), *self._args(), self.criterion, self.method
        )
