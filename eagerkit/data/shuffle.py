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

import numpy as np

from eagerkit.arguments import whole_number
from eagerkit.data.steps import Failed, fits
from eagerkit.errors import ResourceExhaustedError


def buffer_shuffle(source, buffer_size, rng):
    """Yield the elements of the iterator ``source`` shuffled through a buffer (see above).

    An element that failed (``steps.Failed``) is not buffered: it comes out at once, as
    TF's shuffle returns the error of the input it was filling its buffer from.
    """
    buffer = []
    for element in source:
        if type(element) is Failed:
            yield element
        elif len(buffer) < buffer_size:
            if not buffer:  # the first element tells how much a full buffer would hold
                try:
                    fits(buffer_size, element, "shuffle", "buffer_size")
                except ResourceExhaustedError as error:
                    yield Failed(error)
                    return
            buffer.append(element)
        else:
            index = int(rng.integers(len(buffer)))
            yield buffer[index]
            buffer[index] = element  # the next input takes the place of the one given out
    while buffer:  # the input is exhausted: empty the buffer in random order
        index = int(rng.integers(len(buffer)))
        buffer[index], buffer[-1] = buffer[-1], buffer[index]
        yield buffer.pop()


def base_seed(seed):
    """The shuffle's seed: ``seed``, else the global one (``ek.set_random_seed``), else new.

    A seed is a whole number (1.5 is refused, not cut to 1); TF's int64 seeds may be
    negative, and keep their bits here (numpy takes only non-negative seeds).
    """
    if seed is not None:
        return whole_number(seed, "seed", "shuffle") % 2**64
    from eagerkit.random import global_seed

    global_seed = global_seed()
    return int(global_seed) if global_seed is not None else int(np.random.SeedSequence().entropy)
