"""fit / evaluate / predict / save on another device: '/sim:0' (a simulated GPU as strict as
cupy, in CI) and a real '/gpu:0' where there is one; the answers are the CPU's."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit import keras
from eagerkit.backends.cupy_backend import gpu_status

X = np.random.default_rng(0).random((32, 4)).astype("float32")
Y = (X.sum(axis=1) > 2).astype("int32")
DEVICES = ["/sim:0"] + (["/gpu:0"] if gpu_status()[0] else [])


@pytest.fixture(autouse=True)
def simulated_gpu():
    ek.devices.enable_simulated_gpu()
    yield
    ek.devices.disable_simulated_gpu()


def train_on(device_name, path):
    ek.set_random_seed(0)
    with ek.device(device_name):
        model = keras.Sequential(
            [
                keras.Input(shape=[4]),
                keras.layers.Dense(8, activation="relu"),
                keras.layers.Dense(2),
            ]
        )
        model.compile(
            keras.optimizers.Adam(0.01),
            keras.losses.SparseCategoricalCrossentropy(from_logits=True),
            metrics=["accuracy"],
        )
        history = model.fit(
            X, Y, epochs=3, batch_size=8, validation_split=0.25, shuffle=False, verbose=0
        )
        results = model.evaluate(X, Y, verbose=0)
        predictions = model.predict(X, verbose=0)
        model.save(path)
    return model, history.history, results, predictions


@pytest.mark.parametrize("device_name", DEVICES)
def test_training_on_a_device_gives_the_cpus_answers(device_name, tmp_path):
    _, cpu_history, cpu_results, cpu_predictions = train_on("/cpu:0", tmp_path / "cpu.keras")
    model, history, results, predictions = train_on(device_name, tmp_path / "device.keras")
    full_name = ek.devices.get_device(device_name).full_name
    assert {v.device for v in model.variables} == {full_name}  # made and trained there
    assert list(history) == list(cpu_history)
    for name in history:
        np.testing.assert_allclose(history[name], cpu_history[name], rtol=1e-4)
    np.testing.assert_allclose(results, cpu_results, rtol=1e-4)
    np.testing.assert_allclose(predictions, cpu_predictions, rtol=1e-4, atol=1e-6)
    loaded = keras.models.load_model(tmp_path / "device.keras")  # back on the CPU, same weights
    np.testing.assert_allclose(loaded.predict(X, verbose=0), predictions, rtol=1e-5, atol=1e-6)
