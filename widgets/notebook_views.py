"""Saved notebooks that show every widget: its last state, or else its picture.

JupyterLab draws a widget output from the widget's saved state (saved with the notebook
when the ``saveState`` setting is on, which eagerkit's install turns on). A notebook
saved *without* that state (``nbstripout`` removes it, as the lessons are committed) would
show "Error displaying widget: model not found" instead. Every eagerkit widget also puts a
PNG of itself in the output, so this tool removes the widget reference from the outputs
whose state is not in the file, and JupyterLab, GitHub and nbconvert show the picture.
nbval does not compare widget references, so checking the lessons still works.

Run: ``python -m eagerkit.widgets.notebook_views notebooks/*.ipynb``.
"""

import sys

import nbformat

VIEW = "application/vnd.jupyter.widget-view+json"
STATE = "application/vnd.jupyter.widget-state+json"


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


def main(paths):
    for path in paths:
        notebook = nbformat.read(path, as_version=nbformat.NO_CONVERT)
        if drop_views_without_state(notebook):
            nbformat.write(notebook, path)


if __name__ == "__main__":
    main(sys.argv[1:])
