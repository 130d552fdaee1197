"""``ek.keras.optimizers``: TF2's optimizer names and arguments over ``ek.train``'s rules.

``SGD(learning_rate=0.01, momentum=0.0)``, ``Adam(learning_rate=0.001, beta_1=0.9, ...)``,
``RMSprop`` and ``Adagrad`` take Keras' argument names and defaults (``AdamW``,
``Adadelta``, ``Adamax`` and ``Nadam`` are in adaptive_optimizers.py). The update rules,
slots, checkpoints and ``apply_gradients`` / ``minimize`` are those of ``ek.train``; only
where Keras computes differently (RMSprop's running mean starts at 0, Adagrad adds
``epsilon`` to the root, Adam's ``amsgrad``) does a class here change the rule. Keras'
gradient clipping (``clipnorm``, ``clipvalue``, ``global_clipnorm``), ``weight_decay``,
``minimize(..., tape=)``, learning-rate ``schedules`` and ``get_config`` come from
optimizer_options.py.

Examples
--------
>>> import eagerkit as ek
>>> w = ek.Variable(3.0)
>>> opt = ek.keras.optimizers.SGD(learning_rate=0.25)
>>> with ek.GradientTape() as tape:
...     loss = w * w
>>> opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
>>> float(w)  # 3 - 0.25 * 6
1.5
"""

import math

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import schedules
from eagerkit.keras.optimizer_options import KerasOptions
from eagerkit.train.adagrad import AdagradOptimizer
from eagerkit.train.adam import AdamOptimizer
from eagerkit.train.optimizer import Optimizer, _value
from eagerkit.train.rmsprop import RMSPropOptimizer


class SGD(KerasOptions, Optimizer):
    """Gradient descent, with optional (Nesterov) momentum, as ``tf.keras.optimizers.SGD``.

    ``velocity = momentum * velocity - lr * g``, then ``var += velocity`` (Nesterov:
    ``var += momentum * velocity - lr * g``). Without momentum there is no slot.

    Examples
    --------
    >>> import eagerkit as ek
    >>> w = ek.Variable(1.0)
    >>> opt = ek.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)
    >>> for _ in range(2):
    ...     opt.apply_gradients([(ek.constant(1.0), w)])
    >>> round(float(w), 4)  # steps of 0.1, then 0.9 * 0.1 + 0.1
    0.71
    """

    def __init__(
        self,
        learning_rate=0.01,
        momentum=0.0,
        nesterov=False,
        weight_decay=None,
        name="SGD",
        clipnorm=None,
        clipvalue=None,
        global_clipnorm=None,
    ):
        self._set_options(clipnorm, clipvalue, global_clipnorm, weight_decay)
        super().__init__(learning_rate, name)
        self._keep_hypers(momentum=momentum)
        self.nesterov = bool(nesterov)
        self.slot_names = ("momentum",) if callable(momentum) or self.momentum > 0 else ()

    def _update(self, xp, value, g, slots, step):
        value = self._decayed(value)
        lr = _value(self.learning_rate)
        if not self.slot_names:
            return value - lr * g, {}
        momentum = _value(self.momentum)
        velocity = momentum * slots["momentum"] - lr * g
        if self.nesterov:
            return value + momentum * velocity - lr * g, {"momentum": velocity}
        return value + velocity, {"momentum": velocity}


class Adam(KerasOptions, AdamOptimizer):
    """Adam with Keras' names and defaults (``epsilon=1e-7``), as ``tf.keras.optimizers.Adam``.

    With ``amsgrad=True`` the step divides by the largest ``v`` seen so far (slot
    ``'vhat'``), as Keras' AMSGrad does.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.optimizers.Adam(learning_rate=0.01).beta_1
    0.9
    """

    def __init__(
        self,
        learning_rate=0.001,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-7,
        amsgrad=False,
        weight_decay=None,
        name="Adam",
        clipnorm=None,
        clipvalue=None,
        global_clipnorm=None,
    ):
        self._set_options(clipnorm, clipvalue, global_clipnorm, weight_decay)
        super().__init__(learning_rate, beta1=beta_1, beta2=beta_2, epsilon=epsilon, name=name)
        self.amsgrad = bool(amsgrad)
        if self.amsgrad:
            self.slot_names = ("m", "v", "vhat")

    def _update(self, xp, value, g, slots, step):
        value = self._decayed(value)
        if not self.amsgrad:
            return super()._update(xp, value, g, slots, step)
        lr, beta1, beta2 = _value(self.learning_rate), _value(self.beta1), _value(self.beta2)
        lr_t = value.dtype.type(lr * math.sqrt(1 - beta2**step) / (1 - beta1**step))
        m = beta1 * slots["m"] + (1 - beta1) * g
        v = beta2 * slots["v"] + (1 - beta2) * (g * g)
        vhat = xp.maximum(slots["vhat"], v)  # the largest v so far: steps never grow back
        new_value = value - lr_t * m / (xp.sqrt(vhat) + value.dtype.type(_value(self.epsilon)))
        return new_value, {"m": m, "v": v, "vhat": vhat}

    @property
    def beta_1(self):
        return self.beta1

    @property
    def beta_2(self):
        return self.beta2


class RMSprop(KerasOptions, RMSPropOptimizer):
    """RMSprop as ``tf.keras.optimizers.RMSprop``: ``rho`` names the decay, and the running
    mean of g² starts at 0 (TF1's RMSPropOptimizer starts it at 1).

    Examples
    --------
    >>> import eagerkit as ek
    >>> w = ek.Variable(1.0)
    >>> ek.keras.optimizers.RMSprop(learning_rate=0.01).apply_gradients([(ek.constant(2.0), w)])
    >>> round(float(w), 4)  # ms = 0.1 * 4 = 0.4; step = 0.01 * 2 / sqrt(0.4)
    0.9684
    """

    slot_initial_values = {}  # every slot, "rms" included, starts at 0

    def __init__(
        self,
        learning_rate=0.001,
        rho=0.9,
        momentum=0.0,
        epsilon=1e-7,
        centered=False,
        weight_decay=None,
        name="RMSprop",
        clipnorm=None,
        clipvalue=None,
        global_clipnorm=None,
    ):
        self._set_options(clipnorm, clipvalue, global_clipnorm, weight_decay)
        super().__init__(learning_rate, rho, momentum, epsilon, centered, name=name)

    def _update(self, xp, value, g, slots, step):
        return super()._update(xp, self._decayed(value), g, slots, step)

    @property
    def rho(self):
        return self.decay


class Adagrad(KerasOptions, AdagradOptimizer):
    """Adagrad as ``tf.keras.optimizers.Adagrad``: ``var -= lr * g / (sqrt(accum) + epsilon)``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> w = ek.Variable(1.0)
    >>> ek.keras.optimizers.Adagrad(learning_rate=0.5).apply_gradients([(ek.constant(0.3), w)])
    >>> round(float(w), 6)  # accum = 0.1 + 0.09; step = 0.5 * 0.3 / (sqrt(0.19) + 1e-7)
    0.655876
    """

    def __init__(
        self,
        learning_rate=0.001,
        initial_accumulator_value=0.1,
        epsilon=1e-7,
        weight_decay=None,
        name="Adagrad",
        clipnorm=None,
        clipvalue=None,
        global_clipnorm=None,
    ):
        self._set_options(clipnorm, clipvalue, global_clipnorm, weight_decay)
        super().__init__(learning_rate, initial_accumulator_value, name=name)
        self._keep_hypers(epsilon=epsilon)

    def _update(self, xp, value, g, slots, step):
        value = self._decayed(value)
        accum = slots["accumulator"] + g * g
        step_size = _value(self.learning_rate) * g / (xp.sqrt(accum) + _value(self.epsilon))
        return value - step_size, {"accumulator": accum}


# Keras' other adaptive rules, in their own module (they build on the classes above).
from eagerkit.keras.adaptive_optimizers import Adadelta, Adamax, AdamW, Nadam  # noqa: E402


def get(identifier, **kwargs):
    """An optimizer from a name (any case: ``"adam"``, ``"Adam"``), a config dict
    ``{"class_name", "config"}``, or an optimizer (given back as it is); ``kwargs`` go to
    the constructor of a named one, as Keras.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.optimizers.get("rmsprop")
    <ek.keras.optimizers.RMSprop learning_rate=0.001>
    >>> ek.keras.optimizers.get({"class_name": "SGD", "config": {"learning_rate": 0.5}})
    <ek.keras.optimizers.SGD learning_rate=0.5>
    """
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, dict) and isinstance(identifier.get("class_name"), str):
        config = identifier.get("config", {})
        found = _BY_LOWER_NAME.get(identifier["class_name"].lower())
        if found is not None and isinstance(config, dict):
            return _made(
                identifier, lambda **merged: found.from_config(merged), {**config, **kwargs}
            )
    if isinstance(identifier, str) and identifier.lower() in _BY_LOWER_NAME:
        return _made(identifier, _BY_LOWER_NAME[identifier.lower()], kwargs)
    raise InvalidArgumentError(
        f"optimizers.get: Could not interpret optimizer identifier: {identifier!r:.100}; "
        f"pass one of {sorted(_BY_LOWER_NAME)}, an optimizer, or its config dict",
        op="optimizers.get",
    )


def _made(identifier, make, arguments):
    """``make(**arguments)``; a refused argument says it came through ``get``."""
    try:
        return make(**arguments)
    except (InvalidArgumentError, TypeError) as error:  # TypeError: an unknown keyword
        raise InvalidArgumentError(
            f"optimizers.get({identifier!r:.60}): {error}", op="optimizers.get"
        ) from None


def _repr(optimizer):
    name, rate = type(optimizer).__name__, optimizer.learning_rate
    return f"<ek.keras.optimizers.{name} learning_rate={rate}>"


_KERAS_OPTIMIZERS = (SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta, Adamax, Nadam)
_BY_LOWER_NAME = {cls.__name__.lower(): cls for cls in _KERAS_OPTIMIZERS}
for _keras_optimizer in _KERAS_OPTIMIZERS:
    _keras_optimizer.__repr__ = _repr  # the name users wrote, not ek.train's

__all__ = [
    "SGD",
    "Adadelta",
    "Adagrad",
    "Adam",
    "AdamW",
    "Adamax",
    "Nadam",
    "Optimizer",
    "RMSprop",
    "get",
    "schedules",
]
