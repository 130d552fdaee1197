"""The stateless ops: numbers that are a function of ``seed`` (a pair of ints) alone.

The same call gives the same numbers every time, whatever else ran (what seeded Keras
initializers need, and what ``Generator.make_seeds`` feeds).
"""

import numpy as np

from eagerkit import dtypes
from eagerkit.arguments import whole_number
from eagerkit.errors import InvalidArgumentError
from eagerkit.random import distributions
from eagerkit.random.algorithms import algorithm
from eagerkit.tensor import Tensor


def seed_words(seed, op):
    """A seed (an int, a list of ints, a tensor of them) as a list of ints numpy accepts."""
    if isinstance(seed, (Tensor, np.ndarray)):
        seed = np.asarray(seed).tolist()  # a 0-d array gives one int, not a list
    words = list(seed) if isinstance(seed, (list, tuple)) else [seed]
    words = [whole_number(w, "seed", op) for w in words]
    if not words:
        raise InvalidArgumentError(f"{op}: seed must not be empty", op=op)
    # numpy wants non-negative words; TF seeds may be negative int64s: keep their bits.
    return [w % 2**64 for w in words]


def _stateless(seed, alg, op):
    algorithm(alg, op)
    words = seed_words(seed, op)
    if len(words) != 2:
        raise InvalidArgumentError(
            f"{op}: seed must be a pair of integers [a, b], as in TF, got {seed!r}", op=op
        )
    return np.random.default_rng(words)


def stateless_normal(
    shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None, alg="auto_select"
):
    """Normal samples that depend only on ``seed`` (a pair of ints).

    Examples
    --------
    >>> import eagerkit as ek
    >>> a = ek.random.stateless_normal([2], seed=[1, 2])
    >>> bool(ek.reduce_all(a == ek.random.stateless_normal([2], seed=[1, 2])))
    True
    """
    op = "random.stateless_normal"
    return distributions.normal(_stateless(seed, alg, op), shape, mean, stddev, dtype, op)


def stateless_truncated_normal(
    shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None, alg="auto_select"
):
    """Truncated normal samples that depend only on ``seed`` (a pair of ints).

    Examples
    --------
    >>> import eagerkit as ek
    >>> bool(ek.reduce_all(ek.abs(ek.random.stateless_truncated_normal([50], [3, 4])) <= 2))
    True
    """
    op = "random.stateless_truncated_normal"
    source = _stateless(seed, alg, op)
    return distributions.truncated_normal(source, shape, mean, stddev, dtype, op)


def stateless_uniform(
    shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None, alg="auto_select"
):
    """Uniform samples that depend only on ``seed`` (a pair of ints).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.random.stateless_uniform([3], [5, 6], 0, 10, ek.int32).dtype
    ek.int32
    """
    op = "random.stateless_uniform"
    return distributions.uniform(_stateless(seed, alg, op), shape, minval, maxval, dtype, op)
