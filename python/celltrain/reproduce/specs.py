"""The reproduction data: the catalogue of experiments, the per-paper specifications
(``reproductions/<ID>.toml``), the targets ``celltrain reproduce`` accepts, and run
parameters derived from a grid point (``"{1.1 * 149.76 / n_sources} Mbit/s"``)."""

from __future__ import annotations

import ast
import operator
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

try:  # Python >= 3.11
    import tomllib as _toml
except ModuleNotFoundError:  # pragma: no cover
    import tomli as _toml  # type: ignore[no-redef]


class UnknownTarget(ValueError):
    """``reproduce`` was given something that is neither an experiment, a paper nor ``all``."""


def data_dir() -> Path:
    """The directory of the reproduction data files (``reproductions/`` in the repository)."""
    return Path(__file__).resolve().parent.parent / "reproductions"


def load_toml(path: Path) -> Dict[str, Any]:
    with open(path, "rb") as f:
        return _toml.load(f)


def catalogue() -> Tuple[Dict[str, Any], List[Dict[str, Any]], Dict[str, Dict[str, Any]]]:
    """(the papers of the catalogue by name, every experiment of the catalogue in order,
    each paper's specification by name)."""
    cat = load_toml(data_dir() / "catalogue.toml")
    papers: Dict[str, Dict[str, Any]] = {}
    for path in sorted(p for p in data_dir().glob("*.toml") if p.name != "catalogue.toml"):
        spec = load_toml(path)
        papers[spec["paper"]] = spec
    return cat["papers"], cat["experiment"], papers


def select(target: str) -> List[str]:
    """The experiment ids ``target`` names: an id (``A5``), a paper (its id ``MSc98`` in any
    case, or its letter ``A``) or ``all``; the old numbers stay accepted as aliases (see
    :func:`paper_of_old_number`)."""
    paper_info, experiments, _ = catalogue()
    ids = [e["id"] for e in experiments]
    t = target.strip()
    if t.lower() == "all":
        return ids
    for i in ids:
        if i.lower() == t.lower():
            return [i]
    old = paper_of_old_number(t)
    for name, info in paper_info.items():
        if t.lower() == name.lower() or t.upper() == info["letter"] or old == name:
            return [i for i in ids if re.fullmatch(re.escape(info["letter"]) + r"\d+", i)]
    raise UnknownTarget(
        f"unknown reproduction target {target!r}: use an experiment id ({', '.join(ids[:3])}, …), "
        f"a paper ({', '.join(paper_info)} or its letter {'/'.join(p['letter'] for p in paper_info.values())}) or 'all'"
    )


#: A paper's old number, as old command lines give it (aliases: ``001``, ``1``, ``seed001``).
_OLD_NUMBER = re.compile(r"(?:seed\s*)?(\d+)", re.IGNORECASE)


def paper_of_old_number(target: str) -> Optional[str]:
    """The id of the paper the project once numbered ``target`` (``"002"`` → ``"AD97"``),
    so that command lines written before the papers had ids keep working; None otherwise."""
    from .._core import papers

    m = _OLD_NUMBER.fullmatch(target.strip())
    return {int(p["number"]): p["id"] for p in papers()}.get(int(m.group(1))) if m else None


@dataclass
class RunSpec:
    """One ``[[experiment.run]]``: a built-in scenario swept over a grid and seeds, with
    parameters (possibly derived from the grid point) and named variants of them."""

    name: str
    scenario: str
    grid: Dict[str, List[Any]]
    seeds: List[int]
    params: Dict[str, Any]
    variants: List[Dict[str, Any]]
    model: Optional[str] = None
    #: How a grid point's seeds are summarised: "mean" (default) or "median" (AD97's
    #: "medians from 5 runs"); with "median" the aggregate keeps one row per point.
    statistic: str = "mean"
    #: A measured admissible region instead of a grid (LRP97's E1, full report only):
    #: ``{n_rt = [...], limit = N, max_replications = K}``; for each N_rt the largest N_nrt ≤
    #: ``limit`` whose CLR is within the model's target, by bisection (``celltrain.region``).
    region: Optional[Dict[str, Any]] = None

    @classmethod
    def of(cls, d: Mapping[str, Any], quick: bool, seed_offset: int = 0) -> "RunSpec":
        """The run ``d`` (full or ``quick``), every seed moved up by ``seed_offset`` (a set of
        seeds disjoint from the declared one, to see whether a verdict rests on one draw)."""
        pick = lambda k, default: d.get(f"quick_{k}", d.get(k, default)) if quick else d.get(k, default)  # noqa: E731
        return cls(
            name=d["name"],
            scenario=d["scenario"],
            grid={k: list(v) for k, v in (pick("grid", {}) or {}).items()},
            seeds=[int(s) + seed_offset for s in pick("seeds", [1])],
            params=dict(pick("params", {})),
            variants=list(d.get("variants", [])),
            model=d.get("model"),
            statistic=d.get("statistic", "mean"),
            region=None if quick else d.get("region"),
        )

    def grid_text(self) -> str:
        if self.region is not None:
            r = self.region
            return (
                f"bisection on n_nrt ∈ [0, {r['limit']}] for n_rt ∈ {{{', '.join(map(str, r['n_rt']))}}}, "
                f"each point with seeds 1, 2, … doubled while undecided, up to {r.get('max_replications', 16)}"
            )
        return ", ".join(f"{k} ∈ {{{', '.join(map(str, v))}}}" for k, v in self.grid.items()) or "one point"

    def params_text(self) -> str:
        return ", ".join(f"{k} = {v}" for k, v in self.params.items())


def variant_params_text(variant: Mapping[str, Any]) -> str:
    return ", ".join(f"{k} = {val}" for k, val in variant.get("params", {}).items())


_OPS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Pow: operator.pow,
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
}


def _arith(expr: str, names: Mapping[str, Any]) -> float:
    """Evaluates + - * / // ** on numbers and the point's parameters, nothing else."""

    def ev(node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return node.value
        if isinstance(node, ast.Name) and node.id in names:
            return float(names[node.id])
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.operand))
        raise ValueError(f"unsupported expression {expr!r}")

    return ev(ast.parse(expr, mode="eval"))


def derive(value: Any, point: Mapping[str, Any]) -> Any:
    """``value`` with each ``{expression}`` replaced by its value at the grid ``point``."""
    if not isinstance(value, str) or "{" not in value:
        return value
    return re.sub(r"\{([^{}]+)\}", lambda m: f"{_arith(m.group(1), point):.6g}", value)
