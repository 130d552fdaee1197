"""Layers: lazy variables, output shapes, values, gradients through them, and clear errors."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.testing import check_grads

rng = np.random.default_rng(7)


def check_layer_grads(layer, x, *weight_names, order=1, **call_kwargs):
    """check_grads with respect to the input and the named weights of a built ``layer``.

    The weights are swapped for plain tensors for the check (the layer reads them as
    attributes), so finite differences can move them.
    """
    layer(x, **call_kwargs)  # build
    originals = [getattr(layer, name) for name in weight_names]

    def f(x, *weights):
        for name, value in zip(weight_names, weights, strict=True):
            setattr(layer, name, value)
        return layer(x, **call_kwargs)

    try:
        check_grads(f, x, *[w.numpy() for w in originals], order=order)
    finally:
        for name, value in zip(weight_names, originals, strict=True):
            setattr(layer, name, value)


# --- Dense ----------------------------------------------------------------------------------
def test_dense_makes_its_variables_on_the_first_call():
    layer = ek.layers.Dense(3, name="d")
    assert layer.variables == [] and not layer.built
    y = layer(ek.ones([2, 5]))
    assert y.shape == (2, 3) and layer.built
    assert [(v.name, v.shape) for v in layer.variables] == [
        ("d/kernel:0", (5, 3)),
        ("d/bias:0", (3,)),
    ]
    np.testing.assert_allclose(y.numpy(), np.ones((2, 5)) @ layer.kernel.numpy(), rtol=1e-6)


def test_dense_on_rank_3_input_multiplies_the_last_axis():
    layer = ek.layers.Dense(4, activation="tanh", dtype="float64")
    x = rng.standard_normal((2, 3, 5))
    y = layer(x)
    assert y.shape == (2, 3, 4) and y.dtype == ek.float64
    np.testing.assert_allclose(y.numpy(), np.tanh(x @ layer.kernel.numpy()), rtol=1e-12)
    check_layer_grads(layer, x, "kernel", "bias", order=2)


def test_dense_casts_float64_inputs_to_its_float32():
    assert ek.layers.Dense(2)(np.ones((1, 3))).dtype == ek.float32


def test_dense_rejects_rank_1_input_and_makes_no_variables():
    layer = ek.layers.Dense(3, name="head")
    with pytest.raises(ek.errors.InvalidArgumentError) as info:
        layer([1.0, 2.0])
    message = str(info.value)
    assert "Dense layer 'head'" in message and "(2,)" in message
    assert "ek.reshape(x, [1, -1])" in message
    assert layer.variables == [] and not layer.built


def test_dense_rejects_a_different_feature_count_after_building():
    layer = ek.layers.Dense(3, name="head")
    layer(ek.ones([1, 4]))
    with pytest.raises(
        ek.errors.InvalidArgumentError,
        match=r"built for inputs with 4 features.*"
        r"\(1, 5\)",
    ):
        layer(ek.ones([1, 5]))


def test_activations_by_name_and_unknown_names():
    x = ek.constant([[-1.0, 2.0]])
    for name, expected in [
        ("relu", [0.0, 2.0]),
        ("elu", [np.exp(-1) - 1, 2.0]),
        ("leaky_relu", [-0.2, 2.0]),
        ("sigmoid", 1 / (1 + np.exp([1, -2]))),
    ]:
        layer = ek.layers.Dense(2, activation=name, kernel_initializer=lambda s, dtype: ek.eye(2))
        np.testing.assert_allclose(layer(x).numpy()[0], expected, rtol=1e-6)
    with pytest.raises(ValueError, match="unknown activation 'relu7'"):
        ek.layers.Dense(2, activation="relu7")


# --- Conv2D and pooling ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "shape"),
    [
        ({"padding": "same"}, (2, 8, 8, 4)),
        ({"padding": "valid"}, (2, 6, 6, 4)),
        ({"padding": "same", "strides": 2}, (2, 4, 4, 4)),
        ({"padding": "valid", "dilation_rate": 2}, (2, 4, 4, 4)),
    ],
)
def test_conv2d_layer_output_shapes(kwargs, shape):
    layer = ek.layers.Conv2D(4, 3, **kwargs)
    assert layer(ek.zeros([2, 8, 8, 3])).shape == shape
    assert [v.shape for v in layer.variables] == [(3, 3, 3, 4), (4,)]


def test_conv2d_layer_gradients_to_second_order():
    layer = ek.layers.Conv2D(
        2, (2, 3), strides=(2, 1), padding="same", activation="tanh", dtype="float64"
    )
    check_layer_grads(layer, rng.standard_normal((1, 5, 4, 2)), "kernel", "bias", order=2)


def test_conv2d_channels_first_gives_the_same_numbers_transposed():
    last = ek.layers.Conv2D(3, 3, padding="same")
    first = ek.layers.Conv2D(3, 3, padding="same", data_format="channels_first")
    x = rng.standard_normal((2, 5, 5, 2)).astype(np.float32)
    y_last = last(x)
    first(np.transpose(x, (0, 3, 1, 2)))
    first.kernel.assign(last.kernel)
    y_first = first(np.transpose(x, (0, 3, 1, 2)))
    np.testing.assert_allclose(
        np.transpose(y_first.numpy(), (0, 2, 3, 1)), y_last.numpy(), rtol=1e-5
    )


def test_conv2d_layer_on_a_rank_3_input_names_layer_shape_and_fix():
    layer = ek.layers.Conv2D(8, 3, name="conv1")
    with pytest.raises(ek.errors.InvalidArgumentError) as info:
        layer(ek.zeros([28, 28, 1]))
    message = str(info.value)
    assert "Conv2D layer 'conv1' expects input of rank 4 [batch, height, width, channels]" in (
        message
    )
    assert "(28, 28, 1)" in message and "ek.expand_dims(x, 0)" in message
    assert layer.variables == []


def test_conv2d_layer_rejects_a_different_channel_count_after_building():
    layer = ek.layers.Conv2D(4, 3, name="conv_rgb")
    layer(ek.zeros([1, 5, 5, 3]))
    with pytest.raises(
        ek.errors.InvalidArgumentError,
        match=r"Conv2D layer 'conv_rgb' was built for images with 3 channels but got shape "
        r"\(1, 5, 5, 1\)",
    ):
        layer(ek.zeros([1, 5, 5, 1]))


def test_bad_conv_arguments_fail_at_construction():
    with pytest.raises(ValueError, match="data_format must be 'channels_last'"):
        ek.layers.Conv2D(4, 3, data_format="NHWC")
    with pytest.raises(ValueError, match="padding must be 'SAME' or 'VALID'"):
        ek.layers.MaxPool2D(padding="full")


@pytest.mark.parametrize("layer_class", [ek.layers.MaxPooling2D, ek.layers.AveragePooling2D])
def test_pooling_layers_shapes_and_gradients(layer_class):
    assert layer_class()(ek.zeros([2, 7, 7, 3])).shape == (2, 3, 3, 3)
    assert layer_class(padding="same")(ek.zeros([2, 7, 7, 3])).shape == (2, 4, 4, 3)
    assert layer_class(3, strides=1)(ek.zeros([2, 7, 7, 3])).shape == (2, 5, 5, 3)
    x = rng.permutation(50).reshape(1, 5, 5, 2) / 7.0
    check_layer_grads(layer_class(2, padding="same", dtype="float64"), x, order=2)
    assert ek.layers.MaxPool2D is ek.layers.MaxPooling2D


# --- Dropout, Flatten, Reshape, Embedding ----------------------------------------------------
def test_dropout_is_the_identity_unless_training():
    drop = ek.layers.Dropout(0.75)
    x = ek.ones([1000])
    assert drop(x) is x
    assert drop(x, training=False) is x
    y = drop(x, training=True).numpy()
    assert set(np.unique(y)) == {0.0, 4.0}  # kept values are scaled by 1 / (1 - rate)
    assert 0.2 < np.mean(y > 0) < 0.3  # rate is the fraction DROPPED


def test_dropout_gradient_is_the_mask():
    drop = ek.layers.Dropout(0.5, seed=3)
    x = ek.ones([20])
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = drop(x, training=True)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), y.numpy())


def test_dropout_rate_must_be_a_fraction():
    with pytest.raises(ValueError, match=r"rate is the fraction to DROP.*got 1.5"):
        ek.layers.Dropout(1.5)


def test_flatten_and_reshape():
    x = ek.reshape(ek.range(24.0), [2, 3, 4])
    assert ek.layers.Flatten()(x).shape == (2, 12)
    assert ek.layers.flatten(x).numpy().tolist() == np.arange(24.0).reshape(2, 12).tolist()
    assert ek.layers.Reshape([4, 3])(x).shape == (2, 4, 3)
    assert ek.layers.Reshape([-1, 2])(x).shape == (2, 6, 2)
    check_layer_grads(ek.layers.Reshape([6, 2], dtype="float64"), rng.standard_normal((2, 12)))
    with pytest.raises(ek.errors.InvalidArgumentError, match="cannot reshape"):
        ek.layers.Reshape([5])(x)


def test_embedding_looks_up_rows_and_sums_gradients_of_repeats():
    layer = ek.layers.Embedding(5, 3)
    ids = ek.constant([[1, 4, 1]])
    with ek.GradientTape() as tape:
        y = layer(ids)
    assert y.shape == (1, 3, 3)
    np.testing.assert_array_equal(y.numpy()[0], layer.embeddings.numpy()[[1, 4, 1]])
    (grad,) = tape.gradient(y, layer.trainable_variables)
    assert grad.numpy()[:, 0].tolist() == [0.0, 2.0, 0.0, 0.0, 1.0]
    assert np.all(np.abs(layer.embeddings.numpy()) <= 0.05)


# --- BatchNormalization ----------------------------------------------------------------------
def test_batch_normalization_training_and_inference():
    bn = ek.layers.BatchNormalization(momentum=0.5, epsilon=0.0)
    x = ek.constant([[1.0, 10.0], [3.0, 30.0]])
    y = bn(x, training=True)
    np.testing.assert_allclose(y.numpy(), [[-1.0, -1.0], [1.0, 1.0]], rtol=1e-6)
    np.testing.assert_allclose(bn.moving_mean.numpy(), [1.0, 10.0])  # 0.5 * 0 + 0.5 * mean
    np.testing.assert_allclose(bn.moving_variance.numpy(), [1.0, 50.5])  # 0.5 * 1 + 0.5 * var
    inference = bn(x)  # the moving averages, not the batch
    np.testing.assert_allclose(inference.numpy()[:, 0], [0.0, 2.0], rtol=1e-6)
    assert [v.name for v in bn.trainable_variables] == [f"{bn.name}/gamma:0", f"{bn.name}/beta:0"]
    assert len(bn.non_trainable_variables) == 2


def test_batch_normalization_gradients_in_training_mode():
    bn = ek.layers.BatchNormalization(dtype="float64")
    check_layer_grads(bn, rng.standard_normal((4, 2, 3)), "gamma", "beta", order=2, training=True)


# --- LSTM and GRU ----------------------------------------------------------------------------
def numpy_lstm(x, kernel, recurrent, bias):
    sigmoid = lambda z: 1 / (1 + np.exp(-z))  # noqa: E731
    units = recurrent.shape[0]
    h = c = np.zeros((x.shape[0], units))
    for t in range(x.shape[1]):
        z = x[:, t] @ kernel + h @ recurrent + bias
        i, f, g, o = (z[:, k * units : (k + 1) * units] for k in range(4))
        c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
        h = sigmoid(o) * np.tanh(c)
    return h, c


def test_lstm_matches_the_textbook_equations():
    lstm = ek.layers.LSTM(3, return_state=True, dtype="float64")
    x = rng.standard_normal((2, 4, 5))
    output, h, c = lstm(x)
    expected_h, expected_c = numpy_lstm(
        x, lstm.kernel.numpy(), lstm.recurrent_kernel.numpy(), lstm.bias.numpy()
    )
    np.testing.assert_allclose(output.numpy(), expected_h, rtol=1e-12)
    np.testing.assert_allclose(c.numpy(), expected_c, rtol=1e-12)
    assert lstm.bias.numpy().tolist() == [0.0] * 3 + [1.0] * 3 + [0.0] * 6  # forget bias 1


@pytest.mark.parametrize("layer_class", [ek.layers.LSTM, ek.layers.GRU])
def test_recurrent_shapes_and_gradients(layer_class):
    assert layer_class(6)(ek.zeros([2, 5, 3])).shape == (2, 6)
    assert layer_class(6, return_sequences=True)(ek.zeros([2, 5, 3])).shape == (2, 5, 6)
    layer = layer_class(2, return_sequences=True, dtype="float64")
    check_layer_grads(layer, rng.standard_normal((2, 3, 2)), "kernel", "recurrent_kernel", "bias")


def test_gru_keeps_its_state_when_the_update_gate_is_shut():
    gru = ek.layers.GRU(2, bias_initializer=ek.initializers.constant(50.0))  # z = 1: keep h
    state = ek.constant([[0.5, -0.5]])
    output = gru(ek.ones([1, 3, 2]), initial_state=[state])
    np.testing.assert_allclose(output.numpy(), state.numpy(), atol=1e-6)


def test_recurrent_layer_rejects_a_rank_2_input():
    with pytest.raises(
        ek.errors.InvalidArgumentError,
        match=r"LSTM layer 'lstm_x' expects input of rank 3 \[batch, time, "
        r"features\], but got shape \(4, 5\)",
    ):
        ek.layers.LSTM(3, name="lstm_x")(ek.zeros([4, 5]))


# --- initializers ----------------------------------------------------------------------------
def test_initializers():
    init = ek.initializers
    values = init.glorot_uniform(seed=1)([300, 200]).numpy()
    limit = np.sqrt(6 / 500)
    assert values.min() >= -limit and values.max() <= limit and values.max() > 0.9 * limit
    assert init.get("zeros")([2]).numpy().tolist() == [0.0, 0.0]
    assert init.get("ones")([2], dtype=ek.float64).dtype == ek.float64
    assert init.constant(3.0)([2, 1]).numpy().tolist() == [[3.0], [3.0]]
    a, b = init.random_normal(seed=5)([4]), init.random_normal(seed=5)([4])
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert 0.0 < float(ek.reduce_max(ek.abs(a))) < 0.25  # stddev 0.05
    with pytest.raises(ValueError, match="unknown initializer 'he_normall'"):
        init.get("he_normall")
