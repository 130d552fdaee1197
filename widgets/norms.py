"""Gradient norms for many steps at once: the arithmetic behind GradientFlow's flush.

Each step, ``GradientFlow`` keeps one sum of squares per gradient, still on the gradient's
device. A flush brings all of a device's sums to the host in one copy and turns them into
one norm per layer and step here, with whole-array operations.
"""

import numpy as np


def layer_norms(pending, row_layers, layer_count):
    """Per step and layer, the L2 norm of the layer's gradients.

    Parameters
    ----------
    pending : list of ``(step, squares)``; ``squares`` holds ``(row, device, sum of
        squares)`` for each variable (row) that had a gradient that step, the sum still
        on the device.
    row_layers : for each row, the index of its layer.
    layer_count : how many layers there are.

    Returns
    -------
    ``(norms, present)``: arrays of shape ``(steps, layers)``; ``present`` is False where
    no variable of the layer had a gradient that step (its norm is then 0).

    Examples
    --------
    >>> from eagerkit.devices import CPU
    >>> pending = [(0, [(0, CPU, 9.0), (1, CPU, 16.0)]), (1, [(1, CPU, 1.0)])]
    >>> norms, present = layer_norms(pending, row_layers=[0, 0], layer_count=1)
    >>> norms.tolist(), present.tolist()
    ([[5.0], [1.0]], [[True], [True]])
    """
    squares = np.zeros((len(pending), len(row_layers)))
    has_grad = np.zeros(squares.shape, dtype=bool)
    by_device = {}  # device -> ([step positions], [rows], [sums on the device])
    for i, (_, step_squares) in enumerate(pending):
        for row, device, value in step_squares:
            positions, rows, values = by_device.setdefault(device, ([], [], []))
            positions.append(i)
            rows.append(row)
            values.append(value)
    for device, (positions, rows, values) in by_device.items():
        if device.kind == "cpu":
            host = np.asarray(values, dtype=np.float64)  # already host numbers
        else:
            host = device.backend.to_host(device.xp.stack(values))  # the one copy
        np.add.at(squares, (positions, rows), host)  # a variable twice in a step: both count
        has_grad[positions, rows] = True
    layer_of = np.asarray(row_layers, dtype=np.int64).reshape(len(row_layers))
    norms = np.zeros((len(pending), layer_count))
    present = np.zeros((len(pending), layer_count), dtype=bool)
    for layer in range(layer_count):
        # Sum layer by layer, not with a matrix product: NaN * 0 would leak NaN elsewhere.
        columns = layer_of == layer
        norms[:, layer] = np.sqrt(squares[:, columns].sum(axis=1))
        present[:, layer] = has_grad[:, columns].any(axis=1)
    return norms, present
