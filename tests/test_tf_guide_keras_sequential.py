"""The Keras guide "The Sequential model" (keras.io/guides/sequential_model, also
tensorflow.org/guide/keras/sequential_model), ported with ``import eagerkit as tf`` and
``from eagerkit import keras``: each example runs and gives the guide's layers, shapes,
weights and parameter counts.

Where eagerkit prints or behaves otherwise (on purpose):

- ``summary()`` has the guide's columns (name and type, output shape, parameters) and
  totals, without the rules Keras draws between rows.
- a model built by calling it on data shows ``(None, 2)`` where the guide's table shows
  ``(1, 2)``: eagerkit leaves the batch axis unknown, as it is for a model with an Input.
- ``model.summary()`` before the model is built: the guide says it cannot be done (Keras 2
  raised ValueError); eagerkit prints Keras 3's table, each layer with shape ``?`` and
  ``0 (unbuilt)`` parameters. ``model.weights`` then is ``[]``, as in Keras 3.
- ``model.inputs`` of a model built by a call (no Input): Keras 3 defines them then;
  eagerkit only for a model that starts with ``keras.Input`` (or ``input_shape=``), and
  says so.

Examples skipped, with why: ``model.load_weights(...)`` of pretrained weights (the test
saves and loads weights of its own instead) and ``keras.applications.Xception(
weights='imagenet')`` (no downloads: a small convolutional base built here stands in).
"""

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as tf
from eagerkit import keras
from eagerkit.errors import InvalidArgumentError, OutOfRangeError
from eagerkit.keras import layers


def summary_rows(model):
    """``model.summary()``'s table as (name (type), output shape, params) rows, then the
    three totals lines."""
    printed = []
    model.summary(print_fn=printed.append)
    lines = printed[0].splitlines()
    rules = [i for i, line in enumerate(lines) if set(line) == {"="}]
    rows = [
        tuple(part.strip() for part in _columns(line)) for line in lines[rules[1] + 1 : rules[2]]
    ]
    return rows, lines[rules[2] + 1 :]


def _columns(line):
    """A row's three cells: they are separated by at least three spaces."""
    return re.split(r"\s{3,}", line.strip())


def test_a_sequential_model_calls_its_layers_in_turn():
    model = keras.Sequential(
        [
            layers.Dense(2, activation="relu", name="layer1"),
            layers.Dense(3, activation="relu", name="layer2"),
            layers.Dense(4, name="layer3"),
        ]
    )
    x = tf.ones((3, 3))
    y = model(x)
    assert y.shape == (3, 4) and y.dtype == tf.float32
    layer1, layer2, layer3 = model.layers  # "is equivalent to this function"
    np.testing.assert_array_equal(layer3(layer2(layer1(x))).numpy(), y.numpy())
    assert [layer.name for layer in model.layers] == ["layer1", "layer2", "layer3"]


def test_layers_can_be_given_as_a_list_or_added_and_popped():
    listed = keras.Sequential(
        [layers.Dense(2, activation="relu"), layers.Dense(3, activation="relu"), layers.Dense(4)]
    )
    assert [type(layer).__name__ for layer in listed.layers] == ["Dense"] * 3
    assert [layer.name for layer in listed.layers] == ["dense", "dense_1", "dense_2"]

    model = keras.Sequential()
    model.add(layers.Dense(2, activation="relu"))
    model.add(layers.Dense(3, activation="relu"))
    last = layers.Dense(4)
    model.add(last)
    assert model.pop() is last  # a Sequential model behaves very much like a list of layers
    assert len(model.layers) == 2
    assert model(tf.ones((1, 5))).shape == (1, 3)  # the popped layer no longer runs

    model = keras.Sequential(name="my_sequential")
    model.add(layers.Dense(2, activation="relu", name="layer1"))
    model.add(layers.Dense(3, activation="relu", name="layer2"))
    model.add(layers.Dense(4, name="layer3"))
    assert model.name == "my_sequential"
    assert [layer.name for layer in model.layers] == ["layer1", "layer2", "layer3"]


def test_pop_on_an_empty_model_says_there_is_nothing_to_remove():
    model = keras.Sequential([layers.Dense(1, name="only")], name="short")
    model.pop()
    with pytest.raises(OutOfRangeError, match=r"Sequential.pop: model 'short' has no layers"):
        model.pop()
    assert isinstance(OutOfRangeError("", None), IndexError)  # Keras 3's error type
    assert model.layers == []


def test_a_layer_makes_its_weights_on_its_first_call():
    layer = layers.Dense(3)
    assert layer.weights == []  # Empty
    layer(tf.ones((1, 4)))
    assert [(w.name, tuple(w.shape)) for w in layer.weights] == [
        ("dense/kernel:0", (4, 3)),
        ("dense/bias:0", (3,)),
    ]
    np.testing.assert_array_equal(layer.weights[1].numpy(), np.zeros(3, "float32"))


def test_a_model_without_an_input_shape_is_built_by_its_first_call():
    model = keras.Sequential(
        [layers.Dense(2, activation="relu"), layers.Dense(3, activation="relu"), layers.Dense(4)]
    )  # No weights at this stage!
    assert model.weights == []
    rows, totals = summary_rows(model)  # Keras 3's table of a model not built yet
    assert rows == [
        ("dense (Dense)", "?", "0 (unbuilt)"),
        ("dense_1 (Dense)", "?", "0 (unbuilt)"),
        ("dense_2 (Dense)", "?", "0 (unbuilt)"),
    ]
    assert totals == ["Total params: 0", "Trainable params: 0", "Non-trainable params: 0"]
    with pytest.raises(InvalidArgumentError, match="has no defined inputs yet.*keras.Input"):
        _ = model.inputs
    model(tf.ones((1, 4)))
    assert len(model.weights) == 6  # Number of weights after calling the model: 6
    rows, totals = summary_rows(model)
    assert rows == [  # the guide's table, the batch axis unknown
        ("dense (Dense)", "(None, 2)", "10"),
        ("dense_1 (Dense)", "(None, 3)", "9"),
        ("dense_2 (Dense)", "(None, 4)", "16"),
    ]
    assert totals == ["Total params: 35", "Trainable params: 35", "Non-trainable params: 0"]


@pytest.mark.parametrize("how", ["Input", "input_shape", "InputLayer"])
def test_an_input_shape_given_first_builds_the_model_as_layers_are_added(how):
    model = keras.Sequential()
    if how == "Input":
        model.add(keras.Input(shape=(4,)))
        model.add(layers.Dense(2, activation="relu"))
    elif how == "input_shape":  # the guide's "simple alternative"
        model.add(layers.Dense(2, activation="relu", input_shape=(4,)))
    else:  # TF 2's other spelling of an Input: the layer itself (Keras 3 takes it too)
        model.add(layers.InputLayer(input_shape=(4,)))
        model.add(layers.Dense(2, activation="relu"))
    assert [tuple(w.shape) for w in model.weights] == [(4, 2), (2,)]  # before any data
    rows, totals = summary_rows(model)
    assert rows == [("dense (Dense)", "(None, 2)", "10")]
    assert totals == ["Total params: 10", "Trainable params: 10", "Non-trainable params: 0"]
    assert [type(layer).__name__ for layer in model.layers] == ["Dense"]  # the Input is none
    assert model.output_shape == (None, 2)


def test_the_add_then_summary_debugging_workflow():
    model = keras.Sequential()
    model.add(keras.Input(shape=(250, 250, 3)))  # 250x250 RGB images
    model.add(layers.Conv2D(32, 5, strides=2, activation="relu"))
    model.add(layers.Conv2D(32, 3, activation="relu"))
    model.add(layers.MaxPooling2D(3))
    first = [
        ("conv2d (Conv2D)", "(None, 123, 123, 32)", "2,432"),
        ("conv2d_1 (Conv2D)", "(None, 121, 121, 32)", "9,248"),
        ("max_pooling2d (MaxPooling2D)", "(None, 40, 40, 32)", "0"),
    ]
    assert summary_rows(model) == (
        first,
        ["Total params: 11,680", "Trainable params: 11,680", "Non-trainable params: 0"],
    )

    model.add(layers.Conv2D(32, 3, activation="relu"))
    model.add(layers.Conv2D(32, 3, activation="relu"))
    model.add(layers.MaxPooling2D(3))
    model.add(layers.Conv2D(32, 3, activation="relu"))
    model.add(layers.Conv2D(32, 3, activation="relu"))
    model.add(layers.MaxPooling2D(2))
    rows, totals = summary_rows(model)
    assert rows == first + [
        ("conv2d_2 (Conv2D)", "(None, 38, 38, 32)", "9,248"),
        ("conv2d_3 (Conv2D)", "(None, 36, 36, 32)", "9,248"),
        ("max_pooling2d_1 (MaxPooling2D)", "(None, 12, 12, 32)", "0"),
        ("conv2d_4 (Conv2D)", "(None, 10, 10, 32)", "9,248"),
        ("conv2d_5 (Conv2D)", "(None, 8, 8, 32)", "9,248"),
        ("max_pooling2d_2 (MaxPooling2D)", "(None, 4, 4, 32)", "0"),
    ]
    assert totals[0] == "Total params: 48,672"  # the guide's total

    model.add(layers.GlobalMaxPooling2D())  # now that we have 4x4 feature maps
    model.add(layers.Dense(10))  # finally, a classification layer
    rows, totals = summary_rows(model)
    assert rows[-2:] == [
        ("global_max_pooling2d (GlobalMaxPooling2D)", "(None, 32)", "0"),
        ("dense (Dense)", "(None, 10)", "330"),
    ]
    assert totals[0] == "Total params: 49,002"
    assert model(tf.ones((2, 250, 250, 3))).shape == (2, 10)


def test_a_layer_that_cannot_take_the_shape_so_far_is_not_added():
    model = keras.Sequential([keras.Input(shape=(3,)), layers.Dense(2, name="hidden")])
    weights = [w.numpy().copy() for w in model.weights]
    with pytest.raises(InvalidArgumentError, match="Conv2D layer 'conv' expects input of rank 4"):
        model.add(layers.Conv2D(2, 3, name="conv"))
    assert [layer.name for layer in model.layers] == ["hidden"]  # as it was
    assert [tuple(t.shape) for t in model.outputs] == [(None, 2)]
    np.testing.assert_array_equal(model.weights[0].numpy(), weights[0])
    model.add(layers.Dense(1, name="out"))  # and the model still grows
    assert model(tf.ones((5, 3))).shape == (5, 1)


def test_every_layers_output_makes_a_feature_extractor():
    initial_model = keras.Sequential(
        [
            keras.Input(shape=(250, 250, 3)),
            layers.Conv2D(32, 5, strides=2, activation="relu"),
            layers.Conv2D(32, 3, activation="relu"),
            layers.Conv2D(32, 3, activation="relu"),
        ]
    )
    feature_extractor = keras.Model(
        inputs=initial_model.inputs,
        outputs=[layer.output for layer in initial_model.layers],
    )
    x = tf.ones((1, 250, 250, 3))
    features = feature_extractor(x)
    assert [tuple(f.shape) for f in features] == [
        (1, 123, 123, 32),
        (1, 121, 121, 32),
        (1, 119, 119, 32),
    ]
    expected = x
    for layer, feature in zip(initial_model.layers, features, strict=True):
        expected = layer(expected)  # the same weights: the extractor shares the layers
        np.testing.assert_array_equal(feature.numpy(), expected.numpy())
    np.testing.assert_array_equal(features[-1].numpy(), initial_model(x).numpy())


def test_the_features_of_one_layer_by_its_name():
    initial_model = keras.Sequential(
        [
            keras.Input(shape=(250, 250, 3)),
            layers.Conv2D(32, 5, strides=2, activation="relu"),
            layers.Conv2D(32, 3, activation="relu", name="my_intermediate_layer"),
            layers.Conv2D(32, 3, activation="relu"),
        ]
    )
    feature_extractor = keras.Model(
        inputs=initial_model.inputs,
        outputs=initial_model.get_layer(name="my_intermediate_layer").output,
    )
    x = tf.ones((1, 250, 250, 3))
    features = feature_extractor(x)
    first, intermediate, _ = initial_model.layers
    np.testing.assert_array_equal(features.numpy(), intermediate(first(x)).numpy())
    assert initial_model.input is initial_model.inputs[0]
    assert initial_model.output is initial_model.layers[-1].output


def test_freeze_every_layer_but_the_last_then_recompile_and_train(tmp_path):
    def make():
        return keras.Sequential(
            [
                keras.Input(shape=(784)),
                layers.Dense(32, activation="relu"),
                layers.Dense(32, activation="relu"),
                layers.Dense(32, activation="relu"),
                layers.Dense(10),
            ]
        )

    pretrained = make()  # stands in for weights trained earlier: saved, then loaded
    pretrained.save_weights(str(tmp_path / "pretrained"))
    model = make()
    model.load_weights(str(tmp_path / "pretrained"))
    for mine, theirs in zip(model.get_weights(), pretrained.get_weights(), strict=True):
        np.testing.assert_array_equal(mine, theirs)

    for layer in model.layers[:-1]:  # freeze all layers except the last one
        layer.trainable = False
    model.compile(optimizer="adam", loss="mse")
    rng = np.random.default_rng(0)
    model.fit(rng.random((16, 784)), rng.random((16, 10)), epochs=2, verbose=0)
    after = model.get_weights()
    for mine, theirs in zip(after[:6], pretrained.get_weights()[:6], strict=True):
        np.testing.assert_array_equal(mine, theirs)  # only the last layer was updated
    assert not np.array_equal(after[6], pretrained.get_weights()[6])
    assert len(model.trainable_weights) == 2 and len(model.non_trainable_weights) == 6


def test_a_frozen_base_under_a_new_classifier():
    base_model = keras.Sequential(  # stands in for Xception(include_top=False, pooling="avg")
        [
            keras.Input(shape=(16, 16, 3)),
            layers.Conv2D(8, 3, activation="relu"),
            layers.GlobalAveragePooling2D(),
        ],
        name="base",
    )
    base_model.trainable = False  # freeze the base model
    model = keras.Sequential([base_model, layers.Dense(1000)])
    model.compile(optimizer="adam", loss="mse")
    rng = np.random.default_rng(1)
    before = base_model.get_weights()
    model.fit(rng.random((8, 16, 16, 3)), rng.random((8, 1000)), verbose=0)
    for now, then in zip(base_model.get_weights(), before, strict=True):
        np.testing.assert_array_equal(now, then)
    rows, totals = summary_rows(model)
    assert rows == [
        ("base (Sequential)", "(None, 8)", "224"),
        ("dense (Dense)", "(None, 1000)", "9,000"),
    ]
    assert totals == [
        "Total params: 9,224",
        "Trainable params: 9,000",
        "Non-trainable params: 224",
    ]


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.integers(1, 6), min_size=1, max_size=5),
    st.integers(1, 5),
    st.integers(0, 5),
)
def test_adding_and_popping_keeps_the_shapes_the_weights_and_the_outputs_in_step(
    widths, features, pops
):
    model = keras.Sequential([keras.Input(shape=(features,))])
    for i, width in enumerate(widths):
        model.add(layers.Dense(width, name=f"d{i}"))
    pops = min(pops, len(widths) - 1)  # one layer at least stays
    for _ in range(pops):
        model.pop()
    kept = widths[: len(widths) - pops]
    sizes = [features, *kept]
    assert summary_rows(model)[0] == [
        (f"d{i} (Dense)", f"(None, {width})", f"{(sizes[i] + 1) * width:,}")
        for i, width in enumerate(kept)
    ]
    assert [tuple(t.shape) for t in model.outputs] == [(None, sizes[-1])]
    x = np.arange(2 * features, dtype="float32").reshape(2, features)
    extractor = keras.Model(model.input, model.output)  # the graph computes as the model does
    np.testing.assert_allclose(extractor(x).numpy(), model(x).numpy(), rtol=1e-6)
    assert model(x).shape == (2, sizes[-1])
