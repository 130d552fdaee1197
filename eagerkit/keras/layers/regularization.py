"""Keras' regularization layers beside ``Dropout``: ``GaussianNoise`` and ``SpatialDropout1D``
(active only when called with ``training=True``) and ``ActivityRegularization`` (adds an
L1/L2 penalty on what passes through it to the layer's losses).

Examples
--------
>>> import eagerkit as ek
>>> noise = ek.keras.layers.GaussianNoise(0.1, seed=3)
>>> noise(ek.ones([2])).numpy().tolist()  # not training: unchanged
[1.0, 1.0]
"""

import numbers

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import regularizers
from eagerkit.keras.layers.base import Layer, check_rank
from eagerkit.keras.layers.core import Dropout
from eagerkit.ops.cast import cast
from eagerkit.random import normal as random_normal
from eagerkit.random import uniform as random_uniform
from eagerkit.tensor import convert_to_tensor


def _number_in(value, low, high, what, layer_name, op):
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and low <= value <= high:
        return float(value)
    raise InvalidArgumentError(
        f"{layer_name}: {what} must be a number in [{low}, {high}], got {value!r}", op=op
    )


class GaussianNoise(Layer):
    """Add noise drawn from N(0, ``stddev``^2) to the inputs, when training only.

    Parameters
    ----------
    stddev : float
        The noise's standard deviation, in [0, 1] (as Keras 3 checks).
    seed : int, optional
        Makes the sequence of noise draws repeatable.

    Examples
    --------
    >>> import eagerkit as ek
    >>> noisy = ek.keras.layers.GaussianNoise(0.5, seed=1)(ek.zeros([1000]), training=True)
    >>> round(float(ek.math.reduce_std(noisy)), 1)
    0.5
    """

    supports_masking = True  # Keras 3 sets it

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.stddev = _number_in(stddev, 0, 1, "stddev", "GaussianNoise", self.name)
        self.seed = seed

    def call(self, inputs, training=False):
        if not training or self.stddev == 0:
            return inputs
        inputs = convert_to_tensor(inputs)
        if not inputs.dtype.is_floating:
            raise InvalidArgumentError(
                f"GaussianNoise layer '{self.name}' adds real noise and needs float inputs, "
                f"got {inputs.dtype.name}; cast them first (ek.cast(x, ek.float32))",
                op=self.name,
            )
        # A constant draw (not recorded): the gradient passes through unchanged.
        noise = random_normal(inputs.shape, stddev=self.stddev, dtype=inputs.dtype, seed=self.seed)
        return inputs + noise


class SpatialDropout1D(Dropout):
    """Dropout of whole channels: one draw per (sample, channel), shared by every time step.

    Input ``[batch, steps, channels]``; when training, each channel of each sample is
    zeroed with probability ``rate`` and the rest scaled by 1 / (1 - rate).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.random.set_seed(0)
    >>> dropped = ek.keras.layers.SpatialDropout1D(0.5, seed=2)(ek.ones([1, 3, 4]),
    ...                                                        training=True)
    >>> dropped.numpy()[0].tolist()  # each column is all 0 or all 2
    [[0.0, 0.0, 2.0, 0.0], [0.0, 0.0, 2.0, 0.0], [0.0, 0.0, 2.0, 0.0]]
    """

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(rate, seed=seed, **kwargs)

    def call(self, inputs, training=False):
        check_rank(self, inputs.shape, 3, "[batch, steps, channels]")
        if not training or self.rate == 0:
            return inputs
        inputs = convert_to_tensor(inputs)
        channels = (inputs.shape[0], 1, inputs.shape[2])  # one draw per channel
        keep = random_uniform(channels, dtype=inputs.dtype, seed=self.seed) >= self.rate
        # A constant mask (not recorded), broadcast over the steps.
        return inputs * (cast(keep, inputs.dtype) / (1 - self.rate))


class ActivityRegularization(Layer):
    """Pass the inputs through, adding ``l1 * sum(|x|) + l2 * sum(x^2)`` divided by the
    batch size to the layer's losses (``model.losses``; ``fit`` adds them to the loss).

    Examples
    --------
    >>> import eagerkit as ek
    >>> layer = ek.keras.layers.ActivityRegularization(l1=0.5, l2=0.1)
    >>> layer(ek.constant([[1.0, -2.0], [3.0, 0.0]])).shape
    TensorShape([2, 2])
    >>> round(float(layer.losses[0]), 5)  # (0.5 * 6 + 0.1 * 14) / 2
    2.2
    """

    supports_masking = True  # Keras 3 sets it

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        if "activity_regularizer" in kwargs:
            raise TypeError(
                "ActivityRegularization: activity_regularizer is made from l1= and l2=; pass "
                "those instead"
            )
        l1 = _number_in(l1, 0, float("inf"), "l1", "ActivityRegularization", "l1")
        l2 = _number_in(l2, 0, float("inf"), "l2", "ActivityRegularization", "l2")
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.l1, self.l2 = l1, l2

    def call(self, inputs):
        inputs = convert_to_tensor(inputs)  # (call may be given an array directly)
        if not inputs.dtype.is_floating:  # the penalty's sums need real numbers
            raise InvalidArgumentError(
                f"ActivityRegularization layer '{self.name}' penalizes float inputs, got "
                f"{inputs.dtype.name}{list(inputs.shape)}; cast them first "
                "(ek.cast(x, ek.float32))",
                op=self.name,
            )
        return inputs
