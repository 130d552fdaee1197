"""``ek.keras.callbacks.TensorBoard``: the training curves written as summaries, as Keras'.

As Keras does, each epoch's logs go to ``<log_dir>/train`` as ``epoch_<name>`` (with
``epoch_learning_rate``), the validation logs to ``<log_dir>/validation`` without their
``val_`` prefix, at step ``epoch``; with ``update_freq`` a number of batches (or
``"batch"``: every one) the batch logs go to ``train`` as ``batch_<name>`` too, and with
``histogram_freq`` every that many epochs each weight's distribution, as
``<weight name>/histogram``. The summaries are eagerkit's (``ek.summary``: JSON lines, that
``ek.summary.read_events`` and the loss-curve widgets read), not TensorBoard's protobuf
event files: TensorBoard itself does not open them. Nothing else (graphs, images, profiles,
embeddings) is written. TF's "overfit and underfit" tutorial logs each model this way.

Examples
--------
>>> import eagerkit as ek, numpy as np, os, tempfile
>>> log_dir = tempfile.mkdtemp()
>>> model = ek.keras.Sequential([ek.keras.layers.Dense(1)])
>>> model.compile(optimizer="sgd", loss="mse")
>>> _ = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0,
...     validation_data=(np.ones((2, 2)), np.ones((2, 1))),
...     callbacks=[ek.keras.callbacks.TensorBoard(log_dir)])
>>> sorted(os.listdir(log_dir))
['train', 'validation']
>>> [(e["tag"], e["step"]) for e in ek.summary.read_events(os.path.join(log_dir, "validation"))
...  if e["tag"].startswith("epoch_")]
[('epoch_loss', 0), ('epoch_loss', 1)]
"""

import os
import time

from eagerkit import summary
from eagerkit.arguments import describe, positive, size
from eagerkit.errors import InvalidArgumentError, UnimplementedError
from eagerkit.keras.callback_base import Callback

_OP = "TensorBoard"


class TensorBoard(Callback):
    """Writes the epoch (and, with ``update_freq``, batch) logs and weight histograms under
    ``log_dir`` (see the module's docstring for the names and what is not written)."""

    def __init__(
        self,
        log_dir="logs",
        histogram_freq=0,
        write_graph=True,
        write_images=False,
        write_steps_per_second=False,
        update_freq="epoch",
        profile_batch=0,
        embeddings_freq=0,
        embeddings_metadata=None,
    ):
        super().__init__()
        try:
            self.log_dir = os.fspath(log_dir)
        except TypeError:
            raise InvalidArgumentError(
                f"{_OP}: log_dir must be a path (a str or pathlib.Path), got {describe(log_dir)}",
                op=_OP,
            ) from None
        self.histogram_freq = size(histogram_freq, "histogram_freq", _OP)
        self.update_freq = _update_freq(update_freq)
        self.write_graph = bool(write_graph)  # accepted as Keras' default; eager: no graph
        self.write_steps_per_second = bool(write_steps_per_second)
        unwritten = {"write_images": write_images, "profile_batch": profile_batch}
        unwritten.update(embeddings_freq=embeddings_freq, embeddings_metadata=embeddings_metadata)
        for name, value in unwritten.items():
            if value:
                raise UnimplementedError(
                    f"{_OP}: eagerkit writes scalars and histograms only, not {name}={value!r}"
                    f"; leave {name} at its default",
                    op=_OP,
                )
        self._writers = {}
        self._train_batches = 0
        self._epoch_started = None
        self._epoch_start_steps = 0

    def _writer(self, kind):
        """The summary writer of ``<log_dir>/<kind>``, made when first needed."""
        if kind not in self._writers:
            self._writers[kind] = summary.create_file_writer(os.path.join(self.log_dir, kind))
        return self._writers[kind]

    def _write(self, kind, logs, prefix, step):
        with self._writer(kind).as_default():
            for name, value in logs.items():
                summary.scalar(prefix + name, value, step=step)

    # --- the hooks fit calls ----------------------------------------------------------------
    def on_train_begin(self, logs=None):
        self._train_batches = 0

    def on_train_batch_end(self, batch, logs=None):
        self._train_batches += 1
        every = self.update_freq
        if every != "epoch" and self._train_batches % every == 0 and logs:
            self._write("train", logs, "batch_", self._train_batches)

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch_started = time.perf_counter()
        self._epoch_start_steps = self._iterations()

    def on_epoch_end(self, epoch, logs=None):
        logs = dict(logs or {})
        train_logs = {k: v for k, v in logs.items() if not k.startswith("val_")}
        val_logs = {k[len("val_") :]: v for k, v in logs.items() if k.startswith("val_")}
        rate = self._learning_rate()
        if rate is not None:
            train_logs["learning_rate"] = rate
        if self.write_steps_per_second and self._epoch_started is not None:
            seconds = time.perf_counter() - self._epoch_started
            train_logs["steps_per_second"] = (self._iterations() - self._epoch_start_steps) / max(
                seconds, 1e-9
            )
        if train_logs:
            self._write("train", train_logs, "epoch_", epoch)
        if val_logs:
            self._write("validation", val_logs, "epoch_", epoch)
        if self.histogram_freq and epoch % self.histogram_freq == 0:
            self._log_weights(epoch)

    def on_test_end(self, logs=None):
        optimizer = getattr(self.model, "optimizer", None)
        if logs and optimizer is not None:  # Keras: evaluation_<name>_vs_iterations
            logs = {f"evaluation_{name}_vs_iterations": v for name, v in logs.items()}
            self._write("validation", logs, "", self._iterations())

    def on_train_end(self, logs=None):
        for writer in self._writers.values():
            writer.close()
        self._writers = {}

    # --- what the model and its optimizer say -------------------------------------------------
    def _log_weights(self, epoch):
        with self._writer("train").as_default():
            for layer in self.model.layers:
                for weight in layer.weights:
                    tag = weight.name.replace(":", "_") + "/histogram"
                    summary.histogram(tag, weight, step=epoch)

    def _iterations(self):
        optimizer = getattr(self.model, "optimizer", None)
        steps = getattr(optimizer, "iterations", None)
        return 0 if steps is None else int(steps.numpy())

    def _learning_rate(self):
        optimizer = getattr(self.model, "optimizer", None)
        rate = getattr(optimizer, "learning_rate", None)
        if rate is None:
            return None
        if callable(rate):  # a schedule, read as the optimizer reads it: at the steps taken
            rate = rate()
        return float(rate)


def _update_freq(value):
    """``"epoch"``, ``"batch"`` (every batch) or a number of batches."""
    if value == "epoch":
        return "epoch"
    if value == "batch":
        return 1
    if isinstance(value, str):
        raise InvalidArgumentError(
            f"{_OP}: update_freq must be 'epoch', 'batch' or a number of batches, got {value!r}",
            op=_OP,
        )
    return positive(value, "update_freq", _OP)


__all__ = ["TensorBoard"]
