"""``EarlyStopping``: stop ``fit`` when a monitored value stops improving (Keras 2.13's rules).

Examples
--------
>>> import eagerkit as ek
>>> stop = ek.keras.callbacks.EarlyStopping(monitor="loss", patience=1)
>>> class Plateau:  # what fit would do: call on_epoch_end with each epoch's logs
...     stop_training = False
...     def get_weights(self): return []
>>> stop.set_model(Plateau()); stop.on_train_begin()
>>> for epoch, loss in enumerate([0.9, 0.5, 0.5, 0.6]):
...     stop.on_epoch_end(epoch, {"loss": loss})
...     if stop.model.stop_training:
...         break
>>> epoch, stop.best
(2, 0.5)
"""

import math
import numbers
import operator
import warnings

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.callback_base import Callback


def improvement_rule(monitor, mode, caller):
    """``operator.lt`` (lower is better) or ``gt``; ``"auto"`` decides from the name."""
    if mode not in ("auto", "min", "max"):
        raise InvalidArgumentError(
            f"{caller}: mode must be 'auto', 'min' or 'max', got {mode!r}", op=caller
        )
    if mode == "auto":
        higher = monitor.endswith(("acc", "accuracy", "auc"))
        return operator.gt if higher else operator.lt
    return operator.gt if mode == "max" else operator.lt


def _number(value, what):
    """``value`` as a float: a number (a NaN is no threshold either)."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and not math.isnan(value):
        return float(value)
    raise InvalidArgumentError(
        f"EarlyStopping: {what} must be a number, got {describe(value)}; pass e.g. "
        f"{what}=0.001 (the least change that counts as an improvement)",
        op="EarlyStopping",
    )


def missing(caller, monitor, logs):
    """Keras' warning when the monitored value is not in the logs."""
    warnings.warn(
        f"{caller} conditioned on metric `{monitor}` which is not available. Available "
        f"metrics are: {','.join(logs or {})}",
        stacklevel=3,
    )


class EarlyStopping(Callback):
    """Stop training when ``monitor`` has not improved by ``min_delta`` for ``patience``
    epochs; ``restore_best_weights`` puts back the weights of the best epoch."""

    def __init__(
        self,
        monitor="val_loss",
        min_delta=0,
        patience=0,
        verbose=0,
        mode="auto",
        baseline=None,
        restore_best_weights=False,
        start_from_epoch=0,
    ):
        super().__init__()
        self.monitor = monitor
        self.monitor_op = improvement_rule(monitor, mode, "EarlyStopping")
        min_delta = _number(min_delta, "min_delta")
        self.min_delta = abs(min_delta) if self.monitor_op is operator.gt else -abs(min_delta)
        self.patience, self.verbose, self.baseline = patience, verbose, baseline
        self.restore_best_weights = restore_best_weights
        self.start_from_epoch = start_from_epoch
        self.wait = self.stopped_epoch = self.best_epoch = 0
        self.best, self.best_weights = None, None

    def on_train_begin(self, logs=None):
        self.wait = self.stopped_epoch = self.best_epoch = 0
        self.best = math.inf if self.monitor_op is operator.lt else -math.inf
        self.best_weights = None

    def on_epoch_end(self, epoch, logs=None):
        current = (logs or {}).get(self.monitor)
        if current is None or epoch < self.start_from_epoch:
            if current is None:
                missing("Early stopping", self.monitor, logs)
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()  # the first epoch's, at least
        self.wait += 1
        if self._improves(current, self.best):
            self.best, self.best_epoch = current, epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._improves(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True
            if self.restore_best_weights and self.best_weights is not None:
                if self.verbose > 0:
                    print(
                        "Restoring model weights from the end of the best epoch: "
                        f"{self.best_epoch + 1}."
                    )
                self.model.set_weights(self.best_weights)

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")

    def _improves(self, value, reference):
        return self.monitor_op(value - self.min_delta, reference)
