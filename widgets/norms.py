"""Gradient norms for many steps at once: the arithmetic behind GradientFlow's flush.

``GradientFlow.log`` only keeps references to each step's gradients. A flush turns them
into one number per layer and step here, with whole-array operations: the gradients of one
variable over all pending steps are joined and squared together on their device, and the
sums of a device come to the host in one copy.
"""

import numpy as np


def layer_norms(by_row, steps, row_layers, layer_count):
    """Per step and layer, the L2 norm of the layer's gradients.

    Parameters
    ----------
    by_row : ``{row: ([step positions], [gradients])}``: for each variable (row), the
        steps where it had a gradient and those gradients (Tensors).
    steps : how many steps there are.
    row_layers : for each row, the index of its layer.
    layer_count : how many layers there are.

    Returns
    -------
    ``(norms, present)``: arrays of shape ``(steps, layers)``; ``present`` is False where
    no variable of the layer had a gradient that step (its norm is then 0).

    Examples
    --------
    >>> import eagerkit as ek
    >>> by_row = {0: ([0], [ek.constant([3.0])]),
    ...           1: ([0, 1], [ek.constant([4.0]), ek.constant([1.0])])}
    >>> norms, present = layer_norms(by_row, 2, row_layers=[0, 0], layer_count=1)
    >>> norms.tolist(), present.tolist()
    ([[5.0], [1.0]], [[True], [True]])
    """
    squares = np.zeros((steps, len(row_layers)))
    has_grad = np.zeros(squares.shape, dtype=bool)
    by_device = {}  # device -> [(row, positions, sums of squares on the device)]
    for row, (positions, grads) in by_row.items():
        device = grads[0]._device
        arrays = [g._data for g in grads]  # one variable's: all of one shape
        # np.array copies a list of equal arrays in one C loop; other backends stack.
        stacked = np.array(arrays) if device.kind == "cpu" else device.xp.stack(arrays)
        flat = stacked.reshape(len(grads), -1)
        by_device.setdefault(device, []).append((row, positions, (flat * flat).sum(axis=1)))
    for device, parts in by_device.items():
        joined = device.xp.concatenate([sums for _, _, sums in parts])
        host = np.asarray(device.backend.to_host(joined), dtype=np.float64)  # the one copy
        start = 0
        for row, positions, _ in parts:
            squares[positions, row] = host[start : start + len(positions)]
            has_grad[positions, row] = True
            start += len(positions)
    layer_of = np.asarray(row_layers, dtype=np.int64).reshape(len(row_layers))
    norms = np.zeros((steps, layer_count))
    present = np.zeros((steps, layer_count), dtype=bool)
    for layer in range(layer_count):
        # Sum layer by layer, not with a matrix product: NaN * 0 would leak NaN elsewhere.
        columns = layer_of == layer
        norms[:, layer] = np.sqrt(squares[:, columns].sum(axis=1))
        present[:, layer] = has_grad[:, columns].any(axis=1)
    return norms, present
