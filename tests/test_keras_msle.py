"""Keras' mean squared logarithmic error (loss function, loss class, metric) against its
formula in numpy, with its gradient and its errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

losses = ek.keras.losses
EPS = 1e-7


def msle_numpy(y_true, y_pred):
    first = np.log(np.maximum(y_pred, EPS) + 1.0)
    second = np.log(np.maximum(y_true, EPS) + 1.0)
    return ((first - second) ** 2).mean(axis=-1)


PAIRS = st.lists(st.integers(-4, 40), min_size=12, max_size=12).map(
    lambda v: np.array(v, dtype=np.float32).reshape(4, 3) / 4
)


@settings(max_examples=40, deadline=None)
@given(y_true=PAIRS, y_pred=PAIRS)
def test_function_class_and_metric_follow_the_formula(y_true, y_pred):
    expected = msle_numpy(y_true.astype(np.float64), y_pred.astype(np.float64))
    np.testing.assert_allclose(
        losses.mean_squared_logarithmic_error(y_true, y_pred).numpy(),
        expected,
        rtol=1e-5,
        atol=1e-6,
    )
    assert losses.msle is losses.MSLE is losses.mean_squared_logarithmic_error
    weights = np.array([0.5, 2.0, 0.0, 1.0], dtype=np.float32)
    loss = losses.MeanSquaredLogarithmicError()(y_true, y_pred, sample_weight=weights)
    weighted = (expected * weights).sum() / expected.size  # sum over batch size
    np.testing.assert_allclose(float(loss), weighted, rtol=1e-5, atol=1e-6)
    metric = ek.keras.metrics.MeanSquaredLogarithmicError()
    metric.update_state(y_true, y_pred)
    np.testing.assert_allclose(float(metric.result()), expected.mean(), rtol=1e-5, atol=1e-6)


def test_gradient_matches_the_derivative():
    y_true = np.array([[0.0, 3.0, -1.0]], dtype=np.float32)
    y_pred = ek.Variable([[1.0, 1.0, 2.0]])
    with ek.GradientTape() as tape:
        loss = losses.mean_squared_logarithmic_error(y_true, y_pred)
    p = y_pred.numpy()
    t = np.maximum(y_true, EPS)
    expected = 2 * (np.log1p(p) - np.log1p(t)) / (1 + p) / 3
    np.testing.assert_allclose(tape.gradient(loss, y_pred).numpy(), expected, rtol=1e-5)
    below = ek.Variable([[-2.0]])  # clipped at eps: no gradient below it
    with ek.GradientTape() as tape:
        loss = losses.msle([[1.0]], below)
    assert tape.gradient(loss, below).numpy().tolist() == [[0.0]]


def test_in_compile_config_and_errors():
    model = ek.keras.Sequential([ek.keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer="sgd", loss="msle", metrics=["mean_squared_logarithmic_error"])
    x = np.array([[1.0], [3.0]], dtype=np.float32)
    result = model.evaluate(x, x * 0, verbose=0, return_dict=True)
    expected = msle_numpy(np.zeros((2, 1)), x).mean()
    assert result["loss"] == pytest.approx(expected, rel=1e-5)
    assert result["mean_squared_logarithmic_error"] == pytest.approx(expected, rel=1e-5)
    loss = losses.MeanSquaredLogarithmicError(name="msle_loss")
    clone = losses.MeanSquaredLogarithmicError.from_config(loss.get_config())
    assert clone.get_config() == loss.get_config() and clone.name == "msle_loss"
    with pytest.raises(InvalidArgumentError, match="mean_squared_logarithmic_error"):
        losses.mean_squared_logarithmic_error([[1.0, 2.0]], [[1.0, 2.0, 3.0]])
