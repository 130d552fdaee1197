"""Lambda: a Python function as a layer of a model, as ``tf.keras.layers.Lambda``.

``Lambda(lambda x: x ** 2)`` puts a computation that needs no weights into a Sequential
model. ``arguments`` are passed to the function as keywords at every call; a function whose
parameters include ``training`` gets the call's, one whose parameters include ``mask`` the
mask of its inputs (keras/layers/masks.py). ``mask=`` gives the output's mask: a function
``mask(inputs, input_mask)``, or a fixed mask; without it the layer drops the mask of its
inputs (``supports_masking`` is False), as Keras 3's Lambda does. A saved model must name
its functions: Keras 3 stores a lambda's bytecode and refuses to load it unless told the
file is trusted (``safe_mode``); eagerkit refuses to write it at all, and names the fix (a
``def``'d function, registered or given to ``load_model`` in ``custom_objects=``).
"""

import inspect

from eagerkit import dtypes, recording
from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError, UnimplementedError
from eagerkit.keras import serialization
from eagerkit.keras.layers.base import Layer
from eagerkit.keras.layers.op_lambda import public_op
from eagerkit.ops.compare import not_equal
from eagerkit.ops.creation import ones
from eagerkit.tensor import Tensor, convert_to_tensor


class Lambda(Layer):
    """``function(inputs, **arguments)`` as a layer (it has no weights).

    ``output_shape`` (without the batch axis, or a function of the input shape) is what
    ``compute_output_shape`` answers; without it the function is run on ones to see.

    Examples
    --------
    >>> import eagerkit as ek
    >>> square = ek.keras.layers.Lambda(lambda x: x**2)
    >>> square(ek.constant([[1.0, 3.0]]))
    <ek.Tensor: shape=(1, 2), dtype=float32, numpy=array([[1., 9.]], dtype=float32)>
    >>> scale = ek.keras.layers.Lambda(ek.multiply, arguments={"y": 10.0})
    >>> scale(ek.constant([[0.5]])).numpy().tolist()
    [[5.0]]
    """

    # How to keep a mask through a Lambda, for the warning it gives when it drops one.
    _mask_fix = ", or give Lambda mask= (e.g. mask=lambda inputs, mask: mask) to pass it on"

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        if not callable(function):
            raise InvalidArgumentError(
                f"Lambda: function must be callable, got {describe(function)}; pass a function "
                "of the inputs, e.g. Lambda(lambda x: x * 2)",
                op="Lambda",
            )
        if arguments is not None and not (
            isinstance(arguments, dict) and all(isinstance(k, str) for k in arguments)
        ):
            raise InvalidArgumentError(
                f"Lambda: arguments must be a dict of keyword arguments for the function, got "
                f"{describe(arguments)}; pass e.g. arguments={{'axis': 1}}",
                op="Lambda",
            )
        mask = _checked_mask(mask)
        super().__init__(**kwargs)
        self.function = function
        self.arguments = dict(arguments or {})
        self._output_shape = _checked_output_shape(output_shape)
        self._takes_training = _has_parameter(function, "training")
        self._takes_mask = _has_parameter(function, "mask")
        self.mask = mask
        self.supports_masking = mask is not None  # Keras 3: only a Lambda given mask= has one

    def call(self, inputs, mask=None, training=None):
        kwargs = dict(self.arguments)
        if self._takes_training:
            kwargs["training"] = training
        if self._takes_mask:
            kwargs["mask"] = mask
        return self.function(inputs, **kwargs)

    def compute_mask(self, inputs, mask=None):
        """The output's mask: ``self.mask(inputs, mask)`` for a function, else ``self.mask``."""
        return self.mask(inputs, mask) if callable(self.mask) else self.mask

    def compute_output_shape(self, input_shape):
        """The output's shape for inputs of ``input_shape`` (the batch axis included).

        Examples
        --------
        >>> import eagerkit as ek
        >>> ek.keras.layers.Lambda(lambda x: x[:, :2], output_shape=(2,)).compute_output_shape(
        ...     (None, 5)
        ... )
        (None, 2)
        """
        shape = tuple(input_shape)
        if callable(self._output_shape):
            return tuple(self._output_shape(shape))
        if self._output_shape is not None:
            return (shape[0], *self._output_shape) if shape else tuple(self._output_shape)
        stand_in = ones([1 if size is None else size for size in shape], dtype=self.dtype)
        with recording.paused():  # no output_shape: see what the function makes of ones
            found = list(self(stand_in).shape)
        if shape and shape[0] is None and found:
            found[0] = None  # the batch size stays unknown
        return tuple(found)

    def get_config(self):
        """The common fields, the function's name, ``output_shape`` and ``arguments``.

        A Python lambda has no name a file could hold: its config is refused (Keras 3 writes
        its bytecode, and will not load it in safe mode).
        """
        config = {**super().get_config(), "function": self._named(self.function, "function")}
        if self._output_shape is not None:
            shape = self._output_shape
            config["output_shape"] = (
                self._named(shape, "output_shape") if callable(shape) else list(shape)
            )
        if self.mask is not None:  # a function by its name, a fixed mask as its values
            mask = self.mask
            config["mask"] = self._named(mask, "mask") if callable(mask) else mask.numpy().tolist()
        try:
            config["arguments"] = {
                key: serialization.serialize_keras_object(value)
                for key, value in self.arguments.items()
            }
        except InvalidArgumentError as error:
            raise UnimplementedError(
                f"Lambda layer '{self.name}': its arguments cannot be written into a config: "
                f"{error}. Pass numbers, strings or named functions as arguments, or write a "
                "Layer subclass with get_config()",
                op="get_config",
            ) from None
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """The layer ``config`` describes; its function is looked up by name (registered,
        given in ``custom_objects``, an eagerkit activation or public function)."""
        if isinstance(config, dict):  # (anything else: the base class's error)
            config = dict(config)
            config["function"] = _function(config.get("function"), "function", custom_objects)
            if isinstance(config.get("output_shape"), (str, dict)):
                shape = config["output_shape"]
                config["output_shape"] = _function(shape, "output_shape", custom_objects)
            if isinstance(config.get("mask"), (str, dict)):
                config["mask"] = _function(config["mask"], "mask", custom_objects)
        return super().from_config(config)

    def _named(self, function, what):
        if getattr(function, "__name__", None) == "<lambda>":
            raise UnimplementedError(
                f"Lambda layer '{self.name}': its {what} is a Python lambda, which a saved "
                "model cannot name (Keras 3 saves its bytecode and refuses to load it in "
                "safe_mode). Define it with def, register it with "
                "@ek.keras.saving.register_keras_serializable(), and pass that function "
                "(or give it to load_model in custom_objects=)",
                op="get_config",
            )
        try:
            return serialization.serialize_keras_object(function)
        except InvalidArgumentError as error:
            raise UnimplementedError(
                f"Lambda layer '{self.name}': its {what} cannot be written into a config: {error}",
                op="get_config",
            ) from None


def _function(config, what, custom_objects):
    """The function a Lambda config names; a Keras file's lambda bytecode is refused."""
    from eagerkit.keras import builtin_objects

    if isinstance(config, dict) and config.get("class_name") == "__lambda__":
        raise UnimplementedError(
            f"Lambda.from_config: the {what} was saved as a Python lambda's bytecode (by "
            "Keras), which eagerkit does not run; define the function with def and pass it "
            "in custom_objects={'name': function}, naming it in the config",
            op="from_config",
        )
    if isinstance(config, dict) and config.get("class_name") == "function":
        config = config.get("registered_name") or config.get("config")  # Keras 3's spelling
    if not isinstance(config, str):  # e.g. Keras 2's marshalled bytecode: never run
        raise InvalidArgumentError(
            f"Lambda.from_config: the {what} must be a name (of a registered function, one "
            f"in custom_objects=, or an eagerkit activation), got {describe(config):.100}; "
            "eagerkit runs no code stored in a config: pass the config Lambda.get_config() "
            "wrote",
            op="from_config",
        )
    known = dict(builtin_objects.activations())
    try:  # an eagerkit function by its public name (ek.square), as TFOpLambda finds them
        known.setdefault(config, public_op(config))
    except InvalidArgumentError:
        pass  # none: the user's registered or custom_objects functions are looked up
    return serialization.deserialize_keras_object(
        config, known, custom_objects, printable_module_name="function"
    )


def _checked_output_shape(output_shape):
    """``output_shape``: None, a function, or the sizes after the batch axis (as a tuple)."""
    if output_shape is None or callable(output_shape):
        return output_shape
    sizes = list(output_shape) if isinstance(output_shape, (list, tuple)) else None
    if sizes is None or not all(
        size is None or (isinstance(size, int) and not isinstance(size, bool) and size >= 0)
        for size in sizes
    ):
        raise InvalidArgumentError(
            f"Lambda: output_shape must be the output's sizes without the batch axis (ints or "
            f"None), or a function of the input shape, got {describe(output_shape)}; pass "
            "e.g. output_shape=(10,)",
            op="Lambda",
        )
    return tuple(sizes)


def _checked_mask(mask):
    """``mask``: None, a function, or a fixed mask (as a bool tensor)."""
    if mask is None or callable(mask):
        return mask
    try:
        values = mask if isinstance(mask, Tensor) else convert_to_tensor(mask)
    except (TypeError, ValueError):  # ragged lists, objects: no tensor
        values = None
    if values is None or not (
        values.dtype == dtypes.bool or values.dtype.is_integer or values.dtype.is_floating
    ):
        raise InvalidArgumentError(
            f"Lambda: mask must be a function mask(inputs, input_mask) or a fixed mask of "
            f"True/False (or 1/0), got {describe(mask)}; pass e.g. "
            "mask=lambda inputs, mask: mask",
            op="Lambda",
        )
    return values if values.dtype == dtypes.bool else not_equal(values, 0)


def _has_parameter(function, name):
    """Whether ``function`` takes a parameter ``name`` (False where Python cannot tell)."""
    try:
        return name in inspect.signature(function).parameters
    except (TypeError, ValueError):  # some built-ins have no signature
        return False
