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


def test_tutorial_figures_render_as_images_in_a_kernel(tmp_path):
    """Executed by a Jupyter kernel as nbconvert does (nbclient), without any magic, the
    figure cell's output is a PNG image, not a ``<Figure …>`` text."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    import base64

    nb = nbformat.read(NOTEBOOK, as_version=4)
    (tmp_path / "results").mkdir()
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    images = [
        base64.b64decode(out["data"]["image/png"])
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if "image/png" in out.get("data", {})
    ]
    assert images, "no figure was displayed as an image"
    assert all(png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000 for png in images)
