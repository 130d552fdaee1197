"""fit / evaluate / predict give the numbers of the loop a student writes by hand.

The hand-written loop is the article's: batches in order, a GradientTape per batch, the
loss, its gradients, one ``apply_gradients``. Keras' logs are running means weighted by
each batch's size, so the epoch's ``loss`` is the mean of every sample's loss as it was
when its batch was seen (before that batch's update), and ``accuracy`` likewise.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit import keras


def classifier(seed):
    ek.random.set_seed(seed)
    model = keras.Sequential(
        [
            keras.Input(shape=[4]),
            keras.layers.Dense(8, activation="relu"),
            keras.layers.Dense(3),
        ]
    )
    model(np.zeros((1, 4), "float32"))  # the weights, drawn under the seed
    return model


def loss_fn():
    return keras.losses.SparseCategoricalCrossentropy(from_logits=True)


def by_hand(model, x, y, batch_size, epochs, x_val, y_val, learning_rate):
    """The article's loop; returns Keras' History entries computed from it."""
    optimizer = keras.optimizers.Adam(learning_rate)
    per_sample = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
    history = {"loss": [], "accuracy": [], "val_loss": [], "val_accuracy": []}
    for _ in range(epochs):
        losses, hits = [], []
        for start in range(0, len(x), batch_size):
            xb, yb = x[start : start + batch_size], y[start : start + batch_size]
            with ek.GradientTape() as tape:
                logits = model(xb, training=True)
                loss = ek.reduce_mean(per_sample(yb, logits))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=True))
            losses.append(float(loss) * len(xb))  # the batch's mean, weighted by its size
            hits += list(np.argmax(logits.numpy(), axis=1) == yb)
        history["loss"].append(sum(losses) / len(x))
        history["accuracy"].append(float(np.mean(hits)))
        val_logits = model(x_val).numpy()
        history["val_loss"].append(float(ek.reduce_mean(per_sample(y_val, val_logits))))
        history["val_accuracy"].append(float(np.mean(np.argmax(val_logits, 1) == y_val)))
    return history, optimizer


@settings(max_examples=12, deadline=None)
@given(
    samples=st.integers(2, 30),
    batch_size=st.integers(1, 32),
    epochs=st.integers(1, 3),
    seed=st.integers(0, 2**16),
)
def test_fit_is_the_hand_written_loop(samples, batch_size, epochs, seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(samples, 4)).astype("float32")
    y = rng.integers(0, 3, samples)
    x_val, y_val = rng.normal(size=(5, 4)).astype("float32"), rng.integers(0, 3, 5)
    fitted, hand = classifier(seed), classifier(seed)
    for a, b in zip(fitted.get_weights(), hand.get_weights(), strict=True):
        np.testing.assert_array_equal(a, b)

    fitted.compile(keras.optimizers.Adam(0.05), loss_fn(), metrics=["accuracy"])
    history = fitted.fit(
        x,
        y,
        batch_size=batch_size,
        epochs=epochs,
        shuffle=False,
        validation_data=(x_val, y_val),
        verbose=0,
    )
    expected, optimizer = by_hand(hand, x, y, batch_size, epochs, x_val, y_val, 0.05)

    for a, b in zip(fitted.get_weights(), hand.get_weights(), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert list(history.history) == list(expected)
    for name, values in expected.items():
        np.testing.assert_allclose(history.history[name], values, rtol=1e-5, atol=1e-6)
    assert fitted.optimizer.iterations.numpy() == optimizer.iterations.numpy()
    for a, b in zip(fitted.optimizer.variables(), optimizer.variables(), strict=True):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-7)  # Adam's m, v

    loss, accuracy = fitted.evaluate(x_val, y_val, batch_size=2, verbose=0)
    assert (loss, accuracy) == (
        pytest.approx(expected["val_loss"][-1], rel=1e-5),
        pytest.approx(expected["val_accuracy"][-1]),
    )
    predictions = fitted.predict(x, batch_size=3, verbose=0)
    np.testing.assert_allclose(predictions, hand(x).numpy(), rtol=1e-5, atol=1e-6)


def test_validation_split_is_evaluate_on_the_last_samples():
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(10, 4)).astype("float32"), rng.integers(0, 3, 10)
    model = classifier(1)
    model.compile(keras.optimizers.SGD(0.1), loss_fn(), metrics=["accuracy"])
    history = model.fit(x, y, batch_size=4, validation_split=0.3, shuffle=False, verbose=0)
    # Keras holds out the last 30%: samples 7, 8, 9, evaluated after the epoch's updates
    held_out = model.evaluate(x[7:], y[7:], verbose=0, return_dict=True)
    assert history.history["val_loss"] == [pytest.approx(held_out["loss"], rel=1e-6)]
    assert history.history["val_accuracy"] == [pytest.approx(held_out["accuracy"])]
    assert model.optimizer.iterations.numpy() == 2  # 7 training samples in batches of 4


def test_sample_weights_weigh_each_samples_loss_in_the_gradient():
    x = np.array([[1.0], [2.0], [3.0]], "float32")
    y = np.array([[0.0], [0.0], [6.0]], "float32")
    weights = np.array([1.0, 0.0, 2.0])
    model = keras.Sequential([keras.layers.Dense(1, kernel_initializer="ones", use_bias=False)])
    model.compile(keras.optimizers.SGD(0.01), "mse")
    model.fit(x, y, sample_weight=weights, batch_size=3, shuffle=False, verbose=0)
    # w = 1: errors (1, 2, -3); Keras' loss = sum(weight * error^2) / 3 samples
    # dL/dw = sum(weight * 2 * error * x) / 3 = (1*2*1*1 + 0 + 2*2*(-3)*3) / 3 = -34 / 3
    np.testing.assert_allclose(model.get_weights()[0], [[1 + 0.01 * 34 / 3]], rtol=1e-6)


def test_skipping_the_walk_for_added_losses_gives_the_walks_answer(monkeypatch):
    """keras/layers/added.py's fast path: until a layer adds a loss or metric, fit's steps
    do not walk the model for them. The answers are the walk's, before and after one does."""
    from eagerkit.keras.layers import added

    class Penalty(keras.layers.Layer):
        def call(self, inputs):
            self.add_loss(ek.reduce_sum(inputs))
            self.add_metric(ek.reduce_mean(inputs), name="mean_in")
            return inputs

    plain, penalized = classifier(0), keras.Sequential([Penalty(), keras.layers.Dense(2)])
    x = np.ones((2, 4), "float32")
    answers = {}
    for flag in (False, True):  # the fast path, then the walk
        monkeypatch.setattr(added, "_ANY_ADDED", [flag])
        plain(x)
        answers[flag] = (plain.losses, plain._added_metrics_now())
    assert answers[False] == answers[True] == ([], [])
    monkeypatch.setattr(added, "_ANY_ADDED", [False])
    penalized(x)  # the first add_loss turns the walk on
    assert [float(v) for v in penalized.losses] == [8.0]
    assert [name for name, _ in penalized._added_metrics_now()] == ["mean_in"]
