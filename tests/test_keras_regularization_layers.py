"""RepeatVector, Permute, GaussianNoise, SpatialDropout1D and ActivityRegularization against
Keras 3's formulas: values, gradients, training-only behaviour, configs and saving."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

layers = ek.keras.layers


@settings(max_examples=25, deadline=None)
@given(batch=st.integers(1, 3), features=st.integers(1, 4), n=st.integers(1, 4))
def test_repeat_vector_repeats_each_row(batch, features, n):
    x = np.arange(batch * features, dtype=np.float32).reshape(batch, features)
    out = layers.RepeatVector(n)(ek.constant(x)).numpy()
    np.testing.assert_array_equal(out, np.repeat(x[:, None, :], n, axis=1))


@settings(max_examples=25, deadline=None)
@given(perm=st.permutations([1, 2, 3]))
def test_permute_matches_numpy_transpose(perm):
    x = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    out = layers.Permute(tuple(perm))(ek.constant(x)).numpy()
    np.testing.assert_array_equal(out, np.transpose(x, (0, *perm)))


def test_reordering_gradients_route_back():
    x = ek.Variable(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    weights = np.arange(18.0, dtype=np.float32).reshape(2, 3, 3)
    with ek.GradientTape() as tape:
        total = ek.reduce_sum(layers.RepeatVector(3)(x) * weights)
    np.testing.assert_array_equal(tape.gradient(total, x).numpy(), weights.sum(axis=1))
    y = ek.Variable(np.ones((1, 2, 3), dtype=np.float32))
    weights = np.arange(6.0, dtype=np.float32).reshape(1, 3, 2)
    with ek.GradientTape() as tape:
        total = ek.reduce_sum(layers.Permute((2, 1))(y) * weights)
    np.testing.assert_array_equal(tape.gradient(total, y).numpy(), weights.transpose(0, 2, 1))


def test_reordering_errors():
    with pytest.raises(TypeError, match="expected an integer value for n"):
        layers.RepeatVector(2.5)
    with pytest.raises(InvalidArgumentError, match="n should be a positive integer, got n=0"):
        layers.RepeatVector(0)
    for dims in [(0, 1), (1, 3), 5, (None, 1), (1.0, 2.0)]:
        with pytest.raises(InvalidArgumentError, match="consecutive and start from 1"):
            layers.Permute(dims)
    with pytest.raises(InvalidArgumentError, match=r"expects input of rank 2 \[batch, features"):
        layers.RepeatVector(2)(ek.zeros([2, 3, 4]))
    with pytest.raises(InvalidArgumentError, match="expects input of rank 3"):
        layers.Permute((2, 1))(ek.zeros([2, 3]))


def test_gaussian_noise_is_training_only_seeded_and_has_its_stddev():
    x = ek.zeros([20000])
    layer = layers.GaussianNoise(0.3, seed=5)
    assert layer(x).numpy().tolist() == x.numpy().tolist()
    ek.random.set_seed(1)
    first = layer(x, training=True).numpy()
    second = layer(x, training=True).numpy()
    ek.random.set_seed(1)
    again = layers.GaussianNoise(0.3, seed=5)(x, training=True).numpy()
    np.testing.assert_array_equal(first, again)  # the seed repeats the sequence
    assert not np.array_equal(first, second)  # each call draws afresh
    assert abs(first.std() - 0.3) < 0.01 and abs(first.mean()) < 0.01
    v = ek.Variable([1.0, 2.0])
    with ek.GradientTape() as tape:
        total = ek.reduce_sum(layer(v, training=True) * [3.0, 4.0])
    assert tape.gradient(total, v).numpy().tolist() == [3.0, 4.0]  # the noise is a constant
    for stddev in (-0.1, 1.5, "big"):
        with pytest.raises(InvalidArgumentError, match=r"stddev must be a number in \[0, 1\]"):
            layers.GaussianNoise(stddev)
    with pytest.raises(InvalidArgumentError, match="needs float inputs, got int32"):
        layer(ek.constant([1, 2]), training=True)


def test_spatial_dropout_drops_whole_channels_when_training():
    x = ek.ones([64, 5, 8])
    layer = layers.SpatialDropout1D(0.25, seed=3)
    assert layer(x).numpy().tolist() == x.numpy().tolist()
    out = layer(x, training=True).numpy()
    assert set(np.unique(out)) <= {0.0, np.float32(1 / 0.75)}
    assert (out == out[:, :1, :]).all()  # every step of a channel is kept or dropped together
    assert 0.15 < (out[:, 0, :] == 0).mean() < 0.35
    v = ek.Variable(np.ones((2, 3, 4), dtype=np.float32))
    with ek.GradientTape() as tape:
        dropped = layer(v, training=True)
        total = ek.reduce_sum(dropped)
    np.testing.assert_array_equal(tape.gradient(total, v).numpy(), dropped.numpy())
    with pytest.raises(InvalidArgumentError, match=r"expects input of rank 3 \[batch, steps"):
        layer(ek.ones([2, 3]), training=True)
    with pytest.raises(InvalidArgumentError, match=r"must be a number in \[0, 1\)"):
        layers.SpatialDropout1D(1.0)


@settings(max_examples=25, deadline=None)
@given(
    values=st.lists(st.integers(-8, 8), min_size=6, max_size=6),
    l1=st.sampled_from([0.0, 0.01, 0.5]),
    l2=st.sampled_from([0.0, 0.1, 2.0]),
)
def test_activity_regularization_adds_the_keras_penalty(values, l1, l2):
    x = np.array(values, dtype=np.float32).reshape(3, 2) / 4
    layer = layers.ActivityRegularization(l1=l1, l2=l2)
    out = layer(ek.constant(x))
    np.testing.assert_array_equal(out.numpy(), x)
    expected = (l1 * np.abs(x).sum() + l2 * np.square(x).sum()) / 3  # / batch size, as Keras
    assert len(layer.losses) == 1
    np.testing.assert_allclose(float(layer.losses[0]), expected, rtol=1e-5, atol=1e-7)


def test_activity_regularization_reaches_fit_and_refuses_bad_factors():
    model = ek.keras.Sequential(
        [
            layers.Dense(1, kernel_initializer="ones", use_bias=False),
            layers.ActivityRegularization(l2=1.0),
        ]
    )
    model.compile(optimizer="sgd", loss="mse")
    x, y = np.ones((2, 1), dtype=np.float32), np.ones((2, 1), dtype=np.float32)
    loss = model.evaluate(x, y, verbose=0)
    assert loss == pytest.approx(0.0 + (1.0 + 1.0) / 2)  # mse 0, plus sum(out^2) / batch
    with pytest.raises(InvalidArgumentError, match="l1 must be a number in"):
        layers.ActivityRegularization(l1=-1.0)
    with pytest.raises(InvalidArgumentError, match=r"penalizes float inputs, got int32\[1, 2\]"):
        layers.ActivityRegularization(l1=1.0)(ek.constant([[1, 2]]))
    with pytest.raises(TypeError, match="made from l1= and l2="):
        layers.ActivityRegularization(activity_regularizer="l2")


MADE = {
    "RepeatVector": (lambda: layers.RepeatVector(3), (4,)),
    "Permute": (lambda: layers.Permute((2, 1)), (3, 4)),
    "GaussianNoise": (lambda: layers.GaussianNoise(0.2, seed=7), (4,)),
    "SpatialDropout1D": (lambda: layers.SpatialDropout1D(0.3, seed=2), (3, 4)),
    "ActivityRegularization": (lambda: layers.ActivityRegularization(0.1, 0.2), (4,)),
}


@pytest.mark.parametrize("name", sorted(MADE))
def test_config_round_trip_and_saving(name, tmp_path):
    make, shape = MADE[name]
    layer = make()
    config = layer.get_config()
    clone = type(layer).from_config(config)
    assert clone.get_config() == config
    inputs = ek.keras.Input(shape=shape)
    model = ek.keras.Model(inputs, layer(inputs))
    path = str(tmp_path / "model.keras")
    model.save(path)
    loaded = ek.keras.models.load_model(path)
    x = np.linspace(0, 1, 2 * int(np.prod(shape)), dtype=np.float32).reshape(2, *shape)
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
    assert type(loaded.layers[-1]) is type(layer)
    assert loaded.layers[-1].get_config() == config
