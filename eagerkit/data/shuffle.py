"""TF's shuffle buffer: random order with bounded memory, for streams of any length.

Fill a buffer with the first ``buffer_size`` elements; then, for each new input, give out a
random buffer element and put the input in its place; at the end, empty the buffer in random
order. An element can therefore come out at most ``buffer_size - 1`` places earlier than it
went in: ``buffer_size=1`` keeps the order, a buffer as big as the data shuffles fully.

Examples
--------
>>> import numpy as np
>>> list(buffer_shuffle(iter(range(6)), 1, np.random.default_rng(0)))
[0, 1, 2, 3, 4, 5]
>>> sorted(buffer_shuffle(iter(range(6)), 3, np.random.default_rng(0)))
[0, 1, 2, 3, 4, 5]
"""

import itertools

import numpy as np


def buffer_shuffle(source, buffer_size, rng):
    """Yield the elements of the iterator ``source`` shuffled through a buffer (see above)."""
    buffer = list(itertools.islice(source, buffer_size))
    for element in source:
        index = int(rng.integers(len(buffer)))
        yield buffer[index]
        buffer[index] = element  # the next input takes the place of the one given out
    while buffer:  # the input is exhausted: empty the buffer in random order
        index = int(rng.integers(len(buffer)))
        buffer[index], buffer[-1] = buffer[-1], buffer[index]
        yield buffer.pop()


def base_seed(seed):
    """The shuffle's seed: ``seed``, else the global one (``ek.set_random_seed``), else new."""
    if seed is not None:
        return int(seed)
    from eagerkit.random import global_seed

    global_seed = global_seed()
    return int(global_seed) if global_seed is not None else int(np.random.SeedSequence().entropy)
