"""The approximate quantiles ``Discretization.adapt`` learns boundaries from, as Keras 3 keeps them.

A *summary* of many numbers is a few of them with weights: a ``2 x m`` float32 array whose
first row holds sorted values and whose second row says how many of the data each stands for.
``epsilon`` bounds its size, and so the error of the quantiles read from it (in rank, as a
fraction of the data): each batch is thinned to about ``1 / epsilon`` values (every k-th
sorted value, weighing k), summaries of batches are merged and squeezed back to
``1 / epsilon`` points, and the boundaries are read off at fractions ``1/num_bins``,
``2/num_bins``, ... by linear interpolation over the cumulative weights.

While the data has no more than ``1 / epsilon`` values the summary holds every value, and the
boundaries are the exact quantiles (the i-th smallest of n values sits at fraction
``(i + 1) / n``, up to float32 rounding); with more, they are approximate, as Keras 3's are
(the same steps in float32 give the same boundaries). With fewer values (or kept values) than
``num_bins``, Keras 3 returns every value but the largest as a boundary, so the layer has fewer
bins; so does eagerkit. One difference: for a
few ``num_bins`` (49, 98, 103, ...) Keras' float steps ``1/num_bins, 2/num_bins, ...`` count
one step too many and it returns ``num_bins`` boundaries; eagerkit keeps ``num_bins - 1``.

Examples
--------
>>> import numpy as np
>>> data = np.arange(100.0) ** 2
>>> exact = boundaries(summarized(data, 0.01), 4)  # 100 values: all kept
>>> approximate = boundaries(summarized(data, 0.1), 4)  # about 10 kept
>>> [round(float(b), 2) for b in exact], [round(float(b), 2) for b in approximate]
([576.0, 2401.0, 5476.0], [601.0, 2401.0, 5501.0])
"""

import numpy as np


def empty():
    """The summary of no data."""
    return np.zeros((2, 0), dtype=np.float32)


def summarized(values, epsilon, summary=None):
    """``summary`` (of earlier batches) merged with a summary of ``values`` (one batch)."""
    values = np.sort(np.asarray(values, dtype=np.float32).reshape(-1))
    per_point = max(values.size / (1.0 / epsilon), 1)  # how many values each kept one stands for
    kept = values[int(per_point - 1) :: int(per_point)]
    batch = np.stack([kept, np.full_like(kept, per_point)])
    merged = np.concatenate([batch, empty() if summary is None else summary], axis=1)
    merged = merged[:, np.argsort(merged[0])]
    return _squeezed(merged, epsilon)


def boundaries(summary, num_bins):
    """The ``num_bins - 1`` boundaries (fewer with fewer values) that split ``summary`` into
    bins of about equal weight."""
    points = _squeezed(summary, 1.0 / num_bins)[0]
    return points[: min(points.size - 1, num_bins - 1)]  # the last point is the largest value


def _squeezed(summary, epsilon):
    """``summary`` with its points moved to the fractions ``epsilon, 2 epsilon, ..., 1`` of
    its total weight (interpolated), if it holds more than ``1 / epsilon`` points."""
    if summary.shape[1] * epsilon < 1:
        return summary
    fractions = epsilon + np.arange(0.0, 1.0, epsilon)
    cumulative = summary[1].cumsum()
    at = cumulative / cumulative[-1]
    values = np.interp(fractions, at, summary[0])
    reached = np.interp(fractions, at, cumulative)
    weights = np.diff(reached, prepend=0.0)
    return np.stack([values, weights]).astype(np.float32)
