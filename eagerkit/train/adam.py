"""Adam (Kingma & Ba), in TF1's "epsilon-hat" form with TF1's defaults.

Per step t (counted from 1)::

    lr_t = lr * sqrt(1 - beta2**t) / (1 - beta1**t)     # bias correction folded into lr
    m    = beta1 * m + (1 - beta1) * g                  # running mean of g
    v    = beta2 * v + (1 - beta2) * g * g              # running mean of g squared
    var -= lr_t * m / (sqrt(v) + epsilon)

Putting epsilon outside the bias correction is what TF1 does; Keras' Adam differs slightly
(and defaults to epsilon=1e-7).
"""

import math

from eagerkit.backends.fusion import elementwise
from eagerkit.train.optimizer import Optimizer, _check_hyper, _value


class AdamOptimizer(Optimizer):
    """Adam with slots ``'m'`` and ``'v'``; the step count is ``optimizer.iterations``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> w = ek.Variable(1.0)
    >>> opt = ek.train.AdamOptimizer(learning_rate=0.1)
    >>> opt.apply_gradients([(ek.constant(4.0), w)])
    >>> round(float(w), 6)  # the first Adam step moves by about lr, whatever the scale of g
    0.9
    """

    slot_names = ("m", "v")

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, name="Adam"):
        super().__init__(learning_rate, name)
        self.beta1 = _check_hyper(beta1, "beta1", self)
        self.beta2 = _check_hyper(beta2, "beta2", self)
        self.epsilon = _check_hyper(epsilon, "epsilon", self)

    def _update(self, xp, value, g, slots, step):
        lr, beta1, beta2 = _value(self.learning_rate), _value(self.beta1), _value(self.beta2)
        lr_t = lr * math.sqrt(1 - beta2**step) / (1 - beta1**step)
        # Python floats rounded to the variable's dtype, as numpy rounds them beside arrays.
        scalars = lr_t, beta1, 1 - beta1, beta2, 1 - beta2, _value(self.epsilon)
        new_value, m, v = xp.kernels.adam_update(
            value, g, slots["m"], slots["v"], *(value.dtype.type(s) for s in scalars)
        )
        return new_value, {"m": m, "v": v}


@elementwise("adam_update")
def _adam_update(xp, value, g, m, v, lr_t, beta1, one_minus_beta1, beta2, one_minus_beta2, eps):
    """One Adam step: one kernel on a GPU (backends/fusion.py) for what is ten otherwise."""
    m = beta1 * m + one_minus_beta1 * g
    v = beta2 * v + one_minus_beta2 * (g * g)
    return value - lr_t * m / (xp.sqrt(v) + eps), m, v
