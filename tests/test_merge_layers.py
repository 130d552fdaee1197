"""Keras merge layers (Concatenate, Add, ..., Dot) and their function forms: values against
numpy, gradients, a two-input functional model, its summary, and the errors."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

L = ek.keras.layers
RNG = np.random.default_rng(0)
A, B, C = (RNG.normal(size=[2, 3]).astype(np.float32) for _ in range(3))


@pytest.fixture(autouse=True)
def default_names():
    ek.keras.backend.clear_session()


@pytest.mark.parametrize(
    "layer, function, expected",
    [
        (L.Add(), L.add, A + B + C),
        (L.Multiply(), L.multiply, A * B * C),
        (L.Average(), L.average, (A + B + C) / 3),
        (L.Maximum(), L.maximum, np.maximum(np.maximum(A, B), C)),
        (L.Minimum(), L.minimum, np.minimum(np.minimum(A, B), C)),
        (L.Concatenate(), L.concatenate, np.concatenate([A, B, C], axis=-1)),
        (L.Concatenate(axis=0), None, np.concatenate([A, B, C], axis=0)),
    ],
)
def test_values_match_numpy(layer, function, expected):
    tensors = [ek.constant(A), ek.constant(B), ek.constant(C)]
    np.testing.assert_allclose(layer(tensors).numpy(), expected, rtol=1e-6)
    if function is not None:
        np.testing.assert_allclose(function(tensors).numpy(), expected, rtol=1e-6)


def test_subtract_and_dot_match_numpy():
    np.testing.assert_allclose(L.subtract([A, B]).numpy(), A - B, rtol=1e-6)
    np.testing.assert_allclose(
        L.dot([A, B], axes=1).numpy(), np.sum(A * B, axis=1, keepdims=True), rtol=1e-5
    )
    x, y = RNG.normal(size=[2, 4, 3]), RNG.normal(size=[2, 5, 3])
    np.testing.assert_allclose(
        L.Dot(axes=(2, 2))([x, y]).numpy(), np.einsum("bik,bjk->bij", x, y), rtol=1e-5
    )
    cosine = L.Dot(axes=-1, normalize=True)([A, B]).numpy()[:, 0]
    expected = np.sum(A * B, 1) / np.linalg.norm(A, axis=1) / np.linalg.norm(B, axis=1)
    np.testing.assert_allclose(cosine, expected, rtol=1e-5)


def test_add_broadcasts_a_size_one_axis_as_keras_does():
    out = L.add([ek.constant(A), ek.constant(A[:1])])
    np.testing.assert_allclose(out.numpy(), A + A[:1])


def test_gradients_flow_to_every_input():
    a, b = ek.Variable(A), ek.Variable(B)
    with ek.GradientTape() as tape:
        loss = ek.reduce_sum(L.concatenate([a * 2.0, b]) ** 2) + ek.reduce_sum(
            L.maximum([a, b]) + L.dot([a, b], axes=1)
        )
    ga, gb = tape.gradient(loss, [a, b])  # dot's (2, 1) broadcasts over 3 columns: 3x
    np.testing.assert_allclose(ga.numpy(), 8 * A + (A > B) + 3 * B, rtol=1e-5)
    np.testing.assert_allclose(gb.numpy(), 2 * B + (B > A) + 3 * A, rtol=1e-5)


def two_input_model():
    title = ek.keras.Input(shape=[3], name="title")
    body = ek.keras.Input(shape=[2], name="body")
    joined = L.concatenate([title, body])
    init = ek.keras.initializers.Constant
    out = L.Dense(1, name="score", kernel_initializer=init(1.0), bias_initializer=init(0.0))(joined)
    return ek.keras.Model([title, body], out, name="ranker")


def test_a_two_input_model_builds_runs_and_trains():
    model = two_input_model()
    assert [layer.name for layer in model.layers] == ["title", "body", "concatenate", "score"]
    title, body = ek.constant([[1.0, 2.0, 3.0]]), ek.constant([[4.0, 5.0]])
    assert model([title, body]).numpy().tolist() == [[15.0]]
    optimizer = ek.keras.optimizers.SGD(0.01)
    with ek.GradientTape() as tape:
        loss = ek.reduce_sum(model([title, body]))
    optimizer.apply_gradients(
        zip(tape.gradient(loss, model.variables), model.variables, strict=True)
    )
    # d(loss)/d(kernel) is the concatenated input; one step of 0.01 against it
    expected = 1.0 - 0.01 * np.array([[1.0], [2.0], [3.0], [4.0], [5.0]])
    np.testing.assert_allclose(model.get_layer("score").kernel.numpy(), expected, rtol=1e-6)


def test_summary_shows_what_the_merge_is_connected_to(capsys):
    two_input_model().summary()
    table = capsys.readouterr().out.splitlines()
    assert table[2].split() == "Layer (type) Output Shape Param # Connected to".split()
    assert [line.split() for line in table[4:9]] == [
        ["title", "(InputLayer)", "[(None,", "3)]", "0"],
        ["body", "(InputLayer)", "[(None,", "2)]", "0"],
        ["concatenate", "(Concatenate)", "(None,", "5)", "0", "title[0][0]"],
        ["body[0][0]"],
        ["score", "(Dense)", "(None,", "1)", "6", "concatenate[0][0]"],
    ]


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: L.add([A, np.ones([2, 4])]), ["Add layer", "(2, 3), (2, 4)", "same shape"]),
        (lambda: L.subtract([A, B, C]), ["Subtract layer", "takes 2 inputs, got 3"]),
        (lambda: L.multiply([A]), ["Multiply layer", "at least 2 inputs, got 1"]),
        (lambda: L.average(ek.constant(A)), ["Average layer", "list of tensors"]),
        (
            lambda: L.concatenate([A, np.ones([3, 3])], axis=1),
            ["Concatenate layer", "(2, 3), (3, 3)", "every axis but"],
        ),
        (lambda: L.Concatenate(axis=1.5), ["Concatenate", "axis", "1.5"]),
        (lambda: L.dot([A, np.ones([2, 4])], axes=1), ["Dot layer", "(2, 3), (2, 4)"]),
        (lambda: L.Dot(axes=[1, 2, 3]), ["Dot layer", "axes"]),
        (
            lambda: L.concatenate([ek.keras.Input(shape=[3]), ek.keras.Input(shape=[2, 2])]),
            ["Concatenate layer", "(None, 3), (None, 2, 2)", "same number of axes"],
        ),
    ],
)
def test_bad_inputs_get_an_error_naming_the_layer_shapes_and_fix(call, words):
    with pytest.raises(InvalidArgumentError) as caught:
        call()
    for word in words:
        assert word in str(caught.value)
