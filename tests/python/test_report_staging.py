"""`celltrain reproduce --out DIR` writes its report as `run --out` writes a run: staged, then
moved into place whole; the previous report's files replaced (none left over), nothing
half-written on an error or Ctrl-C, the run store and the user's own files left alone."""

from pathlib import Path

import pytest

from celltrain import reproduce as rep

STAGING_PREFIX = ".celltrain-staging-"


def _small_report(out: Path):
    return rep.reproduce("MSc98", out=out, quick=True, jobs=1, progress=False)


@pytest.fixture
def only_a1(monkeypatch):
    # One quick experiment (A1), the rest not runnable: a report in seconds.
    monkeypatch.setattr(rep.report, "builtin_names", lambda: ["A1-udp"])


def _old_report(out: Path) -> None:
    (out / "img").mkdir(parents=True)
    (out / "img" / "OLD-1-goodput.png").write_bytes(b"an old figure")
    (out / "index.md").write_text("the old report\n")
    (out / "index.html").write_text("<p>the old report</p>\n")
    (out / "notes.txt").write_text("the user's own file\n")


def _staging_dirs(out: Path):
    return sorted(p.name for p in out.iterdir() if p.name.startswith(STAGING_PREFIX))


def test_a_new_report_replaces_the_old_one_whole(tmp_path, only_a1):
    out = tmp_path / "report"
    _old_report(out)
    report = _small_report(out)
    assert report.html == out / "index.html" and report.html.exists()
    assert "the old report" not in (out / "index.md").read_text()
    figures = sorted(p.name for p in (out / "img").iterdir())
    assert figures and "OLD-1-goodput.png" not in figures, f"the old report's figure was left: {figures}"
    assert (out / "notes.txt").read_text() == "the user's own file\n"
    assert any((out / "store" / "points").glob("*.json")), "the run store went"
    assert _staging_dirs(out) == []
    manifest = (out / ".celltrain-files").read_text().splitlines()
    assert set(manifest) == {"index.md", "index.html", "img/"}


@pytest.mark.parametrize("failure", [RuntimeError("a rendering bug"), KeyboardInterrupt()])
def test_a_report_that_fails_leaves_the_previous_one(tmp_path, only_a1, monkeypatch, failure):
    out = tmp_path / "report"
    _old_report(out)
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}

    def broken(*_args, **_kwargs):
        raise failure

    # The HTML is rendered after the Markdown and the figures: a report written in place had
    # replaced those by then.
    monkeypatch.setattr(rep.report._html, "render", broken)
    with pytest.raises(type(failure)):
        _small_report(out)
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file() and "store" not in p.parts}
    assert after == before, "the previous report was changed by one that failed"
    assert _staging_dirs(out) == [], "a staging directory was left"


def test_an_unwritable_report_directory_fails_before_the_runs(tmp_path, only_a1, monkeypatch):
    out = tmp_path / "report"
    out.write_text("a file where the directory should be")
    ran = []
    monkeypatch.setattr(rep.report, "run_experiment", lambda *a, **k: ran.append(a))
    with pytest.raises(OSError):
        _small_report(out)
    assert ran == []
