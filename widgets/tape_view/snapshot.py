"""The TapeView's PNG: the state it opens on, drawn with matplotlib, box for box, path for path.

A saved notebook, GitHub and nbval show this picture; it is the same geometry the browser
draws (the same folded boxes, edge paths, label boxes and monospace font), only static:
the overview, with the gradients of the reverse sweep when there was one.
"""

import textwrap

from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch, PathPatch
from matplotlib.path import Path

from ..common.snapshot import to_png

MAX_INCHES = 14
HIGHLIGHT = "#c2185b"  # a record an exercise check marked
COLOURS = {  # the same palette as tape_view.css
    "watched": "#f6c177",
    "variable": "#8fd19e",
    "constant": "#d9d9d9",
    "intermediate": "#9ecae1",
    "group": "#ede7f6",
    "nested": "#e5d4f5",
    "nonfinite": "#f5b7b1",
}
CODES = {"M": [Path.MOVETO], "L": [Path.LINETO], "C": [Path.CURVE4] * 3}


def tape_png(graph, drawing):
    """PNG bytes of the state ``drawing`` opens on (1 px = 1 px up to 1400 px, scaled down
    beyond)."""
    drawing = drawing["states"][drawing["open"]]
    if not graph["nodes"]:  # nothing to draw: say why, rather than a blank picture
        return _words_png(["0 records.", *textwrap.wrap(graph["notice"] or "", 72)])
    width, height = max(drawing["width"], 200), max(drawing["height"], 60)
    scale = min(1.0, MAX_INCHES * 100 / max(width, height))
    figure, axes = _canvas(width, height, scale)
    points = 10 * 0.72 * scale  # the browser's 10 px font, in points at 100 dpi
    alias = drawing["alias"]
    marks = {}
    if graph.get("highlight"):
        marks[alias.get(graph["highlight"]["node"], graph["highlight"]["node"])] = HIGHLIGHT
    bad = graph.get("nonfinite")
    bad_box = alias.get(bad["node"], bad["node"]) if bad else None
    show_grads = graph["phase"] == "backward"
    for edge in drawing["edges"]:
        vertices, codes = [], []
        for command, *xy in edge["path"]:
            codes += CODES[command]
            vertices += list(zip(xy[::2], xy[1::2], strict=True))
        axes.add_patch(
            PathPatch(Path(vertices, codes), fill=False, edgecolor="#9e9e9e", linewidth=0.9)
        )
        end, before = vertices[-1], vertices[-2]
        axes.annotate(
            "",
            xy=end,
            xytext=(end[0] + (before[0] - end[0]) * 0.01, end[1] - 6),
            arrowprops={"arrowstyle": "-|>", "color": "#9e9e9e", "lw": 0.9},
        )
    for box in drawing["boxes"]:
        _draw_box(axes, box, points, marks.get(box["id"]), box["id"] == bad_box, show_grads)
    if show_grads:
        for label in drawing["labels"]:
            axes.add_patch(
                FancyBboxPatch(
                    (label["x"], label["y"]),
                    label["w"],
                    label["h"],
                    boxstyle="round,pad=0,rounding_size=3",
                    facecolor="white",
                    edgecolor="#e6b0aa",
                    linewidth=0.6,
                )
            )
            _text(
                axes, label["x"] + 2, label["y"] + label["h"] - 4, label["text"], points, "#c0392b"
            )
    return to_png(figure)


def _words_png(lines):
    """A picture of a few lines of text, in the font and size of the boxes' labels."""
    width, height = 8 * 2 + 7 * max(len(line) for line in lines), 12 + 15 * len(lines)
    figure, axes = _canvas(width, height)
    for i, line in enumerate(lines):
        _text(axes, 8, 4 + 15 * (i + 1) - 3, line, 10 * 0.72, weight="bold" if i == 0 else "normal")
    return to_png(figure)


def _canvas(width, height, scale=1.0):
    """A figure of ``width`` x ``height`` browser pixels (``scale`` px per px at 100 dpi)
    and axes over all of it in those pixels, without ticks or frame."""
    figure = Figure(figsize=(width * scale / 100, height * scale / 100), dpi=100)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, width)
    axes.set_ylim(height, 0)  # y grows downwards, as in the browser
    axes.axis("off")
    return figure, axes


def _draw_box(axes, box, points, mark, bad, show_grads):
    kind = "nested" if box.get("depth", 1) > 1 else box["kind"]
    axes.add_patch(
        FancyBboxPatch(
            (box["x"], box["y"]),
            box["w"],
            box["h"],
            boxstyle="round,pad=0,rounding_size=" + ("9" if box["type"] == "proxy" else "6"),
            facecolor=COLOURS["nonfinite" if bad else kind],
            edgecolor=mark or ("#922b21" if bad else "#555555"),
            linewidth=3 if (mark or bad) else (2 if box.get("target") else 0.8),
            linestyle="--" if box["type"] in ("group", "proxy") else "-",
        )
    )
    lines = list(box["lines"])
    if show_grads:
        lines += [grad for grad in box.get("grad_texts", []) if grad]
    for i, line in enumerate(lines):
        colour = "#1b7a3a" if i >= len(box["lines"]) else "#212121"
        weight = "bold" if i == 0 else "normal"
        _text(
            axes, box["x"] + 8, box["y"] + 4 + 15 * (i + 1) - 3, line, points, colour, weight=weight
        )


def _text(axes, x, y, text, points, colour="#212121", ha="left", weight="normal"):
    """Text whose baseline is at y, as SVG places it."""
    axes.text(
        x,
        y,
        text,
        ha=ha,
        va="baseline",
        fontsize=points,
        family="DejaVu Sans Mono",
        color=colour,
        weight=weight,
    )
