"""The checks apply_gradients and L-BFGS make before they change anything.

Each turns bad input into an ``InvalidArgumentError`` that names the call, what is wrong and
how to fix it; fractions, strings and bools are refused, never truncated or guessed at.
"""

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError, OpError
from eagerkit.tensor import Tensor, convert_to_tensor
from eagerkit.variables import Variable


def checked_pairs(grads_and_vars):
    """The ``(gradient Tensor, Variable)`` pairs to apply, or an error naming what is wrong."""
    try:
        pairs = [tuple(pair) for pair in grads_and_vars]
    except TypeError:
        raise InvalidArgumentError(
            f"apply_gradients: expected an iterable of (gradient, variable) pairs, got "
            f"{type(grads_and_vars).__name__}; pass zip(grads, variables)",
            op="apply_gradients",
        ) from None
    usable = []
    for pair in pairs:
        if len(pair) != 2 or not isinstance(pair[1], Variable):
            got = f"a {type(pair[1]).__name__}" if len(pair) == 2 else f"a {len(pair)}-tuple"
            raise InvalidArgumentError(
                f"apply_gradients: grads_and_vars must be (gradient, ek.Variable) pairs, got "
                f"{got} as the variable in {describe(grads_and_vars)}; pass "
                "zip(grads, variables)",
                op="apply_gradients",
            )
        if pair[0] is not None:
            usable.append((_checked_gradient(*pair), pair[1]))
    if not usable:
        names = [variable.name for _, variable in pairs]
        raise InvalidArgumentError(
            f"apply_gradients: No gradients provided for any variable: {names} (grads_and_vars "
            f"{describe(grads_and_vars)}). Check that "
            "the loss is computed from these variables inside the tape (and that they are "
            "floats).",
            op="apply_gradients",
        )
    return usable


def _checked_gradient(grad, variable):
    """``grad`` as a Tensor with the variable's shape, dtype and device, or an error."""
    if not variable.dtype.is_floating:  # an update would be truncated to an integer
        raise InvalidArgumentError(
            f"apply_gradients: variable '{variable.name}' is {variable.dtype.name}; optimizers "
            "train floating-point variables only (create it with a float dtype, e.g. "
            "ek.Variable(..., dtype=ek.float32))",
            op="apply_gradients",
        )
    if not isinstance(grad, Tensor):
        try:
            grad = convert_to_tensor(grad)
        except (OpError, TypeError, ValueError, OverflowError):
            raise InvalidArgumentError(
                f"{_where(variable)} is a {type(grad).__name__}, not a tensor: pass the gradients "
                "tape.gradient returned",
                op="apply_gradients",
            ) from None
    # raw shapes and dtypes: this runs for every variable on every step
    if grad._data.shape != variable._data.shape or grad._data.dtype != variable._data.dtype:
        raise InvalidArgumentError(
            f"{_where(variable)} has shape {grad.shape} and dtype {grad.dtype.name} but the "
            f"variable has shape {variable.shape} and dtype {variable.dtype.name}",
            op="apply_gradients",
        )
    if grad._device is not variable._device:
        raise InvalidArgumentError(
            f"{_where(variable)} is on {grad.device} but the variable is on {variable.device}; "
            "move it with .cpu() or .gpu()",
            op="apply_gradients",
        )
    return grad


def _where(variable):
    """How an error about ``variable``'s gradient begins (worded only when one is raised)."""
    return f"apply_gradients: gradient for '{variable.name}'"


def check_global_step(global_step):
    """``global_step`` is None or a scalar numeric Variable that may be written now."""
    if global_step is None:
        return
    if (
        not isinstance(global_step, Variable)
        or global_step.shape != ()
        or global_step.dtype.is_bool
    ):
        raise InvalidArgumentError(
            f"apply_gradients: global_step must be a scalar integer Variable such as "
            f"ek.train.get_or_create_global_step(), got {global_step!r}",
            op="apply_gradients",
        )
    global_step._check_writable("apply_gradients")


def number(value, what, op):
    """``value`` as a float >= 0 (a learning rate, a tolerance), or an error naming ``op``."""
    result = None
    if not isinstance(value, (str, bytes)):  # float("0.1") would pass a string through
        try:
            result = float(value)
        except (TypeError, ValueError, OverflowError):
            pass
    if result is None or not result >= 0:  # also refuses NaN
        raise InvalidArgumentError(f"{op}: {what} must be a number >= 0, got {value!r}", op=op)
    return result
