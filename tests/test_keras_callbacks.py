"""Keras' built-in callbacks, and the callback protocol itself, as Keras documents them."""

import math
import os

import numpy as np
import pytest

from eagerkit import keras


def fitted(epochs, callbacks, lr=0.1, validation=True, y=None):
    model = keras.Sequential([keras.layers.Dense(1, kernel_initializer="zeros")])
    model.compile(optimizer=keras.optimizers.SGD(lr), loss="mse", metrics=["mae"])
    x = np.linspace(0, 1, 16, dtype="float32").reshape(-1, 1)
    y = 2 * x if y is None else y
    history = model.fit(
        x,
        y,
        epochs=epochs,
        batch_size=4,
        verbose=0,
        callbacks=callbacks,
        validation_data=(x, y) if validation else None,
    )
    return model, history


class Scripted(keras.callbacks.Callback):
    """Feeds EarlyStopping a scripted value instead of the real logs."""

    def __init__(self, values, name="val_loss"):
        super().__init__()
        self.values, self.name = values, name

    def on_epoch_end(self, epoch, logs=None):
        logs[self.name] = self.values[epoch]


def test_early_stopping_patience_min_delta_and_best_weights(capsys):
    stop = keras.callbacks.EarlyStopping(
        monitor="val_loss", patience=2, min_delta=0.1, restore_best_weights=True, verbose=1
    )
    weights = []
    keep = keras.callbacks.LambdaCallback(
        on_epoch_end=lambda e, logs: weights.append(stop.model.get_weights())
    )
    model, history = fitted(10, [Scripted([1.0, 0.5, 0.45, 0.42, 0.3, 0.2] + [9] * 4), keep, stop])
    # 0.45 and 0.42 are within min_delta of 0.5: no improvement, two epochs of patience
    assert history.epoch == [0, 1, 2, 3] and stop.stopped_epoch == 3
    assert (stop.best, stop.best_epoch) == (0.5, 1)
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "Restoring model weights from the end of the best epoch: 2.",
        "Epoch 4: early stopping",
    ]
    for now, best in zip(model.get_weights(), weights[1], strict=True):
        np.testing.assert_array_equal(now, best)


def test_early_stopping_modes_and_baseline():
    stop = keras.callbacks.EarlyStopping(monitor="val_accuracy", patience=0)
    _, history = fitted(5, [Scripted([0.5, 0.6, 0.55, 0.9, 0.9], "val_accuracy"), stop])
    assert history.epoch == [0, 1, 2]  # accuracy: higher is better ("auto" sees the name)
    stop = keras.callbacks.EarlyStopping(monitor="val_loss", baseline=0.1, patience=1)
    _, history = fitted(5, [Scripted([0.5, 0.6, 0.7, 0.8, 0.9]), stop])
    assert history.epoch == [0, 1]  # the first epoch did not beat the baseline: no reset
    with pytest.raises(ValueError, match="mode must be 'auto', 'min' or 'max'"):
        keras.callbacks.EarlyStopping(mode="lowest")
    with pytest.warns(UserWarning, match="conditioned on metric `val_nothing`"):
        fitted(1, [keras.callbacks.EarlyStopping(monitor="val_nothing")])


def test_model_checkpoint_best_only_weights_only_and_every_n_batches(tmp_path, capsys):
    path = os.path.join(tmp_path, "w-{epoch:02d}-{val_loss:.3f}")
    save = keras.callbacks.ModelCheckpoint(
        path, save_best_only=True, save_weights_only=True, verbose=1
    )
    fitted(4, [Scripted([0.5, 0.6, 0.4, 0.4]), save])
    saved = sorted(f for f in os.listdir(tmp_path) if f.endswith(".npz"))
    assert saved == ["w-01-0.500.npz", "w-03-0.400.npz"]
    out = capsys.readouterr().out
    assert "Epoch 1: val_loss improved from inf to 0.50000, saving model to" in out
    assert "Epoch 2: val_loss did not improve from 0.50000" in out
    every = keras.callbacks.ModelCheckpoint(os.path.join(tmp_path, "b{batch}.keras"), save_freq=3)
    fitted(2, [every], validation=False)  # 8 batches: saves after the 3rd and the 6th
    assert sorted(d for d in os.listdir(tmp_path) if d.startswith("b")) == ["b1.keras", "b2.keras"]
    with pytest.raises(ValueError, match="Failed to format this callback filepath"):
        fitted(1, [keras.callbacks.ModelCheckpoint(os.path.join(tmp_path, "{nope}.keras"))])
    with pytest.raises(ValueError, match="Unrecognized save_freq"):
        keras.callbacks.ModelCheckpoint("x.keras", save_freq="sometimes")


def test_terminate_on_nan_and_learning_rate_scheduler(capsys):
    _, history = fitted(5, [keras.callbacks.TerminateOnNaN()], lr=1e30, y=np.full((16, 1), 1e20))
    assert len(history.epoch) == 1 and not math.isfinite(history.history["loss"][0])
    assert "Invalid loss, terminating training" in capsys.readouterr().out
    schedule = keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr / 2, verbose=1)
    model, history = fitted(3, [schedule])
    assert (
        history.history["lr"] == [0.05, 0.025, 0.0125] and model.optimizer.learning_rate == 0.0125
    )
    with pytest.raises(ValueError, match="should be a float >= 0"):
        fitted(1, [keras.callbacks.LearningRateScheduler(lambda epoch, lr: "fast")])


def test_lambda_callback_and_the_duck_typed_protocol():
    calls = []

    class OnlyEpochs:  # any object with some of the hooks is a callback
        def set_model(self, model):
            calls.append(("model", type(model).__name__))

        def set_params(self, params):
            calls.append(("params", params["epochs"], params["steps"], params["verbose"]))

        def on_epoch_end(self, epoch, logs):
            calls.append(("epoch", epoch, sorted(logs)))

    fitted(2, [OnlyEpochs()], validation=False)
    assert calls == [
        ("params", 2, 4, 0),
        ("model", "Sequential"),
        ("epoch", 0, ["loss", "mae"]),
        ("epoch", 1, ["loss", "mae"]),
    ]
    with pytest.raises(ValueError, match="unknown hook 'on_epoch_ends'"):
        keras.callbacks.LambdaCallback(on_epoch_ends=print)
    with pytest.raises(ValueError, match="on_epoch_end must be a function"):
        keras.callbacks.LambdaCallback(on_epoch_end=3)
    with pytest.raises(ValueError, match="callbacks must be a list"):
        fitted(1, keras.callbacks.History())


def test_a_callback_error_reaches_the_user_as_raised():
    class Broken(keras.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            raise KeyError("my own bug")

    with pytest.raises(KeyError, match="my own bug"):
        fitted(1, [Broken()])
