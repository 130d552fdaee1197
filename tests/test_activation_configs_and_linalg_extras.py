"""ek.keras.activations.hard_sigmoid, serialize and deserialize (Keras 3), and
ek.linalg.adjoint, logdet and triangular_solve and ek.math.lbeta (TF 2), against their
formulas, with gradients and errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

activations = ek.keras.activations


@settings(max_examples=40, deadline=None)
@given(values=st.lists(st.integers(-50, 50), min_size=1, max_size=8))
def test_hard_sigmoid_is_keras_3s_formula(values):
    x = np.array(values, dtype=np.float32) / 8
    expected = np.clip(x / 6 + 0.5, 0.0, 1.0)
    np.testing.assert_allclose(activations.hard_sigmoid(x).numpy(), expected, rtol=1e-6, atol=1e-7)


def test_hard_sigmoid_gradient_layers_saving_and_errors(tmp_path):
    x = ek.Variable([-4.0, -1.0, 2.0, 5.0])
    with ek.GradientTape() as tape:
        y = ek.reduce_sum(activations.hard_sigmoid(x))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [0.0, 1 / 6, 1 / 6, 0.0], rtol=1e-6)
    layer = ek.keras.layers.Dense(1, activation="hard_sigmoid", kernel_initializer="ones")
    assert layer(ek.constant([[3.0]])).numpy().tolist() == [[1.0]]
    assert layer.get_config()["activation"] == "hard_sigmoid"
    assert ek.keras.layers.Dense.from_config(layer.get_config()).activation is (
        activations.hard_sigmoid
    )
    model = ek.keras.Sequential([ek.keras.Input([1]), layer])
    path = str(tmp_path / "model.keras")
    model.save(path)
    loaded = ek.keras.models.load_model(path)
    assert loaded.layers[-1].activation is activations.hard_sigmoid
    x = np.array([[-1.0], [0.5]], dtype=np.float32)
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
    with pytest.raises(InvalidArgumentError, match="hard_sigmoid: x must be floats, got int32"):
        activations.hard_sigmoid([1, 2])


def test_serialize_and_deserialize_round_trip_every_name():
    names = [
        name for name in activations.__all__ if name not in ("get", "serialize", "deserialize")
    ]
    for name in names:
        function = getattr(activations, name)
        assert activations.serialize(function) == name
        again = activations.deserialize(name)
        assert callable(again)
        x = ek.constant([[-1.0, 0.5, 2.0]])
        np.testing.assert_allclose(again(x).numpy(), function(x).numpy(), rtol=1e-6)
    assert activations.deserialize("sigmoid") is ek.nn.sigmoid


def test_serialize_custom_and_errors():
    @ek.keras.saving.register_keras_serializable(package="Names15")
    def doubled(x):
        return 2.0 * x

    assert activations.serialize(doubled) == "Names15>doubled"
    assert activations.deserialize("Names15>doubled") is doubled
    with pytest.raises(InvalidArgumentError, match="a lambda has no name"):
        activations.serialize(lambda x: x)
    with pytest.raises(InvalidArgumentError, match="expected an activation function, got 3"):
        activations.serialize(3)
    with pytest.raises(InvalidArgumentError, match="Unknown activation function: 'nope'"):
        activations.deserialize("nope")


def test_adjoint_is_the_conjugate_transpose():
    rng = np.random.default_rng(0)
    batch = (rng.normal(size=(2, 3, 4)) + 1j * rng.normal(size=(2, 3, 4))).astype(np.complex64)
    np.testing.assert_array_equal(
        ek.linalg.adjoint(batch).numpy(), np.conj(np.swapaxes(batch, -1, -2))
    )
    real = ek.Variable(rng.normal(size=(2, 3)).astype(np.float32))
    weights = rng.normal(size=(3, 2)).astype(np.float32)
    with ek.GradientTape() as tape:
        y = ek.reduce_sum(ek.linalg.adjoint(real) * weights)
    np.testing.assert_allclose(tape.gradient(y, real).numpy(), weights.T)
    with pytest.raises(
        InvalidArgumentError, match=r"adjoint: matrix must be a matrix \(rank >= 2\)"
    ):
        ek.linalg.adjoint([1.0, 2.0])


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 4))
def test_logdet_matches_numpy_and_its_gradient_is_the_inverse(seed, n):
    a = np.random.default_rng(seed).normal(size=(n, n))
    spd = (a @ a.T + n * np.eye(n)).astype(np.float64)
    matrix = ek.Variable(spd)
    with ek.GradientTape() as tape:
        value = ek.linalg.logdet(matrix)
    np.testing.assert_allclose(float(value), np.linalg.slogdet(spd)[1], rtol=1e-10)
    # d log det(A) / dA = A^-1 (symmetric A: TF's Cholesky gradient is symmetrized)
    grad = tape.gradient(value, matrix).numpy()
    np.testing.assert_allclose(grad, np.linalg.inv(spd), rtol=1e-6, atol=1e-8)


def test_logdet_batches_and_errors():
    batch = np.stack([np.eye(2) * 2.0, np.diag([1.0, 5.0])]).astype(np.float32)
    np.testing.assert_allclose(
        ek.linalg.logdet(batch).numpy(), [np.log(4.0), np.log(5.0)], rtol=1e-6
    )
    huge = np.eye(3) * 1e200  # det overflows float64, logdet does not
    assert float(ek.linalg.logdet(huge)) == pytest.approx(3 * 200 * np.log(10))
    with pytest.raises(InvalidArgumentError, match="symmetric positive definite"):
        ek.linalg.logdet([[1.0, 2.0], [2.0, 1.0]])
    with pytest.raises(
        InvalidArgumentError, match=r"logdet: matrix must be square float .*int32\[2, 2\]"
    ):
        ek.linalg.logdet([[1, 0], [0, 1]])
    with pytest.raises(InvalidArgumentError, match=r"logdet: matrix must be square .*\[2, 3\]"):
        ek.linalg.logdet(np.ones((2, 3), np.float32))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), lower=st.booleans(), adjoint=st.booleans())
def test_triangular_solve_reads_one_triangle(seed, lower, adjoint):
    rng = np.random.default_rng(seed)
    full = rng.normal(size=(3, 3)) + 4 * np.eye(3)
    rhs = rng.normal(size=(3, 2))
    triangle = np.tril(full) if lower else np.triu(full)
    system = triangle.T if adjoint else triangle
    got = ek.linalg.triangular_solve(full, rhs, lower=lower, adjoint=adjoint).numpy()
    np.testing.assert_allclose(got, np.linalg.solve(system, rhs), rtol=1e-10)


def test_triangular_solve_gradient_ignores_the_other_triangle_and_errors():
    matrix = ek.Variable([[2.0, 5.0], [1.0, 4.0]], dtype=ek.float64)
    with ek.GradientTape() as tape:
        x = ek.linalg.triangular_solve(matrix, ek.constant([[2.0], [9.0]], dtype=ek.float64))
        total = ek.reduce_sum(x)
    grad = tape.gradient(total, matrix).numpy()
    assert grad[0, 1] == 0.0  # the upper triangle is never read
    lower = np.array([[2.0, 0.0], [1.0, 4.0]])
    x = np.linalg.solve(lower, [[2.0], [9.0]])
    expected = -np.linalg.solve(lower.T, np.ones((2, 1))) @ x.T  # d sum(A^-1 b) / dA
    np.testing.assert_allclose(grad, np.tril(expected), rtol=1e-10)
    with pytest.raises(InvalidArgumentError, match=r"triangular_solve: matrix must be square"):
        ek.linalg.triangular_solve(np.ones((2, 3)), np.ones((2, 1)))


@settings(max_examples=30, deadline=None)
@given(values=st.lists(st.integers(1, 40), min_size=1, max_size=5))
def test_lbeta_is_the_log_of_the_beta_function(values):
    import math

    x = np.array(values, dtype=np.float64) / 4
    expected = sum(math.lgamma(v) for v in x) - math.lgamma(x.sum())
    assert float(ek.math.lbeta(x)) == pytest.approx(expected, rel=1e-10, abs=1e-10)


def test_lbeta_gradient_batches_and_errors():
    from scipy.special import digamma

    x = ek.Variable([[1.5, 2.0, 0.5], [3.0, 1.0, 2.0]], dtype=ek.float64)
    with ek.GradientTape() as tape:
        total = ek.reduce_sum(ek.math.lbeta(x))
    values = x.numpy()
    expected = digamma(values) - digamma(values.sum(-1, keepdims=True))
    np.testing.assert_allclose(tape.gradient(total, x).numpy(), expected, rtol=1e-8)
    assert ek.math.lbeta(values).shape == (2,)
    with pytest.raises(InvalidArgumentError, match=r"lbeta: x must be floats .*int32\[2\]"):
        ek.math.lbeta([1, 2])
    with pytest.raises(InvalidArgumentError, match="at least one axis"):
        ek.math.lbeta(2.0)


def test_every_activation_keras_names_is_what_get_and_a_layer_take():
    """Each name activations.serialize gives, activations.get takes too (exponential was
    refused by get, though deserialize and Keras 3 take it), and a Dense saves it by name."""
    names = [  # (get("linear") is None: a layer without an activation, activations.get's doc)
        name
        for name in activations.__all__
        if name not in ("get", "serialize", "deserialize", "linear")
    ]
    x = ek.constant([[-1.0, 0.5, 2.0]])
    for name in names:
        function = activations.get(name)
        np.testing.assert_allclose(
            function(x).numpy(), activations.deserialize(name)(x).numpy(), rtol=1e-6
        )
        layer = ek.keras.layers.Dense(3, activation=name)
        assert (
            ek.keras.layers.Dense.from_config(layer.get_config()).get_config()["activation"]
            == (layer.get_config()["activation"])
        )
    np.testing.assert_allclose(activations.get("exponential")(x).numpy(), np.exp(x.numpy()))


def test_keras_losses_list_mean_absolute_percentage_error():
    for name in ("mean_absolute_percentage_error", "mape", "MAPE", "MeanAbsolutePercentageError"):
        assert name in ek.keras.losses.__all__ and hasattr(ek.keras.losses, name)
