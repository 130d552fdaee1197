"""Dataset steps that carry state from one element to the next: ``scan`` (a running
state, as ``reduce`` but giving an element at each step) and ``rejection_resample`` (the
tf.data guide's way to rebalance classes).

They are a mixin of ``Dataset`` (it inherits them), kept apart so that each file holds one
kind of step.
"""

import itertools

import numpy as np

from eagerkit.arguments import describe
from eagerkit.data import cardinality as counts
from eagerkit.data import checks, shuffle, specs, steps, structure
from eagerkit.data.steps import Failed
from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import convert_to_tensor


class Stateful:
    """``Dataset``'s steps with a running state (a mixin: ``self`` is a Dataset)."""

    def scan(self, initial_state, scan_func):
        """``state, out = scan_func(state, element)`` at each element; the dataset of ``out``.

        The state keeps the structure and dtypes of ``initial_state`` (as in ``reduce``).

        >>> import eagerkit as ek
        >>> running = ek.data.Dataset.range(5).scan(
        ...     ek.constant(0, ek.int64), lambda total, x: (total + x, total + x))
        >>> [int(x) for x in running]
        [0, 1, 3, 6, 10]
        """
        checks.check_callable(scan_func, "scan", "scan_func")
        first_state = structure.to_tensors(initial_state)

        def make_iterator():
            state = first_state
            for element in self._make_iterator():
                if type(element) is not Failed:
                    try:
                        state, element = _scanned(scan_func, state, element)
                    except Exception as error:  # the element's error, raised when it comes out
                        yield Failed(error)
                        return  # the state is lost with it: TF's scan stops there too
                yield element

        scanned = self._then(make_iterator, f"scan({_name(scan_func)})")

        def spec():  # from the first two outputs, as map's (eagerkit does not trace)
            found = [specs.of_element(e) for e in specs.first_elements(scanned, "element_spec")]
            return found[0] if len(found) == 1 else specs.relaxed(*found)

        return self._then(make_iterator, f"scan({_name(scan_func)})", spec=spec)

    def rejection_resample(self, class_func, target_dist, initial_dist=None, seed=None):
        """Elements resampled so their classes follow ``target_dist``; each comes out as
        ``(class, element)``. TF's method: an element of class ``c`` is kept with probability
        ``a[c]``, and mixed with untouched elements so as to drop as few as possible.

        ``class_func(element)`` gives an integer class; ``initial_dist``, the classes'
        frequencies in the input, is estimated from the elements seen so far when None.

        >>> import eagerkit as ek
        >>> labels = ek.data.Dataset.from_tensor_slices([0] * 90 + [1] * 10).repeat()
        >>> balanced = labels.rejection_resample(
        ...     lambda x: x, target_dist=[0.5, 0.5], initial_dist=[0.9, 0.1], seed=1)
        >>> classes = [int(c) for c, x in balanced.take(1000)]
        >>> 0.45 < sum(classes) / 1000 < 0.55
        True
        """
        op = "Dataset.rejection_resample"
        checks.check_callable(class_func, "rejection_resample", "class_func")
        target = _distribution(target_dist, "target_dist", op)
        initial = None if initial_dist is None else _distribution(initial_dist, "initial_dist", op)
        if initial is not None and initial.shape != target.shape:
            raise InvalidArgumentError(
                f"{op}: initial_dist has {initial.size} classes and target_dist "
                f"{target.size}; give one probability per class in each",
                op=op,
            )
        base = shuffle.base_seed(seed)
        passes = itertools.count()

        def make_iterator():
            rng = np.random.default_rng([base, next(passes)])
            return _resampled(self._make_iterator, class_func, target, initial, rng, op)

        def spec():
            first = specs.first_elements(self, "element_spec", count=1)[0]
            label = structure.to_tensors(steps.call(class_func, first))
            return (specs.of_element(label), self.element_spec)

        name = f"rejection_resample({_name(class_func)})"
        return self._then(make_iterator, name, counts.UNKNOWN_CARDINALITY, spec)


def _scanned(scan_func, state, element):
    result = scan_func(state, element)
    if not (isinstance(result, tuple) and len(result) == 2):
        raise InvalidArgumentError(
            f"Dataset.scan: scan_func must return (new_state, output_element), got "
            f"{describe(result)}; e.g. lambda state, x: (state + x, state + x)",
            op="Dataset.scan",
        )
    new_state, output = (structure.to_tensors(part) for part in result)
    checks.same_state(state, new_state, "Dataset.scan", "scan_func")
    return new_state, output


def _distribution(values, what, op):
    array = np.asarray(convert_to_tensor(values, dtype="float64").numpy())
    if array.ndim != 1 or array.size == 0 or np.any(array < 0) or not np.isclose(array.sum(), 1):
        raise InvalidArgumentError(
            f"{op}: {what} must be a list of probabilities, one per class, that add up to "
            f"1, got {describe(values)}; e.g. [0.5, 0.5]",
            op=op,
        )
    return array


def _acceptance(initial, target):
    """TF's mixing: keep class ``c`` with ``a[c]``; take an untouched element with ``m``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(initial > 0, target / initial, np.inf)
    top, low = ratio.max(), ratio.min()
    if not np.isfinite(top) or top == low:  # a class never seen yet, or nothing to change
        return np.where(np.isfinite(ratio), ratio / top if np.isfinite(top) else 0.0, 1.0), low
    return (ratio - low) / (top - low), low


def _resampled(make_source, class_func, target, initial, rng, op):
    """TF's two streams over the input: with probability ``m`` the next element as it is,
    else the next one the filter keeps (class ``c`` with ``a[c]``); the first to end ends it."""
    untouched, filtered = make_source(), make_source()
    seen = np.zeros(target.size)
    while True:
        current = initial if initial is not None else _estimate(seen, target.size)
        accept, keep_original = _acceptance(current, target)
        from_untouched = rng.random() < keep_original
        for element in untouched if from_untouched else filtered:
            if type(element) is Failed:
                yield element
                break
            label = structure.to_tensors(steps.call(class_func, element))
            c = _class_index(label, target.size, op)
            seen[c] += 1  # both streams read the input: both tell its frequencies
            if from_untouched:
                yield (label, element)
                break
            if rng.random() < accept[c]:
                yield (label, element)
                break
        else:
            return


def _estimate(seen, count):
    """The classes' frequencies so far (equal before any element is seen)."""
    return seen / seen.sum() if seen.sum() else np.full(count, 1.0 / count)


def _class_index(label, count, op):
    value = label.numpy() if hasattr(label, "numpy") else label
    if np.ndim(value) != 0 or not np.issubdtype(np.asarray(value).dtype, np.integer):
        raise InvalidArgumentError(
            f"{op}: class_func must return an integer scalar (the class), got {describe(label)}",
            op=op,
        )
    if not 0 <= int(value) < count:
        raise InvalidArgumentError(
            f"{op}: class_func gave class {int(value)}, but target_dist has {count} classes "
            f"(0 to {count - 1})",
            op=op,
        )
    return int(value)


def _name(function):
    return getattr(function, "__name__", "function")
