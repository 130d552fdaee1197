"""GradientFlow: how big the gradients are, layer by layer, step by step.

Feed it the same ``(gradient, variable)`` pairs you give the optimizer, with
``flow.log(grads_and_vars)``, or ``flow.attach(optimizer)`` so every ``apply_gradients``
reports to it. It shows a layers x steps heat map of gradient norms, flags layers whose
gradients vanish, explode or turn NaN, and a histogram of each variable's latest
gradient when you click a layer.

Per step it only keeps the list of pairs. A flush squares and sums all the kept gradients
of a variable at once, on their device, and brings the sums to the host in one copy
(norms.py): a training loop pays almost nothing per step, and a GPU is read once per flush.
"""

import itertools
import math
import operator
import pathlib
import time

import numpy as np
import traitlets

from eagerkit.tensor import Tensor

from . import snapshot
from ._live import LiveWidget, downsample_indices
from .norms import layer_norms

HERE = pathlib.Path(__file__).parent
BINS = 20
SUMMARIES_EVERY = 2.0  # seconds between histogram updates during a run
MAX_PENDING = 1 << 22  # gradient elements kept between two flushes (16 MB of float32)
_first, _second = operator.itemgetter(0), operator.itemgetter(1)


class GradientFlow(LiveWidget):
    """Live gradient norms per layer, with vanishing / exploding / NaN flags.

    Parameters
    ----------
    model_or_variables : a model (anything with ``trainable_variables``), a list of
        Variables, or a dict ``name -> Variable``. Variables named ``layer/kernel:0`` are
        grouped by layer. Variables first seen in ``log`` are added as they come.
    vanishing, exploding : a layer whose gradient norm is below / above these is flagged.

    Examples
    --------
    >>> import eagerkit as ek
    >>> w, b = ek.Variable([3.0, 4.0], name="dense/kernel"), ek.Variable(0.0, name="dense/bias")
    >>> flow = GradientFlow([w, b])
    >>> flow.log([(ek.constant([3.0, 4.0]), w), (ek.constant(0.0), b)])
    >>> flow.flush(final=True)
    >>> flow.history["layers"], flow.history["norms"], flow.history["flags"]
    (['dense'], [[5.0]], {'dense': 'ok'})
    """

    _esm = HERE / "gradient_flow.js"
    _css = (HERE / "frame.css").read_text() + (HERE / "gradient_flow.css").read_text()
    vanishing = traitlets.Float(1e-6).tag(sync=True)
    exploding = traitlets.Float(1e3).tag(sync=True)

    def __init__(self, model_or_variables=None, vanishing=1e-6, exploding=1e3, interval=0.25):
        super().__init__(interval=interval, vanishing=vanishing, exploding=exploding)
        self._rows = []  # one per variable: {"name", "layer"}
        self._row_of = {}  # id(variable) -> row index
        self._variables = []  # keeps the variables alive, so their ids stay theirs
        self._layers = []  # layer names, in first-seen order
        self._pending = []  # (step, [(gradient, variable)]) per logged step, not yet sent
        self._max_pending = 64  # steps kept before a flush is forced (set from their size)
        self._latest = {}  # row -> the latest gradient (a Tensor), for histograms
        self._steps, self._norms = [], []  # full history: one list of layer norms per step
        self._flags = {}
        self._summaries = []  # per variable: latest norm and histogram, now and then
        self._summaries_at = -math.inf
        self._next_step = 0
        for name, variable in _named_variables(model_or_variables):
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
        pairs = list(grads_and_vars)  # a zip can be read only once
        for grad, variable in pairs:
            if grad is not None and not isinstance(grad, Tensor):
                raise TypeError(
                    f"GradientFlow.log: expected (gradient, variable) pairs of tensors, got "
                    f"a {type(grad).__name__} as the gradient of {variable!r}"
                )
        self._buffer(pairs, step)

    def _buffer(self, pairs, step=None):
        # Per step we only keep the list (gradients are never written into, so references
        # are safe): the arithmetic waits for the flush, where it runs over all pending steps
        # at once (norms.py). _max_pending bounds the memory the kept gradients hold.
        step = self._next_step if step is None else int(step)  # int(): a global-step tensor
        self._next_step = step + 1
        self._pending.append((step, pairs))
        if len(self._pending) >= self._max_pending or self._clock.due():
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

    def on_apply(self, optimizer, grads_and_vars):
        """The optimizer's listener hook: keep the pairs it just applied (checked already)."""
        self._buffer(grads_and_vars)

    # --- LiveWidget hooks --------------------------------------------------------------
    def _take_new_points(self, final=False):
        if not self._pending:
            return None
        pending, self._pending = self._pending, []
        by_row = self._grads_by_row(pending)
        row_layers = [self._layers.index(row["layer"]) for row in self._rows]
        norms, present = layer_norms(by_row, len(pending), row_layers, len(self._layers))
        self._update_flags(norms, present)
        new_steps = [step for step, _ in pending]
        if present.all() and np.isfinite(norms).all():
            new_norms = norms.tolist()  # the usual case, and much faster than the loop below
        else:
            new_norms = [
                [_json_norm(n) if p else None for n, p in zip(values, flags, strict=True)]
                for values, flags in zip(norms.tolist(), present.tolist(), strict=True)
            ]
        self._steps += new_steps
        self._norms += new_norms
        if final or time.perf_counter() - self._summaries_at >= SUMMARIES_EVERY:
            self._summaries_at = time.perf_counter()  # histograms cost: not at every flush
            self._summaries = self._variable_summaries()
        # Binary float64 buffers for the numbers; -1 means "no gradient" (norms are >= 0).
        buffers = [
            np.asarray(new_steps, np.float64).tobytes(),
            np.where(present, norms, -1.0).tobytes(),
        ]
        content = {
            "type": "points",
            "layers": list(self._layers),
            "flags": dict(self._flags),
            "variables": self._summaries,
        }
        return content, buffers

    def _grads_by_row(self, pending):
        """``{row: ([step positions], [gradients])}``: each variable's gradients over the steps."""
        by_row = self._same_variables_each_step(pending)
        if by_row is None:
            by_row = {}
            for i, (_, pairs) in enumerate(pending):
                for grad, variable in pairs:
                    if grad is None:
                        continue
                    row = self._row_of.get(id(variable))
                    if row is None:
                        row = self._add(variable)
                    positions, grads = by_row.setdefault(row, ([], []))
                    positions.append(i)
                    grads.append(grad)
        for row, (_, grads) in by_row.items():
            self._latest[row] = grads[-1]  # the histograms show the latest gradient
        size = sum(grads[-1]._data.size for _, grads in by_row.values())
        self._max_pending = max(1, MAX_PENDING // max(1, size))
        return by_row

    def _same_variables_each_step(self, pending):
        """The usual case, fast: the same known variables in the same order, each with a
        gradient, every step (as an optimizer reports them). None when it is not that."""
        first = pending[0][1]
        rows = [self._row_of.get(id(variable)) for _, variable in first]
        width = len(first)
        if None in rows or any(len(pairs) != width for _, pairs in pending):
            return None
        # zip(*...) turns steps x variables into variables x steps in C; map/itemgetter keep
        # the checks in C too: this runs over every step of a flush.
        by_row, everywhere = {}, list(range(len(pending)))
        for row, (_, variable), column in zip(
            rows, first, zip(*(pairs for _, pairs in pending), strict=True), strict=True
        ):
            grads = list(map(_first, column))
            if set(map(id, map(_second, column))) != {id(variable)} or any(
                map(operator.is_, grads, itertools.repeat(None))
            ):
                return None
            by_row[row] = (everywhere, grads)
        return by_row

    def _update_flags(self, norms, present):
        for i, layer in enumerate(self._layers):
            seen = norms[present[:, i], i]
            if np.isnan(seen).any() or self._flags.get(layer) == "nan":
                self._flags[layer] = "nan"  # sticky: a NaN once means the run is broken
            elif seen.size:
                latest = seen[-1]
                self._flags[layer] = (
                    "exploding"
                    if latest > self.exploding
                    else "vanishing"
                    if latest < self.vanishing
                    else "ok"
                )

    def _variable_summaries(self):
        """Latest norm and a histogram of the latest gradient, per variable (one copy each)."""
        out = []
        for row, info in enumerate(self._rows):
            grad = self._latest.get(row)
            if grad is None:
                continue
            values = np.asarray(grad.numpy(), dtype=np.float64).reshape(-1)
            finite = values[np.isfinite(values)]
            counts, edges = np.histogram(finite, bins=BINS) if finite.size else ([], [0, 0])
            out.append(
                {
                    "name": info["name"],
                    "layer": info["layer"],
                    "norm": _json_norm(float(np.sqrt(np.sum(values * values)))),
                    "counts": [int(c) for c in counts],
                    "lo": float(edges[0]),
                    "hi": float(edges[-1]),
                }
            )
        return out

    def _history_state(self):
        keep = downsample_indices(len(self._steps))
        return {
            "layers": list(self._layers),
            "steps": [self._steps[i] for i in keep],
            "norms": [self._norms[i] for i in keep],
            "flags": dict(self._flags),
            "variables": self._summaries,
        }

    # --- display -----------------------------------------------------------------------
    def __repr__(self):
        return f"GradientFlow(vanishing={self.vanishing!r}, exploding={self.exploding!r})"

    def snapshot_png(self):
        self.flush(final=True)
        return snapshot.flow_png(self.history)


def _named_variables(source):
    """``(name or None, variable)`` pairs from a model, a list or a dict of variables."""
    if source is None:
        return []
    if isinstance(source, dict):
        return list(source.items())
    if hasattr(source, "trainable_variables"):
        source = source.trainable_variables
    return [(None, v) for v in source]


def _json_norm(value):
    # JSON has no NaN or infinity: the front end reads these strings and paints them red.
    if value is None or math.isfinite(value):
        return value
    return "nan" if math.isnan(value) else "inf"
