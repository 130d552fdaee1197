"""GraphPassView's PNG snapshot: the traced graph with every pass's numbers beside it
(its conds and loops open, the branches a call skips greyed, as in the browser)."""

from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from ..common.snapshot import to_png
from .drawing import TITLE_H

MARK_COLOURS = {  # as in graph_passes.css
    "kept": "#ffffff",
    "folded": "#cfe2f3",
    "removed": "#f4cccc",
    "merged": "#fce5cd",
    "reuses": "#d9ead3",
}
PANEL_EDGES = {"taken": "#2e7d32", "not-taken": "#bdbdbd", "unknown": "#9e9e9e"}
GREY = "#8a8a8a"  # text and edges of a branch the call skips
READABLE = 0.6  # the least scale of a drawing: its 11 px labels stay legible


def stages_png(stages, name):
    """The first stage's graph (before any pass), and a table of what each pass saved."""
    first = stages[0]
    drawing = first["layouts"].get(",".join(sorted(first["control"])), first["drawing"])
    width, height = max(drawing["width"], 200), max(drawing["height"], 80)
    # Scaled down to 900 px, but never below readable: a bigger graph (a traced Python loop)
    # is shown by its top-left part, as the live view opens on it.
    scale = max(min(1.0, 900 / max(width, height)), READABLE)
    whole = (width, height)
    width, height = min(width, 900 / scale), min(height, 900 / scale)
    figure = Figure(figsize=(width * scale / 100 + 4.2, max(height * scale / 100, 2.2)), dpi=100)
    graph_share = (width * scale / 100) / (width * scale / 100 + 4.2)
    axes = figure.add_axes((0, 0, graph_share, 1))
    axes.set_xlim(0, width)
    axes.set_ylim(height, 0)
    axes.axis("off")
    draw_graph(axes, drawing, font=7 * scale + 1)
    text = figure.add_axes((graph_share, 0, 1 - graph_share, 1))
    text.axis("off")
    lines = [f"ek.function {name}: optimization passes", ""]
    if (width, height) != whole:
        lines[1:1] = ["(too big to read whole: its top-left part,", " the live view scrolls)"]
    for stage in stages:
        (n0, n1), (o0, o1) = stage["nodes"], stage["ops"]
        lines.append(f"{stage['title']}")
        lines.append(
            f"   nodes {n0} -> {n1}, ops {o0} -> {o1}, {stage['bytes_saved']} B/call saved"
        )
    text.text(0.02, 0.95, "\n".join(lines), va="top", fontsize=8, family="DejaVu Sans Mono")
    return to_png(figure)


def draw_graph(axes, drawing, font, at=(0, 0), skipped=False):
    """Edges (as routed) then boxes, each box coloured by what the pass does to it; an open
    cond or loop, then its panels, each panel's graph drawn the same way, ``at`` its corner."""
    for edge in drawing["edges"]:
        colour = "#2e7d32" if edge["kind"] == "reuse" else ("#c4c4c4" if skipped else "#888888")
        style = "--" if edge["kind"] == "reuse" else "-"
        points = [(x + at[0], y + at[1]) for x, y in edge["points"]]
        xs, ys = zip(*points, strict=True)
        axes.plot(xs[:-1], ys[:-1], color=colour, linestyle=style, lw=0.8)
        axes.add_patch(  # the last segment carries the arrow head
            FancyArrowPatch(
                points[-2],
                points[-1],
                arrowstyle="->",
                mutation_scale=8,
                color=colour,
                linestyle=style,
                lw=0.8,
            )
        )
    for node in drawing["nodes"]:
        x, y = node["x"] + at[0], node["y"] + at[1]
        fill = MARK_COLOURS[node["mark"]]
        if node["control"] and node["mark"] == "kept":
            fill = "#faf8fd" if node.get("panels") else "#ede7f6"
        axes.add_patch(
            FancyBboxPatch(
                (x, y),
                node["w"],
                node["h"],
                boxstyle="round,pad=0,rounding_size=" + ("12" if node["kind"] == "op" else "4"),
                facecolor="#f5f5f5" if skipped else fill,
                edgecolor="#bdbdbd" if skipped else "#444444",
                linewidth=1.6 if node["output"] else 0.8,
                linestyle="--" if node["mark"] == "removed" else "-",
            )
        )
        colour = GREY if skipped else "#212121"
        if not node.get("panels"):
            text = f"{node['label']}\n{node['type']}"
            middle = (x + node["w"] / 2, y + node["h"] / 2)
            axes.text(*middle, text, ha="center", color=colour, **_font(font, "center"))
            continue
        header = f"{node['label']}  {node['type']}"
        axes.text(x + 12, y + 16, header, color=colour, weight="bold", **_font(font))
        for panel in node["panels"]:
            _draw_panel(axes, panel, (x + panel["x"], y + panel["y"]), font, skipped)


def _draw_panel(axes, panel, at, font, skipped):
    skipped = skipped or panel["state"] == "not-taken"
    taken = panel["state"] == "taken"
    axes.add_patch(
        FancyBboxPatch(
            at,
            panel["w"],
            panel["h"],
            boxstyle="round,pad=0,rounding_size=6",
            facecolor="#f1f8e9" if taken else "#ffffff",
            edgecolor=PANEL_EDGES[panel["state"]],
            linewidth=2.0 if taken else 0.8,
            linestyle="--" if panel["state"] == "not-taken" else "-",
        )
    )
    colour = "#2e7d32" if taken else (GREY if skipped else "#424242")
    axes.text(at[0] + 10, at[1] + 15, panel["title"], color=colour, weight="bold", **_font(font))
    draw_graph(axes, panel["drawing"], font, (at[0], at[1] + TITLE_H), skipped)


def _font(size, va="baseline"):
    # clip_on: a label beyond the part shown must not spill over the numbers beside it
    return {"fontsize": size, "family": "DejaVu Sans Mono", "va": va, "clip_on": True}
