"""The Keras layers built on conv1d, conv2d_transpose and the 1-D pools (Conv1D,
MaxPooling1D, AveragePooling1D, Conv2DTranspose, UpSampling2D): values against textbook
loops (tests/conv_references.py), Keras' output sizes, gradients, configs, errors, models
that train, and one relaxed trace for every batch size."""

import numpy as np
import pytest
from conv_references import bilinear_rows, naive_conv1d, naive_conv2d_transpose, naive_pool1d

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError
from eagerkit.testing import check_grads

layers = ek.keras.layers
rng = np.random.default_rng(8)


# --- Keras layers -------------------------------------------------------------------------
@pytest.mark.parametrize("padding", ["valid", "same", "causal"])
@pytest.mark.parametrize("strides, dilation", [(1, 1), (2, 1), (1, 2)])
def test_conv1d_layer_is_the_loop_plus_bias(padding, strides, dilation):
    layer = layers.Conv1D(
        4,
        3,
        strides=strides,
        padding=padding,
        dilation_rate=dilation,
        bias_initializer="ones",
        activation="relu",
    )
    x = rng.standard_normal((2, 9, 3)).astype(np.float32)
    y = layer(x)
    kernel = layer.kernel.numpy().astype(np.float64)
    if padding == "causal":  # the start padded with (taps - 1) * dilation steps
        source = np.pad(x, ((0, 0), (2 * dilation, 0), (0, 0)))
        expected = naive_conv1d(source, kernel, strides, "VALID", dilation)
    else:
        expected = naive_conv1d(x, kernel, strides, padding.upper(), dilation)
    np.testing.assert_allclose(y.numpy(), np.maximum(expected + 1, 0), rtol=1e-5, atol=1e-5)
    assert layer.kernel.shape == (3, 3, 4)


def test_causal_conv1d_output_at_t_sees_no_later_step():
    layer = layers.Conv1D(2, 4, padding="causal", dilation_rate=2)
    x = rng.standard_normal((1, 12, 1)).astype(np.float32)
    later = x.copy()
    later[:, 7:] += 5.0
    np.testing.assert_array_equal(layer(x).numpy()[:, :7], layer(later).numpy()[:, :7])


@pytest.mark.parametrize(
    "layer_class, reduce", [(layers.MaxPooling1D, np.max), (layers.AveragePooling1D, np.mean)]
)
@pytest.mark.parametrize("padding", ["valid", "same"])
def test_pooling1d_layers_default_their_strides_to_the_window(layer_class, reduce, padding):
    x = rng.standard_normal((2, 7, 3)).astype(np.float32)
    y = layer_class(3, padding=padding)(x)
    np.testing.assert_allclose(y.numpy(), naive_pool1d(x, 3, 3, padding.upper(), reduce), rtol=1e-6)
    first = layer_class(pool_size=2, strides=1, data_format="channels_first")
    moved = first(np.swapaxes(x, 1, 2)).numpy()
    np.testing.assert_allclose(
        np.swapaxes(moved, 1, 2), naive_pool1d(x, 2, 1, "VALID", reduce), rtol=1e-6
    )


@pytest.mark.parametrize(
    "size, kernel, strides, padding, output_padding, dilation, expected",
    [  # Keras' deconv_output_length
        (7, 3, 2, "same", None, 1, 14),
        (7, 3, 2, "valid", None, 1, 15),
        (7, 3, 2, "same", 1, 1, 14),
        (7, 3, 2, "valid", 1, 1, 16),
        (4, 4, 2, "same", 1, 1, 7),
        (5, 1, 3, "valid", None, 1, 15),
        (5, 3, 1, "same", None, 2, 5),
        (5, 3, 1, "valid", None, 2, 9),
    ],
)
def test_conv2d_transpose_layer_has_keras_output_sizes_and_the_loops_values(
    size, kernel, strides, padding, output_padding, dilation, expected
):
    layer = layers.Conv2DTranspose(
        2,
        kernel,
        strides=strides,
        padding=padding,
        output_padding=output_padding,
        dilation_rate=dilation,
        bias_initializer="ones",
    )
    x = rng.standard_normal((1, size, size, 3)).astype(np.float32)
    y = layer(x)
    assert y.shape == (1, expected, expected, 2)
    assert layer.kernel.shape == (kernel, kernel, 2, 3)
    loop = naive_conv2d_transpose(
        x,
        layer.kernel.numpy(),
        (1, expected, expected, 2),
        (strides, strides),
        padding.upper(),
        (dilation, dilation),
    )
    np.testing.assert_allclose(y.numpy(), loop + 1, rtol=1e-5, atol=1e-5)


def test_conv2d_transpose_layer_channels_first_and_in_a_model_that_trains():
    inputs = ek.keras.Input(shape=(3, 4, 4))
    up = layers.Conv2DTranspose(2, 3, strides=2, padding="same", data_format="channels_first")
    model = ek.keras.Model(inputs, up(inputs))
    assert model.output_shape == (None, 2, 8, 8)
    x = rng.standard_normal((2, 3, 4, 4)).astype(np.float32)
    last = np.transpose(
        layers.Conv2DTranspose(2, 3, strides=2, padding="same")(
            np.transpose(x, (0, 2, 3, 1))
        ).numpy(),
        (0, 3, 1, 2),
    )
    assert last.shape == model(x).shape
    model.compile(optimizer="sgd", loss="mse")
    history = model.fit(x, np.zeros((2, 2, 8, 8), np.float32), epochs=3, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]


def test_upsampling2d_nearest_repeats_and_bilinear_interpolates():
    x = rng.standard_normal((2, 3, 4, 2)).astype(np.float32)
    nearest = layers.UpSampling2D(size=(2, 3))(x).numpy()
    np.testing.assert_array_equal(nearest, np.repeat(np.repeat(x, 2, axis=1), 3, axis=2))
    bilinear = layers.UpSampling2D(size=(2, 3), interpolation="bilinear")(x).numpy()
    expected = np.swapaxes(bilinear_rows(np.swapaxes(bilinear_rows(x, 2), 1, 2), 3), 1, 2)
    np.testing.assert_allclose(bilinear, expected, rtol=1e-5, atol=1e-6)
    first = layers.UpSampling2D(data_format="channels_first")(np.transpose(x, (0, 3, 1, 2)))
    np.testing.assert_array_equal(
        np.transpose(first.numpy(), (0, 2, 3, 1)), np.repeat(np.repeat(x, 2, 1), 2, 2)
    )


@pytest.mark.parametrize("interpolation", ["nearest", "bilinear"])
def test_upsampling2d_passes_gradients(interpolation):
    layer = layers.UpSampling2D(size=2, interpolation=interpolation, dtype="float64")
    check_grads(lambda x: layer(x) ** 2, rng.standard_normal((1, 2, 3, 1)), order=2)


def test_the_layers_save_their_config_and_come_back():
    made = [
        layers.Conv1D(3, 2, strides=2, padding="causal", dilation_rate=1, activation="tanh"),
        layers.MaxPooling1D(3, strides=1, padding="same"),
        layers.AveragePooling1D(),
        layers.Conv2DTranspose(4, (3, 2), strides=(2, 1), output_padding=(1, 0), padding="same"),
        layers.UpSampling2D((2, 1), interpolation="bilinear"),
    ]
    for layer in made:
        clone = type(layer).from_config(layer.get_config())
        assert clone.get_config() == layer.get_config()
    model = ek.keras.Sequential([ek.keras.Input(shape=(6, 2)), made[0], made[1], made[2]])
    again = ek.keras.models.model_from_json(model.to_json())
    assert [type(x).__name__ for x in again.layers] == [
        "Conv1D",
        "MaxPooling1D",
        "AveragePooling1D",
    ]


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda: layers.Conv1D(2, 3, padding="full"), "'valid', 'same' or 'causal'"),
        (lambda: layers.Conv1D(2, (3, 3)), "kernel_size must be a whole number or a tuple of one"),
        (lambda: layers.Conv1D(2, 2.5), "kernel_size must be a whole number"),
        (lambda: layers.MaxPooling1D(0), "pool_size must be a whole number >= 1"),
        (
            lambda: layers.Conv2DTranspose(2, 3, strides=2, output_padding=2),
            "smaller than its stride",
        ),
        (lambda: layers.UpSampling2D(interpolation="bicubic"), r"\['nearest', 'bilinear'\]"),
        (lambda: layers.UpSampling2D(size=1.5), "size must be a whole number"),
    ],
)
def test_bad_layer_arguments_are_refused_with_what_to_pass(make, words):
    with pytest.raises(InvalidArgumentError, match=words):
        make()


@pytest.mark.parametrize(
    "layer, x, words",
    [
        (layers.Conv1D(2, 2), np.ones((4, 3), np.float32), r"rank 3.*\(4, 3\)"),
        (layers.MaxPooling1D(), np.ones((1, 4, 4, 1), np.float32), "rank 3"),
        (layers.Conv2DTranspose(2, 2), np.ones((4, 4, 1), np.float32), "rank 4"),
        (layers.UpSampling2D(), np.ones((4, 4), np.float32), "rank 4"),
    ],
)
def test_inputs_of_the_wrong_rank_are_refused(layer, x, words):
    with pytest.raises(InvalidArgumentError, match=words):
        layer(x)


def test_an_output_padding_conv2d_cannot_undo_is_refused_naming_it():
    layer = layers.Conv2DTranspose(2, 4, strides=2, padding="same", output_padding=0)
    with pytest.raises(InvalidArgumentError, match=r"output_padding \(0, 0\) .* gives 6x6 images"):
        layer(np.ones((1, 4, 4, 3), np.float32))


def test_a_built_conv1d_refuses_other_channels():
    layer = layers.Conv1D(2, 2)
    layer(np.ones((1, 4, 3), np.float32))
    with pytest.raises(InvalidArgumentError, match="built for sequences with 3 channels"):
        layer(np.ones((1, 4, 5), np.float32))


def test_the_layers_in_one_relaxed_trace_follow_each_batch_size():
    """``ek.function(reduce_retracing=True)``: one trace for batches of any size."""
    image_model = ek.keras.Sequential(
        [
            layers.Conv2DTranspose(2, 3, strides=2, padding="same"),
            layers.UpSampling2D(interpolation="bilinear"),
            layers.Conv2D(1, 1),
        ]
    )
    sequence_model = ek.keras.Sequential(
        [layers.Conv1D(3, 3, padding="causal"), layers.MaxPooling1D(), layers.AveragePooling1D()]
    )
    step = ek.function(lambda x, y: (image_model(x), sequence_model(y)), reduce_retracing=True)
    for batch in (2, 3, 5, 1):
        images = rng.standard_normal((batch, 4, 4, 3)).astype(np.float32)
        sequences = rng.standard_normal((batch, 9, 2)).astype(np.float32)
        traced_images, traced_sequences = step(images, sequences)
        np.testing.assert_allclose(traced_images.numpy(), image_model(images).numpy(), rtol=1e-5)
        np.testing.assert_allclose(
            traced_sequences.numpy(), sequence_model(sequences).numpy(), rtol=1e-5
        )
    assert step.experimental_get_tracing_count() == 2
