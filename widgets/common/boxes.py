"""What is written inside each box of the tape graph, and so how big the box is.

The browser (tape_view.js) and the PNG (tape_snapshot.py) write exactly these lines, in the
drawing's monospace font, so a box is always just big enough for its text.
"""

from .drawing import text_width

LINE_H = 15  # one line of text in a box


def box_size(node):
    """(width, height) of a node's box: room for its lines of text (see ``box_lines``)."""
    lines = box_lines(node)
    if node["type"] == "op":
        return round(text_width(lines[0]) + 24), 26
    if node["type"] == "group":
        return round(max(map(text_width, lines)) + 24), 8 + LINE_H * len(lines)
    return round(max(90, max(map(text_width, lines)) + 16)), 8 + LINE_H * len(lines)


def box_lines(node):
    """The text lines inside a node's box, as the browser and the PNG draw them.

    Examples
    --------
    >>> box_lines({"type": "tensor", "label": "x", "kind": "watched", "shape": [2],
    ...            "dtype": "float32", "device": "/cpu:0", "value": "[1. 2.]", "grad": "[2. 4.]"})
    ['x  (2,) float32', '[1. 2.]', 'grad: [2. 4.]']
    """
    if node["type"] == "op":
        return [node["label"]]
    if node["type"] == "group":  # a folded layer
        held = ", ".join(node["variables"])
        count = f"{node['records']} record" + ("s" if node["records"] != 1 else "")
        return [f"▸ {node['label']}", count + (f": {held}" if held else "")]
    shape = (
        "(" + ", ".join(map(str, node["shape"])) + ("," if len(node["shape"]) == 1 else "") + ")"
    )
    device = "" if node["device"] == "/cpu:0" else " " + node["device"]
    # The kind (watched, variable, ...) is the box's colour; the legend names it.
    lines = [f"{node['label']}  {shape} {node['dtype']}{device}", node["value"]]
    if "grad" in node:
        lines.append("grad: " + node["grad"])
    elif "none" in node:
        lines.append(f"grad: None ({node['none']['code']})")
    return lines
