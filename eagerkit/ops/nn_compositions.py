"""``tf.nn`` functions that are compositions of other ops (no gradient code of their own):
``dropout``, ``moments``, ``batch_normalization`` and ``selu``, as TF computes them.

Examples
--------
>>> import eagerkit as ek
>>> mean, variance = ek.nn.moments(ek.constant([[1.0, 2.0], [3.0, 6.0]]), axes=[0])
>>> mean.numpy().tolist(), variance.numpy().tolist()
([2.0, 4.0], [1.0, 4.0])
"""

import numpy as np

from eagerkit import arguments
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops import math
from eagerkit.ops.arithmetic import squared_difference
from eagerkit.ops.cast import cast
from eagerkit.ops.compare import where
from eagerkit.ops.nn import elu
from eagerkit.ops.reduce import reduce_mean
from eagerkit.ops.shape import squeeze, stop_gradient
from eagerkit.tensor import Tensor, convert_to_tensor

# SELU's constants (Klambauer et al. 2017), as TF's kernel has them.
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Zero each element with probability ``rate`` and scale the rest by ``1 / (1 - rate)``,
    so the expected value stays ``x`` (TF's ``tf.nn.dropout``: always on, no training flag).

    ``noise_shape`` (broadcast against x's shape) shares one draw along its size-1 axes.

    >>> import eagerkit as ek
    >>> out = ek.nn.dropout(ek.ones([1000]), rate=0.5, seed=1)
    >>> kept = int(ek.reduce_sum(ek.cast(out > 0, ek.int32)))
    >>> sorted(set(out.numpy().tolist())), 400 < kept < 600
    ([0.0, 2.0], True)
    """
    from eagerkit.random import uniform

    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise InvalidArgumentError(
            f"dropout: x must be a float tensor (the kept values are scaled), got "
            f"{x.dtype.name}; cast it first, e.g. ek.cast(x, ek.float32)",
            op="dropout",
        )
    keep_fraction = 1.0 - _rate(rate)
    shape = x.shape if noise_shape is None else noise_shape
    keep = uniform(shape, dtype=x.dtype, seed=seed) >= _rate(rate)
    # A mask drawn once (not recorded): the gradient is g * mask / (1 - rate), as TF's.
    return x * (cast(keep, x.dtype) / keep_fraction)


def _rate(rate):
    """The dropout rate: a number in [0, 1) (1 would drop everything and divide by 0)."""
    from eagerkit.train.checks import number

    value = number(rate, "rate", "dropout")
    if value >= 1:
        raise InvalidArgumentError(
            f"dropout: rate must be in the range [0, 1) (the fraction of elements to drop), "
            f"got {rate!r}",
            op="dropout",
        )
    return value


def moments(x, axes, shift=None, keepdims=False, name=None):
    """The mean and variance of ``x`` over ``axes`` (TF's ``tf.nn.moments``).

    As in TF, the variance's gradient does not flow through the mean (whose gradient there
    is zero anyway); ``shift`` is accepted and unused, as in TF 2.
    """
    x = convert_to_tensor(x)
    axes = [arguments.axis_index(a, x.ndim, "moments", "each of axes") for a in _axes(axes)]
    mean = reduce_mean(x, axis=axes, keepdims=True)
    variance = reduce_mean(squared_difference(x, stop_gradient(mean)), axis=axes, keepdims=True)
    if keepdims:
        return mean, variance
    return squeeze(mean, axis=axes), squeeze(variance, axis=axes)


def _axes(axes):
    """``axes`` as a list: TF takes a list (one int is refused there; accepted here)."""
    if isinstance(axes, Tensor):
        axes = axes.numpy()  # axis numbers: read on the host
    if isinstance(axes, np.ndarray):
        axes = axes.tolist()
    return list(axes) if isinstance(axes, (list, tuple)) else [axes]


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """``(x - mean) / sqrt(variance + variance_epsilon) * scale + offset`` (``offset`` and
    ``scale`` may be None), as TF's ``tf.nn.batch_normalization``.

    >>> import eagerkit as ek
    >>> x = ek.constant([[1.0, 2.0], [3.0, 6.0]])
    >>> mean, variance = ek.nn.moments(x, axes=[0])
    >>> ek.nn.batch_normalization(x, mean, variance, None, None, 0.0).numpy().tolist()
    [[-1.0, -1.0], [1.0, 1.0]]
    """
    x = convert_to_tensor(x)
    mean, variance = _like(mean, x), _like(variance, x)
    inverse = math.rsqrt(variance + variance_epsilon)
    if scale is not None:
        inverse = inverse * _like(scale, x)
    shift = -mean * inverse if offset is None else _like(offset, x) - mean * inverse
    return x * inverse + shift


def _like(value, x):
    """A statistic or parameter as a tensor; Python numbers and lists take x's dtype."""
    return value if isinstance(value, Tensor) else convert_to_tensor(value, dtype=x.dtype)


def selu(features, name=None):
    """Scaled ELU: ``scale * x`` where x > 0, else ``scale * alpha * (e**x - 1)``.

    >>> import eagerkit as ek
    >>> [round(v, 4) for v in ek.nn.selu([-1.0, 0.0, 2.0]).numpy().tolist()]
    [-1.1113, 0.0, 2.1014]
    """
    x = convert_to_tensor(features)
    return _SELU_SCALE * where(x > 0, x, _SELU_ALPHA * elu(x))
