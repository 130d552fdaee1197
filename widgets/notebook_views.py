"""Saved notebooks that show every widget: its last state, or else its picture, and keep
the state of no other widget.

JupyterLab draws a widget output from the widget's saved state (saved with the notebook
when the ``saveState`` setting is on, which eagerkit's install turns on). A notebook
saved *without* that state (``nbstripout`` removes it, as the lessons are committed) would
show "Error displaying widget: model not found" instead. Every eagerkit widget also puts a
PNG of itself in the output, so this tool removes the widget reference from the outputs
whose state is not in the file, and JupyterLab, GitHub and nbconvert show the picture.
nbval does not compare widget references, so checking the lessons still works.

What JupyterLab saves: with ``saveState`` on, every widget model its widget manager holds
whose comm is still open (``get_state_sync`` in @jupyter-widgets/jupyterlab-manager), which
is every widget the kernel made and did not close: those of earlier runs of a cell, those
never displayed, and each one's layout and style models. ``keep_displayed_widget_state``
keeps only the widgets an output shows and the models they refer to; the course's lab runs
it on every save (``lab_contents.py``).

Run: ``python -m eagerkit.widgets.notebook_views notebooks/*.ipynb``.
"""

import json
import re
import sys

import nbformat

VIEW = "application/vnd.jupyter.widget-view+json"
STATE = "application/vnd.jupyter.widget-state+json"
# How one widget's state names another: "IPY_MODEL_<id>" (children, layout, style), or an
# Output widget's own outputs, which hold widget views ("model_id": "<id>").
REFERENCE = re.compile(r'IPY_MODEL_([\w-]+)|"model_id": "([\w-]+)"')


def drop_views_without_state(notebook):
    """Remove widget references that the notebook's saved state cannot answer (in place).

    Returns how many were removed. An output keeps its other forms (the PNG, the text).

    Examples
    --------
    >>> cell = {"cell_type": "code", "outputs": [{"output_type": "display_data",
    ...     "data": {VIEW: {"model_id": "abc"}, "image/png": "iVBO", "text/plain": "TapeView"}}]}
    >>> notebook = {"cells": [cell], "metadata": {}}
    >>> drop_views_without_state(notebook), sorted(cell["outputs"][0]["data"])
    (1, ['image/png', 'text/plain'])
    """
    saved = notebook.get("metadata", {}).get("widgets", {}).get(STATE, {}).get("state", {})
    removed = 0
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            view = data.get(VIEW)
            if view is None or view.get("model_id") in saved:
                continue
            if len(data) > 1:  # a picture or a text to fall back on
                del data[VIEW]
                removed += 1
    return removed


def keep_displayed_widget_state(notebook):
    """Keep the saved state of the widgets the outputs show and of the models they refer to,
    and drop the rest (in place). Returns how many widget states were dropped.

    Examples
    --------
    >>> shown = {"output_type": "display_data", "data": {VIEW: {"model_id": "a"}}}
    >>> state = {"a": {"state": {"layout": "IPY_MODEL_b"}}, "b": {"state": {}},
    ...          "stale": {"state": {"layout": "IPY_MODEL_c"}}, "c": {"state": {}}}
    >>> notebook = {"cells": [{"cell_type": "code", "outputs": [shown]}],
    ...             "metadata": {"widgets": {STATE: {"state": state}}}}
    >>> keep_displayed_widget_state(notebook), sorted(state)
    (2, ['a', 'b'])
    """
    widgets = notebook.get("metadata", {}).get("widgets", {})
    saved = widgets.get(STATE, {}).get("state", {})
    wanted = [
        output.get("data", {})[VIEW].get("model_id")
        for cell in notebook.get("cells", [])
        for output in cell.get("outputs", [])
        if VIEW in output.get("data", {})
    ]
    keep = set()
    while wanted:
        model_id = wanted.pop()
        if model_id in keep or model_id not in saved:
            continue
        keep.add(model_id)
        for found in REFERENCE.finditer(json.dumps(saved[model_id])):
            wanted.append(found.group(1) or found.group(2))
    dropped = [model_id for model_id in saved if model_id not in keep]
    for model_id in dropped:
        del saved[model_id]
    if not saved and "widgets" in notebook.get("metadata", {}):
        del notebook["metadata"]["widgets"]  # no widget on display: no state at all
    return len(dropped)


def main(paths):
    for path in paths:
        notebook = nbformat.read(path, as_version=nbformat.NO_CONVERT)
        if drop_views_without_state(notebook):
            nbformat.write(notebook, path)


if __name__ == "__main__":
    main(sys.argv[1:])
