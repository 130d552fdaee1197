"""``ek.keras.utils.timeseries_dataset_from_array``: sliding windows over a series, as Keras'.

Window ``i`` starts at position ``p_i`` (``0, sequence_stride, 2 * sequence_stride, ...``,
counted from ``start_index``) and holds ``sequence_length`` steps ``sampling_rate`` apart;
its target (when ``targets`` is given) is ``targets[start_index + p_i]``. Only windows that
fit before ``end_index`` are made. With ``shuffle`` the start positions are shuffled once
(numpy's ``RandomState(seed)``), then each batch is drawn from a buffer of
``8 * batch_size`` windows, as Keras does. TF's time-series tutorial makes its datasets so.

Examples
--------
>>> import eagerkit as ek, numpy as np
>>> ds = ek.keras.utils.timeseries_dataset_from_array(
...     np.arange(10), targets=None, sequence_length=4, sequence_stride=3, batch_size=2)
>>> [batch.numpy().tolist() for batch in ds]
[[[0, 1, 2, 3], [3, 4, 5, 6]], [[6, 7, 8, 9]]]
"""

import numpy as np

from eagerkit.arguments import describe, positive, size
from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import constant_of as constant

_OP = "timeseries_dataset_from_array"


def timeseries_dataset_from_array(
    data,
    targets,
    sequence_length,
    sequence_stride=1,
    sampling_rate=1,
    batch_size=128,
    shuffle=False,
    seed=None,
    start_index=None,
    end_index=None,
):
    """A Dataset of windows ``data[p : p + sequence_length * sampling_rate : sampling_rate]``
    (batched by ``batch_size`` unless it is None), paired with ``targets[p]`` when given.

    Examples
    --------
    >>> import eagerkit as ek, numpy as np
    >>> series = np.arange(8.0)
    >>> ds = ek.keras.utils.timeseries_dataset_from_array(
    ...     series[:-3], targets=series[3:], sequence_length=3, batch_size=None)
    >>> [(x.numpy().tolist(), float(y)) for x, y in ds][:2]
    [([0.0, 1.0, 2.0], 3.0), ([1.0, 2.0, 3.0], 4.0)]
    """
    from eagerkit.data.dataset import Dataset  # data imports keras lazily: no cycle

    series = _array(data, "data")
    labels = None if targets is None else _array(targets, "targets")
    length = len(series)
    sequence_length = positive(sequence_length, "sequence_length", _OP)
    start, end = _bounds(start_index, end_index, length)
    sampling_rate = _step(sampling_rate, "sampling_rate", length)
    sequence_stride = _step(sequence_stride, "sequence_stride", length)
    if batch_size is not None:
        batch_size = positive(batch_size, "batch_size", _OP)

    count = end - start - (sequence_length - 1) * sampling_rate  # windows that fit
    if labels is not None:  # a window needs its target (targets may be the shorter)
        count = min(count, len(labels) - start)
    starts = np.arange(0, max(count, 0), sequence_stride)
    if shuffle:
        seed = np.random.randint(1_000_000) if seed is None else seed
        np.random.RandomState(seed).shuffle(starts)
    offsets = np.arange(sequence_length) * sampling_rate
    span = series[start:end]

    def make_iterator():
        for position in starts:
            window = constant(span[position + offsets])
            yield window if labels is None else (window, constant(labels[start + position]))

    dataset = Dataset(
        make_iterator, f"{_OP}({len(starts)} windows of {sequence_length})", len(starts)
    )
    if batch_size is None:
        return dataset.shuffle(1024, seed=seed) if shuffle else dataset
    if shuffle:  # each batch from a local buffer, as Keras shuffles at each iteration
        dataset = dataset.shuffle(batch_size * 8, seed=seed)
    return dataset.batch(batch_size)


def _array(value, what):
    """``data`` or ``targets`` as a numpy array with a time axis (axis 0)."""
    try:
        array = np.asarray(value)
    except (TypeError, ValueError) as error:
        raise InvalidArgumentError(
            f"{_OP}: {what} must be an array (time on axis 0), got {describe(value)}: {error}",
            op=_OP,
        ) from None
    if array.ndim == 0 or array.dtype == object:
        raise InvalidArgumentError(
            f"{_OP}: {what} must be an array of numbers with time on axis 0, got "
            f"{describe(value)}; pass e.g. a numpy array of shape (steps, features)",
            op=_OP,
        )
    return array


def _bounds(start_index, end_index, length):
    """``start_index`` and ``end_index`` checked as Keras checks them, with their defaults."""
    start = 0 if start_index is None else size(start_index, "start_index", _OP)
    if start and start >= length:
        raise InvalidArgumentError(
            f"{_OP}: start_index must be lower than the length of the data, got "
            f"start_index={start} for data of length {length}",
            op=_OP,
        )
    if end_index is None:
        return start, length
    end = positive(end_index, "end_index", _OP)
    if end <= start:
        raise InvalidArgumentError(
            f"{_OP}: end_index must be higher than start_index, got start_index={start} "
            f"and end_index={end}",
            op=_OP,
        )
    if end >= length:
        raise InvalidArgumentError(
            f"{_OP}: end_index must be lower than the length of the data, got "
            f"end_index={end} for data of length {length}; leave it None to use all of it",
            op=_OP,
        )
    return start, end


def _step(value, what, length):
    """``sampling_rate`` or ``sequence_stride``: at least 1 and below the data's length."""
    value = positive(value, what, _OP)
    if value >= length:
        raise InvalidArgumentError(
            f"{_OP}: {what} must be lower than the length of the data, got {what}={value} "
            f"for data of length {length}",
            op=_OP,
        )
    return value


__all__ = ["timeseries_dataset_from_array"]
