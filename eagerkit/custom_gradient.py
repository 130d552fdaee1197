"""``ek.custom_gradient``: give a function your own gradient.

The decorated function returns ``(y, grad_fn)``. Its inner ops run (and are recorded) as
usual, then one more record is added: from the inputs to a fresh copy of ``y``, with
``grad_fn`` as its VJP. The gradient of anything computed from ``y`` therefore goes
through ``grad_fn``, while values grad_fn closes over (like ``e = exp(x)``) stay connected
to the inputs on outer tapes, so second-order gradients through a custom gradient work.
"""

import functools

from eagerkit import boundary, errors, recording, tape
from eagerkit.tensor import Tensor, convert_to_tensor


class _CustomGradientOp:
    """A one-off op whose input gradients all come from one call of the user's ``grad_fn``."""

    differentiable = True

    def __init__(self, name, grad_fn, input_count, variables):
        self.name = name
        self._grad_fn = grad_fn
        self._input_count = input_count  # the arguments, then the variables
        self._variables = variables

    def has_gradient(self, position):
        return True  # grad_fn decides, when it runs

    def input_gradients(self, ops, g, ans, inputs, params, wanted):
        """Call ``grad_fn`` once per backward pass (never a cached answer from an earlier one)."""
        g_tensor = g if ops.on_tensors else Tensor(g, ops.device)
        if self._variables:
            arg_grads, variable_grads = self._grad_fn(g_tensor, variables=self._variables)
            grads = _as_list(arg_grads) + _as_list(variable_grads)
        else:
            grads = _as_list(self._grad_fn(g_tensor))
        if len(grads) != self._input_count:
            raise ValueError(
                f"custom_gradient '{self.name}': grad_fn returned {len(grads)} gradients "
                f"but the function has {self._input_count} inputs (arguments, then "
                "variables); return None for inputs without a gradient"
            )
        return [
            _as_ops_value(gx, ops) if want else None for gx, want in zip(grads, wanted, strict=True)
        ]


def _as_ops_value(gx, ops):
    """A gradient from grad_fn as the sweep's mode wants it: a Tensor, or its raw array."""
    if gx is None:
        return None
    if not isinstance(gx, Tensor):
        gx = convert_to_tensor(gx)
    return gx if ops.on_tensors else gx._data


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
            result = f(*args)
        pair = isinstance(result, (tuple, list)) and len(result) == 2
        if not pair or not isinstance(result[0], Tensor) or not callable(result[1]):
            got = [type(r).__name__ for r in result] if pair else type(result).__name__
            raise errors.type_error(
                f"custom_gradient '{f.__name__}': f must return (tensor, grad_fn), a tensor and "
                f"the function of dy that gives its gradients; got {got}",
                op="custom_gradient",
            )
        y, grad_fn = result
        output = Tensor(y._data, y._device)  # fresh: only the custom record produces it
        if recording.any_tape_recording():
            # A variable passed as an argument gets its gradient as an argument (as in TF).
            variables = [v for v in watcher.variables if not any(v is a for a in args)]
            op = _CustomGradientOp(f.__name__, grad_fn, len(args) + len(variables), variables)
            inputs = args + variables
            inputs = recording.recorded_inputs(inputs, [x._data for x in inputs], output._device)
            recording.record(op, inputs, output, recording.NO_PARAMS)
        return output

    return boundary.returned(decorated, "custom_gradient", f)


class _VariableWatcher:
    """Collects the trainable variables read inside a block (on a throwaway tape)."""

    def __enter__(self):
        self._tape = tape.GradientTape(watch_accessed_variables=True)
        self._tape.__enter__()
        return self

    def __exit__(self, *exc_info):
        self._tape.__exit__(*exc_info)
        self.variables = list(self._tape.watched_variables())


def grad_pass_through(f):
    """``f`` forward, the identity backward: the straight-through estimator (TF 2's
    ``tf.grad_pass_through``).

    ``grad_pass_through(f)(x)`` computes ``f(x)``, but its gradient is the upstream gradient
    itself, as if ``f`` were the identity: rounding or quantizing in the forward pass while
    the gradient flows on unchanged. Variables ``f`` reads get no gradient through it. As in
    TF, ``f`` takes one tensor (keyword arguments are passed on as they are) and returns one
    of the same shape.

    Examples
    --------
    >>> import eagerkit as ek
    >>> round_straight_through = ek.grad_pass_through(ek.round)
    >>> x = ek.Variable([0.2, 1.7])
    >>> with ek.GradientTape() as tape:
    ...     y = round_straight_through(x) * 3.0
    >>> y
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0., 6.], dtype=float32)>
    >>> tape.gradient(y, x)  # ek.round's own gradient would be 0
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([3., 3.], dtype=float32)>
    """
    name = getattr(f, "__name__", type(f).__name__)
    if not callable(f):
        raise errors.type_error(
            f"grad_pass_through: f must be a function of a tensor, got {type(f).__name__}; "
            "pass the function itself, e.g. ek.grad_pass_through(ek.round)(x)",
            op="grad_pass_through",
        )

    @functools.wraps(f)
    def passed_through(x, **kwargs):
        def forward_f(x):
            y = convert_to_tensor(f(x, **kwargs))  # (a variable's assign returns the variable)

            def identity_gradient(dy, variables=None):
                if tuple(dy.shape) != tuple(x.shape):  # the identity cannot map dy onto x
                    raise errors.InvalidArgumentError(
                        f"grad_pass_through({name}): {name} turned shape {x.shape} into "
                        f"{y.shape}, so the upstream gradient cannot pass through unchanged; "
                        "wrap only functions that keep the shape (round, clip, quantize)",
                        op="grad_pass_through",
                    )
                if variables is not None:  # variables f read get no gradient (TF's rule)
                    return dy, [None] * len(variables)
                return dy

            return y, identity_gradient

        forward_f.__name__ = name  # (errors and the tape's record name f)
        return custom_gradient(forward_f)(x)

    return boundary.returned(passed_through, "grad_pass_through", f)
