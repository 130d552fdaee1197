"""Weight regularizers: penalties on a layer's weights that ``fit`` adds to the loss.

A regularizer is a callable ``f(weights) -> scalar``. Give one to a layer that has weights
(``Dense(64, kernel_regularizer=ek.keras.regularizers.l2(0.001))``, TF's "Overfit and
underfit" tutorial) and its penalty on the current weights is in ``layer.losses`` and
``model.losses`` (computed afresh each time they are read, so it follows training), and
``fit`` / ``evaluate`` add it to the loss:

* ``L1(l1=0.01)``: ``l1 * sum(|w|)`` (drives weights to exactly zero)
* ``L2(l2=0.01)``: ``l2 * sum(w ** 2)`` (weight decay)
* ``L1L2(l1=0.0, l2=0.0)``: both; ``l1_l2(l1=0.01, l2=0.01)`` makes one

``l1`` and ``l2`` are the classes under TF's lower-case names. Layers also take a name:
``"l1"``, ``"l2"`` (factor 0.01) or ``"l1_l2"`` (0.01 and 0.01), as in TF.

Examples
--------
>>> import eagerkit as ek
>>> ek.keras.regularizers.L2(0.1)(ek.constant([1.0, -2.0]))
<ek.Tensor: shape=(), dtype=float32, numpy=0.5>
>>> layer = ek.keras.layers.Dense(2, kernel_regularizer="l1", kernel_initializer="ones")
>>> _ = layer(ek.ones([1, 3]))
>>> layer.losses  # 0.01 * (6 ones)
[<ek.Tensor: shape=(), dtype=float32, numpy=0.06>]
"""

import math
import numbers

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError, UnimplementedError
from eagerkit.keras import serialization
from eagerkit.ops.creation import zeros
from eagerkit.ops.math import abs as absolute
from eagerkit.ops.math import square
from eagerkit.ops.reduce import reduce_sum
from eagerkit.tensor import convert_to_tensor

_NAMES_HINT = (
    "use 'l1', 'l2' or 'l1_l2' (factor 0.01), an object such as "
    "ek.keras.regularizers.L2(0.001), or a function of the weights that returns a scalar"
)


class Regularizer:
    """Base class: a subclass's ``__call__(x)`` returns the penalty on the weights ``x``.

    Write ``get_config`` too (the arguments that rebuild it) so models using it can be
    saved; ``from_config`` is ``cls(**config)``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> class Total(ek.keras.regularizers.Regularizer):
    ...     def __call__(self, x):
    ...         return 0.5 * ek.reduce_sum(x)
    >>> Total()(ek.constant([1.0, 3.0]))
    <ek.Tensor: shape=(), dtype=float32, numpy=2.0>
    """

    def __call__(self, x):
        return 0.0  # the base class penalizes nothing (as TF's)

    def get_config(self):
        """The arguments that rebuild this regularizer (a JSON-able dict)."""
        raise UnimplementedError(
            f"{type(self).__name__}.get_config: this regularizer does not say how to rebuild "
            "it, so a model using it cannot be saved; define get_config(self) returning its "
            "arguments, e.g. {'strength': self.strength}",
            op="get_config",
        )

    @classmethod
    def from_config(cls, config):
        """The regularizer ``config`` (what ``get_config`` returned) describes."""
        if not isinstance(config, dict):
            raise InvalidArgumentError(
                f"{cls.__name__}.from_config: config must be the dict get_config() returns, "
                f"got {describe(config)}; pass regularizer.get_config()",
                op="from_config",
            )
        return cls(**config)

    def __repr__(self):
        name = type(self).__name__
        if type(self).get_config is Regularizer.get_config:  # it cannot say its arguments
            return f"<{name} regularizer>"
        arguments = ", ".join(f"{k}={v!r}" for k, v in self.get_config().items())
        prefix = "ek.keras.regularizers." if type(self).__module__ == __name__ else ""
        return f"{prefix}{name}({arguments})"


class L1(Regularizer):
    """``l1 * reduce_sum(abs(x))``: pushes weights to exactly zero (sparse weights).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.regularizers.L1(0.5)(ek.constant([1.0, -2.0]))
    <ek.Tensor: shape=(), dtype=float32, numpy=1.5>
    """

    def __init__(self, l1=0.01):
        self.l1 = _factor(l1, "l1", "L1")

    def __call__(self, x):
        return self.l1 * reduce_sum(absolute(_weights(x, "L1")))

    def get_config(self):
        return {"l1": self.l1}


class L2(Regularizer):
    """``l2 * reduce_sum(square(x))``: keeps weights small (weight decay).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.regularizers.L2()(ek.constant([[3.0, 4.0]]))
    <ek.Tensor: shape=(), dtype=float32, numpy=0.25>
    """

    def __init__(self, l2=0.01):
        self.l2 = _factor(l2, "l2", "L2")

    def __call__(self, x):
        return self.l2 * reduce_sum(square(_weights(x, "L2")))

    def get_config(self):
        return {"l2": self.l2}


class L1L2(Regularizer):
    """``l1 * reduce_sum(abs(x)) + l2 * reduce_sum(square(x))`` (both factors 0 by default).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.regularizers.L1L2(l1=1.0, l2=1.0)(ek.constant([1.0, -2.0]))
    <ek.Tensor: shape=(), dtype=float32, numpy=8.0>
    """

    def __init__(self, l1=0.0, l2=0.0):
        self.l1 = _factor(l1, "l1", "L1L2")
        self.l2 = _factor(l2, "l2", "L1L2")

    def __call__(self, x):
        x = _weights(x, "L1L2")
        penalty = zeros([], dtype=x.dtype)
        if self.l1:  # (a zero factor adds no op to the tape)
            penalty = penalty + self.l1 * reduce_sum(absolute(x))
        if self.l2:
            penalty = penalty + self.l2 * reduce_sum(square(x))
        return penalty

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


l1 = L1  # TF's lower-case names are the classes themselves
l2 = L2


def l1_l2(l1=0.01, l2=0.01):
    """An ``L1L2`` regularizer, with TF's defaults for this name (0.01 each).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.regularizers.l1_l2()
    ek.keras.regularizers.L1L2(l1=0.01, l2=0.01)
    """
    return L1L2(l1=l1, l2=l2)


def serialize(regularizer):
    """``regularizer`` as a config: ``{"class_name": "L2", "config": {"l2": 0.01}}``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.regularizers.serialize(ek.keras.regularizers.L1(0.5))
    {'class_name': 'L1', 'config': {'l1': 0.5}}
    """
    return serialization.serialize_keras_object(regularizer)


def deserialize(config, custom_objects=None):
    """The regularizer a name (``"l2"``) or a config (what ``serialize`` wrote) describes.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.regularizers.deserialize({"class_name": "L2", "config": {"l2": 0.5}})
    ek.keras.regularizers.L2(l2=0.5)
    >>> ek.keras.regularizers.deserialize("l1_l2")
    ek.keras.regularizers.L1L2(l1=0.01, l2=0.01)
    """
    if isinstance(config, str) and config == "l1_l2":  # TF: 0.01 each (the class's default: 0)
        return L1L2(l1=0.01, l2=0.01)
    return serialization.deserialize_family(config, _BY_NAME, custom_objects, "regularizer", "l2")


def get(identifier):
    """A regularizer from ``None``, a name, a config dict, or a callable (kept as it is).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.regularizers.get("l2")
    ek.keras.regularizers.L2(l2=0.01)
    >>> ek.keras.regularizers.get(None) is None
    True
    """
    return resolve(identifier, "regularizers.get", "identifier")


def resolve(identifier, caller, argument):
    """What ``get`` does, with errors that name ``caller`` and its ``argument`` (a layer's
    ``kernel_regularizer``, ``add_weight``'s ``regularizer``)."""
    return serialization.resolve_family(
        identifier, caller, argument, "regularizer", _KNOWN, deserialize, _NAMES_HINT
    )


def _factor(value, name, caller):
    """A penalty factor: a finite number >= 0, as a float."""
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not math.isfinite(value)
        or value < 0
    ):
        raise InvalidArgumentError(
            f"{caller}: {name} is the penalty's factor and must be a number >= 0, got "
            f"{describe(value)}; pass e.g. {caller}({name}=0.01)",
            op=caller,
        )
    return float(value)


def _weights(x, caller):
    """``x`` as a floating tensor: a penalty is of weights, which are floating."""
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise InvalidArgumentError(
            f"{caller}: the penalty is computed on floating weights, got {describe(x)}; pass "
            "a layer's weights, or cast first: ek.cast(x, ek.float32)",
            op=caller,
        )
    return x


# The names deserialize() looks up (after the user's custom objects and registered ones).
_BY_NAME = {"L1": L1, "L2": L2, "L1L2": L1L2, "l1": L1, "l2": L2}
_KNOWN = {*_BY_NAME, "l1_l2"}  # the names get() takes: l1_l2 is deserialize()'s own

__all__ = [
    "Regularizer",
    "L1",
    "L2",
    "L1L2",
    "l1",
    "l2",
    "l1_l2",
    "get",
    "serialize",
    "deserialize",
]
