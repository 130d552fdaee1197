"""Keras' optimizer arguments beyond the update rule: clipnorm, clipvalue, global_clipnorm,
Adam's amsgrad, minimize(loss, var_list, tape=), learning-rate schedules,
and ek.clip_by_global_norm / ek.linalg.global_norm, against Keras' formulas."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

schedules = ek.keras.optimizers.schedules
finite = st.floats(-100, 100, width=32)


def step_once(optimizer, grads, start=0.0):
    variables = [ek.Variable(np.full(np.shape(g), start, np.float32)) for g in grads]
    optimizer.apply_gradients([(ek.constant(g), v) for g, v in zip(grads, variables, strict=True)])
    return [v.numpy() for v in variables]


@settings(max_examples=60, deadline=None)
@given(
    grads=st.lists(
        hnp.arrays(np.float32, st.integers(1, 4), elements=finite), min_size=1, max_size=3
    ),
    limit=st.floats(0.1, 10),
)
def test_clipping_matches_keras_formulas(grads, limit):
    norms = [float(np.sqrt(np.sum(np.float64(g) ** 2))) for g in grads]
    total = math.sqrt(sum(n * n for n in norms))
    by_norm = step_once(ek.keras.optimizers.SGD(1.0, clipnorm=limit), grads)
    by_global = step_once(ek.keras.optimizers.SGD(1.0, global_clipnorm=limit), grads)
    by_value = step_once(ek.keras.optimizers.Adagrad(1.0, clipvalue=limit), grads)
    for g, norm, a, b, c in zip(grads, norms, by_norm, by_global, by_value, strict=True):
        np.testing.assert_allclose(a, -g * limit / max(norm, limit), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(b, -g * limit / max(total, limit), rtol=1e-5, atol=1e-6)
        clipped = np.clip(g, -limit, limit)  # then Adagrad's rule on the clipped gradient
        accum = 0.1 + clipped * clipped
        np.testing.assert_allclose(c, -clipped / (np.sqrt(accum) + 1e-7), rtol=1e-5, atol=1e-6)


def test_clip_by_global_norm_and_global_norm():
    grads = [ek.constant([3.0]), None, ek.constant([[4.0]])]
    clipped, norm = ek.clip_by_global_norm(grads, 2.5)
    assert float(norm) == 5.0 and clipped[1] is None
    assert clipped[0].numpy().tolist() == [1.5] and clipped[2].numpy().tolist() == [[2.0]]
    kept, _ = ek.clip_by_global_norm(grads, 10.0)
    assert kept[2].numpy().tolist() == [[4.0]]  # short enough: unchanged
    assert float(ek.linalg.global_norm(grads)) == 5.0
    used, given_norm = ek.clip_by_global_norm(grads, 1.0, use_norm=10.0)
    assert used[0].numpy().tolist() == [0.30000001192092896] and float(given_norm) == 10.0
    with pytest.raises(TypeError, match="t_list must be a list or tuple of tensors"):
        ek.clip_by_global_norm(ek.constant([3.0]), 1.0)
    with pytest.raises(InvalidArgumentError, match="global_norm: t_list holds no tensor"):
        ek.linalg.global_norm([None])


def test_clipnorm_and_global_clipnorm_exclude_each_other_and_are_checked():
    with pytest.raises(InvalidArgumentError, match="give clipnorm .* or global_clipnorm"):
        ek.keras.optimizers.Adam(clipnorm=1.0, global_clipnorm=1.0)
    with pytest.raises(InvalidArgumentError, match="clipvalue must be a number >= 0"):
        ek.keras.optimizers.RMSprop(clipvalue=-1.0)


def test_adam_amsgrad_divides_by_the_largest_v_so_far():
    grads = [np.float32([1.0, -2.0]), np.float32([0.1, 0.1]), np.float32([3.0, 0.5])]
    w = ek.Variable([1.0, 1.0])
    opt = ek.keras.optimizers.Adam(learning_rate=0.1, amsgrad=True)
    value, m, v, vhat = np.float64([1.0, 1.0]), np.zeros(2), np.zeros(2), np.zeros(2)
    for step, g in enumerate(grads, start=1):  # Keras' AMSGrad, by hand
        opt.apply_gradients([(ek.constant(g), w)])
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        vhat = np.maximum(vhat, v)
        alpha = 0.1 * math.sqrt(1 - 0.999**step) / (1 - 0.9**step)
        value = value - alpha * m / (np.sqrt(vhat) + 1e-7)
        np.testing.assert_allclose(w.numpy(), value, rtol=1e-5)
    np.testing.assert_allclose(opt.get_slot(w, "vhat").numpy(), vhat, rtol=1e-5)
    plain = ek.keras.optimizers.Adam(learning_rate=0.1)
    assert plain.get_slot_names() == ["m", "v"] and opt.get_slot_names() == ["m", "v", "vhat"]


def test_minimize_with_a_loss_tensor_and_its_tape():
    w = ek.Variable([1.0, 2.0])
    opt = ek.keras.optimizers.SGD(learning_rate=0.5)
    with ek.GradientTape() as tape:
        loss = ek.reduce_sum(w * w)
    assert float(opt.minimize(loss, [w], tape=tape)) == 5.0
    assert w.numpy().tolist() == [0.0, 0.0] and int(opt.iterations) == 1
    with ek.GradientTape() as tape:
        loss = ek.reduce_sum(w + 1.0)
    opt.minimize(loss, lambda: [w], tape=tape)  # var_list may be a callable, as in Keras
    assert w.numpy().tolist() == [-0.5, -0.5]
    with pytest.raises(InvalidArgumentError, match="pass the GradientTape that recorded it"):
        opt.minimize(loss, [w], tape="tape")


@pytest.mark.parametrize(
    ("schedule", "formula"),
    [
        (schedules.ExponentialDecay(0.1, 10, 0.5), lambda s: 0.1 * 0.5 ** (s / 10)),
        (
            schedules.ExponentialDecay(0.1, 10, 0.5, staircase=True),
            lambda s: 0.1 * 0.5 ** (s // 10),
        ),
        (schedules.InverseTimeDecay(0.5, 4, 0.5), lambda s: 0.5 / (1 + 0.5 * s / 4)),
        (
            schedules.PiecewiseConstantDecay([3, 6], [1.0, 0.5, 0.1]),
            lambda s: 1.0 if s <= 3 else 0.5 if s <= 6 else 0.1,
        ),
        (
            schedules.PolynomialDecay(1.0, 8, end_learning_rate=0.1, power=2.0),
            lambda s: 0.9 * (1 - min(s, 8) / 8) ** 2 + 0.1,
        ),
        (
            schedules.PolynomialDecay(1.0, 4, end_learning_rate=0.0, cycle=True),
            lambda s: 1 - s / (4 * max(1, math.ceil(s / 4))),
        ),
        (
            schedules.CosineDecay(1.0, 8, alpha=0.2),
            lambda s: 0.8 * 0.5 * (1 + math.cos(math.pi * min(s, 8) / 8)) + 0.2,
        ),
    ],
    ids=["exponential", "staircase", "inverse_time", "piecewise", "polynomial", "cycle", "cosine"],
)
def test_schedules_follow_keras_formulas_and_drive_the_optimizer(schedule, formula):
    for step in range(12):
        rate = schedule(step)
        assert rate.dtype == ek.float32
        np.testing.assert_allclose(float(rate), formula(step), rtol=1e-6, atol=1e-7)
    assert type(schedule).from_config(schedule.get_config()).get_config() == schedule.get_config()
    w = ek.Variable(0.0)
    opt = ek.keras.optimizers.SGD(learning_rate=schedule)
    expected = 0.0
    for step in range(5):  # the step's rate is the schedule at the steps taken so far
        opt.apply_gradients([(ek.constant(1.0), w)])
        expected -= float(np.float32(formula(step)))
        np.testing.assert_allclose(float(w), expected, rtol=1e-6)


def test_schedule_arguments_are_checked():
    with pytest.raises(InvalidArgumentError, match="values must have one more entry"):
        schedules.PiecewiseConstantDecay([1, 2], [1.0, 0.5])
    with pytest.raises(InvalidArgumentError, match="decay_steps must be >= 1"):
        schedules.ExponentialDecay(0.1, 0, 0.5)
    with pytest.raises(InvalidArgumentError, match="step must be a number of steps"):
        schedules.CosineDecay(0.1, 10)(ek.constant(["1", "2"]))


def test_learning_rate_reads_the_rate_now_as_keras_3_does():
    """optimizer.learning_rate is the rate the next step takes: with a schedule, the
    schedule's value at the steps taken (Keras 3's _get_current_learning_rate), never a
    function; a number in a schedule's place is refused (TypeError) and changes nothing."""
    decay = ek.keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=2, decay_rate=0.5)
    optimizer = ek.keras.optimizers.SGD(learning_rate=decay)
    w = ek.Variable(1.0)
    for steps in range(4):
        assert optimizer.learning_rate == pytest.approx(0.1 * 0.5 ** (steps / 2))
        before = float(w)
        optimizer.apply_gradients([(ek.constant(1.0), w)])
        assert before - float(w) == pytest.approx(0.1 * 0.5 ** (steps / 2))  # the rate read
    with pytest.raises(TypeError, match="not settable"):
        optimizer.learning_rate = 0.5
    assert optimizer.learning_rate == pytest.approx(0.025)  # the schedule still rules
    assert optimizer.get_config()["learning_rate"]["class_name"] == "ExponentialDecay"
    optimizer.learning_rate = ek.keras.optimizers.schedules.ExponentialDecay(1.0, 4, 0.5)
    assert optimizer.learning_rate == pytest.approx(0.5)  # a new schedule, at 4 steps


def test_a_number_learning_rate_is_set_checked_and_a_function_is_called():
    optimizer = ek.keras.optimizers.Adam(learning_rate=0.01)
    optimizer.learning_rate = 0.5
    assert optimizer.learning_rate == 0.5
    with pytest.raises(ek.errors.InvalidArgumentError, match="learning_rate must be a number"):
        optimizer.learning_rate = -1.0
    assert optimizer.learning_rate == 0.5  # the refused value changed nothing
    called = ek.keras.optimizers.SGD(learning_rate=lambda: 0.25)
    assert called.learning_rate == 0.25
    with pytest.raises(ek.errors.InvalidArgumentError, match="learning_rate is a function"):
        called.get_config()
