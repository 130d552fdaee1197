"""The stream behind ``Dataset.group_by_window`` (grouping.py has the method), with TF's
kernel's order: each element goes to the group of its key; a group that reaches its window
size is handed, as a Dataset, to ``reduce_func``, whose elements come out next; when the
input ends, the groups left over are handed on in increasing key order.

Examples
--------
>>> import eagerkit as ek
>>> from eagerkit.data.window_groups import grouped, window_sizes
>>> numbers = ek.data.Dataset.range(5)
>>> stream = grouped(numbers._make_iterator(), lambda x: x % 2, lambda k, w: w.batch(2),
...                  window_sizes(2, None, "group"), numbers, "group")
>>> [b.numpy().tolist() for b in stream]
[[0, 2], [1, 3], [4]]
"""

from eagerkit import dtypes
from eagerkit.arguments import describe, positive
from eagerkit.data import checks, steps, structure
from eagerkit.data.combining import _source
from eagerkit.data.steps import Failed
from eagerkit.errors import InvalidArgumentError, type_error
from eagerkit.tensor import Tensor, convert_to_tensor


def window_sizes(window_size, window_size_func, op):
    """key -> the window size: ``window_size`` or ``window_size_func`` (exactly one)."""
    if (window_size is None) == (window_size_func is None):
        raise InvalidArgumentError(
            f"{op}: give either window_size or window_size_func (one, not "
            f"{'both' if window_size is not None else 'neither'})",
            op=op,
        )
    if window_size is not None:
        size = positive(window_size, "window_size", op)
        return lambda key: size
    checks.check_callable(window_size_func, op, "window_size_func")

    def size_of(key):
        size = convert_to_tensor(window_size_func(key))
        if size.dtype != dtypes.int64 or size.shape != ():
            raise InvalidArgumentError(
                f"{op}: window_size_func must return an int64 scalar, got {describe(size)}",
                op=op,
            )
        return positive(int(size), "window size", op)  # TF: must be greater than zero

    return size_of


def element_key(key_func, element, op):
    """``key_func(element)``, if it is an int64 scalar tensor."""
    key = structure.to_tensors(steps.call(key_func, element))
    if not isinstance(key, Tensor) or key.dtype != dtypes.int64 or key.shape != ():
        raise InvalidArgumentError(
            f"{op}: key_func must return an int64 scalar, got {describe(key)}; e.g. "
            "lambda x: ek.cast(x % 2, ek.int64)",
            op=op,
        )
    return key


def reduced_dataset(reduce_func, key, window, op):
    """``reduce_func(key, window)``, if it is a Dataset."""
    from eagerkit.data.joining import Joining

    result = reduce_func(key, window)
    if not isinstance(result, Joining):
        raise type_error(
            f"{op}: reduce_func must return an ek.data.Dataset, got {describe(result)}; e.g. "
            "lambda key, window: window.batch(32)",
            op=op,
        )
    return result


def window_of(elements, dataset):
    """A window: a Dataset of ``elements`` (some of ``dataset``'s), with its element spec."""
    spec = lambda: dataset.element_spec  # noqa: E731
    return _source(lambda: iter(elements), f"window({len(elements)})", len(elements), spec)


def grouped(source, key_func, reduce_func, size_of, dataset, op):
    """``group_by_window``'s stream (see the module's docstring)."""
    groups, sizes = {}, {}

    def flush(key):
        window = window_of(groups.pop(key), dataset)
        key_tensor = convert_to_tensor(key, dtype=dtypes.int64)
        try:
            reduced = reduced_dataset(reduce_func, key_tensor, window, op)
        except Exception as error:
            return iter([Failed(error)])
        return reduced._make_iterator()

    for element in source:
        if type(element) is Failed:
            yield element
            continue
        try:
            key = int(element_key(key_func, element, op))
            if key not in sizes:
                sizes[key] = size_of(convert_to_tensor(key, dtype=dtypes.int64))
            if key not in groups:  # a window as big as memory holds, not one read forever
                steps.fits(sizes[key], element, op, "window_size")
        except Exception as error:  # the element's error, raised when it comes out
            yield Failed(error)
            continue
        groups.setdefault(key, []).append(element)
        if len(groups[key]) == sizes[key]:
            yield from flush(key)
    for key in sorted(groups):  # what is left, in increasing key order (TF's ordered map)
        yield from flush(key)
