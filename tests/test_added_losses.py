"""The losses and metrics layers add as they run hold the latest forward pass, as in TF: an
outermost call (a layer's on its own, or a model's) starts them afresh, calls inside it add
to them, and a failed pass leaves those of the last one (keras/layers/added.py)."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit import keras

X = np.array([[1.0, -2.0], [3.0, 0.5]], np.float32)


class Penalty(keras.layers.Layer):
    """Adds sum(inputs) as a loss and mean(inputs) as a metric; refuses a negative first
    input (to fail a forward pass halfway)."""

    def call(self, inputs):
        self.add_loss(ek.reduce_sum(inputs))
        self.add_metric(ek.reduce_mean(inputs), name="mean")
        if float(inputs[0, 0]) < 0:
            raise ValueError("a negative first input")
        return inputs


def losses(layer):
    return [float(v) for v in layer.losses]


def test_a_layer_called_on_its_own_keeps_only_its_latest_calls_penalty():
    layer = keras.layers.Dense(2, activity_regularizer="l2", kernel_initializer="ones")
    layer(X)
    outputs = layer(X[:1]).numpy()
    assert losses(layer) == pytest.approx([0.01 * np.square(outputs).sum()])
    penalty = Penalty()
    for x in (X, X * 2, X * 3):
        penalty(x)
    assert losses(penalty) == pytest.approx([float(np.sum(X * 3))])
    assert [(name, float(v)) for name, v in penalty._added_metrics_now()] == [
        ("mean", pytest.approx(float(np.mean(X * 3))))
    ]


def test_every_call_inside_one_outer_call_counts():
    shared = Penalty()
    inner = keras.Sequential([shared])

    class Twice(keras.Model):
        def __init__(self):
            super().__init__()
            self.inner = inner

        def call(self, x):
            return self.inner(self.inner(x) * 2)  # a nested model, called twice

    model = Twice()
    for _ in range(2):  # and a second pass starts afresh
        model(X)
        assert losses(model) == pytest.approx([float(np.sum(X)), float(np.sum(X * 2))])
    inner(X)  # the nested model on its own: an outermost call of its own
    assert losses(inner) == pytest.approx([float(np.sum(X))])


def test_a_failed_pass_leaves_the_losses_of_the_last_one():
    model = keras.Sequential([Penalty(), keras.layers.Dense(2, activity_regularizer="l1")])
    model(X)
    before = losses(model), [name for name, _ in model._added_metrics_now()]
    with pytest.raises(ValueError, match="a negative first input"):
        model(-X)  # Penalty adds its loss, then fails
    assert (losses(model), [name for name, _ in model._added_metrics_now()]) == before
    model(X * 2)  # the next call is an outermost one again
    assert len(model.losses) == 2


def test_a_first_pass_that_fails_leaves_nothing_added(monkeypatch):
    from eagerkit.keras.layers import added

    layer = Penalty()
    monkeypatch.setattr(added, "_ANY_ADDED", [False])  # as in a fresh process
    with pytest.raises(ValueError):
        layer(-X)
    assert layer.losses == [] and layer._added_metrics_now() == []
