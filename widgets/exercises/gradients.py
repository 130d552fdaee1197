"""The derivatives a check compares: order 1 is the gradient of ``sum(fn(*x))`` with
respect to each input; order 2 is the gradient of the sum of those gradients, and so on
(each order differentiates the previous one's backward pass, recorded by an outer tape).
"""

from eagerkit.ops.reduce import reduce_sum
from eagerkit.tape import GradientTape


def derivatives(fn, inputs, order):
    """``[[array or None per input] per order]`` for orders 1..``order``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> levels = derivatives(lambda x: x**3, [ek.constant(2.0)], order=2)
    >>> [[g.tolist() for g in level] for level in levels]
    [[12.0], [12.0]]
    """
    floats = [x for x in inputs if x.dtype.is_floating]
    tapes = [GradientTape(persistent=True) for _ in range(order)]
    for tape in tapes:  # outermost first: each one records the backward pass inside it
        tape.__enter__()
        tape.watch(floats)
    try:
        target = fn(*inputs)
        levels = []
        for tape in reversed(tapes):  # innermost first
            tape.__exit__(None, None, None)
            found = tape.gradient(target, floats) if target is not None else [None] * len(floats)
            by_id = {id(x): g for x, g in zip(floats, found, strict=True)}
            grads = [by_id.get(id(x)) for x in inputs]  # integers get None, without a warning
            levels.append(grads)
            connected = [reduce_sum(g) for g in grads if g is not None]
            target = sum(connected[1:], connected[0]) if connected else None
    finally:
        for tape in tapes:
            if tape._recording:
                tape.__exit__(None, None, None)
    return [[None if g is None else g.numpy() for g in grads] for grads in levels]
