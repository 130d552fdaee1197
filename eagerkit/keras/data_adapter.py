"""The batches ``fit``, ``evaluate`` and ``predict`` run on, from arrays or a Dataset.

Arrays (numpy arrays, tensors, lists or dicts of them for several inputs or outputs) are
cut into batches of ``batch_size``, reshuffled every epoch when ``shuffle`` says so (the
order comes from ``ek.random``, so ``ek.random.set_seed`` makes it repeatable); the last
``validation_split`` of them is held out first, before any shuffling, as Keras does. A
``Dataset`` gives its own batches, read again from the start every epoch, or, with
``steps_per_epoch``, read on across epochs.

A batch is what ``train_step(data)`` gets, as in Keras: a Dataset's element as it is, and
for arrays ``(x, y)``, or ``(x, y, sample_weight)`` when there are weights, or ``x`` alone
when there are no labels (``pack_x_y_sample_weight``), so a ``train_step`` written from
Keras' guides (``x, y = data``) runs.

Examples
--------
>>> import numpy as np
>>> from eagerkit.keras.data_adapter import ArrayData
>>> data = ArrayData(np.arange(5.0), np.arange(5), batch_size=2, shuffle=False)
>>> [x.numpy().tolist() for x, y in data.batches()]
[[0.0, 1.0], [2.0, 3.0], [4.0]]
"""

import itertools
import math
import numbers
import warnings

from eagerkit.data.cardinality import INFINITE_CARDINALITY
from eagerkit.data.dataset import Dataset
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.host_arrays import (  # noqa: F401 - numbers_only: re-exported (steps.py)
    as_tensors,
    class_weights,
    common_size,
    epoch_order,
    host_arrays,
    numbers_only,
    sample_array,
    take_rows,
)
from eagerkit.tensor import convert_to_tensor


def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    """The batch ``train_step`` gets (Keras' packing): ``(x, y, sample_weight)`` without the
    trailing Nones; ``x`` alone when it is one tensor and there are no labels.

    Examples
    --------
    >>> from eagerkit.keras.data_adapter import pack_x_y_sample_weight
    >>> pack_x_y_sample_weight("x", "y"), pack_x_y_sample_weight("x")
    (('x', 'y'), 'x')
    """
    if y is None:  # one input needs no tuple; several (a list or dict) are wrapped as (x,)
        return (x,) if isinstance(x, (list, tuple, dict)) else x
    return (x, y) if sample_weight is None else (x, y, sample_weight)


def unpack_x_y_sample_weight(data):
    """``(x, y, sample_weight)`` from an element: ``x``, ``(x,)``, ``(x, y)`` or ``(x, y, w)``."""
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return data, None, None
    if 1 <= len(data) <= 3:
        return (*data, *(None,) * (3 - len(data)))
    raise InvalidArgumentError(
        "Data is expected to be in format `x`, `(x,)`, `(x, y)`, or `(x, y, sample_weight)`, "
        f"found a tuple of {len(data)} items",
        op="fit",
    )


class ArrayData:
    """Arrays held on the host, served as batches of tensors."""

    def __init__(
        self, x, y=None, sample_weight=None, batch_size=32, shuffle=True, class_weight=None
    ):
        self.x, self.y = host_arrays(x, "x"), host_arrays(y, "y")
        self.sample_weight = host_arrays(sample_weight, "sample_weight")
        self.size = common_size(self.x, self.y, self.sample_weight)
        self.batch_size = batch_size
        self.shuffle = shuffle
        if class_weight is not None:
            weights = class_weights(self.y, class_weight)
            self.sample_weight = (
                weights if self.sample_weight is None else (self.sample_weight * weights)
            )

    @property
    def steps(self):
        return math.ceil(self.size / self.batch_size)

    def split(self, fraction):
        """``(train, validation)``: the validation part is the last ``fraction`` of the data."""
        cut = int(math.floor(self.size * (1.0 - fraction)))
        if cut == 0 or cut == self.size:
            raise InvalidArgumentError(
                f"validation_split={fraction} leaves no data for training or for validation "
                f"out of {self.size} samples; use a fraction whose share of the samples is at "
                "least one on each side",
                op="fit",
            )
        parts = []
        for rows in (slice(0, cut), slice(cut, None)):
            part = object.__new__(ArrayData)
            part.__dict__.update(self.__dict__)
            part.x, part.y = take_rows(self.x, rows), take_rows(self.y, rows)
            part.sample_weight = take_rows(self.sample_weight, rows)
            part.size = len(range(*rows.indices(self.size)))
            parts.append(part)
        return parts

    def batches(self):
        """One pass over the data, in a new order if shuffling."""
        order = epoch_order(self.size, self.batch_size, self.shuffle)
        for start in range(0, self.size, self.batch_size):
            rows = order[start : start + self.batch_size]
            yield pack_x_y_sample_weight(
                as_tensors(take_rows(self.x, rows)),
                as_tensors(take_rows(self.y, rows)),
                as_tensors(take_rows(self.sample_weight, rows)),
            )


class DatasetData:
    """An ``ek.data.Dataset`` of batches; its size is its cardinality where that is known
    (Keras' progress bar shows ``63/63`` from the first epoch), else learned by reading it
    once (``filter``, a generator: ``63/Unknown`` first)."""

    def __init__(self, dataset, class_weight=None):
        self.dataset = dataset
        self.class_weight = class_weight
        count = dataset._cardinality
        self.steps = count if count >= 0 else None  # INFINITE and UNKNOWN are negative

    def batches(self):
        count = 0
        for element in self.dataset:
            if self.class_weight is not None:  # the element with its weights (Keras' map)
                x, y, weight = unpack_x_y_sample_weight(element)
                extra = class_weights(sample_array(y), self.class_weight)
                weight = extra if weight is None else sample_array(weight) * extra
                element = pack_x_y_sample_weight(x, y, convert_to_tensor(weight))
            count += 1
            yield element
        self.steps = count


def check_finite(data, steps, what, caller, role="x"):
    """Refuse, before the first step, a Dataset that repeats forever with no ``steps``
    (``what``: ``steps_per_epoch``, ``validation_steps`` or ``steps``): it would run forever."""
    if steps is not None or not isinstance(data, DatasetData):
        return
    if data.dataset._cardinality == INFINITE_CARDINALITY:
        raise InvalidArgumentError(
            f"{caller}: When passing an infinitely repeating dataset, please specify a "
            f"`{what}` value; {role}={data.dataset!r} has cardinality INFINITE_CARDINALITY "
            f"(-1), so {caller} would never end. Pass "
            f"e.g. {what}=100, or leave repeat() out of the dataset",
            op=caller,
        )


def adapt(x, y, sample_weight, batch_size, shuffle, class_weight, caller):
    """The data source for ``x`` (arrays or a Dataset), with Keras' argument checks."""
    if isinstance(x, Dataset):
        for name, value in (("y", y), ("sample_weight", sample_weight)):
            if value is not None:
                raise InvalidArgumentError(
                    f"`{name}` argument is not supported when using dataset as input: the "
                    f"dataset's elements carry it ((x, y) or (x, y, sample_weight) tuples)",
                    op=caller,
                )
        if batch_size is not None:
            raise InvalidArgumentError(
                "The `batch_size` argument must not be specified for the given input type "
                "(a Dataset: it batches itself, e.g. dataset.batch(64))",
                op=caller,
            )
        return DatasetData(x, class_weight)
    if x is None:
        raise InvalidArgumentError(
            f"{caller}: x is missing; give the inputs as arrays (or a list or dict of "
            "arrays), or an ek.data.Dataset of (x, y) batches",
            op=caller,
        )
    if batch_size is not None:
        batch_size = whole_number(batch_size, "batch_size", caller)
    return ArrayData(x, y, sample_weight, batch_size or 32, shuffle, class_weight)


class EpochBatches:
    """Each epoch's batches: a fresh pass per epoch, or ``steps_per_epoch`` batches read
    on from where the last epoch stopped (``ran_out`` tells when the data ended early)."""

    def __init__(self, data, steps_per_epoch, epochs, caller="fit"):
        self.data = data
        self.steps_per_epoch = (
            None
            if steps_per_epoch is None
            else whole_number(steps_per_epoch, "steps_per_epoch", caller)
        )
        self.epochs = epochs
        self.ran_out = False
        self._stream = None

    @property
    def steps(self):
        return self.steps_per_epoch if self.steps_per_epoch is not None else self.data.steps

    def epoch(self):
        if self.steps_per_epoch is None:
            return enumerate(self.data.batches())
        if self._stream is None:
            passes = itertools.repeat(None) if isinstance(self.data, ArrayData) else [None]
            self._stream = itertools.chain.from_iterable(self.data.batches() for _ in passes)
        return self._limited()

    def _limited(self):
        for step in range(self.steps_per_epoch):
            batch = next(self._stream, None)
            if batch is None:
                self.ran_out = True
                warnings.warn(
                    "Your input ran out of data; interrupting training. Make sure that your "
                    "dataset or generator can generate at least `steps_per_epoch * epochs` "
                    f"batches (in this case, {self.steps_per_epoch * self.epochs} batches). "
                    "You may need to use the repeat() function when building your dataset.",
                    stacklevel=4,
                )
                return
            yield step, batch


def whole_number(value, what, caller, minimum=1):
    """``value`` as an int >= ``minimum``; a fraction, a bool or a string is refused."""
    whole = (
        isinstance(value, numbers.Real)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value == int(value)
        and value >= minimum
    )
    if not whole:
        raise InvalidArgumentError(
            f"{caller}: {what} must be a whole number >= {minimum}, got {value!r}", op=caller
        )
    return int(value)
