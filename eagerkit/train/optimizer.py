"""Optimizer: the shared machinery (apply_gradients, minimize, slots); subclasses give the rule.

A subclass names its slots in ``slot_names`` (with ``slot_initial_values`` for those that do
not start at zero) and implements ``_update(xp, value, g, slots, step)``: it gets raw arrays
(the variable's value, its gradient, its slots by name) and the step number, computes through
the variable's namespace ``xp``, and returns ``(new_value, new_slots)``. The base class
computes every update (each projected by its variable's ``constraint``, projection.py)
before it changes anything, so a failing step leaves all variables and slots as they were.
Slots are Variables (created on first use) and the step counter is an int64 Variable, so a
checkpoint saves the whole optimizer state.
"""

from eagerkit import dtypes, recording
from eagerkit.arguments import describe
from eagerkit.backends.fusion import elementwise
from eagerkit.devices import CPU, device
from eagerkit.errors import FailedPreconditionError, InvalidArgumentError
from eagerkit.tensor import Tensor
from eagerkit.train.checks import check_global_step, checked_pairs, number
from eagerkit.train.projection import projected
from eagerkit.variables import Variable


class Optimizer:
    """Base class. ``apply_gradients(grads_and_vars)`` applies one update to each variable.

    Examples
    --------
    A new rule needs only its slots and ``_update``; here, sign descent with a step counter:

    >>> import eagerkit as ek
    >>> class SignDescent(ek.train.Optimizer):
    ...     slot_names = ("steps",)
    ...     def _update(self, xp, value, g, slots, step):
    ...         return value - self.learning_rate * xp.sign(g), {"steps": slots["steps"] + 1}
    >>> w = ek.Variable([1.0, 1.0])
    >>> opt = SignDescent(0.25)
    >>> opt.apply_gradients([(ek.constant([3.0, -0.1]), w)])
    >>> w.numpy().tolist(), opt.get_slot(w, "steps").numpy().tolist()
    ([0.75, 1.25], [1.0, 1.0])
    """

    slot_names = ()  # e.g. ("m", "v") for Adam
    slot_initial_values = {}  # slot name -> fill value when it does not start at 0

    def __init__(self, learning_rate, name=None):
        self.learning_rate = _check_hyper(learning_rate, "learning_rate", self)
        self.name = name or type(self).__name__
        self._slots = {}  # variable.ref() -> {slot name: Variable}
        self._pending_slot_values = {}  # (variable.ref(), slot name) -> array, from restore()
        # The step counter exists from the start: made lazily, a checkpoint's walk (a read)
        # would create it, and a failed restore would leave a new variable behind.
        # On the host, whatever the device scope: reading it never waits for a GPU.
        with device(CPU):
            self._iterations = Variable(0, dtype=dtypes.int64, trainable=False, name="iter")
        self.listeners = []  # e.g. the GradientFlow widget: on_apply(optimizer, pairs)

    @property
    def iterations(self):
        """How many times ``apply_gradients`` has run (an int64 Variable, checkpointed)."""
        return self._iterations

    # --- the public API ---------------------------------------------------------------------
    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Update each variable from its gradient; ``None`` gradients are skipped.

        Everything is checked and every new value computed before anything is written, so a
        call that fails leaves the variables, the slots and both step counters as they were.
        Listeners (a widget) hear of the update after it is written; if one raises, the
        update is taken back before the error goes on. Raises ``InvalidArgumentError`` when
        every gradient is ``None`` (nothing would train).
        """
        usable = checked_pairs(grads_and_vars)
        check_global_step(global_step)
        if recording.graph_tracers:  # inside ek.function: recorded, to run at every call
            from eagerkit.graph.effects import traced_apply_gradients

            return traced_apply_gradients(recording.graph_tracers[-1], self, usable, global_step)
        for _, variable in usable:  # refuses where no graph can replay the write
            variable._check_writable("apply_gradients")
        step = 1 + int(self._iterations._data)
        updates = {}  # id(variable) -> (variable, new value, new slots)
        for grad, variable in usable:
            if id(variable) in updates:  # listed twice: apply both, one after the other (TF)
                _, value, slots = updates[id(variable)]
            else:
                value, slots = variable._data, self._slot_arrays(variable)
            value, new_slots = self._update(variable._device.xp, value, grad._data, slots, step)
            updates[id(variable)] = (variable, value, new_slots)
        written = {}  # id(variable) -> its new value: cast, then projected by its constraint
        for key, (variable, value, _) in updates.items():
            value = value.astype(variable._data.dtype, copy=False)
            written[key] = value if variable._constraint is None else projected(variable, value)
        # Only a listener can fail from here on: write the values, the slots, the counters.
        before = _Before(self, updates, global_step) if self.listeners else None
        for key, (variable, _, new_slots) in updates.items():
            variable._write(written[key], "apply_gradients")
            for slot_name, array in new_slots.items():
                slot = self.get_slot(variable, slot_name)
                slot._write(array.astype(slot._data.dtype, copy=False), "apply_gradients")
        self.iterations._write(self.iterations._data + 1, "apply_gradients")
        if global_step is not None:
            global_step._write(global_step._data + 1, "apply_gradients")
        if before is not None:
            try:
                for listener in self.listeners:
                    listener.on_apply(self, usable)
            except BaseException:
                before.put_back()  # a raising widget must not leave half a training step
                raise

    def minimize(self, loss, var_list=None, global_step=None, name=None):
        """Compute the gradients of ``loss()`` (a zero-argument callable) and apply them.

        ``var_list`` defaults to the trainable variables that ``loss()`` read. Returns the
        loss value.

        Examples
        --------
        >>> import eagerkit as ek
        >>> w = ek.Variable(3.0)
        >>> opt = ek.train.GradientDescentOptimizer(0.25)
        >>> float(opt.minimize(lambda: w * w))  # gradient 6, so w becomes 3 - 0.25 * 6
        9.0
        >>> float(w)
        1.5
        """
        from eagerkit.tape import GradientTape

        if not callable(loss):
            raise FailedPreconditionError(
                "loss passed to Optimizer.compute_gradients should be a function when eager "
                "execution is enabled: write optimizer.minimize(lambda: loss_fn(model, x, y))",
                op="minimize",
            )
        with GradientTape() as tape:
            value = loss()
        variables = list(var_list) if var_list is not None else list(tape.watched_variables())
        grads = tape.gradient(value, variables)
        self.apply_gradients(zip(grads, variables, strict=True), global_step=global_step)
        return value

    def variables(self):
        """The optimizer's own variables: the step counter, then every slot (momentum, m, v)."""
        slots = [slot for per_variable in self._slots.values() for slot in per_variable.values()]
        return [self.iterations, *slots]

    def get_slot_names(self):
        """The names of the slots this optimizer keeps per variable, e.g. ``['m', 'v']``."""
        return list(self.slot_names)

    def get_slot(self, variable, slot_name):
        """The slot ``slot_name`` of ``variable`` (a Variable like it, created on first use)."""
        if not isinstance(variable, Variable):
            raise InvalidArgumentError(
                f"get_slot: variable must be an ek.Variable (one this optimizer updates), got "
                f"{describe(variable)}",
                op="get_slot",
            )
        if slot_name not in self.slot_names:
            raise InvalidArgumentError(
                f"get_slot: {self.name} has no slot {describe(slot_name)}; its slots are "
                f"{list(self.slot_names)}: ask for one of those (get_slot_names() lists them)",
                op="get_slot",
            )
        per_variable = self._slots.setdefault(variable.ref(), {})
        slot = per_variable.get(slot_name)
        if slot is None:
            array = self._pending_slot_values.pop((variable.ref(), slot_name), None)
            if array is None:
                array = self._initial_slot(variable, slot_name)
            slot = Variable(
                Tensor(array, variable._device),
                trainable=False,
                name=f"{variable.name[:-2]}/{self.name}/{slot_name}",
            )
            per_variable[slot_name] = slot
        return slot

    # --- for subclasses and checkpoints -------------------------------------------------------
    def _update(self, xp, value, g, slots, step):
        raise NotImplementedError(
            f"{type(self).__name__} does not define an update rule; use a subclass such as "
            "ek.train.GradientDescentOptimizer, or define _update in your own"
        )

    def _slot_arrays(self, variable):
        """The current slot arrays of ``variable`` by name (initial values if not made yet)."""
        if not self.slot_names:  # plain gradient descent keeps none: skip the lookups
            return {}
        existing = self._slots.get(variable.ref(), {})
        arrays = {}
        for slot_name in self.slot_names:
            slot = existing.get(slot_name)
            pending = self._pending_slot_values.get((variable.ref(), slot_name))
            if slot is not None:
                arrays[slot_name] = slot._data
            elif pending is not None:
                arrays[slot_name] = pending
            else:
                arrays[slot_name] = self._initial_slot(variable, slot_name)
        return arrays

    def _initial_slot(self, variable, slot_name):
        xp = variable._device.xp
        fill = self.slot_initial_values.get(slot_name, 0.0)
        return xp.full_like(variable._data, fill)

    def _slot_items(self):
        """``(variable, slot name, slot Variable)`` for every slot made so far (checkpoints)."""
        for ref, per_variable in self._slots.items():
            for slot_name, slot in per_variable.items():
                yield ref.deref(), slot_name, slot

    def _checkpoint_dependencies(self):
        """What a checkpoint saves under this optimizer's path (slots are saved separately)."""
        return [("iter", self.iterations)]

    def _defer_slot_value(self, variable, slot_name, array):
        """Use ``array`` for this slot: now if it exists, else when it is first made."""
        slot = self._slots.get(variable.ref(), {}).get(slot_name)
        if slot is not None:
            slot._write(array, "restore")
        else:
            self._pending_slot_values[(variable.ref(), slot_name)] = array

    def _forget_pending_slot(self, variable, slot_name):
        """Drop a slot value waiting for ``variable`` (whose creation is being taken back)."""
        self._pending_slot_values.pop((variable.ref(), slot_name), None)

    def __repr__(self):
        return f"<ek.train.{type(self).__name__} learning_rate={self.learning_rate}>"


class _Before:
    """What ``apply_gradients`` is about to change, kept to put back if a listener raises.

    Writes replace arrays (they never write into them), so keeping the old arrays is enough.
    """

    def __init__(self, optimizer, updates, global_step):
        self.optimizer = optimizer
        self.values = [(v, v._data) for v, _, _ in updates.values()]
        self.slots = {ref: dict(per) for ref, per in optimizer._slots.items()}
        self.slot_values = [(s, s._data) for per in self.slots.values() for s in per.values()]
        self.pending = dict(optimizer._pending_slot_values)
        self.iterations = optimizer._iterations, optimizer._iterations._data
        self.global_step = global_step, None if global_step is None else global_step._data

    def put_back(self):
        for variable, array in (*self.values, *self.slot_values, self.iterations, self.global_step):
            if variable is not None:
                variable._write(array, "apply_gradients")
        self.optimizer._slots = self.slots  # forget the slots this step made
        self.optimizer._pending_slot_values = self.pending


def _check_hyper(value, what, optimizer):
    """A hyperparameter must be a real number >= 0 (or a zero-argument callable giving one)."""
    if callable(value):
        return value
    return number(value, what, type(optimizer).__name__)


def _value(hyper):
    """The current value of a hyperparameter (callables are called each step, like TF's)."""
    return (
        number(hyper(), "a hyperparameter's callable", "apply_gradients")
        if callable(hyper)
        else hyper
    )


class GradientDescentOptimizer(Optimizer):
    """Plain gradient descent: ``variable -= learning_rate * gradient``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> w = ek.Variable(1.0)
    >>> ek.train.GradientDescentOptimizer(0.1).apply_gradients([(ek.constant(2.0), w)])
    >>> round(float(w), 6)
    0.8
    """

    def _update(self, xp, value, g, slots, step):
        rate = value.dtype.type(_value(self.learning_rate))  # as numpy rounds a Python float
        return xp.kernels.gradient_descent(value, g, rate), {}


def _gradient_descent_on_host(xp, value, g, rate):
    new_value = g * -rate  # a fresh array: ours to add into
    new_value += value  # value - rate * g, bit for bit, with one temporary fewer
    return new_value


_GRADIENT_DESCENT_CUDA = ("T value, T g, T rate", "T new_value", "new_value = value - rate * g")


@elementwise("gradient_descent", host=_gradient_descent_on_host, cuda=_GRADIENT_DESCENT_CUDA)
def _gradient_descent(xp, value, g, rate):
    """One step of gradient descent: one kernel on a GPU (backends/fusion.py)."""
    return value - rate * g
