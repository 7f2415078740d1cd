"""The report as one self-contained HTML page (``index.html``; figures embedded as data URIs)."""

from __future__ import annotations

import html
import re
from typing import List

from .. import _celltrain
from .. import plot as _plot
from .outcome import (
    CONSISTENCY, FAILS, HOLDS, NOT_JUDGED_QUICK, NOT_RUNNABLE, REPORTED, ExperimentOutcome, Report, Table, finding, grouped,
    mode_text, regenerate_command,
    runs_text,
)  # fmt: skip
from .specs import variant_params_text

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#222;line-height:1.45}
h1{margin-bottom:.2rem} h2{border-bottom:2px solid #ddd;padding-bottom:.2rem;margin-top:2.5rem}
table{border-collapse:collapse;margin:.6rem 0 1rem 0;font-size:.92rem}
th,td{border:1px solid #ccc;padding:.25rem .55rem;text-align:left;vertical-align:top}
th{background:#f3f3f3} caption{caption-side:top;text-align:left;font-weight:600;padding:.3rem 0}
figure{margin:1rem 0;display:inline-block;vertical-align:top} figcaption{font-size:.9rem;color:#555}
img{max-width:100%;height:auto;border:1px solid #eee}
.badge{display:inline-block;border-radius:.3rem;padding:.05rem .45rem;font-weight:600;font-size:.85rem;white-space:nowrap}
.holds{background:#d8f5d8;color:#135c13} .fails{background:#fbdada;color:#8a1212} .pending{background:#eee;color:#555}
.claim{margin:.8rem 0 1.1rem 0} .claim p{margin:.2rem 0} .note{font-size:.88rem;color:#555}
ul.verdicts{margin:.2rem 0;padding-left:1.2rem} code{background:#f4f4f4;padding:0 .2rem}
"""

_CLASS = {HOLDS: "holds", FAILS: "fails", NOT_RUNNABLE: "pending", NOT_JUDGED_QUICK: "pending", REPORTED: "pending", CONSISTENCY: "pending"}


def render(report: Report, target: str, when: str) -> str:
    """The whole ``index.html`` (``when``: the time the report was made, as it shows it)."""
    parts = _summary(report, target, when)
    for e in report.experiments:
        parts += _experiment(e)
    parts += _not_runnable(report)
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _h(text: str) -> str:
    """Escaped text, with Markdown's `code` and **bold** kept."""
    out = html.escape(text)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    return re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)


def _badge(status: str) -> str:
    return f'<span class="badge {_CLASS[status]}">{html.escape(status)}</span>'


def _summary(report: Report, target: str, when: str) -> List[str]:
    """The head, how the report was made, the verdict counts and the table of every claim."""
    counts = report.verdict_counts()
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>celltrain reproductions — {html.escape(target)}</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>celltrain reproductions</h1>",
        f'<p class="note">celltrain {html.escape(_celltrain.__version__)}, target <code>{html.escape(target)}</code>, '
        f"{html.escape(mode_text(report))} mode, {html.escape(when)}, {report.wall_s:.1f} s. Regenerate with "
        f"<code>{html.escape(regenerate_command(report, target))}</code>.</p>",
        f"<p>Claims: {_badge(HOLDS)} {counts[HOLDS]} &nbsp; {_badge(FAILS)} {counts[FAILS]} &nbsp; "
        f"{_badge(NOT_RUNNABLE)} {counts[NOT_RUNNABLE]}"
        + (f" &nbsp; {_badge(NOT_JUDGED_QUICK)} {counts[NOT_JUDGED_QUICK]}" if counts[NOT_JUDGED_QUICK] else "")
        + (f" &nbsp; {_badge(REPORTED)} {counts[REPORTED]}" if counts[REPORTED] else "")
        + (f" &nbsp; {_badge(CONSISTENCY)} {counts[CONSISTENCY]}" if counts[CONSISTENCY] else "")
        + ". Every verdict is computed from the measured numbers and the "
        "claim's criterion; a claim is <em>not yet runnable</em> when the scenario it needs is not built in yet.</p>",
        "<table><thead><tr><th>experiment</th><th>claim</th><th>verdict</th></tr></thead><tbody>",
    ]
    for e in report.experiments:
        for first, vs in grouped(e.verdicts):
            verdict = " ".join(_badge(v.status) + (f" <small>{html.escape(v.variant)}</small>" if v.variant else "") for v in vs)
            parts.append(
                f'<tr><td><a href="#{e.id.lower()}">{html.escape(e.id)}</a></td><td>{html.escape(first.claim)}</td><td>{verdict}</td></tr>'
            )
    parts.append("</tbody></table>")
    return parts


def _experiment(e: ExperimentOutcome) -> List[str]:
    """One experiment's section: its runs, published sources, figures, tables and claims."""
    parts = [
        f'<h2 id="{e.id.lower()}">{html.escape(e.id)} — {html.escape(e.title)}</h2>',
        f'<p class="note">{html.escape(e.paper)}, {html.escape(e.source)}</p>',
        f"<p>{_h(e.notes)}</p>",
        "<ul>",
    ]
    parts += _run_items(e)
    parts.append("</ul>")
    if e.published_sources:
        parts.append(f'<p class="note">Published numbers: {html.escape("; ".join(e.published_sources))}.</p>')
    for f in e.figures:
        parts.append(
            f'<figure><img src="{_plot.data_uri(f.png)}" alt="{html.escape(f.caption)}">'
            f"<figcaption>{html.escape(f.caption)}</figcaption></figure>"
        )
    for t in e.tables:
        parts.append(_table(t))
    parts.append("<h3>Claims</h3>")
    for first, vs in grouped(e.verdicts):
        items = "".join(
            f"<li>{_badge(v.status)}" + (f" <em>{html.escape(v.variant)}</em>" if v.variant else "") + f": {html.escape(v.explanation)}.</li>"
            for v in vs
        )
        why = finding(vs)
        why_html = f'<p class="finding"><em>Why it does not hold:</em> {html.escape(why)}</p>' if why else ""
        parts.append(
            f'<div class="claim"><p><strong>{html.escape(first.claim)}</strong> — {html.escape(first.text)} '
            f'<span class="note">({html.escape(first.source)})</span></p><ul class="verdicts">{items}</ul>{why_html}</div>'
        )
    return parts


def _run_items(e: ExperimentOutcome) -> List[str]:
    """The list items of the experiment's runs: those done, and those waiting for a scenario."""
    items = []
    for spec in e.run_specs.values():
        params = spec.params_text()
        variants = "; ".join(f"<em>{html.escape(v['name'])}</em>: " + html.escape(variant_params_text(v)) for v in spec.variants)
        items.append(
            f"<li>run <code>{html.escape(spec.name)}</code>: scenario <code>{html.escape(spec.scenario)}</code>, "
            f"{html.escape(spec.grid_text())}, seeds {html.escape(str(spec.seeds))}" + (f", {html.escape(params)}" if params else "")
            + (f"; variants — {variants}" if variants else "")
            + f" ({runs_text(len(e.runs[spec.name].aggregate))})</li>"
        )
    for name, scenario in e.missing.items():
        items.append(f"<li>run <code>{html.escape(name)}</code>: needs scenario <code>{html.escape(scenario)}</code> (not built in yet)</li>")
    return items


def _not_runnable(report: Report) -> List[str]:
    parts = ['<h2 id="not-yet-runnable">Not yet runnable</h2>']
    if report.not_runnable:
        parts.append("<table><thead><tr><th>experiment</th><th>paper</th><th>title</th><th>needs</th></tr></thead><tbody>")
        for n in report.not_runnable:
            parts.append(
                "<tr>" + "".join(f"<td>{html.escape(n[k])}</td>" for k in ("id", "paper", "title", "needs")) + "</tr>"
            )
        parts.append("</tbody></table>")
    else:
        parts.append("<p>None in this selection.</p>")
    return parts


def _table(t: Table) -> str:
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in t.rows)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in t.header)
    note = f'<p class="note">{_h(t.note)}</p>' if t.note else ""
    return f"<table><caption>{html.escape(t.caption)}</caption><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>{note}"
