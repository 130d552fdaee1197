"""Read-only numpy vectors of zeros and ones, shared by every call that needs one.

Some numpy kernels are faster against a contiguous array than against a number (relu's
``maximum(x, 0)``), and some need a vector of ones (a bias gradient as ``ones @ g``).
Making that array at every call costs about what a small kernel costs, so one vector per
value and dtype is kept, grown to the largest size asked for, and handed out as views.
np.zeros asks the system for zeroed pages, which cost no memory until written, and
nothing ever writes these vectors (read-only: only ever an input, never an ``out=``).
"""

import numpy as np

_SHARED = {}  # (value, dtype) -> a read-only vector of that value, grown as needed


def shared_vector(value, size, dtype):
    """A read-only numpy vector of ``size`` elements all ``value`` (0 or 1), of ``dtype``.

    Examples
    --------
    >>> shared_vector(1, 3, np.float32)
    array([1., 1., 1.], dtype=float32)
    """
    vector = _SHARED.get((value, dtype))
    if vector is None or vector.size < size:
        vector = np.zeros(size, dtype) if value == 0 else np.full(size, value, dtype)
        vector.flags.writeable = False  # shared by every call: nothing may write into it
        _SHARED[value, dtype] = vector
    return vector[:size]


def zeros_like_host(x):
    """Zeros shaped like the numpy array ``x``: a view of the shared vector of zeros."""
    return shared_vector(0, x.size, x.dtype).reshape(x.shape)
