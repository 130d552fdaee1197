"""ek.custom_gradient (reference A9): the seeds' log1pexp, clipping, variables, noise."""

import math

import numpy as np
import pytest

import eagerkit as ek


def naive_log1pexp(x):
    return ek.log(1 + ek.exp(x))


@ek.custom_gradient
def log1pexp(x):
    e = ek.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))

    return ek.log(1 + e), grad


def _first(grads):
    return float(grads[0])


def test_naive_gradient_is_nan_at_100():
    grad = ek.gradients_function(naive_log1pexp)
    assert _first(grad(0.0)) == 0.5
    assert math.isnan(_first(grad(100.0)))


def test_custom_gradient_is_stable_at_100():
    grad = ek.gradients_function(log1pexp)
    assert _first(grad(0.0)) == 0.5
    assert _first(grad(100.0)) == 1.0
    # The forward value still overflows in float32: only the backward pass was fixed.
    assert float(log1pexp(100.0)) == math.inf


def test_second_order_through_a_custom_gradient():
    d = ek.gradients_function(log1pexp)
    dd = ek.gradients_function(lambda x: d(x)[0])
    assert _first(d(1.0)) == pytest.approx(0.7311, abs=1e-4)
    assert _first(dd(1.0)) == pytest.approx(0.1966, abs=1e-4)


@ek.custom_gradient
def clip_gradient_by_norm(x, norm):
    y = ek.identity(x)

    def grad_fn(dresult):
        return [ek.clip_by_norm(dresult, norm), None]  # None: no gradient for norm

    return y, grad_fn


def test_clip_gradient_by_norm():
    x, norm = ek.constant([3.0, 4.0]), ek.constant(1.0)
    with ek.GradientTape() as tape:
        tape.watch([x, norm])
        y = clip_gradient_by_norm(x, norm) * 10.0
    grad_x, grad_norm = tape.gradient(y, [x, norm])
    # dy/dx would be [10, 10] (norm 14.1); clipped to norm 1.
    np.testing.assert_allclose(grad_x.numpy(), [2**-0.5, 2**-0.5], rtol=1e-6)
    assert grad_norm is None
    np.testing.assert_array_equal(y.numpy(), [30.0, 40.0])


def test_tf2_clip_gradients_example():
    @ek.custom_gradient
    def clip_gradients(y):
        def backward(dy):
            return ek.clip_by_norm(dy, 0.5)

        return y, backward

    v = ek.Variable(2.0)
    with ek.GradientTape() as tape:
        output = clip_gradients(v * v)
    assert float(tape.gradient(output, v)) == 2.0  # 2v * clip(1, 0.5)


def test_the_variables_form():
    w = ek.Variable(2.0)

    @ek.custom_gradient
    def scaled(x):
        def grad(dy, variables=None):
            assert variables == [w] or variables[0] is w
            return dy * w * 10.0, [dy * x * 100.0]

        return x * w, grad

    x = ek.constant(3.0)
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = scaled(x)
    grad_x, grad_w = tape.gradient(y, [x, w])
    assert (float(y), float(grad_x), float(grad_w)) == (6.0, 20.0, 300.0)


def test_noise_in_the_backward_pass():
    @ek.custom_gradient
    def noisy_identity(x):
        def grad(dy):
            return dy + ek.random_normal(ek.shape(dy), stddev=0.1)

        return ek.identity(x), grad

    ek.set_random_seed(1)
    x = ek.constant(np.ones(1000, np.float32))
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = noisy_identity(x)
    grad = tape.gradient(y, x).numpy()
    np.testing.assert_array_equal(y.numpy(), x.numpy())  # forward untouched
    assert abs(grad.mean() - 1.0) < 0.02 and 0.08 < grad.std() < 0.12


def test_grad_fn_must_return_one_gradient_per_input():
    @ek.custom_gradient
    def broken(x, y):
        return x * y, lambda dy: [dy]

    with pytest.raises(ValueError, match="grad_fn returned 1 gradients but the function has 2"):
        ek.gradients_function(broken)(1.0, 2.0)


def test_f_must_return_a_tensor_and_grad_fn():
    @ek.custom_gradient
    def broken(x):
        return 3.0, lambda dy: dy

    with pytest.raises(TypeError, match="f must return \\(tensor, grad_fn\\)"):
        broken(1.0)


def test_custom_gradient_runs_without_a_tape():
    assert float(log1pexp(0.0)) == pytest.approx(math.log(2.0))


def test_a_variable_passed_as_an_argument_gets_its_gradient_as_an_argument():
    v = ek.Variable(3.0)

    @ek.custom_gradient
    def doubled(x):
        def grad(dy):  # no variables= parameter: v is an argument here, not a capture
            return dy * 2.0

        return x * 2.0, grad

    with ek.GradientTape() as tape:
        y = doubled(v)
    assert float(tape.gradient(y, v)) == 2.0


def test_a_persistent_tape_asks_grad_fn_again_for_each_gradient_call():
    # The same output_gradients tensor twice: grad_fn still runs twice (no stale answer).
    calls = []

    @ek.custom_gradient
    def counted(x):
        def grad(dy):
            calls.append(dy)
            return dy * float(len(calls))

        return x * 1.0, grad

    x = ek.constant(2.0)
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = counted(x)
    seed = ek.constant(1.0)
    assert float(tape.gradient(y, x, output_gradients=seed)) == 1.0
    assert float(tape.gradient(y, x, output_gradients=seed)) == 2.0
    assert len(calls) == 2
