"""ZeroPadding1D/2D and Cropping1D/2D: values against numpy's pad and slices for any
shapes and amounts, both data formats, gradients, configs, models, saving, and errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

layers = ek.keras.layers
SIDE = st.integers(0, 3)
PAIR = st.tuples(SIDE, SIDE)


def _images():
    shape = hnp.array_shapes(min_dims=4, max_dims=4, min_side=1, max_side=5)
    return hnp.arrays(np.float32, shape, elements=st.floats(-5, 5, width=32))


def _pairs(spelling, pairs):
    """The amounts ((top, bottom), (left, right)) written in one of Keras' three spellings."""
    (top, bottom), (left, right) = pairs
    if spelling == "int":
        return top, ((top, top), (top, top))
    if spelling == "symmetric":
        return (top, left), ((top, top), (left, left))
    return pairs, pairs


@settings(max_examples=60, deadline=None)
@given(
    x=_images(),
    pairs=st.tuples(PAIR, PAIR),
    spelling=st.sampled_from(["int", "symmetric", "pairs"]),
    channels_first=st.booleans(),
)
def test_zero_padding_2d_equals_numpys_pad(x, pairs, spelling, channels_first):
    given_amounts, (rows, columns) = _pairs(spelling, pairs)
    data_format = "channels_first" if channels_first else "channels_last"
    got = layers.ZeroPadding2D(given_amounts, data_format=data_format)(x).numpy()
    widths = (
        [(0, 0), rows, columns, (0, 0)] if not channels_first else [(0, 0), (0, 0), rows, columns]
    )
    np.testing.assert_array_equal(got, np.pad(x, widths))


@settings(max_examples=60, deadline=None)
@given(
    x=_images(),
    pairs=st.tuples(PAIR, PAIR),
    spelling=st.sampled_from(["int", "symmetric", "pairs"]),
    channels_first=st.booleans(),
)
def test_cropping_2d_equals_numpys_slice_or_names_the_fix(x, pairs, spelling, channels_first):
    given_amounts, ((top, bottom), (left, right)) = _pairs(spelling, pairs)
    data_format = "channels_first" if channels_first else "channels_last"
    layer = layers.Cropping2D(given_amounts, data_format=data_format)
    height, width = (x.shape[2], x.shape[3]) if channels_first else x.shape[1:3]
    if top + bottom >= height or left + right >= width:
        with pytest.raises(InvalidArgumentError, match="leaving none; crop less"):
            layer(x)
        return
    got = layer(x).numpy()
    window = (slice(top, height - bottom), slice(left, width - right))
    expected = x[:, :, window[0], window[1]] if channels_first else x[:, window[0], window[1]]
    np.testing.assert_array_equal(got, expected)


@settings(max_examples=40, deadline=None)
@given(
    x=hnp.arrays(np.float32, st.tuples(st.integers(1, 3), st.integers(1, 6), st.integers(1, 3))),
    pair=PAIR,
    as_int=st.booleans(),
)
def test_the_1d_layers_equal_numpy_along_the_time_axis(x, pair, as_int):
    before, after = (pair[0], pair[0]) if as_int else pair
    amounts = pair[0] if as_int else pair
    padded = layers.ZeroPadding1D(amounts)(x).numpy()
    np.testing.assert_array_equal(padded, np.pad(x, [(0, 0), (before, after), (0, 0)]))
    if before + after < x.shape[1]:
        cropped = layers.Cropping1D(amounts)(x).numpy()
        np.testing.assert_array_equal(cropped, x[:, before : x.shape[1] - after])


def test_gradients_reach_the_kept_values_only():
    x = ek.constant(np.arange(2 * 4 * 4 * 1, dtype=np.float64).reshape(2, 4, 4, 1))
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = layers.Cropping2D(((1, 0), (0, 2)), dtype="float64")(x)
        z = layers.ZeroPadding2D(1, dtype="float64")(y)
        loss = ek.reduce_sum(z * z)
    expected = np.zeros(x.shape)
    expected[:, 1:, :2] = 2 * x.numpy()[:, 1:, :2]
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), expected)
    ek.testing.check_grads(layers.ZeroPadding1D((1, 2), dtype="float64"), ek.ones([1, 2, 1]))


def test_defaults_and_configs_are_keras():
    assert layers.ZeroPadding2D().get_config()["padding"] == [[1, 1], [1, 1]]
    assert layers.ZeroPadding2D().get_config()["data_format"] == "channels_last"
    assert layers.Cropping2D().get_config()["cropping"] == [[0, 0], [0, 0]]
    assert layers.ZeroPadding1D().get_config()["padding"] == [1, 1]
    assert layers.Cropping1D().get_config()["cropping"] == [1, 1]
    for layer in (
        layers.ZeroPadding2D((2, 3), data_format="channels_first"),
        layers.Cropping2D(((1, 0), (0, 2))),
        layers.ZeroPadding1D((0, 2)),
        layers.Cropping1D(3),
    ):
        again = type(layer).from_config(layer.get_config())
        assert again.get_config() == layer.get_config()


def test_in_models_with_summary_and_saving(tmp_path):
    model = ek.keras.Sequential(
        [
            layers.ZeroPadding2D(1, input_shape=(5, 5, 1)),
            layers.Conv2D(2, 3),
            layers.Cropping2D(((1, 0), (0, 1))),
            layers.Flatten(),
            layers.Dense(1),
        ]
    )
    lines = []
    model.summary(print_fn=lines.append)
    text = "\n".join(lines)
    assert "(None, 7, 7, 1)" in text and "(None, 4, 4, 2)" in text and "Total params: 53" in text
    inputs = ek.keras.Input(shape=[None, 3])
    outputs = layers.Cropping1D(1)(layers.ZeroPadding1D(2)(inputs))
    assert outputs.shape.as_list() == [None, None, 3]
    x = np.random.default_rng(1).normal(size=(4, 5, 5, 1)).astype(np.float32)
    model.compile("sgd", "mse")
    model.fit(x, np.ones([4, 1], np.float32), epochs=1, verbose=0)
    path = str(tmp_path / "padded.keras")
    model.save(path)
    loaded = ek.keras.models.load_model(path)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0))


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda: layers.ZeroPadding2D(-1), "ZeroPadding2D: padding must be an int, a pair"),
        (lambda: layers.ZeroPadding2D((1, 2, 3)), "((top, bottom), (left, right))"),
        (lambda: layers.Cropping2D(((1, 1), 2)), "Cropping2D: cropping must be"),
        (lambda: layers.ZeroPadding1D(1.5), "ZeroPadding1D: padding must be an int, or a pair"),
        (lambda: layers.Cropping1D(((1, 1), (1, 1))), "Cropping1D: cropping must be"),
        (lambda: layers.ZeroPadding2D(data_format="NHWC"), "data_format must be"),
        (lambda: layers.ZeroPadding2D()(ek.ones([2, 3])), "expects input of rank 4"),
        (lambda: layers.Cropping1D()(ek.ones([2, 3])), "expects input of rank 3"),
        (lambda: layers.Cropping1D(2)(ek.ones([1, 4, 1])), "removes 4 of the 4 rows of axis 1"),
    ],
)
def test_bad_arguments_and_inputs_name_the_layer_and_the_fix(make, words):
    with pytest.raises(InvalidArgumentError) as caught:
        make()
    assert words in str(caught.value)
