"""Widgets outside a running kernel: a self-contained page, and saved notebooks that show
each widget's last state or its picture (never "model not found")."""

import json
import pathlib
import re
import sys

import nbformat
import pytest
from eagerkit.widgets import LossCurve
from eagerkit.widgets.notebook_views import VIEW, drop_views_without_state, main
from tape_corpus import CORPUS

from eagerkit.errors import NotFoundError


def test_save_html_writes_one_page_with_the_front_end_and_the_state(tmp_path):
    view = CORPUS["lesson02_fan_out"]()
    path = tmp_path / "tape.html"
    view.save_html(path, title="lesson 02")
    text = path.read_text()
    assert "<title>lesson 02</title>" in text
    assert "export default { render }" in text  # the front end, inline
    assert json.dumps(view.graph["forward"][1]["text"]) in text  # the state, inline
    urls = set(re.findall(r"https?://[^\s\"'\\]+", text))
    assert urls == {"http://www.w3.org/2000/svg"}  # a namespace name, nothing to fetch
    assert "</script>" not in text.split('<script type="module">', 1)[1][:-30]
    assert not (tmp_path / "tape.html.partial").exists()


def test_save_html_refuses_a_missing_folder_and_writes_nothing(tmp_path):
    with pytest.raises(NotFoundError, match="TapeView.save_html: the folder .* does not exist"):
        CORPUS["lesson02_record"]().save_html(tmp_path / "missing" / "tape.html")
    assert list(tmp_path.iterdir()) == []


def test_every_widget_can_save_a_page(tmp_path):
    curve = LossCurve()
    curve.log(0, loss=1.0)
    curve.flush(final=True)
    curve.save_html(tmp_path / "curve.html")
    assert '"loss"' in (tmp_path / "curve.html").read_text()


def _notebook_with_widget_output(with_state):
    notebook = nbformat.v4.new_notebook()
    output = nbformat.v4.new_output(
        "display_data",
        data={
            VIEW: {"model_id": "m1", "version_major": 2, "version_minor": 1},
            "image/png": "iVBORw0KGgo=",
            "text/plain": "TapeView(records=1, phase='backward')",
        },
    )
    notebook.cells.append(nbformat.v4.new_code_cell("view", outputs=[output]))
    if with_state:
        notebook.metadata["widgets"] = {
            "application/vnd.jupyter.widget-state+json": {"state": {"m1": {}}}
        }
    return notebook


def test_a_notebook_saved_without_widget_state_keeps_the_pictures(tmp_path):
    path = tmp_path / "lesson.ipynb"
    nbformat.write(_notebook_with_widget_output(with_state=False), path)
    main([str(path)])
    data = nbformat.read(path, as_version=4).cells[0].outputs[0]["data"]
    assert sorted(data) == ["image/png", "text/plain"]


def test_a_notebook_saved_with_widget_state_keeps_its_live_widgets():
    notebook = _notebook_with_widget_output(with_state=True)
    assert drop_views_without_state(notebook) == 0
    assert VIEW in notebook.cells[0].outputs[0]["data"]


def test_the_install_tells_jupyterlab_to_save_widget_state():
    settings = pathlib.Path(sys.prefix, "share/jupyter/lab/settings/overrides.d/eagerkit.json")
    assert json.loads(settings.read_text()) == {
        "@jupyter-widgets/jupyterlab-manager:plugin": {"saveState": True}
    }
