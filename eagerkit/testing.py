"""check_grads: compare reverse-mode gradients with finite differences, to any order.

The test is autograd's: pick a random direction ``v`` for the inputs and a random weight
``u`` for the output. Then two numbers must agree:

- ``<u, (f(x + eps v) - f(x - eps v)) / 2 eps>``  (central differences: no autodiff at all)
- ``<vjp(u), v>``                                  (one reverse sweep of the tape)

For ``order=2`` the same check runs on the function ``x -> <vjp(u)(x), v>``, which is
itself computed with a tape, so the backward pass gets differentiated too.
"""

import numpy as np

from eagerkit.tape import GradientTape
from eagerkit.tensor import Tensor, convert_to_tensor


def _as_float64(value):
    array = np.asarray(value.numpy() if isinstance(value, Tensor) else value, dtype=np.float64)
    return convert_to_tensor(array)


def _inner(a, b):
    return float(np.sum(np.asarray(a, dtype=np.float64) * np.asarray(b, dtype=np.float64)))


def _vjp_dot_v(f, u, vs):
    """A function x -> <vjp_u(f)(x), v>: scalar, and differentiable again."""

    def dotted(*args):
        from eagerkit.ops.creation import zeros
        from eagerkit.ops.reduce import reduce_sum

        with GradientTape() as tape:
            tape.watch(list(args))
            y = f(*args)
        grads = tape.gradient(y, list(args), output_gradients=u)
        total = zeros([], dtype="float64")
        for g, v in zip(grads, vs, strict=True):
            if g is not None:
                total = total + reduce_sum(g * v)
        return total

    return dotted


def check_grads(f, *args, order=2, eps=1e-6, rtol=1e-5, atol=1e-6, seed=0):
    """Assert that ``f``'s gradients match finite differences, up to ``order``.

    Inputs are converted to float64 so central differences are accurate. Raises
    ``AssertionError`` naming the order at which the two disagree.

    Examples
    --------
    >>> import eagerkit as ek
    >>> from eagerkit.testing import check_grads
    >>> check_grads(lambda x: ek.sin(x) * x, [0.5, 1.0, 2.0], order=2)
    """
    rng = np.random.default_rng(seed)
    args = [_as_float64(a) for a in args]
    for level in range(1, order + 1):
        y = f(*args)
        if not isinstance(y, Tensor):
            raise TypeError(f"check_grads: f must return a tensor, got {type(y).__name__}")
        u = convert_to_tensor(rng.standard_normal(y.shape))
        vs = [convert_to_tensor(rng.standard_normal(a.shape)) for a in args]

        plus = f(*[a + eps * v for a, v in zip(args, vs, strict=True)]).numpy()
        minus = f(*[a - eps * v for a, v in zip(args, vs, strict=True)]).numpy()
        numeric = _inner(u.numpy(), (plus - minus) / (2 * eps))

        with GradientTape() as tape:
            tape.watch(args)
            y = f(*args)
        grads = tape.gradient(y, args, output_gradients=u)
        pairs = zip(grads, vs, strict=True)
        analytic = sum(_inner(g.numpy(), v.numpy()) for g, v in pairs if g is not None)

        if not np.isclose(analytic, numeric, rtol=rtol, atol=atol):
            raise AssertionError(
                f"order-{level} gradient check failed: reverse mode gives {analytic!r}, "
                f"finite differences give {numeric!r}"
            )
        f = _vjp_dot_v(f, u, vs)  # next order: differentiate the backward pass itself
