"""Keras 3's CosineDecayRestarts (SGDR) against a step-by-step reference that walks its
periods, in an optimizer, saved in its config, and its errors."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

schedules = ek.keras.optimizers.schedules


def walked(step, rate, first, t_mul, m_mul, alpha):
    """The rate at ``step``, found by walking the periods one by one."""
    start, length, peak = 0.0, float(first), 1.0
    while step >= start + length:
        start, length, peak = start + length, length * t_mul, peak * m_mul
    cosine = 0.5 * peak * (1 + math.cos(math.pi * (step - start) / length))
    return rate * ((1 - alpha) * cosine + alpha)


@settings(max_examples=60, deadline=None)
@given(
    step=st.integers(0, 200),
    first=st.integers(1, 9),
    t_mul=st.sampled_from([1.0, 1.5, 2.0]),
    m_mul=st.sampled_from([1.0, 0.5]),
    alpha=st.sampled_from([0.0, 0.1]),
)
def test_rate_matches_walking_the_periods(step, first, t_mul, m_mul, alpha):
    schedule = schedules.CosineDecayRestarts(0.5, first, t_mul=t_mul, m_mul=m_mul, alpha=alpha)
    got = schedule(step)
    assert got.dtype == ek.float32
    expected = walked(step, 0.5, first, t_mul, m_mul, alpha)
    assert float(got) == pytest.approx(expected, rel=1e-5, abs=1e-6)


def test_arrays_of_steps_the_optimizer_and_the_config():
    schedule = schedules.CosineDecayRestarts(1.0, 2, t_mul=2.0, m_mul=0.5, name="sgdr")
    # periods [0, 2), [2, 6), [6, 14): peaks 1, 0.5, 0.25
    expected = [
        1.0,
        0.5,
        0.5,
        0.25 * (1 + math.cos(math.pi / 4)),
        0.25,
        0.25 * (1 + math.cos(3 * math.pi / 4)),
        0.25,
    ]
    np.testing.assert_allclose(schedule(np.arange(7)).numpy(), expected, rtol=1e-6)
    config = schedule.get_config()
    assert config == {
        "initial_learning_rate": 1.0,
        "first_decay_steps": 2,
        "t_mul": 2.0,
        "m_mul": 0.5,
        "alpha": 0.0,
        "name": "sgdr",
    }
    assert schedules.CosineDecayRestarts.from_config(config).get_config() == config
    optimizer = ek.keras.optimizers.SGD(learning_rate=schedule)
    again = ek.keras.optimizers.SGD.from_config(optimizer.get_config())
    assert float(again._schedule(3)) == pytest.approx(walked(3, 1.0, 2, 2.0, 0.5, 0.0))
    w = ek.Variable([1.0])
    for _ in range(3):  # steps 0, 1, 2 use the rates 1.0, 0.5, 0.5
        optimizer.apply_gradients([(ek.constant([1.0]), w)])
    assert w.numpy().tolist() == pytest.approx([1.0 - 1.0 - 0.5 - 0.5])


def test_errors():
    with pytest.raises(InvalidArgumentError, match="first_decay_steps must be >= 1"):
        schedules.CosineDecayRestarts(0.1, 0)
    with pytest.raises(InvalidArgumentError, match="t_mul must be > 0"):
        schedules.CosineDecayRestarts(0.1, 5, t_mul=0)
    with pytest.raises(InvalidArgumentError, match="m_mul must be a number >= 0"):
        schedules.CosineDecayRestarts(0.1, 5, m_mul=-1.0)
    with pytest.raises(InvalidArgumentError, match="step must be a number of steps"):
        schedules.CosineDecayRestarts(0.1, 5)("three")
