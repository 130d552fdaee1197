"""LossCurve and GradientFlow as Keras callbacks: ``model.fit(..., callbacks=[curve, flow])``."""

import numpy as np
import pytest
from eagerkit.widgets import GradientFlow, LossCurve

import eagerkit as ek
from eagerkit import keras

X = np.linspace(-1, 1, 12, dtype="float32").reshape(-1, 1)
Y = (3 * X + 1).astype("float32")


def model(lr=0.1):
    m = keras.Sequential([keras.layers.Dense(1, kernel_initializer="ones", name="out")])
    m.compile(optimizer=keras.optimizers.SGD(lr), loss="mse", metrics=["mae"])
    return m


def test_the_curve_draws_each_batchs_own_loss_and_validation_at_epoch_ends():
    frozen = model(lr=0.0)  # the weights do not move: each batch's loss is known in advance
    curve = LossCurve()
    frozen.fit(
        X,
        Y,
        batch_size=4,
        epochs=2,
        shuffle=False,
        validation_data=(X, Y),
        verbose=0,
        callbacks=[curve],
    )
    curve.flush(final=True)
    runs = curve.history["runs"]["main"]
    per_batch = [float(np.mean((X[i : i + 4] - Y[i : i + 4]) ** 2)) for i in (0, 4, 8)] * 2
    assert runs["loss"]["x"] == list(range(6))
    np.testing.assert_allclose(runs["loss"]["y"], per_batch, rtol=1e-5)  # not running means
    assert runs["val_loss"]["x"] == [2, 5]  # at the step of each epoch's last batch
    np.testing.assert_allclose(runs["val_loss"]["y"], [np.mean(per_batch[:3])] * 2, rtol=1e-5)
    assert set(runs) == {"loss", "mae", "val_loss", "val_mae"}


def test_a_curve_by_epoch_counts_on_across_fits():
    curve = LossCurve(x="epoch")
    trained = model()
    first = trained.fit(X, Y, batch_size=4, epochs=2, verbose=0, callbacks=[curve])
    second = trained.fit(X, Y, batch_size=4, epochs=3, verbose=0, callbacks=[curve])
    curve.flush(final=True)
    loss = curve.history["runs"]["main"]["loss"]
    assert loss["x"] == [0, 1, 2, 3, 4]
    assert loss["y"] == pytest.approx(first.history["loss"] + second.history["loss"])


def test_the_flow_sees_every_steps_gradients_and_lets_go_of_the_optimizer():
    trained = model()
    flow = GradientFlow(every=1)
    trained.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0, callbacks=[flow])
    flow.flush(final=True)
    assert flow.history["layers"] == ["out"] and len(flow.history["steps"]) == 6
    assert trained.optimizer.listeners == []  # attached only while fit runs
    # the first step's norm is that of the gradient fit computed on the first batch
    reference = model()
    with ek.GradientTape() as tape:
        loss = keras.losses.MeanSquaredError()(Y[:4], reference(X[:4]))
    grads = tape.gradient(loss, reference.trainable_variables)
    expected = np.sqrt(sum(float(ek.reduce_sum(g * g)) for g in grads))
    assert flow.history["norms"][0][0] == pytest.approx(expected, rel=1e-5)
