"""``ModelCheckpoint``: save the model (or its weights) during ``fit``, as Keras does.

``filepath`` may name the epoch and any logged value: ``"ckpt-{epoch:02d}-{val_loss:.2f}"``.
It saves at the end of every epoch, or every ``save_freq`` batches; with
``save_best_only`` only when ``monitor`` improved. Saving is ``model.save`` /
``model.save_weights``: a save cut short leaves the previous file whole.

Examples
--------
>>> import eagerkit as ek, numpy as np, os, tempfile
>>> folder = tempfile.mkdtemp()
>>> model = ek.keras.Sequential([ek.keras.layers.Dense(1)])
>>> model.compile(optimizer="sgd", loss="mse")
>>> save = ek.keras.callbacks.ModelCheckpoint(os.path.join(folder, "weights-{epoch}"),
...                                            save_weights_only=True)
>>> _ = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0, callbacks=[save])
>>> sorted(os.listdir(folder))
['weights-1.index.json', 'weights-1.npz', 'weights-2.index.json', 'weights-2.npz']
"""

import math
import operator
import os

from eagerkit.arguments import whole_number
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.callback_base import Callback
from eagerkit.keras.early_stopping import improvement_rule, missing


class ModelCheckpoint(Callback):
    """Save the model (``save_weights_only``: its weights) to ``filepath`` during ``fit``."""

    def __init__(
        self,
        filepath,
        monitor="val_loss",
        verbose=0,
        save_best_only=False,
        save_weights_only=False,
        mode="auto",
        save_freq="epoch",
        options=None,
        initial_value_threshold=None,
    ):
        super().__init__()
        if not isinstance(filepath, (str, os.PathLike)):
            raise InvalidArgumentError(
                f"ModelCheckpoint: filepath must be a path, got {filepath!r:.80}",
                op="ModelCheckpoint",
            )
        if save_freq != "epoch" and (
            isinstance(save_freq, bool) or not isinstance(save_freq, int) or save_freq < 1
        ):
            raise InvalidArgumentError(
                f"ModelCheckpoint: Unrecognized save_freq: {save_freq!r}; use 'epoch' or a whole "
                "number of batches",
                op="ModelCheckpoint",
            )
        self.filepath = os.fspath(filepath)
        if not save_weights_only and not self.filepath.endswith(".keras"):
            raise InvalidArgumentError(  # model.save would refuse it at the first epoch's end
                f"ModelCheckpoint: the filepath provided must end in .keras (Keras model "
                f"format), got filepath={self.filepath!r}; add .keras, e.g. "
                "'model-{epoch:02d}.keras', or pass save_weights_only=True to save weights",
                op="ModelCheckpoint",
            )
        self.monitor, self.verbose = monitor, verbose
        self.save_best_only, self.save_weights_only = save_best_only, save_weights_only
        self.save_freq = save_freq
        self.monitor_op = improvement_rule(monitor, mode, "ModelCheckpoint")
        worst = math.inf if self.monitor_op is operator.lt else -math.inf
        self.best = worst if initial_value_threshold is None else initial_value_threshold
        self._epoch = 0
        self._batches = 0

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq != "epoch":
            self._batches += 1
            if self._batches % self.save_freq == 0:
                self._save(self._epoch, logs, batch)

    def on_epoch_end(self, epoch, logs=None):
        epoch = whole_number(epoch, "epoch", "ModelCheckpoint.on_epoch_end")  # it names a file
        if self.save_freq == "epoch":
            self._save(epoch, logs)

    def _save(self, epoch, logs, batch=None):
        logs = dict(logs or {})
        path = self._path(epoch, batch, logs)
        if self.save_best_only:
            current = logs.get(self.monitor)
            if current is None:
                missing("ModelCheckpoint", self.monitor, logs)
                return
            if not self.monitor_op(current, self.best):
                if self.verbose > 0:
                    print(
                        f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {self.best:.5f}"
                    )
                return
            if self.verbose > 0:
                print(
                    f"\nEpoch {epoch + 1}: {self.monitor} improved from {self.best:.5f} to "
                    f"{current:.5f}, saving model to {path}"
                )
            self.best = current
        elif self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: saving model to {path}")
        if self.save_weights_only:
            self.model.save_weights(path, overwrite=True)
        else:
            self.model.save(path, overwrite=True)

    def _path(self, epoch, batch, logs):
        try:
            return self.filepath.format(epoch=epoch + 1, batch=batch, **logs)
        except (KeyError, IndexError, ValueError) as error:
            raise InvalidArgumentError(
                f'Failed to format this callback filepath: "{self.filepath}". Reason: '
                f"{error!r}; it may name {{epoch}} and the logged values "
                f"({', '.join(logs) or 'none yet'})",
                op="ModelCheckpoint",
            ) from None
