"""Optimizer: the shared machinery (apply_gradients, minimize); subclasses give the update rule.

A subclass implements ``_update(variable, grad, slots, step)`` on raw arrays through the
variable's namespace ``xp`` and returns the new value; slots (momentum, Adam's m and v) are
Variables created on first use, so checkpoints can save them.
"""

from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import Tensor
from eagerkit.variables import Variable


class Optimizer:
    """Base class. ``apply_gradients(grads_and_vars)`` applies one update to each variable."""

    def __init__(self, learning_rate, name=None):
        self.learning_rate = learning_rate
        self.name = name or type(self).__name__
        self._slots = {}  # (slot name, id(variable)) -> Variable
        self._slot_owners = {}  # id(variable) -> variable, to keep ids unique while we live
        self.iterations = 0
        self.listeners = []  # e.g. the GradientFlow widget: on_apply(optimizer, pairs)

    # --- the public API ---------------------------------------------------------------------
    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Update each variable from its gradient; ``None`` gradients are skipped.

        Raises ``ValueError`` when every gradient is ``None`` (nothing would train).
        """
        pairs = list(grads_and_vars)
        for grad, variable in pairs:
            if not isinstance(variable, Variable):
                raise TypeError(
                    f"apply_gradients: expected (gradient, ek.Variable) pairs, got a "
                    f"{type(variable).__name__} as the variable"
                )
        usable = [(g, v) for g, v in pairs if g is not None]
        if not usable:
            names = [v.name for _, v in pairs]
            raise ValueError(
                f"No gradients provided for any variable: {names}. Check that the loss is "
                "computed from these variables inside the tape (and that they are floats)."
            )
        # Compute every new value first, then assign: a failure leaves all variables as they were.
        updates = []
        step = self.iterations + 1
        for grad, variable in usable:
            g = _as_array(grad, variable)
            updates.append((variable, self._update(variable, g, step)))
        for variable, value in updates:
            variable._data = value.astype(variable._data.dtype, copy=False)
        self.iterations = step
        if global_step is not None:
            global_step.assign_add(1)
        for listener in self.listeners:
            listener.on_apply(self, usable)

    def minimize(self, loss, var_list=None, global_step=None, name=None):
        """Compute the gradients of ``loss()`` (a callable) and apply them."""
        from eagerkit.tape import GradientTape

        if not callable(loss):
            raise RuntimeError(
                "loss passed to Optimizer.minimize should be a function when eager execution "
                "is enabled: write optimizer.minimize(lambda: loss_fn(model, x, y))"
            )
        with GradientTape() as tape:
            value = loss()
        variables = list(var_list) if var_list is not None else list(tape.watched_variables())
        grads = tape.gradient(value, variables)
        self.apply_gradients(zip(grads, variables), global_step=global_step)
        return value

    def variables(self):
        """The slot variables created so far (momentum, Adam's m and v, ...)."""
        return list(self._slots.values())

    # --- for subclasses ------------------------------------------------------------------------
    def _update(self, variable, g, step):
        raise NotImplementedError

    def get_slot(self, variable, slot_name):
        """The slot ``slot_name`` of ``variable`` (zeros like it, created on first use)."""
        key = (slot_name, id(variable))
        slot = self._slots.get(key)
        if slot is None:
            xp = variable._device.xp
            slot = Variable(
                Tensor(xp.zeros_like(variable._data), variable._device),
                trainable=False,
                name=f"{variable.name[:-2]}/{slot_name}",
            )
            self._slots[key] = slot
            self._slot_owners[id(variable)] = variable
        return slot


def _as_array(grad, variable):
    if not isinstance(grad, Tensor):
        raise TypeError(f"gradient for '{variable.name}' is a {type(grad).__name__}, not a tensor")
    if grad.shape != variable.shape or grad.dtype != variable.dtype:
        raise InvalidArgumentError(
            f"apply_gradients: gradient for '{variable.name}' has shape {grad.shape} and dtype "
            f"{grad.dtype.name} but the variable has shape {variable.shape} and dtype "
            f"{variable.dtype.name}",
            op="apply_gradients",
        )
    if grad._device is not variable._device:
        raise InvalidArgumentError(
            f"apply_gradients: gradient for '{variable.name}' is on {grad.device} but the "
            f"variable is on {variable.device}; move it with .cpu() or .gpu()",
            op="apply_gradients",
        )
    return grad._data


class GradientDescentOptimizer(Optimizer):
    """Plain gradient descent: ``variable -= learning_rate * gradient``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> w = ek.Variable(1.0)
    >>> ek.train.GradientDescentOptimizer(0.1).apply_gradients([(ek.constant(2.0), w)])
    >>> round(float(w), 6)
    0.8
    """

    def _update(self, variable, g, step):
        return variable._data - self.learning_rate * g
