"""Issue 39, item 13: the reproduced papers are named by their ids (BKD97, MSc98, AD97, BN01,
LRP97), never by the numbers the project once gave them ("seed 001"): to a reader a number
means nothing, and "seed" already means the random seed (``--seed``, ``--seed-offset``).

The scan covers every tracked file (docs, scenarios, reproductions, Python, crates, README).
The old numbers stay accepted by ``celltrain reproduce`` for compatibility; the only lines that
may name them are those that say so (they contain the word "alias") in ``ALIAS_FILES``.
"""

import os
import re
import subprocess
from pathlib import Path
from typing import Iterator, List

import pytest

from celltrain import reproduce as rep

ROOT = Path(__file__).resolve().parents[2]
THIS_FILE = Path(__file__).resolve()
SKIP_DIRS = {"target", ".git", "__pycache__", ".pytest_cache", "build", "dist", ".venv", "venv"}

# A paper by its old number: "seed 001", "Seed-000", "seed002", "seeds 000, 002",
# `EpdThreshold::Seed001`, "of_seed_004"; the "seed papers" and their "#seed-…" anchors.
PAPER_AS_SEED = re.compile(r"seeds?[ _-]?0{1,2}[0-4](?![0-9])|seed[ _-]papers?|seedNNN|#seed-", re.IGNORECASE)

# Where the numeric aliases of `celltrain reproduce` are implemented, documented and tested.
ALIAS_FILES = {
    "python/celltrain/reproduce/specs.py",
    "python/celltrain/reproductions/README.md",
}


def tracked_files() -> Iterator[Path]:
    """The files git tracks (every file of the repository when it is no git checkout)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
        names = [n for n in out.decode("utf-8").split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        names = []
        for dirpath, dirnames, filenames in os.walk(ROOT):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.endswith(".egg-info"))
            names += [os.path.relpath(os.path.join(dirpath, f), ROOT) for f in sorted(filenames)]
    for name in names:
        path = ROOT / name
        if path.is_file() and not path.is_symlink():
            yield path


def offences_in(rel: str, text: str) -> List[str]:
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if PAPER_AS_SEED.search(line) and not (rel in ALIAS_FILES and "alias" in line.lower()):
            found.append(f"{rel}:{number}: {line.strip()}")
    return found


def test_the_pattern_tells_papers_from_random_seeds():
    for paper in ["seed 001 §5.3", "Seed 000's timer", "seed-000 experiments", "EpdThreshold::Seed001",
                  "SEED002_SEGMENT_BYTES", "fn region_of_seed_004()", "Seeds 000, 002 and 003",
                  "the seed papers", "[Seed papers](#seed-papers)", "reproductions/seedNNN.toml"]:
        assert PAPER_AS_SEED.search(paper), paper
    for seed in ["--seed 1", "seeds = [1, 2, 3]", "(seed 1)", "seed 2's run", "--seed-offset 10",
                 "seeds 1, 2, …", "the seeds differ", "seed_offset", "MSc98 §5.3"]:
        assert not PAPER_AS_SEED.search(seed), seed


def test_the_scan_sees_the_tracked_files():
    files = {p.relative_to(ROOT).as_posix() for p in tracked_files()}
    assert {"README.md", "docs/references.md", "scenarios/A3.toml", "crates/celltrain/src/papers.rs",
            "python/celltrain/reproductions/catalogue.toml"} <= files
    assert not any(f.startswith("target/") for f in files)


def test_no_paper_is_named_a_seed():
    offences = []
    for path in tracked_files():
        if path.resolve() == THIS_FILE:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # binary: no prose
        offences += offences_in(path.relative_to(ROOT).as_posix(), text)
    assert not offences, (
        f"{len(offences)} line(s) name a paper by its old number; name it by its id "
        "(BKD97, MSc98, AD97, BN01, LRP97):\n" + "\n".join(offences)
    )


def test_reproduction_files_are_named_by_paper_id():
    names = sorted(p.name for p in rep.data_dir().glob("*.toml"))
    assert names == ["AD97.toml", "BKD97.toml", "BN01.toml", "L.toml", "LRP97.toml", "MSc98.toml", "catalogue.toml"]
    _, _, specs = rep.catalogue()
    assert sorted(specs) == ["AD97", "BKD97", "BN01", "L", "LRP97", "MSc98"]


def test_reproduce_takes_the_paper_id_in_any_case_and_the_old_numbers_as_aliases():
    msc98 = rep.select("MSc98")
    assert msc98 and all(i.startswith("A") for i in msc98)
    for alias in ["msc98", "MSC98", " MSc98 ", "A", "001", "1", "seed001", "Seed 001"]:
        assert rep.select(alias) == msc98, alias
    assert rep.select("lrp97") == rep.select("004") == rep.select("E")


def test_an_unknown_target_lists_the_papers_by_id():
    with pytest.raises(rep.UnknownTarget) as e:
        rep.select("XY99")
    message = str(e.value)
    assert "BKD97" in message and "MSc98" in message and "LRP97" in message
    assert not PAPER_AS_SEED.search(message), message


def test_the_report_names_the_paper_by_id_and_citation(tmp_path, monkeypatch):
    # One quick experiment (A1's UDP run), the rest not runnable: a report in seconds.
    monkeypatch.setattr(rep.report, "builtin_names", lambda: ["A1-udp"])
    report = rep.reproduce("msc98", out=tmp_path, quick=True, jobs=1, progress=False)
    text = (tmp_path / "index.md").read_text(encoding="utf-8")
    assert [e.id for e in report.experiments] == ["A1"]
    assert report.experiments[0].paper.startswith("MSc98: M.S. thesis (author not named) (c. 1998), ABR vs UBR+EPD")
    published = next(line for line in text.splitlines() if line.startswith("Published numbers:"))
    assert "MSc98, Table 5.1, row UDP-UBR" in published, published
    assert all(n["paper"].split(":")[0] in {"MSc98"} for n in report.not_runnable)
    html = (tmp_path / "index.html").read_text(encoding="utf-8")
    for name, body in [("index.md", text), ("index.html", html)]:
        assert not PAPER_AS_SEED.search(body), f"{name}: {PAPER_AS_SEED.search(body).group(0)}"
