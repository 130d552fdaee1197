"""ReLU, LeakyReLU, Softmax and ELU: TF's activation layers, each with its own arguments.

``Activation("relu")`` applies a function by name; these layers carry the function's
parameters (a ReLU capped at 6, a leaky slope, the softmax axis), as ``tf.keras.layers``
has them, so TF code such as ``Sequential([model, layers.Softmax()])`` runs unchanged.
They have no variables. Arguments are checked when the layer is made, before anything
else: a refused constructor takes no layer name and leaves nothing behind. ReLU's and
ELU's values are ``ek.keras.activations``' (activations.py), computed once for both.
"""

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.layers.activations import elu_with_alpha, relu_with_options
from eagerkit.keras.layers.base import Layer
from eagerkit.keras.layers.layer_arguments import distinct_axes, real_number
from eagerkit.ops.cast import cast
from eagerkit.ops.compare import where
from eagerkit.ops.nn import softmax
from eagerkit.tensor import convert_to_tensor


class ReLU(Layer):
    """TF's rectified linear unit, with an optional cap, slope and threshold.

    ``f(x) = max_value`` where ``x >= max_value``, ``x`` where ``threshold < x < max_value``,
    and ``negative_slope * (x - threshold)`` otherwise. The defaults give ``max(x, 0)``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.constant([-10.0, -5.0, 0.0, 5.0, 10.0])
    >>> ek.keras.layers.ReLU()(x).numpy().tolist()
    [0.0, 0.0, 0.0, 5.0, 10.0]
    >>> ek.keras.layers.ReLU(max_value=6.0, negative_slope=0.5)(x).numpy().tolist()
    [-5.0, -2.5, 0.0, 5.0, 6.0]
    """

    supports_masking = True  # passes the mask of its inputs on unchanged (Keras)

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        if max_value is not None:
            max_value = real_number(max_value, "max_value", "ReLU", minimum=0.0, example=6.0)
        negative_slope = real_number(negative_slope, "negative_slope", "ReLU", minimum=0.0)
        threshold = real_number(threshold, "threshold", "ReLU", minimum=0.0)
        super().__init__(**kwargs)
        self.max_value, self.negative_slope, self.threshold = max_value, negative_slope, threshold

    def call(self, inputs):
        return relu_with_options(inputs, self.negative_slope, self.max_value, self.threshold)


class LeakyReLU(Layer):
    """``x`` where ``x >= 0``, else ``negative_slope * x``.

    TF before 2.16 named the slope ``alpha`` (``LeakyReLU(alpha=0.1)``); both names work,
    and the config keeps ``negative_slope``, TF's name since.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.layers.LeakyReLU()([-3.0, -1.0, 0.0, 2.0]).numpy().round(4)
    array([-0.9, -0.3,  0. ,  2. ], dtype=float32)
    >>> ek.keras.layers.LeakyReLU(alpha=0.1).negative_slope
    0.1
    """

    supports_masking = True  # passes the mask of its inputs on unchanged (Keras)

    def __init__(self, negative_slope=0.3, alpha=None, **kwargs):
        if alpha is not None:
            if negative_slope != 0.3:
                raise InvalidArgumentError(
                    "LeakyReLU: got both negative_slope and alpha, two names for the same "
                    "slope; pass one of them, e.g. LeakyReLU(negative_slope=0.1)",
                    op="LeakyReLU",
                )
            negative_slope = alpha
        negative_slope = real_number(negative_slope, "negative_slope", "LeakyReLU", 0.0)
        super().__init__(**kwargs)
        self.negative_slope = negative_slope

    def call(self, inputs):
        return where(inputs >= 0, inputs, inputs * self.negative_slope)

    def get_config(self):
        return {**super().get_config(), "negative_slope": self.negative_slope}


class Softmax(Layer):
    """``exp(x) / sum(exp(x))`` along ``axis`` (an axis, or a list of them).

    ``mask`` (a call argument, as in TF: True or 1 keeps an entry, False or 0 drops it)
    adds a large negative number to the dropped logits, so they get (almost) no weight.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.layers.Softmax()([1.0, 2.0, 1.0]).numpy().round(4)
    array([0.2119, 0.5761, 0.2119], dtype=float32)
    >>> ek.keras.layers.Softmax()([1.0, 2.0, 1.0], mask=[True, False, True]).numpy().tolist()
    [0.5, 0.0, 0.5]
    """

    supports_masking = True  # passes the mask of its inputs on unchanged (Keras)

    def __init__(self, axis=-1, **kwargs):
        axes = distinct_axes(axis, "Softmax", "axis=-1 (the last axis, the default)")
        super().__init__(**kwargs)
        self.axis = axes if len(axes) > 1 else axes[0]

    def call(self, inputs, mask=None):
        if mask is not None:
            mask = cast(convert_to_tensor(mask), inputs.dtype)
            # TF's number: -1e9, or -3e4 where float16 cannot hold it.
            large_negative = -3e4 if inputs.dtype.name == "float16" else -1e9
            inputs = inputs + (1.0 - mask) * large_negative
        return softmax(inputs, axis=self.axis)


class ELU(Layer):
    """Exponential linear unit: ``x`` where ``x > 0``, else ``alpha * (exp(x) - 1)``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.layers.ELU(alpha=2.0)([-1.0, 0.0, 3.0]).numpy().round(4)
    array([-1.2642,  0.    ,  3.    ], dtype=float32)
    """

    supports_masking = True  # passes the mask of its inputs on unchanged (Keras)

    def __init__(self, alpha=1.0, **kwargs):
        alpha = real_number(alpha, "alpha", "ELU", example=1.0)
        super().__init__(**kwargs)
        self.alpha = alpha

    def call(self, inputs):
        return elu_with_alpha(inputs, self.alpha)
