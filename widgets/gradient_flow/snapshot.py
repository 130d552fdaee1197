"""GradientFlow's PNG snapshot: the heat map the browser draws, with the same scale and axes."""

import matplotlib as mpl
import numpy as np
from matplotlib.figure import Figure

from ..common.snapshot import to_png

NO_GRADIENT, NOT_FINITE = "#eeeeee", "#e74c3c"  # as in gradient_flow.js
TITLE = "gradient norm |g| per layer and step (log colour scale: brighter = larger)"


def flow_png(history):
    """The PNG of ``flow_figure``."""
    return to_png(flow_figure(history))


def flow_figure(history):
    """A layers x steps heat map of gradient norms; flagged layers are named in red."""
    layers = history.get("layers", [])
    columns = history.get("norms", [])
    figure = Figure(figsize=(8, 1.1 + 0.35 * max(2, len(layers))), dpi=100)
    axes = figure.add_subplot(1, 1, 1)
    if not layers or not columns:
        axes.axis("off")
        axes.text(0.5, 0.5, "no gradients logged yet", ha="center", va="center")
        return figure
    scale, step_axis = history["scale"], history["step_axis"]
    grid = np.array(
        [
            [_log_norm(col[r] if r < len(col) else None) for col in columns]
            for r in range(len(layers))
        ]
    )
    bad = np.array(
        [
            [isinstance(col[r] if r < len(col) else None, str) for col in columns]
            for r in range(len(layers))
        ]
    )
    edges = _column_edges(history["steps"], step_axis)
    cmap = mpl.colormaps["viridis"].with_extremes(bad=NO_GRADIENT)
    rows = np.arange(len(layers) + 1) - 0.5
    image = axes.pcolormesh(
        edges, rows, np.ma.masked_invalid(grid), cmap=cmap, vmin=scale["lo"], vmax=scale["hi"]
    )
    if bad.any():  # NaN or infinite norms: red, whatever the scale
        axes.pcolormesh(
            edges,
            rows,
            np.ma.masked_where(~bad, np.ones_like(grid)),
            cmap=mpl.colors.ListedColormap([NOT_FINITE]),
        )
    axes.set_ylim(len(layers) - 0.5, -0.5)  # first layer on top, as in the browser
    axes.set_yticks(range(len(layers)))
    flags = history.get("flags", {})
    labels = axes.set_yticklabels(
        [f"{n} ({flags[n]})" if flags.get(n, "ok") != "ok" else n for n in layers], fontsize=8
    )
    for label, name in zip(labels, layers, strict=True):
        if flags.get(name, "ok") != "ok":
            label.set_color("#c0392b")
    axes.set_xlim(step_axis["lo"], step_axis["hi"])
    axes.set_xticks(step_axis["ticks"], step_axis["labels"], fontsize=8)
    every = history.get("every", 1)
    axes.set_xlabel(
        "training step" + (f" (one step in {every} measured)" if every > 1 else ""), fontsize=8
    )
    bar = figure.colorbar(image, ax=axes, pad=0.02)
    bar.set_ticks(scale["ticks"], labels=scale["labels"], fontsize=8)
    bar.set_label("|g|", fontsize=8)
    axes.set_title(TITLE, fontsize=9)
    figure.tight_layout()
    return figure


def _column_edges(steps, step_axis):
    """Where each step's column begins and ends: half way to its neighbours."""
    steps = np.asarray(steps, dtype=np.float64)
    if len(steps) == 1:
        return np.array([step_axis["lo"], step_axis["hi"]])
    middles = (steps[1:] + steps[:-1]) / 2
    return np.concatenate(
        [[steps[0] - (middles[0] - steps[0])], middles, [steps[-1] + (steps[-1] - middles[-1])]]
    )


def _log_norm(value):
    if value is None or isinstance(value, str):  # None: no gradient; "nan"/"inf": painted red
        return np.nan
    return np.log10(value) if value > 0 else -np.inf
