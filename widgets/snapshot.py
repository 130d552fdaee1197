"""PNG snapshots of the widgets, drawn with matplotlib's Agg canvas.

A saved notebook, GitHub and nbconvert cannot run a widget, so each widget also puts a
picture of itself in its mime bundle. We draw on a bare ``Figure`` (never ``pyplot`` and
never ``matplotlib.use``: that would change the kernel's backend) and strip the metadata
that would make the bytes differ from run to run.
"""

import io
import math

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
RUN_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
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


def curves_png(history, title=""):
    """One panel per metric (``val_x`` shares ``x``'s panel), one colour per run."""
    panels = {}
    for run, metrics in history.get("runs", {}).items():
        for metric, series in metrics.items():
            panel = metric[4:] if metric.startswith("val_") else metric
            panels.setdefault(panel, []).append((run, metric, series))
    count = max(1, len(panels))
    figure = Figure(figsize=(4.2 * count, 3.0), dpi=100)
    runs = sorted(history.get("runs", {}))
    for i, (panel, lines) in enumerate(sorted(panels.items())):
        axes = figure.add_subplot(1, count, i + 1)
        for run, metric, series in lines:
            style = "--" if metric.startswith("val_") else "-"
            ys = [math.nan if y is None else y for y in series["y"]]
            colour = RUN_COLOURS[runs.index(run) % len(RUN_COLOURS)]
            axes.plot(series["x"], ys, style, color=colour, label=f"{run}: {metric}", lw=1.4)
        axes.set_title(panel, fontsize=10)
        axes.set_xlabel("step", fontsize=8)
        axes.grid(alpha=0.3)
        axes.legend(fontsize=7)
    if not panels:
        figure.text(0.5, 0.5, "no points logged yet", ha="center", va="center")
    if title:
        figure.suptitle(title, fontsize=11)
    figure.tight_layout()
    return to_png(figure)


def flow_png(history):
    """A layers x steps heat map of log10 gradient norms; flagged layers are named in red."""
    layers = history.get("layers", [])
    columns = history.get("norms", [])
    figure = Figure(figsize=(8, 0.5 + 0.4 * max(2, len(layers))), dpi=100)
    axes = figure.add_subplot(1, 1, 1)
    if not layers or not columns:
        axes.axis("off")
        axes.text(0.5, 0.5, "no gradients logged yet", ha="center", va="center")
        return to_png(figure)
    grid = [
        [_log_norm(col[r] if r < len(col) else None) for col in columns] for r in range(len(layers))
    ]
    image = axes.imshow(
        grid, aspect="auto", cmap="viridis", interpolation="nearest", vmin=-8, vmax=4
    )
    axes.set_yticks(range(len(layers)))
    flags = history.get("flags", {})
    labels = axes.set_yticklabels(
        [f"{n} ({flags[n]})" if flags.get(n, "ok") != "ok" else n for n in layers], fontsize=8
    )
    for label, name in zip(labels, layers, strict=True):
        if flags.get(name, "ok") != "ok":
            label.set_color("#c0392b")
    steps = history.get("steps", [])
    if len(steps) == len(columns):  # label the columns with their step numbers
        ticks = sorted({round(i * (len(steps) - 1) / 4) for i in range(5)})
        axes.set_xticks(ticks)
        axes.set_xticklabels([str(steps[i]) for i in ticks], fontsize=8)
    every = history.get("every", 1)
    measured = f", one step in {every} measured" if every > 1 else ""
    axes.set_xlabel(f"step (downsampled{measured})", fontsize=8)
    figure.colorbar(image, ax=axes, label="log10 |grad|")
    figure.tight_layout()
    return to_png(figure)


def _log_norm(value):
    if value is None or isinstance(value, str):  # None: no gradient; "nan"/"inf" strings
        return math.nan
    return math.log10(value) if value > 0 else -8.0
