"""GraphPassView's PNG snapshot: the traced graph with every pass's numbers beside it."""

from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from ..common.snapshot import to_png

MARK_COLOURS = {  # as in graph_passes.css
    "kept": "#ffffff",
    "folded": "#cfe2f3",
    "removed": "#f4cccc",
    "merged": "#fce5cd",
    "reuses": "#d9ead3",
}


def stages_png(stages, name):
    """The first stage's graph (before any pass), and a table of what each pass saved."""
    drawing = stages[0]["drawing"]
    width, height = max(drawing["width"], 200), max(drawing["height"], 80)
    scale = min(1.0, 900 / max(width, height))
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
    for stage in stages:
        (n0, n1), (o0, o1) = stage["nodes"], stage["ops"]
        lines.append(f"{stage['title']}")
        lines.append(
            f"   nodes {n0} -> {n1}, ops {o0} -> {o1}, {stage['bytes_saved']} B/call saved"
        )
    text.text(0.02, 0.95, "\n".join(lines), va="top", fontsize=8, family="DejaVu Sans Mono")
    return to_png(figure)


def draw_graph(axes, drawing, font):
    """Edges (as routed) then boxes, each box coloured by what the pass does to it."""
    for edge in drawing["edges"]:
        colour = "#2e7d32" if edge["kind"] == "reuse" else "#888888"
        style = "--" if edge["kind"] == "reuse" else "-"
        xs, ys = zip(*edge["points"], strict=True)
        axes.plot(xs[:-1], ys[:-1], color=colour, linestyle=style, lw=0.8)
        axes.add_patch(  # the last segment carries the arrow head
            FancyArrowPatch(
                edge["points"][-2],
                edge["points"][-1],
                arrowstyle="->",
                mutation_scale=8,
                color=colour,
                linestyle=style,
                lw=0.8,
            )
        )
    for node in drawing["nodes"]:
        axes.add_patch(
            FancyBboxPatch(
                (node["x"], node["y"]),
                node["w"],
                node["h"],
                boxstyle="round,pad=0,rounding_size=" + ("12" if node["kind"] == "op" else "4"),
                facecolor=MARK_COLOURS[node["mark"]],
                edgecolor="#444444",
                linewidth=1.6 if node["output"] else 0.8,
                linestyle="--" if node["mark"] == "removed" else "-",
            )
        )
        axes.text(
            node["x"] + node["w"] / 2,
            node["y"] + node["h"] / 2,
            f"{node['label']}\n{node['type']}",
            ha="center",
            va="center",
            fontsize=font,
            family="DejaVu Sans Mono",
        )
