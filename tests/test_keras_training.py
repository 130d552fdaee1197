"""compile / fit / evaluate / predict: Keras' documented behaviour, and its errors.

Keras' own values where it documents them (the logs' keys and order, what evaluate and
predict return, how validation_split cuts, what steps_per_epoch reads), hypothesis for
the batching arithmetic, and every refusal: which error, naming what, changing nothing.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit import keras
from eagerkit.errors import FailedPreconditionError, InvalidArgumentError


def regression_model(units=1, optimizer="sgd", loss="mse", metrics=None):
    model = keras.Sequential([keras.layers.Dense(units, kernel_initializer="ones")])
    model.compile(optimizer=optimizer, loss=loss, metrics=metrics)
    return model


def test_fit_learns_a_line_and_reports_keras_logs():
    x = np.linspace(-1, 1, 64, dtype="float32").reshape(-1, 1)
    model = regression_model(optimizer=keras.optimizers.SGD(0.5), metrics=["mae"])
    history = model.fit(x, 3 * x + 1, batch_size=16, epochs=30, verbose=0)
    assert list(history.history) == ["loss", "mae"] and history.epoch == list(range(30))
    assert all(type(v) is float for v in history.history["loss"])
    assert history.history["loss"][-1] < 1e-4 and model.history is history
    kernel, bias = model.get_weights()
    np.testing.assert_allclose([kernel[0, 0], bias[0]], [3.0, 1.0], atol=1e-2)
    assert model.metrics_names == ["loss", "mae"]
    assert model.optimizer.iterations.numpy() == 30 * 4


def test_one_fit_step_is_one_sgd_step_by_hand():
    x, y = np.array([[1.0], [2.0]], "float32"), np.array([[1.0], [3.0]], "float32")
    model = regression_model(optimizer=keras.optimizers.SGD(0.1))
    loss = model.train_on_batch(x, y)
    # w = 1, b = 0: errors (0, -1), loss 0.5; dL/dw = mean(2 * error * x) = -2, dL/db = -1
    assert loss == pytest.approx(0.5)
    kernel, bias = model.get_weights()
    np.testing.assert_allclose([kernel[0, 0], bias[0]], [1 + 0.1 * 2.0, 0 + 0.1 * 1.0], rtol=1e-6)


@settings(max_examples=25, deadline=None)
@given(
    samples=st.integers(1, 40),
    batch_size=st.integers(1, 50),
    split=st.sampled_from([0.0, 0.25, 0.5]),
)
def test_batches_and_the_validation_split_follow_keras_arithmetic(samples, batch_size, split):
    x = np.arange(samples, dtype="float32").reshape(-1, 1)
    train = math.floor(samples * (1 - split))
    seen, tested = [], []
    model = regression_model()
    fit = lambda: model.fit(  # noqa: E731
        x,
        x,
        batch_size=batch_size,
        validation_split=split,
        shuffle=False,
        verbose=0,
        callbacks=[
            keras.callbacks.LambdaCallback(on_train_batch_end=lambda b, logs: seen.append(b)),
            keras.callbacks.LambdaCallback(on_test_batch_end=lambda b, logs: tested.append(b)),
        ],
    )
    if split and train in (0, samples):
        with pytest.raises(InvalidArgumentError, match="leaves no data"):
            fit()
        return
    fit()
    assert seen == list(range(math.ceil(train / batch_size)))
    assert tested == list(range(math.ceil((samples - train) / batch_size))) if split else not tested


def test_evaluate_and_predict_return_keras_shapes():
    x = np.ones((10, 3), "float32")
    model = regression_model(metrics=["mae", "mse"])
    model.fit(x, np.ones((10, 1)), verbose=0)
    result = model.evaluate(x, np.ones((10, 1)), verbose=0)
    assert isinstance(result, list) and len(result) == 3
    as_dict = model.evaluate(x, np.ones((10, 1)), verbose=0, return_dict=True)
    assert list(as_dict) == ["loss", "mae", "mse"] and as_dict["loss"] == result[0]
    plain = regression_model()
    assert isinstance(plain.evaluate(x, np.ones((10, 1)), verbose=0), float)
    predictions = model.predict(x, batch_size=4, verbose=0)
    assert isinstance(predictions, np.ndarray) and predictions.shape == (10, 1)

    inputs = keras.Input(shape=[3])
    two = keras.Model(inputs, [keras.layers.Dense(1)(inputs), keras.layers.Dense(2)(inputs)])
    out = two.predict(ek.ones([5, 3]), batch_size=2, verbose=0)  # a tensor works too
    assert [o.shape for o in out] == [(5, 1), (5, 2)]
    dataset = ek.data.Dataset.from_tensor_slices((x, np.zeros(10))).batch(3)
    assert model.predict(dataset, verbose=0).shape == (10, 1)  # the targets are ignored


def test_accuracy_means_what_the_targets_and_loss_say():
    x = np.random.random((12, 4)).astype("float32")
    classes = np.arange(12) % 3
    for loss, y, last, meaning in [
        ("sparse_categorical_crossentropy", classes, "softmax", "sparse_categorical_accuracy"),
        ("categorical_crossentropy", np.eye(3)[classes], "softmax", "categorical_accuracy"),
        ("binary_crossentropy", (classes % 2).reshape(-1, 1), "sigmoid", "binary_accuracy"),
    ]:
        units = 1 if last == "sigmoid" else 3
        model = keras.Sequential([keras.layers.Dense(units, activation=last)])
        model.compile("adam", loss, metrics=["accuracy"])
        model.fit(x, y, verbose=0)
        metric = model.metrics[1]
        assert (metric.name, metric.fn.__name__) == ("accuracy", meaning)


def test_fit_before_compile_and_unknown_names_are_keras_errors():
    model = keras.Sequential([keras.layers.Dense(1)])
    with pytest.raises(FailedPreconditionError, match="You must compile your model before"):
        model.fit(np.ones((2, 1)), np.ones((2, 1)))
    with pytest.raises(RuntimeError, match="compile"):
        model.evaluate(np.ones((2, 1)), np.ones((2, 1)))
    for kwargs, message in [
        ({"optimizer": "adamm"}, "Unknown optimizer: 'adamm'"),
        ({"loss": "mean_squared_errror"}, "Unknown loss function: 'mean_squared_errror'"),
        ({"loss": "mse", "metrics": ["acuracy"]}, "Unknown metric function: 'acuracy'"),
        ({"loss": "mse", "metrics": "mae"}, "Expected `metrics` argument to be a list"),
        ({"optimizer": 3}, "Could not interpret optimizer identifier"),
    ]:
        with pytest.raises(ValueError, match=message):
            model.compile(**kwargs)
        assert model.optimizer is None  # a refused compile leaves the model as it was
    with pytest.raises(TypeError, match="Invalid keyword argument"):
        model.compile(optimizer="adam", lr=0.1)
    model.compile(optimizer="Adam", loss="mse")  # names in any case, as Keras
    without_loss = keras.Sequential([keras.layers.Dense(1)])
    without_loss.compile(optimizer="sgd")
    with pytest.raises(ValueError, match="No loss found"):
        without_loss.fit(np.ones((2, 1)), np.ones((2, 1)), verbose=0)


def test_bad_data_is_refused_before_training_starts():
    model = regression_model()
    model(np.ones((1, 1)))
    weights = model.get_weights()
    cases = [
        (dict(x=np.ones((10, 1)), y=np.ones((9, 1))), "Data cardinality is ambiguous"),
        (dict(x=np.ones((4, 1)), y=np.ones((4, 1)), batch_size=2.5), "batch_size must be"),
        (dict(x=np.ones((4, 1)), y=np.ones((4, 1)), epochs=-1), "epochs must be"),
        (dict(x=np.ones((4, 1)), y=np.ones((4, 1)), verbose=3), "verbose must be 0"),
        (dict(x=np.ones((4, 1)), y=np.ones((4, 1)), validation_split=1.5), "validation_split"),
        (dict(x="abc", y=np.ones((4, 1))), "x must hold arrays of numbers"),
        (dict(x=None), "x is missing"),
        (dict(x=np.ones((4, 1)), y=np.ones((4, 1)), validation_data=(1,)), "must contain 2"),
        (dict(x=np.ones((4, 1)), y=np.ones(4), class_weight={1: 2.0}), "keys from 0"),
    ]
    dataset = ek.data.Dataset.from_tensor_slices((np.ones((4, 1)), np.ones((4, 1)))).batch(2)
    cases += [
        (dict(x=dataset, y=np.ones((4, 1))), "`y` argument is not supported"),
        (dict(x=dataset, batch_size=2), "The `batch_size` argument must not be specified"),
        (dict(x=dataset, validation_split=0.5), "`validation_split` is only supported"),
    ]
    for kwargs, message in cases:
        with pytest.raises(InvalidArgumentError, match=message):
            model.fit(**{"verbose": 0, **kwargs})
        for before, after in zip(weights, model.get_weights(), strict=True):
            np.testing.assert_array_equal(before, after)
    assert model.optimizer.iterations.numpy() == 0


def test_a_dataset_that_runs_out_stops_training_with_keras_warning():
    dataset = ek.data.Dataset.from_tensor_slices((np.ones((6, 1)), np.ones((6, 1)))).batch(2)
    model = regression_model()
    with pytest.warns(UserWarning, match=r"at least `steps_per_epoch \* epochs` batches"):
        history = model.fit(dataset, epochs=3, steps_per_epoch=2, verbose=0)
    assert history.epoch == [0, 1]  # 3 batches: epoch 0 reads 2, epoch 1 the last one
    arrays = regression_model().fit(
        np.ones((6, 1)), np.ones((6, 1)), batch_size=2, epochs=3, steps_per_epoch=5, verbose=0
    )
    assert arrays.epoch == [0, 1, 2]  # arrays are read on, pass after pass


def test_initial_epoch_validation_freq_and_stop_training():
    seen = []
    log = keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: seen.append((e, logs)))
    model = regression_model()
    model.fit(
        np.ones((4, 1)),
        np.ones((4, 1)),
        epochs=5,
        initial_epoch=2,
        validation_data=(np.ones((2, 1)), np.ones((2, 1))),
        validation_freq=2,
        verbose=0,
        callbacks=[log],
    )
    assert [(e, "val_loss" in logs) for e, logs in seen] == [(2, False), (3, True), (4, False)]

    class StopAfterTwoBatches(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            if batch == 1:
                self.model.stop_training = True

    history = regression_model().fit(
        np.ones((8, 1)),
        np.ones((8, 1)),
        batch_size=2,
        epochs=4,
        verbose=0,
        callbacks=[StopAfterTwoBatches()],
    )
    assert history.epoch == [0]


def test_shuffling_is_seeded_by_eagerkit_and_off_when_asked():
    def run(shuffle):
        ek.random.set_seed(3)
        firsts = []
        model = regression_model()
        model.fit(
            np.arange(8, dtype="float32").reshape(-1, 1),
            np.zeros((8, 1)),
            batch_size=1,
            epochs=2,
            shuffle=shuffle,
            verbose=0,
            callbacks=[_InputSpy(firsts)],
        )
        return firsts

    orders = [run(True), run(True), run(False)]
    assert orders[0] == orders[1]  # repeatable under a seed
    assert sorted(orders[0][:8]) == list(range(8)) and orders[0][:8] != orders[0][8:]
    assert orders[2] == list(range(8)) * 2


class _InputSpy(keras.callbacks.Callback):
    """Records the first input value of each training batch (through the model's call)."""

    def __init__(self, found):
        super().__init__()
        self.found = found

    def set_model(self, model):
        super().set_model(model)
        layer = model.layers[0]
        original = layer.call

        def call(inputs):
            self.found.append(int(inputs.numpy()[0, 0]))
            return original(inputs)

        layer.call = call


def test_sample_and_class_weights_scale_each_samples_loss():
    x, y = np.ones((4, 1), "float32"), np.array([0.0, 1.0, 1.0, 0.0])
    model = regression_model(loss="mse")
    plain = model.evaluate(x, y.reshape(-1, 1), verbose=0)
    weighted = model.evaluate(x, y.reshape(-1, 1), sample_weight=np.array([0, 2, 2, 0]), verbose=0)
    # losses (1, 0, 0, 1): plain mean 0.5; weighted (0, 0, 0, 0) -> 0
    assert (plain, weighted) == (pytest.approx(0.5), pytest.approx(0.0))
    classes = np.array([0, 1, 1, 0])
    model = keras.Sequential([keras.layers.Dense(2, kernel_initializer="zeros")])
    model.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    both = model.train_on_batch(x, classes, class_weight={0: 3.0, 1: 1.0})
    assert both == pytest.approx(math.log(2) * (3 + 1 + 1 + 3) / 4, rel=1e-6)
