"""Keras' layers that move values without computing: ``RepeatVector`` (each sample's vector
``n`` times, ``[batch, features] -> [batch, n, features]``) and ``Permute`` (reorder the axes
after the batch axis).

Examples
--------
>>> import eagerkit as ek
>>> ek.keras.layers.RepeatVector(3)(ek.zeros([2, 5])).shape
TensorShape([2, 3, 5])
"""

import numbers

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.layers.base import Layer, check_rank
from eagerkit.ops.reshaping import expand_dims, transpose
from eagerkit.ops.shape import tile


class RepeatVector(Layer):
    """Repeat each sample's vector ``n`` times: ``[batch, features] -> [batch, n, features]``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.layers.RepeatVector(2)(ek.constant([[1.0, 2.0]])).numpy().tolist()
    [[[1.0, 2.0], [1.0, 2.0]]]
    """

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(n, numbers.Integral) or isinstance(n, bool):
            raise TypeError(f"RepeatVector: expected an integer value for n, got {n!r}")
        if n <= 0:
            raise InvalidArgumentError(
                f"RepeatVector: n should be a positive integer, got n={n}", op=self.name
            )
        self.n = int(n)

    def call(self, inputs):
        check_rank(self, inputs.shape, 2, "[batch, features]")
        return tile(expand_dims(inputs, 1), [1, self.n, 1])


class Permute(Layer):
    """Reorder the axes after the batch axis: ``dims`` counts them from 1, so
    ``Permute((2, 1))`` turns ``[batch, steps, features]`` into ``[batch, features, steps]``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.layers.Permute((2, 1))(ek.zeros([4, 10, 64])).shape
    TensorShape([4, 64, 10])
    """

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        try:
            dims = tuple(dims)
        except TypeError:
            dims = None
        whole = dims is not None and all(
            isinstance(d, numbers.Integral) and not isinstance(d, bool) for d in dims
        )
        if not whole or sorted(dims) != list(range(1, len(dims) + 1)):
            raise InvalidArgumentError(
                f"Permute: invalid permutation dims={dims!r}; the indices must be consecutive "
                "and start from 1 (the batch axis is not counted), e.g. (2, 1)",
                op=self.name,
            )
        self.dims = dims

    def call(self, inputs):
        check_rank(self, inputs.shape, len(self.dims) + 1, f"[batch, {len(self.dims)} axes]")
        return transpose(inputs, (0, *self.dims))

    def get_config(self):
        return {**super().get_config(), "dims": list(self.dims)}  # JSON-able
