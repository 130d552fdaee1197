"""``ek.sparse``'s functions: to and from dense, products, sums, reordering, joining.

Each is written with ordinary ops on ``values`` (gather, unsorted_segment_sum, multiply),
so gradients with respect to the values (and the dense operand of a product) come from
those ops' VJPs, with no gradient code here. Indices are worked out on the host.

Examples
--------
>>> import eagerkit as ek
>>> st = ek.sparse.SparseTensor(indices=([0, 1], [1, 0], [1, 1]), values=[13, 15, 17],
...                             dense_shape=(2, 2))
>>> print(ek.sparse.sparse_dense_matmul(st, ek.constant([[4], [6]])))
ek.Tensor(
[[ 78]
 [162]], shape=(2, 1), dtype=int32)
"""

import numpy as np

from eagerkit.arguments import axis_index, describe, sizes
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.complex import conj
from eagerkit.ops.indexing import gather
from eagerkit.ops.reduce import reduce_max as dense_reduce_max
from eagerkit.ops.reduce import reduce_sum as dense_reduce_sum
from eagerkit.ops.segment import unsorted_segment_sum
from eagerkit.ops.shape import concat as dense_concat
from eagerkit.ops.shape import expand_dims, reshape
from eagerkit.ops.shape import transpose as dense_transpose
from eagerkit.sparse.sparse_tensor import SparseTensor, linear_index
from eagerkit.tensor import Tensor, convert_to_tensor


def _checked(value, op, what="sp_input"):
    """``value`` if it is a SparseTensor; else an error naming the argument and the way in."""
    if not isinstance(value, SparseTensor):
        raise InvalidArgumentError(
            f"sparse.{op}: {what}: expected an ek.sparse.SparseTensor, got {describe(value)}; "
            "make one with ek.sparse.from_dense(x) or ek.SparseTensor(indices, values, "
            "dense_shape)",
            op=op,
        )
    return value


def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense tensor: the values at their indices, ``default_value`` (0) elsewhere."""
    st = _checked(sp_input, "to_dense")
    shape = tuple(st._shape.tolist())
    size = int(np.prod(shape))
    where = linear_index(st._indices, st._shape)
    if len(np.unique(where)) != len(where) and validate_indices:
        raise InvalidArgumentError(
            "sparse.to_dense: some index appears twice; combine the values first "
            "(ek.sparse.add, or ek.sparse.reorder and a segment sum)",
            op="to_dense",
        )
    if default_value is None:
        default_value = b"" if st.dtype.is_string else 0
    fill = convert_to_tensor(default_value, dtype=st.dtype, device=st.values._device)
    if st.dtype.is_string or st.dtype.is_bool:  # no sums of text: placed on the host
        array = np.full(size, fill.numpy(), dtype=st.dtype.as_numpy_dtype)
        array[where] = st.values.numpy()
        return convert_to_tensor(array.reshape(shape), dtype=st.dtype)
    # The values summed into their places (a gather's VJP, so gradients reach the values).
    placed = unsorted_segment_sum(st.values, where, size)
    empty = np.ones(size, dtype=st.dtype.as_numpy_dtype)
    empty[where] = 0
    empty = convert_to_tensor(empty, device=st.values._device)  # 1 where no value is
    return reshape(placed + fill * empty, shape)


def from_dense(tensor, name=None):
    """The nonzero entries of a dense tensor, as a SparseTensor (in row-major order)."""
    tensor = tensor if isinstance(tensor, Tensor) else convert_to_tensor(tensor)
    array = tensor.numpy()
    zero = b"" if tensor.dtype.is_string else 0
    indices = np.argwhere(np.asarray(array) != zero).astype(np.int64)
    shape = np.asarray(tensor.shape, dtype=np.int64)
    values = gather(reshape(tensor, (-1,)), linear_index(indices, shape))
    return SparseTensor(indices, values, shape)


def reorder(sp_input, name=None):
    """The same tensor with its indices in row-major (lexicographic) order."""
    st = _checked(sp_input, "reorder")
    order = np.argsort(linear_index(st._indices, st._shape), kind="stable")
    return SparseTensor(st._indices[order], gather(st.values, order), st._shape)


def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """``sp_a @ b`` for a 2-D SparseTensor and a dense matrix (adjoint: conjugate transpose).

    Gradients flow to ``b`` and to ``sp_a.values``: the product is gather, multiply and a
    segment sum, each with its VJP.
    """
    st = _checked(sp_a, "sparse_dense_matmul", "sp_a")
    b = b if isinstance(b, Tensor) else convert_to_tensor(b, dtype=st.dtype)
    if st.ndim != 2 or b.ndim != 2:
        raise InvalidArgumentError(
            f"sparse.sparse_dense_matmul: sp_a and b must be matrices (rank 2), got rank "
            f"{st.ndim} and rank {b.ndim} (b: {describe(b)}); reshape them to 2-D",
            op="sparse_dense_matmul",
        )
    rows, columns = st._indices[:, 0], st._indices[:, 1]
    nrows, inner = (int(n) for n in st._shape)
    values = st.values
    if adjoint_a:
        rows, columns, nrows, inner = columns, rows, inner, nrows
        values = conj(values)
    if adjoint_b:
        b = conj(dense_transpose(b))
    if b.shape[0] != inner:
        raise InvalidArgumentError(
            f"sparse.sparse_dense_matmul: inner dimensions differ: sp_a has {inner} columns "
            f"and b ({describe(b)}) {b.shape[0]} rows; they must be equal (transpose one with "
            "adjoint_a/adjoint_b?)",
            op="sparse_dense_matmul",
        )
    if b.shape[1] == 0:  # no columns: nothing to sum
        return convert_to_tensor(np.zeros((nrows, 0), st.dtype.as_numpy_dtype))
    products = gather(b, columns) * expand_dims(values, 1)
    return unsorted_segment_sum(products, rows, nrows)


def add(a, b, threshold=0, name=None):
    """``a + b``: two SparseTensors give a SparseTensor (indices merged, values summed;
    sums smaller than ``threshold`` in magnitude dropped); a dense operand, a dense tensor."""
    if not isinstance(a, SparseTensor):
        a, b = b, a
    st = _checked(a, "add", "a or b")
    threshold = _threshold(threshold)
    if not isinstance(b, SparseTensor):
        return to_dense(st) + b
    if st._shape.tolist() != b._shape.tolist():
        raise InvalidArgumentError(
            f"sparse.add: shapes differ: {st._shape.tolist()} and {b._shape.tolist()}; a and b "
            "must have one dense_shape",
            op="add",
        )
    where = np.concatenate(
        [linear_index(st._indices, st._shape), linear_index(b._indices, b._shape)]
    )
    places, slot = np.unique(where, return_inverse=True)
    values = unsorted_segment_sum(dense_concat([st.values, b.values], axis=0), slot, len(places))
    indices = np.stack(np.unravel_index(places, tuple(st._shape)), axis=1).astype(np.int64)
    result = SparseTensor(indices.reshape(-1, st.ndim), values, st._shape)
    if threshold:
        keep = np.flatnonzero(np.abs(values.numpy()) >= threshold)
        result = SparseTensor(result._indices[keep], gather(values, keep), st._shape)
    return result


def _threshold(threshold):
    """A number (sums smaller in magnitude are dropped): never text, a list or None."""
    if isinstance(threshold, Tensor) and threshold.ndim == 0 and not threshold.dtype.is_string:
        return threshold.numpy()
    if isinstance(threshold, (int, float, np.integer, np.floating)):
        return threshold
    raise InvalidArgumentError(
        f"sparse.add: threshold must be a number (e.g. 0.01), got {describe(threshold)}",
        op="add",
    )


def reduce_sum(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The sum of the values over ``axis`` (all of them when None): a dense tensor."""
    st = _checked(sp_input, "reduce_sum")
    if axis is None:
        total = dense_reduce_sum(st.values)
        return from_dense(total) if output_is_sparse else total
    total = dense_reduce_sum(to_dense(st), axis=axis, keepdims=bool(keepdims))
    return from_dense(total) if output_is_sparse else total


def reduce_max(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The largest *stored* value over ``axis`` (TF: implicit zeros do not count)."""
    st = _checked(sp_input, "reduce_max")
    if axis is None:
        return dense_reduce_max(st.values)
    lowest = np.finfo if st.dtype.is_floating else np.iinfo
    dense = to_dense(st, default_value=lowest(st.dtype.as_numpy_dtype).min)
    result = dense_reduce_max(dense, axis=axis, keepdims=bool(keepdims))
    return from_dense(result) if output_is_sparse else result


def concat(axis, sp_inputs, name=None, expand_nonconcat_dims=False):
    """SparseTensors joined along ``axis`` (their other dimensions equal), reordered."""
    if not isinstance(sp_inputs, (list, tuple)) or not sp_inputs:
        raise InvalidArgumentError(
            f"sparse.concat: sp_inputs must be a non-empty list of ek.SparseTensors, got "
            f"{describe(sp_inputs)}",
            op="concat",
        )
    inputs = [_checked(st, "concat", "each of sp_inputs") for st in sp_inputs]
    rank = inputs[0].ndim
    axis = axis_index(axis, rank, "sparse.concat")
    others = {tuple(np.delete(st._shape, axis).tolist()) for st in inputs}
    if len(others) > 1:
        raise InvalidArgumentError(
            f"sparse.concat: sp_inputs must have equal dense_shapes but for axis {axis}, got "
            f"{[st._shape.tolist() for st in inputs]}",
            op="concat",
        )
    offset, indices = 0, []
    for st in inputs:
        shifted = st._indices.copy()
        shifted[:, axis] += offset
        indices.append(shifted)
        offset += int(st._shape[axis])
    shape = inputs[0]._shape.copy()
    shape[axis] = offset
    values = dense_concat([st.values for st in inputs], axis=0)
    return reorder(SparseTensor(np.concatenate(indices), values, shape))


def slice(sp_input, start, size, name=None):  # noqa: A001 - TF's name
    """The entries inside the box ``start`` .. ``start + size`` (cut at the dense shape)."""
    st = _checked(sp_input, "slice")
    # (clipped to the shape's range first: a huge start or size reaches past it all the same)
    start, size = (
        np.array([min(n, 2**62) for n in sizes(v, what, "sparse.slice", minimum=0)], np.int64)
        for v, what in ((start, "start"), (size, "size"))
    )
    if start.shape != st._shape.shape or size.shape != st._shape.shape:
        raise InvalidArgumentError(
            f"sparse.slice: start and size need one entry per dimension ({st.ndim}), got "
            f"{start.tolist()} and {size.tolist()}",
            op="slice",
        )
    stop = np.minimum(start + size, st._shape)
    inside = np.all((st._indices >= start) & (st._indices < stop), axis=1)
    keep = np.flatnonzero(inside)
    shape = np.maximum(stop - start, 0)
    return SparseTensor(st._indices[keep] - start, gather(st.values, keep), shape)


def transpose(sp_input, perm=None, name=None):
    """The dimensions permuted (reversed when ``perm`` is None), reordered."""
    st = _checked(sp_input, "transpose")
    perm = list(range(st.ndim))[::-1] if perm is None else list(sizes(perm, "perm", "transpose"))
    if sorted(perm) != list(range(st.ndim)):
        raise InvalidArgumentError(
            f"sparse.transpose: perm {perm} is not a permutation of the {st.ndim} dimensions; "
            f"give each of 0 .. {st.ndim - 1} once",
            op="transpose",
        )
    return reorder(SparseTensor(st._indices[:, perm], st.values, st._shape[perm]))


def map_values(op, *args, **kwargs):
    """``op`` applied to the values of the SparseTensors among the arguments (which must
    share their indices); the answer has those indices."""
    template = next((a for a in (*args, *kwargs.values()) if isinstance(a, SparseTensor)), None)
    if template is None:
        raise InvalidArgumentError(
            f"sparse.map_values: no SparseTensor among the arguments {describe(list(args))}; "
            "pass op, then at least one ek.SparseTensor",
            op="map_values",
        )

    def values(value):
        if not isinstance(value, SparseTensor):
            return value
        if not np.array_equal(value._indices, template._indices):
            raise InvalidArgumentError(
                "sparse.map_values: the SparseTensors must have the same indices (use "
                "ek.sparse.add or ek.sparse.to_dense to combine others)",
                op="map_values",
            )
        return value.values

    result = op(*map(values, args), **{k: values(v) for k, v in kwargs.items()})
    if not isinstance(result, Tensor) or result.shape != template.values.shape:
        raise InvalidArgumentError(
            f"sparse.map_values: op {describe(op)} must return one value per stored value "
            f"(shape {list(template.values.shape)}), got {describe(result)}",
            op="map_values",
        )
    return template.with_values(result)
