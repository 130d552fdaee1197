"""The reverse sweep: walk a tape's records backwards, applying each op's VJP.

``tape.gradient(loss, w)`` (tape.py) calls ``gradients`` here; ``sweep`` is the loop. It walks
the records from last to first (a plain loop: no recursion, no depth limit), and for each
record whose output has a gradient ``g`` it asks the record's op for its inputs' gradients
and adds them to theirs. Gradients are kept in a dict keyed by tensor identity and returned,
never stored on tensors, so a persistent tape gives the same answer every time.

Every op that can be on a tape answers one question, ``op.input_gradients(ops, g, ans,
inputs, params, wanted)``: one gradient per input (None where there is none):

- a primitive (registry.OpDef) calls its VJPs, ``vjps[i](ops, g, ans, *inputs, **params)``,
  the functions written beside each forward in ops/ (multiply's is ``g * y`` and ``g * x``);
- a copy between devices is a primitive too (ops/copy.py);
- a variable read (recording.READ_VARIABLE) passes ``g`` on to the variable;
- a custom gradient (custom_gradient.py) calls the user's ``grad_fn`` once;
- an ``ek.function`` called under a tape records the primitives of its graph, one by one.

Two speeds, one set of VJPs. With no tape recording, the VJPs run on raw arrays through
``ArrayOps`` (as fast as numpy by hand). Inside an outer tape (a gradient we will
differentiate again) they run on Tensors through the public ops, ``TensorOps``, so the outer
tape records the backward pass itself: that is all higher-order gradients need.
``tensor_vjps()`` forces this reference mode; ``vjp_ops`` is where the mode is chosen.

Two sweeps, one answer. ``sweep`` below is the reference, written to be read. In the common
case (raw arrays, no listener) ``gradients`` takes ``fast_sweep.sweep_arrays`` instead: the
same steps in the same order, written for speed; ``reference_sweep()`` forces the reference.
"""

import contextlib

import numpy as np

from eagerkit import recording, registry
from eagerkit.errors import InvalidArgumentError
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
    seeds = [_conjugated(seed) for seed in _seeds(targets, output_gradients)]
    if tape._listeners or _forced["reference sweep"] or _vjps_on_tensors():
        grads = sweep(tape, targets, seeds, sources)
    else:  # the common case: the same sweep, written for speed
        grads = fast_sweep.sweep_arrays(tape, targets, seeds, sources)
    grads = [_conjugated(g) for g in grads]  # TF's convention for complex sources (below)
    if unconnected == "zero":
        from eagerkit.ops.creation import zeros_like

        grads = [
            zeros_like(s) if g is None and s.dtype.kind in "fc" else g
            for s, g in zip(sources, grads, strict=True)
        ]
    return grads


def _conjugated(g):
    """``g`` conjugated when it is complex (a real one, or None, as it is).

    Complex numbers: for a real loss L of z = x + iy, TF's gradient is dL/dx + i dL/dy.
    The sweep carries its conjugate, dL/dx - i dL/dy (twice dL/dz), because then every
    holomorphic op's VJP is its real formula unchanged (multiply's ``g * y``, exp's
    ``g * ans``, matmul's ``g @ y.T``), while TF's needs conj(y) in each. So seeds are
    conjugated going in and gradients coming out, once each; the few ops that are not
    holomorphic (abs, real, imag, angle, conj, complex: ops/complex.py) write their VJPs
    in the sweep's convention.
    """
    if g is None or g._data.dtype.kind != "c":
        return g
    from eagerkit.ops.complex import conj

    return conj(g)


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
            f"output_gradients has {len(flat)} entries but there are {len(targets)} targets; "
            "pass one output gradient per target (None for ones)"
        )
    return [
        None if g is None else _seed_like(i, t, g)
        for i, (t, g) in enumerate(zip(targets, flat, strict=True))
    ]


def _seed_like(position, target, g):
    """An output gradient as a tensor of the target's shape and dtype, on its device."""
    if isinstance(g, Tensor) and g._device is not target._device:
        from eagerkit.ops.copy import copy_to_device

        g = copy_to_device(g, target._device)  # a seed given on the host for a GPU target
    seed = convert_to_tensor(g, dtype=target.dtype, device=target._device)
    if seed.shape != target.shape:
        raise InvalidArgumentError(
            f"gradient: output_gradients[{position}] has shape {seed.shape} but its target "
            f"has shape {target.shape}; give each target a gradient of its own shape "
            f"(e.g. ek.ones_like(target) * weights)",
            op="gradient",
        )
    return seed


def sweep(tape, targets, seeds, sources):
    """The reverse pass proper: returns one gradient (Tensor or None) per source."""
    needed = _needing_gradients(tape, sources)
    on_tensors = _vjps_on_tensors()
    grads = _seed_gradients(targets, seeds, needed, on_tensors)
    owned = set()  # ids of gradient sums made here, which nothing else holds: add in place
    keep = {id(s) for s in sources}
    listeners = tape._listeners or ()
    records, device = tape.records, None
    for index in range(len(records) - 1, -1, -1):
        record = records[index]
        g = grads.pop(id(record.output), None)  # all its consumers are done: free it after
        if g is None:
            continue
        owned.discard(id(g))  # handed to the VJPs now, which may pass it on as it is
        if id(record.output) in keep:
            grads[id(record.output)] = g  # a source that is also an op's output keeps its own
        if record.output._device is not device:  # ops follow the device (a copy moves it)
            device = record.output._device
            ops = vjp_ops(device, on_tensors)
        input_grads = _input_gradients(record, ops, g, needed, on_tensors)
        for position, gx in enumerate(input_grads):
            if gx is not None:
                x = record.inputs[position]
                input_grads[position] = _accumulate(grads, owned, x, gx, ops, on_tensors)
        if listeners:
            step = BackwardStep(index, record, g, input_grads)
            for listener in listeners:
                listener.on_backward(tape, step)
    return [_result(grads.get(id(s)), s, on_tensors) for s in sources]


def _needing_gradients(tape, sources):
    """Ids of the float tensors that depend on a watched source: only they need gradients.

    A source the tape never watched (nor computed) gets None, as in TF, even if an op read it.
    """
    needed = {id(s) for s in sources if s._data.dtype.kind in "fc" and tape._watches(s)}
    for record in tape.records:
        for x in record.inputs:
            if id(x) in needed:
                if record.output._data.dtype.kind in "fc":  # floats and complex numbers
                    needed.add(id(record.output))
                break
    return needed


def _seed_gradients(targets, seeds, needed, on_tensors):
    """The gradient each target starts with: its seed, or ones (summed if listed twice)."""
    grads = {}
    for target, seed in zip(targets, seeds, strict=True):
        if id(target) not in needed:
            continue
        if seed is None:  # ones, as an array or (on tensors) a Tensor
            seed = ones_like_target(target)
            if on_tensors:
                seed = Tensor(seed, target._device)
        elif not on_tensors:
            seed = seed._data
        previous = grads.get(id(target))
        grads[id(target)] = seed if previous is None else previous + seed
    return grads


def ones_like_target(target):
    """``xp.ones_like(target's array)``, the seed of a target given none: for a scalar on
    the host (a loss, the commonest) ``xp.array(1, dtype)``, the same 0-d array made in C
    without numpy's Python steps (ones_like is empty_like, then copyto)."""
    data = target._data
    if isinstance(data, (np.ndarray, np.generic)) and data.ndim == 0:
        return target._device.xp.array(1, dtype=data.dtype)  # numpy's own array
    return target._device.xp.ones_like(data)


def _input_gradients(record, ops, g, needed, on_tensors):
    """The gradient ``g`` at ``record``'s output sends to each of its inputs (the VJPs).

    Every recordable op (a primitive, a variable read, a custom gradient) answers
    ``op.input_gradients(ops, g, ans, inputs, params, wanted)`` with one gradient per input
    (None for an input that gets none, or that no source depends on).
    """
    if on_tensors:
        ans, values = record.output, record.inputs
    else:
        ans, values = record.output._data, []
    wanted = []  # loops, not comprehensions: this runs once per record
    for x in record.inputs:
        wanted.append(id(x) in needed)
        if not on_tensors:
            values.append(x._data)
    return record.op.input_gradients(ops, g, ans, values, record.params, wanted)


def _accumulate(grads, owned, x, gx, ops, on_tensors):
    """Add ``gx`` to input ``x``'s gradient: summed back to x's shape if broadcasting
    copied x, and added to what x got along other paths (fan-out). Returns it as added."""
    shape = x._data.shape  # raw tuples: cheaper to compare than TensorShapes
    if (gx._data.shape if on_tensors else gx.shape) != shape:
        gx = unbroadcast(ops, gx, shape)
    key = id(x)
    previous = grads.get(key)
    if previous is None:
        grads[key] = gx
    elif id(previous) in owned:
        previous += gx  # a sum made here and held nowhere else: no new array
        grads[key] = previous  # (a 0-d sum is a numpy scalar, which += replaces)
    else:
        total = previous + gx
        grads[key] = total
        if not on_tensors:  # Tensors are immutable; only raw arrays may be added into
            owned.add(id(total))
    return gx


def _result(g, source, on_tensors):
    """A source's gradient as a Tensor on the source's device (None stays None)."""
    if g is None or on_tensors:
        return g
    if not getattr(getattr(g, "flags", None), "writeable", True):
        g = g.copy()  # a broadcast view (reduce_sum's VJP): the caller gets an array of its own
    return Tensor(g, source._device)


def vjp_ops(device, on_tensors):
    """The one place the mode is chosen: the ``ops`` namespace every VJP computes with."""
    if on_tensors:
        return registry.TENSOR_OPS
    ops = _array_ops.get(device)
    if ops is None:
        ops = _array_ops[device] = registry.ArrayOps(device)
    return ops


_array_ops = {}  # Device -> its ArrayOps, made on first use


def _vjps_on_tensors():
    """Work on Tensors inside an outer tape (it records the backward pass), while ek.function
    traces (the backward ops join its graph), or when the reference mode is forced."""
    return _forced["tensor vjps"] or bool(recording.active_tapes or recording.graph_tracers)


_forced = {"tensor vjps": False, "reference sweep": False}  # what the two switches below force


@contextlib.contextmanager
def _forcing(switch):
    previous, _forced[switch] = _forced[switch], True
    try:
        yield
    finally:
        _forced[switch] = previous  # as it was, even after an error


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
    return _forcing("tensor vjps")


def reference_sweep():
    """Take the reference ``sweep`` even in the common case (tests compare the two sweeps).

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.constant([1.0, 2.0])
    >>> with ek.GradientTape(persistent=True) as tape:
    ...     tape.watch(x)
    ...     y = ek.reduce_sum(ek.tanh(x) * x)
    >>> with reference_sweep():
    ...     reference = tape.gradient(y, x)
    >>> bool(ek.reduce_all(tape.gradient(y, x) == reference))  # the fast sweep: the same bits
    True
    """
    return _forcing("reference sweep")


def unbroadcast(ops, g, shape):
    """Sum ``g`` back down to ``shape``: broadcasting copied the input, so copies add up.

    Examples
    --------
    >>> import numpy as np
    >>> from eagerkit.backprop import unbroadcast
    >>> from eagerkit.devices import CPU
    >>> unbroadcast(vjp_ops(CPU, on_tensors=False), np.ones((2, 3)), (3,))
    array([2., 2., 2.])
    """
    axes = broadcast_axes(tuple(g.shape), shape)
    if axes:
        g = ops.reduce_sum(g, axis=axes)
    return ops.reshape(g, shape=tuple(shape))


def broadcast_axes(grown, shape):
    """The axes of ``grown`` (a shape) that broadcasting made from ``shape``: the leading
    ones it added, then each axis of 1 it stretched; what ``unbroadcast`` sums over.

    Examples
    --------
    >>> broadcast_axes((4, 2, 3), (1, 3))
    (0, 1)
    """
    extra = len(grown) - len(shape)
    axes = list(range(extra))
    for i, n in enumerate(shape):  # a loop, not a generator: once per broadcast input
        if n == 1 and grown[extra + i] != 1:
            axes.append(extra + i)
    return tuple(axes)


# Imported last: fast_sweep takes its helpers from this module (an import inside
# ``gradients`` would cost every gradient half a microsecond).
from eagerkit import fast_sweep  # noqa: E402
