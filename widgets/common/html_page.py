"""One self-contained HTML page of a widget: its front end, its styles and its last state.

No kernel and no network: the page holds the widget's ``.js`` (loaded from a ``blob:``
URL, as anywidget itself does), its ``.css``, and the JSON of every synced trait, and
gives ``render`` a small stand-in for the widget model that answers ``get`` from that
JSON. Everything the front end does on its own (stepping, zoom, folding, hover) works.
"""

import html
import json
import pathlib

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ margin: 16px; font-family: "DejaVu Sans", sans-serif; background: #ffffff; }}
{css}
</style>
</head>
<body>
<div id="eagerkit-widget"></div>
<script type="module">
const state = {state};
const source = {source};
const model = {{
  get: (name) => state[name],
  set: (name, value) => {{ state[name] = value; }},
  on: () => {{}},
  off: () => {{}},
  send: () => {{}},
  save_changes: () => {{}},
}};
const url = URL.createObjectURL(new Blob([source], {{ type: "text/javascript" }}));
const widget = (await import(url)).default;
const el = document.getElementById("eagerkit-widget");
(widget.render || widget().render)({{ model, el }});
document.body.dataset.ready = "true";
</script>
</body>
</html>
"""


def widget_page(widget, title):
    """The page's text: ``widget``'s front end, styles and synced state, inline."""
    ipywidgets_own = {"layout", "tabbable", "tooltip"}  # what the page does not need
    state = {
        name: getattr(widget, name)
        for name in widget.trait_names(sync=True)
        if not name.startswith("_") and name not in ipywidgets_own
    }
    source = _read(widget._esm)
    css = _read(widget._css)
    return PAGE.format(
        title=html.escape(title),
        css=css.replace("</", "<\\/"),
        state=_script_json(state),
        source=_script_json(source),
    )


def _read(value):
    """anywidget takes a path or the text itself for ``_esm`` and ``_css``."""
    if isinstance(value, pathlib.Path):
        return value.read_text()
    return str(value)


def _script_json(value):
    """JSON that is safe inside a <script> element (no ``</script>`` can end it early)."""
    return json.dumps(value).replace("</", "<\\/")
