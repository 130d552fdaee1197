"""Keras' progress bar (``ek.keras.utils.Progbar``), drawn with tqdm.

While an epoch runs, an interactive output (a terminal, a Jupyter kernel) shows Keras'
live line, redrawn in place by tqdm (unless ``EAGERKIT_LIVE_PROGRESS=0``: the test
suite sets it, so the lessons nbval checks never draw it)::

     3/8 [===========>..................] - ETA: 00:01 - loss: 0.6931 - accuracy: 0.5000

When the epoch ends, the live line is wiped and one final line is printed in its place::

    8/8 [==============================] - loss: 0.6534 - accuracy: 0.6250

Keras' final line also says how long the epoch took; eagerkit's leaves the time out, so
that a notebook shows the same text on every run: the lines redrawn in place carry the
clock, and Jupyter (nbconvert, nbval) keeps only the last text written over them, which
depends on nothing but the numbers. ``verbose=2`` prints only the final line, without the
bar; a non-interactive output (a log file, pytest) gets only the final lines as well.

Examples
--------
>>> from eagerkit.keras.utils import Progbar
>>> bar = Progbar(target=4)
>>> for step in range(1, 5):  # the loss shown is the mean of those given so far
...     bar.update(step, [("loss", 1.0 / step)])
4/4 [==============================] - loss: 0.5208
"""

import math
import numbers
import os
import sys

from eagerkit.arguments import describe, whole_number
from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import Tensor

WIDTH = 30  # characters of the bar between the brackets, as Keras draws it


class Progbar:
    """A progress bar over ``target`` steps (None: unknown) that shows metric values.

    Parameters
    ----------
    target : the number of steps, or None when it is not known.
    width : the bar's width in characters.
    verbose : 1 shows the live bar and a final line, 2 only the final line, 0 nothing.
    stateful_metrics : names whose values are shown as given; the others are averaged
        over the steps so far, as Keras does.
    unit_name : what a step is called.
    """

    def __init__(
        self, target, width=WIDTH, verbose=1, interval=0.05, stateful_metrics=None, unit_name="step"
    ):
        if target is not None:
            target = _whole(target, "target", "a whole number of steps or None", minimum=0)
        width = _whole(width, "width", "a whole number of characters >= 1", minimum=1)
        if verbose not in (0, 1, 2):
            raise InvalidArgumentError(
                f"Progbar: verbose must be 0, 1 or 2, got {verbose!r}", op="Progbar"
            )
        self.target = target
        self.width, self.verbose, self.interval = width, verbose, interval
        self.stateful_metrics = stateful_metrics if stateful_metrics is not None else ()
        self.unit_name = unit_name
        self._values = {}  # name -> [weighted sum, steps] or the value itself (stateful)
        self._seen_so_far = 0
        self._bar = None  # the live tqdm line, while one is drawn
        self._finished = False

    def update(self, current, values=None, finalize=None):
        """Show progress at step ``current`` with ``values`` (pairs, or a dict)."""
        current = _count(current, "current", "Progbar.update")
        pairs = _pairs(values, "Progbar.update")  # all checked before any is counted
        steps = max(current - self._seen_so_far, 1)
        for name, value in pairs:
            if name in self.stateful_metrics:
                self._values[name] = value
            else:
                total, count = self._values.get(name, (0.0, 0))
                self._values[name] = (total + value * steps, count + steps)
        self._seen_so_far = current
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        if self.verbose == 1 and not finalize:
            self._draw_live(current)
        if finalize and not self._finished:
            self._finished = True
            self._close_live()
            if self.verbose:
                print(self.final_line(current), flush=True)

    def add(self, n, values=None):
        """Advance by ``n`` steps."""
        n = _count(n, "n", "Progbar.add")
        self.update(self._seen_so_far + n, values)

    def final_line(self, current):
        """The line left on screen when the bar is done (no timings: see the module)."""
        if self.target is None:
            count = f"{current:7d}/Unknown"
        else:
            count = f"{current:{len(str(self.target))}d}/{self.target}"
        if self.verbose == 1 and self.target is not None:
            count += " [" + "=" * self.width + "]"
        return count + self._metric_text()

    def _metric_text(self):
        parts = []
        for name, entry in self._values.items():
            value = entry if name in self.stateful_metrics else entry[0] / max(entry[1], 1)
            parts.append(f" - {name}: {_number(value)}")
        return "".join(parts)

    # --- the live line -----------------------------------------------------------------
    def _draw_live(self, current):
        if not _interactive():
            return
        count = (
            f"{current:{len(str(self.target))}d}/{self.target}"
            if self.target is not None
            else f"{current:7d}/Unknown"
        )
        bar = f" [{{bar:{self.width}}}] - ETA: {{remaining}}" if self.target is not None else ""
        text = count + bar + self._metric_text().replace("{", "{{").replace("}", "}}")
        if self._bar is None:
            self._bar = _new_live_line(self.target, self.interval, text)
            if self._bar is None:
                return  # tqdm is not installed: final lines only
        self._bar.bar_format = text
        self._bar.update(current - self._bar.n)

    def _close_live(self):
        if self._bar is not None:
            self._bar.close()  # leave=False: tqdm wipes the live line
            self._bar = None


def _new_live_line(target, interval, bar_format):
    try:
        from tqdm.std import tqdm
    except ImportError:
        return None
    return tqdm(
        total=target,
        file=sys.stdout,
        leave=False,
        ascii=".>=",  # Keras' bar: [=====>.....]
        mininterval=interval,
        dynamic_ncols=False,
        bar_format=bar_format,  # the first line drawn is already Keras'
    )


def _pairs(values, caller):
    """``values`` as ``(name, number)`` pairs: a dict or a list of pairs (None: none)."""
    pairs = list(values.items()) if isinstance(values, dict) else values
    if pairs is None:
        return []
    if isinstance(pairs, (list, tuple)) and all(
        isinstance(pair, (list, tuple)) and len(pair) == 2 and isinstance(pair[0], str)
        for pair in pairs
    ):
        try:
            return [(name, float(value)) for name, value in pairs]
        except (TypeError, ValueError):  # a value that is no single number
            pass
    raise InvalidArgumentError(
        f"{caller}: values must be (name, number) pairs, got {describe(values)}; pass e.g. "
        "[('loss', 0.5)] or {'loss': 0.5}",
        op=caller,
    )


def _whole(value, what, wanted, minimum):
    """Progbar's sizes: 4 and 4.0 pass; 1.5, nan, inf, a string or a bool are refused."""
    if isinstance(value, Tensor) and value.ndim == 0 and not value.dtype.is_bool:
        value = value.numpy().item()  # a step count kept in a tensor
    whole = (
        isinstance(value, numbers.Real)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and float(value).is_integer()
    )
    if not whole or value < minimum:
        raise InvalidArgumentError(
            f"Progbar: {what} must be {wanted}, got {describe(value)}", op="Progbar"
        )
    return int(value)


def _count(value, what, op):
    """A number of steps: a whole number >= 0 (a fraction is refused, not truncated)."""
    value = whole_number(value, what, op)
    if value < 0:
        raise InvalidArgumentError(f"{op}: {what} must be >= 0, got {value}", op=op)
    return value


LIVE_SWITCH = "EAGERKIT_LIVE_PROGRESS"  # "0": final lines only (the test suite's kernels)


def _interactive():
    """Whether the output redraws a line in place: a terminal, or a Jupyter kernel's, unless
    nobody watches it (``EAGERKIT_LIVE_PROGRESS=0``, which tests/conftest.py sets, so that
    the kernels nbval starts for the lessons print no clock at all)."""
    if os.environ.get(LIVE_SWITCH) == "0":
        return False
    stdout = sys.stdout
    kernel = type(stdout).__module__.startswith("ipykernel")  # its OutStream, not imported
    return kernel or bool(getattr(stdout, "isatty", lambda: False)())


def _number(value):
    """Keras' format: four decimals, or scientific notation for tiny values."""
    if math.isnan(value) or math.isinf(value) or abs(value) > 1e-3:
        return f"{value:.4f}"
    return f"{value:.4e}"
