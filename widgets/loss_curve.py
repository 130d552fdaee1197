"""LossCurve: training curves that update while the loop runs.

Three ways to feed it, one buffer behind them:

- ``curve.log(step, loss=..., val_loss=...)`` anywhere;
- ``with curve.live(): ...`` shows it, and refreshes the saved PNG when the block ends;
- ``for batch in curve.track(dataset): ...`` does both around a loop (steps count batches).

``val_``-prefixed metrics share a panel with their training twin; ``curve.run("adam")``
starts another run drawn over the first, to compare.
"""

import math
import numbers
import pathlib

import traitlets

from eagerkit.tensor import Tensor

from . import snapshot
from ._live import LiveWidget, downsample_indices, to_host_floats

HERE = pathlib.Path(__file__).parent


class LossCurve(LiveWidget):
    """Live loss (and metric) curves, one panel per metric, one colour per run.

    Parameters
    ----------
    title : shown above the panels.
    interval : at most one update is sent to the browser per ``interval`` seconds.

    Examples
    --------
    >>> curve = LossCurve(title="squared vs Huber")
    >>> for step in range(3):
    ...     curve.run("squared").log(step, loss=4.0 / (step + 1), val_loss=5.0 / (step + 1))
    ...     curve.run("huber").log(step, loss=2.0 / (step + 1))
    >>> curve.flush(final=True)
    >>> curve.history["runs"]["huber"]["loss"]
    {'x': [0, 1, 2], 'y': [2.0, 1.0, 0.6666666666666666]}
    >>> curve
    LossCurve(title='squared vs Huber')
    """

    _esm = HERE / "loss_curve.js"
    _css = HERE / "loss_curve.css"
    title = traitlets.Unicode("").tag(sync=True)

    def __init__(self, title="", interval=0.25):
        super().__init__(interval=interval, title=title)
        self._run = "main"
        self._series = {}  # run -> metric -> ([steps], [floats]): everything logged
        self._pending = []  # (run, metric, step, value) not yet sent; values may be Tensors
        self._next_step = 0

    def run(self, name):
        """Log into run ``name`` from now on (created on first use); returns the curve."""
        self._run = str(name)
        return self

    def log(self, step=None, **metrics):
        """Buffer one point per metric (numbers or scalar tensors); cheap, sends nothing."""
        if not metrics:
            raise ValueError("LossCurve.log: give at least one metric, e.g. log(step, loss=0.5)")
        step = self._next_step if step is None else int(step)  # int(): a global-step tensor
        self._next_step = step + 1
        for name, value in metrics.items():
            if not isinstance(value, numbers.Real) and not (
                isinstance(value, Tensor) and value.size == 1
            ):
                raise TypeError(
                    f"LossCurve.log: metric {name!r} must be a number or a one-element "
                    f"tensor, got {_describe(value)}; reduce it first (ek.reduce_mean)"
                )
            self._pending.append((self._run, name, step, value))
        self._tick()

    def track(self, iterable, display=True):
        """Yield from ``iterable`` inside ``live()``; ``log`` without a step counts items."""
        with self.live(display=display):
            yield from iterable

    # --- LiveWidget hooks --------------------------------------------------------------
    def _take_new_points(self):
        if not self._pending:
            return None
        pending, self._pending = self._pending, []
        values = to_host_floats([value for _, _, _, value in pending])  # one copy per device
        delta = {}
        for (run, metric, step, _), value in zip(pending, values):
            xs, ys = self._series.setdefault(run, {}).setdefault(metric, ([], []))
            xs.append(step)
            ys.append(value)
            new = delta.setdefault(run, {}).setdefault(metric, {"x": [], "y": []})
            new["x"].append(step)
            new["y"].append(_json_float(value))
        return {"type": "points", "runs": delta}

    def _history_state(self):
        runs = {}
        for run, metrics in self._series.items():
            for metric, (xs, ys) in metrics.items():
                keep = downsample_indices(len(xs))
                runs.setdefault(run, {})[metric] = {
                    "x": [xs[i] for i in keep], "y": [_json_float(ys[i]) for i in keep]
                }
        return {"runs": runs}

    # --- display -----------------------------------------------------------------------
    def __repr__(self):
        return f"LossCurve(title={self.title!r})"

    def snapshot_png(self):
        self.flush(final=True)  # draw every point logged so far
        return snapshot.curves_png(self.history, self.title)


def _json_float(value):
    # JSON has no NaN or infinity: a gap (None) in the curve says "not a number" honestly.
    return value if math.isfinite(value) else None


def _describe(value):
    if isinstance(value, Tensor):
        return f"a tensor of shape {value.shape}"
    return f"a {type(value).__name__}"
