"""The whole history of a GradientFlow: every flushed step's layer norms, kept as arrays.

A flush appends one chunk; the synced ``history`` trait gets a downsampled copy, as JSON.
The history also fits the colour scale to the run's own norms (the 2nd to the 98th
percentile of their logarithms, so one outlier does not wash the rest out) and the step
axis to the steps so far; both are computed here, for the browser and the PNG alike.

Examples
--------
>>> import numpy as np
>>> history = NormHistory()
>>> history.append(np.array([0.0, 1.0]), np.array([[3.0], [4.0]]), np.array([[True], [True]]))
>>> history.append(np.array([2.0]), np.array([[0.0, 5.0]]), np.array([[False, True]]))
>>> history.json(layers=2)
([0, 1, 2], [[3.0, None], [4.0, None], [None, 5.0]])
"""

import math

import numpy as np

from ..common import ticks
from ..common.live import downsample_indices

SAMPLE = 4096  # log norms kept to fit the colour scale (every other one when there are more)
PERCENTILES = (2, 98)
MIN_DECADES = 1.0  # a scale spans at least this many powers of ten (or tiny changes glare)


class NormHistory:
    """Chunks of ``(steps, norms, present)``, one per flush (see ``layer_norms``)."""

    def __init__(self):
        self._chunks = []
        self._sample = np.zeros(0)  # log10 of finite, positive norms, thinned out
        self._steps = None  # (first, last) step seen

    def append(self, steps, norms, present):
        """Keep one flush's steps and their ``(steps, layers)`` norms and presence."""
        self._chunks.append((steps, norms, present))
        seen = norms[present & np.isfinite(norms) & (norms > 0)]
        self._sample = np.concatenate([self._sample, np.log10(seen)])
        while self._sample.size > SAMPLE:
            self._sample = self._sample[::2]
        if len(steps):
            first, last = (steps[0], steps[-1]) if self._steps is None else self._steps
            self._steps = (min(first, steps[0]), max(last, steps[-1]))

    def scale(self):
        """The colour scale: log10 limits fitted to the run, with ticks and labels.

        Examples
        --------
        >>> history = NormHistory()
        >>> norms = np.array([[1e-3, 0.5], [2e-3, 0.4]])
        >>> history.append(np.array([0.0, 1.0]), norms, np.ones((2, 2), dtype=bool))
        >>> scale = history.scale()  # log10 limits, from the 2nd to the 98th percentile
        >>> round(scale["lo"], 2), round(scale["hi"], 2), scale["labels"]
        (-2.98, -0.31, ['0.01', '0.1'])
        """
        if not self._sample.size:
            return ticks.log_axis(1e-3, 1.0)
        lo, hi = np.percentile(self._sample, PERCENTILES)
        if hi - lo < MIN_DECADES:
            middle = (lo + hi) / 2
            lo, hi = middle - MIN_DECADES / 2, middle + MIN_DECADES / 2
        return ticks.log_axis(10**lo, 10**hi)

    def step_axis(self, every):
        """The x axis: one column per measured step, centred on it; ticks on whole steps."""
        first, last = self._steps or (0, 0)
        axis = ticks.linear_axis(first, last, integer=True)
        axis["lo"], axis["hi"] = first - every / 2, last + every / 2
        inside = [i for i, t in enumerate(axis["ticks"]) if first <= t <= last]
        axis["ticks"] = [axis["ticks"][i] for i in inside]
        axis["labels"] = [axis["labels"][i] for i in inside]
        return axis

    def json(self, layers):
        """``(steps, norms)`` downsampled for the synced trait: a norm is a number, None
        where the layer had no gradient, or "nan" / "inf" (JSON has neither)."""
        steps, norms, present = self._joined(layers)
        keep = downsample_indices(len(steps))
        steps, norms, present = steps[keep], norms[keep], present[keep]
        if present.all() and np.isfinite(norms).all():
            json_norms = norms.tolist()  # the usual case, and much faster than the loop below
        else:
            json_norms = [
                [json_norm(n) if p else None for n, p in zip(values, flags, strict=True)]
                for values, flags in zip(norms.tolist(), present.tolist(), strict=True)
            ]
        return steps.astype(np.int64).tolist(), json_norms

    def _joined(self, layers):
        """The whole history as three arrays, joined once (layers that joined later are
        absent before)."""
        steps = np.concatenate([s for s, _, _ in self._chunks]) if self._chunks else np.zeros(0)
        norms = np.zeros((len(steps), layers))
        present = np.zeros((len(steps), layers), dtype=bool)
        start = 0
        for chunk_steps, chunk_norms, chunk_present in self._chunks:
            end = start + len(chunk_steps)
            norms[start:end, : chunk_norms.shape[1]] = chunk_norms
            present[start:end, : chunk_present.shape[1]] = chunk_present
            start = end
        self._chunks = [(steps, norms, present)] if len(steps) else []
        return steps, norms, present


def json_norm(value):
    """A norm for JSON, which has no NaN or infinity: the front end reads these strings and
    paints them red.

    Examples
    --------
    >>> json_norm(2.5), json_norm(float("nan")), json_norm(float("inf"))
    (2.5, 'nan', 'inf')
    """
    if value is None or math.isfinite(value):
        return value
    return "nan" if math.isnan(value) else "inf"
