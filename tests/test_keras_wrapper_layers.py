"""TimeDistributed and Lambda: values against numpy for any shapes, shared weights and
Keras' parameter counts, gradients, Sequential and functional models, fit, configs and
saving (a lambda refused with the fix), and errors that name the call."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError, UnimplementedError

layers = ek.keras.layers


@settings(max_examples=40, deadline=None)
@given(
    x=hnp.arrays(
        np.float32,
        st.tuples(st.integers(0, 3), st.integers(1, 4), st.integers(1, 3), st.integers(1, 3)),
        elements=st.floats(-3, 3, width=32),
    ),
    units=st.integers(1, 4),
)
def test_time_distributed_dense_equals_numpy_step_by_step(x, units):
    dense = layers.Dense(units, activation="tanh")
    steps = layers.TimeDistributed(dense)
    got = steps(x).numpy()
    kernel, bias = dense.kernel.numpy(), dense.bias.numpy()
    expected = np.stack([np.tanh(x[:, t] @ kernel + bias) for t in range(x.shape[1])], axis=1)
    assert got.shape == (*x.shape[:3], units)
    np.testing.assert_allclose(got, expected.reshape(got.shape), rtol=1e-5, atol=1e-6)
    assert dense.kernel.shape == (x.shape[-1], units)  # built for one step, not for the time


def test_time_distributed_conv_matches_the_layer_on_each_frame_and_shares_its_weights():
    rng = np.random.default_rng(0)
    video = rng.normal(size=(2, 3, 5, 5, 1)).astype(np.float32)
    conv = layers.Conv2D(4, 3)
    frames = layers.TimeDistributed(conv)
    got = frames(video).numpy()
    for t in range(3):
        np.testing.assert_allclose(got[:, t], conv(video[:, t]).numpy(), rtol=1e-5, atol=1e-6)
    assert frames.variables == conv.variables and frames.count_params() == 3 * 3 * 4 + 4


def test_time_distributed_gradients_sum_over_the_steps():
    dense = layers.Dense(2, dtype="float64")
    steps = layers.TimeDistributed(dense, dtype="float64")
    x = ek.constant(np.arange(12.0).reshape(2, 3, 2) / 10)
    with ek.GradientTape() as tape:
        tape.watch(x)
        loss = ek.reduce_sum(steps(x) ** 2)
    grad_kernel, grad_x = tape.gradient(loss, [dense.kernel, x])
    y = x.numpy() @ dense.kernel.numpy() + dense.bias.numpy()
    expected = sum(x.numpy()[:, t].T @ (2 * y[:, t]) for t in range(3))
    np.testing.assert_allclose(grad_kernel.numpy(), expected)
    np.testing.assert_allclose(grad_x.numpy(), 2 * y @ dense.kernel.numpy().T)


def test_time_distributed_in_sequential_and_functional_models_fits_and_saves(tmp_path):
    model = ek.keras.Sequential(
        [
            layers.TimeDistributed(layers.Dense(8, activation="relu"), input_shape=(10, 16)),
            layers.TimeDistributed(layers.Dense(1)),
        ]
    )
    lines = []
    model.summary(print_fn=lines.append)
    text = "\n".join(lines)
    # Keras' counts: 16 * 8 + 8 and 8 + 1, whatever the number of steps.
    assert "(None, 10, 8)" in text and "136" in text and "Total params: 145" in text
    rng = np.random.default_rng(2)
    x = rng.normal(size=(16, 10, 16)).astype(np.float32)
    y = x.sum(axis=-1, keepdims=True) / 4
    model.compile(ek.keras.optimizers.Adam(0.01), "mse")
    history = model.fit(x, y, epochs=5, batch_size=8, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    path = str(tmp_path / "steps.keras")
    model.save(path)
    loaded = ek.keras.models.load_model(path)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
    assert type(loaded.layers[0].layer).__name__ == "Dense"
    inputs = ek.keras.Input(shape=[None, 6, 6, 1])
    outputs = layers.TimeDistributed(layers.Conv2D(2, 3))(inputs)
    assert outputs.shape.as_list() == [None, None, 4, 4, 2]
    assert ek.keras.Model(inputs, outputs).count_params() == 20


def test_time_distributed_passes_training_on():
    steps = layers.TimeDistributed(layers.Dropout(0.5))
    x = ek.ones([2, 3, 100])
    assert steps(x).numpy().tolist() == x.numpy().tolist()
    assert set(np.unique(steps(x, training=True).numpy())) == {0.0, 2.0}


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda: layers.TimeDistributed("dense"), "TimeDistributed: layer must be a layer"),
        (lambda: layers.TimeDistributed(layers.Dense), "layer must be a layer instance"),
        (
            lambda: layers.TimeDistributed(layers.Dense(2))(ek.ones([2, 3])),
            "expects input of rank >= 3 [batch, time, ...]",
        ),
        (
            lambda: layers.TimeDistributed(layers.Lambda(lambda x: x[0]))(ek.ones([2, 3, 4])),
            "must return one tensor with a row per sample (shape [6, ...]",
        ),
    ],
)
def test_time_distributed_errors_name_the_call_and_the_fix(make, words):
    with pytest.raises(InvalidArgumentError) as caught:
        make()
    assert words in str(caught.value)


@settings(max_examples=40, deadline=None)
@given(
    x=hnp.arrays(
        np.float32,
        hnp.array_shapes(min_dims=2, max_dims=3, max_side=4),
        elements=st.floats(-100, 100, width=32),
    ),
    scale=st.floats(-3, 3, width=32),
)
def test_lambda_computes_the_function_with_its_arguments(x, scale):
    layer = layers.Lambda(lambda t, factor: t * factor + 1.0, arguments={"factor": scale})
    np.testing.assert_allclose(layer(x).numpy(), x * np.float32(scale) + 1.0, rtol=1e-6)


def test_lambda_gradients_and_training():
    x = ek.constant([[1.0, -2.0]], dtype=ek.float64)
    ek.testing.check_grads(layers.Lambda(lambda t: t**3, dtype="float64"), x)
    seen = []
    layer = layers.Lambda(lambda t, training=None: seen.append(training) or t)
    layer(x)
    layer(x, training=True)
    assert seen == [None, True]


def test_lambda_in_models_saves_by_name_and_refuses_a_python_lambda(tmp_path):
    @ek.keras.saving.register_keras_serializable(package="layers11_test")
    def halve(t):
        return t / 2.0

    model = ek.keras.Sequential(
        [layers.Lambda(halve, input_shape=(3,)), layers.Lambda(ek.square), layers.Dense(1)]
    )
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    path = str(tmp_path / "named.keras")
    model.save(path)
    loaded = ek.keras.models.load_model(path)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
    np.testing.assert_allclose(loaded.layers[1](loaded.layers[0](x)).numpy(), (x / 2) ** 2)
    anonymous = ek.keras.Sequential([layers.Lambda(lambda t: t * 2.0, input_shape=(3,))])
    with pytest.raises(UnimplementedError, match="is a Python lambda.*Define it with def"):
        anonymous.save(str(tmp_path / "anonymous.keras"))
    assert not (tmp_path / "anonymous.keras").exists()
    inputs = ek.keras.Input(shape=[4])
    outputs = layers.Lambda(lambda t: ek.concat([t, t], axis=-1))(inputs)
    assert outputs.shape.as_list() == [None, 8]


def test_lambda_output_shape_and_config():
    layer = layers.Lambda(ek.square, output_shape=(2,))
    assert layer.compute_output_shape((None, 2)) == (None, 2)
    assert layers.Lambda(lambda t: t[:, :1]).compute_output_shape((None, 5)) == (None, 1)
    assert layers.Lambda(ek.square, output_shape=lambda s: s).compute_output_shape((3, 2)) == (3, 2)
    config = layer.get_config()
    assert config["function"] == "square" and config["output_shape"] == [2]
    assert config["arguments"] == {}
    again = layers.Lambda.from_config(config)
    assert again.function is ek.square


@pytest.mark.parametrize(
    "make, error, words",
    [
        (lambda: layers.Lambda(3), InvalidArgumentError, "Lambda: function must be callable"),
        (lambda: layers.Lambda(ek.square, arguments=[1]), InvalidArgumentError, "arguments must"),
        (lambda: layers.Lambda(ek.square, output_shape="x"), InvalidArgumentError, "output_shape"),
        (lambda: layers.Lambda(ek.square, mask="pad"), InvalidArgumentError, "mask must be a"),
        (
            lambda: layers.Lambda.from_config({"function": ["bytecode", None, None]}),
            InvalidArgumentError,
            "the function must be a name",
        ),
        (
            lambda: layers.Lambda.from_config({"function": "no_such_function"}),
            InvalidArgumentError,
            "Unknown function: 'no_such_function'",
        ),
        (
            lambda: layers.Lambda(ek.square, arguments={"t": ek.ones([2])}).get_config(),
            UnimplementedError,
            "its arguments cannot be written into a config",
        ),
    ],
)
def test_lambda_errors_name_the_call_and_the_fix(make, error, words):
    with pytest.raises(error) as caught:
        make()
    assert words in str(caught.value)
