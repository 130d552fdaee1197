"""TF2's guide "The Functional API" (Keras 2), the parts that failed before: data of another
dtype than the Input's, ``layer.output`` for feature extraction, ``output_shape``, and the
1-D global pooling layers; and the regression tutorial's 1-D feature array fed to an
``Input(shape=[1])``.

Keras conforms every input of a functional model to its Input: cast to the Input's dtype
(``tf.cast``), and a ``(batch,)`` vector taken as the ``(batch, 1)`` the Input expects (and
the other way round). Strings are no number and are still refused.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as tf
from eagerkit import keras
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import layers


def test_the_guides_ticket_model_fits_integer_word_ids_into_float_inputs():
    num_tags, num_words, num_departments = 12, 1000, 4
    title_input = keras.Input(shape=(None,), name="title")  # float32, as in the guide
    body_input = keras.Input(shape=(None,), name="body")
    tags_input = keras.Input(shape=(num_tags,), name="tags")
    title_features = layers.LSTM(8)(layers.Embedding(num_words, 4)(title_input))
    body_features = layers.LSTM(4)(layers.Embedding(num_words, 4)(body_input))
    x = layers.concatenate([title_features, body_features, tags_input])
    priority_pred = layers.Dense(1, name="priority")(x)
    department_pred = layers.Dense(num_departments, name="department")(x)
    model = keras.Model(
        inputs=[title_input, body_input, tags_input], outputs=[priority_pred, department_pred]
    )
    model.compile(
        optimizer=keras.optimizers.RMSprop(1e-3),
        loss={
            "priority": keras.losses.BinaryCrossentropy(from_logits=True),
            "department": keras.losses.CategoricalCrossentropy(from_logits=True),
        },
        loss_weights={"priority": 1.0, "department": 0.2},
    )
    rng = np.random.default_rng(0)
    title_data = rng.integers(num_words, size=(8, 10))  # int64 word ids
    body_data = rng.integers(num_words, size=(8, 20))
    tags_data = rng.integers(2, size=(8, num_tags)).astype("float32")
    history = model.fit(
        {"title": title_data, "body": body_data, "tags": tags_data},
        {"priority": rng.random((8, 1)), "department": rng.integers(2, size=(8, 4))},
        epochs=1,
        batch_size=4,
        verbose=0,
    )
    assert sorted(history.history) == ["department_loss", "loss", "priority_loss"]
    as_floats = [title_data.astype("float32"), body_data.astype("float32"), tags_data]
    np.testing.assert_array_equal(  # the ids were cast, not changed
        model([title_data, body_data, tags_data])[0].numpy(), model(as_floats)[0].numpy()
    )


@settings(max_examples=25, deadline=None)
@given(
    hnp.arrays(np.int64, (3, 2), elements=st.integers(0, 100)),
    st.sampled_from([np.int8, np.int32, np.int64, np.uint8, np.bool_, np.float64]),
)
def test_any_number_type_is_cast_to_the_inputs_dtype(numbers, dtype):
    values = numbers.astype(dtype)
    inputs = keras.Input(shape=(2,), dtype="float32")
    model = keras.Model(inputs, inputs * 1.0)
    got = model(values)
    assert got.dtype == tf.float32
    np.testing.assert_array_equal(got.numpy(), values.astype("float32"))


def test_strings_are_no_numbers_and_are_refused():
    inputs = keras.Input(shape=(1,))
    model = keras.Model(inputs, layers.Dense(1)(inputs))
    with pytest.raises(InvalidArgumentError, match="expects float32 tensors, got string"):
        model(tf.constant([["a"]]))


def test_a_vector_of_features_fits_an_input_of_shape_one_as_in_the_regression_tutorial():
    horsepower = np.array([130.0, 165.0, 150.0, 140.0, 198.0], "float32")  # shape (5,)
    mpg = 50.0 - 0.2 * horsepower
    inputs = keras.Input(shape=[1])
    model = keras.Model(inputs, layers.Dense(1, kernel_initializer="zeros")(inputs))
    model.compile(optimizer=keras.optimizers.SGD(1e-5), loss="mean_absolute_error")
    history = model.fit(horsepower, mpg, epochs=3, verbose=0)
    assert len(history.history["loss"]) == 3
    np.testing.assert_array_equal(  # (5,) is read as (5, 1), and (5, 1, 1) as (5, 1)
        model(horsepower).numpy(), model(horsepower[:, None]).numpy()
    )
    assert model(horsepower[:, None, None]).shape == (5, 1)
    with pytest.raises(InvalidArgumentError, match=r"expects shape \(None, 1\)"):
        model(np.ones((5, 2), "float32"))  # two features are not one


def test_every_layers_output_makes_a_feature_extraction_model():
    inputs = keras.Input(shape=(8, 8, 3), name="img")
    x = layers.Conv2D(4, 3, activation="relu", name="conv")(inputs)
    x = layers.GlobalAveragePooling2D(name="pool")(x)
    outputs = layers.Dense(2, name="logits")(x)
    model = keras.Model(inputs, outputs)
    features = keras.Model(inputs=model.input, outputs=[layer.output for layer in model.layers])
    image = np.random.default_rng(1).random((1, 8, 8, 3)).astype("float32")
    extracted = features(image)
    assert [tuple(f.shape) for f in extracted] == [(1, 8, 8, 3), (1, 6, 6, 4), (1, 4), (1, 2)]
    np.testing.assert_allclose(extracted[-1].numpy(), model(image).numpy(), rtol=1e-6)
    assert [layer.output_shape for layer in model.layers] == [
        (None, 8, 8, 3),
        (None, 6, 6, 4),
        (None, 4),
        (None, 2),
    ]
    assert model.get_layer("img").input is model.input  # an Input's input is itself
    with pytest.raises(AttributeError, match="never been called on a KerasTensor"):
        _ = layers.Dense(2).output


@settings(max_examples=25, deadline=None)
@given(
    hnp.arrays(np.float64, hnp.array_shapes(min_dims=3, max_dims=3, max_side=4)),
    st.booleans(),
    st.sampled_from(["channels_last", "channels_first"]),
)
def test_global_pooling_1d_is_the_mean_or_max_over_the_steps(sequences, keepdims, data_format):
    steps_axis = 1 if data_format == "channels_last" else 2
    for layer_class, reduce in (
        (layers.GlobalAveragePooling1D, np.mean),
        (layers.GlobalMaxPooling1D, np.max),
    ):
        layer = layer_class(data_format=data_format, keepdims=keepdims, dtype="float64")
        want = reduce(sequences, axis=steps_axis, keepdims=keepdims)
        np.testing.assert_allclose(layer(sequences).numpy(), want, rtol=1e-12, equal_nan=True)


def test_global_pooling_1d_wants_sequences():
    with pytest.raises(InvalidArgumentError, match=r"\[batch, steps, features\]"):
        layers.GlobalMaxPool1D(name="pool")(tf.ones([2, 3]))
    assert layers.GlobalAvgPool1D is layers.GlobalAveragePooling1D
