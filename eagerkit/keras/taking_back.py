"""A failed ``fit`` (or ``evaluate``, ``train_on_batch``, ...) changes nothing.

Keras leaves a model half-trained when ``fit`` raises in its third epoch; eagerkit puts
back everything the call changed before the error goes on, so that a student can fix the
call and run the cell again from the same start:

- the attributes of the model and of every layer in it (a model the call built is
  unbuilt again; ``history`` and ``stop_training`` are as they were);
- the value of every variable: the weights, the optimizer's step counter and slots, the
  metrics' totals (a write replaces a variable's array, never writes into it, so keeping
  the arrays is enough);
- the optimizer's attributes (its slots, its learning rate, which a scheduler may have
  changed, and its listeners: a ``GradientFlow`` that ``fit`` attached is let go);
- what ``compile`` set up (metrics made on the first batch are forgotten).

- the random streams: fit's shuffles, dropout masks and initial weights are drawn again,
  the same, by the next call.

Files a callback wrote (``ModelCheckpoint``) stay: each is a complete save of an earlier
epoch.
Interrupting the kernel (``KeyboardInterrupt``) is not a failure: as in Keras, what trained
so far is kept.

Examples
--------
>>> import eagerkit as ek, numpy as np
>>> model = ek.keras.Sequential([ek.keras.layers.Dense(1, kernel_initializer="ones")])
>>> model.compile(optimizer="sgd", loss="mse")
>>> _ = model.fit(np.ones((4, 1)), np.ones((4, 1)), verbose=0)
>>> before = model.get_weights()
>>> class Fails(ek.keras.callbacks.Callback):
...     def on_epoch_end(self, epoch, logs=None):
...         raise ValueError("stop here")
>>> try:
...     model.fit(np.ones((4, 1)), np.zeros((4, 1)), epochs=3, verbose=0, callbacks=[Fails()])
... except ValueError as error:
...     print(error)
stop here
>>> all((a == b).all() for a, b in zip(before, model.get_weights()))
True
"""

import functools

from eagerkit import random
from eagerkit.errors import OpError
from eagerkit.keras.layers import first_call


def all_or_nothing(method):
    """``method`` of a model, made to put back what it changed when it raises."""

    @functools.wraps(method)
    def taking_back(model, *args, **kwargs):
        before = Before(model)
        interrupted = None
        try:
            with random.taking_back_draws():  # a failure takes back the draws too
                try:
                    return method(model, *args, **kwargs)
                except KeyboardInterrupt as interrupt:  # not a failure: keep it all
                    interrupted = interrupt
        except Exception as error:
            before.put_back()
            _name_the_call(error, method.__name__)
            raise
        raise interrupted

    return taking_back


def naming_the_call(function):
    """``function`` (a public call that changes nothing, like ``load_model``), its eagerkit
    errors shown by the boundary after the user's call, as ``all_or_nothing`` does."""

    @functools.wraps(function)
    def named(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except Exception as error:
            _name_the_call(error, function.__name__)
            raise

    return named


def _name_the_call(error, name):
    """Have the boundary put the user's call (``Sequential.fit(float32[8, 4], ...)``) in
    front of an eagerkit error raised inside it, as it does for an inner op's error (one
    with a ``detail``: boundary._from_an_inner_op)."""
    if isinstance(error, OpError) and not hasattr(error, "detail"):
        error.detail = error.message.removeprefix(f"{name}: ")
        if error.op == name:
            error.op = None


class Before:
    """What a training call may change, noted before it starts."""

    def __init__(self, model):
        self.layers = first_call.attributes_before(model)
        optimizer = getattr(model, "optimizer", None)
        self.optimizer = None if optimizer is None else (optimizer, _copied(vars(optimizer)))
        state = vars(model).get("_compiled")
        self.compiled = None if state is None else (state, dict(vars(state)))
        variables = list(model.variables)
        if optimizer is not None:
            variables += _optimizer_variables(optimizer)
        if state is not None:
            variables += [v for m in state.all_metrics() for v in getattr(m, "variables", [])]
        self.arrays = [(variable, variable._data) for variable in variables]

    def put_back(self):
        for variable, array in self.arrays:
            variable._put_back(array)  # the array it had (a write would be refused in a graph)
        first_call.restore(self.layers)
        if self.optimizer is not None:
            optimizer, attributes = self.optimizer
            vars(optimizer).clear()
            vars(optimizer).update(attributes)
        if self.compiled is not None:
            state, attributes = self.compiled
            vars(state).clear()
            vars(state).update(attributes)


def _copied(attributes):
    """An optimizer's attributes, with copies of the containers a step adds to."""
    copied = dict(attributes)
    for name in ("_slots", "_pending_slot_values"):
        if isinstance(copied.get(name), dict):
            copied[name] = {
                key: dict(value) if isinstance(value, dict) else value
                for key, value in copied[name].items()
            }
    if isinstance(copied.get("listeners"), list):
        copied["listeners"] = list(copied["listeners"])
    return copied


def _optimizer_variables(optimizer):
    """The step counter and the slots made so far (any optimizer: the attributes of
    ek.train.Optimizer, which Keras' optimizers extend)."""
    counter = vars(optimizer).get("_iterations")
    slots = [s for per in vars(optimizer).get("_slots", {}).values() for s in per.values()]
    return ([] if counter is None else [counter]) + slots
