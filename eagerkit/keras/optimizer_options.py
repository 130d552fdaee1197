"""What Keras' optimizers take beyond their update rule: gradient clipping (``clipnorm``,
``clipvalue``, ``global_clipnorm``), decoupled ``weight_decay``, ``minimize(loss, var_list,
tape=...)``, learning-rate schedules (``ek.keras.optimizers.schedules``), ``get_config`` /
``from_config`` and the ``variables`` property of Keras 2.11+. There is no ``lr`` alias:
Keras 2's is a variable that ``keras.backend.set_value`` writes, and eagerkit's learning
rate is what ``optimizer.learning_rate`` reads: the number given (set it with
``optimizer.learning_rate = value``, or use ``LearningRateScheduler``), or a schedule's value
at the steps taken so far (a schedule's rate cannot be set, as in Keras 3).

``KerasOptions`` is a mixin of every ``ek.keras.optimizers`` class: it clips the
gradients (as Keras does, before the rule sees them) and hands them to ``ek.train``'s
``apply_gradients``, which checks everything before it changes anything.

Examples
--------
>>> import eagerkit as ek
>>> w = ek.Variable([0.0, 0.0])
>>> opt = ek.keras.optimizers.SGD(learning_rate=1.0, clipnorm=1.0)
>>> opt.apply_gradients([(ek.constant([3.0, 4.0]), w)])  # the gradient's norm 5 is cut to 1
>>> w.numpy().tolist()
[-0.6000000238418579, -0.800000011920929]
"""

import inspect
from types import GeneratorType

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.serialization import deserialize_keras_object, serialize_keras_object
from eagerkit.ops import misc
from eagerkit.train.checks import checked_pairs, number
from eagerkit.train.optimizer import Optimizer, _check_hyper, _value

# What Keras 2.11+ writes into an optimizer's config that eagerkit has no use for: loading
# such a config drops them (the moving average of weights, XLA, the legacy flag).
KERAS_ONLY_SETTINGS = frozenset(
    "is_legacy_optimizer jit_compile use_ema ema_momentum ema_overwrite_frequency".split()
)


class CallableList(list):
    """A list that gives itself when called: Keras 2.11's ``optimizer.variables``."""

    def __call__(self):
        return self


class KerasOptions:
    """Keras' optimizer arguments and methods around ``ek.train``'s rules (a mixin)."""

    @property
    def learning_rate(self):
        """The rate the next step takes, as Keras 3 answers: a schedule's (or a function's)
        value at the steps taken so far, else the number given.

        Examples
        --------
        >>> import eagerkit as ek
        >>> decay = ek.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5)
        >>> round(ek.keras.optimizers.SGD(learning_rate=decay).learning_rate, 6)  # step 0
        0.1
        """
        rate = self._learning_rate
        return _value(rate) if callable(rate) else rate

    @learning_rate.setter
    def learning_rate(self, value):
        from eagerkit.keras.schedules import LearningRateSchedule

        if isinstance(value, LearningRateSchedule):
            # The rule reads the rate through a callable, at each step: the schedule's value
            # at the number of steps taken so far (0 at the first step), as Keras computes.
            self._schedule = value
            self._learning_rate = lambda: value(self.iterations)
        elif callable(value) or vars(self).get("_schedule") is None:
            self._schedule = None
            self._learning_rate = _check_hyper(value, "learning_rate", self)
        else:  # a number in place of a schedule: Keras 3's refusal
            raise TypeError(
                f"{type(self).__name__}: this optimizer was created with a "
                "LearningRateSchedule as its learning_rate, hence its learning rate is not "
                "settable; make a new optimizer with a number as learning_rate to set it"
            )

    def _set_options(self, clipnorm, clipvalue, global_clipnorm, weight_decay=None):
        """Check and keep the clipping arguments and ``weight_decay`` (``ek.train``'s
        ``__init__`` sets the learning rate, through the ``learning_rate`` setter)."""
        op = type(self).__name__
        self.weight_decay = (
            None if weight_decay is None else number(weight_decay, "weight_decay", op)
        )
        if clipnorm is not None and global_clipnorm is not None:
            raise InvalidArgumentError(
                f"{op}: give clipnorm (each gradient's norm) or global_clipnorm (the norm of "
                f"all of them together), not both; got clipnorm={clipnorm!r}, "
                f"global_clipnorm={global_clipnorm!r}",
                op=op,
            )
        self.clipnorm = None if clipnorm is None else number(clipnorm, "clipnorm", op)
        self.clipvalue = None if clipvalue is None else number(clipvalue, "clipvalue", op)
        self.global_clipnorm = (
            None if global_clipnorm is None else number(global_clipnorm, "global_clipnorm", op)
        )

    def _keep_hypers(self, **hypers):
        """Check each hyperparameter (a number >= 0, or a callable that gives one) and keep
        it under its Keras name: ``self._keep_hypers(rho=rho, epsilon=epsilon)``."""
        checked = {name: _check_hyper(value, name, self) for name, value in hypers.items()}
        for name, value in checked.items():
            setattr(self, name, value)

    def _decayed(self, value):
        """``value`` after Keras' decoupled weight decay, ``value - value * wd * lr`` (the
        current rate), taken before the rule's step, as Keras 2.11+ does. Each rule calls it
        on the value it updates, so the decay is part of the one update that is written."""
        if not self.weight_decay:
            return value
        rate = value.dtype.type(_value(self.learning_rate))  # in the variable's dtype, as Keras
        return value - value * value.dtype.type(self.weight_decay) * rate

    @property
    def variables(self):
        """The step counter, then every slot made so far: a list that can also be called,
        so Keras 2.11's ``optimizer.variables`` and the older ``optimizer.variables()`` both
        work."""
        return CallableList(Optimizer.variables(self))

    def get_config(self):
        """The constructor's arguments, as Keras saves an optimizer (a schedule as its
        config); ``from_config`` makes the same optimizer again, without its slots."""
        config = {}
        for name in list(inspect.signature(type(self).__init__).parameters)[1:]:
            value = self._learning_rate if name == "learning_rate" else getattr(self, name)
            if name == "learning_rate" and vars(self).get("_schedule") is not None:
                value = serialize_keras_object(self._schedule)
            elif callable(value):
                raise InvalidArgumentError(
                    f"{type(self).__name__}.get_config: {name} is a function, which a config "
                    "cannot hold; pass a number (a learning-rate schedule for a varying rate)",
                    op=f"{type(self).__name__}.get_config",
                )
            config[name] = value
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """The optimizer ``get_config`` describes (Keras' own configs too: the settings
        eagerkit has no use for, such as ``jit_compile``, are dropped)."""
        if not isinstance(config, dict):
            raise InvalidArgumentError(
                f"{cls.__name__}.from_config: config must be the dict get_config() returns, "
                f"got {describe(config)}",
                op=f"{cls.__name__}.from_config",
            )
        config = {k: v for k, v in config.items() if k not in KERAS_ONLY_SETTINGS}
        rate = config.get("learning_rate")
        if isinstance(rate, dict):  # a schedule's {"class_name", "config"}
            from eagerkit.keras import schedules

            table = {name: getattr(schedules, name) for name in schedules.__all__}
            config["learning_rate"] = deserialize_keras_object(
                rate, table, custom_objects, "learning rate schedule"
            )
        return cls(**config)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Clip the gradients (when asked to), then update each variable from its gradient.

        No pairs at all (a model without trainable weights) is no step, as in Keras 2.11+;
        pairs whose gradients are all None are refused (nothing would train).
        """
        if isinstance(grads_and_vars, (zip, map, filter, GeneratorType, list, tuple)):
            grads_and_vars = list(grads_and_vars)  # read once, to see whether it is empty
            if not grads_and_vars:
                return
        pairs = checked_pairs(grads_and_vars)  # anything else: it says what it is
        grads = [grad for grad, _ in pairs]
        if self.clipnorm is not None:
            grads = [misc.clip_by_norm(g, self.clipnorm) for g in grads]
        if self.global_clipnorm is not None:
            grads, _ = misc.clip_by_global_norm(grads, self.global_clipnorm)
        if self.clipvalue is not None:
            grads = [misc.clip_by_value(g, -self.clipvalue, self.clipvalue) for g in grads]
        clipped = [(g, variable) for g, (_, variable) in zip(grads, pairs, strict=True)]
        return super().apply_gradients(clipped, global_step=global_step, name=name)

    def minimize(self, loss, var_list=None, global_step=None, name=None, tape=None):
        """Minimize ``loss``: a zero-argument callable, or (Keras' second form) a tensor
        computed inside ``tape``, whose gradients with respect to ``var_list`` are applied.

        >>> import eagerkit as ek
        >>> w = ek.Variable(3.0)
        >>> opt = ek.keras.optimizers.SGD(learning_rate=0.25)
        >>> with ek.GradientTape() as tape:
        ...     loss = w * w
        >>> float(opt.minimize(loss, [w], tape=tape)), float(w)
        (9.0, 1.5)
        """
        if tape is None:
            return super().minimize(loss, var_list, global_step=global_step, name=name)
        from eagerkit.tape import GradientTape

        op = f"{type(self).__name__}.minimize"
        if not isinstance(tape, GradientTape) or var_list is None:
            raise InvalidArgumentError(
                f"{op}: with a loss tensor, pass the GradientTape that recorded it and the "
                f"variables to train: minimize(loss, var_list, tape=tape); got tape="
                f"{type(tape).__name__}, var_list={'None' if var_list is None else '...'}",
                op=op,
            )
        variables = list(var_list() if callable(var_list) else var_list)
        grads = tape.gradient(loss, variables)
        self.apply_gradients(zip(grads, variables, strict=True), global_step=global_step)
        return loss
