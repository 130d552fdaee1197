"""The element streams behind a Dataset's steps, with TF's rule for an element that fails.

TF's iterator raises an element's error (a map function that raised, a row that does not
parse, a batch whose elements do not stack) and, asked again, goes on with the next element.
A Python generator that raises is finished for good, so these steps never let an element's
error escape: they catch it and pass a ``Failed`` down the stream in the element's place,
and ``Iterator.__next__`` raises it. Each step treats a ``Failed`` as TF's kernel does:

- ``map`` and ``filter`` pass it on without calling the function;
- ``batch`` drops the elements gathered so far for that batch and passes it on;
- ``shuffle`` passes it on at once (TF's buffer fill returns the input's error);
- ``take`` and ``skip`` do not count it; ``repeat`` passes it on.

Examples
--------
>>> import eagerkit as ek
>>> def halve(x):
...     if int(x) == 1:
...         raise ValueError("odd one out")
...     return x // 2
>>> it = iter(ek.data.Dataset.from_tensor_slices([4, 1, 8]).map(halve))
>>> int(next(it))
2
>>> next(it)
Traceback (most recent call last):
...
ValueError: odd one out
>>> int(next(it))  # and on with the next element
4
"""

import itertools

from eagerkit.data import structure
from eagerkit.errors import ResourceExhaustedError
from eagerkit.limits import check_memory


class Failed:
    """An element whose making raised ``error``; the iterator raises it when it comes out."""

    __slots__ = ("error",)

    def __init__(self, error):
        if isinstance(error, StopIteration):  # raised by the iterator, it would end the loop
            failure = RuntimeError(f"a dataset function raised StopIteration ({error!r})")
            failure.__cause__ = error
            error = failure
        self.error = error


def call(function, element):
    """``function`` applied to an element (a tuple gives its parts as arguments)."""
    return function(*element) if isinstance(element, tuple) else function(element)


def mapped(source, map_func):
    """``map``: each element through ``map_func``; its error takes the element's place."""
    for element in source:
        if type(element) is not Failed:
            try:
                element = structure.to_tensors(call(map_func, element))
            except Exception as error:  # the element's error, raised when it comes out
                element = Failed(error)
        yield element


def filtered(source, predicate, check_keep):
    """``filter``: the elements ``predicate`` keeps (``check_keep`` reads its answer)."""
    for element in source:
        if type(element) is not Failed:
            try:
                keep = check_keep(call(predicate, element))
            except Exception as error:
                element, keep = Failed(error), True
            if not keep:
                continue
        yield element


def batched(source, batch_size, drop_remainder, combine=structure.stack):
    """``batch``: ``batch_size`` elements stacked (``combine``: how; ``padded_batch`` pads
    them first); a failed one fails its batch alone."""
    checked = False
    while True:
        elements, failed = [], None
        for element in itertools.islice(source, batch_size):
            if type(element) is Failed:  # TF: the partial batch is lost with the error
                failed = element
                break
            if not checked:  # the first element tells how much a whole batch would hold
                checked = True
                try:
                    fits(batch_size, element, "batch", "batch_size")
                except ResourceExhaustedError as error:
                    yield Failed(error)
                    return
            elements.append(element)
        if failed is not None:
            yield failed
            continue
        if not elements or (drop_remainder and len(elements) < batch_size):
            return
        try:
            batch = combine(elements)
        except Exception as error:  # elements that do not stack: this batch fails
            batch = Failed(error)
        yield batch


def fits(count, element, op, what):
    """Refuse to gather ``count`` elements like ``element`` when memory cannot hold them
    (a dataset that repeats forever would otherwise be read until the machine gives out)."""
    check_memory(
        count * structure.nbytes(element),
        f"{what}={count} elements like the first one ({structure.nbytes(element)} bytes)",
        op,
        f"use a smaller {what}",
    )


def taken(source, count):
    """``take``: the first ``count`` elements (failed ones do not count, as in TF)."""
    if count == 0:
        return
    kept = 0
    for element in source:
        yield element
        if type(element) is not Failed:
            kept += 1
            if kept == count:  # stop without pulling (and computing) one more element
                return


def skipped(source, count):
    """``skip``: all but the first ``count`` elements (failed ones do not count, as in TF)."""
    skipped_so_far = 0
    for element in source:
        if skipped_so_far < count and type(element) is not Failed:
            skipped_so_far += 1
            continue
        yield element


def repeated(make_source, times):
    """``repeat``: ``make_source()`` read ``times`` times (None: forever)."""
    for _ in itertools.count() if times is None else range(times):
        empty = True
        for element in make_source():
            empty = False
            yield element
        if empty:  # repeating nothing forever would hang
            return


def generated(generator, convert):
    """The elements ``generator()`` yields, each through ``convert(position, raw)``."""
    try:
        values = iter(generator())
    except Exception as error:
        yield Failed(error)
        return
    for position in itertools.count():
        try:
            raw = next(values)
        except StopIteration:
            return
        except Exception as error:  # a Python generator that raised is finished after this
            yield Failed(error)
            continue
        try:
            element = convert(position, raw)
        except Exception as error:
            element = Failed(error)
        yield element
