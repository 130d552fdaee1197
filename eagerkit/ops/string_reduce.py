"""``tf.strings.reduce_join``: the strings along some axes joined into one, with a
separator between them (the string version of ``reduce_sum``).

Examples
--------
>>> import eagerkit as ek
>>> ek.strings.reduce_join([["a", "b"], ["c", "d"]], axis=1, separator="-")
<ek.Tensor: shape=(2,), dtype=string, numpy=array([b'a-b', b'c-d'], dtype=object)>
"""

import itertools

from eagerkit.arguments import normalize_axes
from eagerkit.dtypes import string
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.strings import _as_bytes
from eagerkit.registry import defop
from eagerkit.tensor import convert_to_tensor


@defop("reduce_join", dtypes=(string,), differentiable=False)
def _reduce_join(xp, x, *, axes, keepdims, separator):
    kept = [axis for axis in range(x.ndim) if axis not in axes]
    # The joined axes last, in their order, flattened into one: each row is joined.
    rows = xp.transpose(x, kept + list(axes)).reshape(
        [x.shape[axis] for axis in kept] + [-1 if x.size else 0]
    )
    joined = xp.empty(rows.shape[:-1], dtype=object)
    for index in itertools.product(*map(range, joined.shape)):
        joined[index] = separator.join(rows[index])
    if keepdims:
        joined = joined.reshape([1 if axis in axes else x.shape[axis] for axis in range(x.ndim)])
    return joined


def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """Join the strings along ``axis`` (all axes when None), ``separator`` between them;
    ``keepdims`` keeps each joined axis with size 1. An empty axis joins to ``b''``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.strings.reduce_join(["the", "cat", "sat"], separator=" ")
    <ek.Tensor: shape=(), dtype=string, numpy=b'the cat sat'>
    >>> ek.strings.reduce_join([["a", "b"], ["c", "d"]], axis=0, keepdims=True).numpy()
    array([[b'ac', b'bd']], dtype=object)
    """
    x = convert_to_tensor(inputs)
    if not x.dtype.is_string:
        raise InvalidArgumentError(
            f"strings.reduce_join: inputs must be strings, got {x.dtype.name}; format numbers "
            "first with ek.strings.as_string",
            op="reduce_join",
        )
    axes = (
        tuple(range(x.ndim)) if axis is None else tuple(normalize_axes(axis, x.ndim, "reduce_join"))
    )
    separator = _as_bytes(separator, "separator", "reduce_join")
    return _reduce_join(x, axes=axes, keepdims=bool(keepdims), separator=separator)
