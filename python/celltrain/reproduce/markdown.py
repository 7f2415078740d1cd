"""The report as Markdown (``index.md``; its figures are the ``img/*.png`` files beside it)."""

from __future__ import annotations

from typing import List

from .. import _celltrain
from .outcome import (
    CONSISTENCY, FAILS, HOLDS, NOT_JUDGED_QUICK, NOT_RUNNABLE, REPORTED, ExperimentOutcome, Report, Table, Verdict, finding,
    grouped, mode_text,
    regenerate_command, runs_text,
)  # fmt: skip
from .specs import variant_params_text

_BADGE = {
    HOLDS: "✅ holds",
    FAILS: "❌ does not hold",
    NOT_RUNNABLE: "⏳ not yet runnable",
    NOT_JUDGED_QUICK: "⏸ not judged in quick mode",
    REPORTED: "📝 reported, not judged",
    CONSISTENCY: "🔁 consistency check",
}


def render(report: Report, target: str, when: str) -> str:
    """The whole ``index.md`` (``when``: the time the report was made, as it shows it)."""
    md = _summary(report, target, when)
    for e in report.experiments:
        md += _experiment(e)
    md += _not_runnable(report)
    return "\n".join(md)


def _summary(report: Report, target: str, when: str) -> List[str]:
    """The title, how the report was made, the verdict counts and the table of every claim."""
    counts = report.verdict_counts()
    md: List[str] = [
        "# celltrain reproductions",
        "",
        f"celltrain {_celltrain.__version__}, target `{target}`, {mode_text(report)} mode, {when}, "
        f"{report.wall_s:.1f} s. Regenerate with `{regenerate_command(report, target)}`.",
        "",
        f"Claims: **{counts[HOLDS]} hold**, **{counts[FAILS]} do not hold**, **{counts[NOT_RUNNABLE]} not yet runnable**"
        + (f", **{counts[NOT_JUDGED_QUICK]} not judged in quick mode**" if counts[NOT_JUDGED_QUICK] else "")
        + (f", **{counts[REPORTED]} reported, not judged** (conjectures)" if counts[REPORTED] else "")
        + (f", **{counts[CONSISTENCY]} consistency check{'' if counts[CONSISTENCY] == 1 else 's'}** (the set-up was derived from the claim: not counted as reproduced)" if counts[CONSISTENCY] else "")
        + ". "
        "Every verdict is computed from the measured numbers and the claim's criterion "
        "(`reproductions/<ID>.toml`); a claim is *not yet runnable* when the scenario it needs is not built in yet.",
        "",
        "| experiment | claim | verdict |",
        "|---|---|---|",
    ]
    for e in report.experiments:
        for first, vs in grouped(e.verdicts):
            verdict = "; ".join(f"{_BADGE[v.status]}" + (f" ({v.variant})" if v.variant else "") for v in vs)
            md.append(f"| [{e.id}](#{e.id.lower()}) | {first.claim} | {verdict} |")
    md.append("")
    return md


def _experiment(e: ExperimentOutcome) -> List[str]:
    """One experiment's section: its runs, published sources, figures, tables and claims."""
    md = [f"## {e.id}", "", f"**{e.title}** — {e.paper}, {e.source}", "", e.notes.replace("\n", " "), ""]
    for spec in e.run_specs.values():
        params = spec.params_text()
        variants = "; ".join(f"*{v['name']}*: " + variant_params_text(v) for v in spec.variants)
        md.append(
            f"- run `{spec.name}`: scenario `{spec.scenario}`, {spec.grid_text()}, seeds {spec.seeds}" + (f", {params}" if params else "")
            + (f"; variants — {variants}" if variants else "")
            + f" ({runs_text(len(e.runs[spec.name].aggregate))})"
        )
    for name, scenario in e.missing.items():
        md.append(f"- run `{name}`: needs scenario `{scenario}` (not built in yet)")
    if e.published_sources:
        md += ["", "Published numbers: " + "; ".join(e.published_sources) + "."]
    md.append("")
    for f in e.figures:
        md += [f"![{f.caption}](img/{f.filename})", "", f"*{f.caption}*", ""]
    for t in e.tables:
        md += [_table(t), ""]
    md += ["### Claims", ""]
    for first, vs in grouped(e.verdicts):
        md.append(f"**{first.claim}** — {first.text} ({first.source})")
        md.append("")
        md += [_verdict(v) for v in vs]
        md.append("")
        why = finding(vs)
        if why:
            md += [f"*Why it does not hold:* {why}", ""]
    return md


def _not_runnable(report: Report) -> List[str]:
    md = ["## Not yet runnable", ""]
    if report.not_runnable:
        md += ["| experiment | paper | title | needs |", "|---|---|---|---|"]
        md += [f"| {n['id']} | {n['paper']} | {n['title']} | {n['needs']} |" for n in report.not_runnable]
    else:
        md.append("None in this selection.")
    md.append("")
    return md


def _table(t: Table) -> str:
    esc = lambda s: str(s).replace("|", "\\|")  # noqa: E731
    lines = [f"**{t.caption}**", "", "| " + " | ".join(esc(h) for h in t.header) + " |"]
    lines.append("|" + "|".join("---" for _ in t.header) + "|")
    lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in t.rows]
    if t.note:
        lines += ["", f"_{t.note}_"]
    return "\n".join(lines)


def _verdict(v: Verdict) -> str:
    scope = f" — *{v.variant}*" if v.variant else ""
    return f"- **{_BADGE[v.status]}**{scope}: {v.explanation}."
