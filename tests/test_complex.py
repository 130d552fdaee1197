"""Complex tensors: creation, arithmetic, real/imag/abs/angle/conj, devices, and gradients
as TF defines them.

TF's convention (math_grad.py): for a real loss L of a complex z = x + iy, the gradient is
dL/dx + i dL/dy. Every gradient here is checked against central differences of L along
the real and the imaginary axis of each element, at points hypothesis draws.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError, NotFoundError

H = 1e-6


def numerical_gradient(loss, z):
    """dL/dx + i dL/dy for each element of the complex128 array ``z`` (central differences)."""
    grad = np.zeros_like(z)
    for index in np.ndindex(z.shape):
        for direction, unit in ((1.0, 1.0), (1j, 1j)):
            up, down = z.copy(), z.copy()
            up[index] += H * unit
            down[index] -= H * unit
            slope = (loss(up) - loss(down)) / (2 * H)
            grad[index] += slope * direction
    return grad


def tape_gradient(function, z):
    variable = ek.Variable(ek.constant(z, dtype=ek.complex128))
    with ek.GradientTape() as tape:
        loss = function(variable)
    assert loss.dtype == ek.float64
    return tape.gradient(loss, variable).numpy()


def _loss(function):
    return lambda z: float(function(ek.constant(z)).numpy())


LOSSES = {
    "real of a square": lambda z: ek.reduce_sum(ek.math.real(z * z)),
    "imag of a product": lambda z: ek.reduce_sum(ek.math.imag(z * ek.constant([2 - 1j, 0.5j]))),
    "abs": lambda z: ek.reduce_sum(ek.abs(z)),
    "abs of exp": lambda z: ek.reduce_sum(ek.abs(ek.exp(z))),
    "angle": lambda z: ek.reduce_sum(ek.math.angle(z)),
    "conj times z": lambda z: ek.reduce_sum(ek.math.real(ek.math.conj(z) * z)),
    "real of a quotient": lambda z: ek.reduce_sum(ek.math.real(1 / (z + 3))),
    "log-abs of sqrt": lambda z: ek.reduce_sum(ek.math.real(ek.log(ek.sqrt(z * z + 1)))),
    "matmul": lambda z: ek.math.real(
        ek.reduce_sum(ek.matmul(ek.reshape(z, [1, 2]), ek.constant([[1 + 2j], [3 - 1j]])))
    ),
    "from parts": lambda z: ek.reduce_sum(
        ek.abs(ek.complex(ek.math.real(z), 2 * ek.math.imag(z)) ** 2)
    ),
    "cast to real": lambda z: ek.reduce_sum(ek.cast(z * (1 + 1j), ek.float64) ** 2),
    "mean of tanh": lambda z: ek.math.real(ek.reduce_mean(ek.tanh(z))),
}
parts = st.floats(-2.0, 2.0).filter(lambda v: abs(v) > 0.05)


@pytest.mark.parametrize("name", list(LOSSES))
@settings(max_examples=15, deadline=None, derandomize=True)
@given(values=st.lists(parts, min_size=4, max_size=4))
def test_gradients_match_central_differences_on_real_and_imaginary_parts(name, values):
    function = LOSSES[name]
    z = np.array([complex(values[0], values[1]), complex(values[2], values[3])])
    expected = numerical_gradient(_loss(function), z)
    np.testing.assert_allclose(tape_gradient(function, z), expected, rtol=1e-5, atol=1e-6)


def test_the_convention_is_tfs_on_the_simplest_cases():
    z = ek.Variable(ek.constant([1.0 + 2.0j]))
    with ek.GradientTape(persistent=True) as tape:
        re, im = ek.math.real(z), ek.math.imag(z)
        square = ek.math.real(z * z)
    assert tape.gradient(re, z).numpy().tolist() == [1 + 0j]  # TF's RealGrad: complex(g, 0)
    assert tape.gradient(im, z).numpy().tolist() == [1j]  # ImagGrad: complex(0, g)
    assert tape.gradient(square, z).numpy().tolist() == [2 - 4j]  # conj(2z)
    # A complex target's gradient seeds with ones, as TF's: conj(f'(z)) for holomorphic f.
    with ek.GradientTape() as tape:
        cube = z * z * z
    np.testing.assert_allclose(tape.gradient(cube, z).numpy(), [np.conj(3 * (1 + 2j) ** 2)])


def test_output_gradients_of_complex_targets_follow_tfs_convention():
    z = ek.Variable(ek.constant([1.0 + 2.0j, -0.5j]))
    w = ek.constant([2.0 - 1.0j, 0.5 + 0.5j])
    with ek.GradientTape() as tape:
        y = z * 3.0
    # TF: the VJP of y = 3z at upstream g is g * conj(3) = 3 g
    np.testing.assert_allclose(tape.gradient(y, z, output_gradients=w).numpy(), 3 * w.numpy())


def test_second_order_gradients_of_a_real_loss():
    z = ek.Variable(ek.constant([0.3 + 0.4j]))
    with ek.GradientTape() as outer:
        with ek.GradientTape() as inner:
            loss = ek.reduce_sum(ek.math.real(z * z * z))
        g = inner.gradient(loss, z)
        g_loss = ek.reduce_sum(ek.math.real(g))  # d/dx of L = Re(z^3) is Re(3 z^2)
    numeric = numerical_gradient(lambda v: np.real(3 * v[0] ** 2), np.array([0.3 + 0.4j]))
    np.testing.assert_allclose(outer.gradient(g_loss, z).numpy(), numeric, rtol=1e-5)


def test_creation_and_dtypes():
    assert ek.constant(1j).dtype == ek.complex128
    assert ek.constant(np.array([1 + 1j], dtype=np.complex64)).dtype == ek.complex64
    assert ek.constant([1.0, 2.0], dtype=ek.complex64).numpy().tolist() == [1 + 0j, 2 + 0j]
    assert ek.complex64.is_complex and ek.complex64.real_dtype == ek.float32
    assert ek.complex128.real_dtype == ek.float64 and ek.float32.real_dtype == ek.float32
    assert repr(ek.constant(1 + 2j)) == "<ek.Tensor: shape=(), dtype=complex128, numpy=(1+2j)>"
    z = ek.complex(ek.constant([1.0]), ek.constant([np.inf]))
    assert z.numpy()[0].real == 1.0 and z.numpy()[0].imag == np.inf  # not nan + inf j


def test_arithmetic_with_python_numbers_takes_the_tensors_dtype():
    z = ek.constant([1 + 1j, 2 - 1j], dtype=ek.complex64)
    for result in (z * 2, z + 1j, 2.0 - z, z / (1 + 1j), -z, ek.square(z)):
        assert result.dtype == ek.complex64
    np.testing.assert_allclose((z * 1j).numpy(), [-1 + 1j, 1 + 2j])
    assert ek.reduce_sum(z).numpy() == 3 + 0j
    assert ek.equal(z, z).numpy().tolist() == [True, True]


def test_complex_never_mixes_silently_with_reals():
    with pytest.raises(InvalidArgumentError, match="complex128"):
        ek.constant(1j, dtype=ek.float32)
    with pytest.raises(InvalidArgumentError):
        ek.constant([1.0]) * ek.constant([1j])
    with pytest.raises(InvalidArgumentError, match="no kernel for dtype complex128"):
        ek.less(ek.constant(1j), ek.constant(2j))  # no order on complex numbers, as in TF


def test_complex_ops_on_the_simulated_gpu():
    sim = ek.devices.enable_simulated_gpu()
    try:
        with ek.device(sim):
            a = ek.constant([[1 + 1j, 2.0], [0.5j, 1.0]], dtype=ek.complex64)
            product = ek.matmul(a, a)  # cuBLAS has complex kernels, as TF's GPU MatMul
            parts = ek.complex(ek.math.real(a), ek.math.imag(a))
            modulus = ek.abs(a)
        assert product.device.endswith("SIM:0")
        np.testing.assert_allclose(product.numpy(), a.numpy() @ a.numpy(), rtol=1e-6)
        np.testing.assert_array_equal(parts.numpy(), a.numpy())
        np.testing.assert_allclose(modulus.numpy(), np.abs(a.numpy()), rtol=1e-6)
        with ek.device(sim), pytest.raises(NotFoundError, match="No registered 'matmul' kernel"):
            ek.matmul(ek.constant([[1]]), ek.constant([[1]]))  # ints still refused there
    finally:
        ek.devices.disable_simulated_gpu()
