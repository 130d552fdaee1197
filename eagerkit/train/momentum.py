"""Momentum: gradient descent that keeps a running velocity (TF1's MomentumOptimizer).

Each step: ``accum = momentum * accum + g``, then ``var -= lr * accum``; with Nesterov,
``var -= lr * (g + momentum * accum)``, i.e. the step looks ahead along the new velocity.
"""

from eagerkit.backends.fusion import elementwise
from eagerkit.train.optimizer import Optimizer, _check_hyper, _value


class MomentumOptimizer(Optimizer):
    """Gradient descent with momentum (optionally Nesterov's), slot ``'momentum'``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> w = ek.Variable(1.0)
    >>> opt = ek.train.MomentumOptimizer(learning_rate=0.1, momentum=0.9)
    >>> for _ in range(2):
    ...     opt.apply_gradients([(ek.constant(1.0), w)])
    >>> round(float(w), 6)  # 1 - 0.1 * 1 - 0.1 * (0.9 + 1)
    0.71
    """

    slot_names = ("momentum",)

    def __init__(self, learning_rate, momentum, use_nesterov=False, name="Momentum"):
        super().__init__(learning_rate, name)
        self.momentum = _check_hyper(momentum, "momentum", self)
        self.use_nesterov = bool(use_nesterov)

    def _update(self, xp, value, g, slots, step):
        # Python floats rounded to the variable's dtype, as numpy rounds them beside arrays.
        lr, momentum = (value.dtype.type(_value(h)) for h in (self.learning_rate, self.momentum))
        kernel = xp.kernels.nesterov_update if self.use_nesterov else xp.kernels.momentum_update
        new_value, accum = kernel(value, g, slots["momentum"], lr, momentum)
        return new_value, {"momentum": accum}


# Each update is one kernel on a GPU (backends/fusion.py), the new value and the new
# velocity computed in the same pass.
@elementwise("momentum_update")
def _momentum_update(xp, value, g, accum, lr, momentum):
    accum = momentum * accum + g
    return value - lr * accum, accum


@elementwise("nesterov_update")
def _nesterov_update(xp, value, g, accum, lr, momentum):
    accum = momentum * accum + g
    return value - lr * (g + momentum * accum), accum
