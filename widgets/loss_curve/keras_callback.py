"""LossCurve as a Keras callback: ``model.fit(..., callbacks=[curve])`` draws as it trains.

The hooks are Keras' (eagerkit/keras/callback_base.py); the curve implements the ones it
needs. ``fit`` shows the curve in its cell if it is not on display yet, and the PNG the
notebook keeps is redrawn when training ends.

What is drawn depends on the curve's ``x``:

- ``"step"`` (the default): one point per batch, at a step that counts on across epochs
  and ``fit`` calls, and the validation values at the step where each epoch ends. Keras
  logs at a batch's end the mean over the epoch so far; the curve draws each batch's own
  value, recovered from two successive means (``k * m_k - (k - 1) * m_(k-1)`` for the
  k-th batch: exact for batches of one size, an estimate for a smaller last batch), so
  the curve does not jump where an epoch starts. Its smoothing slider averages them again;
- ``"epoch"``: one point per epoch, training and validation values alike.
"""

import numbers


class LossCurveCallback:
    """Keras' callback hooks for ``LossCurve`` (a base class of it)."""

    def set_model(self, model):
        self._fitting = model

    def on_train_begin(self, logs=None):
        if self._handle is None:
            self._ipython_display_()  # fit's cell shows the curve (nowhere outside IPython)
        self._epochs_before = vars(self).get("_epochs_seen", 0)

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch_means = {}  # metric -> its mean over the epoch's batches so far

    def on_train_batch_end(self, batch, logs=None):
        if self.x == "epoch":
            return
        means = {k: v for k, v in _numbers(logs).items() if not k.startswith("val_")}
        previous = vars(self).setdefault("_epoch_means", {})
        k = batch + 1
        values = {
            name: mean if name not in previous else k * mean - (k - 1) * previous[name]
            for name, mean in means.items()
        }
        self._epoch_means = means
        if values:
            self.log(**values)

    def on_epoch_end(self, epoch, logs=None):
        self._epochs_seen = self._epochs_before + epoch + 1
        values = _numbers(logs)
        if self.x == "epoch":
            if values:
                self.log(self._epochs_seen - 1, **values)
            return
        validation = {k: v for k, v in values.items() if k.startswith("val_")}
        if validation:  # at the step of the epoch's last batch
            self.log(max(self._next_step - 1, 0), **validation)

    def on_train_end(self, logs=None):
        self.flush(final=True)
        self.refresh()


def _numbers(logs):
    return {
        name: value
        for name, value in (logs or {}).items()
        if isinstance(value, numbers.Real) and not isinstance(value, bool)
    }
