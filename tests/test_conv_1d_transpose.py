"""conv1d, conv2d_transpose, conv1d_transpose, the 1-D pools, and the Keras layers built on
them (Conv1D, MaxPooling1D, AveragePooling1D, Conv2DTranspose, UpSampling2D): values
against textbook loops written here (hypothesis over shapes, strides, paddings and
dilations), TF's and Keras' output shapes, gradients by finite differences (to second
order), errors that name the call, the shapes and the fix; PyTorch too where installed."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.conv import pads
from eagerkit.testing import check_grads

layers = ek.keras.layers
rng = np.random.default_rng(7)


# --- textbook references ------------------------------------------------------------------
def naive_conv1d(x, w, stride, padding, dilation):
    """out[b, t] = sum over taps k of x[b, t * stride + k * dilation - before] @ w[k]."""
    n, steps, _ = x.shape
    taps, _, filters = w.shape
    before, _, out_steps = pads(steps, (taps - 1) * dilation + 1, stride, padding)
    out = np.zeros((n, out_steps, filters))
    for t in range(out_steps):
        for k in range(taps):
            source = t * stride + k * dilation - before
            if 0 <= source < steps:
                out[:, t] += x[:, source] @ w[k]
    return out


def naive_conv2d_transpose(x, w, out_shape, strides, padding, dilations):
    """Each input pixel spreads ``w`` over the output: conv2d read backwards (its adjoint)."""
    n, height, width, _ = x.shape
    kh, kw = w.shape[:2]
    spans = [(k - 1) * d + 1 for k, d in zip((kh, kw), dilations, strict=True)]
    top = pads(out_shape[1], spans[0], strides[0], padding)[0]
    left = pads(out_shape[2], spans[1], strides[1], padding)[0]
    out = np.zeros(out_shape)
    for i in range(height):
        for j in range(width):
            for a in range(kh):
                for c in range(kw):
                    r = i * strides[0] + a * dilations[0] - top
                    q = j * strides[1] + c * dilations[1] - left
                    if 0 <= r < out_shape[1] and 0 <= q < out_shape[2]:
                        out[:, r, q] += x[:, i, j] @ w[a, c].T  # w[a, c]: [out, in]
    return out


def naive_pool1d(x, size, stride, padding, reduce):
    before, _, out_steps = pads(x.shape[1], size, stride, padding)
    starts = [t * stride - before for t in range(out_steps)]
    return np.stack([reduce(x[:, max(s, 0) : s + size], axis=1) for s in starts], axis=1)


def fitting_size(size, stride, span, padding, extra):
    """An output size conv2d maps back to ``size`` (``extra`` < stride picks which)."""
    return (size - 1) * stride + (1 if padding == "SAME" else span) + extra


def bilinear_rows(x, factor):
    """TF2's half-pixel bilinear resize of axis 1 by an integer factor."""
    size = x.shape[1]
    out = []
    for o in range(size * factor):
        source = (o + 0.5) / factor - 0.5
        lower = max(int(np.floor(source)), 0)
        upper = min(int(np.ceil(source)), size - 1)
        weight = source - np.floor(source)
        out.append((1 - weight) * x[:, lower] + weight * x[:, upper])
    return np.stack(out, axis=1)


PADDINGS = st.sampled_from(["SAME", "VALID"])


# --- ops ----------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(
    steps=st.integers(1, 9),
    taps=st.integers(1, 4),
    stride=st.integers(1, 3),
    dilation=st.integers(1, 2),
    padding=PADDINGS,
    channels=st.integers(1, 3),
)
def test_conv1d_matches_a_loop(steps, taps, stride, dilation, padding, channels):
    x = rng.standard_normal((2, steps, channels))
    w = rng.standard_normal((taps, channels, 2))
    if padding == "VALID" and (taps - 1) * dilation + 1 > steps:
        with pytest.raises(InvalidArgumentError, match="does not fit .* use padding='SAME'"):
            ek.nn.conv1d(x, w, stride, padding, dilations=dilation)
        return
    y = ek.nn.conv1d(x, w, stride=stride, padding=padding, dilations=dilation)
    expected = naive_conv1d(x, w, stride, padding, dilation)
    assert y.shape == expected.shape
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-10, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(
    image=st.tuples(st.integers(1, 4), st.integers(1, 4)),
    kernel=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    strides=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    dilations=st.sampled_from([(1, 1), (2, 1), (1, 2)]),
    padding=PADDINGS,
    data=st.data(),
)
def test_conv2d_transpose_matches_a_loop(image, kernel, strides, dilations, padding, data):
    spans = [(k - 1) * d + 1 for k, d in zip(kernel, dilations, strict=True)]
    extras = [data.draw(st.integers(0, s - 1)) for s in strides]
    out_h, out_w = (
        fitting_size(n, s, span, padding, extra)
        for n, s, span, extra in zip(image, strides, spans, extras, strict=True)
    )
    x = rng.standard_normal((2, *image, 3))
    w = rng.standard_normal((*kernel, 2, 3))  # [h, w, out, in]
    shape = (2, out_h, out_w, 2)
    y = ek.nn.conv2d_transpose(x, w, shape, strides, padding, dilations=dilations)
    assert tuple(y.shape) == shape
    expected = naive_conv2d_transpose(x, w, shape, strides, padding, dilations)
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-10, atol=1e-12)
    # it is conv2d's adjoint: <conv2d(z, w), x> == <z, conv2d_transpose(x, w)>
    z = rng.standard_normal(shape)
    forward = ek.nn.conv2d(z, w.transpose(0, 1, 3, 2).swapaxes(2, 3), strides, padding, dilations)
    assert forward.shape == x.shape
    np.testing.assert_allclose(np.sum(forward.numpy() * x), np.sum(z * y.numpy()), rtol=1e-9)


@settings(max_examples=25, deadline=None)
@given(
    steps=st.integers(1, 5),
    taps=st.integers(1, 3),
    stride=st.integers(1, 3),
    padding=PADDINGS,
    data=st.data(),
)
def test_conv1d_transpose_is_conv2d_transpose_one_pixel_high(steps, taps, stride, padding, data):
    width = fitting_size(steps, stride, taps, padding, data.draw(st.integers(0, stride - 1)))
    x = rng.standard_normal((1, steps, 2))
    w = rng.standard_normal((taps, 3, 2))
    y = ek.nn.conv1d_transpose(x, w, [1, width, 3], stride, padding)
    expected = naive_conv2d_transpose(
        x[:, None], w[None], (1, 1, width, 3), (1, stride), padding, (1, 1)
    )
    np.testing.assert_allclose(y.numpy(), expected[:, 0], rtol=1e-10, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(
    steps=st.integers(1, 8),
    size=st.integers(1, 3),
    stride=st.integers(1, 3),
    padding=PADDINGS,
    reduce=st.sampled_from(["max", "mean"]),
)
def test_pool1d_matches_a_loop(steps, size, stride, padding, reduce):
    x = rng.standard_normal((2, steps, 3))
    pool = ek.nn.max_pool1d if reduce == "max" else ek.nn.avg_pool1d
    if padding == "VALID" and size > steps:
        with pytest.raises(InvalidArgumentError, match="does not fit"):
            pool(x, size, stride, padding)
        return
    expected = naive_pool1d(x, size, stride, padding, getattr(np, reduce))
    np.testing.assert_allclose(pool(x, size, stride, padding).numpy(), expected, rtol=1e-12)


@pytest.mark.parametrize(
    "f, shapes",
    [
        (lambda x, w: ek.nn.conv1d(x, w, 2, "SAME"), [(1, 5, 2), (3, 2, 2)]),
        (lambda x, w: ek.nn.conv1d(x, w, 1, "VALID", dilations=2), [(2, 6, 1), (2, 1, 2)]),
        (
            lambda x, w: ek.nn.conv2d_transpose(x, w, [1, 5, 4, 2], (2, 2), "VALID"),
            [(1, 2, 2, 3), (3, 2, 2, 3)],
        ),
        (
            lambda x, w: ek.nn.conv2d_transpose(x, w, [1, 4, 3, 1], (2, 1), "SAME") ** 2,
            [(1, 2, 3, 2), (2, 2, 1, 2)],
        ),
        (lambda x, w: ek.nn.conv1d_transpose(x, w, [1, 6, 2], 2), [(1, 3, 1), (2, 2, 1)]),
    ],
)
def test_gradients_to_second_order(f, shapes):
    x, w = (rng.standard_normal(shape) for shape in shapes)
    check_grads(f, x, w, order=2)


@pytest.mark.parametrize("pool", [ek.nn.max_pool1d, ek.nn.avg_pool1d])
def test_pool1d_gradients_to_second_order(pool):
    x = rng.permutation(24).reshape(2, 6, 2) + rng.uniform(0, 0.1, (2, 6, 2))  # no ties
    check_grads(lambda x: pool(x, 3, 2, "SAME") ** 2, x, order=2)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: ek.nn.conv1d(np.ones((5, 2)), np.ones((2, 2, 1)), 1, "SAME"), r"rank 3.*\(5, 2\)"),
        (
            lambda: ek.nn.conv1d(np.ones((1, 5, 2)), np.ones((2, 3, 1)), 1, "SAME"),
            r"\(1, 1, 5, 2\)",
        ),
        (lambda: ek.nn.conv1d(np.ones((1, 5, 2)), np.ones((2, 2, 1)), 0, "SAME"), "stride"),
        (lambda: ek.nn.conv1d(np.ones((1, 5, 2)), np.ones((2, 2, 1)), 1, "FULL"), "'SAME' or"),
        (lambda: ek.nn.conv1d(np.ones((1, 5, 2)), np.ones((2, 2, 1)), 1, "SAME", "NCW"), "NWC"),
        (
            lambda: ek.nn.conv2d_transpose(
                np.ones((1, 2, 2, 3)), np.ones((3, 3, 4, 3)), [1, 5, 4, 4], 2
            ),
            r"output_shape \[1, 5, 4, 4\] does not fit .*pass output heights 3 to 4",
        ),
        (
            lambda: ek.nn.conv2d_transpose(
                np.ones((1, 2, 2, 3)), np.ones((3, 3, 4, 2)), [1, 4, 4, 4], 2
            ),
            r"filters \(3, 3, 4, 2\) .*last axis must be the input's channels",
        ),
        (
            lambda: ek.nn.conv2d_transpose(
                np.ones((1, 2, 2, 3)), np.ones((3, 3, 4, 3)), [1, 4, 4], 2
            ),
            r"output_shape \[1, 4, 4\]",
        ),
        (
            lambda: ek.nn.conv1d_transpose(np.ones((1, 2, 1)), np.ones((3, 1, 1)), [1, 5], 2),
            r"output_shape must be \[batch, width, out_channels\], got \[1, 5\]",
        ),
        (lambda: ek.nn.max_pool1d(np.ones((4, 2)), 2, 2, "SAME"), r"rank 3.*x\[None\]"),
    ],
)
def test_bad_arguments_name_the_call_the_shapes_and_the_fix(call, words):
    with pytest.raises(InvalidArgumentError, match=words):
        call()


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


# --- PyTorch, where installed -------------------------------------------------------------
def test_against_pytorch_when_installed():
    torch = pytest.importorskip("torch")
    functional = torch.nn.functional
    x = rng.standard_normal((2, 9, 3))
    w = rng.standard_normal((3, 3, 4))  # [taps, in, out]
    theirs = functional.conv1d(
        torch.tensor(x).permute(0, 2, 1), torch.tensor(w).permute(2, 1, 0), stride=2, dilation=1
    ).permute(0, 2, 1)
    ours = ek.nn.conv1d(x, w, 2, "VALID")
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-10, atol=1e-12)
    images = rng.standard_normal((2, 3, 4, 3))
    filters = rng.standard_normal((3, 2, 5, 3))  # [h, w, out, in]
    theirs = functional.conv_transpose2d(
        torch.tensor(images).permute(0, 3, 1, 2),
        torch.tensor(filters).permute(3, 2, 0, 1),  # [in, out, h, w]
        stride=2,
        output_padding=1,
    ).permute(0, 2, 3, 1)
    ours = ek.nn.conv2d_transpose(images, filters, list(theirs.shape), 2, "VALID")
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-10, atol=1e-12)
