"""``ek.keras.backend``: what of Keras' backend module lessons and guides use."""

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.layers import base

__all__ = [
    "clear_session",
    "epsilon",
    "floatx",
    "get_value",
    "image_data_format",
    "random_normal",
    "random_uniform",
    "set_value",
    "std",
]


def epsilon():
    """Keras' fuzz factor, 1e-7: what losses clip probabilities by (eagerkit's is fixed).

    >>> import eagerkit as ek
    >>> ek.keras.backend.epsilon()
    1e-07
    """
    from eagerkit.keras.losses import EPSILON

    return EPSILON


def floatx():
    """The float type Keras layers make their weights in: ``'float32'``.

    >>> import eagerkit as ek
    >>> ek.keras.backend.floatx()
    'float32'
    """
    return "float32"


def image_data_format():
    """How images are laid out: ``'channels_last'`` (N, H, W, C), eagerkit's only layout.

    >>> import eagerkit as ek
    >>> ek.keras.backend.image_data_format()
    'channels_last'
    """
    return "channels_last"


def clear_session():
    """Start Keras' default names again: the next Dense is ``dense``, the next Input
    ``input_1``. Layers and models already made keep their names and variables.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.backend.clear_session()
    >>> ek.keras.layers.Dense(1).name, ek.keras.Input(shape=[2]).name
    ('dense', 'input_1')
    """
    base._name_counts.clear()


def get_value(x):
    """The value of a tensor or Variable as numpy (a Python number is returned as it is).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.backend.get_value(ek.Variable([2.5]))
    array([2.5], dtype=float32)
    """
    from eagerkit.tensor import Tensor

    if isinstance(x, Tensor):
        return x.numpy()
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return x
    raise InvalidArgumentError(
        f"get_value: expected a tensor, a Variable or a number, got {x!r:.80}", op="get_value"
    )


def set_value(x, value):
    """Assign ``value`` to the Variable ``x``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> v = ek.Variable(1.0)
    >>> ek.keras.backend.set_value(v, 3.0)
    >>> float(v)
    3.0
    """
    from eagerkit.variables import Variable

    if not isinstance(x, Variable):
        raise InvalidArgumentError(
            f"set_value needs an ek.Variable to assign to, got {x!r:.80}. An eagerkit "
            "optimizer keeps its learning rate as a plain number: set it with "
            "optimizer.learning_rate = value",
            op="set_value",
        )
    x.assign(value)


def std(x, axis=None, keepdims=False):
    """The standard deviation of ``x`` (over ``axis``; all of it by default).

    Examples
    --------
    >>> import eagerkit as ek
    >>> float(ek.keras.backend.std(ek.constant([1.0, 3.0])))
    1.0
    """
    from eagerkit import math

    return math.reduce_std(x, axis=axis, keepdims=keepdims)


def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Draws from a normal distribution (Keras 2's backend; ``ek.random.normal`` with
    ``dtype=None`` meaning ``floatx()``, float32).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.utils.set_random_seed(0)
    >>> x = ek.keras.backend.random_normal([1000, 10], mean=2.0, stddev=0.5)
    >>> x.dtype, round(float(ek.reduce_mean(x)), 1), round(float(ek.math.reduce_std(x)), 1)
    (ek.float32, 2.0, 0.5)
    """
    from eagerkit import random

    return random.normal(shape, mean=mean, stddev=stddev, dtype=dtype or floatx(), seed=seed)


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Draws from the uniform distribution on ``[minval, maxval)`` (Keras 2's backend;
    ``ek.random.uniform`` with ``dtype=None`` meaning ``floatx()``, float32).

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.keras.backend.random_uniform([2, 3], minval=-1.0, maxval=1.0, seed=4)
    >>> x.shape, bool(ek.reduce_all((x >= -1.0) & (x < 1.0)))
    (TensorShape([2, 3]), True)
    """
    from eagerkit import random

    return random.uniform(shape, minval=minval, maxval=maxval, dtype=dtype or floatx(), seed=seed)
