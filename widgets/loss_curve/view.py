"""LossCurve: training curves that update while the loop runs.

Three ways to feed it, one buffer behind them:

- ``curve.log(step, loss=..., val_loss=...)`` anywhere;
- ``with curve.live(): ...`` shows it, and refreshes the saved PNG when the block ends;
- ``for batch in curve.track(dataset): ...`` does both around a loop (steps count batches).

``val_``-prefixed metrics share a panel with their training twin; ``curve.run("adam")``
starts another run drawn over the first, to compare. Each run keeps one colour, given in
the order runs first get points (``curve.colour("adam")`` says which, for other plots of
the same runs), and ``y_scale="log"`` draws losses that fall by orders of magnitude.
"""

import itertools
import math
import numbers
import pathlib
import time

import numpy as np
import traitlets

from eagerkit.arguments import describe
from eagerkit.devices import CPU
from eagerkit.tensor import Tensor

from ..common import ticks
from ..common.live import LiveWidget, downsample_indices, to_host_array
from .keras_callback import LossCurveCallback
from .snapshot import RUN_COLOURS, curves_png

HERE = pathlib.Path(__file__).parent
COMMON = HERE.parent / "common"


class LossCurve(LiveWidget, LossCurveCallback):
    """Live loss (and metric) curves, one panel per metric, one colour per run.

    It is also a Keras callback: ``model.fit(..., callbacks=[curve])`` (keras_callback.py).

    Parameters
    ----------
    title : shown above the panels.
    x : what the steps given to ``log`` count, named on the x axis: ``"step"`` (batches)
        or ``"epoch"``, say.
    interval : at most one update is sent to the browser per ``interval`` seconds.
    y_scale : ``"linear"`` or ``"log"`` (powers of ten evenly spaced, for values that fall by
        orders of magnitude; values of 0 or less are left out there). The "log scale" box in
        the browser changes it, and the saved PNG follows.

    The axes' ticks are computed here (widgets/common/ticks.py), so the browser and the saved
    PNG show the same ones; hovering over a panel reads out the values at that step.

    Examples
    --------
    >>> curve = LossCurve(title="squared vs Huber")
    >>> for step in range(3):
    ...     curve.run("squared").log(step, loss=4.0 / (step + 1), val_loss=5.0 / (step + 1))
    ...     curve.run("huber").log(step, loss=2.0 / (step + 1))
    >>> curve.flush(final=True)
    >>> curve.history["runs"]["huber"]["loss"]
    {'x': [0, 1, 2], 'y': [2.0, 1.0, 0.6666666666666666]}
    >>> curve.history["axes"]["loss"]["x"]["labels"]
    ['0', '1', '2']
    >>> curve.colour("squared"), curve.colour("huber")  # in the order runs got points
    ('#1f77b4', '#ff7f0e')
    >>> curve
    LossCurve(title='squared vs Huber')
    >>> LossCurve(y_scale="log")
    LossCurve(title='', y_scale='log')
    """

    _esm = HERE / "view.js"
    _css = (COMMON / "frame.css").read_text() + (HERE / "view.css").read_text()
    title = traitlets.Unicode("").tag(sync=True)
    x = traitlets.Unicode("step").tag(sync=True)
    y_scale = traitlets.Enum(["linear", "log"], "linear").tag(sync=True)
    # The browser's smoothing slider, kept here so a redrawn view (the log box redraws the
    # output, see _redraw_picture) opens with the smoothing the student chose.
    smoothing = traitlets.Float(0.0, min=0.0, max=0.95).tag(sync=True)

    def __init__(self, title="", x="step", interval=0.25, y_scale="linear"):
        if y_scale not in ("linear", "log"):
            raise ValueError(f"LossCurve(y_scale={y_scale!r}): the y scale is 'linear' or 'log'")
        super().__init__(interval=interval, title=title, x=x, y_scale=y_scale)
        self._colours = {}  # run -> its colour, given in the order runs first got points
        self._series = {}  # run -> metric -> [(steps, values) numpy chunks]: all logged
        self._ranges = {}  # panel -> [x min, x max, y min, y max, smallest y > 0]
        self._axes_of = {}  # panel -> (the ranges its axes were computed for, the axes)
        self._pending = {}  # run -> metric -> ([steps], [values]) logged since the last flush
        self._next_step = 0
        self.run("main")

    def run(self, name):
        """Log into run ``name`` from now on (created on first use); returns the curve."""
        self._run = str(name)
        self._columns = self._pending.setdefault(self._run, {})  # where log appends
        return self

    @traitlets.observe("y_scale")
    def _redraw_picture(self, change):
        """The browser's "log scale" box changed the scale: the saved PNG follows."""
        if getattr(self, "_handle", None) is not None:  # None while __init__ sets the trait
            self.refresh()

    def colour(self, run):
        """The colour ``run`` is drawn in (a run without points yet is given the next one),
        so that other plots of the same runs can use it.

        Examples
        --------
        >>> curve = LossCurve()
        >>> curve.run("sgd").log(0, loss=1.0)
        >>> curve.colour("sgd"), curve.colour("adam")
        ('#1f77b4', '#ff7f0e')
        """
        run = str(run)
        if run not in self._colours:
            self._colours[run] = RUN_COLOURS[len(self._colours) % len(RUN_COLOURS)]
        return self._colours[run]

    def log(self, step=None, **metrics):
        """Buffer one point per metric (numbers or scalar tensors); cheap, sends nothing."""
        if step is None:
            step = self._next_step
        elif type(step) is not int:
            step = _step_number(step, metrics)  # a global-step tensor: read it now
        for name, value in metrics.items():
            if type(value) is Tensor and value._device is CPU and value._data.size == 1:
                value = value._data.item()  # host memory already: keep just the number
            elif type(value) is not float:
                value = self._kept(name, value, metrics)
            column = self._columns.get(name)
            if column is None:
                column = self._columns[name] = ([], [])
            column[0].append(step)
            column[1].append(value)
        if not metrics:
            raise ValueError("LossCurve.log: give at least one metric, e.g. log(step, loss=0.5)")
        self._next_step = step + 1
        if time.perf_counter() >= self._clock.deadline:  # a flush is due
            self.flush()

    def _kept(self, name, value, metrics):
        """What ``log`` keeps of a value that is not a float or a scalar on the CPU: a
        number, or a one-element tensor (read at the flush with the others: a GPU is read
        once; a Variable's value is taken now, as it will change). Anything else is an
        error, and the metrics this call logged before it are taken back."""
        if isinstance(value, Tensor) and value.size == 1:
            return Tensor(value._data, value._device)
        if isinstance(value, numbers.Real):
            return value
        if isinstance(value, np.ndarray) and value.size == 1 and value.dtype.kind in "biuf":
            return value.item()  # loss.numpy(): a 0-d array
        for earlier in itertools.takewhile(lambda other: other != name, metrics):
            steps, values = self._columns[earlier]
            steps.pop()
            values.pop()
            if not steps:  # this call made it
                del self._columns[earlier]
        many = isinstance(value, (Tensor, np.ndarray)) and value.size != 1
        raise TypeError(
            f"LossCurve.log: metric {name!r} must be a number or a one-element tensor, got "
            f"{describe(value)}" + ("; reduce it first (ek.reduce_mean)" if many else "")
        )

    def track(self, iterable, display=True):
        """Yield from ``iterable`` inside ``live()``; ``log`` without a step counts items."""
        with self.live(display=display):
            yield from iterable

    # --- LiveWidget hooks --------------------------------------------------------------
    def _has_pending(self):
        return any(self._pending.values())

    def _take_new_points(self, final=False):
        columns = [
            (run, metric, steps, values)
            for run, metrics in self._pending.items()
            for metric, (steps, values) in metrics.items()
        ]
        if not columns:
            return None
        self._pending = {}
        self.run(self._run)  # log appends to the new buffer from now on
        # One array of every value: a GPU is read once per flush.
        every_value = to_host_array(list(itertools.chain.from_iterable(c[3] for c in columns)))
        series, buffers, start = [], [], 0
        for run, metric, steps, values in columns:
            xs = np.asarray(steps, dtype=np.float64)
            ys = every_value[start : start + len(values)]
            start += len(values)
            self._series.setdefault(run, {}).setdefault(metric, []).append((xs, ys))
            self._widen(panel_of(metric), xs, ys)
            self.colour(run)
            series.append([run, metric])
            buffers += [xs.tobytes(), ys.tobytes()]  # binary: no JSON for the numbers
        message = {"type": "points", "series": series, "axes": self._axes()}
        return dict(message, colours=dict(self._colours)), buffers

    def _widen(self, panel, xs, ys):
        """Grow the panel's data range to take in new points (y: NaNs and infinities aside;
        a y bound stays None while no value is finite)."""
        ys = ys[np.isfinite(ys)]
        positive = ys[ys > 0]
        new = [
            xs.min(),
            xs.max(),
            ys.min() if ys.size else None,
            ys.max() if ys.size else None,
            positive.min() if positive.size else None,
        ]
        old = self._ranges.get(panel, new)
        self._ranges[panel] = [
            _bound(min, old[0], new[0]),
            _bound(max, old[1], new[1]),
            _bound(min, old[2], new[2]),
            _bound(max, old[3], new[3]),
            _bound(min, old[4], new[4]),
        ]

    def _axes(self):
        """Each panel's axes: limits, ticks and labels for x, y, and y on a log scale
        (computed again only for the panels whose range changed)."""
        for panel, ranges in self._ranges.items():
            known = self._axes_of.get(panel)
            if known is None or known[0] != ranges:
                x0, x1, y0, y1, positive = ranges
                axes = {
                    "x": ticks.linear_axis(x0, x1, integer=True),
                    "y": None if y0 is None else ticks.linear_axis(y0, y1, pad=0.05),
                    "ylog": None
                    if positive is None
                    else ticks.log_axis(positive, max(y1, positive)),
                }
                self._axes_of[panel] = (list(ranges), axes)
        return {panel: axes for panel, (_, axes) in self._axes_of.items()}

    def _history_state(self):
        runs = {}
        for run, metrics in self._series.items():
            for metric, chunks in metrics.items():
                xs = np.concatenate([x for x, _ in chunks])
                ys = np.concatenate([y for _, y in chunks])
                chunks[:] = [(xs, ys)]  # join once, not at every history update
                keep = downsample_indices(len(xs))
                runs.setdefault(run, {})[metric] = {
                    "x": xs[keep].astype(np.int64).tolist(),
                    "y": [_json_float(y) for y in ys[keep].tolist()],
                }
        colours = {run: self.colour(run) for run in runs}
        return {"runs": runs, "axes": self._axes(), "x": self.x, "colours": colours}

    # --- display -----------------------------------------------------------------------
    def __repr__(self):
        x = "" if self.x == "step" else f", x={self.x!r}"
        scale = "" if self.y_scale == "linear" else f", y_scale={self.y_scale!r}"
        return f"LossCurve(title={self.title!r}{x}{scale})"

    def snapshot_png(self):
        self.flush(final=True)  # draw every point logged so far
        return curves_png(self.history, self.title, self.y_scale)


def _bound(pick, old, new):
    """``pick`` (min or max) of two bounds, either of which may be None (no finite value)."""
    return pick((v for v in (old, new) if v is not None), default=None)


def panel_of(metric):
    """The panel a metric is drawn in: ``val_loss`` shares ``loss``'s."""
    return metric[4:] if metric.startswith("val_") else metric


def _json_float(value):
    # JSON has no NaN or infinity: a gap (None) in the curve says "not a number" honestly.
    return value if math.isfinite(value) else None


def _step_number(step, metrics):
    """``log``'s step as an int: an integer, or a one-element integer tensor (a global step).
    Anything else is an error; the commonest, ``log(loss)``, is told to name the metric."""
    if isinstance(step, numbers.Integral):
        return int(step)
    if isinstance(step, (Tensor, np.ndarray)) and step.size == 1 and step.dtype.kind in "iu":
        return int(step)
    if not metrics and isinstance(step, (numbers.Real, Tensor, np.ndarray)):
        raise TypeError(
            f"LossCurve.log: its first argument is the step, and {describe(step)} is not one; "
            "name the metric you log: log(loss=value), or log(step, loss=value)"
        )
    raise TypeError(
        f"LossCurve.log: the step must be an integer (or an integer global-step tensor), got "
        f"{describe(step)}; leave it out to count the calls: log(loss=value)"
    )
