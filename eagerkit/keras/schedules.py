"""``ek.keras.optimizers.schedules``: learning rates that change with the step, as Keras'.

A schedule is called with the number of steps taken so far and gives that step's rate (a
float32 scalar); called with an array of steps, it gives one rate per step, as Keras' ops do
(the tutorials plot a schedule that way). Pass one as an optimizer's ``learning_rate``: at
each step the optimizer asks it, with ``optimizer.iterations`` (0 at the first step), as
Keras does. The rates are float32, as TF's are.

Examples
--------
>>> import eagerkit as ek
>>> decay = ek.keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
>>> [round(float(decay(step)), 4) for step in (0, 10, 20)]
[0.1, 0.05, 0.025]
>>> opt = ek.keras.optimizers.SGD(learning_rate=decay)
"""

import numpy as np

from eagerkit.arguments import describe, positive
from eagerkit.dtypes import float32
from eagerkit.errors import InvalidArgumentError, UnimplementedError
from eagerkit.tensor import convert_to_tensor
from eagerkit.train.checks import number


class LearningRateSchedule:
    """Base class: a subclass gives ``__call__(step)`` and ``get_config()``."""

    def __call__(self, step):
        raise UnimplementedError(
            f"{type(self).__name__} does not say its rate: a schedule subclass must define "
            "__call__(step), or use one of ExponentialDecay, PiecewiseConstantDecay, ...",
            op=f"{type(self).__name__}.__call__",
        )

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        settings = ", ".join(f"{k}={v!r}" for k, v in self.get_config().items())
        return f"{type(self).__name__}({settings})"


def _step(step, op):
    """The step number (an int, a Variable, or an array of them) as float64 numbers."""
    value = convert_to_tensor(step)
    if not (value.dtype.is_integer or value.dtype.is_floating):
        raise InvalidArgumentError(
            f"{op}: step must be a number of steps (or an array of them), got "
            f"{describe(step)}; the optimizer passes its iterations",
            op=op,
        )
    return np.asarray(value.numpy(), dtype=np.float64)


def _rate(value):
    """A rate as TF gives it: a float32 scalar."""
    return convert_to_tensor(value, dtype=float32)


class ExponentialDecay(LearningRateSchedule):
    """``initial_learning_rate * decay_rate ** (step / decay_steps)`` (the exponent's
    fraction floored when ``staircase``)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name=None):
        op = type(self).__name__
        self.initial_learning_rate = number(initial_learning_rate, "initial_learning_rate", op)
        self.decay_steps = positive(decay_steps, "decay_steps", op)
        self.decay_rate = number(decay_rate, "decay_rate", op)
        self.staircase = bool(staircase)
        self.name = name

    def __call__(self, step):
        power = _step(step, type(self).__name__) / self.decay_steps
        if self.staircase:
            power = np.floor(power)
        return _rate(self.initial_learning_rate * self.decay_rate**power)

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "decay_steps": self.decay_steps,
            "decay_rate": self.decay_rate,
            "staircase": self.staircase,
            "name": self.name,
        }


class InverseTimeDecay(ExponentialDecay):
    """``initial_learning_rate / (1 + decay_rate * step / decay_steps)`` (the fraction
    floored when ``staircase``): the tutorials' "overfit and underfit" schedule.

    >>> import eagerkit as ek
    >>> decay = ek.keras.optimizers.schedules.InverseTimeDecay(0.5, 1, 0.5)
    >>> [round(float(decay(step)), 4) for step in (0, 1, 2)]
    [0.5, 0.3333, 0.25]
    """

    def __call__(self, step):
        fraction = _step(step, type(self).__name__) / self.decay_steps
        if self.staircase:
            fraction = np.floor(fraction)
        return _rate(self.initial_learning_rate / (1 + self.decay_rate * fraction))


class PiecewiseConstantDecay(LearningRateSchedule):
    """``values[0]`` up to ``boundaries[0]`` (included), ``values[1]`` up to
    ``boundaries[1]``, ..., ``values[-1]`` after the last boundary.

    >>> import eagerkit as ek
    >>> steps = ek.keras.optimizers.schedules.PiecewiseConstantDecay([10, 20], [1.0, 0.5, 0.1])
    >>> [float(steps(s)) for s in (0, 10, 11, 20, 21)]
    [1.0, 1.0, 0.5, 0.5, 0.10000000149011612]
    """

    def __init__(self, boundaries, values, name=None):
        op = type(self).__name__
        if len(list(values)) != len(list(boundaries)) + 1:
            raise InvalidArgumentError(
                f"{op}: values must have one more entry than boundaries (a rate before, "
                f"between and after them), got {len(list(values))} values for "
                f"{len(list(boundaries))} boundaries",
                op=op,
            )
        self.boundaries = [number(b, "each boundary", op) for b in boundaries]
        self.values = [number(v, "each value", op) for v in values]
        self.name = name

    def __call__(self, step):
        at = _step(step, type(self).__name__)
        passed = sum((at > boundary).astype(np.intp) for boundary in self.boundaries)
        return _rate(np.asarray(self.values)[passed])

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class PolynomialDecay(LearningRateSchedule):
    """From ``initial_learning_rate`` to ``end_learning_rate`` over ``decay_steps``, along
    ``(1 - step / decay_steps) ** power``; then ``end_learning_rate`` (or, with ``cycle``,
    again from the start over the next multiple of ``decay_steps``)."""

    def __init__(
        self,
        initial_learning_rate,
        decay_steps,
        end_learning_rate=0.0001,
        power=1.0,
        cycle=False,
        name=None,
    ):
        op = type(self).__name__
        self.initial_learning_rate = number(initial_learning_rate, "initial_learning_rate", op)
        self.decay_steps = positive(decay_steps, "decay_steps", op)
        self.end_learning_rate = number(end_learning_rate, "end_learning_rate", op)
        self.power = number(power, "power", op)
        self.cycle = bool(cycle)
        self.name = name

    def __call__(self, step):
        at = _step(step, type(self).__name__)
        steps = self.decay_steps
        if self.cycle:  # the span grows to the next multiple of decay_steps (1 at step 0)
            steps = steps * np.maximum(1, np.ceil(at / steps))
        else:
            at = np.minimum(at, steps)
        start, end = self.initial_learning_rate, self.end_learning_rate
        return _rate((start - end) * (1 - at / steps) ** self.power + end)

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "decay_steps": self.decay_steps,
            "end_learning_rate": self.end_learning_rate,
            "power": self.power,
            "cycle": self.cycle,
            "name": self.name,
        }


class CosineDecay(LearningRateSchedule):
    """Half a cosine from ``initial_learning_rate`` down to ``alpha`` times it over
    ``decay_steps``, then flat.

    >>> import eagerkit as ek
    >>> cosine = ek.keras.optimizers.schedules.CosineDecay(1.0, decay_steps=4)
    >>> [round(float(cosine(s)), 4) for s in (0, 2, 4, 8)]
    [1.0, 0.5, 0.0, 0.0]
    """

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name=None):
        op = type(self).__name__
        self.initial_learning_rate = number(initial_learning_rate, "initial_learning_rate", op)
        self.decay_steps = positive(decay_steps, "decay_steps", op)
        self.alpha = number(alpha, "alpha", op)
        self.name = name

    def __call__(self, step):
        fraction = np.minimum(_step(step, type(self).__name__), self.decay_steps) / self.decay_steps
        cosine = 0.5 * (1 + np.cos(np.pi * fraction))
        decayed = (1 - self.alpha) * cosine + self.alpha
        return _rate(self.initial_learning_rate * decayed)

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "decay_steps": self.decay_steps,
            "alpha": self.alpha,
            "name": self.name,
        }


class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay with warm restarts (SGDR): a half cosine from ``initial_learning_rate``
    down to ``alpha`` times it over ``first_decay_steps``, then again from the top, each
    period ``t_mul`` times longer and each peak ``m_mul`` times lower (Keras 3's formula).

    >>> import eagerkit as ek
    >>> sgdr = ek.keras.optimizers.schedules.CosineDecayRestarts(1.0, 2, t_mul=1.0)
    >>> [round(float(sgdr(s)), 4) for s in (0, 1, 2, 3)]  # restarts every 2 steps
    [1.0, 0.5, 1.0, 0.5]
    """

    def __init__(
        self,
        initial_learning_rate,
        first_decay_steps,
        t_mul=2.0,
        m_mul=1.0,
        alpha=0.0,
        name="SGDRDecay",
    ):
        op = type(self).__name__
        self.initial_learning_rate = number(initial_learning_rate, "initial_learning_rate", op)
        self.first_decay_steps = positive(first_decay_steps, "first_decay_steps", op)
        self.t_mul, self.m_mul = number(t_mul, "t_mul", op), number(m_mul, "m_mul", op)
        if self.t_mul == 0:
            raise InvalidArgumentError(
                f"{op}: t_mul must be > 0 (each period is t_mul times the last), got 0", op=op
            )
        self.alpha, self.name = number(alpha, "alpha", op), name

    def __call__(self, step):
        fraction = _step(step, type(self).__name__) / self.first_decay_steps
        if self.t_mul == 1.0:  # periods of one length: the restart is the whole part
            restart = np.floor(fraction)
            fraction = fraction - restart
        else:  # periods growing geometrically: which one, then how far into it
            restart = np.floor(np.log(1.0 - fraction * (1.0 - self.t_mul)) / np.log(self.t_mul))
            done = (1.0 - self.t_mul**restart) / (1.0 - self.t_mul)
            fraction = (fraction - done) / self.t_mul**restart
        cosine = 0.5 * self.m_mul**restart * (1.0 + np.cos(np.pi * fraction))
        return _rate(self.initial_learning_rate * ((1 - self.alpha) * cosine + self.alpha))

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "first_decay_steps": self.first_decay_steps,
            "t_mul": self.t_mul,
            "m_mul": self.m_mul,
            "alpha": self.alpha,
            "name": self.name,
        }


__all__ = [
    "CosineDecay",
    "CosineDecayRestarts",
    "ExponentialDecay",
    "InverseTimeDecay",
    "LearningRateSchedule",
    "PiecewiseConstantDecay",
    "PolynomialDecay",
]
