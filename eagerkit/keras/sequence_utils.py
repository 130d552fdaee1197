"""Keras 3's array helpers ``pad_sequences`` (lists of different lengths as one array) and
``normalize`` (rows scaled to unit norm), in ``ek.keras.utils``.

Examples
--------
>>> import eagerkit as ek
>>> ek.keras.utils.pad_sequences([[1], [2, 3]], padding="post")
array([[1, 0],
       [2, 3]], dtype=int32)
"""

import numbers

import numpy as np

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.limits import check_tensor
from eagerkit.ops.arithmetic import maximum
from eagerkit.ops.math import abs as abs_
from eagerkit.ops.math import rsqrt, square
from eagerkit.ops.reduce import reduce_sum
from eagerkit.ops.reshaping import expand_dims
from eagerkit.tensor import convert_to_tensor


def _side(value, what):
    if value not in ("pre", "post"):
        raise InvalidArgumentError(
            f"pad_sequences: {what} must be 'pre' or 'post', got {value!r}; 'pre' works at "
            "the start of each sequence, 'post' at its end",
            op="pad_sequences",
        )


def _lengths(sequences):
    """Each sequence's length, and the shape of one step (``()`` for plain numbers)."""
    if isinstance(sequences, (str, bytes)) or not hasattr(sequences, "__len__"):
        raise InvalidArgumentError(
            f"pad_sequences: sequences must be a list of sequences such as [[1], [2, 3]], got "
            f"{describe(sequences)}",
            op="pad_sequences",
        )
    lengths, step_shape = [], None
    for position, sequence in enumerate(sequences):
        if isinstance(sequence, (str, bytes)) or not hasattr(sequence, "__len__"):
            raise InvalidArgumentError(
                f"pad_sequences: sequences must be a list of iterables; the one at position "
                f"{position} is {describe(sequence)}; wrap a lone id in a list: [[id], ...]",
                op="pad_sequences",
            )
        lengths.append(len(sequence))
        if step_shape is None and len(sequence):  # the first non-empty one sets the shape
            step_shape = np.asarray(sequence).shape[1:]
    return lengths, step_shape or ()


def pad_sequences(
    sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre", value=0.0
):
    """Pad (or cut) sequences to one length: a numpy array ``(len(sequences), maxlen)``.

    Parameters
    ----------
    sequences : list of lists
        Sequences of ids (or of equal-shaped steps), of any lengths.
    maxlen : int, optional
        The length of every row; default: the longest sequence's.
    dtype : str or numpy dtype
        The result's dtype (``object`` for strings of any length).
    padding : {"pre", "post"}
        Where ``value`` is added to a short sequence: before it or after it.
    truncating : {"pre", "post"}
        Which end of a long sequence is cut off.
    value : number or str
        What pads.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.utils.pad_sequences([[1], [2, 3], [4, 5, 6]])
    array([[0, 0, 1],
           [0, 2, 3],
           [4, 5, 6]], dtype=int32)
    >>> ek.keras.utils.pad_sequences([[1], [2, 3], [4, 5, 6]], maxlen=2, truncating="post",
    ...                              value=-1)
    array([[-1,  1],
           [ 2,  3],
           [ 4,  5]], dtype=int32)
    """
    _side(padding, "padding")
    _side(truncating, "truncating")
    lengths, step_shape = _lengths(sequences)
    if maxlen is None:
        maxlen = max(lengths, default=0)
    elif not isinstance(maxlen, numbers.Integral) or isinstance(maxlen, bool) or maxlen < 0:
        raise InvalidArgumentError(
            f"pad_sequences: maxlen must be a whole number >= 0 (or None for the longest "
            f"sequence's length), got {describe(maxlen)}",
            op="pad_sequences",
        )
    try:
        np_dtype = np.dtype(dtype)
    except TypeError:
        raise InvalidArgumentError(
            f"pad_sequences: dtype {dtype!r} is not a dtype; pass e.g. 'int32', 'float32' or "
            "object",
            op="pad_sequences",
        ) from None
    if isinstance(value, str) and np_dtype.kind not in "OUS":
        raise InvalidArgumentError(
            f"pad_sequences: dtype {np_dtype} is not compatible with value's type: str; set "
            "dtype=object for variable length strings",
            op="pad_sequences",
        )
    shape = (len(lengths), int(maxlen)) + step_shape
    check_tensor(shape, np_dtype.itemsize, "pad_sequences")  # before numpy allocates it
    try:
        padded = np.full(shape, value, dtype=np_dtype)
    except (OverflowError, TypeError, ValueError):
        raise InvalidArgumentError(
            f"pad_sequences: value={describe(value)} cannot be held as {np_dtype}; pass a "
            f"value that fits (e.g. 0), or a dtype that holds it",
            op="pad_sequences",
        ) from None
    for row, sequence in enumerate(sequences):
        if not len(sequence):
            continue  # all padding
        kept = _kept(sequence, int(maxlen), truncating, np_dtype, row)
        if kept.shape[1:] != step_shape:
            raise InvalidArgumentError(
                f"pad_sequences: the steps of the sequence at position {row} have shape "
                f"{kept.shape[1:]}, but the first sequence's have {step_shape}; every step "
                "must have one shape",
                op="pad_sequences",
            )
        if padding == "post":
            padded[row, : len(kept)] = kept
        elif len(kept):  # x[-0:] would be the whole row
            padded[row, -len(kept) :] = kept
    return padded


def _kept(sequence, maxlen, truncating, np_dtype, row):
    """The part of ``sequence`` that fits in ``maxlen`` steps, as an array."""
    kept = list(sequence)
    kept = kept[len(kept) - maxlen :] if truncating == "pre" and len(kept) > maxlen else kept
    kept = kept[:maxlen]
    try:
        return np.asarray(kept, dtype=np_dtype)
    except (TypeError, ValueError) as error:
        raise InvalidArgumentError(
            f"pad_sequences: the sequence at position {row} cannot be held as {np_dtype} "
            f"({error}); its steps must all have one shape, and numbers need a number dtype",
            op="pad_sequences",
        ) from None


def normalize(x, axis=-1, order=2):
    """``x`` divided by its ``order``-norm along ``axis``, as Keras 3's ``normalize``.

    A numpy array gives a numpy array (a zero norm divides by 1, as Keras' numpy branch);
    anything else gives a Tensor, ``x / max(norm, 1e-7)``, which the tape differentiates.

    Parameters
    ----------
    x : array_like or Tensor
        The values.
    axis : int
        The axis whose norm is taken.
    order : int
        The norm's order, >= 1 (2: Euclidean, 1: sum of absolute values).

    Examples
    --------
    >>> import eagerkit as ek, numpy as np
    >>> ek.keras.utils.normalize(np.array([[3.0, 4.0], [0.0, 0.0]]))
    array([[0.6, 0.8],
           [0. , 0. ]])
    >>> ek.keras.utils.normalize(ek.constant([[1.0, 3.0]]), order=1).numpy()
    array([[0.25, 0.75]], dtype=float32)
    """
    if not isinstance(order, numbers.Integral) or isinstance(order, bool) or order < 1:
        raise InvalidArgumentError(
            f"normalize: order must be a whole number >= 1, got {describe(order)}; pass "
            "order=2 (Euclidean) or order=1",
            op="normalize",
        )
    if not isinstance(axis, numbers.Integral) or isinstance(axis, bool):
        raise InvalidArgumentError(
            f"normalize: axis must be one axis (an int), got {describe(axis)}",
            op="normalize",
        )
    if isinstance(x, np.ndarray):
        return _normalize_array(x, int(axis), int(order))
    return _normalize_tensor(convert_to_tensor(x), int(axis), int(order))


def _check_axis(axis, ndim):
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise InvalidArgumentError(
            f"normalize: axis {axis} is out of range for an input of rank {ndim}; pass an "
            f"axis in [{-max(ndim, 1)}, {max(ndim, 1)})",
            op="normalize",
        )


def _normalize_array(x, axis, order):
    if x.dtype.kind not in "iuf":
        raise InvalidArgumentError(
            f"normalize: x must hold numbers, got an array of {x.dtype}", op="normalize"
        )
    x = np.atleast_1d(x)
    _check_axis(axis, x.ndim)
    norm = np.linalg.norm(x, order, axis, keepdims=True)  # as Keras' numpy branch
    return x / np.where(norm == 0, 1, norm)


def _normalize_tensor(x, axis, order):

    if not x.dtype.is_floating:
        raise InvalidArgumentError(
            f"normalize: x must be a float tensor, got {x.dtype.name}; cast it first "
            "(ek.cast(x, ek.float32))",
            op="normalize",
        )
    if x.shape.rank == 0:
        x = expand_dims(x, 0)
    _check_axis(axis, x.shape.rank)
    epsilon = 1e-7  # Keras' backend.epsilon()
    if order == 2:  # Keras: x * rsqrt(max(sum of squares, eps^2)), finite at zero
        squares = reduce_sum(square(x), axis=axis, keepdims=True)
        return x * rsqrt(maximum(squares, epsilon * epsilon))
    powers = reduce_sum(abs_(x) ** order, axis=axis, keepdims=True)
    return x / maximum(powers ** (1.0 / order), epsilon)
