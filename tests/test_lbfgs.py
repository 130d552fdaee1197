"""L-BFGS: exact on a quadratic, converges on Rosenbrock, several variables, other devices,
and errors that leave the variables at the last accepted point."""

import itertools

import numpy as np
import pytest

import eagerkit as ek

SIM = "/job:localhost/replica:0/task:0/device:SIM:0"  # TF's full name


def test_lbfgs_solves_a_quadratic_exactly():
    rng = np.random.default_rng(1)
    q = rng.normal(size=(5, 5))
    a = q @ q.T + 5 * np.eye(5)
    b = rng.normal(size=5)
    x = ek.Variable(np.zeros(5))
    a_t, b_t = ek.constant(a), ek.constant(b)

    def loss():
        return 0.5 * ek.reduce_sum(x * ek.reshape(ek.matmul(a_t, ek.reshape(x, [5, 1])), [5])) - (
            ek.reduce_sum(b_t * x)
        )

    result = ek.train.lbfgs_minimize(loss, [x], max_iterations=50, tolerance=1e-9)
    assert result.converged and result.gradient_norm <= 1e-9
    np.testing.assert_allclose(x.numpy(), np.linalg.solve(a, b), rtol=1e-7)
    assert result.iterations <= 20 and len(result.losses) == result.iterations


def test_lbfgs_finds_the_rosenbrock_minimum():
    xy = ek.Variable([-1.2, 1.0], dtype=ek.float64)

    def rosenbrock():
        x, y = xy[0], xy[1]
        return (1 - x) ** 2 + 100 * (y - x * x) ** 2

    result = ek.train.lbfgs_minimize(rosenbrock, [xy], max_iterations=200, history_size=5)
    assert result.converged, result
    np.testing.assert_allclose(xy.numpy(), [1.0, 1.0], atol=1e-5)
    assert result.loss < 1e-10
    assert all(b <= a for a, b in itertools.pairwise(result.losses))  # never goes uphill


def test_lbfgs_over_several_float32_variables():
    w, b = ek.Variable([0.0, 0.0]), ek.Variable(0.0)
    xs = ek.constant([[1.0, 2.0], [2.0, -1.0], [0.5, 0.5], [3.0, 1.0]])
    ys = ek.matmul(xs, ek.constant([[2.0], [-3.0]]))[:, 0] + 1.0
    loss = lambda: ek.reduce_mean((ek.matmul(xs, ek.reshape(w, [2, 1]))[:, 0] + b - ys) ** 2)  # noqa: E731
    result = ek.train.lbfgs_minimize(loss, [w, b], tolerance=1e-4)
    assert result.converged
    np.testing.assert_allclose(w.numpy(), [2.0, -3.0], atol=1e-3)
    assert float(b) == pytest.approx(1.0, abs=1e-3) and w.dtype == ek.float32


def test_a_huge_history_size_is_no_error():  # the deque's maxlen overflowed a C ssize_t
    x = ek.Variable([1.0])
    result = ek.train.lbfgs_minimize(lambda: ek.reduce_sum((x - 3.0) ** 2), [x], history_size=2**63)
    assert result.converged and float(x[0]) == pytest.approx(3.0, abs=1e-4)


def test_lbfgs_errors_leave_the_variables_where_they_started():
    x = ek.Variable([1.0, 1.0])
    with pytest.raises(ek.errors.InvalidArgumentError, match="must return a scalar"):
        ek.train.lbfgs_minimize(lambda: x * 2, [x])
    np.testing.assert_array_equal(x.numpy(), [1.0, 1.0])
    with pytest.raises(ValueError, match="does not depend on any of the variables"):
        ek.train.lbfgs_minimize(lambda: ek.constant(1.0), [x])
    with pytest.raises(
        ek.errors.InvalidArgumentError,
        match=r"variables must be float ek.Variables, got Variable int32\[\] among variables=",
    ):
        ek.train.lbfgs_minimize(lambda: x[0], [ek.Variable(1)])
    with pytest.raises(ek.errors.InvalidArgumentError, match="no variables to optimize .*pass the"):
        ek.train.lbfgs_minimize(lambda: x[0], [])
    with pytest.raises(ek.errors.InvalidArgumentError, match="loss_fn returned None; make it"):
        ek.train.lbfgs_minimize(lambda: None, [x])
    np.testing.assert_array_equal(x.numpy(), [1.0, 1.0])

    calls = []

    def flaky():
        calls.append(1)
        if len(calls) > 2:  # the initial point, one accepted step, then failure
            raise RuntimeError("data went away")
        return ek.reduce_sum((x - 3.0) ** 2)

    with pytest.raises(RuntimeError, match="data went away"):
        ek.train.lbfgs_minimize(flaky, [x])
    # One step was accepted (to 1 + 4 / sqrt(32)) before the loss raised: a failed call
    # changes nothing, so x is back where it started, not at that intermediate iterate.
    assert len(calls) == 3
    np.testing.assert_array_equal(x.numpy(), [1.0, 1.0])


def test_lbfgs_on_the_simulated_gpu():
    ek.devices.enable_simulated_gpu()
    with ek.device("/sim:0"):
        x = ek.Variable([0.0, 0.0], dtype=ek.float64)
        target = ek.constant([3.0, -1.0], dtype=ek.float64)
    result = ek.train.lbfgs_minimize(lambda: ek.reduce_sum((x - target) ** 2), [x])
    assert result.converged and x.device == SIM
    np.testing.assert_allclose(x.numpy(), [3.0, -1.0], atol=1e-6)
