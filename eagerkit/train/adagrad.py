"""Adagrad (Duchi et al.), as TF1's AdagradOptimizer computes it.

Per step: ``accum += g * g``, then ``var -= lr * g / sqrt(accum)``. The accumulator starts
at ``initial_accumulator_value`` (0.1), which keeps the first division finite.
"""

from eagerkit.errors import InvalidArgumentError
from eagerkit.train.checks import number
from eagerkit.train.optimizer import Optimizer, _check_hyper, _value


class AdagradOptimizer(Optimizer):
    """Adagrad with slot ``'accumulator'``: each coordinate's step shrinks as its g² adds up.

    Examples
    --------
    >>> import eagerkit as ek
    >>> w = ek.Variable(1.0)
    >>> ek.train.AdagradOptimizer(0.5).apply_gradients([(ek.constant(0.3), w)])
    >>> round(float(w), 6)  # accum = 0.1 + 0.09 = 0.19; step = 0.5 * 0.3 / sqrt(0.19)
    0.655876
    """

    slot_names = ("accumulator",)

    def __init__(self, learning_rate, initial_accumulator_value=0.1, name="Adagrad"):
        super().__init__(learning_rate, name)
        start = number(initial_accumulator_value, "initial_accumulator_value", "AdagradOptimizer")
        if not start > 0:
            raise InvalidArgumentError(
                f"AdagradOptimizer: initial_accumulator_value must be positive, got "
                f"{initial_accumulator_value!r} (it is divided by on the first step)",
                op="AdagradOptimizer",
            )
        self.initial_accumulator_value = _check_hyper(
            initial_accumulator_value, "initial_accumulator_value", self
        )
        self.slot_initial_values = {"accumulator": self.initial_accumulator_value}

    def _update(self, xp, value, g, slots, step):
        accum = slots["accumulator"] + g * g
        return value - _value(self.learning_rate) * g / xp.sqrt(accum), {"accumulator": accum}
