"""Momentum: gradient descent that keeps a running velocity (TF1's MomentumOptimizer).

Each step: ``accum = momentum * accum + g``, then ``var -= lr * accum``; with Nesterov,
``var -= lr * (g + momentum * accum)``, i.e. the step looks ahead along the new velocity.
"""

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
        lr, momentum = _value(self.learning_rate), _value(self.momentum)
        accum = momentum * slots["momentum"] + g
        if self.use_nesterov:
            return value - lr * (g + momentum * accum), {"momentum": accum}
        return value - lr * accum, {"momentum": accum}
