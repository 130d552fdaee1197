"""RMSProp (Tieleman & Hinton), as TF1's RMSPropOptimizer computes it.

Per step::

    ms  = decay * ms + (1 - decay) * g * g              # running mean of g squared
    mom = momentum * mom + lr * g / sqrt(ms + epsilon)  # epsilon inside the root
    var -= mom

TF1 starts ``ms`` at ones (Keras starts it at zeros), so the first steps are small rather
than of size ``lr / sqrt(1 - decay)``. ``centered=True`` divides by the estimated variance
``ms - mg**2`` instead, with ``mg`` the running mean of g.
"""

from eagerkit.train.optimizer import Optimizer, _check_hyper, _value


class RMSPropOptimizer(Optimizer):
    """RMSProp with slots ``'rms'`` (starts at 1), ``'momentum'`` and, if centered, ``'mg'``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> w = ek.Variable(1.0)
    >>> ek.train.RMSPropOptimizer(0.1).apply_gradients([(ek.constant(2.0), w)])
    >>> round(float(w), 5)  # ms = 0.9 + 0.1 * 4 = 1.3, step = 0.1 * 2 / sqrt(1.3)
    0.82459
    """

    slot_initial_values = {"rms": 1.0}

    def __init__(
        self,
        learning_rate,
        decay=0.9,
        momentum=0.0,
        epsilon=1e-10,
        centered=False,
        name="RMSProp",
    ):
        super().__init__(learning_rate, name)
        self.decay = _check_hyper(decay, "decay", self)
        self.momentum = _check_hyper(momentum, "momentum", self)
        self.epsilon = _check_hyper(epsilon, "epsilon", self)
        self.centered = bool(centered)
        self.slot_names = ("rms", "momentum", "mg") if centered else ("rms", "momentum")

    def _update(self, xp, value, g, slots, step):
        lr, decay, epsilon = _value(self.learning_rate), _value(self.decay), _value(self.epsilon)
        ms = decay * slots["rms"] + (1 - decay) * (g * g)
        new_slots = {"rms": ms}
        denominator = ms
        if self.centered:
            mg = decay * slots["mg"] + (1 - decay) * g
            new_slots["mg"] = mg
            denominator = ms - mg * mg
        mom = _value(self.momentum) * slots["momentum"] + lr * g / xp.sqrt(denominator + epsilon)
        new_slots["momentum"] = mom
        return value - mom, new_slots
