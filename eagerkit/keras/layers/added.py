"""Losses and metrics a layer adds while it runs: ``self.add_loss`` / ``self.add_metric``.

Some losses need no targets (an activity penalty on a hidden layer); Keras lets a layer's
``call`` add them, and ``fit`` adds them to the compiled loss. A layer keeps what it added
during the last call of the model around it: calling a model starts the list afresh for
every layer inside (``Model.__call__`` calls ``clear``), so ``model.losses`` holds the
losses of the latest forward pass, as in Keras.

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

from eagerkit.errors import InvalidArgumentError, UnimplementedError
from eagerkit.keras.keras_tensor import KerasTensor

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
            _ANY_ADDED[0] = True
            vars(self).setdefault("_added_losses", []).append(loss)

    @property
    def losses(self):
        """The losses this layer and the layers inside it added in the latest forward pass
        (zero-argument callables are called now)."""
        found = []
        if not _ANY_ADDED[0]:
            return found
        for layer in _layers_within(self):
            for loss in vars(layer).get("_added_losses", ()):
                found.append(loss() if callable(loss) else loss)
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
            pair for layer in _layers_within(self) for pair in vars(layer).get("_added_metrics", ())
        ]


def clear(layer):
    """Forget what ``layer`` and the layers inside it added (a new forward pass starts)."""
    if not _ANY_ADDED[0]:
        return
    for inner in _layers_within(layer):
        state = vars(inner)
        state.pop("_added_losses", None)
        state.pop("_added_metrics", None)


def _layers_within(layer):
    """``layer`` and every Module reachable through its attributes, each once."""
    from eagerkit.keras.layers.base import _attribute_values
    from eagerkit.module import Module

    found, seen, pending = [], {id(layer)}, [layer]
    while pending:
        current = pending.pop()
        found.append(current)
        for value in _attribute_values(current):
            if isinstance(value, Module) and id(value) not in seen:
                seen.add(id(value))
                pending.append(value)
    return found
