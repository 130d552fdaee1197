"""Losses and metrics a layer adds while it runs: ``self.add_loss`` / ``self.add_metric``.

Some losses need no targets (an activity penalty on a hidden layer); Keras lets a layer's
``call`` add them, and ``fit`` adds them to the compiled loss. A layer keeps what it added
during the latest forward pass: an outermost call (a model's, or a layer's called on its
own) starts the lists afresh for every layer inside (``Layer.__call__`` calls ``clear``;
calls inside it add to them), so ``layer.losses`` and ``model.losses`` hold the losses of
the latest forward pass, as in TF. A failed pass puts back what the last one added.

Regularizers add to the same list (ek.keras.regularizers): a weight's penalty is computed
afresh from its current value each time ``losses`` is read (``add_weight(regularizer=...)``),
and an ``activity_regularizer``'s penalty on a layer's output, divided by the batch size,
is added on each call, as TF does.

Examples
--------
>>> import eagerkit as ek
>>> class Penalized(ek.keras.layers.Layer):
...     def call(self, inputs):
...         self.add_loss(0.1 * ek.reduce_sum(inputs))
...         return inputs
>>> model = ek.keras.Sequential([Penalized()])
>>> _ = model(ek.ones([2, 3]))
>>> model.losses
[<ek.Tensor: shape=(), dtype=float32, numpy=0.6>]
"""

import contextlib

from eagerkit import dtypes, nest
from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError, UnimplementedError
from eagerkit.keras.keras_tensor import KerasTensor
from eagerkit.keras.layers.layer_tree import modules_within
from eagerkit.tensor import Tensor, convert_to_tensor

# Until some layer adds a loss or metric, nothing is looked for: a model call skips clearing,
# and fit's steps skip the walk through the model's layers for what they added (each walk
# costs about a tenth of a small model's training step); the answer is the same, empty.
_ANY_ADDED = [False]


class AddedLossesAndMetrics:
    """``add_loss``, ``losses``, ``add_metric`` (a base class of ``Layer``)."""

    def add_loss(self, losses, inputs=None):
        """Add a scalar loss (or a list of them, or a zero-argument callable giving one)
        to what ``fit`` minimizes, for the current forward pass."""
        for loss in losses if isinstance(losses, (list, tuple)) else [losses]:
            if isinstance(loss, KerasTensor):
                raise UnimplementedError(
                    f"{type(self).__name__}.add_loss: a loss computed from a functional "
                    "model's symbolic tensors is not supported; add it inside a layer's "
                    "call() instead (self.add_loss(...) there runs on real values)",
                    op="add_loss",
                )
            if loss is None:
                continue
            if not callable(loss):
                loss = _as_loss_tensor(self, loss)
            _ANY_ADDED[0] = True
            vars(self).setdefault("_added_losses", []).append(loss)

    @property
    def losses(self):
        """The losses this layer and the layers inside it added in the latest forward pass
        (zero-argument callables are called now)."""
        found = []
        if not _ANY_ADDED[0]:
            return found
        for layer in modules_within(self):
            state = vars(layer)
            for loss in state.get("_added_losses", ()):
                found.append(loss() if callable(loss) else loss)
            if "_weight_penalties" in state:
                found.extend(state["_weight_penalties"].values())
        return found

    def add_metric(self, value, name=None, aggregation=None):
        """Log ``value`` under ``name`` during ``fit``/``evaluate`` (averaged per epoch)."""
        if isinstance(value, KerasTensor):
            raise UnimplementedError(
                f"{type(self).__name__}.add_metric: a metric of a functional model's symbolic "
                "tensors is not supported; add it inside a layer's call() instead",
                op="add_metric",
            )
        if not isinstance(name, str) or not name:
            raise InvalidArgumentError(
                "Please provide a name for your metric like "
                "`self.add_metric(tf.reduce_sum(inputs), name='mean_activation')`",
                op="add_metric",
            )
        if aggregation not in (None, "mean"):
            raise InvalidArgumentError(
                f"add_metric: aggregation={aggregation!r} is not supported; use 'mean' (the "
                "value is averaged over the batches of each epoch)",
                op="add_metric",
            )
        _ANY_ADDED[0] = True
        vars(self).setdefault("_added_metrics", []).append((name, value))

    def _added_metrics_now(self):
        """``[(name, value)]`` this layer and those inside it logged in the latest pass."""
        if not _ANY_ADDED[0]:
            return []
        return [
            pair for layer in modules_within(self) for pair in vars(layer).get("_added_metrics", ())
        ]


def _as_loss_tensor(layer, loss):
    """A loss as a tensor (a number becomes a float32 one, as TF converts it); what holds no
    numbers is refused here, where it was added, not later in ``fit``."""
    try:
        tensor = loss if isinstance(loss, Tensor) else convert_to_tensor(loss, dtypes.float32)
    except (InvalidArgumentError, TypeError):
        tensor = None
    if tensor is None or tensor.dtype.is_string:
        raise InvalidArgumentError(
            f"{type(layer).__name__}.add_loss: a loss must be a tensor of numbers (or a "
            f"number, or a zero-argument callable giving one), got {describe(loss)}; add "
            "e.g. self.add_loss(0.01 * ek.reduce_mean(inputs)) in call()",
            op="add_loss",
        )
    return tensor


class WeightPenalties:
    """The ``(regularizer, variable)`` pairs of a layer's regularized weights; checkpoints do
    not look inside (the variables are saved where the layer keeps them)."""

    def __init__(self, pairs):
        self.pairs = pairs

    def values(self):
        """Each penalty on the variable's current value (TF skips a regularizer's None)."""
        found = []
        for regularizer, variable in self.pairs:
            penalty = regularizer(variable)
            if penalty is not None:
                found.append(convert_to_tensor(penalty))
        return found

    def _checkpoint_dependencies(self):
        return []


def add_weight_penalty(layer, regularizer, variable):
    """From now on ``layer.losses`` holds ``regularizer(variable)``, computed when read."""
    _ANY_ADDED[0] = True
    held = vars(layer).get("_weight_penalties")
    # A new holder, not an append: a failed first call puts the old attribute back.
    pairs = (*(held.pairs if held else ()), (regularizer, variable))
    vars(layer)["_weight_penalties"] = WeightPenalties(pairs)


def add_activity_penalty(layer, outputs):
    """Add ``activity_regularizer(output) / batch size`` for each output, as TF does."""
    for output in nest.flatten(outputs):
        if isinstance(output, Tensor):
            penalty = convert_to_tensor(layer.activity_regularizer(output))
            batch = output.shape[0] if output.ndim else 1
            layer.add_loss(penalty / batch)


@contextlib.contextmanager
def taken_back(layer):
    """What ``layer`` and the layers inside it add in the block is taken back: a functional
    model runs each layer on stand-in values to learn its output shapes, no forward pass."""
    before = [  # (copies: add_loss and add_metric append to the lists in place)
        (
            inner,
            list(vars(inner).get("_added_losses", ())),
            list(vars(inner).get("_added_metrics", ())),
        )
        for inner in modules_within(layer)
    ]
    try:
        yield
    finally:
        for inner, losses, metrics in before:
            state = vars(inner)
            state.pop("_added_losses", None)
            state.pop("_added_metrics", None)
            if losses:
                state["_added_losses"] = losses
            if metrics:
                state["_added_metrics"] = metrics


def clear(layer):
    """Forget what ``layer`` and the layers inside it added (a new forward pass starts);
    returns what each held, for ``put_back`` should the pass fail."""
    if not _ANY_ADDED[0]:
        return []
    forgotten = []
    for inner in modules_within(layer):
        state = vars(inner)
        forgotten.append(
            (inner, state.pop("_added_losses", None), state.pop("_added_metrics", None))
        )
    return forgotten


def put_back(layer, forgotten):
    """Undo a failed forward pass: each layer holds again what ``clear`` took from it, and
    nothing the failed pass added."""
    if not _ANY_ADDED[0]:
        return
    held = {id(inner): (losses, metrics) for inner, losses, metrics in forgotten}
    for inner in modules_within(layer):
        state = vars(inner)
        state.pop("_added_losses", None)
        state.pop("_added_metrics", None)
        losses, metrics = held.get(id(inner), (None, None))
        if losses is not None:
            state["_added_losses"] = losses
        if metrics is not None:
            state["_added_metrics"] = metrics
