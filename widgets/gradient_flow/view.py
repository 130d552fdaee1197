"""GradientFlow: how big the gradients are, layer by layer, step by step.

Feed it the same ``(gradient, variable)`` pairs you give the optimizer, with
``flow.log(grads_and_vars)``, or ``flow.attach(optimizer)`` so every ``apply_gradients``
reports to it. It shows a layers x steps heat map of gradient norms, flags layers whose
gradients vanish, explode or turn NaN, and a histogram of each variable's latest
gradient when you click a layer. To watch it fill in while a model trains, show it before
the loop: end a cell with ``flow`` (the output is redrawn when the training cell ends), or
train inside ``with flow.live():``.

Per step it keeps as little as it can (norms.py: the raw bytes of small gradients, the
sums of squares of large ones, references on a GPU). A flush turns all the kept steps into
norms at once, with whole-array operations on their device, and brings them to the host in
one copy: a training loop pays a few microseconds per step, and a GPU is read once per flush.
"""

import math
import pathlib
import time

import numpy as np
import traitlets

from eagerkit.arguments import describe
from eagerkit.tensor import Tensor

from ..common.live import LiveWidget
from ..common.names import named_variables
from .keras_callback import GradientFlowCallback
from .norm_history import NormHistory
from .norms import PendingSteps, layer_norms
from .snapshot import flow_png
from .summaries import update_flags, variable_summaries

HERE = pathlib.Path(__file__).parent
COMMON = HERE.parent / "common"
SUMMARIES_EVERY = 2.0  # seconds between histogram updates during a run
# Measuring steps may take this share of a training loop's time. The calls that skip a step
# cost a few times more (a Python call each): on the fastest loops a GradientFlow costs
# about 1% (benchmarks/widgets.py).
BUDGET = 0.0025
MAX_EVERY = 100  # but at least every 100th step is measured


class GradientFlow(LiveWidget, GradientFlowCallback):
    """Live gradient norms per layer, with vanishing / exploding / NaN flags.

    It is also a Keras callback: ``model.fit(..., callbacks=[flow])`` (keras_callback.py).

    Parameters
    ----------
    model_or_variables : a model (anything with ``trainable_variables``), a list of
        Variables, or a dict ``name -> Variable``. A model's rows are named by the
        attributes that hold its layers (``hidden``, ``logits``: the same when the cell
        re-runs); other variables named ``layer/kernel:0`` are grouped by layer. Variables
        first seen in ``log`` are added as they come.
    vanishing, exploding : a layer whose gradient norm is below / above these is flagged.
    every : measure one step in ``every``. By default (None) every step is measured, unless
        that would cost the training loop more than about 1% of its time (a tiny model's
        fast steps): the flow then measures one step in k, with k as small as keeps it within
        that (the view says so). A NaN that reaches the weights is flagged at the next
        measured step. ``every=1`` measures every step, whatever it costs.

    Examples
    --------
    >>> import eagerkit as ek
    >>> w, b = ek.Variable([3.0, 4.0], name="dense/kernel"), ek.Variable(0.0, name="dense/bias")
    >>> flow = GradientFlow([w, b])
    >>> flow.log([(ek.constant([3.0, 4.0]), w), (ek.constant(0.0), b)])
    >>> flow.flush(final=True)
    >>> flow.history["layers"], flow.history["norms"], flow.history["flags"]
    (['dense'], [[5.0]], {'dense': 'ok'})

    The colours follow a log scale fitted to the run's own norms (``history["scale"]``,
    log10 limits): brighter means a larger gradient norm.
    """

    _esm = HERE / "view.js"
    _css = (COMMON / "frame.css").read_text() + (HERE / "view.css").read_text()
    vanishing = traitlets.Float(1e-6).tag(sync=True)
    exploding = traitlets.Float(1e3).tag(sync=True)

    def __init__(
        self, model_or_variables=None, vanishing=1e-6, exploding=1e3, interval=0.25, every=None
    ):
        super().__init__(interval=interval, vanishing=vanishing, exploding=exploding)
        if every is not None and (not isinstance(every, int) or every < 1):
            raise ValueError(f"GradientFlow: every must be a positive int or None, got {every!r}")
        self._fixed_every = every  # None: chosen to keep within BUDGET (see _adapt_every)
        self._every = every or 1  # measure every this many steps
        self._countdown = 1  # steps until the next measured one
        self._measuring = 0.0  # seconds spent measuring steps since the last flush
        self._since = time.perf_counter()  # when that last flush ended
        self._rows = []  # one per variable: {"name", "layer"}
        self._row_of = {}  # id(variable) -> row index
        self._variables = []  # keeps the variables alive, so their ids stay theirs
        self._layers = []  # layer names, in first-seen order
        self._pending = PendingSteps()  # the steps logged since the last flush (norms.py)
        self._latest = {}  # row -> its latest gradient (an array on its device), for histograms
        self._history = NormHistory()  # every flushed step's layer norms
        self._flags = {}
        self._summaries = []  # per variable: latest norm and histogram, now and then
        self._summaries_at = -math.inf
        self._next_step = 0
        self._model = model_or_variables if hasattr(model_or_variables, "__dict__") else None
        for name, variable in _named(model_or_variables):
            self._add(variable, name)

    def _add(self, variable, name=None):
        name = name or variable.name.rsplit(":", 1)[0]
        taken = {row["name"] for row in self._rows}
        unique, k = name, 1
        while unique in taken:  # many variables are just called 'Variable'
            unique, k = f"{name}_{k}", k + 1
        layer = unique.rsplit("/", 1)[0]
        if layer not in self._layers:
            self._layers.append(layer)
        self._row_of[id(variable)] = len(self._rows)
        self._rows.append({"name": unique, "layer": layer})
        self._variables.append(variable)
        return len(self._rows) - 1

    # --- feeding it --------------------------------------------------------------------
    def log(self, grads_and_vars, step=None):
        """Buffer one step's ``(gradient, variable)`` pairs (``None`` gradients are skipped)."""
        pairs = []
        for item in grads_and_vars:  # a zip can be read only once
            grad, variable = _pair(item)
            if grad is not None:
                _check_gradient(grad, variable)
                pairs.append((grad, variable))
        self.on_apply(None, pairs, step)

    def on_apply(self, optimizer, grads_and_vars, step=None):
        """Keep one step's pairs (checked already: no ``None``, each gradient of its
        variable's shape, dtype and device). The optimizer calls this after each update."""
        # This runs every training step: keep it short. The arithmetic waits for the flush.
        if step is None:
            step = self._next_step
        elif type(step) is not int:
            step = int(step)  # a global-step tensor: read it now, it will change
        self._next_step = step + 1
        self._countdown -= 1
        if self._countdown:
            return  # not a measured step
        self._countdown = self._every
        start = time.perf_counter()
        self._pending.add(step, grads_and_vars)
        now = time.perf_counter()
        self._measuring += now - start
        if len(self._pending.steps) >= self._pending.max_steps or now >= self._clock.deadline:
            self.flush()

    def attach(self, optimizer):
        """Log every ``optimizer.apply_gradients`` from now on; returns the flow.

        Steps are numbered like ``optimizer.iterations`` (counted here, not read each step).
        """
        if self not in optimizer.listeners:
            optimizer.listeners.append(self)
        self._next_step = int(optimizer.iterations) + 1
        return self

    def detach(self, optimizer):
        """Stop logging ``optimizer``'s updates."""
        if self in optimizer.listeners:
            optimizer.listeners.remove(self)

    # --- LiveWidget hooks --------------------------------------------------------------
    def _has_pending(self):
        return bool(self._pending.steps)

    def _take_new_points(self, final=False):
        if not self._pending.steps:
            return None
        steps, segments = self._pending.take()
        steps = np.asarray(steps, dtype=np.float64)
        parts = []
        for start, end, variables, sums, latest in segments:
            for variable, variable_sums, grad in zip(variables, sums, latest, strict=True):
                row = self._row(variable)
                parts.append((slice(start, end), row, variable._device, variable_sums))
                self._latest[row] = grad  # the histograms show the latest gradient
        row_layers = [self._layers.index(row["layer"]) for row in self._rows]
        norms, present = layer_norms(parts, len(steps), row_layers, len(self._layers))
        update_flags(self._flags, self._layers, norms, present, self.vanishing, self.exploding)
        self._history.append(steps, norms, present)
        if final or time.perf_counter() - self._summaries_at >= SUMMARIES_EVERY:
            self._summaries_at = time.perf_counter()  # histograms cost: not at every flush
            self._summaries = variable_summaries(self._rows, self._variables, self._latest)
        # Binary float64 buffers for the numbers; -1 means "no gradient" (norms are >= 0).
        buffers = [steps.tobytes(), np.where(present, norms, -1.0).tobytes()]
        self._adapt_every()
        content = {
            "type": "points",
            "every": self._every,
            "scale": self._history.scale(),
            "step_axis": self._history.step_axis(self._every),
            "layers": list(self._layers),
            "flags": dict(self._flags),
            "variables": self._summaries,
        }
        return content, buffers

    def _adapt_every(self):
        """Measure every k-th step, with k as small as keeps measuring within BUDGET of the
        loop's time. It is judged over at least ``interval`` seconds: a short run, or the
        first quarter second of a long one, has every step measured."""
        now = time.perf_counter()
        elapsed = now - self._since
        if self._fixed_every is not None or elapsed < self.interval:
            return
        share = self._measuring / elapsed
        self._measuring, self._since = 0.0, now
        if share > BUDGET:
            self._every = min(MAX_EVERY, math.ceil(self._every * share / BUDGET))
        elif share < BUDGET / 4:
            self._every = max(1, self._every // 2)
        self._countdown = min(self._countdown, self._every)

    def _row(self, variable):
        """The variable's row (a new one joins here: a model's, by its attribute name)."""
        row = self._row_of.get(id(variable))
        if row is not None:
            return row
        names = {id(v): name for name, v in named_variables(self._model)}
        return self._add(variable, names.get(id(variable)))

    def _history_state(self):
        steps, norms = self._history.json(layers=len(self._layers))
        return {
            "every": self._every,
            "scale": self._history.scale(),
            "step_axis": self._history.step_axis(self._every),
            "layers": list(self._layers),
            "steps": steps,
            "norms": norms,
            "flags": dict(self._flags),
            "variables": self._summaries,
        }

    # --- display -----------------------------------------------------------------------
    def __repr__(self):
        return f"GradientFlow(vanishing={self.vanishing!r}, exploding={self.exploding!r})"

    def snapshot_png(self):
        self.flush(final=True)
        return flow_png(self.history)


def _is_variable(value):
    return isinstance(value, Tensor) and value._is_variable


def _named(source):
    """``named_variables(source)``, or an error naming what was given instead."""

    def refused(holding=""):  # only on failure: describing the source may read the device
        return TypeError(
            "GradientFlow: expected a model (anything with trainable_variables), a list of "
            f"ek.Variables or a dict name -> Variable; got {describe(source)}{holding}"
        )

    collection = hasattr(source, "trainable_variables") or hasattr(source, "__iter__")
    if isinstance(source, (str, bytes, Tensor)) or not (source is None or collection):
        raise refused()
    named = named_variables(source)
    for _, variable in named:
        if not _is_variable(variable):
            raise refused(f", holding {describe(variable)}")
    return named


def _pair(item):
    """One ``(gradient, variable)`` pair of ``log``'s argument, or an error saying what it is."""
    if isinstance(item, (tuple, list)) and len(item) == 2 and _is_variable(item[1]):
        return item
    raise TypeError(
        "GradientFlow.log: expected (gradient, variable) pairs, as optimizer.apply_gradients "
        f"takes them (zip(grads, model.trainable_variables)); got {describe(item)} among them"
    )


def _check_gradient(grad, variable):
    """What the optimizer checks too: a tensor of its variable's shape, dtype and device."""
    if not isinstance(grad, Tensor):
        raise TypeError(
            f"GradientFlow.log: expected (gradient, variable) pairs of tensors, got "
            f"{describe(grad)} as the gradient of {variable.name!r}; log what tape.gradient "
            "returns (an array: ek.constant(array))"
        )
    if grad.shape != variable.shape or grad.dtype != variable.dtype:
        raise ValueError(
            f"GradientFlow.log: the gradient of {variable.name!r} has shape {grad.shape} and "
            f"dtype {grad.dtype.name} but the variable has shape {variable.shape} and dtype "
            f"{variable.dtype.name}; log the (gradient, variable) pairs from tape.gradient"
        )
    if grad._device is not variable._device:
        raise ValueError(
            f"GradientFlow.log: the gradient of {variable.name!r} is on {grad.device} but the "
            f"variable is on {variable.device}; move it with .cpu() or .gpu()"
        )
