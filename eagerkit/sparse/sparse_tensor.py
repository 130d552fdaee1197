"""SparseTensor: the nonzero values of a tensor and where they are, as ``tf.sparse.SparseTensor``.

``indices`` (int64, one row per value), ``values`` and ``dense_shape`` (int64) are Tensors.
The indices are integers and get no gradient; ``values`` is an ordinary Tensor, so a tape
watching it sees every op that uses it (``to_dense`` and ``sparse_dense_matmul`` are
gathers and segment sums of the values).

Examples
--------
>>> import eagerkit as ek
>>> st = ek.sparse.SparseTensor(indices=[[0, 3], [2, 4]], values=[10, 20], dense_shape=[3, 10])
>>> st.shape, st.values
(TensorShape([3, 10]), <ek.Tensor: shape=(2,), dtype=int32, numpy=array([10, 20], dtype=int32)>)
"""

import numpy as np

from eagerkit import errors
from eagerkit.arguments import describe
from eagerkit.boundary import public_method
from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import Tensor, convert_to_tensor
from eagerkit.tensor_shape import TensorShape


class SparseTensor:
    """A tensor given by its nonzero ``values`` at ``indices``, of shape ``dense_shape``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> st = ek.sparse.SparseTensor([[0, 0], [1, 2]], [1, 2], [3, 4])
    >>> print(ek.sparse.to_dense(st))
    ek.Tensor(
    [[1 0 0 0]
     [0 0 2 0]
     [0 0 0 0]], shape=(3, 4), dtype=int32)
    """

    _dispatch_kind = "sparse"  # type_dispatch.py
    __hash__ = None

    def __init__(self, indices, values, dense_shape):
        indices = _int64(indices, "indices")
        shape = _int64(dense_shape, "dense_shape")
        values = values if isinstance(values, Tensor) else convert_to_tensor(values)
        if indices.ndim != 2 and not (indices.ndim == 1 and indices.size == 0):
            raise InvalidArgumentError(
                f"SparseTensor: indices must be a matrix (one row per value), got shape "
                f"{indices.shape}",
                op="SparseTensor",
            )
        indices = indices.reshape(-1, shape.size) if indices.size == 0 else indices
        if shape.ndim != 1 or indices.shape[1] != shape.size:
            raise InvalidArgumentError(
                f"SparseTensor: each index must have {shape.size} coordinates (the rank of "
                f"dense_shape {shape.tolist()}), got indices of shape {indices.shape}",
                op="SparseTensor",
            )
        if values.ndim != 1 or values.shape[0] != indices.shape[0]:
            raise InvalidArgumentError(
                f"SparseTensor: values must be a vector with one value per index: indices "
                f"has {indices.shape[0]} rows, values {describe(values)}",
                op="SparseTensor",
            )
        if np.any(shape < 0) or np.any(indices < 0) or np.any(indices >= shape):
            raise InvalidArgumentError(
                f"SparseTensor: every index must lie inside dense_shape {shape.tolist()}",
                op="SparseTensor",
            )
        self._indices, self._values, self._shape = indices, values, shape

    @property
    def indices(self):
        """Where each value is: an int64 matrix, one row per value."""
        return Tensor(self._indices)

    @property
    def values(self):
        """The values, one per index."""
        return self._values

    @property
    def dense_shape(self):
        """The shape of the dense tensor it stands for (int64)."""
        return Tensor(self._shape)

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def shape(self):
        return TensorShape(self._shape.tolist())

    @property
    def ndim(self):
        return self._shape.size

    def get_shape(self):
        return self.shape

    def with_values(self, new_values):
        """The same indices and shape around ``new_values``."""
        values = new_values if isinstance(new_values, Tensor) else convert_to_tensor(new_values)
        if values.shape != self._values.shape:
            raise InvalidArgumentError(
                f"with_values: new_values must hold one value per index (shape "
                f"{list(self._values.shape)}), got {describe(new_values)}",
                op="with_values",
            )
        return SparseTensor(self._indices, values, self._shape)

    def __repr__(self):
        # str(): an f-string would format each Tensor as its bare numpy value
        return (
            f"SparseTensor(indices={str(self.indices)}, values={str(self.values)}, "
            f"dense_shape={str(self.dense_shape)})"
        )

    __str__ = __repr__

    def __mul__(self, other):
        """Times a scalar or a dense tensor (broadcast), elementwise: still sparse."""
        return self.with_values(self._values * _at_indices(self, other))

    __rmul__ = __mul__

    def __truediv__(self, other):
        return self.with_values(self._values / _at_indices(self, other))

    def __neg__(self):
        return self.with_values(-self._values)

    def __bool__(self):
        raise errors.type_error(
            "bool: a SparseTensor has no truth value; compare its values instead "
            "(ek.reduce_any(st.values))",
            op="bool",
        )


# The operators are methods written here, not ops: put them inside the error boundary, so a
# bad operand fails naming the op (SparseTensor.multiply), as a Tensor's operators do.
for _symbol, _op in {"mul": "multiply", "rmul": "multiply", "truediv": "truediv"}.items():
    setattr(
        SparseTensor, f"__{_symbol}__", public_method(vars(SparseTensor)[f"__{_symbol}__"], _op)
    )
SparseTensor.__neg__ = public_method(SparseTensor.__neg__, "negative")


def _at_indices(st, other):
    """``other`` (a scalar, or a tensor broadcast to the dense shape) at ``st``'s indices."""
    from eagerkit.ops.indexing import gather
    from eagerkit.ops.shape import broadcast_to, reshape

    if not isinstance(other, Tensor) and np.ndim(other) == 0:
        return other
    if not isinstance(other, Tensor):
        other = convert_to_tensor(other, dtype=st.dtype, device=st.values._device)
    dense = broadcast_to(other, tuple(st._shape.tolist()))
    return gather(reshape(dense, (-1,)), linear_index(st._indices, st._shape))


def linear_index(indices, shape):
    """Each index's position in the dense tensor read in row-major order (int64)."""
    if indices.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    return np.ravel_multi_index(tuple(indices.T), tuple(shape)).astype(np.int64)


def _int64(value, what):
    if isinstance(value, Tensor):
        value = value.numpy()
    try:
        array = np.asarray(value)
    except ValueError:
        array = None
    if array is None or (array.size and array.dtype.kind not in "iu"):
        raise InvalidArgumentError(
            f"SparseTensor: {what} must be integers, got {value!r}", op="SparseTensor"
        )
    return array.astype(np.int64)
