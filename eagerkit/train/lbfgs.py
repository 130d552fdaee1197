"""L-BFGS: a quasi-Newton minimizer that remembers the last few steps instead of a Hessian.

Each iteration turns the gradient into a search direction with the "two-loop recursion"
over the last ``history_size`` pairs ``s = x_new - x`` and ``y = g_new - g`` (which is
multiplying by an approximate inverse Hessian), then searches along it with backtracking
until the loss drops enough (the Armijo condition). Unlike the optimizers it is not one
``apply_gradients`` step: it calls ``loss_fn`` as often as it needs and moves the variables
to the best point it found.

All vectors are lists with one array per variable, handled through each variable's ``xp``,
so it runs wherever the variables live.
"""

import collections

from eagerkit.arguments import describe, positive, size
from eagerkit.errors import InvalidArgumentError
from eagerkit.tape import GradientTape
from eagerkit.train.checks import number
from eagerkit.variables import Variable

LBFGSResult = collections.namedtuple(
    "LBFGSResult", ["converged", "iterations", "evaluations", "loss", "gradient_norm", "losses"]
)
LBFGSResult.__doc__ = """What ``lbfgs_minimize`` found.

converged : True when the gradient norm fell below the tolerance.
iterations : how many L-BFGS iterations ran; evaluations : how often ``loss_fn`` was called.
loss, gradient_norm : at the final point (floats); losses : the loss after each iteration.
"""

_ARMIJO = 1e-4  # how much of the predicted decrease a step must achieve to be accepted
_MAX_HALVINGS = 40


def lbfgs_minimize(loss_fn, variables, max_iterations=100, history_size=10, tolerance=1e-6):
    """Minimize ``loss_fn()`` over ``variables`` with L-BFGS; the variables end at the minimum.

    Parameters
    ----------
    loss_fn : a zero-argument callable returning a scalar loss computed from ``variables``.
    variables : the float Variables to move.
    max_iterations : upper bound on iterations (each calls ``loss_fn`` once or more).
    history_size : how many recent steps approximate the curvature.
    tolerance : stop when the gradient's Euclidean norm falls below this.

    Returns
    -------
    LBFGSResult (converged, iterations, evaluations, loss, gradient_norm, losses).

    If ``loss_fn`` raises (at any iterate), the error goes on and the variables are back at
    their starting values: a failed call changes nothing.

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.Variable([0.0, 0.0], dtype=ek.float64)
    >>> result = ek.train.lbfgs_minimize(lambda: ek.reduce_sum((x - [3.0, -1.0]) ** 2), [x])
    >>> result.converged, x.numpy().round(6).tolist()
    (True, [3.0, -1.0])
    """
    variables = _checked_variables(variables)
    if not callable(loss_fn):
        raise InvalidArgumentError(
            "lbfgs_minimize: loss_fn must be a zero-argument callable, e.g. lambda: ...",
            op="lbfgs_minimize",
        )
    history_size = positive(history_size, "history_size", "lbfgs_minimize")
    max_iterations = size(max_iterations, "max_iterations", "lbfgs_minimize")
    tolerance = number(tolerance, "tolerance", "lbfgs_minimize")
    evaluate = _Evaluator(loss_fn, variables)
    start = x = [v._data for v in variables]
    try:
        loss, grad = evaluate(x)
        # (s, y, 1 / (s . y)); never more pairs than iterations, however large history_size
        history = collections.deque(maxlen=min(history_size, max_iterations + 1))
        losses, iterations, converged = [], 0, False
        while True:
            grad_norm = _dot(grad, grad) ** 0.5
            if grad_norm <= tolerance:
                converged = True
                break
            if iterations >= max_iterations:
                break
            direction = _two_loop(grad, history)
            slope = _dot(grad, direction)
            if not slope < 0:  # not a descent direction: forget the curvature, go downhill
                history.clear()
                direction, slope = [-g for g in grad], -(grad_norm**2)
            # With no history the direction has the gradient's scale: start with a short step.
            step = 1.0 if history else min(1.0, 1.0 / grad_norm)
            found = _backtrack(evaluate, x, loss, direction, slope, step)
            if found is None:  # no step along the direction lowers the loss: we are stuck
                break
            new_x, new_loss, new_grad, step = found
            s = [step * d for d in direction]
            y = [a - b for a, b in zip(new_grad, grad, strict=True)]
            curvature = _dot(s, y)
            if curvature > 1e-10:  # keep only pairs that describe positive curvature
                history.append((s, y, 1.0 / curvature))
            x, loss, grad = new_x, new_loss, new_grad
            iterations += 1
            losses.append(loss)
    except BaseException:  # loss_fn raised (or was stopped): the variables go back to the start
        for variable, array in zip(variables, start, strict=True):
            variable._write(array, "lbfgs_minimize")
        raise
    for variable, array in zip(variables, x, strict=True):  # the last accepted point
        variable._write(array, "lbfgs_minimize")
    return LBFGSResult(converged, iterations, evaluate.count, loss, grad_norm, losses)


class _Evaluator:
    """Set the variables to ``x``, run ``loss_fn`` under a tape: ``(loss, gradients)``."""

    def __init__(self, loss_fn, variables):
        self.loss_fn, self.variables, self.count = loss_fn, variables, 0

    def __call__(self, x):
        for variable, array in zip(self.variables, x, strict=True):
            variable._write(array, "lbfgs_minimize")
        self.count += 1
        with GradientTape(watch_accessed_variables=False) as tape:
            for variable in self.variables:
                tape.watch(variable)
            loss = self.loss_fn()
        if loss is None:
            raise InvalidArgumentError(
                "lbfgs_minimize: loss_fn returned None; make it return the loss, e.g. "
                "lambda: ek.reduce_sum((w - 3.0) ** 2)",
                op="lbfgs_minimize",
            )
        if getattr(loss, "shape", ()) != ():
            raise InvalidArgumentError(
                f"lbfgs_minimize: loss_fn must return a scalar, got shape {loss.shape}; "
                "reduce it first, e.g. with ek.reduce_mean",
                op="lbfgs_minimize",
            )
        grads = tape.gradient(loss, self.variables)
        if all(g is None for g in grads):
            raise ValueError(
                "lbfgs_minimize: the loss does not depend on any of the variables; compute it "
                "from them inside loss_fn, or pass the variables it reads"
            )
        xp_zeros = [v._device.xp.zeros_like(v._data) for v in self.variables]
        return float(loss), [
            z if g is None else g._data for g, z in zip(grads, xp_zeros, strict=True)
        ]


def _two_loop(grad, history):
    """``-H g``, with ``H`` the inverse-Hessian estimate built from the stored pairs."""
    q = list(grad)
    alphas = []
    for s, y, rho in reversed(history):
        alpha = rho * _dot(s, q)
        q = [qi - alpha * yi for qi, yi in zip(q, y, strict=True)]
        alphas.append(alpha)
    if history:  # scale by s.y / y.y, the usual guess for the Hessian's size
        s, y, rho = history[-1]
        gamma = 1.0 / (rho * _dot(y, y))
        q = [gamma * qi for qi in q]
    for (s, y, rho), alpha in zip(history, reversed(alphas), strict=True):
        beta = rho * _dot(y, q)
        q = [qi + (alpha - beta) * si for qi, si in zip(q, s, strict=True)]
    return [-qi for qi in q]


def _backtrack(evaluate, x, loss, direction, slope, step):
    """Halve ``step`` until the loss falls by at least ``_ARMIJO * step * slope``."""
    for _ in range(_MAX_HALVINGS):
        new_x = [xi + step * d for xi, d in zip(x, direction, strict=True)]
        new_loss, new_grad = evaluate(new_x)
        if new_loss <= loss + _ARMIJO * step * slope:  # False for NaN: NaN is never accepted
            return new_x, new_loss, new_grad, step
        step *= 0.5
    return None


def _dot(a, b):
    """The dot product of two lists of arrays, as a Python float."""
    return sum(float((ai * bi).sum()) for ai, bi in zip(a, b, strict=True))


def _checked_variables(variables):
    given = variables
    if isinstance(variables, Variable) or not hasattr(variables, "__iter__"):
        variables = [variables]  # one Variable (or junk, refused below)
    variables = list(variables)
    for v in variables:
        if not isinstance(v, Variable) or not v.dtype.is_floating:
            raise InvalidArgumentError(
                f"lbfgs_minimize: variables must be float ek.Variables, got {describe(v)} "
                f"among variables={describe(given)}; pass e.g. [ek.Variable(1.0)]",
                op="lbfgs_minimize",
            )
    if not variables:
        raise InvalidArgumentError(
            f"lbfgs_minimize: no variables to optimize (variables={describe(given)}); pass the "
            "float ek.Variables the loss depends on, e.g. [w, b]",
            op="lbfgs_minimize",
        )
    return variables
