"""``ek.keras.callbacks``: objects ``fit`` calls at each step of training, as in Keras.

``Callback`` is the base class (keras/callback_base.py says which hooks run when);
``History`` (added to every ``fit``, returned by it), ``ProgbarLogger`` (the progress bar,
added when ``verbose``), ``EarlyStopping``, ``ModelCheckpoint``, ``LambdaCallback``,
``LearningRateScheduler``, ``ReduceLROnPlateau``, ``CSVLogger`` (keras/plateau_callbacks.py),
``TerminateOnNaN`` and ``TensorBoard`` (the curves as ``ek.summary`` files,
keras/tensorboard.py) are Keras' built-ins.

Examples
--------
>>> import eagerkit as ek, numpy as np
>>> ek.random.set_seed(0)
>>> model = ek.keras.Sequential([ek.keras.layers.Dense(1)])
>>> model.compile(optimizer="sgd", loss="mse")
>>> seen = []
>>> history = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=3, verbose=0,
...     callbacks=[ek.keras.callbacks.LambdaCallback(
...         on_epoch_end=lambda epoch, logs: seen.append(epoch))])
>>> seen, history.epoch
([0, 1, 2], [0, 1, 2])
"""

import math

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.callback_base import HOOKS, Callback, CallbackList
from eagerkit.keras.early_stopping import EarlyStopping
from eagerkit.keras.model_checkpoint import ModelCheckpoint
from eagerkit.keras.plateau_callbacks import CSVLogger, ReduceLROnPlateau
from eagerkit.keras.progress import Progbar
from eagerkit.keras.tensorboard import TensorBoard

__all__ = [
    "Callback",
    "CallbackList",
    "CSVLogger",
    "EarlyStopping",
    "History",
    "LambdaCallback",
    "LearningRateScheduler",
    "ModelCheckpoint",
    "ProgbarLogger",
    "ReduceLROnPlateau",
    "TensorBoard",
    "TerminateOnNaN",
]


class History(Callback):
    """Records each epoch's logs: ``history.history["loss"]`` is the loss of every epoch.

    ``fit`` returns it, and keeps it as ``model.history``.
    """

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for name, value in (logs or {}).items():
            self.history.setdefault(name, []).append(value)
        self.model.history = self  # the latest state, even if training stops here

    def __repr__(self):
        return f"<ek.keras.callbacks.History epochs={len(self.epoch)} keys={list(self.history)}>"


class ProgbarLogger(Callback):
    """Prints Keras' progress bar: ``Epoch 1/5`` then a bar per epoch (see progress.py).

    ``fit``, ``evaluate`` and ``predict`` add one when ``verbose`` is 1 or 2.
    """

    def __init__(self, count_mode="steps", stateful_metrics=None):
        super().__init__()
        if count_mode != "steps":
            raise InvalidArgumentError(
                f"ProgbarLogger: count_mode={count_mode!r} is not supported; eagerkit counts "
                "steps (batches), so use count_mode='steps' (or leave it out)",
                op="ProgbarLogger",
            )
        self.stateful_metrics = set(stateful_metrics or ())
        self._in_fit = False
        self._bar = None

    def on_train_begin(self, logs=None):
        self._in_fit = True

    def on_train_end(self, logs=None):
        self._in_fit = False

    def on_epoch_begin(self, epoch, logs=None):
        if self.params.get("verbose") and self.params.get("epochs", 1) > 1:
            print(f"Epoch {epoch + 1}/{self.params['epochs']}", flush=True)
        self._start()

    def on_train_batch_end(self, batch, logs=None):
        self._bar.update(batch + 1, _shown(logs), finalize=False)

    def on_epoch_end(self, epoch, logs=None):
        self._bar.update(self._bar._seen_so_far, _shown(logs), finalize=True)

    def on_test_begin(self, logs=None):
        if not self._in_fit:
            self._start()

    def on_test_batch_end(self, batch, logs=None):
        if not self._in_fit:
            self._bar.update(batch + 1, _shown(logs), finalize=False)

    def on_test_end(self, logs=None):
        if not self._in_fit:
            self._bar.update(self._bar._seen_so_far, _shown(logs), finalize=True)

    def on_predict_begin(self, logs=None):
        self._start()

    def on_predict_batch_end(self, batch, logs=None):
        self._bar.update(batch + 1, finalize=False)

    def on_predict_end(self, logs=None):
        self._bar.update(self._bar._seen_so_far, finalize=True)

    def _start(self):
        # Every value fit logs is already a running mean: shown as given.
        self._bar = Progbar(
            self.params.get("steps"),
            verbose=self.params.get("verbose", 1),
            stateful_metrics=_Everything(),
        )


class _Everything:
    """A set that holds every name (all the logged metrics are stateful)."""

    def __contains__(self, name):
        return True


def _shown(logs):
    return {k: v for k, v in (logs or {}).items() if isinstance(v, (int, float))}


class LambdaCallback(Callback):
    """A callback from functions: ``LambdaCallback(on_epoch_end=lambda epoch, logs: ...)``.

    Any hook may be given by name (``on_train_batch_end=...``); ``on_batch_begin/end``
    are the training batches', as in Keras.
    """

    def __init__(
        self,
        on_epoch_begin=None,
        on_epoch_end=None,
        on_batch_begin=None,
        on_batch_end=None,
        on_train_begin=None,
        on_train_end=None,
        **kwargs,
    ):
        super().__init__()
        given = dict(
            on_epoch_begin=on_epoch_begin,
            on_epoch_end=on_epoch_end,
            on_batch_begin=on_batch_begin,
            on_batch_end=on_batch_end,
            on_train_begin=on_train_begin,
            on_train_end=on_train_end,
            **kwargs,
        )
        for hook, function in given.items():
            if hook not in HOOKS:
                raise InvalidArgumentError(
                    f"LambdaCallback: unknown hook {hook!r}; the hooks are {', '.join(HOOKS)}",
                    op="LambdaCallback",
                )
            if function is not None and not callable(function):
                raise InvalidArgumentError(
                    f"LambdaCallback: {hook} must be a function, got {function!r:.80}",
                    op="LambdaCallback",
                )
            if function is not None:
                setattr(self, hook, function)  # the instance's own: called with the hook's args


class TerminateOnNaN(Callback):
    """Stops training as soon as a batch's loss is NaN or infinite."""

    def on_train_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and not math.isfinite(loss):
            print(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True


class LearningRateScheduler(Callback):
    """Sets the optimizer's learning rate at each epoch's start to ``schedule(epoch, lr)``."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        if not callable(schedule):
            raise InvalidArgumentError(
                f"LearningRateScheduler: schedule must be a function (epoch, lr) -> lr, got "
                f"{schedule!r:.80}",
                op="LearningRateScheduler",
            )
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch, logs=None):
        optimizer = self.model.optimizer
        rate = self.schedule(epoch, float(optimizer.learning_rate))
        if not isinstance(rate, (int, float)) or isinstance(rate, bool) or not rate >= 0:
            raise InvalidArgumentError(
                f'The output of the "schedule" function should be a float >= 0, got {rate!r}',
                op="LearningRateScheduler",
            )
        optimizer.learning_rate = float(rate)
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {rate}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:  # a dict (hook_arguments.py checked)
            logs["lr"] = float(self.model.optimizer.learning_rate)
