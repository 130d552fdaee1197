"""TFOpLambda: an op called on KerasTensors, kept in a functional model as a layer."""

import operator

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import symbolic
from eagerkit.keras.layers.base import Layer, unique_name

_OPERATORS = "__operators__."  # the label of a Python operator (x + y) on KerasTensors


class TFOpLambda(Layer):
    """An op called on KerasTensors, as a layer of the model (TF's ``TFOpLambda``).

    Its config names the op (``{"function": "concat"}``); loading finds it again among
    eagerkit's public functions, so a saved model holds no code.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.backend.clear_session()
    >>> y = ek.nn.relu(ek.keras.Input(shape=[3]))
    >>> y.node.layer
    <TFOpLambda 'ek.relu'>
    >>> y.node.layer.get_config()
    {'name': 'ek.relu', 'trainable': True, 'dtype': 'float32', 'function': 'relu'}
    """

    _autocast = False  # an op takes its inputs' dtypes as they are

    def __init__(self, function, label, name=None):
        super().__init__(name=name or unique_name(f"ek.{label}"))
        self.function = function
        self.label = label

    def __call__(self, *args, **kwargs):
        kwargs.pop("training", None)
        if symbolic.holds_symbolic(args, kwargs):
            return symbolic.record(self, args, kwargs)
        return self.function(*args, **kwargs)

    def get_config(self):
        resolved = public_op(self.label)
        if _unwrapped(resolved) is not _unwrapped(self.function) and not self.label.startswith(
            _OPERATORS
        ):
            raise InvalidArgumentError(
                f"cannot save the op '{self.label}' of layer '{self.name}': it is not one of "
                "eagerkit's public functions; wrap it in a registered custom layer",
                op="get_config",
            )
        return {**super().get_config(), "function": self.label}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        label = config.pop("function", None)
        return cls(public_op(label), label, name=config.get("name"))


def public_op(label):
    """The public function an op label names (``"concat"``, ``"__operators__.add"``)."""
    import eagerkit

    if isinstance(label, str) and label.startswith(_OPERATORS):
        found = getattr(operator, label[len(_OPERATORS) :], None)
    else:
        modules = [eagerkit, *(getattr(eagerkit, n, None) for n in ("nn", "math", "linalg"))]
        found = next(
            (getattr(m, label) for m in modules if isinstance(label, str) and hasattr(m, label)),
            None,
        )
    if not callable(found):
        raise InvalidArgumentError(
            f"unknown op {label!r} in a model config: it names none of eagerkit's public "
            "functions (the config is damaged, or comes from another library)",
            op="from_config",
        )
    return found


def _unwrapped(function):
    function = getattr(function, "__wrapped__", function)
    return getattr(function, "call", function)  # a primitive op's Python function
