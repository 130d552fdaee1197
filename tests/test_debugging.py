"""The NaN guard: the first op to make NaN/Inf raises, naming the op and the user's line."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit import recording
from eagerkit.errors import InvalidArgumentError


@pytest.fixture
def guard():
    ek.debugging.enable_check_numerics()
    yield
    ek.debugging.disable_check_numerics()


def compute_log(x):
    return ek.log(x)  # the line the error must point at


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_names_the_op_and_the_user_line(guard):
    x = ek.constant([1.0, 0.0, 2.0])
    y = ek.exp(x)  # fine: finite
    with pytest.raises(InvalidArgumentError) as caught:
        compute_log(x)
    message = str(caught.value)
    assert caught.value.op == "log"
    assert "op 'log' produced Inf (output float32 shape (3,); inputs: float32[3])" in message
    assert f"{__file__}:" in message and "in compute_log" in message
    assert "return ek.log(x)  # the line the error must point at" in message
    assert y.shape == (3,)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_catches_nan_inside_a_gradient_computation(guard):
    w = ek.Variable([1.0, -1.0])
    with pytest.raises(InvalidArgumentError, match="op 'sqrt' produced NaN"):
        with ek.GradientTape() as tape:
            loss = ek.reduce_sum(ek.sqrt(w))
        tape.gradient(loss, w)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_first_bad_op_wins_and_python_operators_count(guard):
    zero = ek.constant(0.0)
    with pytest.raises(InvalidArgumentError, match="op 'truediv' produced NaN"):
        _ = zero / zero


def test_integer_ops_and_finite_values_pass(guard):
    assert int(ek.constant(3) * 2) == 6
    assert float(ek.reduce_sum(ek.constant([1.0, 2.0]))) == 3.0


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_disable_removes_the_callback():
    before = list(recording.execution_callbacks)
    ek.debugging.enable_check_numerics()
    ek.debugging.enable_check_numerics()  # idempotent
    assert len(recording.execution_callbacks) == len(before) + 1
    ek.debugging.disable_check_numerics()
    assert recording.execution_callbacks == before
    assert np.isinf(ek.log(ek.constant(0.0)).numpy())


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_check_numerics_op():
    t = ek.constant([1.0, 2.0])
    assert ek.debugging.check_numerics(t, "ok") is t
    with pytest.raises(InvalidArgumentError, match="^bad weights : Tensor had NaN and Inf values$"):
        ek.debugging.check_numerics(ek.constant([np.nan, np.inf, 1.0]), "bad weights")
