"""Weight constraints: projections an optimizer applies to a weight after each update.

A constraint is a callable ``f(w) -> w'`` of the same shape. Give one to a layer
(``Dense(64, kernel_constraint=ek.keras.constraints.MaxNorm(2.0))``) or to a variable
(``ek.Variable(w, constraint=...)``), and every ``apply_gradients`` (so every step of ``fit``)
replaces the weight's new value by its projection: the rule holds after each step, as in
Keras, where ``BaseOptimizer.apply`` assigns ``variable.constraint(variable)``.

* ``MaxNorm(max_value=2, axis=0)``: scale each slice whose norm is above ``max_value`` down
  to it (for a Dense kernel ``[inputs, units]`` and ``axis=0``: each unit's incoming weights)
* ``MinMaxNorm(min_value=0.0, max_value=1.0, rate=1.0, axis=0)``: move each norm into
  ``[min_value, max_value]``, a fraction ``rate`` of the way
* ``NonNeg()``: set negative weights to 0
* ``UnitNorm(axis=0)``: scale each slice to norm 1

The norms are Euclidean over ``axis`` (an int or a list of ints); a norm is divided by with
Keras' ``epsilon`` (1e-7) added, so a zero slice stays zero. Keras' lower-case names
(``max_norm``, ``non_neg``, ...) are the classes themselves, and ``get`` takes them as
strings.

Examples
--------
>>> import eagerkit as ek
>>> ek.keras.constraints.MaxNorm(1.0)(ek.constant([[3.0, 0.5], [4.0, 0.0]])).numpy().round(3)
array([[0.6, 0.5],
       [0.8, 0. ]], dtype=float32)
>>> layer = ek.keras.layers.Dense(2, kernel_constraint="non_neg")
>>> layer.kernel_constraint
ek.keras.constraints.NonNeg()
"""

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import serialization
from eagerkit.keras.constraint_checks import (
    axes,
    floating_weights,
    norm_bound,
    number,
    weights_and_norms,
)
from eagerkit.ops.cast import cast
from eagerkit.ops.compare import greater_equal
from eagerkit.ops.misc import clip_by_value

_EPSILON = 1e-7  # Keras' backend.epsilon(): a zero norm divides to 0, not NaN
_NAMES_HINT = (
    "use 'max_norm', 'min_max_norm', 'non_neg' or 'unit_norm', an object such as "
    "ek.keras.constraints.MaxNorm(2.0), or a function of the weights that returns them "
    "projected"
)


class Constraint:
    """Base class: a subclass's ``__call__(w)`` returns ``w`` projected (the same shape).

    ``get_config`` returns the arguments that rebuild it (``{}`` here: no arguments);
    ``from_config`` is ``cls(**config)``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> class Clip(ek.keras.constraints.Constraint):
    ...     def __call__(self, w):
    ...         return ek.clip_by_value(w, -1.0, 1.0)
    >>> Clip()(ek.constant([-3.0, 0.5])).numpy().tolist()
    [-1.0, 0.5]
    """

    def __call__(self, w):
        return w  # the base class projects nothing (as Keras')

    def get_config(self):
        """The arguments that rebuild this constraint (a JSON-able dict)."""
        return {}

    @classmethod
    def from_config(cls, config):
        """The constraint ``config`` (what ``get_config`` returned) describes."""
        if not isinstance(config, dict):
            raise InvalidArgumentError(
                f"{cls.__name__}.from_config: config must be the dict get_config() returns, "
                f"got {describe(config)}; pass constraint.get_config()",
                op="from_config",
            )
        return cls(**config)

    def __repr__(self):
        arguments = ", ".join(f"{k}={v!r}" for k, v in self.get_config().items())
        prefix = "ek.keras.constraints." if type(self).__module__ == __name__ else ""
        return f"{prefix}{type(self).__name__}({arguments})"


class MaxNorm(Constraint):
    """Each slice's norm over ``axis`` at most ``max_value`` (longer slices scaled down).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.constraints.MaxNorm(2.0, axis=1)(ek.constant([[3.0, 4.0]])).numpy().tolist()
    [[1.2000000476837158, 1.600000023841858]]
    """

    def __init__(self, max_value=2, axis=0):
        self.max_value = norm_bound(max_value, "max_value", "MaxNorm")
        self.axis = axes(axis, "MaxNorm")

    def __call__(self, w):
        w, norms = weights_and_norms(w, self.axis, "MaxNorm")
        desired = clip_by_value(norms, 0.0, self.max_value)
        return w * (desired / (norms + _EPSILON))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class MinMaxNorm(Constraint):
    """Each slice's norm over ``axis`` moved into ``[min_value, max_value]``; ``rate`` is how
    far (1.0: all the way, 0.0: not at all), as ``rate * clipped + (1 - rate) * norm``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.constraints.MinMaxNorm(1.0, 2.0)(ek.constant([0.3, 0.4])).numpy().round(4)
    array([0.6, 0.8], dtype=float32)
    """

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value = norm_bound(min_value, "min_value", "MinMaxNorm")
        self.max_value = norm_bound(max_value, "max_value", "MinMaxNorm")
        if self.min_value > self.max_value:
            raise InvalidArgumentError(
                f"MinMaxNorm: min_value ({self.min_value}) is above max_value "
                f"({self.max_value}); pass min_value <= max_value, e.g. "
                "MinMaxNorm(min_value=0.5, max_value=1.0)",
                op="MinMaxNorm",
            )
        self.rate = number(rate, "rate", "MinMaxNorm", "a number in [0, 1], e.g. rate=1.0")
        if not 0.0 <= self.rate <= 1.0:
            raise InvalidArgumentError(
                f"MinMaxNorm: rate is the fraction of the way to the allowed norms and must be "
                f"in [0, 1], got {self.rate}; pass e.g. rate=1.0",
                op="MinMaxNorm",
            )
        self.axis = axes(axis, "MinMaxNorm")

    def __call__(self, w):
        w, norms = weights_and_norms(w, self.axis, "MinMaxNorm")
        clipped = clip_by_value(norms, self.min_value, self.max_value)
        desired = self.rate * clipped + (1.0 - self.rate) * norms
        return w * (desired / (norms + _EPSILON))

    def get_config(self):
        return {
            "min_value": self.min_value,
            "max_value": self.max_value,
            "rate": self.rate,
            "axis": self.axis,
        }


class NonNeg(Constraint):
    """Negative weights set to 0.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.constraints.NonNeg()(ek.constant([-1.0, 2.0])).numpy().tolist()  # w * (w >= 0)
    [-0.0, 2.0]
    """

    def __call__(self, w):
        w = floating_weights(w, "NonNeg")
        return w * cast(greater_equal(w, 0.0), w.dtype)


class UnitNorm(Constraint):
    """Each slice scaled to norm 1 over ``axis`` (a zero slice stays zero).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.constraints.UnitNorm()(ek.constant([[3.0], [4.0]])).numpy().tolist()
    [[0.6000000238418579], [0.800000011920929]]
    """

    def __init__(self, axis=0):
        self.axis = axes(axis, "UnitNorm")

    def __call__(self, w):
        w, norms = weights_and_norms(w, self.axis, "UnitNorm")
        return w / (norms + _EPSILON)

    def get_config(self):
        return {"axis": self.axis}


max_norm = MaxNorm  # Keras' lower-case names are the classes themselves
min_max_norm = MinMaxNorm
non_neg = NonNeg
unit_norm = UnitNorm


def serialize(constraint):
    """``constraint`` as a config: ``{"class_name": "MaxNorm", "config": {...}}``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.constraints.serialize(ek.keras.constraints.UnitNorm(axis=1))
    {'class_name': 'UnitNorm', 'config': {'axis': 1}}
    """
    return serialization.serialize_keras_object(constraint)


def deserialize(config, custom_objects=None):
    """The constraint a name (``"max_norm"``) or a config (what ``serialize`` wrote) describes.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.constraints.deserialize({"class_name": "MaxNorm", "config": {"max_value": 3}})
    ek.keras.constraints.MaxNorm(max_value=3.0, axis=0)
    >>> ek.keras.constraints.deserialize("unit_norm")
    ek.keras.constraints.UnitNorm(axis=0)
    """
    return serialization.deserialize_family(
        config, _BY_NAME, custom_objects, "constraint", "max_norm"
    )


def get(identifier):
    """A constraint from ``None``, a name, a config dict, or a callable (kept as it is).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.constraints.get("max_norm")
    ek.keras.constraints.MaxNorm(max_value=2.0, axis=0)
    >>> ek.keras.constraints.get(None) is None
    True
    """
    return resolve(identifier, "constraints.get", "identifier")


def resolve(identifier, caller, argument):
    """What ``get`` does, with errors that name ``caller`` and its ``argument`` (a layer's
    ``kernel_constraint``, ``add_weight``'s ``constraint``)."""
    return serialization.resolve_family(
        identifier, caller, argument, "constraint", _BY_NAME, deserialize, _NAMES_HINT
    )


# The names deserialize() looks up (after the user's custom objects and registered ones).
_BY_NAME = {
    "Constraint": Constraint,
    "MaxNorm": MaxNorm,
    "MinMaxNorm": MinMaxNorm,
    "NonNeg": NonNeg,
    "UnitNorm": UnitNorm,
    "max_norm": MaxNorm,
    "min_max_norm": MinMaxNorm,
    "non_neg": NonNeg,
    "unit_norm": UnitNorm,
}

__all__ = [
    "Constraint",
    "MaxNorm",
    "MinMaxNorm",
    "NonNeg",
    "UnitNorm",
    "max_norm",
    "min_max_norm",
    "non_neg",
    "unit_norm",
    "get",
    "serialize",
    "deserialize",
]
