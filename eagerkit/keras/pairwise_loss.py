"""TF 1's ``tf.losses.mean_pairwise_squared_error``: how far apart the differences of pairs
of predictions are from the differences of the same pairs of labels.

For one example with labels ``[a, b, c]`` and predictions ``[x, y, z]`` it is the mean over
the pairs, ``(((a-b) - (x-y))**2 + ((a-c) - (x-z))**2 + ((b-c) - (y-z))**2) / 3``; pairs
are taken within each example (every axis but the first), never across examples. TF 1
computes it without listing the pairs: with ``d = predictions - labels`` and ``n`` values
per example, ``2 * sum(d**2) / (n - 1) - 2 * sum(d)**2 / (n * (n - 1))``.

Examples
--------
>>> import eagerkit as ek
>>> ek.losses.mean_pairwise_squared_error([[0.0, 0.0, 0.0]], [[1.0, 2.0, 3.0]])  # (1+4+1)/3
<ek.Tensor: shape=(), dtype=float32, numpy=2.0>
"""

from eagerkit.ops.arithmetic import maximum
from eagerkit.ops.cast import cast
from eagerkit.ops.compare import not_equal, where
from eagerkit.ops.creation import ones_like, zeros_like
from eagerkit.ops.reduce import reduce_sum
from eagerkit.ops.safe_math import divide_no_nan
from eagerkit.ops.weighted_loss import as_dtype, checked_pair, checked_weights


def mean_pairwise_squared_error(
    labels, predictions, weights=1.0, scope=None, loss_collection="losses"
):
    """The mean squared error of the pairwise differences, within each example; each
    example's mean times its weight, summed over the batch (TF 1 has no ``reduction``).

    ``weights``: a scalar scales the loss; a tensor of the labels' rank whose sizes are 1 or
    the labels' (one weight per example: shape ``[batch, 1, ...]``) scales each example's
    loss. As in TF 1, a weight of 0 drops its values from ``n`` (not from the sums), and
    weights of the labels' full shape multiply each example's loss by the sum of its
    weights. ``scope`` and ``loss_collection`` are TF 1's graph bookkeeping: executing
    eagerly, TF 1 uses neither, and nor does eagerkit.

    TF 1 executing eagerly counts ``n`` over the whole batch for a scalar weight (a shortcut
    in its ``_num_present``), and per example in a graph; eagerkit counts per example, as
    TF 1's docstring defines the loss, eagerly and inside ``ek.function`` alike. Integers
    become float32 (TF 1's ``to_float``); float64 stays float64.

    Examples
    --------
    >>> import eagerkit as ek
    >>> labels = [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]
    >>> predictions = [[1.0, 2.0, 3.0], [1.0, 1.0, 4.0]]
    >>> ek.losses.mean_pairwise_squared_error(labels, predictions)  # 2 (first) + 6 (second)
    <ek.Tensor: shape=(), dtype=float32, numpy=8.0>
    >>> ek.losses.mean_pairwise_squared_error(labels, predictions, weights=[[0.5], [0.0]])
    <ek.Tensor: shape=(), dtype=float32, numpy=1.0>
    """
    op = "mean_pairwise_squared_error"
    labels, predictions = checked_pair(op, labels, predictions)
    diffs = predictions - labels
    weights = as_dtype(checked_weights(op, weights, diffs), diffs.dtype)
    per_example = list(range(1, diffs.ndim))  # every axis but the batch's

    def summed(x):  # over each example's values, its axes kept for the broadcast below
        return reduce_sum(x, axis=per_example, keepdims=True) if per_example else x

    # n: the values of each example whose weight is not 0 (TF 1's _num_present per batch)
    present = cast(not_equal(weights, 0), diffs.dtype) * ones_like(diffs)
    n = summed(present)
    mean_of_squares = 2.0 * divide_no_nan(summed(diffs * diffs), maximum(n - 1.0, 0.0))
    square_of_sum = 2.0 * divide_no_nan(summed(diffs) ** 2, maximum(n * (n - 1.0), 0.0))
    loss = reduce_sum((mean_of_squares - square_of_sum) * weights)
    return where(reduce_sum(n) > 0, loss, zeros_like(loss))  # nothing counted: 0, as TF 1
