"""The Keras functional API: Input, layers and ops on KerasTensors, Model(inputs, outputs)."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError


def dense(units, name, kernel, bias=0.0, activation=None):
    """A Dense layer with known weights (constant initializers), for hand computations."""
    return ek.keras.layers.Dense(
        units,
        activation=activation,
        name=name,
        kernel_initializer=ek.keras.initializers.Constant(kernel),
        bias_initializer=ek.keras.initializers.Constant(bias),
    )


def test_input_is_a_symbolic_tensor_with_a_none_batch_axis():
    x = ek.keras.Input(shape=[3], name="features")
    assert x.shape == ek.TensorShape([None, 3]) and x.shape.as_list() == [None, 3]
    assert x.dtype == ek.float32 and x.name == "features" and x.ndim == 2
    assert repr(x) == ("<KerasTensor: shape=(None, 3) dtype=float32 (created by layer 'features')>")
    fixed = ek.keras.Input(shape=(28, None), batch_size=16, dtype="int32")
    assert fixed.shape.as_list() == [16, 28, None] and fixed.dtype == ek.int32
    assert ek.keras.Input(batch_shape=[None, 5]).shape.as_list() == [None, 5]
    assert ek.keras.layers.Input is ek.keras.Input


def test_a_model_of_dense_layers_computes_what_a_hand_computation_does():
    inputs = ek.keras.Input(shape=[3])
    hidden = dense(2, "hidden", kernel=0.5, bias=-1.0, activation="relu")(inputs)
    outputs = dense(1, "out", kernel=2.0, bias=0.25)(hidden)
    model = ek.keras.Model(inputs=inputs, outputs=outputs)
    x = np.array([[1.0, 2.0, 3.0], [-1.0, 0.0, 0.5]], np.float32)
    h = np.maximum(x @ np.full((3, 2), 0.5) - 1.0, 0.0)
    np.testing.assert_allclose(model(ek.constant(x)).numpy(), h @ np.full((2, 1), 2.0) + 0.25)
    assert model([[1.0, 2.0, 3.0]]).numpy().tolist() == [[8.25]]  # a nested list is one input


def test_gradients_flow_through_a_functional_model_to_its_variables():
    inputs = ek.keras.Input(shape=[2])
    layer = dense(1, "linear", kernel=[[3.0], [-1.0]], bias=0.5)
    model = ek.keras.Model(inputs, ek.reduce_sum(layer(inputs) * inputs, axis=1))
    x = ek.constant([[1.0, 2.0], [0.5, -1.0]])
    with ek.GradientTape() as tape:
        tape.watch(x)
        loss = ek.reduce_sum(model(x))
    kernel, bias, dx = tape.gradient(loss, [layer.kernel, layer.bias, x])
    # loss = sum_i (x_i . w + b) * (x_i0 + x_i1)
    s = np.array([3.0, -0.5])
    np.testing.assert_allclose(kernel.numpy(), (np.array([[1.0, 2.0], [0.5, -1.0]]).T @ s)[:, None])
    np.testing.assert_allclose(bias.numpy(), [s.sum()])
    y = np.array([1.0 * 3 - 2 + 0.5, 1.5 + 1 + 0.5])
    np.testing.assert_allclose(dx.numpy(), s[:, None] * [3.0, -1.0] + y[:, None])
    assert model.trainable_variables == [layer.kernel, layer.bias]


def test_ops_on_keras_tensors_are_recorded_and_replayed():
    a = ek.keras.Input(shape=[2], name="a")
    b = ek.keras.Input(shape=[2], name="b")
    joined = ek.concat([a, 2.0 * b], axis=-1)
    y = ek.nn.relu(joined - 1.0) + ek.reduce_sum(a, axis=1, keepdims=True)
    model = ek.keras.Model([a, b], [y, -a])
    assert joined.shape.as_list() == [None, 4] and joined.node.layer.name.startswith("ek.concat")
    av, bv = np.array([[1.0, 3.0]], np.float32), np.array([[0.25, 2.0]], np.float32)
    y_value, minus_a = model([ek.constant(av), ek.constant(bv)])
    expected = np.maximum(np.concatenate([av, 2 * bv], 1) - 1, 0) + av.sum(1, keepdims=True)
    np.testing.assert_allclose(y_value.numpy(), expected)
    np.testing.assert_allclose(minus_a.numpy(), -av)
    assert all(type(layer).__name__ == "TFOpLambda" for layer in model.layers[2:])


def test_a_public_call_that_calls_another_is_recorded_as_the_one_call_the_user_made():
    # keras.backend.std calls the public ek.math.reduce_std: only the outer call is a layer
    x = ek.keras.Input(shape=[3])
    model = ek.keras.Model(x, [ek.keras.backend.std(x, axis=-1), ek.nn.softmax(x)])
    assert [layer.name for layer in model.layers[1:]] == ["ek.std", "ek.softmax"]
    value = np.array([[1.0, 2.0, 4.0]], np.float32)
    std, softmax = model(ek.constant(value))
    np.testing.assert_allclose(std.numpy(), value.std(-1), rtol=1e-6)
    np.testing.assert_allclose(softmax.numpy(), np.exp(value) / np.exp(value).sum(), rtol=1e-6)


def test_summary_of_a_chain(capsys):
    inputs = ek.keras.Input(shape=[3], name="pixels")
    x = ek.keras.layers.Dense(4, activation="relu", name="hidden")(inputs)
    model = ek.keras.Model(inputs, ek.keras.layers.Dense(2, name="logits")(x), name="mlp")
    model.summary()
    assert capsys.readouterr().out.splitlines() == [
        'Model: "mlp"',
        "=" * 44,
        "Layer (type)          Output Shape   Param #",
        "=" * 44,
        "pixels (InputLayer)   [(None, 3)]    0",
        "hidden (Dense)        (None, 4)      16",
        "logits (Dense)        (None, 2)      10",
        "=" * 44,
        "Total params: 26",
        "Trainable params: 26",
        "Non-trainable params: 0",
    ]


def test_a_symbolic_tensor_has_no_value():
    x = ek.keras.Input(shape=[3], name="x")
    for use in [x.numpy, lambda: np.asarray(x), lambda: bool(x), lambda: float(x)]:
        with pytest.raises(InvalidArgumentError) as failure:
            use()
        assert "KerasTensor 'x'" in str(failure.value)
        assert "has no value" in str(failure.value)
        assert "model(ek.constant(...))" in str(failure.value)


def test_an_output_not_connected_to_the_inputs_is_refused():
    a = ek.keras.Input(shape=[2], name="a")
    b = ek.keras.Input(shape=[2], name="b")
    with pytest.raises(InvalidArgumentError) as failure:
        ek.keras.Model(inputs=a, outputs=a + b)
    message = str(failure.value)
    assert "depend on Input 'b'" in message and "disconnected" in message
    assert "ek.keras.Model(inputs=[a, b]" in message
    with pytest.raises(InvalidArgumentError, match="outputs must be KerasTensors"):
        ek.keras.Model(inputs=a, outputs=ek.constant([1.0]))
    with pytest.raises(InvalidArgumentError, match="made by ek.keras.Input"):
        ek.keras.Model(inputs=a + 1.0, outputs=a)


def test_calling_a_model_on_the_wrong_shape_names_the_input_and_the_fix():
    inputs = ek.keras.Input(shape=[3], name="features")
    model = ek.keras.Model(inputs, ek.keras.layers.Dense(2)(inputs), name="net")
    with pytest.raises(InvalidArgumentError) as failure:
        model(ek.ones([1, 4]))
    assert str(failure.value).endswith(
        "Model 'net': input 0 ('features') expects shape (None, 3), but got shape (1, 4). "
        "Give it tensors of shape (None, 3), None standing for any size"
    )
    with pytest.raises(InvalidArgumentError, match=r"Add the batch axis"):
        model(ek.ones([3]))
    with pytest.raises(InvalidArgumentError, match=r"expects float32 tensors, got string"):
        model(ek.constant([["a", "b", "c"]]))
    assert model(ek.ones([2, 3], dtype=ek.float64)).dtype == ek.float32  # numbers are cast
    np.testing.assert_array_equal(
        model(ek.constant([[1, 2, 3]])).numpy(), model(ek.constant([[1.0, 2.0, 3.0]])).numpy()
    )


def test_an_op_that_fails_on_the_input_shape_fails_when_the_model_is_built():
    x = ek.keras.Input(shape=[2, 3])
    with pytest.raises(InvalidArgumentError) as failure:
        ek.concat([x, x], axis=5)
    assert str(failure.value) == (
        "concat: axis 5 is out of range for a tensor of rank 3 (valid: -3 to 2)"
    )
    with pytest.raises(InvalidArgumentError) as eager_failure:
        ek.concat([ek.ones([1, 2, 3])] * 2, axis=5)
    assert _files(failure.value) == _files(eager_failure.value)  # no more of eagerkit shown


def _files(error):
    traceback, files = error.__traceback__, []
    while traceback is not None:
        files.append(traceback.tb_frame.f_code.co_filename)
        traceback = traceback.tb_next
    return files


def test_sequential_takes_an_input_and_is_a_layer_of_a_functional_model(capsys):
    seq = ek.keras.Sequential([ek.keras.Input(shape=[3]), dense(2, "d", kernel=1.0)], name="seq")
    seq.summary()  # the Input's shape builds it
    assert "d (Dense)      (None, 2)      8" in capsys.readouterr().out
    x = ek.keras.Input(shape=[3], name="x")
    model = ek.keras.Model(x, seq(x) * 2.0)
    assert model.input is x and model.output is model.outputs[0]
    assert model([[1.0, 2.0, 3.0]]).numpy().tolist() == [[12.0, 12.0]]
    assert model.layers[1] is seq and model.variables == seq.variables


def test_a_failed_call_without_keras_tensors_keeps_its_own_error():
    # The symbolic fallback looks through any arguments (dicts with any keys, a list that
    # holds itself) and leaves the error of a call that holds no KerasTensor as it was.
    with pytest.raises(InvalidArgumentError, match=r"cannot make a tensor from dict"):
        ek.constant({1: 2, "a": 3})
    looped = [1.0]
    looped.append(looped)
    with pytest.raises(InvalidArgumentError, match=r"^constant\(list of 2\)"):
        ek.constant(looped)


def test_one_sgd_step_on_a_functional_model_moves_its_variables_as_by_hand():
    inputs = ek.keras.Input(shape=[1])
    layer = dense(1, "line", kernel=0.0, bias=0.0)
    model = ek.keras.Model(inputs, layer(inputs))
    x, y = ek.constant([[1.0], [2.0]]), ek.constant([[3.0], [5.0]])
    optimizer = ek.keras.optimizers.SGD(learning_rate=0.1)
    with ek.GradientTape() as tape:
        loss = ek.reduce_mean((model(x) - y) ** 2)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables, strict=True))
    # d/dw mean((w x + b - y)^2) at w = b = 0: mean(-2 y x) = -13; d/db: mean(-2 y) = -8
    np.testing.assert_allclose(layer.kernel.numpy(), [[1.3]], rtol=1e-6)
    np.testing.assert_allclose(layer.bias.numpy(), [0.8], rtol=1e-6)
