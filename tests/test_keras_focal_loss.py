"""Keras 3's binary focal cross-entropy (function and class) against its formula in numpy:
gamma, class balancing, logits, label smoothing, axis, gradient, config and errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

losses = ek.keras.losses
EPS = 1e-7


def focal_numpy(y, p, balancing, alpha, gamma, smoothing, axis=-1):
    y = y * (1 - smoothing) + 0.5 * smoothing
    clipped = np.clip(p, EPS, 1 - EPS)
    bce = -(y * np.log(clipped) + (1 - y) * np.log(1 - clipped))
    p_t = y * p + (1 - y) * (1 - p)
    focal = (1 - p_t) ** gamma * bce
    if balancing:
        focal = (y * alpha + (1 - y) * (1 - alpha)) * focal
    return focal.mean(axis=axis)


LABELS = st.lists(st.sampled_from([0.0, 1.0]), min_size=6, max_size=6)
PROBS = st.lists(st.integers(0, 20), min_size=6, max_size=6)


@settings(max_examples=50, deadline=None)
@given(
    labels=LABELS,
    probs=PROBS,
    balancing=st.booleans(),
    alpha=st.sampled_from([0.25, 0.5, 0.9]),
    gamma=st.sampled_from([0.0, 1.0, 2.0, 3.5]),
    smoothing=st.sampled_from([0.0, 0.1]),
    axis=st.sampled_from([-1, 0]),
)
def test_function_matches_keras_formula(labels, probs, balancing, alpha, gamma, smoothing, axis):
    y = np.array(labels).reshape(2, 3)
    p = np.array(probs).reshape(2, 3) / 20
    got = losses.binary_focal_crossentropy(
        y, p, balancing, alpha, gamma, label_smoothing=smoothing, axis=axis
    )
    expected = focal_numpy(y, p, balancing, alpha, gamma, smoothing, axis)
    np.testing.assert_allclose(got.numpy(), expected, rtol=2e-5, atol=1e-6)


def test_logits_class_and_gamma_zero_is_binary_crossentropy():
    y = np.array([[0.0, 1.0, 1.0]], dtype=np.float32)
    logits = np.array([[-1.0, 2.0, 0.3]], dtype=np.float32)
    p = 1 / (1 + np.exp(-logits.astype(np.float64)))
    got = losses.binary_focal_crossentropy(y, logits, from_logits=True)
    np.testing.assert_allclose(got.numpy(), focal_numpy(y, p, False, 0.25, 2.0, 0.0), rtol=1e-5)
    plain = losses.BinaryFocalCrossentropy(gamma=0.0)(y, p.astype(np.float32))
    np.testing.assert_allclose(float(plain), float(losses.BinaryCrossentropy()(y, p)), rtol=1e-5)


def test_gradient_and_config():
    p = ek.Variable([[0.2, 0.7]])
    y = np.array([[1.0, 0.0]], dtype=np.float32)
    with ek.GradientTape() as tape:
        loss = losses.BinaryFocalCrossentropy(gamma=2.0)(y, p)
    q = np.array([[0.2, 0.7]])
    # per value: f(p) = (1 - p_t)^2 * -log(p_t); d/dp, then / 2 for the mean
    p_t = np.where(y == 1, q, 1 - q)
    sign = np.where(y == 1, 1.0, -1.0)
    d_pt = -2 * (1 - p_t) * -np.log(p_t) + (1 - p_t) ** 2 * (-1 / p_t)
    np.testing.assert_allclose(tape.gradient(loss, p).numpy(), d_pt * sign / 2, rtol=1e-5)
    loss = losses.BinaryFocalCrossentropy(apply_class_balancing=True, alpha=0.4, name="focal")
    config = loss.get_config()
    assert config["alpha"] == 0.4 and config["apply_class_balancing"] is True
    clone = losses.BinaryFocalCrossentropy.from_config(config)
    assert clone.get_config() == config


def test_in_fit_and_errors():
    model = ek.keras.Sequential([ek.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer="sgd", loss=losses.BinaryFocalCrossentropy())
    history = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2
    with pytest.raises(InvalidArgumentError, match="gamma must be a number >= 0"):
        losses.BinaryFocalCrossentropy(gamma=-1.0)
    with pytest.raises(
        InvalidArgumentError, match=r"alpha and label_smoothing must be in \[0, 1\]"
    ):
        losses.binary_focal_crossentropy([[1.0]], [[0.5]], alpha=2.0)
    with pytest.raises(InvalidArgumentError, match="binary_focal_crossentropy"):
        losses.binary_focal_crossentropy([[1.0, 0.0]], [[0.5, 0.5, 0.5]])
