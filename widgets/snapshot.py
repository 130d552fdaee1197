"""PNG snapshots of the widgets, drawn with matplotlib's Agg canvas.

A saved notebook, GitHub and nbconvert cannot run a widget, so each widget also puts a
picture of itself in its mime bundle. We draw on a bare ``Figure`` (never ``pyplot`` and
never ``matplotlib.use``: that would change the kernel's backend) and strip the metadata
that would make the bytes differ from run to run.
"""

import io

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch

KIND_COLOURS = {  # the same palette as the .css files
    "watched": "#f6c177",
    "variable": "#8fd19e",
    "constant": "#d9d9d9",
    "intermediate": "#9ecae1",
    "op": "#ffffff",
}
MAX_INCHES = 14
HIGHLIGHT = "#c2185b"  # a record an exercise check marked


def to_png(figure):
    """The figure as PNG bytes, identical for identical drawings."""
    buffer = io.BytesIO()
    FigureCanvasAgg(figure)
    figure.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()


def tape_png(graph):
    """The tape graph: boxes for tensors, pills for ops, gradients in red after gradient()."""
    width, height = max(graph["width"], 200), max(graph["height"], 80)
    scale = min(1.0, MAX_INCHES * 100 / max(width, height))
    figure = Figure(figsize=(width * scale / 100, height * scale / 100), dpi=100)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, width)
    axes.set_ylim(height, 0)  # y grows downwards, as in the browser
    axes.axis("off")
    boxes = {node["id"]: node for node in graph["nodes"]}
    for edge in graph["edges"]:
        a, b = boxes[edge["from"]], boxes[edge["to"]]
        axes.annotate(
            "",
            xy=(b["x"] + b["w"] / 2, b["y"]),
            xytext=(a["x"] + a["w"] / 2, a["y"] + a["h"]),
            arrowprops={"arrowstyle": "->", "color": "#888888", "lw": 0.8},
        )
    font = 7 * scale + 1
    highlight = graph.get("highlight")
    for node in graph["nodes"]:
        _draw_node(
            axes, node, font, marked=highlight is not None and highlight["node"] == node["id"]
        )
    if highlight is not None:
        note = f"record {highlight['record'] + 1}: {highlight['text']}"
        if highlight["note"]:
            note += "\n" + highlight["note"]
        axes.text(4, 4, note, ha="left", va="top", fontsize=font + 1, color=HIGHLIGHT)
    return to_png(figure)


def _draw_node(axes, node, font, marked=False):
    is_op = node["type"] == "op"
    colour = KIND_COLOURS["op" if is_op else node["kind"]]
    axes.add_patch(
        FancyBboxPatch(
            (node["x"], node["y"]),
            node["w"],
            node["h"],
            boxstyle="round,pad=0,rounding_size=" + ("12" if is_op else "5"),
            facecolor=colour,
            edgecolor=HIGHLIGHT if marked else "#444444",
            linewidth=3 if marked else 0.8,
        )
    )
    cx = node["x"] + node["w"] / 2
    if is_op:
        axes.text(
            cx,
            node["y"] + node["h"] / 2,
            node["label"],
            ha="center",
            va="center",
            fontsize=font,
            family="DejaVu Sans",
        )
        return
    shape = "(" + ", ".join(map(str, node["shape"])) + ")"
    lines = [f"{node['label']}  {shape} {node['dtype']}", node["value"]]
    if "grad" in node:
        lines.append("grad " + node["grad"])
    elif "none" in node:
        lines.append("grad None: " + node["none"]["code"])
    axes.text(
        cx,
        node["y"] + node["h"] / 2,
        "\n".join(lines),
        ha="center",
        va="center",
        fontsize=font,
        family="DejaVu Sans",
        color="#111111",
    )
