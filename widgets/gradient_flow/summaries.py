"""What a GradientFlow says about each layer and each variable: a flag per layer from its
latest gradient norm (ok, vanishing, exploding, or NaN for good), and per variable its
latest norm and a histogram of its latest gradient (shown when a layer is clicked).
"""

import numpy as np

from .norm_history import json_norm

BINS = 20  # a variable's histogram


def update_flags(flags, layers, norms, present, vanishing, exploding):
    """Flag each layer (``flags[name]``) by its latest measured norm in ``norms`` (steps x
    layers; ``present`` says which a step has).

    Examples
    --------
    >>> flags = {}
    >>> norms = np.array([[1.0, 1e-9], [2e4, 1e-8]])
    >>> update_flags(flags, ["a", "b"], norms, np.ones((2, 2), bool), 1e-6, 1e3)
    >>> flags
    {'a': 'exploding', 'b': 'vanishing'}
    """
    for i, layer in enumerate(layers):
        seen = norms[present[:, i], i]
        if np.isnan(seen).any() or flags.get(layer) == "nan":
            flags[layer] = "nan"  # sticky: a NaN once means the run is broken
        elif seen.size:
            latest = seen[-1]
            flags[layer] = (
                "exploding" if latest > exploding else "vanishing" if latest < vanishing else "ok"
            )


def variable_summaries(rows, variables, latest):
    """Latest norm and a histogram of the latest gradient, per variable (one copy each to
    the host); ``latest`` maps a row to its gradient, an array on its variable's device.

    Examples
    --------
    >>> import eagerkit as ek
    >>> rows, w = [{"name": "dense/kernel", "layer": "dense"}], ek.Variable([3.0, 4.0])
    >>> [s["norm"] for s in variable_summaries(rows, [w], {0: np.array([3.0, 4.0])})]
    [5.0]
    """
    out = []
    for row, info in enumerate(rows):
        grad = latest.get(row)
        if grad is None:
            continue
        host = variables[row]._device.backend.to_host(grad)  # its device's
        values = np.asarray(host, dtype=np.float64).reshape(-1)
        finite = values[np.isfinite(values)]
        counts, edges = np.histogram(finite, bins=BINS) if finite.size else ([], [0, 0])
        out.append(
            {
                "name": info["name"],
                "layer": info["layer"],
                "norm": json_norm(float(np.sqrt(np.sum(values * values)))),
                "counts": [int(c) for c in counts],
                "lo": float(edges[0]),
                "hi": float(edges[-1]),
            }
        )
    return out
