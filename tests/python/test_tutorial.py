"""The tutorial notebook is valid and its code cells run, in order, as a user would run them."""

from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).parents[2] / "examples" / "tutorial.ipynb"


def test_tutorial_notebook_runs(tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    code = [cell.source for cell in nb.cells if cell.cell_type == "code"]
    assert len(code) >= 4
    monkeypatch.chdir(tmp_path)
    (tmp_path / "results").mkdir()
    namespace: dict = {"__name__": "__main__"}
    for i, source in enumerate(code):
        exec(compile(source, f"tutorial.ipynb[cell {i}]", "exec"), namespace)
    sweep = namespace["sweep"]
    assert len(sweep.aggregate) == 8
    assert (tmp_path / "results" / "tutorial-fairness.png").stat().st_size > 1000
    assert len(list((tmp_path / "results" / "tutorial-a5" / "points").glob("*.json"))) == 8
