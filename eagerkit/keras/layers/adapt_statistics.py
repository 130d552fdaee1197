"""Mean and variance of data that arrives in batches: what ``Normalization.adapt`` learns.

Data may be one array or a stream of batches (an ``ek.data.Dataset``, a generator). Each
batch's own mean and variance are merged into the running ones with Chan, Golub and
LeVeque's pairwise update, in float64, so the result does not depend on how the data was
cut into batches: adapting on a Dataset gives what adapting on the whole array gives.

Examples
--------
>>> import eagerkit as ek
>>> from eagerkit.keras.layers.adapt_statistics import RunningMoments
>>> moments = RunningMoments()
>>> moments.add(ek.constant([[1.0], [2.0]], ek.float64), [0], [1])
>>> moments.add(ek.constant([[3.0], [4.0], [5.0]], ek.float64), [0], [1])
>>> moments.count, moments.mean.numpy().tolist(), moments.variance.numpy().tolist()
(5, [3.0], [2.0])
"""

import itertools
import math

from eagerkit.data.dataset import Dataset
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.layers.category_outputs import count_argument
from eagerkit.ops.reduce import reduce_mean
from eagerkit.ops.shape import reshape
from eagerkit.ops.statistics import reduce_variance


def batches_of(data, call, steps=None):
    """The batches in ``data``: ``data`` itself for an array, a Tensor or a (nested) list;
    each element of an ``ek.data.Dataset`` or an iterator (of ``(inputs, labels)`` pairs,
    the inputs), as TF's ``adapt`` reads them; the first ``steps`` of them (None: all),
    ``steps`` checked at once.

    Examples
    --------
    >>> import eagerkit as ek
    >>> from eagerkit.keras.layers.adapt_statistics import batches_of
    >>> pairs = ek.data.Dataset.from_tensor_slices(([[1.0], [2.0], [3.0]], [0, 1, 0])).batch(2)
    >>> [b.numpy().tolist() for b in batches_of(pairs, "adapt")]
    [[[1.0], [2.0]], [[3.0]]]
    """
    if steps is not None:
        steps = count_argument(steps, "steps", call, 1, " (or None: all the data)")
    batches = _batches(data, call)
    return batches if steps is None else itertools.islice(batches, steps)


def _batches(data, call):
    if not isinstance(data, Dataset) and not hasattr(data, "__next__"):
        yield data
        return
    for element in data:
        if isinstance(element, (tuple, list)):
            element = element[0]  # (inputs, labels[, weights]): the inputs are adapted to
        if isinstance(element, dict):
            raise InvalidArgumentError(
                f"{call}: the Dataset yields dicts of features; adapt takes one array per "
                "batch: map it to the features to normalize first, e.g. "
                "ds.map(lambda x: ek.stack([x['a'], x['b']], axis=-1))",
                op=call,
            )
        yield element


def adapted_shape(data, first_batch):
    """The input shape Keras 3's ``adapt`` builds a layer for, which ``summary()`` shows
    until the layer's first call: an array's (or Tensor's) whole shape, a Dataset's batches'
    shape (``None`` for their size), else the first batch's shape.

    Examples
    --------
    >>> import eagerkit as ek, numpy as np
    >>> adapted_shape(np.zeros((6, 2)), np.zeros((6, 2)))
    (6, 2)
    >>> adapted_shape(ek.data.Dataset.from_tensor_slices(np.zeros((6, 2))).batch(4), None)
    (None, 2)
    """
    if isinstance(data, Dataset):
        spec = data.element_spec
        spec = spec[0] if isinstance(spec, tuple) else spec  # (inputs, labels): the inputs
        shape = tuple(spec.shape)
        return (None, *shape) if len(shape) == 1 else shape  # rows: Keras batches them
    return tuple(first_batch.shape)


class RunningMoments:
    """Count, mean and (population) variance of the values seen so far, per kept position.

    ``add(batch, reduced, kept_shape)`` takes a float64 batch and the axes it averages over;
    positions along the other axes keep their own statistics, shaped ``kept_shape``.
    """

    def __init__(self):
        self.count = 0
        self.mean = self.variance = None

    def add(self, batch, reduced, kept_shape):
        count = math.prod(batch.shape[axis] for axis in reduced)
        if count == 0:
            return  # an empty batch changes nothing (and its mean would be nan)
        mean = reshape(reduce_mean(batch, axis=reduced, keepdims=True), kept_shape)
        variance = reshape(reduce_variance(batch, axis=reduced, keepdims=True), kept_shape)
        if self.count == 0:
            self.count, self.mean, self.variance = count, mean, variance
            return
        total = self.count + count
        delta = mean - self.mean
        # Sums of squared deviations add, plus what the two means' distance contributes.
        squares = self.variance * self.count + variance * count
        squares = squares + delta * delta * (self.count * count / total)
        self.mean = self.mean + delta * (count / total)
        self.variance = squares / total
        self.count = total
