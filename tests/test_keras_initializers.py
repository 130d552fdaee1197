"""Keras' fan-scaled initializers (HeNormal, GlorotNormal, VarianceScaling, ...),
TruncatedNormal, Orthogonal and Identity: their ranges and variances against the formulas
written out here, their names in layers, configs, saved models and bad arguments."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit import keras
from eagerkit.errors import InvalidArgumentError

init = keras.initializers
TRUNCATED = 0.87962566103423978  # std of a unit normal cut at +-2 (scipy's truncnorm)

# Keras' named cases: (scale, mode, distribution), from Keras' docs.
CASES = {
    "he_normal": (init.HeNormal, 2.0, "fan_in", "truncated_normal"),
    "he_uniform": (init.HeUniform, 2.0, "fan_in", "uniform"),
    "glorot_normal": (init.GlorotNormal, 1.0, "fan_avg", "truncated_normal"),
    "glorot_uniform": (init.GlorotUniform, 1.0, "fan_avg", "uniform"),
    "lecun_normal": (init.LecunNormal, 1.0, "fan_in", "truncated_normal"),
    "lecun_uniform": (init.LecunUniform, 1.0, "fan_in", "uniform"),
}
SHAPES = st.lists(st.integers(1, 6), min_size=0, max_size=4)


def _fans(shape):
    """Keras' fans, written out: a conv kernel's window counts into both."""
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    window = int(np.prod(shape[:-2]))
    return shape[-2] * window, shape[-1] * window


def _spread(scale, mode, shape):
    """sqrt(scale / n): the standard deviation the draw aims for."""
    fan_in, fan_out = _fans(shape)
    n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[mode]
    return math.sqrt(scale / max(1.0, n))


def _bound(scale, mode, distribution, shape):
    """Where no sample may fall: the uniform limit, or two of the truncated stddevs."""
    spread = _spread(scale, mode, shape)
    if distribution == "uniform":
        return math.sqrt(3.0) * spread
    return 2.0 * spread / TRUNCATED


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(sorted(CASES)),
    shape=SHAPES,
    seed=st.integers(0, 2**31 - 1),
    dtype=st.sampled_from([ek.float32, ek.float64]),
)
def test_each_named_case_stays_in_its_range_and_repeats_with_its_seed(name, shape, seed, dtype):
    cls, scale, mode, distribution = CASES[name]
    first = cls(seed=seed)(shape, dtype=dtype)
    assert first.shape == tuple(shape) and first.dtype == dtype
    np.testing.assert_array_equal(first.numpy(), cls(seed=seed)(shape, dtype=dtype).numpy())
    bound = _bound(scale, mode, distribution, shape)
    assert np.all(np.abs(first.numpy()) <= bound * (1 + 1e-6))
    by_name = init.get(name)
    assert type(by_name) is cls and type(init.get(cls.__name__)) is cls


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("shape", [[400, 300], [3, 3, 40, 50]])
def test_each_named_case_has_its_variance(name, shape):
    cls, scale, mode, _ = CASES[name]
    values = cls(seed=7)(shape, dtype=ek.float64).numpy()
    expected = _spread(scale, mode, shape)
    assert abs(values.std() - expected) < 0.02 * expected  # 120k samples: well within 2%
    assert abs(values.mean()) < 0.02 * expected


@pytest.mark.parametrize("distribution", ["truncated_normal", "normal", "untruncated_normal"])
@pytest.mark.parametrize("mode", ["fan_in", "fan_out", "fan_avg"])
def test_variance_scaling_normals_have_variance_scale_over_fan(distribution, mode):
    values = init.VarianceScaling(3.0, mode, distribution, seed=11)([200, 800]).numpy()
    expected = _spread(3.0, mode, [200, 800])
    assert abs(values.std() - expected) < 0.02 * expected
    truncated = distribution != "untruncated_normal"
    assert (np.abs(values).max() <= 2 * expected / TRUNCATED * (1 + 1e-6)) == truncated


def test_truncated_normal_is_cut_at_two_stddevs_around_its_mean():
    values = init.TruncatedNormal(mean=1.0, stddev=0.1, seed=3)([20000]).numpy()
    assert np.all(np.abs(values - 1.0) <= 0.2 + 1e-6)
    assert abs(values.std() - 0.1 * TRUNCATED) < 0.003
    assert init.get("truncated_normal").get_config() == {"mean": 0.0, "stddev": 0.05, "seed": None}


@settings(max_examples=30, deadline=None)
@given(shape=st.lists(st.integers(1, 7), min_size=2, max_size=4), gain=st.floats(0.1, 3.0))
def test_orthogonal_gives_orthonormal_rows_or_columns_times_gain(shape, gain):
    q = init.Orthogonal(gain=gain, seed=5)(shape, dtype=ek.float64).numpy()
    assert q.shape == tuple(shape)
    matrix = q.reshape(-1, shape[-1]) / gain
    small = min(matrix.shape)
    gram = matrix.T @ matrix if matrix.shape[0] >= matrix.shape[1] else matrix @ matrix.T
    np.testing.assert_allclose(gram, np.eye(small), atol=1e-10)


@settings(max_examples=20, deadline=None)
@given(rows=st.integers(1, 6), columns=st.integers(1, 6), gain=st.floats(-3.0, 3.0))
def test_identity_is_gain_times_eye(rows, columns, gain):
    got = init.Identity(gain=gain)([rows, columns], dtype=ek.float64).numpy()
    np.testing.assert_array_equal(got, gain * np.eye(rows, columns))


def test_unseeded_draws_differ_and_follow_the_global_seed():
    ek.random.set_seed(1)
    a = init.HeNormal()([5, 5]).numpy()
    b = init.HeNormal()([5, 5]).numpy()
    ek.random.set_seed(1)
    assert not np.array_equal(a, b)
    np.testing.assert_array_equal(init.HeNormal()([5, 5]).numpy(), a)


@pytest.mark.parametrize(
    "name",
    ["he_normal", "he_uniform", "glorot_normal", "lecun_normal", "lecun_uniform", "orthogonal"]
    + ["truncated_normal", "variance_scaling", "identity", "normal"],
)
def test_layers_take_every_name(name):
    layer = keras.layers.Dense(4, kernel_initializer=name)
    assert layer(ek.ones([2, 4])).shape == (2, 4)
    if name == "identity":
        np.testing.assert_array_equal(layer.kernel.numpy(), np.eye(4))


CONFIGS = [
    init.HeNormal(seed=3),
    init.GlorotNormal(),
    init.VarianceScaling(0.5, "fan_out", "uniform", seed=2),
    init.TruncatedNormal(0.5, 0.2, seed=1),
    init.Orthogonal(gain=2.0, seed=4),
    init.Identity(gain=0.5),
    init.Constant(2.0),
    init.RandomNormal(0.0, 0.1, seed=9),
    init.GlorotUniform(seed=1),
]


@pytest.mark.parametrize("initializer", CONFIGS, ids=lambda i: type(i).__name__)
def test_config_round_trips_give_the_same_weights(initializer):
    config = initializer.get_config()
    again = type(initializer).from_config(config)
    assert again.get_config() == config
    through_get = init.get({"class_name": type(initializer).__name__, "config": config})
    assert type(through_get) is type(initializer) and through_get.get_config() == config
    if "seed" in config and config["seed"] is not None:
        np.testing.assert_array_equal(again([3, 4]).numpy(), initializer([3, 4]).numpy())


def test_a_model_with_initializer_objects_saves_and_loads(tmp_path):
    model = keras.Sequential(
        [
            keras.Input(shape=[3]),
            keras.layers.Dense(4, activation="relu", kernel_initializer=init.HeNormal(seed=1)),
            keras.layers.Dense(1, kernel_initializer="glorot_normal"),
        ]
    )
    model.compile(optimizer="adam", loss="mse")
    path = str(tmp_path / "model.keras")
    model.save(path)
    again = keras.models.load_model(path)
    assert again.layers[0].get_config()["kernel_initializer"] == {
        "class_name": "HeNormal",
        "config": {"seed": 1},
    }
    x = np.arange(6, dtype="float32").reshape(2, 3)
    np.testing.assert_array_equal(again.predict(x, verbose=0), model.predict(x, verbose=0))


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda: init.VarianceScaling(scale=0.0), "scale must be a positive number"),
        (lambda: init.VarianceScaling(scale="2"), "scale must be a number >= 0"),
        (lambda: init.VarianceScaling(scale=-1.0), "scale must be a number >= 0"),
        (lambda: init.VarianceScaling(mode="fan"), "unknown mode 'fan'; use one of fan_in"),
        (lambda: init.VarianceScaling(distribution="gauss"), "unknown distribution 'gauss'"),
        (lambda: init.HeNormal(seed=1.5), "seed"),
        (lambda: init.TruncatedNormal(stddev=-1.0), "stddev must be a number >= 0"),
        (lambda: init.Orthogonal(gain="1"), "gain must be a number"),
        (lambda: init.Orthogonal()([3]), "must be at least two-dimensional, got shape [3]"),
        (lambda: init.Identity()([2, 2, 2]), "must be exactly two-dimensional"),
        (lambda: init.get("he_normall"), "unknown initializer 'he_normall'; use one of"),
        (lambda: init.get(3), "an initializer must be a name, a config dict or a callable"),
        (lambda: init.get({"class_name": "Nope", "config": {}}), "Unknown initializer: 'Nope'"),
        (lambda: init.HeNormal.from_config([1]), "config must be the dict get_config() returns"),
    ],
)
def test_bad_arguments_are_refused_with_what_to_pass(make, words):
    with pytest.raises(InvalidArgumentError) as caught:
        make()
    assert words in str(caught.value)
