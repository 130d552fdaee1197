"""Initializers: callables ``init(shape, dtype)`` that give a layer's starting weights.

Layers accept an initializer object, or its name (``"glorot_uniform"``, ``"zeros"``, ...).

Examples
--------
>>> import eagerkit as ek
>>> ek.initializers.constant(0.5)([2])
<ek.Tensor: shape=(2,), dtype=float32, numpy=array([0.5, 0.5], dtype=float32)>
>>> ek.initializers.get("zeros")([1, 2]).numpy().tolist()
[[0.0, 0.0]]
"""

import inspect
import math

from eagerkit import dtypes, random
from eagerkit.arguments import describe, sizes, whole_number
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops import creation


def _seed(seed, where):
    """``None`` or a whole number: a fractional seed is refused, not truncated."""
    return None if seed is None else whole_number(seed, "seed", where)


def _sample(distribution, shape, seed, *args, dtype):
    """Seeded: the same numbers on every call (a stateless draw, as Keras); else the stream."""
    if seed is None:
        return getattr(random, distribution)(shape, *args, dtype=dtype)
    return getattr(random, "stateless_" + distribution)(shape, [0, seed], *args, dtype=dtype)


class Initializer:
    """Base class: a subclass's ``init(shape, dtype=ek.float32)`` returns a new Tensor.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.initializers.Ones()
    ek.initializers.Ones()
    """

    def get_config(self):
        """The arguments that rebuild this initializer (``from_config``), as Keras saves them.

        Every initializer keeps each constructor argument under its own name, so the
        config is read off ``__init__``'s parameters.
        """
        parameters = inspect.signature(type(self).__init__).parameters
        plain = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        names = [name for name, p in list(parameters.items())[1:] if p.kind in plain]
        return {name: getattr(self, name) for name in names}

    @classmethod
    def from_config(cls, config):
        """The initializer ``get_config`` describes."""
        if not isinstance(config, dict):
            raise InvalidArgumentError(
                f"{cls.__name__}.from_config: config must be the dict get_config() returns, "
                f"got {describe(config)}",
                op="from_config",
            )
        return cls(**config)

    def __repr__(self):
        return f"ek.initializers.{type(self).__name__}()"


class Zeros(Initializer):
    """All zeros (the default for biases).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.initializers.zeros()([2]).numpy().tolist()
    [0.0, 0.0]
    """

    def __call__(self, shape, dtype=dtypes.float32):
        return creation.zeros(shape, dtype=dtype)


class Ones(Initializer):
    """All ones (BatchNormalization's scale starts here).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.initializers.ones()([2], dtype=ek.float64)
    <ek.Tensor: shape=(2,), dtype=float64, numpy=array([1., 1.])>
    """

    def __call__(self, shape, dtype=dtypes.float32):
        return creation.ones(shape, dtype=dtype)


class Constant(Initializer):
    """Every entry equal to ``value``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.initializers.constant(2.5)([1, 2]).numpy().tolist()
    [[2.5, 2.5]]
    """

    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=dtypes.float32):
        return creation.constant(self.value, dtype=dtype, shape=shape)


class RandomNormal(Initializer):
    """Normal samples; with ``seed`` the same numbers every time.

    Examples
    --------
    >>> import eagerkit as ek
    >>> a = ek.initializers.random_normal(seed=1)([3])
    >>> b = ek.initializers.random_normal(seed=1)([3])
    >>> bool(ek.reduce_all(a == b))
    True
    """

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, _seed(seed, type(self).__name__)

    def __call__(self, shape, dtype=dtypes.float32):
        return _sample("normal", shape, self.seed, self.mean, self.stddev, dtype=dtype)


def fans(shape):
    """(fan_in, fan_out) of a weight shape: a conv filter's window counts into both.

    Examples
    --------
    >>> from eagerkit.keras.initializers import fans
    >>> fans([64, 10]), fans([3, 3, 16, 32])
    ((64, 10), (144, 288))
    """
    shape = sizes(shape, "the shape", "initializer", minimum=0)  # 1.5 or 'a' refused, not cut
    if len(shape) < 2:
        size = shape[0] if shape else 1
        return size, size
    receptive = math.prod(shape[:-2])  # kernel height * width for a conv filter
    return shape[-2] * receptive, shape[-1] * receptive


class RandomUniform(Initializer):
    """Uniform samples in [minval, maxval) (Embedding's default: +-0.05).

    Examples
    --------
    >>> import eagerkit as ek
    >>> values = ek.initializers.random_uniform(-1.0, 1.0, seed=2)([1000]).numpy()
    >>> bool(values.min() >= -1.0 and values.max() < 1.0)
    True
    """

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, _seed(seed, type(self).__name__)

    def __call__(self, shape, dtype=dtypes.float32):
        return _sample("uniform", shape, self.seed, self.minval, self.maxval, dtype=dtype)


class GlorotUniform(Initializer):
    """Uniform in [-limit, limit] with limit = sqrt(6 / (fan_in + fan_out)) (Keras' default).

    The limit keeps the variance of activations and gradients about the same from layer
    to layer, so deep stacks start out neither exploding nor vanishing.

    Examples
    --------
    >>> import eagerkit as ek
    >>> w = ek.initializers.glorot_uniform(seed=0)([64, 10]).numpy()
    >>> bool(abs(w).max() <= (6 / (64 + 10)) ** 0.5)
    True
    """

    def __init__(self, seed=None):
        self.seed = _seed(seed, type(self).__name__)

    def __call__(self, shape, dtype=dtypes.float32):
        fan_in, fan_out = fans(shape)
        limit = math.sqrt(6.0 / max(fan_in + fan_out, 1))
        return _sample("uniform", shape, self.seed, -limit, limit, dtype=dtype)


# The fan-scaled ones (HeNormal, GlorotNormal, ...) live in their own module; it builds on
# the classes above, so it is imported once they exist.
from eagerkit.keras.scaled_initializers import (  # noqa: E402
    GlorotNormal,
    HeNormal,
    HeUniform,
    Identity,
    LecunNormal,
    LecunUniform,
    Orthogonal,
    TruncatedNormal,
    VarianceScaling,
)

zeros, ones, constant = Zeros, Ones, Constant
random_normal, random_uniform, glorot_uniform = RandomNormal, RandomUniform, GlorotUniform
glorot_normal, he_normal, he_uniform = GlorotNormal, HeNormal, HeUniform
lecun_normal, lecun_uniform, truncated_normal = LecunNormal, LecunUniform, TruncatedNormal
variance_scaling, orthogonal, identity = VarianceScaling, Orthogonal, Identity

_BY_NAME = {  # the names layers accept (kernel_initializer="he_normal"), as Keras'
    "zeros": Zeros,
    "ones": Ones,
    "constant": Constant,
    "random_normal": RandomNormal,
    "random_uniform": RandomUniform,
    "uniform": RandomUniform,
    "normal": RandomNormal,
    "glorot_uniform": GlorotUniform,
    "glorot_normal": GlorotNormal,
    "he_normal": HeNormal,
    "he_uniform": HeUniform,
    "lecun_normal": LecunNormal,
    "lecun_uniform": LecunUniform,
    "truncated_normal": TruncatedNormal,
    "variance_scaling": VarianceScaling,
    "orthogonal": Orthogonal,
    "identity": Identity,
}
_BY_CLASS_NAME = {cls.__name__: cls for cls in _BY_NAME.values()}  # "HeNormal" works too


def get(identifier):
    """An initializer from a name (``"he_normal"`` or ``"HeNormal"``), a config dict
    ``{"class_name", "config"}`` (as a saved layer holds it), an initializer, or any callable
    ``f(shape, dtype)``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.initializers.get("glorot_uniform")
    ek.initializers.GlorotUniform()
    >>> ek.keras.initializers.get({"class_name": "HeNormal", "config": {"seed": 3}}).seed
    3
    """
    if isinstance(identifier, str):
        found = _BY_NAME.get(identifier) or _BY_CLASS_NAME.get(identifier)
        if found is None:
            raise InvalidArgumentError(
                f"initializers.get: unknown initializer {identifier!r}; use one of "
                f"{sorted(_BY_NAME)}, an initializer object or a callable f(shape, dtype)",
                op="initializers.get",
            )
        return found()
    if isinstance(identifier, dict):
        from eagerkit.keras import builtin_objects
        from eagerkit.keras.serialization import deserialize_keras_object

        table = builtin_objects.initializers()
        return deserialize_keras_object(identifier, table, None, "initializer")
    if callable(identifier):
        return identifier
    raise InvalidArgumentError(
        f"initializers.get: an initializer must be a name, a config dict or a callable "
        f"f(shape, dtype), got {describe(identifier)}; pass e.g. 'glorot_uniform'",
        op="initializers.get",
    )


# What this namespace exports (to ``import *`` and to the error boundary, namespaces.py);
# the helpers it imports or keeps for itself stay out.
__all__ = [
    "Initializer",
    "Zeros",
    "Ones",
    "Constant",
    "RandomNormal",
    "RandomUniform",
    "GlorotUniform",
    "GlorotNormal",
    "HeNormal",
    "HeUniform",
    "LecunNormal",
    "LecunUniform",
    "TruncatedNormal",
    "VarianceScaling",
    "Orthogonal",
    "Identity",
    "zeros",
    "ones",
    "constant",
    "random_normal",
    "random_uniform",
    "glorot_uniform",
    "glorot_normal",
    "he_normal",
    "he_uniform",
    "lecun_normal",
    "lecun_uniform",
    "truncated_normal",
    "variance_scaling",
    "orthogonal",
    "identity",
    "get",
]
