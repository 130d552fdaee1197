"""Functional models beyond a chain: shared layers, several inputs and outputs, dicts,
nested models, TF's order of layers and variables, training=, get_layer, Input's errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError


@pytest.fixture(autouse=True)
def default_names():
    ek.keras.backend.clear_session()


def constant_dense(units, name, kernel, bias=0.0):
    init = ek.keras.initializers.Constant
    return ek.keras.layers.Dense(
        units, name=name, kernel_initializer=init(kernel), bias_initializer=init(bias)
    )


def test_a_shared_layer_is_one_layer_with_one_set_of_variables(capsys):
    a = ek.keras.Input(shape=[2], name="a")
    b = ek.keras.Input(shape=[2], name="b")
    shared = constant_dense(1, "shared", kernel=[[1.0], [10.0]], bias=0.5)
    model = ek.keras.Model([a, b], ek.concat([shared(a), shared(b)], axis=1), name="siamese")
    assert [layer.name for layer in model.layers] == ["a", "b", "shared", "ek.concat"]
    assert model.variables == [shared.kernel, shared.bias]
    out = model([ek.constant([[1.0, 2.0]]), ek.constant([[3.0, 4.0]])])
    assert out.numpy().tolist() == [[21.5, 43.5]]
    with ek.GradientTape() as tape:
        loss = ek.reduce_sum(model([ek.constant([[1.0, 2.0]]), ek.constant([[3.0, 4.0]])]))
    kernel_gradient, bias_gradient = tape.gradient(loss, [shared.kernel, shared.bias])
    assert kernel_gradient.numpy().tolist() == [[4.0], [6.0]]  # both calls' gradients add up
    assert bias_gradient.numpy().tolist() == [2.0]
    model.summary()
    table = capsys.readouterr().out.splitlines()
    assert table[2].split() == "Layer (type) Output Shape Param # Connected to".split()
    assert [line.split() for line in table[4:10]] == [
        ["a", "(InputLayer)", "[(None,", "2)]", "0"],
        ["b", "(InputLayer)", "[(None,", "2)]", "0"],
        ["shared", "(Dense)", "(None,", "1)", "3", "a[0][0]"],
        ["b[0][0]"],  # the second call of the shared layer
        ["ek.concat", "(TFOpLambda)", "(None,", "2)", "0", "shared[0][0]"],
        ["shared[1][0]"],
    ]
    assert table[-3:] == ["Total params: 3", "Trainable params: 3", "Non-trainable params: 0"]


def test_dict_inputs_and_outputs_are_matched_by_key():
    inputs = {"x": ek.keras.Input(shape=[1], name="x"), "y": ek.keras.Input(shape=[1], name="y")}
    model = ek.keras.Model(
        inputs, {"difference": inputs["x"] - inputs["y"], "product": inputs["x"] * inputs["y"]}
    )
    out = model({"y": ek.constant([[2.0]]), "x": ek.constant([[5.0]])})
    assert sorted(out) == ["difference", "product"]
    assert out["difference"].numpy().tolist() == [[3.0]]
    assert out["product"].numpy().tolist() == [[10.0]]
    with pytest.raises(InvalidArgumentError, match=r"called without input\(s\) y"):
        model({"x": ek.constant([[5.0]])})


def test_a_model_called_with_the_wrong_number_of_inputs_says_how_many():
    a, b = ek.keras.Input(shape=[1], name="a"), ek.keras.Input(shape=[1], name="b")
    model = ek.keras.Model(inputs=[a, b], outputs=a * b, name="pair")
    with pytest.raises(InvalidArgumentError) as failure:
        model(ek.ones([1, 1]))
    assert "Model 'pair' takes 2 inputs (a, b) but was called with one value" in str(failure.value)
    assert model({"b": [[3.0]], "a": [[2.0]]}).numpy().tolist() == [[6.0]]  # by Input name


def test_a_model_is_a_layer_of_another_model():
    inner_input = ek.keras.Input(shape=[2])
    inner_dense = constant_dense(2, "inner_dense", kernel=[[1.0, 2.0], [3.0, 4.0]])
    inner = ek.keras.Model(inner_input, inner_dense(inner_input), name="inner")
    outer_input = ek.keras.Input(shape=[2])
    twice = inner(inner(outer_input))  # the nested model is shared too
    head = constant_dense(1, "head", kernel=1.0)
    outer = ek.keras.Model(outer_input, head(twice), name="outer")
    assert [layer.name for layer in outer.layers] == ["input_2", "inner", "head"]
    assert outer.variables == [inner_dense.kernel, inner_dense.bias, head.kernel, head.bias]
    w = np.array([[1.0, 2.0], [3.0, 4.0]])
    x = np.array([[1.0, -1.0], [0.5, 2.0]], np.float32)
    np.testing.assert_allclose(outer(ek.constant(x)).numpy(), (x @ w @ w).sum(1, keepdims=True))
    assert type(outer.get_layer("inner")).__name__ == "Functional"
    assert isinstance(outer.get_layer("inner"), ek.keras.Model)


def test_variables_are_listed_layer_by_layer_trainable_first():
    x = ek.keras.Input(shape=[3])
    h = ek.keras.layers.BatchNormalization(name="bn")(ek.keras.layers.Dense(4, name="d1")(x))
    model = ek.keras.Model(x, ek.keras.layers.Dense(2, name="d2")(h))
    assert [v.name for v in model.trainable_variables] == [
        *("d1/kernel:0", "d1/bias:0", "bn/gamma:0", "bn/beta:0", "d2/kernel:0", "d2/bias:0")
    ]
    assert [v.name for v in model.non_trainable_variables] == [
        "bn/moving_mean:0",
        "bn/moving_variance:0",
    ]
    assert model.variables == model.trainable_variables + model.non_trainable_variables
    assert model.weights == model.variables and model.count_params() == 16 + 16 + 10
    model.trainable = False
    assert model.trainable_variables == [] and len(model.non_trainable_variables) == 8


def test_training_reaches_the_layers_that_take_it():
    x = ek.keras.Input(shape=[1000])
    model = ek.keras.Model(x, ek.keras.layers.Dropout(0.5)(x))
    ones = ek.ones([1, 1000])
    assert model(ones).numpy().tolist() == ones.numpy().tolist()  # inference: nothing dropped
    dropped = model(ones, training=True).numpy()
    assert set(np.unique(dropped)) == {0.0, 2.0} and 300 < (dropped == 0).sum() < 700


def test_get_layer_by_name_or_index():
    x = ek.keras.Input(shape=[2], name="x")
    hidden = ek.keras.layers.Dense(3, name="hidden")
    model = ek.keras.Model(x, hidden(x))
    assert model.get_layer("hidden") is hidden and model.get_layer(index=1) is hidden
    assert model.get_layer(index=0).name == "x"
    with pytest.raises(InvalidArgumentError, match=r"no layer named 'hiden'. Its layers are: "):
        model.get_layer("hiden")
    with pytest.raises(InvalidArgumentError, match=r"index must be a whole number from 0 to 1"):
        model.get_layer(index=2)


def test_a_layer_that_cannot_take_the_symbolic_input_says_so_and_stays_unbuilt():
    x = ek.keras.Input(shape=[3, 4])
    conv = ek.keras.layers.Conv2D(2, 3)
    with pytest.raises(InvalidArgumentError, match=r"Conv2D layer 'conv2d' expects input of rank"):
        conv(x)
    assert not conv.built and conv.variables == []


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({}, r"say the shape of one example, without the batch axis"),
        ({"shape": [2.5]}, r"shape must be a whole number >= 1, got 2.5"),
        ({"shape": "3"}, r"shape must be a list or tuple of sizes"),
        ({"shape": [3], "batch_size": 0}, r"batch_size must be a whole number >= 1"),
        ({"shape": [3], "batch_shape": [None, 3]}, r"either batch_shape= or shape="),
        ({"batch_shape": []}, r"has no batch axis"),
    ],
)
def test_input_refuses_what_is_not_a_shape(arguments, message):
    with pytest.raises(InvalidArgumentError, match=message):
        ek.keras.Input(**arguments)


def test_failed_builds_leave_no_half_made_model():
    a = ek.keras.Input(shape=[2], name="a")
    with pytest.raises(InvalidArgumentError, match=r"the same Input appears twice"):
        ek.keras.Model([a, a], a)
    with pytest.raises(InvalidArgumentError, match=r"outputs= is empty"):
        ek.keras.Model(a, [])


def test_unknown_sizes_beyond_the_batch_axis_stay_unknown():
    images = ek.keras.Input(shape=[None, None, 3])
    features = ek.keras.layers.Conv2D(4, 5)(images)  # a 5x5 window: stand-ins must be large
    pooled = ek.keras.layers.GlobalAveragePooling2D()(features)
    assert features.shape.as_list() == [None, None, None, 4]
    assert pooled.shape.as_list() == [None, 4]
    model = ek.keras.Model(images, pooled)
    assert model(ek.ones([3, 9, 7, 3])).shape == (3, 4)
    sequence = ek.keras.Input(shape=[None])
    assert ek.reshape(sequence, [-1, 2]).shape.as_list() == [None, 2]


def test_building_a_model_under_a_tape_records_nothing():
    x = ek.keras.Input(shape=[2])
    with ek.GradientTape() as tape:
        model = ek.keras.Model(x, ek.keras.layers.Dense(1)(ek.nn.relu(x)))
    assert len(model.variables) == 2 and len(tape.watched_variables()) == 0


def test_a_layer_that_returns_no_tensor_cannot_join_a_model():
    class Describe(ek.keras.layers.Layer):
        def call(self, inputs):
            return "a description"

    with pytest.raises(InvalidArgumentError, match=r"describe: called on a KerasTensor, it must"):
        Describe()(ek.keras.Input(shape=[2]))


def test_a_functional_model_checkpoints_what_is_kept_in_its_attributes(tmp_path):
    inputs = ek.keras.Input(shape=[2])
    model = ek.keras.Model(inputs, ek.keras.layers.Dense(1)(inputs))
    model.temperature = ek.Variable(2.0)
    model.step = ek.Variable(0, trainable=False)
    assert model.trainable_variables[-1] is model.temperature  # after the layers', as in TF
    assert model.non_trainable_variables == [model.step]
    path = ek.train.Checkpoint(model=model).save(str(tmp_path / "ckpt"))
    model.temperature.assign(5.0)
    ek.train.Checkpoint(model=model).restore(path).assert_consumed()
    assert model.temperature.numpy() == 2.0


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(
    widths=st.lists(st.integers(1, 5), min_size=1, max_size=4),
    features=st.integers(1, 4),
    batch=st.integers(1, 3),
)
def test_a_functional_chain_computes_what_sequential_computes_with_the_same_layers(
    widths, features, batch
):
    layers = [ek.keras.layers.Dense(w, activation="tanh") for w in widths]
    x = inputs = ek.keras.Input(shape=[features])
    for layer in layers:
        x = layer(x)
    functional = ek.keras.Model(inputs, x)
    sequential = ek.keras.Sequential(layers)
    data = ek.constant(np.random.default_rng(batch).normal(size=(batch, features)), ek.float32)
    np.testing.assert_array_equal(functional(data).numpy(), sequential(data).numpy())
    assert functional.trainable_variables == sequential.trainable_variables
