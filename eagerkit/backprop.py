"""The reverse sweep: walk a tape's records backwards, applying each op's VJP.

The sweep is a plain loop over the list (no recursion, so no depth limit). Gradients are
kept in a dict keyed by tensor identity and returned, never stored on tensors, so a
persistent tape gives the same answer every time.

Two speeds, one set of VJPs:

- no tape is recording: the VJPs run on raw arrays through ``ArrayOps`` (as fast as numpy
  by hand);
- a tape is recording (we are inside an outer tape, computing a gradient we will
  differentiate again): the VJPs run on Tensors through the public ops, so the outer tape
  records the backward pass itself (``TensorOps``). That is all higher-order gradients need.
  ``tensor_vjps()`` forces this reference mode.
"""

import contextlib

import numpy as np

from eagerkit import registry
from eagerkit.tape import active_tapes
from eagerkit.tensor import Tensor, convert_to_tensor


class BackwardStep:
    """What a listener sees for one record of the reverse sweep (for the widgets)."""

    __slots__ = ("index", "record", "g", "input_grads")

    def __init__(self, index, record, g, input_grads):
        self.index = index
        self.record = record
        self.g = g
        self.input_grads = input_grads


def gradients(tape, targets, sources, output_gradients=None, unconnected="none"):
    """Gradients of sum(targets) with respect to each of ``sources`` (a flat list)."""
    if unconnected not in ("none", "zero"):
        raise ValueError(f"unconnected_gradients must be 'none' or 'zero', got {unconnected!r}")
    seeds = _seeds(targets, output_gradients)
    grads = sweep(tape, targets, seeds, sources)
    if unconnected == "zero":
        from eagerkit.ops.creation import zeros_like

        grads = [
            zeros_like(s) if g is None and s.dtype.is_floating else g
            for s, g in zip(sources, grads, strict=True)
        ]
    return grads


def _seeds(targets, output_gradients):
    for t in targets:
        if t is None:
            raise ValueError(
                "Cannot differentiate a function that returns None; "
                "did you forget to return a value from f?"
            )
        if not isinstance(t, Tensor):
            raise ValueError(f"gradient target must be a tensor, got {type(t).__name__}")
    if output_gradients is None:
        return [None] * len(targets)  # ones, made in the sweep's own mode
    flat = output_gradients if isinstance(output_gradients, (list, tuple)) else [output_gradients]
    if len(flat) != len(targets):
        raise ValueError(
            f"output_gradients has {len(flat)} entries but there are {len(targets)} targets"
        )
    return [None if g is None else _seed_like(t, g) for t, g in zip(targets, flat, strict=True)]


def _seed_like(target, g):
    """An output gradient as a tensor of the target's dtype, on the target's device."""
    if isinstance(g, Tensor) and g._device is not target._device:
        from eagerkit.ops.copy import copy_to_device

        g = copy_to_device(g, target._device)  # a seed given on the host for a GPU target
    return convert_to_tensor(g, dtype=target.dtype, device=target._device)


def sweep(tape, targets, seeds, sources):
    """The reverse pass proper: returns one gradient (Tensor or None) per source."""
    records = tape.records
    source_ids = {id(s) for s in sources}
    # Forward over the tape: which float tensors depend on a source? Only they need
    # gradients (gradients flow only through floating dtypes).
    # A source the tape never watched (nor computed) gets None, as in TF, even if an op read it.
    watched = tape._watched_ids
    needed = {id(s) for s in sources if s._data.dtype.kind == "f" and id(s) in watched}
    for entry in records:
        for x in entry.inputs:
            if id(x) in needed:
                if entry.output._data.dtype.kind == "f":
                    needed.add(id(entry.output))
                break

    # Inside an outer tape, work on Tensors so that tape records the backward pass
    # (and while ek.function traces, so the backward ops become part of its graph).
    on_tensors = _vjps_on_tensors()
    grads = {}
    for target, seed in zip(targets, seeds, strict=True):
        if id(target) not in needed:
            continue
        if seed is None:
            seed = Tensor(target._device.xp.ones_like(target._data), target._device)
        seed = seed if on_tensors else seed._data
        previous = grads.get(id(target))  # the same tensor listed twice as a target
        grads[id(target)] = seed if previous is None else previous + seed

    listeners = tape.listeners
    for index in range(len(records) - 1, -1, -1):
        entry = records[index]
        out_id = id(entry.output)
        g = grads.pop(out_id, None)  # every consumer is done: take it out, freeing memory
        if g is None:
            continue
        if out_id in source_ids:
            grads[out_id] = g  # a source that is also an op's output keeps its gradient
        ops = vjp_ops(entry.output._device, on_tensors)
        if on_tensors:
            ans, inputs = entry.output, entry.inputs
        else:
            ans = entry.output._data
            inputs = [x._data for x in entry.inputs]
        params = entry.params
        input_grads = [] if listeners else None
        vjps = entry.op.vjps_for(len(inputs))
        for x, vjp, value in zip(entry.inputs, vjps, inputs, strict=True):
            gx = None
            if vjp is not None and id(x) in needed:
                gx = vjp(ops, g, ans, *inputs, **params)
                if gx is not None:
                    if gx.shape != value.shape:
                        gx = unbroadcast(ops, gx, value.shape)
                    # A tensor used twice (fan-out) gets the sum of both paths' gradients.
                    previous = grads.get(id(x))
                    grads[id(x)] = gx if previous is None else previous + gx
            if listeners:
                input_grads.append(gx)
        if listeners:
            step = BackwardStep(index, entry, g, input_grads)
            for listener in listeners:
                listener.on_backward(tape, step)

    result = []
    for s in sources:
        g = grads.get(id(s))
        if g is not None and not on_tensors:
            g = Tensor(g, s._device)
        result.append(g)
    return result


def vjp_ops(device, on_tensors):
    """The one place the mode is chosen: the ``ops`` namespace every VJP computes with."""
    return registry.TENSOR_OPS if on_tensors else device.array_ops


def _vjps_on_tensors():
    """Work on Tensors inside an outer tape (it records the backward pass), while ek.function
    traces (the backward ops join its graph), or when the reference mode is forced."""
    return _force_tensor_ops or bool(active_tapes or registry.graph_tracers)


_force_tensor_ops = False


@contextlib.contextmanager
def tensor_vjps():
    """Run every VJP on Tensors (``TensorOps``), the reference mode, even with no outer tape.

    The answers are the same as on raw arrays (tests/test_vjp_modes.py checks every op case);
    only the speed differs.

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.constant(3.0)
    >>> with ek.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = x * x
    >>> with tensor_vjps():
    ...     print(tape.gradient(y, x))
    ek.Tensor(6.0, shape=(), dtype=float32)
    """
    global _force_tensor_ops
    previous, _force_tensor_ops = _force_tensor_ops, True
    try:
        yield
    finally:
        _force_tensor_ops = previous


def unbroadcast(ops, g, shape):
    """Sum ``g`` back down to ``shape``: broadcasting copied the input, so copies add up.

    Examples
    --------
    >>> import numpy as np
    >>> from eagerkit.backprop import unbroadcast
    >>> from eagerkit.devices import CPU
    >>> unbroadcast(CPU.array_ops, np.ones((2, 3)), (3,))
    array([2., 2., 2.])
    """
    extra = len(g.shape) - len(shape)
    axes = tuple(range(extra)) + tuple(
        extra + i for i, n in enumerate(shape) if n == 1 and g.shape[extra + i] != 1
    )
    if axes:
        g = ops.reduce_sum(g, axis=axes)
    return ops.reshape(g, shape=tuple(shape))


def jacobian(tape, target, source, unconnected="none"):
    """Row by row: one reverse sweep per element of ``target``."""
    from eagerkit.ops import shape as shape_ops

    size = int(np.prod(target.shape))
    rows = []
    for i in range(size):
        seed = np.zeros(size, target.dtype.as_numpy_dtype)
        seed[i] = 1
        seed = convert_to_tensor(seed.reshape(target.shape), device=target._device)
        (row,) = gradients(tape, [target], [source], [seed], unconnected)
        if row is None:
            return None
        rows.append(row)
    if not rows:
        from eagerkit.ops.creation import zeros

        return zeros(tuple(target.shape) + tuple(source.shape), dtype=source.dtype)
    return shape_ops.reshape(shape_ops.stack(rows), tuple(target.shape) + tuple(source.shape))


def batch_jacobian(tape, target, source, unconnected="none"):
    """Per-example Jacobian, assuming example b of target depends only on example b of source."""
    from eagerkit.ops import shape as shape_ops

    batch = target.shape[0]
    if source.shape[0] != batch:
        raise ValueError(
            f"batch_jacobian: target has batch size {batch} but source has {source.shape[0]}"
        )
    inner = int(np.prod(target.shape[1:]))
    columns = []
    for j in range(inner):
        seed = np.zeros((batch, inner), target.dtype.as_numpy_dtype)
        seed[:, j] = 1
        seed = convert_to_tensor(seed.reshape(target.shape), device=target._device)
        (column,) = gradients(tape, [target], [source], [seed], unconnected)
        if column is None:
            return None
        columns.append(column)
    stacked = shape_ops.stack(columns, axis=1)  # (batch, inner, *source.shape[1:])
    return shape_ops.reshape(stacked, (batch,) + tuple(target.shape[1:]) + tuple(source.shape[1:]))
