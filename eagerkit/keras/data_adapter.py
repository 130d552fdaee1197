"""The batches ``fit``, ``evaluate`` and ``predict`` run on, from arrays or a Dataset.

Arrays (numpy arrays, tensors, lists or dicts of them for several inputs or outputs) are
cut into batches of ``batch_size``, reshuffled every epoch when ``shuffle`` says so (the
order comes from ``ek.random``, so ``ek.random.set_seed`` makes it repeatable); the last
``validation_split`` of them is held out first, before any shuffling, as Keras does. A
``Dataset`` gives its own batches, read again from the start every epoch, or, with
``steps_per_epoch``, read on across epochs. Each batch is ``(x, y, sample_weight)``.

Examples
--------
>>> import numpy as np
>>> from eagerkit.keras.data_adapter import ArrayData
>>> data = ArrayData(np.arange(5.0), np.arange(5), batch_size=2, shuffle=False)
>>> [x.numpy().tolist() for x, y, w in data.batches()]
[[0.0, 1.0], [2.0, 3.0], [4.0]]
"""

import itertools
import math
import numbers
import warnings

import numpy as np

from eagerkit import nest
from eagerkit.arguments import describe
from eagerkit.data.cardinality import INFINITE_CARDINALITY
from eagerkit.data.dataset import Dataset
from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import Tensor, convert_to_tensor


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
        self.x, self.y = _host_arrays(x, "x"), _host_arrays(y, "y")
        self.sample_weight = _host_arrays(sample_weight, "sample_weight")
        self.size = _common_size(self.x, self.y, self.sample_weight)
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
            part.x, part.y = _take(self.x, rows), _take(self.y, rows)
            part.sample_weight = _take(self.sample_weight, rows)
            part.size = len(range(*rows.indices(self.size)))
            parts.append(part)
        return parts

    def batches(self):
        """One pass over the data, in a new order if shuffling."""
        order = _order(self.size, self.batch_size, self.shuffle)
        for start in range(0, self.size, self.batch_size):
            rows = order[start : start + self.batch_size]
            yield (
                _as_tensors(_take(self.x, rows)),
                _as_tensors(_take(self.y, rows)),
                _as_tensors(_take(self.sample_weight, rows)),
            )


class DatasetData:
    """An ``ek.data.Dataset`` of batches; its size is learned by reading it once."""

    def __init__(self, dataset, class_weight=None):
        self.dataset = dataset
        self.class_weight = class_weight
        self.steps = None

    def batches(self):
        count = 0
        for element in self.dataset:
            x, y, weight = unpack_x_y_sample_weight(element)
            if self.class_weight is not None:
                extra = class_weights(_numpy(y), self.class_weight)
                weight = extra if weight is None else _numpy(weight) * extra
                weight = convert_to_tensor(weight)
            count += 1
            yield x, y, weight
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


def class_weights(y, class_weight):
    """One weight per sample: ``class_weight[class of that sample's target]``."""
    if not isinstance(class_weight, dict):
        raise InvalidArgumentError(
            f"class_weight must be a dict {{class id: weight}}, got {class_weight!r:.100}",
            op="fit",
        )
    if y is None or isinstance(y, (dict, list, tuple)):
        raise InvalidArgumentError(
            "`class_weight` is only supported for Models with a single output (and needs "
            "its targets)",
            op="fit",
        )
    ids = sorted(class_weight)
    if ids != list(range(len(ids))):
        raise InvalidArgumentError(
            "Expected `class_weight` to be a dict with keys from 0 to one less than the "
            f"number of classes, found {class_weight}",
            op="fit",
        )
    table = np.array([float(class_weight[i]) for i in ids])
    y = np.asarray(y)
    classes = np.argmax(y, axis=-1) if y.ndim == 2 and y.shape[1] > 1 else y.reshape(len(y))
    if classes.size and (classes.min() < 0 or classes.max() >= len(table)):
        raise InvalidArgumentError(
            f"class_weight has weights for classes 0 to {len(table) - 1} but the targets "
            f"hold class {int(classes.max() if classes.max() >= len(table) else classes.min())}",
            op="fit",
        )
    return table[classes.astype(np.int64)]


def _host_arrays(value, what):
    """``value``'s arrays as numpy arrays, in the same structure (None stays None)."""
    if value is None:
        return None
    if numbers_only(value):
        try:
            value = np.asarray(value)
        except ValueError:  # numpy's "inhomogeneous shape": rows of different lengths
            raise InvalidArgumentError(
                f"{what} holds nested lists of different lengths, which make no array; pad "
                "the shorter rows to one length (or use ek.ragged.constant and a Dataset)",
                op="fit",
            ) from None
    leaves = [_numpy(leaf, what) for leaf in nest.flatten(value)]
    return nest.pack_sequence_as(value, leaves)


def numbers_only(value):
    """A (nested) list of plain numbers is one array, not several inputs."""
    return isinstance(value, (list, tuple)) and all(
        isinstance(leaf, numbers.Number) for leaf in nest.flatten(value)
    )


def _numpy(value, what="y"):
    array = np.asarray(value.numpy()) if isinstance(value, Tensor) else np.asarray(value)
    numbers = isinstance(value, Tensor) or array.dtype.kind in "biuf"  # (a tensor: as it is)
    if array.ndim == 0 or not numbers:  # (a scalar is no batch of samples)
        shown = describe(value) if isinstance(value, Tensor) else f"{value!r:.80}"
        raise InvalidArgumentError(
            f"{what} must hold arrays of numbers with a first (sample) axis, got {shown}; "
            "pass e.g. np.array(...) or a tensor (one sample x as x[None], or [x])",
            op="fit",
        )
    return array


def _common_size(*structures):
    sizes = {}
    for name, structure in zip(("x", "y", "sample_weight"), structures, strict=True):
        if structure is not None:
            sizes[name] = [leaf.shape[0] for leaf in nest.flatten(structure)]
    found = {size for leaves in sizes.values() for size in leaves}
    if len(found) > 1:
        lines = "\n".join(f"  {name} sizes: {', '.join(map(str, s))}" for name, s in sizes.items())
        raise InvalidArgumentError(
            f"Data cardinality is ambiguous:\n{lines}\nMake sure all arrays contain the same "
            "number of samples.",
            op="fit",
        )
    return found.pop() if found else 0


def _take(structure, rows):
    if structure is None:
        return None
    return nest.pack_sequence_as(structure, [leaf[rows] for leaf in nest.flatten(structure)])


def _as_tensors(structure):
    if structure is None:
        return None
    leaves = [convert_to_tensor(leaf) for leaf in nest.flatten(structure)]
    return nest.pack_sequence_as(structure, leaves)


def _order(size, batch_size, shuffle):
    """The sample order of one epoch: as stored, shuffled, or shuffled by batches."""
    if not shuffle:
        return np.arange(size)
    from eagerkit.random import shuffle as random_shuffle

    if shuffle == "batch":  # whole batches in a random order, each shuffled inside
        blocks = [np.arange(s, min(s + batch_size, size)) for s in range(0, size, batch_size)]
        order = random_shuffle(np.arange(len(blocks))).numpy()
        return np.concatenate([random_shuffle(blocks[i]).numpy() for i in order])
    return random_shuffle(np.arange(size)).numpy()


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
