"""Making tensors: constants, zeros and ones, ranges, random numbers.

New tensors are made on the current device (``with ek.device(...)``). They have no
inputs, so nothing is recorded: a gradient never flows *into* a constant.
"""

import builtins
import math
import numbers

import numpy as np

from eagerkit import arguments, dtypes, recording
from eagerkit.arguments import size, whole_number
from eagerkit.devices import CPU, current_device
from eagerkit.errors import InvalidArgumentError
from eagerkit.graph.dynamic_ops import follows_inputs
from eagerkit.limits import check_memory, check_tensor
from eagerkit.tensor import Tensor, constant_of, convert_to_tensor


def _shape(shape, op="shape", dtype=dtypes.float32):
    """A shape argument (int, list, array, tensor) as a tuple of non-negative ints, for a
    tensor that fits in memory."""
    return arguments.shape(shape, op, _np_dtype(dtype))


def _new(array):
    return Tensor(array, current_device())


def _np_dtype(dtype, default=dtypes.float32):
    return dtypes.as_dtype(default if dtype is None else dtype).as_numpy_dtype


def constant(value, dtype=None, shape=None, name=None):
    """A tensor holding ``value`` (TF's dtype rules: 3.0 is float32, 3 is int32).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.constant([[1, 2], [3, 4]])
    <ek.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[1, 2],
           [3, 4]], dtype=int32)>
    >>> ek.constant(0.0, shape=[2])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0., 0.], dtype=float32)>
    """
    if isinstance(value, Tensor):
        tensor = convert_to_tensor(value, dtype=dtype)
    else:  # a list holding tensors is read, not packed: TF's constant is not differentiable
        tensor = constant_of(value, dtype)
    if shape is None:
        return tensor
    shape = _shape(shape, "constant")
    xp = tensor._device.xp
    data = tensor._data
    if data.size == 1:
        data = xp.full(shape, data.reshape(()), dtype=data.dtype)
    else:
        data = xp.reshape(data, shape)
    return Tensor(data, tensor._device)


@follows_inputs  # inside ek.function: recomputed from each call's tensors
def zeros(shape, dtype=dtypes.float32, name=None):
    """A tensor of zeros (float32 unless told otherwise); of a string dtype, empty strings.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.zeros([2], dtype=ek.string)  # TF's zero string is b''
    <ek.Tensor: shape=(2,), dtype=string, numpy=array([b'', b''], dtype=object)>
    """
    return _filled(_shape(shape, "zeros", dtype), _np_dtype(dtype), 0, current_device(), "zeros")


@follows_inputs  # inside ek.function: recomputed from each call's tensors
def ones(shape, dtype=dtypes.float32, name=None):
    """A tensor of ones (float32 unless told otherwise); strings have no 1, as in TF.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.ones([2, 3]).shape
    TensorShape([2, 3])
    """
    return _filled(_shape(shape, "ones", dtype), _np_dtype(dtype), 1, current_device(), "ones")


@follows_inputs  # inside ek.function: recomputed from each call's tensors
def zeros_like(tensor, dtype=None, name=None):
    """Zeros with the shape (and dtype and device, unless given) of ``tensor``."""
    tensor = convert_to_tensor(tensor)
    np_dtype = tensor._data.dtype if dtype is None else _np_dtype(dtype)
    return _filled(tensor.shape, np_dtype, 0, tensor._device, "zeros_like")


@follows_inputs  # inside ek.function: recomputed from each call's tensors
def ones_like(tensor, dtype=None, name=None):
    """Ones with the shape (and dtype and device, unless given) of ``tensor``."""
    tensor = convert_to_tensor(tensor)
    np_dtype = tensor._data.dtype if dtype is None else _np_dtype(dtype)
    return _filled(tensor.shape, np_dtype, 1, tensor._device, "ones_like")


def _filled(shape, np_dtype, one_or_zero, device, op):
    """A new tensor of ``shape`` holding 0 or 1 of ``np_dtype``; strings hold b'' (for 0)."""
    if np_dtype.kind != "O":
        make = device.xp.ones if one_or_zero else device.xp.zeros
        return Tensor(make(shape, dtype=np_dtype), device)
    if one_or_zero:
        raise InvalidArgumentError(
            f"{op}: a string tensor has no 'one' (TF: Expected string, got 1 of type 'int'); "
            f"use ek.fill(shape, b'text') for a string tensor, or zeros for empty strings",
            op=op,
        )
    return Tensor(CPU.xp.full(shape, b"", dtype=object), CPU)  # strings live on the host


@follows_inputs  # inside ek.function: recomputed from each call's tensors
def fill(dims, value, name=None):
    """A tensor of shape ``dims`` filled with the scalar ``value`` (dtype from the value).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.fill([2], 7)
    <ek.Tensor: shape=(2,), dtype=int32, numpy=array([7, 7], dtype=int32)>
    """
    dims = arguments.shape(dims, "fill", what="dims")
    try:
        value = convert_to_tensor(value)
    except TypeError as error:  # an object array, a dict: not a value a tensor can hold
        raise InvalidArgumentError(f"fill: {error}", op="fill") from None
    if value.ndim:
        raise InvalidArgumentError(
            f"fill: value must be a scalar, got shape {value.shape}; to repeat a tensor use "
            "ek.tile or ek.broadcast_to",
            op="fill",
        )
    return Tensor(value._device.xp.full(dims, value._data, dtype=value._data.dtype), value._device)


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """The identity matrix (ones on the diagonal), ``num_rows`` by ``num_columns`` (default
    square); with ``batch_shape``, a batch of them: shape ``batch_shape + [rows, columns]``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.eye(2, num_columns=3).numpy()
    array([[1., 0., 0.],
           [0., 1., 0.]], dtype=float32)
    >>> ek.eye(2, batch_shape=[3]).shape
    TensorShape([3, 2, 2])
    """
    rows = size(num_rows, "num_rows", "eye")
    columns = rows if num_columns is None else size(num_columns, "num_columns", "eye")
    batch = () if batch_shape is None else _batch_shape(batch_shape, dtype)
    check_tensor((*batch, rows, columns), _np_dtype(dtype).itemsize, "eye")
    xp = current_device().xp
    matrix = xp.eye(rows, columns, dtype=_np_dtype(dtype))
    if not batch:
        return _new(matrix)
    return _new(xp.broadcast_to(matrix, (*batch, rows, columns)).copy())  # its own memory


def _batch_shape(batch_shape, dtype):
    """eye's ``batch_shape``: a list of sizes (TF: a 1-D int tensor or list)."""
    if (
        isinstance(batch_shape, Tensor)
        and batch_shape.ndim != 1
        or isinstance(batch_shape, numbers.Number)
    ):
        raise InvalidArgumentError(
            f"eye: batch_shape must be a list of sizes (e.g. [3]), got "
            f"{arguments.describe(batch_shape)}; the result has shape batch_shape + "
            "[num_rows, num_columns]",
            op="eye",
        )
    return arguments.shape(batch_shape, "eye", _np_dtype(dtype), what="batch_shape")


def range(start, limit=None, delta=1, dtype=None, name=None):  # noqa: A001 - TF's name
    """Numbers from ``start`` up to (not including) ``limit`` in steps of ``delta``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.range(3)
    <ek.Tensor: shape=(3,), dtype=int32, numpy=array([0, 1, 2], dtype=int32)>
    """
    if limit is None:
        start, limit = 0, start
    original = (start, limit, delta)
    traced = recording.graph_tracers and builtins.any(
        isinstance(v, Tensor) for v in (start, limit, delta)
    )
    # A scalar tensor argument counts as the Python number it holds (int stays int).
    values = [v._data.item() if isinstance(v, Tensor) else v for v in (start, limit, delta)]
    if not builtins.all(isinstance(v, (int, float, np.number)) for v in values):
        raise InvalidArgumentError(
            f"range: start, limit and delta must be numbers, got {values}", op="range"
        )
    if not builtins.all(math.isfinite(v) for v in values):
        raise InvalidArgumentError(
            f"range: start, limit and delta must be finite, got start={values[0]}, "
            f"limit={values[1]}, delta={values[2]}; pass e.g. ek.range(0, 10, 2)",
            op="range",
        )
    if dtype is None:  # TF's rule: ints are int32 unless one needs int64; any float: float32
        dtype = dtypes.as_dtype(dtypes.default_numpy_dtype(values))
    dtype = dtypes.as_dtype(dtype)
    if dtype.is_integer:
        values = [_fits(v, dtype) for v in values]
    start, limit, delta = values
    if delta == 0 or (limit - start) * delta < 0:
        direction = "delta != 0" if delta == 0 else "start <= limit when delta > 0"
        if delta < 0:
            direction = "start >= limit when delta < 0"
        raise InvalidArgumentError(
            f"range: requires {direction}, got start={start}, limit={limit}, delta={delta}",
            op="range",
        )
    count = math.ceil((limit - start) / delta)
    check_memory(
        count * dtype.as_numpy_dtype.itemsize,
        f"{count:,} numbers from start={start} to limit={limit} by delta={delta}",
        "range",
        "ask for a smaller limit or a larger delta",
    )
    value = _new(current_device().xp.arange(start, limit, delta, dtype=dtype.as_numpy_dtype))
    if traced:  # inside ek.function: the bounds are read at every call (graph/dynamic_ops.py)
        from eagerkit.graph.dynamic_ops import traced_range

        return traced_range(*original, value)
    return value


def _fits(value, dtype):
    """An argument of an integer range: a whole number within the dtype's bounds."""
    value = whole_number(value, "start, limit and delta", "range")
    bounds = np.iinfo(dtype.as_numpy_dtype)
    if not bounds.min <= value <= bounds.max:
        raise InvalidArgumentError(
            f"range: {value} does not fit in {dtype.name} ({bounds.min} to {bounds.max}); "
            "use a wider dtype, e.g. dtype=ek.int64",
            op="range",
        )
    return value


# --- random numbers: TF1's names for ek.random's ops (see eagerkit/random/) -----------------
from eagerkit.random import normal as random_normal  # noqa: E402, F401
from eagerkit.random import set_seed as set_random_seed  # noqa: E402, F401
from eagerkit.random import truncated_normal  # noqa: E402, F401
from eagerkit.random import uniform as random_uniform  # noqa: E402, F401
