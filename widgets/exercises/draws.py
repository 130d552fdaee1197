"""Inputs a student cannot tune to: drawn fresh for every check, from a seed the message shows.

Each check run picks a new seed (``fresh_seed``) unless given one, and draws its inputs and
upstream gradients from it; a failure message names the seed, so ``check(answer, seed=...)``
draws the same inputs again. The edge cases a prompt names (0, negatives, a kink, a batch of
one) are added by each exercise on top of the random draws, so they are always there.
"""

import random

import numpy as np


def fresh_seed():
    """A new seed for one check run (from the operating system, so runs differ)."""
    return random.SystemRandom().randrange(1, 1_000_000)


class Draws:
    """Random values for one check run, all from one seeded generator (float32 by default).

    Examples
    --------
    >>> draw = Draws(7)
    >>> draw.floats((3,), avoid=(0.0,)).dtype
    dtype('float32')
    >>> bool(np.all(np.abs(draw.floats((50,), avoid=(0.0,), gap=0.1)) >= 0.1))
    True
    """

    def __init__(self, seed):
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def floats(self, shape, low=-3.0, high=3.0, avoid=(), gap=0.05, dtype=np.float32):
        """Uniform values in [low, high), each at least ``gap`` from every point in ``avoid``
        (a kink, a tie) and rounded to 2 decimals, so messages stay short."""
        values = np.round(self.rng.uniform(low, high, shape), 2)
        for point in avoid:
            near = np.abs(values - point) < gap
            values = np.where(near, point + np.sign(values - point + 1e-9) * gap * 2, values)
        return np.asarray(values, dtype=dtype)

    def positive(self, shape, low=0.1, high=4.0, dtype=np.float32):
        return self.floats(shape, low, high, dtype=dtype)

    def distinct(self, shape, low=-3.0, high=3.0, gap=0.2, dtype=np.float32):
        """Values no two of which are within ``gap`` of each other (no ties for a max)."""
        size = int(np.prod(shape))
        grid = np.arange(low, high, gap)
        return np.asarray(self.rng.choice(grid, size, replace=False), dtype).reshape(shape)

    def ints(self, shape, low, high, dtype=np.int32):
        return np.asarray(self.rng.integers(low, high, shape), dtype)

    def size(self, low=1, high=6):
        """A length in [low, high]: 1 included, a batch of one is an edge case too."""
        return int(self.rng.integers(low, high + 1))

    def upstream(self, shape):
        """An incoming gradient of ``shape``: values in ±[0.5, 2], never 1 everywhere, so a
        VJP that ignores it cannot pass."""
        magnitude = self.rng.uniform(0.5, 2.0, shape)
        sign = self.rng.choice([-1.0, 1.0], np.shape(magnitude))
        values = np.round(magnitude * sign, 2)
        if np.all(values == 1.0):
            values = np.full(np.shape(values), -1.5)
        return np.asarray(values, np.float32)
