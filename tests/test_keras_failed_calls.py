"""A refused or failed Keras call names the call and the fix, and changes nothing.

fit that fails in its third epoch, a refused compile, a load of a damaged save: the model's
weights and build, the optimizer's step, slots, learning rate and listeners, the metrics,
``model.history`` and the files on disk are as they were before the call.
"""

import hashlib
import os
import zipfile

import numpy as np
import pytest

import eagerkit as ek
from eagerkit import keras
from eagerkit.errors import InvalidArgumentError


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def trained_model():
    ek.random.set_seed(0)
    model = keras.Sequential([keras.Input(shape=[2]), keras.layers.Dense(3, name="out")])
    model.compile(
        keras.optimizers.Adam(0.1),
        keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    model.fit(np.ones((6, 2)), np.arange(6) % 3, batch_size=2, verbose=0)
    return model


def state_of(model):
    """Everything a training call may change, as plain values."""
    optimizer = model.optimizer
    return {
        "weights": [w.copy() for w in model.get_weights()],
        "optimizer": [v.numpy().copy() for v in optimizer.variables()],
        "learning_rate": optimizer.learning_rate,
        "listeners": list(optimizer.listeners),
        "metrics": {m.name: float(m.result()) for m in model.metrics},
        "history": model.history,
        "built": [layer.built for layer in model.layers],
    }


def assert_same(before, after):
    assert before.keys() == after.keys()
    for key, value in before.items():
        if key in ("weights", "optimizer"):
            assert len(value) == len(after[key]), key
            for a, b in zip(value, after[key], strict=True):
                np.testing.assert_array_equal(a, b, err_msg=key)
        elif key in ("listeners", "history"):
            assert [id(v) for v in np.atleast_1d(value)] == [
                id(v) for v in np.atleast_1d(after[key])
            ], key
        else:
            assert value == after[key], key


class FailsAtEpoch(keras.callbacks.Callback):
    """Lowers the learning rate, listens to the optimizer, then raises in epoch ``epoch``."""

    def __init__(self, epoch):
        super().__init__()
        self.epoch = epoch

    def on_train_begin(self, logs=None):
        self.model.optimizer.learning_rate = 0.001
        self.model.optimizer.listeners.append(self)

    def on_apply(self, optimizer, pairs):
        pass

    def on_epoch_end(self, epoch, logs=None):
        if epoch == self.epoch:
            raise ZeroDivisionError("the callback's own error")


def test_fit_that_fails_in_its_third_epoch_changes_nothing():
    model, twin = trained_model(), trained_model()
    x, y = np.arange(12, dtype="float32").reshape(6, 2), np.arange(6) % 3
    before = state_of(model)
    ek.random.set_seed(5)
    with pytest.raises(ZeroDivisionError, match="the callback's own error"):  # as raised
        model.fit(x, y, batch_size=2, epochs=5, verbose=0, callbacks=[FailsAtEpoch(2)])
    assert_same(before, state_of(model))

    # Run again: the answer of a model that never failed (fit's shuffles are drawn again)
    model.fit(x, y, batch_size=2, epochs=2, verbose=0)
    ek.random.set_seed(5)
    twin.fit(x, y, batch_size=2, epochs=2, verbose=0)
    for a, b in zip(model.get_weights(), twin.get_weights(), strict=True):
        np.testing.assert_array_equal(a, b)


class InterruptedAtEpoch(keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        if epoch == 1:
            raise KeyboardInterrupt  # the kernel's stop button


def test_an_interrupted_fit_keeps_what_it_trained_as_keras():
    model = trained_model()
    steps = model.optimizer.iterations.numpy()
    with pytest.raises(KeyboardInterrupt):
        model.fit(
            np.ones((6, 2)),
            np.zeros(6),
            batch_size=2,
            epochs=5,
            verbose=0,
            callbacks=[InterruptedAtEpoch()],
        )
    assert model.optimizer.iterations.numpy() == steps + 2 * 3  # two epochs of 3 batches


def test_a_failed_first_fit_leaves_the_model_unbuilt_and_the_optimizer_fresh():
    model = keras.Sequential([keras.layers.Dense(3)])
    model.compile("adam", "mse", metrics=["mae"])
    with pytest.raises(InvalidArgumentError, match=r"^Sequential\.fit\(.*y_true has shape"):
        model.fit(np.ones((4, 2)), np.ones((4, 5)), verbose=0)  # the loss fails, after a build
    assert not model.built and model.weights == [] and model.metrics == []
    assert model.optimizer.variables()[0].numpy() == 0 and len(model.optimizer.variables()) == 1
    model.fit(np.ones((4, 2)), np.ones((4, 3)), verbose=0)  # fixed: it trains
    assert model.metrics_names == ["loss", "mae"]


@pytest.mark.parametrize(
    ("call", "kwargs", "says"),
    [
        ("fit", dict(x=np.ones((4, 5)), y=np.zeros(4)), r"expected shape=\(None, 2\)"),
        ("fit", dict(x=[[1.0, 2.0], [3.0]], y=np.zeros(2)), "pad the shorter rows"),
        ("fit", dict(x=np.ones((4, 2)), y=np.full(4, 3)), "label value of 3"),
        ("fit", dict(x=np.ones((4, 2)), y=np.zeros(4), callbacks=[3]), r"callbacks\[0\] is int"),
        ("fit", dict(x=np.ones((4, 2)), y=np.zeros(4), epochs="2"), "epochs must be a whole"),
        ("fit", dict(x=np.ones((4, 2)), y=np.zeros(3)), "Data cardinality is ambiguous"),
        ("evaluate", dict(x=np.ones((4, 5)), y=np.zeros(4)), r"expected shape=\(None, 2\)"),
        ("predict", dict(x="abc"), "x must hold arrays of numbers"),
        ("compile", dict(optimizer="sgd", loss="mse", metrics=[3]), "Could not interpret metric"),
        ("compile", dict(optimizer="sgd", loss="mse", loss_weights="x"), "loss_weights must"),
        ("compile", dict(optimizer="adamm"), "Unknown optimizer: 'adamm'"),
    ],
)
def test_refusals_name_the_call_and_change_nothing(call, kwargs, says):
    model = trained_model()
    before = state_of(model)
    optimizer, loss = model.optimizer, model.loss
    with pytest.raises(ValueError, match=rf"^Sequential\.{call}\(.*{says}") as caught:
        getattr(model, call)(**{**kwargs, **({} if call == "compile" else {"verbose": 0})})
    assert isinstance(caught.value, InvalidArgumentError)
    assert_same(before, state_of(model))
    assert (model.optimizer, model.loss) == (optimizer, loss)


def digests(folder="."):
    found = {}
    for root, _, files in os.walk(folder):
        for name in files:
            with open(os.path.join(root, name), "rb") as f:
                found[os.path.join(root, name)] = hashlib.sha256(f.read()).hexdigest()
    return found


def test_a_failed_load_leaves_the_model_and_the_files_alone():
    model = trained_model()
    model.save_weights("ckpt")
    model.save("saved.keras")
    with zipfile.ZipFile("saved.keras") as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    damaged = bytearray(members["variables/variables.npz"])
    damaged[len(damaged) // 2] ^= 1
    with zipfile.ZipFile("damaged.keras", "w") as archive:
        for name, data in {**members, "variables/variables.npz": bytes(damaged)}.items():
            archive.writestr(name, data)
    with open("ckpt.npz", "r+b") as f:  # a damaged weights file
        f.seek(100)
        byte = f.read(1)
        f.seek(100)
        f.write(bytes([byte[0] ^ 1]))
    other = trained_model()
    other.fit(np.ones((6, 2)), np.zeros(6), verbose=0)
    before, files = state_of(other), digests()
    for load in (lambda: other.load_weights("ckpt"), lambda: other.load_weights("missing")):
        with pytest.raises(ek.errors.OpError, match=r"Sequential\.load_weights|ckpt|missing"):
            load()
        assert_same(before, state_of(other))
    with pytest.raises(ek.errors.DataLossError):
        keras.models.load_model("damaged.keras")
    assert digests() == files
