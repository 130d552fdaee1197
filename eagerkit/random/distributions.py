"""The distributions, drawn from a given host generator and copied to the current device.

Who owns the generator (the global seed, an op seed, a ``Generator`` object, a stateless
seed) is decided by the caller; this module only checks the arguments and draws. Drawing on
the host with numpy makes one seed give the same numbers on every device.

Every argument is checked before the first number is drawn, so a call that fails leaves its
generator where it was: the next draw gives what it would have given without the failed
call. (Copying the numbers to a GPU may still fail after the draw: there the generator's
state is kept and put back.)
"""

import contextlib
import math

import numpy as np

from eagerkit import arguments, dtypes
from eagerkit.arguments import size, whole_number
from eagerkit.devices import current_device
from eagerkit.errors import InvalidArgumentError
from eagerkit.limits import check_memory, check_tensor
from eagerkit.tensor import Tensor


def shape_of(shape, op, np_dtype):
    """A shape argument (int, list, tensor) as a tuple of non-negative ints, refused when the
    draw would not fit in memory: samples are drawn in float64 on the host, and the result
    of ``np_dtype`` (and a scaled copy of it) is made beside them."""
    shape = arguments.shape(shape, op, np.float64, what="shape")
    check_memory(
        math.prod(shape) * (8 + 2 * np.dtype(np_dtype).itemsize),
        f"a draw of shape {shape} as {np.dtype(np_dtype).name} (in float64, then cast)",
        op,
        "ask for a smaller shape",
    )
    return shape


def float_dtype(dtype, op):
    """The numpy dtype of a float ``dtype``; other dtypes are refused, as in TF."""
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise InvalidArgumentError(
            f"{op}: dtype must be a float type (float16, float32, float64), got {dtype.name}; "
            "draw floats and cast, or use ek.random.uniform with integer minval/maxval",
            op=op,
        )
    return dtype.as_numpy_dtype


def _host_number(value, op):
    """A bound or parameter (number, list or tensor) as a float64 host array."""
    host = value.numpy() if isinstance(value, Tensor) else arguments.host_array(value, op)
    if host.dtype.kind not in "biuf":
        raise InvalidArgumentError(
            f"{op}: mean, stddev, minval and maxval must be numbers, got "
            f"{type(value).__name__} {value!r}",
            op=op,
        )
    return host.astype(np.float64)


def _scale_and_shift(shape, mean, stddev, np_dtype, op):
    """``(stddev, mean)`` as arrays of ``np_dtype`` that broadcast against ``shape``."""
    scale = _host_number(stddev, op).astype(np_dtype)
    shift = _host_number(mean, op).astype(np_dtype)
    _check_broadcast(shape, ("mean", shift), ("stddev", scale), op=op)
    return scale, shift


def _check_broadcast(shape, *named, op):
    """Each ``(name, array)`` in ``named`` must broadcast against the shape drawn."""
    try:
        np.broadcast_shapes(shape, *(array.shape for _, array in named))
    except ValueError:
        given = " and ".join(f"{name} (shape {array.shape})" for name, array in named)
        raise InvalidArgumentError(
            f"{op}: {given} must broadcast to the shape drawn, {shape}", op=op
        ) from None


@contextlib.contextmanager
def _drawing(source, device):
    """The generator to draw from: ``source`` itself, or ``source()`` for one made on first
    use (a stream is made only once the arguments are known to be good). Where a step after
    the draw can fail (a copy to a GPU), its state is kept and put back on failure."""
    generator = source() if callable(source) else source
    if device.name == "/cpu:0":  # on the host nothing after the draw can fail
        yield generator
        return
    state = generator.bit_generator.state
    try:
        yield generator
    except BaseException:
        generator.bit_generator.state = state
        raise


def _on_device(samples, np_dtype, device, scale=None, shift=None):
    """Host samples as a tensor on ``device``: ``samples * scale + shift``."""
    if scale is not None:
        samples = samples.astype(np_dtype) * scale + shift
    return Tensor(device.backend.asarray(samples.astype(np_dtype, copy=False)), device)


def normal(source, shape, mean, stddev, dtype, op):
    np_dtype = float_dtype(dtype, op)
    shape = shape_of(shape, op, np_dtype)
    scale, shift = _scale_and_shift(shape, mean, stddev, np_dtype, op)
    device = current_device()
    with _drawing(source, device) as generator:  # everything is checked: now draw
        return _on_device(generator.standard_normal(shape), np_dtype, device, scale, shift)


def truncated_normal(source, shape, mean, stddev, dtype, op):
    np_dtype = float_dtype(dtype, op)
    shape = shape_of(shape, op, np_dtype)
    scale, shift = _scale_and_shift(shape, mean, stddev, np_dtype, op)
    device = current_device()
    with _drawing(source, device) as generator:
        samples = generator.standard_normal(shape)
        outside = np.abs(samples) > 2
        while outside.any():  # redraw only the outliers, as TF does
            samples[outside] = generator.standard_normal(int(outside.sum()))
            outside = np.abs(samples) > 2
        return _on_device(samples, np_dtype, device, scale, shift)


def uniform(source, shape, minval, maxval, dtype, op):
    dtype = dtypes.as_dtype(dtype)
    shape = shape_of(shape, op, dtype.as_numpy_dtype)
    device = current_device()
    if dtype.is_integer:
        if maxval is None:
            raise InvalidArgumentError(
                f"{op}: integer dtype {dtype.name} needs maxval (and minval): the range of "
                "whole numbers to draw from, e.g. ek.random.uniform([3], 0, 10, ek.int32)",
                op=op,
            )
        low, high = (whole_number(v, "minval and maxval", op) for v in (minval, maxval))
        if low >= high:
            raise InvalidArgumentError(f"{op}: need minval < maxval, got {low}, {high}", op=op)
        info = np.iinfo(dtype.as_numpy_dtype)
        if low < info.min or high - 1 > info.max:  # else the draw would wrap around
            raise InvalidArgumentError(
                f"{op}: [minval, maxval) = [{low}, {high}) does not fit in {dtype.name}",
                op=op,
            )
        with _drawing(source, device) as generator:
            samples = generator.integers(low, high, size=shape)
            return _on_device(samples, dtype.as_numpy_dtype, device)
    np_dtype = float_dtype(dtype, op)
    low, high = _host_number(minval, op), _host_number(1.0 if maxval is None else maxval, op)
    _check_broadcast(shape, ("minval", low), ("maxval", high), op=op)
    if np.any(low > high):
        raise InvalidArgumentError(
            f"{op}: minval must not exceed maxval, got minval {low.tolist()} and maxval "
            f"{high.tolist()}; swap them",
            op=op,
        )
    with _drawing(source, device) as generator:
        samples = generator.uniform(low, high, size=shape)  # drawn in float64, then cast
        return _on_device(samples, np_dtype, device)


def categorical(source, logits, num_samples, dtype, op):
    """``num_samples`` class indices per row of ``logits`` ([batch, classes], unnormalized)."""
    from eagerkit.tensor import convert_to_tensor

    logits = convert_to_tensor(logits)
    dtype = dtypes.as_dtype(dtype)
    kinds_ok = logits.dtype.is_floating and dtype.name in ("int32", "int64")
    if logits.ndim != 2 or not logits.shape[1] or not kinds_ok:
        raise InvalidArgumentError(
            f"{op}: logits must be a float matrix [batch, classes >= 1] and dtype int32 or int64; "
            f"got {logits.dtype.name} logits of shape {logits.shape} and dtype {dtype.name}",
            op=op,
        )
    count = size(num_samples, "num_samples", op)
    check_tensor((logits.shape[0], count), 8, op)  # the float64 uniforms, before numpy
    host = logits.numpy().astype(np.float64)
    # Inverse CDF: a uniform number in [0, 1) picks the class whose cumulative share covers it.
    weights = np.exp(host - host.max(axis=1, keepdims=True))
    cumulative = np.cumsum(weights, axis=1) / weights.sum(axis=1, keepdims=True)
    with _drawing(source, logits._device) as generator:
        uniforms = generator.random((host.shape[0], count))
        rows = [
            np.searchsorted(c, u, side="right") for c, u in zip(cumulative, uniforms, strict=True)
        ]
        picks = np.minimum(np.array(rows, np.int64).reshape(-1, count), host.shape[1] - 1)
        return _on_device(picks, dtype.as_numpy_dtype, logits._device)


def full_int(source, shape, dtype, op):
    """Integers over the whole range of ``dtype`` (int32 or int64)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype.name not in ("int32", "int64"):
        raise InvalidArgumentError(
            f"{op}: dtype must be int32 or int64, got {dtype.name}; for floats or a smaller "
            "range use uniform",
            op=op,
        )
    np_dtype = dtype.as_numpy_dtype
    shape = shape_of(shape, op, np_dtype)
    info = np.iinfo(np_dtype)
    device = current_device()
    with _drawing(source, device) as generator:
        samples = generator.integers(info.min, info.max, size=shape, dtype=np_dtype, endpoint=True)
        return _on_device(samples, np_dtype, device)
