"""keras.layers.LayerNormalization against numpy written here (hypothesis over shapes and
axes, TF's epsilon 1e-3, gamma and beta), its gradient by finite differences, inside
ek.function and a model's fit, its config and errors; keras.backend.random_normal and
random_uniform (Keras 2's backend draws)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError
from eagerkit.testing import check_grads

layers = ek.keras.layers
rng = np.random.default_rng(11)


def numpy_layer_norm(x, axes, gamma=None, beta=None, epsilon=1e-3):
    mean = x.mean(axis=tuple(axes), keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=tuple(axes), keepdims=True)
    normalized = (x - mean) / np.sqrt(variance + epsilon)
    if gamma is None:
        return normalized
    kept = [x.shape[i] if i in axes else 1 for i in range(x.ndim)]
    return normalized * gamma.reshape(kept) + beta.reshape(kept)


@st.composite
def shapes_and_axes(draw):
    shape = draw(st.lists(st.integers(1, 4), min_size=2, max_size=4))
    features = list(range(1, len(shape)))
    axes = draw(st.lists(st.sampled_from(features), min_size=1, unique=True))
    negative = draw(st.booleans())  # Keras takes -1 for the last axis, and so on
    given_axes = [a - len(shape) if negative else a for a in axes]
    return shape, sorted(axes), given_axes


@settings(max_examples=50, deadline=None)
@given(case=shapes_and_axes(), scale=st.sampled_from([1e-3, 1.0, 1e3]))
def test_layer_normalization_matches_numpy(case, scale):
    shape, axes, given_axes = case
    x = (rng.standard_normal(shape) * scale).astype(np.float32)
    layer = layers.LayerNormalization(axis=given_axes if len(given_axes) > 1 else given_axes[0])
    y = layer(x)
    gamma_shape = [shape[a] for a in axes]
    assert layer.gamma.shape == gamma_shape and layer.beta.shape == gamma_shape
    gamma, beta = rng.standard_normal(gamma_shape), rng.standard_normal(gamma_shape)
    np.testing.assert_allclose(y.numpy(), numpy_layer_norm(x, axes), rtol=2e-4, atol=2e-4)
    layer.gamma.assign(gamma.astype(np.float32))
    layer.beta.assign(beta.astype(np.float32))
    expected = numpy_layer_norm(x.astype(np.float64), axes, gamma, beta)
    np.testing.assert_allclose(
        layer(x).numpy(), expected, rtol=2e-4, atol=2e-4 * (1 + np.abs(gamma).max())
    )


def test_keras_defaults_epsilon_center_scale_and_training_does_not_matter():
    layer = layers.LayerNormalization()
    assert layer.epsilon == 1e-3 and layer.axis == [-1]
    x = np.array([[1.0, 3.0], [2.0, 2.0]], np.float32)
    expected = np.array([[-1.0, 1.0], [0.0, 0.0]]) / np.sqrt(1.0 + 1e-3)
    np.testing.assert_allclose(layer(x).numpy(), expected, rtol=1e-6)
    np.testing.assert_array_equal(layer(x, training=True).numpy(), layer(x).numpy())
    bare = layers.LayerNormalization(center=False, scale=False, epsilon=0.5)
    bare(x)
    assert bare.weights == [] and bare.gamma is None and bare.beta is None
    np.testing.assert_allclose(
        bare(x).numpy(), np.array([[-1.0, 1.0], [0.0, 0.0]]) / np.sqrt(1.5), rtol=1e-6
    )


@pytest.mark.parametrize("axis", [-1, [1, 2]])
def test_gradients_to_second_order(axis):
    layer = layers.LayerNormalization(axis=axis, dtype="float64")
    x = rng.standard_normal((2, 3, 4))
    layer(x)
    layer.gamma.assign(rng.standard_normal(layer.gamma.shape))
    weights = rng.standard_normal((2, 3, 4))
    check_grads(lambda x: ek.reduce_sum(layer(x) * weights), x, order=2)
    with ek.GradientTape() as tape:
        loss = ek.reduce_sum(layer(x) * weights)
    d_gamma, d_beta = tape.gradient(loss, [layer.gamma, layer.beta])
    normalized = numpy_layer_norm(x, [1, 2] if axis != -1 else [2])
    reduce = (0,) if axis != -1 else (0, 1)
    np.testing.assert_allclose(d_beta.numpy(), weights.sum(axis=reduce), rtol=1e-10)
    np.testing.assert_allclose(d_gamma.numpy(), (normalized * weights).sum(axis=reduce), rtol=1e-6)


def test_inside_a_function_and_a_model_that_trains():
    layer = layers.LayerNormalization()
    step = ek.function(lambda x: layer(x))
    x = rng.standard_normal((3, 5)).astype(np.float32)
    np.testing.assert_allclose(step(x).numpy(), layer(x).numpy(), rtol=1e-6)
    inputs = ek.keras.Input(shape=(4, 6))
    outputs = layers.Dense(1)(layers.LayerNormalization()(layers.Dense(6)(inputs)))
    model = ek.keras.Model(inputs, outputs)
    model.compile(optimizer=ek.keras.optimizers.SGD(0.1), loss="mse")
    data = rng.standard_normal((16, 4, 6)).astype(np.float32)
    history = model.fit(data, data[..., :1] * 2, epochs=5, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]


def test_config_round_trip():
    layer = layers.LayerNormalization(
        axis=[1, 2], epsilon=1e-5, center=False, gamma_initializer="zeros"
    )
    clone = layers.LayerNormalization.from_config(layer.get_config())
    assert clone.get_config() == layer.get_config()
    y = clone(np.ones((2, 3, 4), np.float32))
    assert float(ek.reduce_sum(abs(y))) == 0.0  # gamma starts at zero, no beta


@pytest.mark.parametrize(
    "make, x, words",
    [
        (
            lambda: layers.LayerNormalization(axis=0),
            np.ones((2, 3), np.float32),
            r"axis=\[0\] does not name distinct feature axes",
        ),
        (
            lambda: layers.LayerNormalization(axis=3),
            np.ones((2, 3), np.float32),
            r"\(2, 3\) \(rank 2\)",
        ),
        (lambda: layers.LayerNormalization(axis=[1, -1]), np.ones((2, 3), np.float32), "distinct"),
        (lambda: layers.LayerNormalization(axis=[]), None, "axis must be an int or a list"),
        (lambda: layers.LayerNormalization(epsilon=-1.0), None, "epsilon must be a number >= 0"),
    ],
)
def test_bad_axes_and_epsilon_are_refused(make, x, words):
    with pytest.raises(InvalidArgumentError, match=words):
        make()(x)


def test_a_built_layer_refuses_other_feature_sizes():
    layer = layers.LayerNormalization()
    layer(np.ones((2, 3), np.float32))
    with pytest.raises(
        InvalidArgumentError, match=r"built for inputs with sizes \[3\] on axes \[1\]"
    ):
        layer(np.ones((2, 4), np.float32))


# --- keras.backend.random_normal / random_uniform -----------------------------------------
def test_backend_draws_have_their_shape_dtype_and_distribution():
    ek.keras.utils.set_random_seed(3)
    normal = ek.keras.backend.random_normal([4000], mean=-1.0, stddev=2.0).numpy()
    uniform = ek.keras.backend.random_uniform((4000,), minval=2.0, maxval=5.0).numpy()
    assert normal.dtype == np.float32 and uniform.dtype == np.float32
    assert abs(normal.mean() + 1.0) < 0.15 and abs(normal.std() - 2.0) < 0.15
    assert uniform.min() >= 2.0 and uniform.max() < 5.0 and abs(uniform.mean() - 3.5) < 0.1
    assert ek.keras.backend.random_uniform([2], dtype="float64").dtype == ek.float64


def test_backend_draws_repeat_with_the_global_seed():
    def draws():
        ek.keras.utils.set_random_seed(5)
        return [
            ek.keras.backend.random_normal([3], seed=1).numpy(),
            ek.keras.backend.random_uniform([3]).numpy(),
        ]

    first, second = draws(), draws()
    for a, b in zip(first, second, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: ek.keras.backend.random_normal([2, -1]), "shape"),
        (lambda: ek.keras.backend.random_normal([2], stddev="wide"), "stddev"),
        (lambda: ek.keras.backend.random_uniform([2], dtype="int32"), "maxval"),
    ],
)
def test_backend_draws_refuse_bad_arguments(call, words):
    with pytest.raises((InvalidArgumentError, ValueError, TypeError), match=words):
        call()
