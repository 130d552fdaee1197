"""``ek.random.Generator`` and the stateless ops: random numbers whose state you hold.

A ``Generator`` is an object with its own stream: ``Generator.from_seed(1)`` always starts
the same way, and nothing else (the global seed, other ops) moves it. The ``stateless_*``
ops go further: the numbers are a function of ``seed`` alone, so the same call gives the
same numbers every time (what seeded Keras initializers need).
"""

import numpy as np

from eagerkit import dtypes, limits
from eagerkit.arguments import size, whole_number
from eagerkit.errors import InvalidArgumentError
from eagerkit.random import distributions
from eagerkit.tensor import Tensor

# Making one Generator takes about 70 µs and 1 KiB (numpy seeds a new bit generator), so
# 20 million of them ran for half an hour: more than this many is refused at once.
_MAX_SPLIT = 100_000
_SPLIT_COST = "each generator takes about 70 µs and 1 KiB to make"


class Generator:
    """A random-number generator with its own state, like ``tf.random.Generator``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> g = ek.random.Generator.from_seed(1)
    >>> a = g.normal([3])
    >>> b = ek.random.Generator.from_seed(1).normal([3])
    >>> bool(ek.reduce_all(a == b)), bool(ek.reduce_all(g.normal([3]) == a))
    (True, False)
    """

    def __init__(self, seed=None):
        if seed is not None:  # ints (as from_seed takes them): numpy's words are no message
            seed = _seed_words(seed, "random.Generator")
        self._seed = seed
        self._generator = np.random.default_rng(seed)

    @classmethod
    def from_seed(cls, seed, alg=None):
        """A generator that starts from ``seed`` (an int, or a list of ints)."""
        return cls(_seed_words(seed, "random.Generator.from_seed"))

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        """A generator seeded from the operating system: different every run."""
        return cls(None)

    def reset_from_seed(self, seed):
        """Start again from ``seed``."""
        self.__init__(_seed_words(seed, "random.Generator.reset_from_seed"))

    def split(self, count=1):
        """``count`` new, independent generators (this one's stream moves on).

        Examples
        --------
        >>> import eagerkit as ek
        >>> left, right = ek.random.Generator.from_seed(0).split(2)
        >>> bool(ek.reduce_all(left.uniform([4]) == right.uniform([4])))
        False
        """
        op = "random.Generator.split"
        count = size(count, "count", op)
        limits.check_count(count, _MAX_SPLIT, "count", op, _SPLIT_COST)
        return [Generator(words) for words in self._generator.integers(0, 2**63, (count, 2))]

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Samples from a normal distribution."""
        op = "random.Generator.normal"
        return distributions.normal(self._generator, shape, mean, stddev, dtype, op)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Normal samples within two standard deviations of the mean."""
        op = "random.Generator.truncated_normal"
        return distributions.truncated_normal(self._generator, shape, mean, stddev, dtype, op)

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        """Samples from [minval, maxval)."""
        op = "random.Generator.uniform"
        return distributions.uniform(self._generator, shape, minval, maxval, dtype, op)

    def __repr__(self):
        return f"<ek.random.Generator seed={self._seed!r}>"


def _seed_words(seed, op):
    """A seed (an int, a list of ints, a tensor of them) as a list of ints numpy accepts."""
    if isinstance(seed, (Tensor, np.ndarray)):
        seed = np.asarray(seed).tolist()  # a 0-d array gives one int, not a list
    words = list(seed) if isinstance(seed, (list, tuple)) else [seed]
    words = [whole_number(w, "seed", op) for w in words]
    if not words:
        raise InvalidArgumentError(f"{op}: seed must not be empty", op=op)
    # numpy wants non-negative words; TF seeds may be negative int64s: keep their bits.
    return [w % 2**64 for w in words]


_global_generator = [None]


def get_global_generator():
    """The generator ``ek.random`` code may share (made on first use, from the OS)."""
    if _global_generator[0] is None:
        _global_generator[0] = Generator.from_non_deterministic_state()
    return _global_generator[0]


def set_global_generator(generator):
    """Replace the shared generator (e.g. with ``Generator.from_seed(...)`` in a test)."""
    if not isinstance(generator, Generator):
        raise InvalidArgumentError(
            f"random.set_global_generator: expected an ek.random.Generator, got "
            f"{type(generator).__name__}",
            op="random.set_global_generator",
        )
    _global_generator[0] = generator


def _stateless(seed, op):
    words = _seed_words(seed, op)
    if len(words) != 2:
        raise InvalidArgumentError(
            f"{op}: seed must be a pair of integers [a, b], as in TF, got {seed!r}", op=op
        )
    return np.random.default_rng(words)


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
    """Normal samples that depend only on ``seed`` (a pair of ints).

    Examples
    --------
    >>> import eagerkit as ek
    >>> a = ek.random.stateless_normal([2], seed=[1, 2])
    >>> bool(ek.reduce_all(a == ek.random.stateless_normal([2], seed=[1, 2])))
    True
    """
    op = "random.stateless_normal"
    return distributions.normal(_stateless(seed, op), shape, mean, stddev, dtype, op)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
    """Truncated normal samples that depend only on ``seed`` (a pair of ints)."""
    op = "random.stateless_truncated_normal"
    return distributions.truncated_normal(_stateless(seed, op), shape, mean, stddev, dtype, op)


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None):
    """Uniform samples that depend only on ``seed`` (a pair of ints)."""
    op = "random.stateless_uniform"
    return distributions.uniform(_stateless(seed, op), shape, minval, maxval, dtype, op)
