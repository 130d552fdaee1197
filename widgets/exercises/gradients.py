"""The derivatives a check compares, weighted by random upstream gradients.

Order 1 is the gradient of ``sum(u1 * fn(*x))`` with respect to each float input: ``u1``, of
the output's shape, is the gradient arriving from above, as a bigger model would send it (a
VJP that ignores it cannot pass). Order 2 is the gradient of ``sum(u2_i * grad_i)``, with
``u2_i`` of each input's shape, and so on: each order differentiates the previous one's
backward pass, recorded by an outer tape.
"""

import numpy as np

from eagerkit import nest
from eagerkit.tape import GradientTape
from eagerkit.tensor import Tensor

from .compare import isclose
from .exercise import student_code


def derivatives(fn, inputs, upstreams):
    """``[[array or None per input] per order]``, one order per entry of ``upstreams``.

    ``upstreams[0]`` is the output's upstream gradient (a list for a function returning
    several tensors); ``upstreams[k]`` for k >= 1 has one array per input.

    Examples
    --------
    >>> import numpy as np
    >>> import eagerkit as ek
    >>> levels = derivatives(lambda x: x**3, [ek.constant(2.0)], [np.float32(1), [np.float32(2)]])
    >>> [[g.tolist() for g in level] for level in levels]
    [[12.0], [24.0]]
    """
    order = len(upstreams)
    floats = [x for x in inputs if isinstance(x, Tensor) and x.dtype.is_floating]
    tapes = [GradientTape(persistent=True) for _ in range(order)]
    for tape in tapes:  # outermost first: each one records the backward pass inside it
        tape.__enter__()
        tape.watch(floats)
    try:
        target, weights = fn(*inputs), upstreams[0]
        levels = []
        for k, tape in enumerate(reversed(tapes)):  # innermost first
            tape.__exit__(None, None, None)
            grads = _gradient(tape, target, floats, weights)
            by_id = {id(x): g for x, g in zip(floats, grads, strict=True)}
            levels.append([by_id.get(id(x)) for x in inputs])  # integers: None, no warning
            if k + 1 < order:
                target = [g for g in levels[-1] if g is not None]
                weights = [
                    w for g, w in zip(levels[-1], upstreams[k + 1], strict=True) if g is not None
                ]
    finally:
        for tape in tapes:
            if tape._recording:
                tape.__exit__(None, None, None)
    return [[None if g is None else g.numpy() for g in grads] for grads in levels]


def _gradient(tape, target, sources, weights):
    targets = [t for t in nest.flatten(target) if isinstance(t, Tensor)]
    if not targets or not sources:
        return [None] * len(sources)
    flat_weights = nest.flatten(weights)
    weights = [
        w for t, w in zip(nest.flatten(target), flat_weights, strict=False) if isinstance(t, Tensor)
    ]
    cast = [_like(w, t) for w, t in zip(weights, targets, strict=True)]
    return tape.gradient(targets, sources, output_gradients=cast)


def _like(weight, target):
    """The upstream gradient in the target's dtype and shape (a float16 answer gets float16)."""
    array = np.asarray(weight)
    if array.size == int(np.prod(target.shape)):  # a keepdims answer: (3, 1) for (3,)
        array = array.reshape(target.shape)
    else:
        array = np.broadcast_to(array, target.shape)
    return array.astype(target.dtype.as_numpy_dtype)


def output_shapes(value):
    """The shape of each tensor of an output (a tensor or a list of them), as the upstream
    gradients are drawn."""
    return [tuple(t.shape) if isinstance(t, Tensor) else () for t in nest.flatten(value)]


def upstream_effect(fn, args, upstreams):
    """How the student's gradient answers the upstream gradient doubling (a correct one
    doubles): ``"ignores"`` (it stays the same), ``"not linear"`` (it changes otherwise)
    or None."""
    first = upstreams[0]
    doubled = [nest.pack_sequence_as(first, [u * 2 for u in nest.flatten(first)])]
    try:
        with student_code():
            once = derivatives(fn, args, [first])[0]
            twice = derivatives(fn, args, doubled)[0]
    except Exception:
        return None
    pairs = [(a, b) for a, b in zip(once, twice, strict=True) if a is not None]
    if not pairs or not any(np.any(np.abs(a) > 1e-6) for a, _ in pairs):
        return None
    if all(np.all(isclose(a, b)) for a, b in pairs):
        return "ignores"
    if not all(np.all(isclose(2 * a, b)) for a, b in pairs):
        return "not linear"
    return None
