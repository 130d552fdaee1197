"""Rescaling and Normalization (TF's image and tabular tutorials): values against numpy on
drawn data, adapt on arrays, Tensors, Datasets and generators (a Dataset gives what the
whole array gives), the statistics kept as non-trainable weights through fit, checkpoints
and saved models, and refused arguments and data that change nothing."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

L = ek.keras.layers
RNG = np.random.default_rng(0)
FEATURES = (RNG.normal(3.0, 2.0, size=(40, 4)) * [1, 10, 0.1, 100]).astype(np.float32)
FINITE = st.floats(-1e3, 1e3, width=32)


@pytest.fixture(autouse=True)
def default_names():
    ek.keras.backend.clear_session()


def close(actual, expected, rtol=1e-6, atol=0.0):
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol)


def normalized(x, mean, variance):
    """TF's Normalization output, in numpy: (x - mean) / max(sqrt(variance), 1e-7)."""
    return (x - mean) / np.maximum(np.sqrt(variance), np.float32(1e-7))


# --- Rescaling -------------------------------------------------------------------------------
@settings(max_examples=50, deadline=None)
@given(
    x=hnp.arrays(st.sampled_from([np.uint8, np.int32, np.float32]), (3, 4)),
    scale=st.floats(-10, 10),
    offset=st.floats(-10, 10),
)
def test_rescaling_matches_numpy_and_turns_any_input_into_floats(x, scale, offset):
    out = L.Rescaling(scale, offset)(x)
    assert out.dtype == ek.float32
    with np.errstate(invalid="ignore", over="ignore"):
        expected = x.astype(np.float32) * np.float32(scale) + np.float32(offset)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6, equal_nan=True)


def test_rescaling_takes_one_factor_per_channel():
    images = RNG.integers(0, 256, size=(2, 3, 3, 3)).astype(np.uint8)
    out = L.Rescaling([1 / 255, 2 / 255, 1.0], offset=np.array([0.0, -1.0, 0.0]))(images)
    close(out.numpy(), images * np.float32([1 / 255, 2 / 255, 1]) - np.float32([0, 1, 0]))


def test_the_image_tutorials_model_takes_raw_bytes_and_trains(tmp_path):
    ek.random.set_seed(0)
    images = RNG.integers(0, 256, size=(8, 6, 6, 1)).astype(np.uint8)
    labels = (images.mean(axis=(1, 2, 3)) > 127).astype(np.int32)
    model = ek.keras.Sequential(
        [ek.keras.Input(shape=[6, 6, 1]), L.Rescaling(1.0 / 255), L.Conv2D(2, 3)]
        + [L.Flatten(), L.Dense(2)]
    )
    model.compile(optimizer="adam", loss=ek.keras.losses.SparseCategoricalCrossentropy(True))
    model.fit(images, labels, epochs=2, verbose=0)
    model.save(tmp_path / "model.keras")
    again = ek.keras.models.load_model(tmp_path / "model.keras")
    close(again(images).numpy(), model(images).numpy())
    assert again.layers[0].get_config()["scale"] == 1.0 / 255


# --- Normalization: values ---------------------------------------------------------------------
@settings(max_examples=50, deadline=None)
@given(data=st.data(), axis=st.sampled_from([-1, None, 1, (1, 2), [0, 2]]))
def test_adapt_learns_numpys_mean_and_variance_and_the_call_uses_them(data, axis):
    x = data.draw(hnp.arrays(np.float32, hnp.array_shapes(min_dims=3, max_dims=3), elements=FINITE))
    layer = L.Normalization(axis=axis)
    layer.adapt(x)
    kept = () if axis is None else tuple(a % 3 for a in np.atleast_1d(axis))
    reduced = tuple(i for i in range(3) if i not in kept)
    mean = np.mean(x.astype(np.float64), axis=reduced, keepdims=True).astype(np.float32)
    variance = np.var(x.astype(np.float64), axis=reduced, keepdims=True).astype(np.float32)
    scale = max(1.0, float(np.abs(x).max()))
    close(layer.mean.numpy(), mean, atol=1e-6 * scale)
    close(layer.variance.numpy(), variance, atol=1e-6 * scale * scale)
    assert not layer.trainable_weights and len(layer.non_trainable_weights) == 3
    # TF's third weight: how many values each mean was taken over
    assert layer.count.dtype == ek.int64 and int(layer.count) == np.prod(
        [x.shape[i] for i in reduced]
    )
    mean, variance = layer.mean.numpy(), layer.variance.numpy()
    close(layer(x).numpy(), normalized(x, mean, variance), rtol=1e-5, atol=1e-5)
    inverse = L.Normalization(axis=axis, invert=True)
    inverse.adapt(x)
    expected = mean + x * np.maximum(np.sqrt(variance), np.float32(1e-7))
    close(inverse(x).numpy(), expected, rtol=1e-5, atol=1e-5 * scale)


@settings(max_examples=50, deadline=None)
@given(
    x=hnp.arrays(np.float32, st.tuples(st.integers(1, 30), st.integers(1, 4)), elements=FINITE),
    batch_size=st.integers(1, 8),
    labelled=st.booleans(),
)
def test_adapt_on_a_dataset_of_batches_equals_adapt_on_the_whole_array(x, batch_size, labelled):
    whole = L.Normalization()
    whole.adapt(x)
    slices = (x, np.zeros(len(x))) if labelled else x  # (inputs, labels): the inputs count
    batched = L.Normalization()
    batched.adapt(ek.data.Dataset.from_tensor_slices(slices).batch(batch_size))
    scale = max(1.0, float(np.abs(x).max()))
    close(batched.mean.numpy(), whole.mean.numpy(), atol=1e-6 * scale)
    close(batched.variance.numpy(), whole.variance.numpy(), atol=1e-6 * scale * scale)
    generated = L.Normalization()
    generated.adapt(x[i : i + batch_size] for i in range(0, len(x), batch_size))
    close(generated.mean.numpy(), whole.mean.numpy(), atol=1e-6 * scale)


def test_tfs_examples_and_the_regression_tutorials_use():
    layer = L.Normalization(axis=None)
    layer.adapt(np.array([1.0, 2.0, 3.0, 4.0, 5.0], np.float32))
    close(layer(np.array([1.0, 2.0, 3.0], np.float32)).numpy(), [-1.4142135, -0.70710677, 0.0])
    data = np.array([[0.0, 7.0, 4.0], [2.0, 9.0, 6.0], [0.0, 7.0, 4.0], [2.0, 9.0, 6.0]])
    layer = L.Normalization(axis=-1)
    layer.adapt(ek.constant(data))
    assert layer.mean.shape == (1, 3)  # normalizer.mean.numpy() in the regression tutorial
    close(layer([[0.0, 7.0, 4.0]]).numpy(), [[-1.0, -1.0, -1.0]])
    inverse = L.Normalization(axis=-1, invert=True)
    inverse.adapt(data)
    close(inverse([[1.0, 2.0, 3.0]]).numpy(), [[2.0, 10.0, 8.0]])
    given_stats = L.Normalization(mean=3.0, variance=2.0)
    close(given_stats([[1.0], [2.0], [3.0]]).numpy(), [[-1.4142135], [-0.70710677], [0.0]])


def test_before_adapt_the_layer_passes_inputs_through_as_tfs_does():
    # TF makes the statistics 0 and 1 when it builds, and raises nothing.
    layer = L.Normalization()
    close(layer(FEATURES).numpy(), FEATURES)
    close(layer.mean.numpy(), np.zeros([1, 4]))


def test_given_mean_and_variance_broadcast_to_each_feature_and_cannot_be_adapted():
    layer = L.Normalization(mean=[1.0, 2.0, 3.0, 4.0], variance=4.0 * np.ones(4))
    close(layer(FEATURES).numpy(), (FEATURES - [1, 2, 3, 4]) / 2)
    assert layer.get_config()["mean"] == [1.0, 2.0, 3.0, 4.0]
    with pytest.raises(InvalidArgumentError, match=r"^Normalization.adapt: .* mean= and var"):
        layer.adapt(FEATURES)
    with pytest.raises(InvalidArgumentError, match=r"mean \[1.0, 2.0\] does not broadcast"):
        L.Normalization(mean=[1.0, 2.0], variance=[1.0, 1.0])(FEATURES)


def test_integer_features_are_normalized_as_floats():
    ints = RNG.integers(0, 100, size=(20, 3)).astype(np.int32)
    layer = L.Normalization()
    layer.adapt(ints)
    out = layer(ints)
    assert out.dtype == ek.float32
    close(out.numpy(), normalized(ints, ints.mean(0), ints.var(0)), rtol=1e-5, atol=1e-5)


# --- Normalization: weights, training, saving --------------------------------------------------
def test_fit_trains_the_model_but_never_the_statistics():
    ek.random.set_seed(1)
    normalizer = L.Normalization()
    normalizer.adapt(FEATURES)
    learned = normalizer.mean.numpy(), normalizer.variance.numpy()
    model = ek.keras.Sequential([normalizer, L.Dense(8, activation="relu"), L.Dense(1)])
    model.compile(optimizer=ek.keras.optimizers.Adam(0.05), loss="mse")
    target = FEATURES @ np.float32([0.5, 0.05, 5.0, 0.005])
    history = model.fit(FEATURES, target, epochs=40, verbose=0).history["loss"]
    assert history[-1] < history[0] / 5
    close(normalizer.mean.numpy(), learned[0])
    close(normalizer.variance.numpy(), learned[1])
    assert len(model.non_trainable_weights) == 3  # mean, variance, count (as TF's)
    assert int(normalizer.count) == len(FEATURES)


def test_checkpoints_and_saved_models_keep_the_statistics(tmp_path):
    normalizer = L.Normalization()
    normalizer.adapt(FEATURES)
    path = ek.train.Checkpoint(layer=normalizer).save(str(tmp_path / "ckpt"))
    restored = L.Normalization()
    ek.train.Checkpoint(layer=restored).restore(path)  # before it has variables: deferred
    close(restored(FEATURES).numpy(), normalizer(FEATURES).numpy())
    inputs = ek.keras.Input(shape=[4])  # the load-CSV tutorial's functional model
    functional = ek.keras.Model(inputs, L.Dense(1)(normalizer(inputs)))
    sequential = ek.keras.Sequential([ek.keras.Input(shape=[4]), normalizer, L.Rescaling(2.0)])
    for model in (functional, sequential):
        model.save(tmp_path / f"{model.name}.keras")
        again = ek.keras.models.load_model(tmp_path / f"{model.name}.keras")
        close(again(FEATURES).numpy(), model(FEATURES).numpy())
        loaded = next(layer for layer in again.layers if isinstance(layer, L.Normalization))
        close(loaded.mean.numpy(), normalizer.mean.numpy())


# --- failures change nothing ----------------------------------------------------------------
def _state(layer):
    return layer.built, [w.numpy().tolist() for w in layer.weights]


def _batches_then(last):
    yield FEATURES[:10]
    if isinstance(last, Exception):
        raise last
    yield last


BAD_DATA = {  # data adapt refuses: (the data, the error, its message)
    "text": (np.array([["a", "b", "c", "d"]]), ek.errors.UnimplementedError, "cannot cast"),
    "no rows": (np.zeros([0, 4], np.float32), InvalidArgumentError, "holds no values"),
    "a later batch of other features": (
        lambda: _batches_then(np.ones([5, 3])),
        InvalidArgumentError,
        r"shaped like \[1, 4\] .* got shape \[5, 3\]",
    ),
    "a broken source": (
        lambda: _batches_then(RuntimeError("the data source broke")),
        RuntimeError,
        "the data source broke",
    ),
    "dicts of features": (
        ek.data.Dataset.from_tensor_slices({"a": np.ones(4)}).batch(2),
        InvalidArgumentError,
        "map it to the features",
    ),
}
# Once adapted, the layer is built for 4 features: data of 3 is refused too.
ADAPTED_BAD_DATA = {
    "other features": (np.ones([5, 3]), InvalidArgumentError, "normalizes inputs shaped"),
}


@pytest.mark.parametrize(
    "name, adapted",
    [(name, False) for name in sorted(BAD_DATA)]
    + [(name, True) for name in sorted(BAD_DATA) + sorted(ADAPTED_BAD_DATA)],
)
def test_a_failed_adapt_changes_nothing(name, adapted):
    data, error, message = {**BAD_DATA, **ADAPTED_BAD_DATA}[name]
    data = data() if callable(data) else data
    layer = L.Normalization()
    if adapted:
        layer.adapt(FEATURES * 2)
    before = _state(layer)
    with pytest.raises(error, match=message):
        layer.adapt(data)
    assert _state(layer) == before
    layer.adapt(FEATURES)  # and the layer still works
    close(layer.mean.numpy()[0], FEATURES.astype(np.float64).mean(0), rtol=1e-5)


def test_a_call_with_other_features_is_refused_naming_the_shapes():
    layer = L.Normalization()
    layer.adapt(FEATURES)
    with pytest.raises(
        InvalidArgumentError, match=r"^Normalization: .*\[1, 4\].*got shape \[2, 3\]"
    ):
        layer(np.ones([2, 3], np.float32))
    unbuilt = L.Normalization(axis=2)
    with pytest.raises(InvalidArgumentError, match=r"axis=\[2\] names axes input_shape \(2, 3\)"):
        unbuilt(np.ones([2, 3], np.float32))
    assert not unbuilt.built and not unbuilt.weights


REFUSED = [
    (lambda: L.Rescaling("1/255"), "Rescaling: scale must be a finite number, got '1/255'"),
    (lambda: L.Rescaling(np.nan), "Rescaling: scale must be a finite number, got nan"),
    (lambda: L.Rescaling(1.0, offset=[1, [2]]), "Rescaling: offset must be a number or a list"),
    (lambda: L.Rescaling(True), "Rescaling: scale must be a finite number, got True"),
    (
        lambda: L.Normalization(axis=1.5),
        "Normalization: axis must be an integer or a list of distinct integers or None",
    ),
    (
        lambda: L.Normalization(axis=[1, 1]),
        "Normalization: axis must be an integer or a list of distinct integers or None",
    ),
    (lambda: L.Normalization(mean=1.0), "Normalization: mean and variance are set together"),
    (lambda: L.Normalization(variance=1.0), "Normalization: mean and variance are set together"),
    (lambda: L.Normalization(mean=[1.0], variance=[1.0, 2.0]), "Normalization: mean (shape"),
    (lambda: L.Normalization(mean=[[1.0]], variance=[[1.0]]), "Normalization: mean (shape"),
    (lambda: L.Normalization(mean=["a"], variance=[1.0]), "Normalization: mean must be a finite"),
]


@pytest.mark.parametrize("make, message", REFUSED)
def test_bad_arguments_are_refused_and_make_nothing(make, message):
    with pytest.raises(InvalidArgumentError) as caught:
        make()
    assert str(caught.value).startswith(message)
    assert "e.g." in str(caught.value)  # the fix
    assert [L.Rescaling(1.0).name, L.Normalization().name] == ["rescaling", "normalization"]


def test_configs_rebuild_the_same_layers():
    for layer in (
        L.Rescaling([0.5, 2.0], offset=-1.0, name="r"),
        L.Normalization(axis=None, invert=True),
        L.Normalization(axis=[1, 2], mean=[1.0, 2.0], variance=[3.0, 4.0]),
    ):
        config = layer.get_config()
        clone = type(layer).from_config(config)
        assert clone.get_config() == config
        x = RNG.normal(size=(3, 2, 2)).astype(np.float32)
        if isinstance(layer, L.Normalization) and layer.input_mean is None:
            layer.adapt(x)
            clone.adapt(x)
        close(clone(x).numpy(), layer(x).numpy())
