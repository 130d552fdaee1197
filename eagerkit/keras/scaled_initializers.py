"""Keras' fan-scaled initializers (``VarianceScaling`` and its named cases: ``HeNormal``,
``GlorotNormal``, ``LecunUniform``, ...) and ``TruncatedNormal``, ``Orthogonal``,
``Identity``. initializers.py re-exports them and knows their names (``"he_normal"``).

``VarianceScaling(scale, mode, distribution)`` draws with variance ``scale / n``, where ``n``
is the weight's fan-in, fan-out or their mean (``mode``). A truncated normal (cut at two
standard deviations) loses variance, so its ``stddev`` is divided by 0.8796..., as Keras'.

Examples
--------
>>> import eagerkit as ek
>>> w = ek.keras.initializers.HeUniform(seed=0)([50, 10]).numpy()
>>> bool(abs(w).max() <= (6 / 50) ** 0.5)  # limit sqrt(3 * scale / fan_in), scale 2
True
"""

import math

import numpy as np

from eagerkit import dtypes
from eagerkit.arguments import describe, sizes
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.initializers import Initializer, _sample, _seed, fans
from eagerkit.ops import creation
from eagerkit.train.checks import number

# The standard deviation of a unit normal cut at +-2: dividing by it restores the variance
# (scipy.stats.truncnorm.std(a=-2, b=2), the constant Keras uses).
TRUNCATED_STDDEV = 0.87962566103423978
MODES = ("fan_in", "fan_out", "fan_avg")
DISTRIBUTIONS = ("truncated_normal", "untruncated_normal", "uniform")


class VarianceScaling(Initializer):
    """Samples with variance ``scale / n``, ``n`` the fan given by ``mode``.

    ``distribution``: ``"truncated_normal"`` (Keras' default; ``"normal"`` means it too),
    ``"untruncated_normal"`` or ``"uniform"`` (in ``[-limit, limit]``, ``limit =
    sqrt(3 * scale / n)``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> init = ek.keras.initializers.VarianceScaling(2.0, "fan_in", "untruncated_normal", seed=3)
    >>> w = init([4000, 1]).numpy()
    >>> round(float(w.std()) ** 2 * 4000, 1)  # variance 2 / fan_in
    2.0
    """

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None):
        where = type(self).__name__
        if number(scale, "scale", where) == 0:  # a negative one is refused there
            raise InvalidArgumentError(
                f"{where}: scale must be a positive number (the variance's factor), got "
                f"{describe(scale)}; pass e.g. scale=2.0",
                op=where,
            )
        distribution = distribution.lower() if isinstance(distribution, str) else distribution
        distribution = "truncated_normal" if distribution == "normal" else distribution
        for what, value, allowed in (
            ("mode", mode, MODES),
            ("distribution", distribution, DISTRIBUTIONS),
        ):
            if value not in allowed:
                raise InvalidArgumentError(
                    f"{where}: unknown {what} {describe(value)}; use one of {', '.join(allowed)}",
                    op=where,
                )
        self.scale, self.mode, self.distribution = float(scale), mode, distribution
        self.seed = _seed(seed, where)

    def __call__(self, shape, dtype=dtypes.float32):
        fan_in, fan_out = fans(shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}
        variance = self.scale / max(1.0, fan[self.mode])  # an empty weight divides by 1
        if self.distribution == "uniform":
            limit = math.sqrt(3.0 * variance)
            return _sample("uniform", shape, self.seed, -limit, limit, dtype=dtype)
        if self.distribution == "untruncated_normal":
            return _sample("normal", shape, self.seed, 0.0, math.sqrt(variance), dtype=dtype)
        stddev = math.sqrt(variance) / TRUNCATED_STDDEV
        return _sample("truncated_normal", shape, self.seed, 0.0, stddev, dtype=dtype)


def _named_case(class_name, scale, mode, distribution, doc):
    """A VarianceScaling with fixed arguments, taking only ``seed`` (as Keras' HeNormal)."""

    def __init__(self, seed=None):
        VarianceScaling.__init__(self, scale, mode, distribution, seed)

    namespace = {"__init__": __init__, "__doc__": doc, "__module__": __name__}
    return type(class_name, (VarianceScaling,), namespace)


HeNormal = _named_case(
    "HeNormal",
    2.0,
    "fan_in",
    "truncated_normal",
    """Truncated normal with stddev ``sqrt(2 / fan_in)`` (He et al.): for ReLU layers.

    Examples
    --------
    >>> import eagerkit as ek
    >>> layer = ek.keras.layers.Dense(8, kernel_initializer="he_normal")
    >>> layer(ek.ones([1, 4])).shape
    TensorShape([1, 8])
    """,
)
HeUniform = _named_case(
    "HeUniform",
    2.0,
    "fan_in",
    "uniform",
    """Uniform in ``[-limit, limit]``, ``limit = sqrt(6 / fan_in)``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> w = ek.keras.initializers.HeUniform(seed=1)([24, 2]).numpy()
    >>> bool(abs(w).max() <= 0.5)
    True
    """,
)
GlorotNormal = _named_case(
    "GlorotNormal",
    1.0,
    "fan_avg",
    "truncated_normal",
    """Truncated normal with stddev ``sqrt(2 / (fan_in + fan_out))`` (Xavier normal).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.initializers.GlorotNormal(seed=1).get_config()
    {'seed': 1}
    """,
)
LecunNormal = _named_case(
    "LecunNormal",
    1.0,
    "fan_in",
    "truncated_normal",
    """Truncated normal with stddev ``sqrt(1 / fan_in)`` (for SELU networks).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.initializers.LecunNormal(seed=2)([3, 2]).shape
    TensorShape([3, 2])
    """,
)
LecunUniform = _named_case(
    "LecunUniform",
    1.0,
    "fan_in",
    "uniform",
    """Uniform in ``[-limit, limit]``, ``limit = sqrt(3 / fan_in)``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> w = ek.keras.initializers.LecunUniform(seed=2)([12, 5]).numpy()
    >>> bool(abs(w).max() <= 0.5)
    True
    """,
)


class TruncatedNormal(Initializer):
    """Normal samples redrawn beyond two ``stddev`` of ``mean`` (Keras' default 0.05).

    Examples
    --------
    >>> import eagerkit as ek
    >>> w = ek.keras.initializers.TruncatedNormal(mean=1.0, stddev=0.1, seed=4)([500]).numpy()
    >>> bool(abs(w - 1.0).max() <= 0.2)
    True
    """

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean = _real(mean, "mean", "TruncatedNormal")
        self.stddev = number(stddev, "stddev", "TruncatedNormal")
        self.seed = _seed(seed, "TruncatedNormal")

    def __call__(self, shape, dtype=dtypes.float32):
        return _sample("truncated_normal", shape, self.seed, self.mean, self.stddev, dtype=dtype)


def _real(value, what, where):
    """A real number (a gain, a mean) as a float; strings, None and arrays are refused."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidArgumentError(
            f"{where}: {what} must be a number, got {describe(value)}; pass e.g. {what}=1.0",
            op=where,
        )
    return float(value)


def _matrix_shape(shape, where, exactly_two):
    """The shape as ints, at least (or exactly) two-dimensional, as Keras requires."""
    shape = sizes(shape, "the shape", where, minimum=0)
    if len(shape) < 2 or (exactly_two and len(shape) != 2):
        need = "exactly" if exactly_two else "at least"
        raise InvalidArgumentError(
            f"{where}: the weight to initialize must be {need} two-dimensional, got shape "
            f"{list(shape)}; use it for a kernel such as Dense's [inputs, units]",
            op=where,
        )
    return shape


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix times ``gain``: the Q of the QR decomposition of a normal
    draw, its signs fixed by R's diagonal so Q is uniformly distributed. A weight of more
    than two axes is orthogonal as a ``[prod(shape[:-1]), shape[-1]]`` matrix.

    Examples
    --------
    >>> import eagerkit as ek
    >>> q = ek.keras.initializers.Orthogonal(seed=0)([3, 3]).numpy()
    >>> bool(abs(q.T @ q - ek.eye(3).numpy()).max() < 1e-5)
    True
    """

    def __init__(self, gain=1.0, seed=None):
        self.gain, self.seed = _real(gain, "gain", "Orthogonal"), _seed(seed, "Orthogonal")

    def __call__(self, shape, dtype=dtypes.float32):
        shape = _matrix_shape(shape, "Orthogonal", exactly_two=False)
        rows, columns = math.prod(shape[:-1]), shape[-1]
        flat = (max(rows, columns), min(rows, columns))  # tall, so QR gives full columns
        draw = _sample("normal", list(flat), self.seed, 0.0, 1.0, dtype=dtype).numpy()
        q, r = np.linalg.qr(draw.astype(np.float64))
        q = q * np.sign(np.diag(r))  # the sign fix that makes Q uniform (Mezzadri 2007)
        if rows < columns:
            q = q.T
        return creation.constant(self.gain * q.reshape(shape), dtype=dtype)


class Identity(Initializer):
    """``gain`` times the identity matrix (``eye(rows, columns)``; 2-D weights only).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.initializers.Identity(gain=2.0)([2, 3]).numpy().tolist()
    [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0]]
    """

    def __init__(self, gain=1.0):
        self.gain = _real(gain, "gain", "Identity")

    def __call__(self, shape, dtype=dtypes.float32):
        rows, columns = _matrix_shape(shape, "Identity", exactly_two=True)
        return self.gain * creation.eye(rows, columns, dtype=dtype)  # eye checks the size
