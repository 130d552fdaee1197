"""``ek.keras.activations``: every function TF's module has that eagerkit names, against its
numpy formula on drawn inputs; relu's and elu's options, as the ReLU and ELU layers give
them; bad options refused naming the function; ``get`` by every name."""

import numpy as np
import pytest
from activation_formulas import FORMULAS
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

activations = ek.keras.activations
FUNCTIONS = [
    name for name in activations.__all__ if name not in ("get", "serialize", "deserialize")
]
VALUES = hnp.arrays(
    np.float64,
    hnp.array_shapes(min_dims=1, max_dims=3, max_side=4),
    elements=st.floats(-20, 20, allow_nan=False),
)


def test_every_function_has_a_formula_and_every_formula_a_function():
    assert sorted(FUNCTIONS) == sorted(FORMULAS)


@pytest.mark.parametrize("name", FUNCTIONS)
@settings(max_examples=25, deadline=None)
@given(x=VALUES)
def test_each_function_gives_its_formula(name, x):
    got = getattr(activations, name)(ek.constant(x))
    assert got.dtype == ek.float64
    np.testing.assert_allclose(got.numpy(), FORMULAS[name](x), rtol=1e-6, atol=1e-12)


@settings(max_examples=50, deadline=None)
@given(
    x=VALUES,
    negative_slope=st.sampled_from([0.0, 0.1, 0.5]),
    max_value=st.sampled_from([None, 0.5, 6.0]),
    threshold=st.sampled_from([0.0, 1.0]),
)
def test_relu_options_are_the_relu_layer_s(x, negative_slope, max_value, threshold):
    options = dict(negative_slope=negative_slope, max_value=max_value, threshold=threshold)
    got = activations.relu(ek.constant(x), **options).numpy()
    np.testing.assert_allclose(got, FORMULAS["relu"](x, **options), rtol=1e-12)
    x32 = ek.constant(x.astype(np.float32))  # a layer computes in its float32
    layer = ek.keras.layers.ReLU(**options)(x32).numpy()
    np.testing.assert_array_equal(layer, activations.relu(x32, **options).numpy())


def test_relu_takes_keras_2_s_alpha_and_elu_its_alpha():
    x = ek.constant([-2.0, 3.0])
    assert activations.relu(x, alpha=0.5).numpy().tolist() == [-1.0, 3.0]
    assert activations.relu(x, 0.5).numpy().tolist() == [-1.0, 3.0]  # the second positional
    np.testing.assert_allclose(activations.elu(x, alpha=2.0).numpy(), [2 * np.expm1(-2), 3])
    np.testing.assert_array_equal(
        activations.elu(x, alpha=2.0).numpy(), ek.keras.layers.ELU(alpha=2.0)(x).numpy()
    )


def test_the_gradient_of_relu_with_a_slope_and_a_cap():
    x = ek.constant([-2.0, 0.5, 3.0, 8.0])
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = activations.relu(x, negative_slope=0.1, max_value=6.0)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [0.1, 1.0, 1.0, 0.0])


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda x: activations.relu(x, negative_slope=-1), "relu: negative_slope must be"),
        (lambda x: activations.relu(x, max_value="6"), "relu: max_value must be a finite"),
        (lambda x: activations.relu(x, 0.1, alpha=0.2), "relu: got both negative_slope and alpha"),
        (lambda x: activations.elu(x, alpha=float("nan")), "elu: alpha must be a finite"),
        (lambda x: activations.leaky_relu(x, "a"), "leaky_relu: negative_slope must be"),
    ],
)
def test_bad_options_are_refused_naming_the_function(call, message):
    with pytest.raises(InvalidArgumentError, match=message):
        call(ek.constant([1.0]))


@pytest.mark.parametrize("name", sorted(set(FUNCTIONS) - {"linear", "exponential"}))
def test_get_finds_every_name_a_layer_may_be_given(name):
    x = ek.constant([-1.0, 0.5, 2.0])
    found = activations.get(name)
    np.testing.assert_allclose(found(x).numpy(), FORMULAS[name](x.numpy()), rtol=1e-6)
    identity = lambda shape, dtype=None: ek.eye(shape[0], dtype=dtype)  # noqa: E731
    layer = ek.keras.layers.Dense(3, activation=name, kernel_initializer=identity)
    np.testing.assert_allclose(layer(x[None]).numpy()[0], FORMULAS[name](x.numpy()), rtol=1e-6)
