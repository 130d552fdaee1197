"""Object metrics (``tfe.metrics``): call to accumulate, ``result()`` to read.

The running totals live in non-trainable float64 variables, so they survive between
batches (and can be checkpointed) and never receive gradients. They grow by
``assign_add`` of sums computed with eagerkit ops, so a metric also updates inside
``ek.function``, at every call of the graph (metric_inputs.py).

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

from eagerkit import dtypes, summary
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.layers.base import unique_name
from eagerkit.keras.metric_inputs import equal_values, metric_tensor, weights_to
from eagerkit.ops.cast import cast
from eagerkit.ops.creation import ones_like
from eagerkit.ops.reduce import reduce_sum
from eagerkit.ops.safe_math import divide_no_nan
from eagerkit.variables import Variable


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

    def _accumulate(self, values, weights=None):
        """Add ``values`` (weighted; tensors of this metric's dtype) to the running total.

        Both sums are computed before either variable changes: a bad weight changes nothing.
        """
        if weights is None:
            weights = ones_like(values)  # ops that follow each call's shape in ek.function
        else:
            weights = weights_to(weights, values, self.name)
        total, count = reduce_sum(values * weights), reduce_sum(weights)
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
        value = divide_no_nan(self.total, self.count)  # an op: it runs in ek.function too
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
        values = metric_tensor(values, self.name, self.dtype)
        weights = metric_tensor(weights, self.name, self.dtype)
        before = self._state()
        self._accumulate(values, weights)
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
        """Compare ``labels`` and ``predictions`` (same shape); returns the accuracy so far.

        The shapes must be equal, as TF1's ``tfe.metrics.Accuracy`` asserts ("Shapes of
        labels and predictions are unequal"): unlike ``tf.metrics.accuracy`` (graph mode
        only) it does not squeeze a last axis of 1, and neither does eagerkit.
        """
        labels = metric_tensor(labels, self.name)
        predictions = metric_tensor(predictions, self.name)
        if tuple(labels.shape) != tuple(predictions.shape):
            raise InvalidArgumentError(
                f"Accuracy: labels have shape {tuple(labels.shape)} but predictions have shape "
                f"{tuple(predictions.shape)}; "
                f"{_shape_fix(tuple(labels.shape), tuple(predictions.shape))}",
                op="accuracy",
            )
        hits = cast(equal_values(labels, predictions), self.dtype)
        weights = metric_tensor(weights, self.name, self.dtype)
        before = self._state()
        self._accumulate(hits, weights)
        return self._result_after(before)

    update_state = __call__


def _shape_fix(labels, predictions):
    """What to pass: one last axis of 1 dropped (``ek.squeeze``), or class ids for both."""
    if labels == (*predictions, 1):
        return "they must be equal: drop the labels' last axis, ek.squeeze(labels, axis=-1)"
    if predictions == (*labels, 1):
        return (
            "they must be equal: drop the predictions' last axis, ek.squeeze(predictions, axis=-1)"
        )
    return "pass class ids for both (e.g. ek.argmax(logits, axis=1))"


# What this namespace exports (to ``import *`` and to the error boundary, namespaces.py);
# the helpers it imports or keeps for itself stay out.
__all__ = ["Metric", "Mean", "Accuracy"]
