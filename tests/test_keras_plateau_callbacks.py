"""ReduceLROnPlateau and CSVLogger against Keras 3's rules, with a scripted monitored value."""

import csv
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eagerkit import keras
from eagerkit.errors import InvalidArgumentError


def model_at(rate):
    model = keras.Sequential([keras.layers.Dense(1, use_bias=False)])
    model.compile(optimizer=keras.optimizers.SGD(rate), loss="mse")
    return model


def keras_rule(values, rate, factor, patience, min_delta, cooldown, min_lr):
    """Keras 3's ReduceLROnPlateau in 'min' mode, step by step: the rate each epoch logs."""
    best, wait, cool, logged = None, 0, 0, []
    for value in values:
        logged.append(rate)
        if cool > 0:
            cool, wait = cool - 1, 0
        if best is None or value + min_delta < best:  # Keras: min mode negates min_delta
            best, wait = value, 0
        elif cool == 0:
            wait += 1
            if wait >= patience and rate > np.float32(min_lr):
                rate, cool, wait = max(rate * factor, min_lr), cooldown, 0
    return logged, rate


@settings(max_examples=40, deadline=None)
@given(
    values=st.lists(st.sampled_from([1.0, 0.9, 0.8995, 0.5, 0.7]), min_size=1, max_size=12),
    factor=st.sampled_from([0.1, 0.5, 0.9]),
    patience=st.integers(0, 3),
    cooldown=st.integers(0, 2),
    min_lr=st.sampled_from([0.0, 0.01]),
)
def test_the_rate_follows_keras_rule(values, factor, patience, cooldown, min_lr):
    model = model_at(0.1)
    reduce = keras.callbacks.ReduceLROnPlateau(
        "loss", factor=factor, patience=patience, cooldown=cooldown, min_lr=min_lr, mode="min"
    )
    reduce.set_model(model)
    reduce.on_train_begin()
    logged = []
    for epoch, value in enumerate(values):
        logs = {"loss": value}
        reduce.on_epoch_end(epoch, logs)
        logged.append(logs["learning_rate"])
    expected, final = keras_rule(values, 0.1, factor, patience, 1e-4, cooldown, min_lr)
    assert logged == expected and model.optimizer.learning_rate == final


def test_in_fit_the_rate_falls_and_is_logged(capsys):
    model = model_at(0.1)  # zero inputs: the loss never changes
    reduce = keras.callbacks.ReduceLROnPlateau("loss", factor=0.5, patience=2, verbose=1)
    history = model.fit(np.zeros((4, 1)), np.ones((4, 1)), epochs=6, verbose=0, callbacks=[reduce])
    assert history.history["learning_rate"] == [0.1, 0.1, 0.1, 0.05, 0.05, 0.025]
    assert model.optimizer.learning_rate == 0.025
    out = capsys.readouterr().out
    assert "Epoch 3: ReduceLROnPlateau reducing learning rate to 0.05." in out


def test_max_mode_and_min_lr_floor():
    model = model_at(0.1)
    reduce = keras.callbacks.ReduceLROnPlateau("val_accuracy", factor=0.1, patience=1, min_lr=0.05)
    reduce.set_model(model)
    reduce.on_train_begin()
    for epoch, accuracy in enumerate([0.5, 0.6, 0.55, 0.58, 0.59]):  # auto: higher is better
        reduce.on_epoch_end(epoch, {"val_accuracy": accuracy})
    assert model.optimizer.learning_rate == 0.05 and reduce.best == 0.6


def test_a_missing_monitor_warns_and_changes_nothing():
    model = model_at(0.1)
    reduce = keras.callbacks.ReduceLROnPlateau(patience=0)
    reduce.set_model(model)
    reduce.on_train_begin()
    with pytest.warns(UserWarning, match="`val_loss` which is not available. Available metrics"):
        reduce.on_epoch_end(0, {"loss": 1.0})
    assert model.optimizer.learning_rate == 0.1


def test_bad_arguments_and_a_schedule_are_refused():
    with pytest.raises(ValueError, match="factor >= 1.0. Received factor=1.5"):
        keras.callbacks.ReduceLROnPlateau(factor=1.5)
    with pytest.raises(InvalidArgumentError, match="patience must be a number >= 0, got"):
        keras.callbacks.ReduceLROnPlateau(patience=-1)
    with pytest.raises(InvalidArgumentError, match="mode must be 'auto', 'min' or 'max'"):
        keras.callbacks.ReduceLROnPlateau(mode="up")
    schedule = keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5)
    model = keras.Sequential([keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(schedule), loss="mse")
    reduce = keras.callbacks.ReduceLROnPlateau("loss")
    reduce.set_model(model)
    with pytest.raises(TypeError, match="LearningRateSchedule .*not settable"):
        reduce.on_epoch_end(0, {"loss": 1.0})


def _rows(path):
    with open(path, newline="") as file:
        return list(csv.reader(file))


def test_csv_logger_writes_keras_columns_and_appends(tmp_path):
    path = tmp_path / "log.csv"
    model = model_at(0.0)
    x, y = np.ones((4, 1)), np.zeros((4, 1))
    model.fit(x, y, epochs=2, verbose=0, callbacks=[keras.callbacks.CSVLogger(path)])
    loss = str(model.evaluate(x, y, verbose=0))
    assert _rows(path) == [["epoch", "loss", "val_loss"], ["0", loss, "NA"], ["1", loss, "NA"]]
    logger = keras.callbacks.CSVLogger(str(path), separator=";", append=True)
    model.fit(x, y, epochs=1, verbose=0, validation_data=(x, y), callbacks=[logger])
    assert open(path).read().splitlines()[3] == f"0;{loss};{loss}"  # no second header
    keras.callbacks.CSVLogger(path).on_train_begin()  # append=False starts the file again
    assert os.path.getsize(path) == 0


def test_csv_logger_cells_and_errors(tmp_path):
    logger = keras.callbacks.CSVLogger(tmp_path / "cells.csv")
    logger.on_train_begin()
    logger.on_epoch_end(0, {"name": "a", "vector": np.array([1, 2]), "val_x": np.float32(0.5)})
    logger.on_train_end()
    assert _rows(tmp_path / "cells.csv") == [
        ["epoch", "name", "val_x", "vector"],
        ["0", "a", "0.5", '"[1, 2]"'],
    ]
    with pytest.raises(InvalidArgumentError, match="separator must be one character"):
        keras.callbacks.CSVLogger("x.csv", separator=", ")
    with pytest.raises(InvalidArgumentError, match="filename must be a path"):
        keras.callbacks.CSVLogger(3)
    missing = keras.callbacks.CSVLogger(tmp_path / "no" / "log.csv")
    with pytest.raises(FileNotFoundError, match="does not exist; make it first"):
        missing.on_train_begin()
    assert not (tmp_path / "no").exists()
