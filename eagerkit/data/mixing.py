"""The element streams behind the Dataset steps that read several datasets in turn:
``interleave``, ``sample_from_datasets`` and ``choose_from_datasets`` (combining.py has the
methods). Each keeps TF's kernel's order, and passes an element that failed on as a
``Failed`` (steps.py).

Examples
--------
>>> from eagerkit.data.mixing import chosen
>>> list(chosen([iter([1, 2]), iter([10])], iter([0, 1, 1, 0]), True, "choose"))
[1, 10]
"""

import numpy as np

from eagerkit.arguments import describe
from eagerkit.data import steps
from eagerkit.data.steps import Failed
from eagerkit.errors import InvalidArgumentError, type_error
from eagerkit.tensor import convert_to_tensor


def interleaved(source, map_func, cycle, block, op):
    """TF's interleave: slots read ``block`` elements in turn; an empty slot opens the next
    input element's dataset (in place), an ended one closes and the cycle moves on."""
    slots, index, taken, ended = {}, 0, 0, False  # slot number -> its open iterator
    while not ended or slots:
        current = slots.get(index)
        if current is not None:
            element = next(current, None)
            if element is not None:
                yield element
                taken += 1
                if taken == block:
                    index, taken = (index + 1) % cycle, 0
                continue
            del slots[index]
            index, taken = (index + 1) % cycle, 0
        elif not ended:
            element = next(source, None)
            if element is None:
                ended = True
            elif type(element) is Failed:
                yield element
            else:
                inner = _opened(map_func, element, op)
                if type(inner) is Failed:
                    yield inner
                else:
                    slots[index] = inner
        else:  # no input left to open: on to the next open slot (TF skips the empty ones)
            later = [i for i in slots if i > index]
            index, taken = min(later) if later else min(slots), 0


def _opened(map_func, element, op):
    """An iterator over ``map_func(element)``'s dataset, or a Failed with why not."""
    from eagerkit.data.joining import Joining

    try:
        inner = steps.call(map_func, element)
    except Exception as error:  # the element's error, raised when it comes out
        return Failed(error)
    if not isinstance(inner, Joining):
        return Failed(
            InvalidArgumentError(
                f"{op}: map_func must return an ek.data.Dataset, got {describe(inner)}; for "
                "one value per element use .map",
                op=op,
            )
        )
    return inner._make_iterator()


def checked_datasets(datasets, op):
    """``datasets`` as a list, if it is a non-empty list or tuple of Datasets."""
    from eagerkit.data.dataset import Dataset

    found = list(datasets) if isinstance(datasets, (list, tuple)) else None
    if not found or not all(isinstance(d, Dataset) for d in found):
        raise type_error(
            f"{op}: datasets must be a non-empty list of ek.data.Datasets, got "
            f"{describe(datasets)}",
            op=op,
        )
    return found


def normalized_weights(weights, count, op):
    """The probabilities (``weights`` normalized; None: equal), or a clear error."""
    if weights is None:
        return np.full(count, 1.0 / count)
    given = convert_to_tensor(weights)
    numeric = given.dtype.is_floating or given.dtype.is_integer
    values = given.numpy().astype(np.float64) if numeric else np.full(count, np.nan)
    if values.shape != (count,) or not np.all(np.isfinite(values)) or np.any(values < 0):
        raise InvalidArgumentError(
            f"{op}: weights must be {count} finite numbers >= 0 (one per dataset), got "
            f"{describe(weights)}",
            op=op,
        )
    if values.sum() <= 0:
        raise InvalidArgumentError(f"{op}: weights must not all be 0, got {values.tolist()}", op=op)
    return values / values.sum()


def sampled(sources, probabilities, rng, stop):
    """Elements of ``sources`` drawn at random by ``probabilities``; an ended source drops
    out (with ``stop``, it ends the stream)."""
    live = list(range(len(sources)))
    while live:
        weights = probabilities[live]
        if weights.sum() <= 0:
            return
        pick = live[rng.choice(len(live), p=weights / weights.sum())]
        element = next(sources[pick], None)
        if element is None:
            if stop:
                return
            live.remove(pick)
            continue
        yield element


def chosen(sources, choices, stop, op):
    """Each element from ``sources[c]``, ``c`` the next of ``choices``; a choice of an ended
    source ends the stream (with ``stop``) or is skipped."""
    for choice in choices:
        if type(choice) is Failed:
            yield choice
            continue
        index = int(choice)
        if not 0 <= index < len(sources):
            yield Failed(
                InvalidArgumentError(
                    f"{op}: choice {index} is out of range: there are {len(sources)} datasets "
                    f"(valid choices: 0 to {len(sources) - 1})",
                    op=op,
                )
            )
            continue
        element = next(sources[index], None)
        if element is None:
            if stop:
                return
            continue
        yield element
