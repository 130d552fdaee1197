"""Object metrics (``tfe.metrics``): call to accumulate, ``result()`` to read.

The running totals live in non-trainable float64 variables, so they survive between
batches (and can be checkpointed) and never receive gradients.

Examples
--------
>>> import eagerkit as ek
>>> m = ek.metrics.Mean()
>>> _ = m(0); _ = m(5)
>>> m.result()
<ek.Tensor: shape=(), dtype=float64, numpy=2.5>
>>> _ = m([8, 9])
>>> float(m.result())
5.5
"""

import numpy as np

from eagerkit import dtypes, summary
from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.layers.base import unique_name
from eagerkit.tensor import Tensor
from eagerkit.variables import Variable


def _host(value, op, dtype=np.float64):
    """A value (Tensor, list, number) as a numpy array: metrics are bookkeeping, not math.

    ``None``, strings and ragged lists are refused (``np.asarray(None, float)`` would be a
    silent NaN in the running total).
    """
    shown = describe(value) if isinstance(value, Tensor) else repr(value)  # before .numpy()
    if isinstance(value, Tensor):
        value = value.numpy()
    try:
        array = np.asarray(value)  # no dtype yet: [None, 1.0] must not become [nan, 1.0]
    except (TypeError, ValueError):  # ragged lists
        array = None
    if array is None or array.dtype.kind not in "biuf":
        raise InvalidArgumentError(
            f"{op}: cannot use {shown} as metric values; pass numbers, a list of numbers "
            "of one shape, or a tensor",
            op=op,
        )
    return array if dtype is None else array.astype(dtype)


class Metric:
    """Base class: a weighted running mean of the values added (``total / count``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> m = ek.metrics.Mean(name="doc_mean")
    >>> [v.name for v in m.variables]
    ['doc_mean/total:0', 'doc_mean/count:0']
    """

    default_dtype = dtypes.float64  # what dtype=None means (tfe.metrics: float64)

    def __init__(self, name=None, dtype=dtypes.float64):
        self.name = name or unique_name(type(self).__name__.lower())
        self.dtype = dtypes.as_dtype(self.default_dtype if dtype is None else dtype)
        self.total = Variable(0.0, trainable=False, name=f"{self.name}/total", dtype=self.dtype)
        self.count = Variable(0.0, trainable=False, name=f"{self.name}/count", dtype=self.dtype)

    def _accumulate(self, values, weights):
        """Add ``values`` (weighted) to the running total; both plain numpy arrays."""
        try:
            weights = np.broadcast_to(weights, values.shape)
        except ValueError:
            raise InvalidArgumentError(
                f"{self.name}: weights of shape {weights.shape} do not broadcast to the values' "
                f"shape {values.shape}; pass one weight, or one per value",
                op=self.name,
            ) from None
        dtype = self.dtype.as_numpy_dtype
        total = np.asarray(np.sum(values * weights), dtype=dtype)
        count = np.asarray(np.sum(weights), dtype=dtype)
        for variable in (self.total, self.count):  # both may be written, or neither is
            variable._check_writable("update_state")
        self.total.assign_add(total)
        self.count.assign_add(count)

    def _state(self):
        return self.total._data, self.count._data

    def _result_after(self, before):
        """``result()`` after an update; if it fails (logging it found no step, say), the
        update is taken back: the call that raised changes nothing."""
        try:
            return self.result()
        except BaseException:
            self.total._write(before[0], "update_state")
            self.count._write(before[1], "update_state")
            raise

    def result(self, write_summary=True):
        """The mean so far (0 before anything was added).

        Inside a summary writer's ``as_default()`` it is also logged as a scalar named after
        the metric (at the global step), as ``tfe.metrics`` does.
        """
        count = self.count.numpy()
        value = self.total.numpy() / count if count else np.zeros((), count.dtype)
        value = Tensor(np.asarray(value, dtype=self.dtype.as_numpy_dtype))
        if write_summary:
            summary.scalar(self.name, value)  # does nothing unless a writer records now
        return value

    def reset_states(self):
        """Forget everything accumulated so far."""
        self.total.assign(0.0)
        self.count.assign(0.0)

    reset_state = reset_states

    @property
    def variables(self):
        """The accumulator variables (total, count)."""
        return [self.total, self.count]

    def __repr__(self):
        value = float(self.result(write_summary=False))
        return f"<ek.metrics.{type(self).__name__} '{self.name}' result={value}>"


class Mean(Metric):
    """The (weighted) mean of every value passed in so far.

    Examples
    --------
    >>> import eagerkit as ek
    >>> m = ek.metrics.Mean()
    >>> float(m([1.0, 2.0])), float(m(6.0, weights=2.0))
    (1.5, 3.75)
    """

    def __call__(self, values, weights=1.0):
        """Add ``values`` (a number or any shape); returns the mean so far."""
        before = self._state()
        self._accumulate(_host(values, self.name), _host(weights, self.name))
        return self._result_after(before)

    update_state = __call__


class Accuracy(Metric):
    """The fraction of ``predictions`` equal to ``labels`` so far.

    Examples
    --------
    >>> import eagerkit as ek
    >>> acc = ek.metrics.Accuracy()
    >>> float(acc(labels=[1, 2, 3, 4], predictions=[1, 2, 0, 4]))
    0.75
    """

    def __call__(self, labels, predictions, weights=1.0):
        """Compare ``labels`` and ``predictions`` (same shape); returns the accuracy so far."""
        labels = _host(labels, self.name, dtype=None)
        predictions = _host(predictions, self.name, dtype=None)
        if labels.shape != predictions.shape:
            raise InvalidArgumentError(
                f"Accuracy: labels have shape {labels.shape} but predictions have shape "
                f"{predictions.shape}; pass class ids for both (e.g. ek.argmax(logits, axis=1))",
                op="accuracy",
            )
        before = self._state()
        self._accumulate((labels == predictions).astype(np.float64), _host(weights, self.name))
        return self._result_after(before)

    update_state = __call__


# What this namespace exports (to ``import *`` and to the error boundary, namespaces.py);
# the helpers it imports or keeps for itself stay out.
__all__ = ["Metric", "Mean", "Accuracy"]
