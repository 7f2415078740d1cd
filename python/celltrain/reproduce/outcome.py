"""What a reproduction produces: verdicts, figures and tables, one experiment's outcome and
the whole report, and the few facts about them that both renderings (Markdown and HTML)
write the same way."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from .._sweep import SweepResult
from .specs import RunSpec

HOLDS = "holds"
FAILS = "does not hold"
NOT_RUNNABLE = "not yet runnable"
#: A claim whose quantity a quick run cannot measure (e.g. seconds of slow start where the
#: paper measured steady state): its numbers are shown, no verdict is given.
NOT_JUDGED_QUICK = "not judged in quick mode"
#: A conjecture the paper states but did not measure: reported with the numbers, not judged.
REPORTED = "reported, not judged"
#: A claim the run's set-up was derived from (e.g. a service time computed from the very rate
#: the claim states): checked for consistency, shown with whether it is consistent, and not
#: counted as a reproduction.
CONSISTENCY = "consistency check"


@dataclass
class Verdict:
    """The verdict on one claim (for one variant of its run, where it has variants)."""

    claim: str
    text: str
    source: str
    status: str
    explanation: str
    variant: Optional[str] = None
    experiment: str = ""
    #: The claim's ``if_not`` text: what the investigation found when the verdict came out
    #: "does not hold" (shown only then).
    finding: str = ""


@dataclass
class Figure_:
    caption: str
    png: bytes
    filename: str


@dataclass
class Table:
    caption: str
    header: List[str]
    rows: List[List[str]]
    note: str = ""


@dataclass
class ExperimentOutcome:
    id: str
    title: str
    paper: str
    source: str
    notes: str
    runs: Dict[str, SweepResult] = field(default_factory=dict)
    run_specs: Dict[str, RunSpec] = field(default_factory=dict)
    missing: Dict[str, str] = field(default_factory=dict)  # run name -> scenario
    figures: List[Figure_] = field(default_factory=list)
    tables: List[Table] = field(default_factory=list)
    verdicts: List[Verdict] = field(default_factory=list)
    published_sources: List[str] = field(default_factory=list)
    wall_s: float = 0.0


@dataclass
class Report:
    """What :func:`reproduce` wrote: ``out``, ``markdown``, ``html`` paths and the outcomes."""

    out: Path
    markdown: Path
    html: Path
    quick: bool
    experiments: List[ExperimentOutcome]
    not_runnable: List[Dict[str, str]]
    wall_s: float
    #: What was added to every run's seeds (``--seed-offset``; 0: the declared seeds).
    seed_offset: int = 0

    @property
    def verdicts(self) -> List[Verdict]:
        return [v for e in self.experiments for v in e.verdicts]

    def verdict_counts(self) -> Dict[str, int]:
        counts = {HOLDS: 0, FAILS: 0, NOT_RUNNABLE: 0, NOT_JUDGED_QUICK: 0, REPORTED: 0, CONSISTENCY: 0}
        for v in self.verdicts:
            counts[v.status] += 1
        return counts


def grouped(verdicts: List[Verdict]) -> List[Tuple[Verdict, List[Verdict]]]:
    """The verdicts by claim, in order of first appearance: (the first one, all of them)."""
    groups: Dict[str, List[Verdict]] = {}
    for v in verdicts:
        groups.setdefault(v.claim, []).append(v)
    return [(vs[0], vs) for vs in groups.values()]


def finding(vs: List[Verdict]) -> str:
    """The claim's explanation, if any of its verdicts is "does not hold"."""
    return next((v.finding for v in vs if v.finding), "")


def runs_text(n: int) -> str:
    return f"{n} run" if n == 1 else f"{n} runs"


def mode_text(report: Report) -> str:
    return "quick (short runs, one seed)" if report.quick else "full"


def regenerate_command(report: Report, target: str) -> str:
    offset = f" --seed-offset {report.seed_offset}" if report.seed_offset else ""
    return f"celltrain reproduce {target}{' --quick' if report.quick else ''}{offset} --out {report.out}"
