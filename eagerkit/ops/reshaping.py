"""Ops that give a tensor's elements a new shape or axis order: reshape, transpose,
expand_dims and squeeze (ek.reshape, ...; re-exported by ops/shape.py).

Their gradients move the incoming gradient back the same way (reshape back, transpose by
the inverse permutation). ``expand_dims`` and ``squeeze`` are primitives of their own whose
parameters are axes, never sizes: inside ``ek.function`` with relaxed shapes
(``reduce_retracing``, ``input_signature`` with None) a reshape to the traced sizes would
freeze the first trace's batch size.
"""

from eagerkit import arguments
from eagerkit.arguments import normalize_axis
from eagerkit.errors import InvalidArgumentError
from eagerkit.registry import defop
from eagerkit.tensor import convert_to_tensor


def _shape_tuple(shape, op="reshape"):
    """A shape argument (list, tuple, array, Tensor) as a tuple of Python ints."""
    return arguments.sizes(shape, "the shape", op)


@defop("reshape")
def _reshape(xp, x, shape=None):
    # shape may come by position too: a VJP writes ops.reshape(g, [-1]) as it would ek.reshape.
    if shape is None:
        raise InvalidArgumentError("reshape: a shape is needed, e.g. [-1]", op="reshape")
    try:
        return xp.reshape(x, tuple(shape) if isinstance(shape, list) else shape)
    except ValueError:
        raise InvalidArgumentError(
            f"reshape: cannot reshape a tensor of shape {tuple(x.shape)} ({x.size} elements) "
            f"to shape {shape}; the number of elements must stay the same (use -1 for one "
            "dimension to have it worked out)",
            op="reshape",
        ) from None


_reshape.defvjp(lambda ops, g, ans, x, shape: ops.reshape(g, shape=tuple(x.shape)))


def reshape(tensor, shape, name=None):
    """The same elements in a new shape (-1 means "whatever fits").

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.reshape(ek.range(6), [2, -1]).shape
    TensorShape([2, 3])
    """
    return _reshape(tensor, shape=_shape_tuple(shape))


@defop("transpose")
def _transpose(xp, x, *, perm):
    return xp.transpose(x, perm)


def _inverse(perm):
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    return tuple(inverse)


_transpose.defvjp(lambda ops, g, ans, x, perm: ops.transpose(g, perm=_inverse(perm)))


def transpose(a, perm=None, name=None):
    """Permute the axes (reverse them when ``perm`` is None).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.transpose(ek.zeros([2, 3, 4]), perm=[0, 2, 1]).shape
    TensorShape([2, 4, 3])
    """
    a = convert_to_tensor(a)
    perm = tuple(reversed(range(a.ndim))) if perm is None else _shape_tuple(perm)
    if sorted(perm) != list(range(a.ndim)):
        raise InvalidArgumentError(
            f"transpose: perm {list(perm)} is not a permutation of the {a.ndim} axes (give each "
            f"of 0..{a.ndim - 1} once, e.g. {list(reversed(range(a.ndim)))}) of a "
            f"tensor of shape {a.shape}",
            op="transpose",
        )
    return _transpose(a, perm=perm)


@defop("expand_dims")
def _expand_dims(xp, x, *, axis):
    return xp.expand_dims(x, axis)  # axis: a tuple of positions in the result


@defop("squeeze")
def _squeeze(xp, x, *, axis):
    return xp.squeeze(x, axis=axis)  # axis: a tuple of length-1 axes of x


# Each undoes the other: the gradient of an inserted axis drops it, and back.
_expand_dims.defvjp(lambda ops, g, ans, x, axis: ops.squeeze(g, axis=axis))
_squeeze.defvjp(lambda ops, g, ans, x, axis: ops.expand_dims(g, axis=axis))


def expand_dims(input, axis, name=None):  # noqa: A002 - TF's argument name
    """Insert a length-1 axis at ``axis``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.expand_dims([1.0, 2.0], 0).shape
    TensorShape([1, 2])
    """
    x = convert_to_tensor(input)
    axis = arguments.whole_number(axis, "axis", "expand_dims")
    if not -x.ndim - 1 <= axis <= x.ndim:
        raise InvalidArgumentError(
            f"expand_dims: axis {axis} is out of range for a tensor of rank {x.ndim} "
            f"(valid: {-x.ndim - 1} to {x.ndim})",
            op="expand_dims",
        )
    return _expand_dims(x, axis=(axis % (x.ndim + 1),))


def squeeze(input, axis=None, name=None):  # noqa: A002 - TF's argument name
    """Drop length-1 axes (only those in ``axis`` when given)."""
    x = convert_to_tensor(input)
    axes = (
        tuple(i for i, n in enumerate(x.shape) if n == 1)
        if axis is None
        else (normalize_axis(axis, x.ndim, "squeeze"))
    )
    for a in axes:
        if x.shape[a] != 1:
            raise InvalidArgumentError(
                f"squeeze: axis {a} has size {x.shape[a]}, not 1 (shape {x.shape})",
                op="squeeze",
            )
    return squeeze_axes(x, axes)


def squeeze_axes(x, axis):
    """Drop the (length-1) axes in ``axis`` (None: all of them)."""
    return _squeeze(x, axis=tuple(sorted(normalize_axis(axis, x.ndim))))
