"""``get_weights`` / ``set_weights``: a layer's weights as a list of numpy arrays.

The order is ``layer.weights``' (a model's: trainable first, then the others). Setting
checks the whole list first, count, shapes and dtypes, and only then writes: a wrong list
leaves every weight as it was.

Examples
--------
>>> import eagerkit as ek
>>> a, b = ek.keras.layers.Dense(2), ek.keras.layers.Dense(2)
>>> _ = a(ek.ones([1, 3])), b(ek.ones([1, 3]))
>>> b.set_weights(a.get_weights())
>>> all((x == y).all() for x, y in zip(a.get_weights(), b.get_weights()))
True
"""

import numpy as np

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import Tensor


class WeightLists:
    """``get_weights`` / ``set_weights`` (a base class of ``Layer``)."""

    def get_weights(self):
        """The current values of ``self.weights``, as numpy arrays (copies)."""
        return [np.array(variable.numpy()) for variable in self.weights]

    def set_weights(self, weights):
        """Give ``self.weights`` the values ``weights`` (numpy arrays, in the same order)."""
        variables = self.weights
        given = weights
        weights = list(weights) if isinstance(weights, (list, tuple)) else None
        if weights is None or len(weights) != len(variables):
            count = f"{describe(given)}, not a list" if weights is None else f"of {len(weights)}"
            raise InvalidArgumentError(
                f'You called `set_weights(weights)` on layer "{self.name}" with weights '
                f"{count}, but the layer was expecting {len(variables)} weights "
                f"({', '.join(v.name for v in variables) or 'it has none yet: call it once'}). "
                "Pass a list of that many arrays in that order (layer.get_weights() gives one "
                "to start from).",
                op="set_weights",
            )
        arrays = []
        for variable, value in zip(variables, weights, strict=True):
            array = np.asarray(value.numpy() if isinstance(value, Tensor) else value)
            if array.shape != tuple(variable.shape):
                raise InvalidArgumentError(
                    f"set_weights: Layer weight shape {tuple(variable.shape)} not compatible with "
                    f"provided weight shape {array.shape} (weight '{variable.name}' of layer "
                    f'"{self.name}"); nothing was changed. Pass arrays of the shapes '
                    "layer.get_weights() has, in that order",
                    op="set_weights",
                )
            if array.dtype.kind not in "biuf":
                raise InvalidArgumentError(
                    f"set_weights: the value for '{variable.name}' holds {array.dtype} data; "
                    "give arrays of numbers",
                    op="set_weights",
                )
            arrays.append(array.astype(variable.dtype.as_numpy_dtype))
        for variable, array in zip(variables, arrays, strict=True):  # all checked: now write
            variable.assign(array)
