"""What Keras' optimizers take beyond their update rule: gradient clipping (``clipnorm``,
``clipvalue``, ``global_clipnorm``), ``minimize(loss, var_list, tape=...)`` and learning-rate
schedules (``ek.keras.optimizers.schedules``). There is no ``lr`` alias: Keras 2's is a
variable that ``keras.backend.set_value`` writes, and eagerkit's learning rate is a number
(set it with ``optimizer.learning_rate = value``, or use ``LearningRateScheduler``).

``KerasOptions`` is a mixin of ``SGD``, ``Adam``, ``RMSprop`` and ``Adagrad``: it clips the
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

from types import GeneratorType

from eagerkit.errors import InvalidArgumentError
from eagerkit.ops import misc
from eagerkit.train.checks import checked_pairs, number


class KerasOptions:
    """Keras' optimizer arguments and methods around ``ek.train``'s rules (a mixin)."""

    def _set_options(self, learning_rate, clipnorm, clipvalue, global_clipnorm):
        """Check and keep the clipping arguments; a schedule becomes the learning rate."""
        op = type(self).__name__
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
        from eagerkit.keras.schedules import LearningRateSchedule

        if isinstance(learning_rate, LearningRateSchedule):
            # The rule reads the rate through a callable, at each step: the schedule's value
            # at the number of steps taken so far (0 at the first step), as Keras computes.
            self._schedule = learning_rate
            return lambda: learning_rate(self.iterations)
        return learning_rate

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
