"""check_grads: compare reverse-mode gradients with finite differences, to any order.

The test is autograd's: pick a random direction ``v`` for the inputs and a random weight
``u`` for the output. Then two numbers must agree:

- ``<u, (f(x + eps v) - f(x - eps v)) / 2 eps>``  (central differences: no autodiff at all)
- ``<vjp(u), v>``                                  (one reverse sweep of the tape)

For ``order=2`` the same check runs on the function ``x -> <vjp(u)(x), v>``, which is
itself computed with a tape, so the backward pass gets differentiated too.

When the two disagree, one element at a time finds *where*: the first input and element
whose reverse-mode gradient differs from its own central difference (this costs two calls
of ``f`` per element, so it runs only after the cheap test has failed, and gives up after
``MAX_ELEMENTS_SEARCHED`` elements: the error then names no element).
"""

import math
import numbers

import numpy as np

from eagerkit.arguments import describe, positive
from eagerkit.errors import InvalidArgumentError
from eagerkit.tape import GradientTape
from eagerkit.tensor import Tensor, convert_to_tensor


class GradientCheckError(AssertionError):
    """A gradient that disagrees with finite differences, and where.

    Attributes: ``order`` (1 for the gradient, 2 for the gradient of the gradient, ...),
    ``input`` (the argument's position), ``element`` (an index tuple into that argument, or
    None if no single element is off), ``analytic`` and ``numeric`` (the two numbers).
    """

    def __init__(self, order, input_index, element, analytic, numeric):
        self.order, self.input, self.element = order, input_index, element
        self.analytic, self.numeric = analytic, numeric
        where = "" if element is None else f" for input {input_index}, element {list(element)}"
        super().__init__(
            f"order-{order} gradient check failed{where}: reverse mode gives {analytic!r}, "
            f"finite differences give {numeric!r}"
        )


def _as_float64(value):
    tensor = convert_to_tensor(value)  # TF's conversion rules, and its errors
    if not (tensor.dtype.is_floating or tensor.dtype.is_integer):
        raise InvalidArgumentError(
            f"check_grads: the point to check at must hold numbers, got "
            f"{tensor.dtype.name}{list(tensor.shape)}; pass float tensors or lists of floats",
            op="check_grads",
        )
    return convert_to_tensor(np.asarray(tensor.numpy(), dtype=np.float64))


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


def _reverse(f, args, u):
    """The reverse-mode gradient of <u, f(args)> for each argument (zeros where None)."""
    with GradientTape() as tape:
        tape.watch(args)
        y = f(*args)
    grads = tape.gradient(y, args, output_gradients=u)
    return [np.zeros(a.shape) if g is None else g.numpy() for a, g in zip(args, grads, strict=True)]


def _first_wrong_element(f, args, u, eps, rtol, atol):
    """``(input, element, analytic, numeric)`` of the first element that disagrees, or None."""
    analytic = _reverse(f, args, u)

    def weighted(i, array):  # <u, f(args)> with argument i replaced by array
        moved = list(args)
        moved[i] = convert_to_tensor(array)
        return _inner(u.numpy(), f(*moved).numpy())

    searched = 0
    for i, arg in enumerate(args):
        base = arg.numpy()
        for element in np.ndindex(base.shape):
            searched += 1
            if searched > MAX_ELEMENTS_SEARCHED:  # two calls of f per element: stop in time
                return None
            step = np.zeros(base.shape)
            step[element] = eps
            numeric = (weighted(i, base + step) - weighted(i, base - step)) / (2 * eps)
            value = float(analytic[i][element])
            if not np.isclose(value, numeric, rtol=rtol, atol=atol):
                return i, element, value, numeric
    return None


# After a failed check, each element costs two calls of f: a million-element input would
# run for minutes, so the search for the first wrong element stops after this many.
MAX_ELEMENTS_SEARCHED = 10_000
# Each order differentiates the previous order's backward pass: the work grows about
# geometrically with the order, so orders past this one would run for minutes or more.
MAX_ORDER = 10


def first_gradient_error(f, *args, order=2, eps=1e-6, rtol=1e-5, atol=1e-6, seed=0):
    """The first disagreement ``check_grads`` would raise, as a GradientCheckError, or None.

    Examples
    --------
    >>> import eagerkit as ek
    >>> @ek.custom_gradient
    ... def square(x):
    ...     return x * x, lambda g: g * x  # forgets the factor 2
    >>> error = first_gradient_error(square, [1.0, 2.0], order=1)
    >>> error.order, error.input, error.element  # order 1, input 0, element [0]
    (1, 0, (0,))
    >>> round(error.numeric / error.analytic, 6)  # (weighted by a random u)
    2.0
    """
    order = positive(order, "order", "check_grads")
    for value, what in ((eps, "eps"), (rtol, "rtol"), (atol, "atol")):
        if not isinstance(value, (int, float, np.floating, np.integer)) or not value >= 0:
            raise InvalidArgumentError(
                f"check_grads: {what} must be a number >= 0 (eps > 0), got {value!r}",
                op="check_grads",
            )
    if not eps > 0 or not math.isfinite(eps):
        raise InvalidArgumentError(
            f"check_grads: eps, the finite-difference step, must be a small number > 0 "
            f"(e.g. 1e-6), got {eps!r}",
            op="check_grads",
        )
    eps, rtol, atol = float(eps), float(rtol), float(atol)  # 10**30 would be numpy's object
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, numbers.Integral)):
        raise InvalidArgumentError(
            f"check_grads: seed must be a whole number (or None), got {describe(seed)}; pass e.g. "
            "seed=0",
            op="check_grads",
        )
    if order > MAX_ORDER:
        raise InvalidArgumentError(
            f"check_grads: order={order} is above {MAX_ORDER}: each order differentiates the "
            "backward pass of the one before, so the work grows about geometrically with the "
            f"order. Check orders 1 to {MAX_ORDER} (the usual are 1 and 2).",
            op="check_grads",
        )
    if not args:
        raise InvalidArgumentError(
            "check_grads: give the point to check at after f, one tensor per argument of f: "
            "check_grads(f, x) or check_grads(f, x, y)",
            op="check_grads",
        )
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
        grads = _reverse(f, args, u)
        analytic = sum(_inner(g, v.numpy()) for g, v in zip(grads, vs, strict=True))

        if not np.isclose(analytic, numeric, rtol=rtol, atol=atol):
            found = _first_wrong_element(f, args, u, eps, rtol, atol)
            if found is None:
                return GradientCheckError(level, None, None, analytic, numeric)
            return GradientCheckError(level, *found)
        f = _vjp_dot_v(f, u, vs)  # next order: differentiate the backward pass itself
    return None


def check_grads(f, *args, order=2, eps=1e-6, rtol=1e-5, atol=1e-6, seed=0):
    """Assert that ``f``'s gradients match finite differences, up to ``order``.

    Inputs are converted to float64 so central differences are accurate. Raises a
    ``GradientCheckError`` (an ``AssertionError``) naming the order, the input and the
    element at which the two disagree.

    Examples
    --------
    >>> import eagerkit as ek
    >>> from eagerkit.testing import check_grads
    >>> check_grads(lambda x: ek.sin(x) * x, [0.5, 1.0, 2.0], order=2)
    """
    error = first_gradient_error(f, *args, order=order, eps=eps, rtol=rtol, atol=atol, seed=seed)
    if error is not None:
        raise error


# What this namespace exports (to ``import *`` and to the error boundary, namespaces.py);
# the helpers it imports or keeps for itself stay out.
__all__ = ["GradientCheckError", "check_grads", "first_gradient_error"]
