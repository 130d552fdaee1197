"""LossCurve's PNG snapshot: the panels the browser draws, with the same ticks and labels."""

import math

from matplotlib.figure import Figure

from ..common.snapshot import to_png

NO_VALUES = "no finite values yet (NaN or inf)"  # as in the .js
DOTS_UP_TO = 30  # a series this short has a dot on every point (as in the .js)
# The runs' colours, in the order runs get them (matplotlib's tab10). The browser draws with
# the colours the history names, so this list is the only one.
RUN_COLOURS = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
]  # fmt: skip
NO_COLOUR = "#555555"  # a run the history gives no colour (as in the .js)
# Beside a validation twin a training line fades, so the val_ line on top of it reads.
TRAINING_BESIDE_VALIDATION = 0.55


def validation_colour(colour):
    """The colour of a run's ``val_`` lines: its own, three fifths as bright (as in the .js),
    so a validation line stands out from the training line it shares a panel with.

    Examples
    --------
    >>> validation_colour("#1f77b4")
    '#12476c'
    """
    channels = (int(colour[i : i + 2], 16) * 3 // 5 for i in (1, 3, 5))
    return "#" + "".join(f"{channel:02x}" for channel in channels)


def curves_png(history, title="", y_scale="linear"):
    """The PNG of ``curves_figure``."""
    return to_png(curves_figure(history, title, y_scale))


def curves_figure(history, title="", y_scale="linear"):
    """One panel per metric (``val_x`` shares ``x``'s panel), one colour per run, the y axis
    on a log scale when ``y_scale == "log"`` and the panel has a value above 0."""
    panels = {}
    for run, metrics in history.get("runs", {}).items():
        for metric, series in metrics.items():
            panel = metric[4:] if metric.startswith("val_") else metric
            panels.setdefault(panel, []).append((run, metric, series))
    count = max(1, len(panels))
    figure = Figure(figsize=(4.2 * count, 3.0), dpi=100)
    colours = history.get("colours", {})
    all_axes = history.get("axes", {})
    for i, (panel, lines) in enumerate(sorted(panels.items())):
        axes = figure.add_subplot(1, count, i + 1)
        validated = any(metric.startswith("val_") for _, metric, _ in lines)
        for run, metric, series in lines:
            ys = [math.nan if y is None else y for y in series["y"]]
            colour = colours.get(run, NO_COLOUR)
            if metric.startswith("val_"):
                style = _validation_style(colour, len(ys))
            else:
                style = _training_style(colour, len(ys), validated)
            axes.plot(series["x"], ys, label=f"{run}: {metric}", **style)
        if panel in all_axes:  # the ticks the browser shows (widgets/common/ticks.py)
            _set_axis(axes.set_xlim, axes.set_xticks, all_axes[panel]["x"])
            log = all_axes[panel].get("ylog") if y_scale == "log" else None
            if log is not None:  # ticks at log10 values: drawn at 10 ** tick
                axes.set_yscale("log")
                axes.set_ylim(10 ** log["lo"], 10 ** log["hi"])
                axes.set_yticks([10**t for t in log["ticks"]], log["labels"])
                axes.minorticks_off()
            elif all_axes[panel]["y"] is not None:
                _set_axis(axes.set_ylim, axes.set_yticks, all_axes[panel]["y"])
            else:
                axes.text(
                    0.5, 0.5, NO_VALUES, ha="center", color="#c0392b", transform=axes.transAxes
                )
        axes.set_title(panel, fontsize=10)
        scale = "   (y: log scale)" if axes.get_yscale() == "log" else ""  # as in the .js
        axes.set_xlabel(history.get("x", "step") + scale, fontsize=8)
        axes.tick_params(labelsize=8)
        axes.grid(alpha=0.3)
        axes.legend(fontsize=7)
    if not panels:
        figure.text(0.5, 0.5, "no points logged yet", ha="center", va="center")
    if title:
        figure.suptitle(title, fontsize=11)
    figure.tight_layout()
    return figure


def _training_style(colour, points, validated):
    style = {"color": colour, "lw": 1.4, "zorder": 2}
    if validated:
        style["alpha"] = TRAINING_BESIDE_VALIDATION
    if points <= DOTS_UP_TO:
        style.update(marker="o", markersize=3.5)
    return style


def _validation_style(colour, points):
    """Dashed, darker, wider and on top (as in the .js): a few points, one per epoch, over a
    training line of one point per step."""
    shade = validation_colour(colour)
    style = {"color": shade, "lw": 2.4, "linestyle": (0, (6, 3)), "zorder": 3}
    if points <= DOTS_UP_TO:
        style.update(marker="o", markersize=4.5, markeredgecolor="white", markeredgewidth=0.8)
    return style


def _set_axis(set_limits, set_ticks, axis):
    set_limits(axis["lo"], axis["hi"])
    set_ticks(axis["ticks"], axis["labels"])
