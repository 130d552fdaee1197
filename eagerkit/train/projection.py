"""A variable's constraint, applied by an optimizer to the value an update computed.

TF and Keras project a variable right after the optimizer's update (``variable.assign(
variable.constraint(variable))``): a max-norm or non-negativity rule that holds after every
step. Here the projection is computed from the new value before anything is written, so an
update whose constraint fails (or returns a value of another shape) leaves every variable,
slot and step counter as it was.

Examples
--------
>>> import eagerkit as ek
>>> w = ek.Variable([0.5, 0.2], constraint=ek.keras.constraints.NonNeg())
>>> ek.keras.optimizers.SGD(1.0).apply_gradients([(ek.constant([1.0, -1.0]), w)])
>>> float(w[0]), round(float(w[1]), 4)  # [-0.5, 1.2] projected: the negative weight is 0
(-0.0, 1.2)
"""

from eagerkit import recording
from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import Tensor, convert_to_tensor


def projected(variable, array):
    """``array`` (the new value of ``variable``, which has a constraint) after
    ``variable.constraint``, as an array of the variable's shape and dtype on its device."""
    constraint = variable.constraint
    with recording.paused():  # a projection, not part of any gradient
        try:
            result = constraint(Tensor(array, variable._device))
            result = convert_to_tensor(result, dtype=variable.dtype)
        except (InvalidArgumentError, TypeError, ValueError) as error:
            raise InvalidArgumentError(
                f"apply_gradients: the constraint {constraint!r:.80} of variable "
                f"'{variable.name}' failed on its updated value (shape {variable.shape}, "
                f"{variable.dtype.name}): {error}; nothing was updated. Give the variable a "
                f"constraint that takes a {variable.dtype.name} tensor of that shape and "
                "returns one",
                op="apply_gradients",
            ) from error
    if result.shape != variable.shape or result._device is not variable._device:
        raise InvalidArgumentError(
            f"apply_gradients: the constraint {constraint!r:.80} of variable "
            f"'{variable.name}' returned shape {result.shape} on {result._device.name}, but "
            f"the variable has shape {variable.shape} on {variable._device.name}; nothing was "
            "updated. A constraint must return a value of the variable's shape (a projection "
            "of it, e.g. ek.keras.constraints.MaxNorm(2.0))",
            op="apply_gradients",
        )
    return result._data
