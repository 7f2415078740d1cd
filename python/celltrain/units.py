"""Quantities written with their unit, as scenarios write them (``"1000 cells"``, ``"5 ms"``,
``"149.76 Mbit/s"``, ``"64 KB"``, ``"80 %"``), read as numbers in one base unit per kind, so
that tables and plots order and scale them as numbers, never as text.

The units are those of the scenario files (docs/scenarios.md): rates to bit/s (``cells/s``
counts 424 bits a cell), durations to seconds, cell counts to cells, sizes to bytes (``KB`` =
1000, ``KiB`` = 1024), percentages to fractions.
"""

from __future__ import annotations

import re
from typing import Any, Optional, Tuple

__all__ = ["quantity", "column_name"]

#: unit → (kind, factor to the kind's base unit); the kind names the numeric column's suffix.
_UNITS = {
    "bit/s": ("bps", 1.0), "bps": ("bps", 1.0), "b/s": ("bps", 1.0), "kbit/s": ("bps", 1e3), "kbps": ("bps", 1e3),
    "Mbit/s": ("bps", 1e6), "Mbps": ("bps", 1e6), "Gbit/s": ("bps", 1e9), "Gbps": ("bps", 1e9),
    "cells/s": ("bps", 424.0), "cell/s": ("bps", 424.0),
    "ps": ("s", 1e-12), "ns": ("s", 1e-9), "us": ("s", 1e-6), "µs": ("s", 1e-6), "μs": ("s", 1e-6),
    "ms": ("s", 1e-3), "s": ("s", 1.0),
    "cells": ("cells", 1.0), "cell": ("cells", 1.0),
    "B": ("bytes", 1.0), "byte": ("bytes", 1.0), "bytes": ("bytes", 1.0), "KB": ("bytes", 1e3),
    "kB": ("bytes", 1e3), "MB": ("bytes", 1e6), "GB": ("bytes", 1e9), "KiB": ("bytes", 1024.0),
    "MiB": ("bytes", 1024.0**2), "GiB": ("bytes", 1024.0**3),
    "%": ("fraction", 0.01),
}  # fmt: skip
#: Rate and cell units in any case, as the simulator reads them (no two differ only by case).
_ANY_CASE = {u.lower(): v for u, v in _UNITS.items() if v[0] in ("bps", "cells")}
_QUANTITY = re.compile(r"^\s*([-+]?(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][-+]?\d+)?)\s*(\S+)\s*$")


def quantity(value: Any) -> Optional[Tuple[float, str]]:
    """``(number, kind)`` of a quantity written as text (``"1000 cells"`` → ``(1000.0,
    "cells")``), in the kind's base unit (bps, s, cells, bytes, fraction); None otherwise."""
    if not isinstance(value, str):
        return None
    m = _QUANTITY.match(value)
    found = _unit(m.group(2)) if m else None
    if found is None:
        return None
    kind, factor = found
    number = float(m.group(1).replace("_", "")) * factor
    # Whole counts stay whole (cells, bytes) so that they print without a decimal part.
    return number, kind


def _unit(text: str) -> Optional[Tuple[str, float]]:
    if text in _UNITS:
        return _UNITS[text]
    if "B" in text and "bit" not in text.lower():  # bytes are never read as bits
        return None
    return _ANY_CASE.get(text.lower())


def column_name(name: str, kind: str) -> str:
    """The numeric column beside parameter ``name``: ``buffer`` → ``buffer_cells``."""
    return name if name.endswith(f"_{kind}") else f"{name}_{kind}"
