"""``ek.linspace``: evenly spaced values, with TF's dtype rules (``tf.linspace``)."""

import numpy as np

from eagerkit import arguments, dtypes
from eagerkit.arguments import size
from eagerkit.devices import current_device
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.cast import _is_text
from eagerkit.ops.creation import _new
from eagerkit.tensor import Tensor, convert_to_tensor


def linspace(start, stop, num, name=None, axis=0):
    """``num`` evenly spaced values from ``start`` to ``stop`` inclusive, along ``axis``.

    TF's rules: ``stop`` takes ``start``'s dtype; float endpoints keep it (a Python float is
    float32), and integer ones give floats as TF divides them (int32 and int64: float64).
    Endpoints may be tensors of any shape (broadcast together); the values run along
    ``axis`` of the result.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.linspace(10.0, 12.0, 3)
    <ek.Tensor: shape=(3,), dtype=float32, numpy=array([10., 11., 12.], dtype=float32)>
    >>> ek.linspace(0, 100, 5).dtype  # integers: divided as TF divides int32
    ek.float64
    >>> ek.linspace([0.0, 5.0], [10.0, 40.0], 3).numpy()
    array([[ 0. ,  5. ],
           [ 5. , 22.5],
           [10. , 40. ]], dtype=float32)
    """
    num = arguments.shape([size(num, "num", "linspace")], "linspace", np.float64)[0]  # (float64)
    start = _endpoint(start, "start")
    stop = _endpoint(stop, "stop", start.dtype)
    dtype = start._data.dtype
    if dtype.kind not in "fiu":
        raise InvalidArgumentError(
            f"linspace: start and stop must be numbers, got {dtypes.as_dtype(dtype).name}; "
            "pass e.g. ek.linspace(0.0, 1.0, 5)",
            op="linspace",
        )
    result = dtypes.TRUEDIV.get(dtype, dtype) if dtype.kind in "iu" else dtype
    ndim = max(start.ndim, stop.ndim) + 1
    if not -ndim <= axis < ndim:
        raise InvalidArgumentError(
            f"linspace: axis {axis} is out of range for the rank-{ndim} result "
            f"(endpoints of shapes {start.shape} and {stop.shape}); use -{ndim} <= axis < {ndim}",
            op="linspace",
        )
    xp = current_device().xp
    # In float64, then rounded once to the result's dtype (numpy's linspace in float32 would
    # round every step)
    values = xp.linspace(
        xp.asarray(start._data, dtype=np.float64),
        xp.asarray(stop._data, dtype=np.float64),
        num,
        axis=axis,
    )
    return _new(values.astype(result))


def _endpoint(value, what, dtype=None):
    """linspace's start or stop as a Tensor (``stop`` of ``start``'s dtype, as TF converts
    it); never text, never a bool."""
    if (
        isinstance(value, bool)
        or _is_text(value)
        or (isinstance(value, Tensor) and (value.dtype.is_string or value.dtype.is_bool))
    ):
        raise InvalidArgumentError(
            f"linspace: {what} must be a number (or numbers), got {arguments.describe(value)}; "
            "pass e.g. ek.linspace(0.0, 1.0, 5)",
            op="linspace",
        )
    if dtype is None:
        return convert_to_tensor(value)
    try:
        return convert_to_tensor(value, dtype=dtype)
    except (InvalidArgumentError, TypeError, ValueError) as error:
        raise InvalidArgumentError(
            f"linspace: stop {arguments.describe(value)} does not fit start's dtype "
            f"{dtypes.as_dtype(dtype).name} (as in TF, stop takes start's dtype); write "
            "both as floats, e.g. ek.linspace(0.0, 1.5, 3)",
            op="linspace",
        ) from error
