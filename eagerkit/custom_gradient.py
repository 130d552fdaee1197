"""``ek.custom_gradient``: give a function your own gradient.

The decorated function returns ``(y, grad_fn)``. Its inner ops run (and are recorded) as
usual, then one more record is added: from the inputs to a fresh copy of ``y``, with
``grad_fn`` as its VJP. The gradient of anything computed from ``y`` therefore goes
through ``grad_fn``, while values grad_fn closes over (like ``e = exp(x)``) stay connected
to the inputs on outer tapes, so second-order gradients through a custom gradient work.
"""

import functools

from eagerkit import tape
from eagerkit.tensor import Tensor, convert_to_tensor


class _CustomGradientOp:
    """A one-off op whose VJPs all come from one call of the user's ``grad_fn``."""

    differentiable = True

    def __init__(self, name, grad_fn, arg_count, variables):
        self.name = name
        self._grad_fn = grad_fn
        self._arg_count = arg_count
        self._variables = variables
        self._cached = (None, None)
        self.vjps = tuple(
            functools.partial(self._vjp, i) for i in range(arg_count + len(variables))
        )

    def vjps_for(self, count):
        return self.vjps

    def _all_grads(self, g):
        if self._variables:
            arg_grads, variable_grads = self._grad_fn(g, variables=self._variables)
            return _as_list(arg_grads) + _as_list(variable_grads)
        return _as_list(self._grad_fn(g))

    def _vjp(self, i, ops, g, ans, *inputs):
        on_arrays = not ops.on_tensors
        key, grads = self._cached
        if key is not g:  # one grad_fn call serves every input of this record
            g_tensor = Tensor(g, ops.device) if on_arrays else g
            grads = self._all_grads(g_tensor)
            expected = len(self.vjps)
            if len(grads) != expected:
                raise ValueError(
                    f"custom_gradient '{self.name}': grad_fn returned {len(grads)} gradients "
                    f"but the function has {expected} inputs (arguments, then variables); "
                    "return None for inputs without a gradient"
                )
            self._cached = (g, grads)
        gx = grads[i]
        if gx is not None and not isinstance(gx, Tensor):
            gx = convert_to_tensor(gx)
        return gx._data if (on_arrays and gx is not None) else gx


def _as_list(grads):
    return list(grads) if isinstance(grads, (list, tuple)) else [grads]


def custom_gradient(f):
    """Decorator: ``f(*x)`` returns ``(y, grad_fn)`` and ``grad_fn(dy)`` the gradients of x.

    If ``f`` reads variables, ``grad_fn(dy, variables=None)`` must return
    ``(grads_for_x, grads_for_variables)``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> @ek.custom_gradient
    ... def log1pexp(x):
    ...     e = ek.exp(x)
    ...     def grad(dy):
    ...         return dy * (1 - 1 / (1 + e))
    ...     return ek.log(1 + e), grad
    >>> ek.gradients_function(log1pexp)(100.0)
    [<ek.Tensor: shape=(), dtype=float32, numpy=1.0>]
    """

    @functools.wraps(f)
    def decorated(*args):
        args = [convert_to_tensor(a) for a in args]
        with _VariableWatcher() as watcher:
            y, grad_fn = f(*args)
        if not isinstance(y, Tensor):
            raise TypeError(
                f"custom_gradient '{f.__name__}': f must return (tensor, grad_fn), got a "
                f"{type(y).__name__} as the first item"
            )
        output = Tensor(y._data, y._device)  # fresh: only the custom record produces it
        if tape.active_tapes:
            # A variable passed as an argument gets its gradient as an argument (as in TF).
            variables = [v for v in watcher.variables if not any(v is a for a in args)]
            op = _CustomGradientOp(f.__name__, grad_fn, len(args), variables)
            inputs = tuple(tape.recorded_input(x, x._data, x._device) for x in args + variables)
            tape.record(op, inputs, output, {})
        return output

    return decorated


class _VariableWatcher:
    """Collects the trainable variables read inside a block (on a throwaway tape)."""

    def __enter__(self):
        self._tape = tape.GradientTape(watch_accessed_variables=True)
        self._tape.__enter__()
        return self

    def __exit__(self, *exc_info):
        self._tape.__exit__(*exc_info)
        self.variables = list(self._tape.watched_variables())
