"""``ReduceLROnPlateau`` (lower the learning rate when a value stops improving) and
``CSVLogger`` (each epoch's logs as a row of a CSV file), as Keras 3 does them.

Examples
--------
>>> import eagerkit as ek
>>> reduce = ek.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1)
>>> model = ek.keras.Sequential([ek.keras.layers.Dense(1)])
>>> model.compile(optimizer=ek.keras.optimizers.SGD(0.1), loss="mse")
>>> reduce.set_model(model); reduce.on_train_begin()
>>> for epoch, loss in enumerate([0.9, 0.5, 0.5, 0.5]):  # what fit would pass
...     reduce.on_epoch_end(epoch, {"loss": loss})
>>> model.optimizer.learning_rate
0.025
"""

import collections
import csv
import numbers
import operator
import os
import warnings

import numpy as np

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.callback_base import Callback
from eagerkit.keras.early_stopping import improvement_rule


def _non_negative(value, what, caller, example):
    """``value`` as a float >= 0, or an error that names the argument and an example."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and value >= 0:
        return float(value)
    raise InvalidArgumentError(
        f"{caller}: {what} must be a number >= 0, got {describe(value)}; pass e.g. {example}",
        op=caller,
    )


def _rate_of(optimizer):
    """The optimizer's learning rate as a float; a schedule's cannot be set by a callback."""
    if vars(optimizer).get("_schedule") is not None:
        raise TypeError(
            "ReduceLROnPlateau: this optimizer was created with a LearningRateSchedule as its "
            "learning_rate, hence its learning rate is not settable; pass a number as "
            "learning_rate to the optimizer to let the callback lower it"
        )
    return float(optimizer.learning_rate)  # a function's rate: its value now


class ReduceLROnPlateau(Callback):
    """Multiply the learning rate by ``factor`` when ``monitor`` has not improved by
    ``min_delta`` for ``patience`` epochs, then wait ``cooldown`` epochs; never below
    ``min_lr``. Each epoch's logs gain ``'learning_rate'`` (the rate that epoch used).

    Parameters
    ----------
    monitor : str
        The logged value to watch (``"val_loss"``, ``"loss"``, ``"val_accuracy"`` ...).
    factor : float
        ``new_lr = lr * factor``, a number in [0, 1).
    patience : int
        Epochs without improvement before the rate is lowered.
    verbose : int
        1 prints a line each time the rate is lowered.
    mode : {"auto", "min", "max"}
        Whether lower or higher is better; ``"auto"`` decides from the name.
    min_delta : float
        The least change that counts as an improvement.
    cooldown : int
        Epochs after a reduction during which no waiting is counted.
    min_lr : float
        The lowest rate the callback sets.

    Examples
    --------
    >>> import eagerkit as ek, numpy as np
    >>> model = ek.keras.Sequential([ek.keras.layers.Dense(1, use_bias=False)])
    >>> model.compile(optimizer=ek.keras.optimizers.SGD(0.1), loss="mse")
    >>> history = model.fit(np.zeros((4, 1)), np.ones((4, 1)), epochs=4, verbose=0,
    ...     callbacks=[ek.keras.callbacks.ReduceLROnPlateau("loss", factor=0.5, patience=1)])
    >>> history.history["learning_rate"]  # the loss never falls: halved after each epoch
    [0.1, 0.1, 0.05, 0.025]
    """

    def __init__(
        self,
        monitor="val_loss",
        factor=0.1,
        patience=10,
        verbose=0,
        mode="auto",
        min_delta=1e-4,
        cooldown=0,
        min_lr=0.0,
    ):
        super().__init__()
        caller = "ReduceLROnPlateau"
        factor = _non_negative(factor, "factor", caller, "factor=0.1 (new_lr = lr * factor)")
        if factor >= 1.0:
            raise ValueError(
                f"ReduceLROnPlateau does not support a factor >= 1.0. Received factor={factor}; "
                "pass a factor below 1, e.g. factor=0.1 (new_lr = lr * factor)"
            )
        self.monitor = monitor
        self.monitor_op = improvement_rule(monitor, mode, caller)
        if isinstance(min_delta, numbers.Real):
            min_delta = abs(min_delta)  # Keras takes its size; the mode gives the sign
        min_delta = _non_negative(min_delta, "min_delta", caller, "min_delta=1e-4")
        # Keras' sign: a lower value must fall below best - min_delta to count.
        self.min_delta = min_delta if self.monitor_op is operator.gt else -min_delta
        self.factor, self.verbose, self.mode = factor, verbose, mode
        self.min_lr = _non_negative(min_lr, "min_lr", caller, "min_lr=1e-6")
        self.patience = int(_non_negative(patience, "patience", caller, "patience=10"))
        self.cooldown = int(_non_negative(cooldown, "cooldown", caller, "cooldown=0"))
        self._reset()

    def _reset(self):
        self.best, self.wait, self.cooldown_counter = None, 0, 0

    def in_cooldown(self):
        """True while the epochs after a reduction are not counted."""
        return self.cooldown_counter > 0

    def on_train_begin(self, logs=None):
        self._reset()

    def on_epoch_end(self, epoch, logs=None):
        logs = {} if logs is None else logs
        optimizer = self.model.optimizer
        logs["learning_rate"] = _rate_of(optimizer)
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(
                f"Learning rate reduction is conditioned on metric `{self.monitor}` which is "
                f"not available. Available metrics are: {','.join(logs)}.",
                stacklevel=2,
            )
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.best is None or self.monitor_op(current - self.min_delta, self.best):
            self.best, self.wait = current, 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience and self._reduce(optimizer, epoch):
                self.cooldown_counter, self.wait = self.cooldown, 0

    def _reduce(self, optimizer, epoch):
        """Lower the rate (not below ``min_lr``); False when it is already there."""
        old = _rate_of(optimizer)
        if not old > np.float32(self.min_lr):  # Keras compares in float32
            return False
        new = max(old * self.factor, self.min_lr)
        optimizer.learning_rate = new
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to {new}.")
        return True


class CSVLogger(Callback):
    """Write each epoch's logs to a CSV file: a header ``epoch,<sorted log names>``, then a
    row per epoch (Keras 3's columns: without validation, ``val_<name>`` columns are added
    and hold ``NA``).

    Parameters
    ----------
    filename : str or os.PathLike
        The CSV file; its folder must exist.
    separator : str
        One character between the fields.
    append : bool
        True adds to an existing file (no second header); False overwrites it.

    Examples
    --------
    >>> import eagerkit as ek, numpy as np, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "log.csv")
    >>> model = ek.keras.Sequential([ek.keras.layers.Dense(1, kernel_initializer="ones")])
    >>> model.compile(optimizer=ek.keras.optimizers.SGD(0.0), loss="mse")
    >>> _ = model.fit(np.ones((2, 1)), np.zeros((2, 1)), epochs=2, verbose=0,
    ...     callbacks=[ek.keras.callbacks.CSVLogger(path)])
    >>> print(open(path).read().strip())
    epoch,loss,val_loss
    0,1.0,NA
    1,1.0,NA
    """

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        if not isinstance(filename, (str, os.PathLike)):
            raise InvalidArgumentError(
                f"CSVLogger: filename must be a path (str), got {describe(filename)}; pass e.g. "
                "CSVLogger('training.csv')",
                op="CSVLogger",
            )
        if not isinstance(separator, str) or len(separator) != 1:
            raise InvalidArgumentError(
                f"CSVLogger: separator must be one character, got {separator!r}; pass e.g. "
                "separator=',' or separator='\\t'",
                op="CSVLogger",
            )
        self.filename, self.sep, self.append = os.fspath(filename), separator, bool(append)
        self.keys = self.writer = self.csv_file = None
        self.append_header = True

    def on_train_begin(self, logs=None):
        folder = os.path.dirname(os.path.abspath(self.filename))
        if not os.path.isdir(folder):
            raise FileNotFoundError(
                f"CSVLogger: the folder of {self.filename!r} does not exist; make it first "
                f"(os.makedirs({folder!r}, exist_ok=True))"
            )
        if self.append and os.path.exists(self.filename):
            with open(self.filename) as existing:  # an empty file still needs its header
                self.append_header = not existing.readline()
        self._close()
        self.csv_file = open(self.filename, "a" if self.append else "w", newline="")
        self.keys = self.writer = None

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self.keys is None:
            self.keys = sorted(logs)
            if self.keys and not any(key.startswith("val_") for key in self.keys):
                self.keys += [f"val_{key}" for key in self.keys]  # Keras 3's NA columns
        if self.writer is None:
            dialect = type("Dialect", (csv.excel,), {"delimiter": self.sep})
            self.writer = csv.DictWriter(
                self.csv_file, fieldnames=["epoch", *self.keys], dialect=dialect
            )
            if self.append_header:
                self.writer.writeheader()
        row = collections.OrderedDict(epoch=epoch)
        row.update((key, _cell(logs.get(key, "NA"))) for key in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()  # readable while training goes on

    def on_train_end(self, logs=None):
        self._close()
        self.writer = None

    def _close(self):
        if self.csv_file is not None and not self.csv_file.closed:
            self.csv_file.close()


def _cell(value):
    """A log value as Keras writes it: a list as ``"[a, b]"``, anything else as it is."""
    if isinstance(value, str) or (isinstance(value, np.ndarray) and value.ndim == 0):
        return value
    if isinstance(value, collections.abc.Iterable):
        return f'"[{", ".join(map(str, value))}]"'
    return value
