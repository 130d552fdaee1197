"""Activation functions: ``ek.keras.activations.relu(x)`` and the rest, as TF's
``tf.keras.activations`` has them, and ``get`` for the ``activation=`` argument of layers.

Each function is the ``ek.nn`` op of that name, or a composition of ops, so gradients
come from its parts. ``relu``'s options (a slope, a cap, a threshold) and ``elu``'s alpha
are computed here once, for these functions and for the ``ReLU`` and ``ELU`` layers.

Examples
--------
>>> import eagerkit as ek
>>> ek.keras.activations.relu([-1.0, 2.0, 8.0], max_value=6.0)
<ek.Tensor: shape=(3,), dtype=float32, numpy=array([0., 2., 6.], dtype=float32)>
>>> from eagerkit.keras.layers.activations import get
>>> get("relu")([-1.0, 2.0])
<ek.Tensor: shape=(2,), dtype=float32, numpy=array([0., 2.], dtype=float32)>
>>> get(None) is None
True
"""

from eagerkit import nn
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.layers.layer_arguments import real_number
from eagerkit.ops.arithmetic import maximum, minimum
from eagerkit.ops.compare import where
from eagerkit.ops.creation import zeros_like
from eagerkit.ops.math import exp
from eagerkit.tensor import convert_to_tensor


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0, alpha=None):
    """``max(x, 0)``; with options, ``max_value`` from ``max_value`` up, ``x`` above
    ``threshold``, ``negative_slope * (x - threshold)`` below it (Keras 2 named the slope
    ``alpha``: both work).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.activations.relu([-2.0, 1.0, 9.0], negative_slope=0.5, max_value=6.0)
    <ek.Tensor: shape=(3,), dtype=float32, numpy=array([-1.,  1.,  6.], dtype=float32)>
    """
    if alpha is not None:
        if negative_slope != 0.0:
            raise InvalidArgumentError(
                "relu: got both negative_slope and alpha, two names for the same slope; "
                "pass one of them, e.g. relu(x, negative_slope=0.1)",
                op="relu",
            )
        negative_slope = alpha
    negative_slope = real_number(negative_slope, "negative_slope", "relu", minimum=0.0)
    threshold = real_number(threshold, "threshold", "relu", minimum=0.0)
    if max_value is not None:
        max_value = real_number(max_value, "max_value", "relu", minimum=0.0, example=6.0)
    return relu_with_options(convert_to_tensor(x), negative_slope, max_value, threshold)


def relu_with_options(x, negative_slope, max_value, threshold):
    """``relu``'s value for options already checked (the ``ReLU`` layer's too)."""
    if x.dtype.is_integer:
        return _integer_relu(x, negative_slope, max_value, threshold)
    if threshold == 0:
        outputs = nn.relu(x)
    else:  # x above the threshold, else 0; nan stays nan, as relu's does
        outputs = where(x <= threshold, zeros_like(x), x)
    if max_value is not None:
        outputs = minimum(outputs, max_value)
    if negative_slope != 0:  # below the threshold: slope * (x - threshold)
        outputs = outputs + minimum(x - threshold, 0.0) * negative_slope
    return outputs


def _integer_relu(x, negative_slope, max_value, threshold):
    """TF's relu of integers (``tf.nn.relu`` has integer kernels): ``max(x, 0)`` in the
    input's dtype, capped at a whole ``max_value``. A slope or a threshold would make
    fractions, which TF refuses for integers too."""
    fractional_cap = max_value is not None and max_value != int(max_value)
    if negative_slope != 0 or threshold != 0 or fractional_cap:
        raise InvalidArgumentError(
            f"relu: integer inputs ({x.dtype.name}) take only a whole max_value; got "
            f"negative_slope={negative_slope}, max_value={max_value}, threshold={threshold}. "
            "Cast the inputs to floats first, e.g. ek.cast(x, ek.float32)",
            op="relu",
        )
    outputs = maximum(x, 0)  # a Python 0 takes the input's integer dtype
    return outputs if max_value is None else minimum(outputs, int(max_value))


def elu(x, alpha=1.0):
    """``x`` where ``x > 0``, else ``alpha * (exp(x) - 1)``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.activations.elu([-1.0, 2.0], alpha=2.0).numpy().round(4)
    array([-1.2642,  2.    ], dtype=float32)
    """
    alpha = real_number(alpha, "alpha", "elu", example=1.0)
    return elu_with_alpha(convert_to_tensor(x), alpha)


def elu_with_alpha(x, alpha):
    """``elu``'s value for an alpha already checked (the ``ELU`` layer's too)."""
    outputs = nn.elu(x)  # exp(x) - 1 below 0
    return outputs if alpha == 1 else where(x > 0, outputs, outputs * alpha)


def softmax(x, axis=-1):
    """``exp(x) / sum(exp(x))`` along ``axis`` (the last, as in Keras)."""
    return nn.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    """``log(softmax(x))`` along ``axis``, computed without overflow."""
    return nn.log_softmax(x, axis=axis)


def leaky_relu(x, negative_slope=0.2):
    """``x`` where ``x >= 0``, else ``negative_slope * x``."""
    negative_slope = real_number(negative_slope, "negative_slope", "leaky_relu", 0.0)
    return nn.leaky_relu(x, alpha=negative_slope)


def gelu(x, approximate=False):
    """The Gaussian error linear unit, exact or (``approximate=True``) by tanh."""
    return nn.gelu(x, approximate=approximate)


def exponential(x):
    """``exp(x)``."""
    return exp(x)


def linear(x):
    """``x`` itself: what a layer without an activation applies."""
    return convert_to_tensor(x)


def sigmoid(x):
    """``1 / (1 + exp(-x))``."""
    return nn.sigmoid(x)


def tanh(x):
    """The hyperbolic tangent."""
    return nn.tanh(x)


def softplus(x):
    """``log(1 + exp(x))`` without overflow."""
    return nn.softplus(x)


def softsign(x):
    """``x / (1 + |x|)``."""
    return nn.softsign(x)


def selu(x):
    """The scaled exponential linear unit (self-normalizing networks)."""
    return nn.selu(x)


def silu(x):
    """``x * sigmoid(x)`` (also called swish)."""
    return nn.silu(x)


def relu6(x):
    """``min(max(x, 0), 6)``."""
    return nn.relu6(x)


def swish(x):
    """``x * sigmoid(x)``: silu's other name."""
    return nn.silu(x)


def hard_sigmoid(x):
    """Keras 3's piecewise-linear sigmoid: 0 below -3, 1 above 3, ``x / 6 + 0.5`` between
    (``relu6(x + 3) / 6``); its gradient is 1/6 between -3 and 3, 0 outside.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.activations.hard_sigmoid([-4.0, -1.5, 0.0, 3.0]).numpy().tolist()
    [0.0, 0.25, 0.5, 1.0]
    """
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise InvalidArgumentError(
            f"hard_sigmoid: x must be floats, got {x.dtype.name}; cast it first "
            "(ek.cast(x, ek.float32))",
            op="hard_sigmoid",
        )
    return nn.relu6(x + 3.0) / 6.0


# Activations written here rather than in ek.nn, by the names layers accept (looked up in
# this module when asked for: the public function is the one the error boundary wraps).
_OWN = ("hard_sigmoid", "exponential")

# The names Keras knows, each the function of the same name in ek.nn.
_NAMES = (
    "relu",
    "tanh",
    "sigmoid",
    "softmax",
    "log_softmax",
    "softplus",
    "softsign",
    "elu",
    "selu",
    "leaky_relu",
    "gelu",
    "silu",
    "swish",
    "relu6",
)


def get(activation):
    """A callable for ``activation`` (a name, a callable, or None / 'linear' for none).

    Examples
    --------
    >>> import eagerkit as ek
    >>> from eagerkit.keras.layers.activations import get
    >>> get("tanh") is ek.nn.tanh, get("linear")
    (True, None)
    """
    if activation is None or activation == "linear":
        return None
    if isinstance(activation, str):
        if activation in _NAMES:
            return getattr(nn, activation)  # ek.nn: its functions are inside the boundary
        if activation in _OWN:
            return globals()[activation]
        from eagerkit.keras.serialization import get_registered_object

        found = get_registered_object(activation)
        if found is not None:  # a custom one a saved model names
            return found
        raise ValueError(
            f"unknown activation {activation!r}; use one of {sorted([*_NAMES, *_OWN])}, "
            "'linear', None or any callable (a custom one by name once registered with "
            "ek.keras.saving.register_keras_serializable)"
        )
    if callable(activation):
        return activation
    raise TypeError(f"activation must be a name or a callable, got {activation!r}")


# What this namespace exports (to ``import *`` and to the error boundary, namespaces.py);
# the helpers it imports or keeps for itself stay out.
# serialize and deserialize, a function's name in a config and back (activation_configs.py).
from eagerkit.keras.activation_configs import deserialize, serialize  # noqa: E402

__all__ = [
    "get",
    "serialize",
    "deserialize",
    "hard_sigmoid",
    "relu",
    "elu",
    "softmax",
    "log_softmax",
    "leaky_relu",
    "gelu",
    "exponential",
    "linear",
    "sigmoid",
    "tanh",
    "softplus",
    "softsign",
    "selu",
    "silu",
    "swish",
    "relu6",
]
