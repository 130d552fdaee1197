"""What ``compile`` turns its arguments into: an optimizer, the loss, the metrics.

Names are Keras' (``"adam"``, ``"sparse_categorical_crossentropy"``, ``"mse"``,
``"accuracy"``), objects are used as they are, plain functions are wrapped. A model with
several outputs gets a loss (and metrics) per output: one for all, a list in output
order, or a dict by output name. ``"accuracy"`` means the accuracy that fits the targets
and predictions, decided on the first batch, as Keras does: binary for one output unit,
sparse categorical for class ids, categorical for one-hot targets.

Examples
--------
>>> import eagerkit as ek
>>> from eagerkit.keras import compile_utils
>>> compile_utils.get_optimizer("adam")
<ek.keras.optimizers.Adam learning_rate=0.001>
>>> compile_utils.get_loss("mse")
<ek.keras.losses.LossFunctionWrapper 'mean_squared_error'>
"""

import inspect

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import builtin_objects, losses, metrics
from eagerkit.keras.metric_inputs import same_rank
from eagerkit.keras.serialization import deserialize_keras_object, lookup
from eagerkit.keras.tf1_metrics import Metric as AnyMetric
from eagerkit.tensor import Tensor, convert_to_tensor
from eagerkit.train.optimizer import Optimizer


def get_optimizer(identifier):
    """An optimizer from a name (any case), a config dict, or an optimizer object."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str):
        table = builtin_objects.optimizers()
        return lookup(
            identifier.lower() if identifier.lower() in table else identifier,
            "optimizer",
            module_objects=table,
        )()
    if isinstance(identifier, dict):
        return deserialize_keras_object(identifier, builtin_objects.optimizers(), None, "optimizer")
    raise InvalidArgumentError(
        f"Could not interpret optimizer identifier: {identifier!r:.100}; give a name such as "
        "'adam' or 'sgd', or an optimizer object such as ek.keras.optimizers.Adam(1e-3)",
        op="compile",
    )


def get_loss(identifier):
    """A loss object from a name, a function ``f(y_true, y_pred)`` or a loss object."""
    if identifier is None or isinstance(identifier, losses.Loss):
        return identifier
    if isinstance(identifier, str):
        identifier = lookup(identifier, "loss function", module_objects=builtin_objects.losses())
    if isinstance(identifier, dict):
        return deserialize_keras_object(identifier, builtin_objects.losses(), None, "loss")
    if inspect.isclass(identifier) and issubclass(identifier, losses.Loss):
        return identifier()
    if callable(identifier) and not inspect.isclass(identifier):
        return losses.LossFunctionWrapper(identifier)
    raise InvalidArgumentError(
        f"Could not interpret loss function identifier: {identifier!r:.100}; give a name "
        "such as 'mse', a function loss(y_true, y_pred) or a ek.keras.losses.Loss",
        op="compile",
    )


_ACCURACIES = ("accuracy", "acc")
_CROSSENTROPIES = ("crossentropy", "ce")
MATCHED_NAMES = _ACCURACIES + _CROSSENTROPIES  # resolved on the first batch


def lookup_metric(name):
    """The metric class or function called ``name`` (Keras' "Unknown metric" otherwise)."""
    return lookup(name, "metric function", module_objects=builtin_objects.metrics())


def get_metric(identifier, y_true, y_pred, loss):
    """A metric object for ``identifier``; ``y_true``/``y_pred`` (one batch) and the loss
    decide what ``"accuracy"`` and ``"crossentropy"`` mean."""
    if isinstance(identifier, AnyMetric):
        return identifier
    if isinstance(identifier, dict):
        return deserialize_keras_object(identifier, builtin_objects.metrics(), None, "metric")
    name = identifier if isinstance(identifier, str) else getattr(identifier, "__name__", None)
    if isinstance(identifier, str) and identifier in MATCHED_NAMES:
        identifier = _matching(identifier, y_true, y_pred, loss)
    elif isinstance(identifier, str):
        identifier = lookup_metric(identifier)
    if inspect.isclass(identifier) and issubclass(identifier, AnyMetric):
        return identifier()
    if callable(identifier) and not inspect.isclass(identifier):
        return metrics.MeanMetricWrapper(identifier, name=name)
    raise InvalidArgumentError(
        f"Could not interpret metric identifier: {identifier!r:.100}; give a name such as "
        "'accuracy' or 'mae', a function metric(y_true, y_pred) or a ek.keras.metrics.Metric",
        op="compile",
    )


def _matching(word, y_true, y_pred, loss):
    """Keras' choice of accuracy (or cross-entropy) for these targets and predictions."""
    true_shape, pred_shape = tuple(y_true.shape), tuple(y_pred.shape)
    binary = pred_shape[-1:] == (1,) or _loss_function(loss) in (
        losses.binary_crossentropy,
        _unwrapped(losses.binary_crossentropy),
    )
    sparse = len(true_shape) < len(pred_shape) or (
        true_shape[-1:] == (1,) and pred_shape[-1:] != (1,)
    )
    if word in _ACCURACIES:
        if binary:
            return metrics.binary_accuracy
        return metrics.sparse_categorical_accuracy if sparse else metrics.categorical_accuracy
    if binary:
        return losses.binary_crossentropy
    return losses.sparse_categorical_crossentropy if sparse else losses.categorical_crossentropy


def _loss_function(loss):
    return _unwrapped(getattr(loss, "fn", None))


def _unwrapped(function):
    return getattr(function, "__wrapped__", function)


def aligned(y_true, y_pred):
    """Targets and outputs brought to one rank as Keras' losses and metrics bring them
    (``metric_inputs.same_rank``: labels of shape (batch,) against outputs (batch, 1))."""
    if not isinstance(y_true, Tensor):
        y_true = convert_to_tensor(y_true)
    return same_rank(y_true, y_pred, "fit")


def per_output(spec, output_names, what):
    """``spec`` (one value for every output, a list in output order, or a dict by output
    name) as one value per output, ``None`` where an output has none."""
    count = len(output_names)
    if isinstance(spec, dict):
        unknown = sorted(set(spec) - set(output_names))
        if unknown:
            raise InvalidArgumentError(
                f"compile: unknown entries in the {what} dict: {unknown}. Only expected the "
                f"following keys: {list(output_names)}",
                op="compile",
            )
        return [spec.get(name) for name in output_names]
    if isinstance(spec, (list, tuple)) and count > 1:
        if len(spec) != count:
            raise InvalidArgumentError(
                f"compile: when passing a list as {what}, it should have one entry per model "
                f"output. The model has {count} outputs ({', '.join(output_names)}), but you "
                f"passed {what}={spec!r:.200}",
                op="compile",
            )
        return list(spec)
    return [spec] * count
