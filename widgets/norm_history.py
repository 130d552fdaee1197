"""The whole history of a GradientFlow: every flushed step's layer norms, kept as arrays.

A flush appends one chunk; the synced ``history`` trait gets a downsampled copy, as JSON.

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

from ._live import downsample_indices


class NormHistory:
    """Chunks of ``(steps, norms, present)``, one per flush (see ``layer_norms``)."""

    def __init__(self):
        self._chunks = []

    def append(self, steps, norms, present):
        """Keep one flush's steps and their ``(steps, layers)`` norms and presence."""
        self._chunks.append((steps, norms, present))

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
