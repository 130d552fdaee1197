"""Gradient norms for many steps at once: the arithmetic behind GradientFlow.

A training step gives GradientFlow its ``(gradient, variable)`` pairs. ``PendingSteps``
keeps what the next flush needs, as cheaply as it can, for a run of steps with the same
variables (a *segment*):

- small gradients on the CPU (all of them, in a tiny model): their raw bytes, joined into
  one ``bytes`` per step. That is one small copy while they are still in the cache, and
  the gradients themselves can go. The flush views the bytes as a table with a row per step, where
  each variable's gradients are a band of columns, and squares and sums them all at once.
- large gradients on the CPU: each one's sum of squares, computed right away (``np.vdot``);
  copying thousands of values per step and reading them again later costs more.
- gradients on a GPU: references to the device arrays. The flush stacks and reduces them
  there, and the sums of a device come to the host in one copy; reading them every step
  is what this avoids.
"""

from operator import is_

import numpy as np

# A gradient larger than this has its sum of squares computed at its step: measured here,
# one np.vdot then costs less than copying its values and squaring them at the flush.
LARGE_GRADIENT_BYTES = 2048
MAX_KEPT_BYTES = 1 << 24  # what pending steps may hold between two flushes (16 MB)
_HOST, _DEVICE = "host", "device"  # where a segment's gradients are


class PendingSteps:
    """The gradients of the steps logged since the last flush.

    Examples
    --------
    >>> import eagerkit as ek
    >>> w = ek.Variable([0.0, 0.0])
    >>> pending = PendingSteps()
    >>> pending.add(0, [(ek.constant([3.0, 4.0]), w)])
    >>> pending.add(1, [(ek.constant([0.0, 1.0]), w)])
    >>> steps, [(start, end, variables, sums, latest)] = pending.take()
    >>> steps, (start, end), sums[0].tolist(), latest[0].tolist()
    ([0, 1], (0, 2), [25.0, 1.0], [0.0, 1.0])
    """

    def __init__(self):
        self._clear()

    def _clear(self):
        self.steps = []  # the step numbers
        self.max_steps = 1  # a flush is due when there are this many (set per segment)
        self._segments = []  # [first step index, variables, latest arrays, where, small, large]
        self._variables = [None]  # the current segment's (none yet: no list matches this)
        self._where = _HOST
        self._small, self._large = [], []  # the current segment's, by index
        self._host = []  # per step: the bytes of its small host gradients
        self._kept = []  # per step: the large gradients' sums of squares, or device arrays

    def add(self, step, grads_and_vars):
        """Keep one step (its gradients have their variables' shapes, dtypes and devices)."""
        self.steps.append(step)
        variables = [variable for _, variable in grads_and_vars]
        # Compared with `is` (== on variables compares their values), all in C.
        if len(variables) != len(self._variables) or not all(map(is_, variables, self._variables)):
            self._start_segment(variables)
        arrays = [grad._data for grad, _ in grads_and_vars]
        self._segments[-1][2] = arrays  # the histograms show the latest gradients
        if self._where is _DEVICE:
            self._kept.append(arrays)
        elif not self._large:
            self._host.append(_joined(arrays))  # a tiny model's every step: keep it short
        else:
            self._host.append(_joined([arrays[i] for i in self._small]))
            self._kept.append([np.vdot(arrays[i], arrays[i]) for i in self._large])

    def _start_segment(self, variables):
        sizes = [variable._data.nbytes for variable in variables]
        self._small = [i for i, size in enumerate(sizes) if size <= LARGE_GRADIENT_BYTES]
        self._large = [i for i, size in enumerate(sizes) if size > LARGE_GRADIENT_BYTES]
        if all(variable._device.kind == "cpu" for variable in variables):
            self._where = _HOST
            step_bytes = sum(sizes[i] for i in self._small) + 64 * len(self._large)
        else:
            self._where, step_bytes = _DEVICE, sum(sizes)
        self.max_steps = max(1, MAX_KEPT_BYTES // max(1, step_bytes))
        segment = [len(self.steps) - 1, variables, None, self._where, self._small, self._large]
        self._segments.append(segment)
        self._variables = variables

    def take(self):
        """Empty the buffer: ``(steps, [(start, end, variables, sums, latest)])``, where,
        for the steps ``start:end``, ``sums`` holds per variable its squared gradient norms
        (an array on its device) and ``latest`` its last gradient."""
        steps, segments, host, kept = self.steps, self._segments, b"".join(self._host), self._kept
        self._clear()
        out, offset, index = [], 0, 0
        ends = [segment[0] for segment in segments[1:]] + [len(steps)]
        for segment, end in zip(segments, ends, strict=True):
            start, variables, latest, where, small, large = segment
            count, sums = end - start, [None] * len(variables)
            if where is _DEVICE:
                on_device, index = kept[index : index + count], index + count
                for i, variable in enumerate(variables):
                    sums[i] = _squared_rows(variable._device.xp, [step[i] for step in on_device])
                out.append((start, end, variables, sums, latest))
                continue
            width = sum(latest[i].nbytes for i in small)
            table = np.frombuffer(host, np.uint8, count * width, offset).reshape(count, width)
            offset += count * width
            for i, band_sums in zip(small, _squared_bands(table, latest, small), strict=True):
                sums[i] = band_sums
            if large:
                computed = np.array(kept[index : index + count], dtype=np.float64)
                index += count
                for column, i in enumerate(large):
                    sums[i] = computed.reshape(count, len(large))[:, column]
            out.append((start, end, variables, sums, latest))
        return steps, out


def _joined(arrays):
    """The arrays' bytes, back to back."""
    try:
        return b"".join(arrays)
    except TypeError:  # a non-contiguous array has no flat bytes to join
        return b"".join([np.ascontiguousarray(array) for array in arrays])


def _squared_bands(table, arrays, indices):
    """Per array ``arrays[i]`` (i in ``indices``: the ones a step joined, in order), the
    sums of squares of its band of the byte table."""
    sums, start = [], 0
    for array in (arrays[i] for i in indices):
        band = table[:, start : start + array.nbytes].view(array.dtype)
        sums.append((band * band).sum(axis=1))
        start += array.nbytes
    return sums


def _squared_rows(xp, arrays):
    """The sums of squares of arrays of one shape, stacked and reduced with ``xp``."""
    rows = xp.stack(arrays).reshape(len(arrays), -1)
    return (rows * rows).sum(axis=1)


def layer_norms(parts, steps, row_layers, layer_count):
    """Per step and layer, the L2 norm of the layer's gradients.

    Parameters
    ----------
    parts : ``[(positions, row, device, sums)]``: a variable's (row's) squared gradient
        norms (an array on ``device``) at some of the steps (a slice of step positions).
    steps : how many steps there are.
    row_layers : for each row, the index of its layer.
    layer_count : how many layers there are.

    Returns
    -------
    ``(norms, present)``: arrays of shape ``(steps, layers)``; ``present`` is False where
    no variable of the layer had a gradient that step (its norm is then 0).

    Examples
    --------
    >>> import numpy as np
    >>> import eagerkit as ek
    >>> cpu = ek.devices.get_device("/cpu:0")
    >>> parts = [(slice(0, 1), 0, cpu, np.array([9.0])),
    ...          (slice(0, 2), 1, cpu, np.array([16.0, 1.0]))]
    >>> norms, present = layer_norms(parts, 2, row_layers=[0, 0], layer_count=1)
    >>> norms.tolist(), present.tolist()
    ([[5.0], [1.0]], [[True], [True]])
    """
    squares = np.zeros((steps, len(row_layers)))
    has_grad = np.zeros(squares.shape, dtype=bool)
    by_device = {}
    for part in parts:
        by_device.setdefault(part[2], []).append(part)
    for device, on_device in by_device.items():
        joined = device.xp.concatenate([sums for *_, sums in on_device])
        host = np.asarray(device.backend.to_host(joined), dtype=np.float64)  # the one copy
        start = 0
        for positions, row, _, sums in on_device:
            squares[positions, row] = host[start : start + len(sums)]
            has_grad[positions, row] = True
            start += len(sums)
    layer_of = np.asarray(row_layers, dtype=np.int64).reshape(len(row_layers))
    norms = np.zeros((steps, layer_count))
    present = np.zeros((steps, layer_count), dtype=bool)
    for layer in range(layer_count):
        # Sum layer by layer, not with a matrix product: NaN * 0 would leak NaN elsewhere.
        in_layer = layer_of == layer
        norms[:, layer] = np.sqrt(squares[:, in_layer].sum(axis=1))
        present[:, layer] = has_grad[:, in_layer].any(axis=1)
    return norms, present
