"""A layer's config: the arguments it was made with, so a saved model can make it again.

Keras (2.13 and later) keeps the arguments a layer was constructed with and, unless the
class writes its own ``get_config``, gives them back as its config. The same here: every
layer remembers its constructor's arguments (``__new__`` sees them before ``__init__``
runs), and ``get_config`` returns them, named as ``__init__`` names them, after the fields
every layer has (``name``, ``trainable``, ``dtype``). Values must be JSON-able: numbers,
strings, lists, dicts, and functions or objects Keras can name (an activation, a
registered function); otherwise the class must write ``get_config``, as in Keras.

Examples
--------
>>> import eagerkit as ek
>>> layer = ek.keras.layers.Dense(3, activation="relu", name="hidden")
>>> config = layer.get_config()
>>> config["units"], config["activation"], config["name"]
(3, 'relu', 'hidden')
>>> clone = ek.keras.layers.Dense.from_config(config)
>>> clone.units, clone.name
(3, 'hidden')
"""

import inspect

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError, UnimplementedError, type_error


class ConstructorArguments:
    """The ``(args, kwargs)`` a layer was made with; checkpoints do not look inside."""

    def __init__(self, args, kwargs):
        self.args, self.kwargs = args, kwargs

    def _checkpoint_dependencies(self):
        return []  # the layers passed in are saved where the layer keeps them, not here


class LayerConfig:
    """``get_config`` / ``from_config`` for layers (a base class of ``Layer``)."""

    def __new__(cls, *args, **kwargs):
        layer = super().__new__(cls)
        vars(layer)["_constructor_arguments"] = ConstructorArguments(args, kwargs)
        return layer

    def get_config(self):
        """A JSON-able dict of the arguments that rebuild this layer (``from_config``).

        A subclass that writes its own ``get_config`` calls this one for the common fields
        (``name``, ``trainable``, ``dtype``) and adds its own arguments.
        """
        common = {"name": self.name, "trainable": self.trainable, "dtype": self.dtype.name}
        if self.input_spec_shape is not None:
            common["batch_input_shape"] = [None, *self.input_spec_shape]
        if _writes_its_own_config(type(self)):
            return common
        arguments = constructor_config(self)
        accepted = _accepted_keywords(type(self))
        common = {k: v for k, v in common.items() if accepted is None or k in accepted}
        return {**arguments, **common}

    @classmethod
    def from_config(cls, config):
        """The layer ``config`` describes: ``cls(**config)``."""
        if not isinstance(config, dict):  # (dict() of '' or [] would make a default layer)
            raise InvalidArgumentError(
                f"{cls.__name__}.from_config: config must be the dict get_config() returns, "
                f"got {describe(config)}; pass layer.get_config()",
                op="from_config",
            )
        config = dict(config)
        batch_shape = config.pop("batch_input_shape", None)
        if batch_shape is not None and "input_shape" not in config:
            config["input_shape"] = list(batch_shape)[1:]
        _check_takes(cls, config)
        return cls(**config)


def _check_takes(cls, config):
    """Keras 3's TypeError, said plainly, for a config ``cls.__init__`` cannot take: most
    often a ``get_config`` that starts from ``super().get_config()`` (name, trainable,
    dtype) in a layer whose ``__init__`` takes no ``**kwargs`` to pass them on."""
    try:
        inspect.signature(cls.__init__).bind(None, **config)  # None stands for self
    except TypeError as error:
        raise type_error(
            f"{cls.__name__}.from_config: error when deserializing class '{cls.__name__}' "
            f"using config={config}: {cls.__name__}.__init__ {error}. Let __init__ take "
            "**kwargs and pass them on (super().__init__(**kwargs) takes the name, trainable "
            "and dtype of the base config), or write a from_config classmethod",
            op="from_config",
        ) from None


def constructor_config(layer):
    """The arguments ``layer`` was made with, by parameter name, made JSON-able."""
    from eagerkit.keras.serialization import serialize_keras_object

    captured = vars(layer).get("_constructor_arguments")
    args, kwargs = (captured.args, captured.kwargs) if captured else ((), {})
    signature = inspect.signature(type(layer).__init__)
    bound = signature.bind(None, *args, **kwargs).arguments  # None stands for self
    config = {}
    for position, (name, value) in enumerate(bound.items()):
        kind = signature.parameters[name].kind
        if position == 0:
            continue  # self
        if kind is inspect.Parameter.VAR_POSITIONAL:
            if value:
                _refuse(layer, f"the extra positional arguments {value!r:.80}")
        elif kind is inspect.Parameter.VAR_KEYWORD:
            config.update(value)
        else:
            config[name] = value
    try:
        return {name: _plain(value, serialize_keras_object) for name, value in config.items()}
    except InvalidArgumentError as error:
        _refuse(layer, str(error))


def _plain(value, serialize):
    """``value`` as JSON-able data: containers opened, functions and objects named."""
    if isinstance(value, (list, tuple)):
        return [_plain(item, serialize) for item in value]
    if isinstance(value, dict) and all(isinstance(key, str) for key in value):
        return {key: _plain(item, serialize) for key, item in value.items()}
    if hasattr(value, "as_numpy_dtype"):  # an eagerkit dtype
        return value.name
    return serialize(value)


def _refuse(layer, what):
    name = type(layer).__name__
    raise UnimplementedError(
        f"Layer {name} was created by passing non-serializable argument values in "
        f"`__init__()` ({what}), and therefore the layer must override `get_config()` in "
        "order to be serializable. Please implement `get_config()`, e.g.\n"
        f"    def get_config(self):\n"
        f"        config = super().get_config()\n"
        f"        config.update({{'units': self.units}})  # each argument of {name}.__init__\n"
        f"        return config",
        op="get_config",
    )


def _writes_its_own_config(cls):
    """Whether ``cls`` (or a base class below Layer) defines ``get_config`` itself."""
    for owner in cls.__mro__:
        if owner is LayerConfig:
            return False
        if "get_config" in vars(owner):
            return True
    return False


def _accepted_keywords(cls):
    """The keyword names ``cls.__init__`` takes, or None when it takes ``**kwargs``."""
    parameters = inspect.signature(cls.__init__).parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return None
    return {p.name for p in parameters}
