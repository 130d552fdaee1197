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

RUN_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]


def to_png(figure):
    """The figure as PNG bytes, identical for identical drawings."""
    buffer = io.BytesIO()
    FigureCanvasAgg(figure)
    figure.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()


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
