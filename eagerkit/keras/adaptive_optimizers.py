"""Keras' other adaptive optimizers: ``AdamW``, ``Adadelta``, ``Adamax`` and ``Nadam``, with
the update rules of Keras 2.11+ (``tf.keras.optimizers``); optimizers.py re-exports them.

Each rule takes the variable's value, its gradient and its slots (raw arrays) and returns
the new value and slots (see ``ek.train.Optimizer``); ``weight_decay`` shrinks the value
first (``optimizer_options.py``), as Keras does.

Examples
--------
>>> import eagerkit as ek
>>> w = ek.Variable(1.0)
>>> ek.keras.optimizers.Adamax(learning_rate=0.1).apply_gradients([(ek.constant(5.0), w)])
>>> round(float(w), 4)  # the first step moves by about the learning rate
0.9
"""

import numpy as np

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.optimizer_options import KerasOptions
from eagerkit.keras.optimizers import Adam
from eagerkit.train.optimizer import Optimizer, _value


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov & Hutter): each step first shrinks the
    variable by ``learning_rate * weight_decay`` of itself, then takes Adam's step, so the
    decay does not pass through Adam's scaling as an L2 penalty in the loss would.

    Examples
    --------
    >>> import eagerkit as ek
    >>> w = ek.Variable(2.0)
    >>> ek.keras.optimizers.AdamW(learning_rate=0.1, weight_decay=0.5).apply_gradients(
    ...     [(ek.constant(0.0), w)])
    >>> float(w)  # 2 - 2 * 0.5 * 0.1; a zero gradient makes no Adam step
    1.899999976158142
    """

    def __init__(
        self,
        learning_rate=0.001,
        weight_decay=0.004,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-7,
        amsgrad=False,
        name="AdamW",
        clipnorm=None,
        clipvalue=None,
        global_clipnorm=None,
    ):
        if weight_decay is None:  # Keras' AdamW needs it
            raise InvalidArgumentError(
                "AdamW: Missing value of `weight_decay` which is required and must be a float "
                "value; pass e.g. weight_decay=0.004, or use Adam for no decay",
                op="AdamW",
            )
        super().__init__(
            learning_rate,
            beta_1,
            beta_2,
            epsilon,
            amsgrad,
            weight_decay,
            name,
            clipnorm,
            clipvalue,
            global_clipnorm,
        )


class Adadelta(KerasOptions, Optimizer):
    """Adadelta (Zeiler 2012), as ``tf.keras.optimizers.Adadelta``: the step is the gradient
    scaled by ``rms(past steps) / rms(past gradients)``, so it has the units of the variable
    and needs little tuning of ``learning_rate``. Per step, with ``rms(x) = sqrt(x + eps)``::

        accumulated_grad = rho * accumulated_grad + (1 - rho) * g**2
        delta = -rms(accumulated_delta_var) * g / rms(accumulated_grad)
        accumulated_delta_var = rho * accumulated_delta_var + (1 - rho) * delta**2
        var += learning_rate * delta

    Examples
    --------
    >>> import eagerkit as ek
    >>> w = ek.Variable(1.0)
    >>> ek.keras.optimizers.Adadelta(learning_rate=1.0).apply_gradients([(ek.constant(2.0), w)])
    >>> round(float(w), 6)  # 1 - sqrt(1e-7) * 2 / sqrt(0.05 * 4 + 1e-7)
    0.998586
    """

    slot_names = ("accumulated_grad", "accumulated_delta_var")

    def __init__(
        self,
        learning_rate=0.001,
        rho=0.95,
        epsilon=1e-7,
        weight_decay=None,
        name="Adadelta",
        clipnorm=None,
        clipvalue=None,
        global_clipnorm=None,
    ):
        self._set_options(clipnorm, clipvalue, global_clipnorm, weight_decay)
        super().__init__(learning_rate, name)
        self._keep_hypers(rho=rho, epsilon=epsilon)

    def _update(self, xp, value, g, slots, step):
        value = self._decayed(value)
        kind = value.dtype.type  # Python floats rounded to the variable's dtype, as Keras
        rho, eps, lr = (kind(_value(h)) for h in (self.rho, self.epsilon, self.learning_rate))
        grads = rho * slots["accumulated_grad"] + (1 - rho) * g * g
        delta = -xp.sqrt(slots["accumulated_delta_var"] + eps) * g / xp.sqrt(grads + eps)
        deltas = rho * slots["accumulated_delta_var"] + (1 - rho) * delta * delta
        slots = {"accumulated_grad": grads, "accumulated_delta_var": deltas}
        return value + lr * delta, slots


class Adamax(KerasOptions, Optimizer):
    """Adamax (Kingma & Ba, section 7), as ``tf.keras.optimizers.Adamax``: Adam with the
    infinity norm, ``u = max(beta_2 * u, |g|)``, in place of the root mean square::

        m = beta_1 * m + (1 - beta_1) * g
        u = maximum(beta_2 * u, |g|)
        var -= learning_rate * m / ((1 - beta_1**t) * (u + epsilon))

    Examples
    --------
    >>> import eagerkit as ek
    >>> opt = ek.keras.optimizers.Adamax()
    >>> opt.beta_1, opt.beta_2, opt.epsilon, opt.get_slot_names()
    (0.9, 0.999, 1e-07, ['m', 'u'])
    """

    slot_names = ("m", "u")

    def __init__(
        self,
        learning_rate=0.001,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-7,
        weight_decay=None,
        name="Adamax",
        clipnorm=None,
        clipvalue=None,
        global_clipnorm=None,
    ):
        self._set_options(clipnorm, clipvalue, global_clipnorm, weight_decay)
        super().__init__(learning_rate, name)
        self._keep_hypers(beta_1=beta_1, beta_2=beta_2, epsilon=epsilon)

    def _update(self, xp, value, g, slots, step):
        value = self._decayed(value)
        kind = value.dtype.type
        beta_1, beta_2 = _value(self.beta_1), _value(self.beta_2)
        lr, eps = _value(self.learning_rate), _value(self.epsilon)
        m = kind(beta_1) * slots["m"] + kind(1 - beta_1) * g
        u = xp.maximum(kind(beta_2) * slots["u"], xp.abs(g))
        return value - kind(lr) * m / (kind(1 - beta_1**step) * (u + kind(eps))), {"m": m, "u": u}


class Nadam(KerasOptions, Optimizer):
    """Nadam (Dozat 2016): Adam with Nesterov momentum, as ``tf.keras.optimizers.Nadam``
    (Keras 2.11+). The momentum follows Keras' schedule ``u_t = beta_1 * (1 - 0.5 *
    0.96**t)``; with ``P_t = u_1 * ... * u_t``::

        m = beta_1 * m + (1 - beta_1) * g;   v = beta_2 * v + (1 - beta_2) * g**2
        m_hat = u_{t+1} * m / (1 - P_{t+1}) + (1 - u_t) * g / (1 - P_t)
        var -= learning_rate * m_hat / (sqrt(v / (1 - beta_2**t)) + epsilon)

    Examples
    --------
    >>> import eagerkit as ek
    >>> w = ek.Variable(1.0)
    >>> ek.keras.optimizers.Nadam(learning_rate=0.1).apply_gradients([(ek.constant(3.0), w)])
    >>> round(float(w), 4)  # m_hat = (0.0628 + 1) g, v_hat = g**2 at the first step
    0.8937
    """

    slot_names = ("m", "v")

    def __init__(
        self,
        learning_rate=0.001,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-7,
        weight_decay=None,
        name="Nadam",
        clipnorm=None,
        clipvalue=None,
        global_clipnorm=None,
    ):
        self._set_options(clipnorm, clipvalue, global_clipnorm, weight_decay)
        super().__init__(learning_rate, name)
        self._keep_hypers(beta_1=beta_1, beta_2=beta_2, epsilon=epsilon)

    def _update(self, xp, value, g, slots, step):
        value = self._decayed(value)
        kind = value.dtype.type
        beta_1, beta_2 = _value(self.beta_1), _value(self.beta_2)
        lr, eps = _value(self.learning_rate), _value(self.epsilon)
        u_t, u_next = momentum_at(beta_1, step), momentum_at(beta_1, step + 1)
        product = momentum_product(beta_1, step)  # P_t
        m = kind(beta_1) * slots["m"] + kind(1 - beta_1) * g
        v = kind(beta_2) * slots["v"] + kind(1 - beta_2) * g * g
        m_hat = kind(u_next / (1 - product * u_next)) * m + kind((1 - u_t) / (1 - product)) * g
        v_hat = v / kind(1 - beta_2**step)
        return value - kind(lr) * m_hat / (xp.sqrt(v_hat) + kind(eps)), {"m": m, "v": v}


def momentum_at(beta_1, step):
    """Nadam's momentum at ``step`` (from 1): ``beta_1 * (1 - 0.5 * 0.96**step)``."""
    return beta_1 * (1.0 - 0.5 * 0.96**step)


def momentum_product(beta_1, step):
    """``u_1 * ... * u_step``. Keras keeps it in a variable, multiplied once per step; it is a
    function of the step alone, so it is computed here: after about 1000 steps ``0.96**s``
    no longer changes ``1 - 0.5 * 0.96**s`` in float64, so at most 1000 factors differ
    from ``beta_1``."""
    varying = np.arange(1, min(step, 1000) + 1, dtype=np.float64)
    return float(np.prod(1.0 - 0.5 * 0.96**varying)) * beta_1**step
