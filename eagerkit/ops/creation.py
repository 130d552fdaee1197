"""Making tensors: constants, zeros and ones, ranges, random numbers.

New tensors are made on the current device (``with ek.device(...)``). They have no
inputs, so nothing is recorded: a gradient never flows *into* a constant.
"""

import builtins

import numpy as np

from eagerkit import dtypes
from eagerkit.devices import current_device
from eagerkit.errors import UnimplementedError
from eagerkit.tensor import Tensor, convert_to_tensor, to_array


def _shape(shape):
    if isinstance(shape, Tensor):
        shape = shape.numpy().tolist()
    return (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(n) for n in shape)


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
    tensor = convert_to_tensor(value, dtype=dtype)
    if shape is None:
        return tensor
    shape = _shape(shape)
    xp = tensor._device.xp
    data = tensor._data
    if data.size == 1:
        data = xp.full(shape, data.reshape(()), dtype=data.dtype)
    else:
        data = xp.reshape(data, shape)
    return Tensor(data, tensor._device)


def zeros(shape, dtype=dtypes.float32, name=None):
    """A tensor of zeros (float32 unless told otherwise)."""
    return _new(current_device().xp.zeros(_shape(shape), dtype=_np_dtype(dtype)))


def ones(shape, dtype=dtypes.float32, name=None):
    """A tensor of ones (float32 unless told otherwise).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.ones([2, 3]).shape
    TensorShape([2, 3])
    """
    return _new(current_device().xp.ones(_shape(shape), dtype=_np_dtype(dtype)))


def zeros_like(tensor, dtype=None, name=None):
    """Zeros with the shape (and dtype and device, unless given) of ``tensor``."""
    tensor = convert_to_tensor(tensor)
    np_dtype = tensor._data.dtype if dtype is None else _np_dtype(dtype)
    return Tensor(tensor._device.xp.zeros(tensor.shape, dtype=np_dtype), tensor._device)


def ones_like(tensor, dtype=None, name=None):
    """Ones with the shape (and dtype and device, unless given) of ``tensor``."""
    tensor = convert_to_tensor(tensor)
    np_dtype = tensor._data.dtype if dtype is None else _np_dtype(dtype)
    return Tensor(tensor._device.xp.ones(tensor.shape, dtype=np_dtype), tensor._device)


def fill(dims, value, name=None):
    """A tensor of shape ``dims`` filled with ``value`` (dtype from the value)."""
    np_dtype = dtypes.default_numpy_dtype(value)
    return _new(current_device().xp.full(_shape(dims), value, dtype=np_dtype))


def eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None):
    """The identity matrix (ones on the diagonal)."""
    return _new(current_device().xp.eye(num_rows, num_columns, dtype=_np_dtype(dtype)))


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
    # A scalar tensor argument counts as the Python number it holds (int stays int).
    values = [v.numpy().item() if isinstance(v, Tensor) else v for v in (start, limit, delta)]
    if dtype is None:
        is_float = builtins.any(isinstance(v, float) for v in values)
        dtype = dtypes.float32 if is_float else dtypes.int32
    return _new(current_device().xp.arange(*values, dtype=_np_dtype(dtype)))


def linspace(start, stop, num, name=None):
    """``num`` evenly spaced float32 values from ``start`` to ``stop`` inclusive."""
    return _new(current_device().xp.linspace(start, stop, int(num), dtype=np.float32))


# --- random numbers: one generator per device, reset by set_random_seed --------------------
_generators = {}
_global_seed = [None]


def set_random_seed(seed):
    """Make every random op from now on repeatable (like ``tf.set_random_seed``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.set_random_seed(0); a = ek.random_normal([2])
    >>> ek.set_random_seed(0); b = ek.random_normal([2])
    >>> bool(ek.reduce_all(a == b))
    True
    """
    _global_seed[0] = seed
    _generators.clear()


def _generator(seed):
    from eagerkit.registry import graph_tracers

    if graph_tracers:  # a traced graph would replay the same "random" numbers every call
        raise UnimplementedError(
            "random numbers cannot be drawn inside ek.function: the graph would freeze this "
            "draw and replay the same values on every call. Draw them outside and pass them "
            "in as an argument (e.g. a dropout mask), or call the function eagerly.",
            op="random",
        )
    device = current_device()
    if seed is not None:  # an op-level seed gives a fresh, repeatable stream
        base = _global_seed[0] or 0
        return device.backend.random_generator([base, seed])
    if device.name not in _generators:
        _generators[device.name] = device.backend.random_generator(_global_seed[0])
    return _generators[device.name]


def _as_array(value, np_dtype):
    return to_array(value, np_dtype, current_device(), "random")


def random_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Samples from a normal distribution (float32 unless told otherwise)."""
    np_dtype = _np_dtype(dtype)
    samples = _generator(seed).normal(0.0, 1.0, size=_shape(shape)).astype(np_dtype)
    return _new(samples * _as_array(stddev, np_dtype) + _as_array(mean, np_dtype))


def random_uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Samples uniformly from [minval, maxval) (maxval defaults to 1 for floats)."""
    np_dtype = _np_dtype(dtype)
    generator = _generator(seed)
    if np_dtype.kind in "iu":
        if maxval is None:
            raise ValueError("random_uniform: maxval must be given for integer dtypes")
        return _new(generator.integers(minval, maxval, size=_shape(shape)).astype(np_dtype))
    high = 1.0 if maxval is None else maxval
    samples = generator.uniform(float(minval), float(high), size=_shape(shape))
    return _new(samples.astype(np_dtype))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal samples redrawn until they lie within two standard deviations of the mean."""
    np_dtype = _np_dtype(dtype)
    generator = _generator(seed)
    size = _shape(shape)
    samples = generator.normal(0.0, 1.0, size=size)
    outside = abs(samples) > 2
    while outside.any():  # redraw only the outliers, as TF does
        samples[outside] = generator.normal(0.0, 1.0, size=int(outside.sum()))
        outside = abs(samples) > 2
    return _new(samples.astype(np_dtype) * np_dtype.type(stddev) + np_dtype.type(mean))
