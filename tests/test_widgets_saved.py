"""Widgets outside a running kernel: a self-contained page, and saved notebooks that show
each widget's last state or its picture (never "model not found")."""

import json
import pathlib
import re
import sys

import nbformat
import pytest
from eagerkit.widgets import LossCurve
from eagerkit.widgets.notebook_views import (
    STATE,
    VIEW,
    drop_views_without_state,
    keep_displayed_widget_state,
    main,
)
from hypothesis import given
from hypothesis import strategies as st
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


def _saved(state, shown):
    """A notebook whose outputs show the widgets ``shown``, saved with widget ``state``."""
    outputs = [nbformat.v4.new_output("display_data", data={VIEW: {"model_id": m}}) for m in shown]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("", outputs=outputs)])
    notebook.metadata["widgets"] = {STATE: {"state": state, "version_major": 2}}
    return notebook


def test_only_the_widgets_on_display_and_what_they_refer_to_are_kept():
    state = {
        "box": {"state": {"children": ["IPY_MODEL_button", "IPY_MODEL_out"]}},
        "button": {"state": {"layout": "IPY_MODEL_button-layout", "style": "IPY_MODEL_style"}},
        "button-layout": {"state": {}},
        "style": {"state": {}},
        # An Output widget shows widgets through its own outputs, by model_id.
        "out": {"state": {"outputs": [{"data": {VIEW: {"model_id": "inner"}}}]}},
        "inner": {"state": {"layout": "IPY_MODEL_box"}},  # a cycle back to the box
        "earlier-run": {"state": {"layout": "IPY_MODEL_earlier-layout"}},
        "earlier-layout": {"state": {}},
        "never-shown": {"state": {}},
    }
    notebook = _saved(state, ["box", "missing-from-state"])
    assert keep_displayed_widget_state(notebook) == 3
    kept = notebook.metadata["widgets"][STATE]["state"]
    assert sorted(kept) == ["box", "button", "button-layout", "inner", "out", "style"]
    assert notebook.metadata["widgets"][STATE]["version_major"] == 2


def test_a_notebook_showing_no_widget_keeps_no_widget_state():
    notebook = _saved({"a": {"state": {}}}, [])
    assert keep_displayed_widget_state(notebook) == 1
    assert "widgets" not in notebook.metadata
    plain = nbformat.v4.new_notebook()
    assert keep_displayed_widget_state(plain) == 0 and plain.metadata == {}


@given(
    st.dictionaries(st.sampled_from("abcdefgh"), st.lists(st.sampled_from("abcdefgh"), max_size=3)),
    st.lists(st.sampled_from("abcdefgh"), max_size=3),
)
def test_what_is_kept_is_exactly_what_the_outputs_reach(references, shown):
    state = {
        m: {"state": {"refs": [f"IPY_MODEL_{r}" for r in refs]}} for m, refs in references.items()
    }
    reached, todo = set(), [m for m in shown if m in state]
    while todo:  # a plain graph walk, written differently from the one under test
        m = todo.pop(0)
        if m not in reached:
            reached.add(m)
            todo += [r for r in references[m] if r in state]
    notebook = _saved(state, shown)
    dropped = keep_displayed_widget_state(notebook)
    kept = notebook.metadata.get("widgets", {}).get(STATE, {}).get("state", {})
    assert set(kept) == reached and dropped == len(references) - len(reached)
