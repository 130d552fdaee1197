"""LossCurve's PNG snapshot: the panels the browser draws, with the same ticks and labels."""

import math

from matplotlib.figure import Figure

from ..common.snapshot import to_png

NO_VALUES = "no finite values yet (NaN or inf)"  # as in the .js
DOTS_UP_TO = 30  # a series this short has a dot on every point (as in the .js)
RUN_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]  # as the .js


def curves_png(history, title=""):
    """The PNG of ``curves_figure``."""
    return to_png(curves_figure(history, title))


def curves_figure(history, title=""):
    """One panel per metric (``val_x`` shares ``x``'s panel), one colour per run."""
    panels = {}
    for run, metrics in history.get("runs", {}).items():
        for metric, series in metrics.items():
            panel = metric[4:] if metric.startswith("val_") else metric
            panels.setdefault(panel, []).append((run, metric, series))
    count = max(1, len(panels))
    figure = Figure(figsize=(4.2 * count, 3.0), dpi=100)
    runs = sorted(history.get("runs", {}))
    all_axes = history.get("axes", {})
    for i, (panel, lines) in enumerate(sorted(panels.items())):
        axes = figure.add_subplot(1, count, i + 1)
        for run, metric, series in lines:
            style = "--" if metric.startswith("val_") else "-"
            ys = [math.nan if y is None else y for y in series["y"]]
            colour = RUN_COLOURS[runs.index(run) % len(RUN_COLOURS)]
            dots = {"marker": "o", "markersize": 3.5} if len(ys) <= DOTS_UP_TO else {}
            axes.plot(
                series["x"], ys, style, color=colour, label=f"{run}: {metric}", lw=1.4, **dots
            )
        if panel in all_axes:  # the ticks the browser shows (widgets/common/ticks.py)
            _set_axis(axes.set_xlim, axes.set_xticks, all_axes[panel]["x"])
            if all_axes[panel]["y"] is not None:
                _set_axis(axes.set_ylim, axes.set_yticks, all_axes[panel]["y"])
            else:
                axes.text(
                    0.5, 0.5, NO_VALUES, ha="center", color="#c0392b", transform=axes.transAxes
                )
        axes.set_title(panel, fontsize=10)
        axes.set_xlabel(history.get("x", "step"), fontsize=8)
        axes.tick_params(labelsize=8)
        axes.grid(alpha=0.3)
        axes.legend(fontsize=7)
    if not panels:
        figure.text(0.5, 0.5, "no points logged yet", ha="center", va="center")
    if title:
        figure.suptitle(title, fontsize=11)
    figure.tight_layout()
    return figure


def _set_axis(set_limits, set_ticks, axis):
    set_limits(axis["lo"], axis["hi"])
    set_ticks(axis["ticks"], axis["labels"])
