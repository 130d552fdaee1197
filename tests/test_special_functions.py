"""ek.math.lgamma, digamma, polygamma and erfinv against scipy, with TF's gradients and edges.

(Central-difference checks to second order live in the op census, tests/op_cases_prims.py.)
"""

import numpy as np
import pytest
import scipy.special
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

SETTINGS = settings(max_examples=25, deadline=None, database=None)
# name -> (eagerkit function, scipy function, where the inputs come from)
FUNCTIONS = {
    "lgamma": (ek.math.lgamma, scipy.special.gammaln, st.floats(-20, 50)),
    "digamma": (ek.math.digamma, scipy.special.psi, st.floats(-20, 50)),
    "erfinv": (ek.math.erfinv, scipy.special.erfinv, st.floats(-1, 1)),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@SETTINGS
@given(data=st.data())
def test_special_functions_match_scipy(name, dtype, data):
    function, reference, elements = FUNCTIONS[name]
    x = data.draw(hnp.arrays(dtype, hnp.array_shapes(min_dims=0, max_dims=2), elements=elements))
    result = function(x)
    assert result.dtype == ek.as_dtype(dtype)
    np.testing.assert_allclose(result.numpy(), reference(x), rtol=1e-5, atol=1e-6)


@SETTINGS
@given(st.integers(0, 4), hnp.arrays(np.float64, 3, elements=st.floats(0.1, 20)))
def test_polygamma_matches_scipy_for_every_whole_order(order, x):
    result = ek.math.polygamma(float(order), x)
    np.testing.assert_allclose(result.numpy(), scipy.special.polygamma(order, x), rtol=1e-10)


def test_polygamma_of_an_order_that_is_not_whole_is_nan_as_in_tf():
    assert np.isnan(ek.math.polygamma([1.5, -1.0], [2.0, 2.0]).numpy()).all()


def _gradients(function, x, order):
    """The first ``order`` derivatives of ``function`` at ``x`` (float64), by tapes."""
    x = ek.Variable(ek.constant(x, dtype=ek.float64))
    tapes = [ek.GradientTape(persistent=True) for _ in range(order)]
    for tape in tapes:
        tape.__enter__()
    y = function(x)
    found = []
    for tape in reversed(tapes):
        tape.__exit__(None, None, None)
        y = tape.gradient(y, x)
        found.append(y.numpy())
    return found


def test_each_derivative_is_the_next_function_of_the_family():
    x = np.array([0.7, 2.5, 9.0])
    first, second, third = _gradients(ek.math.lgamma, x, 3)
    np.testing.assert_allclose(first, scipy.special.psi(x), rtol=1e-12)
    np.testing.assert_allclose(second, scipy.special.polygamma(1, x), rtol=1e-12)
    np.testing.assert_allclose(third, scipy.special.polygamma(2, x), rtol=1e-12)


def test_erfinv_gradient_is_tfs_formula_and_infinite_at_the_edges():
    (grad,) = _gradients(ek.math.erfinv, [0.0, 0.5, 1.0, -1.0], 1)
    inner = scipy.special.erfinv(np.array([0.0, 0.5]))
    np.testing.assert_allclose(grad[:2], np.sqrt(np.pi) / 2 * np.exp(inner**2), rtol=1e-12)
    np.testing.assert_array_equal(grad[2:], [np.inf, np.inf])


def test_poles_give_inf_as_in_tf():
    np.testing.assert_array_equal(ek.math.lgamma([0.0, -2.0]).numpy(), [np.inf, np.inf])
    assert np.isinf(ek.math.erfinv([1.0, -1.0]).numpy()).all()


def test_they_run_on_the_simulated_gpu_with_the_cpus_answers():
    ek.devices.enable_simulated_gpu()
    x = np.array([0.3, 1.7, 4.0])
    with ek.device("/sim:0"):
        tensor = ek.constant(x)
        values = [ek.math.lgamma(tensor), ek.math.digamma(tensor), ek.math.polygamma(1.0, tensor)]
        values.append(ek.math.erfinv(tensor / 5.0))
    assert all(v.device.endswith("SIM:0") for v in values)
    expected = [
        scipy.special.gammaln(x),
        scipy.special.psi(x),
        scipy.special.polygamma(1, x),
        scipy.special.erfinv(x / 5),
    ]
    for value, reference in zip(values, expected, strict=True):
        np.testing.assert_allclose(value.numpy(), reference, rtol=1e-12)


@pytest.mark.parametrize("function", [ek.math.lgamma, ek.math.erfinv, ek.math.digamma])
def test_integer_inputs_are_refused_naming_the_op_and_dtype(function):
    with pytest.raises(InvalidArgumentError, match=r"(lgamma|erfinv|digamma).*int32"):
        function(ek.constant([1, 2]))
