"""Every citation in the repository resolves inside the repository.

Sources and docs cite standards and papers by name, or a section of ``docs/references.md`` by
its anchor. Citations of notes kept outside the repository (a shared digest's "§" numbers, a
style guide, paths into a sibling ``shared/`` directory) mean nothing to a reader of the
repository, so they fail this test, as do anchors of ``docs/references.md`` that do not exist.
"""

import os
import re
from pathlib import Path
from typing import Iterator, List, Set

ROOT = Path(__file__).resolve().parents[2]
REFERENCES = ROOT / "docs" / "references.md"
THIS_FILE = Path(__file__).resolve()

SUFFIXES = {".rs", ".py", ".pyi", ".toml", ".md"}
SKIP_DIRS = {"target", ".git", "__pycache__", ".pytest_cache", "node_modules", "build", "dist", ".venv", "venv"}

# Citations that point outside the repository.
FORBIDDEN = [
    (re.compile(r"\breference\s*§", re.IGNORECASE), "'reference §' (a section of a digest outside the repository)"),
    (re.compile(r"\bref\s*§", re.IGNORECASE), "'ref §' (a section of a digest outside the repository)"),
    (re.compile(r"\bstyle\s*§", re.IGNORECASE), "'style §' (a style guide outside the repository)"),
    (re.compile(r"\.\./shared/"), "'../shared/' (a path outside the repository)"),
    (re.compile(r"/work/shared\b"), "'/work/shared' (a path outside the repository)"),
    (re.compile(r"shared/reference"), "'shared/reference' (a digest outside the repository)"),
    (re.compile(r"shared/experiments\.md"), "'shared/experiments.md' (a catalogue outside the repository)"),
    (re.compile(r"(?<![\w/])reference\.md"), "'reference.md' (a digest outside the repository; cite docs/references.md)"),
]

ANCHOR_CITATION = re.compile(r"references\.md#([A-Za-z0-9_-]+)")


def source_files() -> Iterator[Path]:
    """The repository's Rust, Python, TOML and Markdown files, build output and this test left out."""
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.endswith(".egg-info"))
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if path.suffix in SUFFIXES and path.resolve() != THIS_FILE:
                yield path


def lines_of(path: Path) -> List[str]:
    return path.read_text(encoding="utf-8", errors="replace").splitlines()


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def reference_anchors() -> Set[str]:
    text = REFERENCES.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)  # no headings inside code blocks
    anchors = {github_slug(h) for h in re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, flags=re.MULTILINE)}
    anchors |= set(re.findall(r'<a\s+(?:id|name)="([^"]+)"', text))
    return anchors


def test_the_scan_sees_the_repository():
    files = {p.relative_to(ROOT).as_posix() for p in source_files()}
    assert "docs/references.md" in files
    assert "Cargo.toml" in files
    assert any(f.endswith(".rs") for f in files) and any(f.endswith(".py") for f in files)
    assert not any(f.startswith("target/") for f in files)


def test_forbidden_patterns_are_recognised():
    samples = ["(reference §7.2)", "Reference §1.6:", "see ../shared/x", "/work/shared/seeds/0.txt",
               "//= reference.md#2.1", "ref §7.4", "(style §2.6)"]
    for sample in samples:
        assert any(rx.search(sample) for rx, _ in FORBIDDEN), sample
    for fine in ["docs/references.md#gcra", "RFC 793 §3.9", "MSc98 §5.3", "a reference model"]:
        assert not any(rx.search(fine) for rx, _ in FORBIDDEN), fine


def test_no_citation_points_outside_the_repository():
    offences = []
    for path in source_files():
        for number, line in enumerate(lines_of(path), start=1):
            for rx, why in FORBIDDEN:
                if rx.search(line):
                    rel = path.relative_to(ROOT).as_posix()
                    offences.append(f"{rel}:{number}: {why}: {line.strip()}")
    assert not offences, (
        f"{len(offences)} citation(s) point outside the repository; cite the standard or paper by "
        "name, or a section of docs/references.md by its anchor:\n" + "\n".join(offences)
    )


def test_every_cited_anchor_of_references_md_exists():
    anchors = reference_anchors()
    assert {"gcra", "reproduced-papers", "test-vectors"} <= anchors
    broken = []
    for path in source_files():
        for number, line in enumerate(lines_of(path), start=1):
            for anchor in ANCHOR_CITATION.findall(line):
                if anchor not in anchors:
                    broken.append(f"{path.relative_to(ROOT).as_posix()}:{number}: #{anchor}")
    text = REFERENCES.read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), start=1):
        for anchor in re.findall(r"\]\(#([^)]+)\)", line):
            if anchor not in anchors:
                broken.append(f"docs/references.md:{number}: #{anchor}")
    assert not broken, "citations of docs/references.md name anchors it does not have:\n" + "\n".join(broken)
