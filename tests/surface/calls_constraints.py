"""Valid calls of ek.keras.constraints: each class (its projection of F23 against numpy's),
its methods, and the module's functions."""

import numpy as np

import eagerkit as ek

from . import walk
from .declare import call
from .values import F23

CLASSES = walk.public_callables()
CALLS = {}


def _column_norms(x):
    return np.sqrt(np.square(x).sum(axis=0, keepdims=True))


CONSTRAINTS = {  # class: (construction, numpy's projection of F23)
    "ek.keras.constraints.MaxNorm": (
        call(2.0),
        lambda x: x * np.minimum(_column_norms(x), 2.0) / (_column_norms(x) + 1e-7),
    ),
    "ek.keras.constraints.MinMaxNorm": (
        call(5.0, 6.0, 0.5),
        lambda x: (
            x
            * (0.5 * np.clip(_column_norms(x), 5.0, 6.0) + 0.5 * _column_norms(x))
            / (_column_norms(x) + 1e-7)
        ),
    ),
    "ek.keras.constraints.NonNeg": (call(), lambda x: np.maximum(x, 0.0)),
    "ek.keras.constraints.UnitNorm": (
        call(axis=1),
        lambda x: x / np.sqrt(np.square(x).sum(axis=1, keepdims=True)),
    ),
    "ek.keras.constraints.Constraint": (call(), lambda x: x),
}
for _name, (_declared, _projection) in CONSTRAINTS.items():
    CALLS[_name] = _declared
    _target = CLASSES[_name].target
    _config = _target(*_declared.args, **_declared.kwargs).get_config()
    templates = {
        "__call__": call(F23, numpy=_projection),
        "__repr__": call(check=lambda r: r.startswith("ek.keras.constraints.")),
        "get_config": call(check=lambda r: isinstance(r, dict)),
        "from_config": call(_config, check=lambda r, t=_target: type(r) is t),
    }
    for _entry in walk.methods(_name, _target).values():
        CALLS[_entry.name] = templates[_entry.attribute]

_C = "ek.keras.constraints."
CALLS.update(
    {
        _C + "get": call(
            "max_norm", check=lambda r: r.get_config() == {"max_value": 2.0, "axis": 0}
        ),
        _C + "serialize": call(
            ek.keras.constraints.UnitNorm(1),
            check=lambda r: r == {"class_name": "UnitNorm", "config": {"axis": 1}},
        ),
        _C + "deserialize": call(
            {"class_name": "MaxNorm", "config": {"max_value": 3.0}},
            check=lambda r: r.get_config() == {"max_value": 3.0, "axis": 0},
        ),
    }
)
