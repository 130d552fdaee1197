"""The output modes the categorical preprocessing layers share: ``int``, ``one_hot``,
``multi_hot`` and ``count`` (Keras 3's ``output_mode``).

A lookup (``StringLookup``, ``IntegerLookup``), ``Hashing`` or ``Discretization`` first
turns each value into a category id; ``CategoryEncoding`` starts from ids. The mode then
says what the layer returns:

- ``int``: the ids themselves;
- ``one_hot``: one row of ``depth`` zeros with a 1 per id (a last axis of size 1 is
  replaced by the ``depth`` axis, so ``[[3], [1]]`` gives two rows, as in Keras);
- ``multi_hot``: per sample (the last axis), a 1 at every id it holds;
- ``count``: per sample, how many times it holds each id (or the sum of ``count_weights``).

An id of -1 is "nothing" (a masked value): it adds no 1 and no count. The work is numpy's,
on host arrays: the layers run it inside ``ek.py_function``, so ``ek.function`` runs it
again at every call.

Examples
--------
>>> import numpy as np
>>> from eagerkit.keras.layers.category_outputs import encode
>>> encode(np.array([[0, 1], [2, 2]]), "multi_hot", 4, np.float32, None, "CategoryEncoding")
array([[1., 1., 0., 0.],
       [0., 0., 1., 0.]], dtype=float32)
>>> encode(np.array([[0, 1], [2, 2]]), "count", 4, np.float32, None, "CategoryEncoding")
array([[1., 1., 0., 0.],
       [0., 0., 2., 0.]], dtype=float32)
"""

import math

import numpy as np

from eagerkit import limits
from eagerkit.arguments import whole_number
from eagerkit.errors import InvalidArgumentError, UnimplementedError

MODES = ("int", "one_hot", "multi_hot", "count")


def checked_mode(output_mode, call, modes=MODES):
    """``output_mode`` if it is one of ``modes``; Keras' old name ``binary`` is ``multi_hot``."""
    if output_mode == "binary":
        return "multi_hot"  # Keras 2's name, which Keras 3 still accepts
    if output_mode == "tf_idf":
        raise UnimplementedError(
            f"{call}: eagerkit has no output_mode='tf_idf'; use output_mode='count' and "
            "weight the counts yourself (multiply by a tensor of inverse document frequencies)",
            op=call,
        )
    if output_mode not in modes:
        raise InvalidArgumentError(
            f"{call}: output_mode must be one of {', '.join(map(repr, modes))}, got "
            f"{output_mode!r:.40}",
            op=call,
        )
    return output_mode


def count_argument(value, what, call, minimum, hint=""):
    """``value`` as a Python int of at least ``minimum`` (numpy ints too), or a clear error."""
    try:
        count = whole_number(value, what, call)
    except InvalidArgumentError:
        count = None
    if count is None or count < minimum:
        raise InvalidArgumentError(
            f"{call}: {what} must be a whole number >= {minimum}, got {value!r:.40}{hint}",
            op=call,
        )
    return count


def check_dense(sparse, call):
    """eagerkit has no sparse tensors of outputs: ``sparse=True`` says what to do instead."""
    if sparse:
        raise UnimplementedError(
            f"{call}: eagerkit's layers give dense tensors only; pass sparse=False (the "
            "default) and the output is the same values, dense",
            op=call,
        )


def encode(ids, mode, depth, dtype, count_weights, call):
    """The ``mode`` encoding of the int array ``ids`` (values in [-1, depth)), as ``dtype``."""
    if mode == "int":
        return ids.astype(dtype)
    if ids.ndim == 0:
        ids = ids.reshape(1)  # a scalar is one sample of one value
    limits.check_memory(  # one-hot rows are built first: refuse what memory cannot hold
        max(ids.size, 1) * depth * 8,
        f"the {mode} encoding of {ids.size} ids over {depth} tokens",
        call,
        "encode fewer tokens (a smaller num_tokens, max_tokens or num_bins)",
    )
    if mode == "one_hot":
        if ids.ndim > 1 and ids.shape[-1] == 1:
            ids = ids[..., 0]  # [[3], [1]]: one value per sample, one row each
        return _one_hot(ids, depth).astype(dtype)
    if mode == "multi_hot":
        return _one_hot(ids, depth).any(axis=-2).astype(dtype)
    if ids.ndim > 2:
        raise InvalidArgumentError(
            f"{call}: output_mode='count' takes samples of rank 1 or 2 (a batch of samples "
            f"of values), got shape {list(ids.shape)}; reshape them to [batch, values]",
            op=call,
        )
    weights = np.ones(ids.shape) if count_weights is None else count_weights
    rows = ids.reshape(math.prod(ids.shape[:-1]), ids.shape[-1])  # (an empty sample too)
    counts = np.zeros((rows.shape[0], depth))
    row_of = np.broadcast_to(np.arange(rows.shape[0])[:, None], rows.shape)
    kept = rows >= 0  # -1: a masked value, counted nowhere
    np.add.at(counts, (row_of[kept], rows[kept]), weights.reshape(rows.shape)[kept])
    return counts.reshape(ids.shape[:-1] + (depth,)).astype(dtype)


def host_array(tensor):
    """A tensor's values as a numpy array, a scalar too (text: an object array of bytes)."""
    value = tensor.numpy()
    if isinstance(value, np.ndarray):
        return value
    return np.array(value, dtype=object if isinstance(value, bytes) else None)


def _one_hot(ids, depth):
    """A boolean array with a last axis of ``depth``: True at each id (none for -1)."""
    return ids[..., None] == np.arange(depth)
