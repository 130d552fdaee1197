"""Valid calls on what ``ek.keras.Input`` returns: a KerasTensor, whose operators add nodes
to the functional model being built and whose value-asking protocols say it has none."""

import operator

import numpy as np

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

from .declare import call


def _symbolic(result):
    return type(result).__name__ == "KerasTensor"


CALLS = {}
for _symbol in "add sub mul truediv floordiv mod pow lt le gt ge".split():
    CALLS[f"ek.keras.Input().__{_symbol}__"] = call(2.0, check=_symbolic)
    if hasattr(operator, _symbol) and _symbol not in ("lt", "le", "gt", "ge"):
        CALLS[f"ek.keras.Input().__r{_symbol}__"] = call(2.0, check=_symbolic)
for _symbol in "neg pos abs".split():
    CALLS[f"ek.keras.Input().__{_symbol}__"] = call(check=_symbolic)
for _protocol in "array bool float index int iter len".split():  # they need a value
    CALLS[f"ek.keras.Input().__{_protocol}__"] = call(raises=InvalidArgumentError)
CALLS.update(
    {
        "ek.keras.Input().numpy": call(raises=InvalidArgumentError),
        "ek.keras.Input().__matmul__": call(np.ones((3, 2), np.float32), check=_symbolic),
        "ek.keras.Input().__rmatmul__": call(
            [[1.0] * 4], on=lambda: ek.keras.Input(shape=[2], batch_size=4), check=_symbolic
        ),
        "ek.keras.Input().__getitem__": call((slice(None), 0), check=_symbolic),
        "ek.keras.Input().__invert__": call(
            on=lambda: ek.keras.Input(shape=[3], dtype=ek.bool), check=_symbolic
        ),
        "ek.keras.Input().__hash__": call(),
        "ek.keras.Input().__repr__": call(check=lambda r: r.startswith("<KerasTensor")),
    }
)
