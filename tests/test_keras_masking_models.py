"""Masks in models: the functional API, Sequential, saving, ek.function, and the losses
and metrics of fit/evaluate (Keras 3 weighs the predictions' mask)."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

layers = ek.keras.layers
PADDED = np.array([[4, 7, 2, 0, 0], [3, 0, 0, 0, 0], [1, 5, 6, 8, 2], [9, 9, 0, 0, 0]], np.int32)


def classifier_layers():
    """The text-classification tutorial's model, small: ids -> a score per sequence."""
    return [
        layers.Embedding(10, 4, mask_zero=True),
        layers.Bidirectional(layers.LSTM(3)),
        layers.Dense(3, activation="relu"),
        layers.Dense(1),
    ]


def by_hand(model_layers, ids):
    x = ek.constant(ids)
    for layer in model_layers:
        x = layer(x)
    return x.numpy()


def test_sequential_gives_each_sequence_what_it_gives_alone():
    ek.set_random_seed(0)
    model = ek.keras.Sequential(classifier_layers())
    outputs = model(PADDED).numpy()
    for row, ids in zip(outputs, PADDED, strict=True):
        np.testing.assert_allclose(row, model(ids[None, ids != 0]).numpy()[0], atol=1e-6)


def test_the_functional_api_carries_the_masks_on_keras_tensors():
    ek.set_random_seed(0)
    parts = classifier_layers()
    ids = ek.keras.Input(shape=[None], dtype="int32")
    embedded = parts[0](ids)
    assert embedded._keras_mask.shape.as_list() == [None, None]
    assert embedded._keras_mask.dtype == ek.bool
    steps = layers.LSTM(2, return_sequences=True)(embedded)
    assert steps._keras_mask.shape.as_list() == [None, None]
    model = ek.keras.Model(ids, parts[3](parts[2](parts[1](embedded))))
    assert not hasattr(model.output, "_keras_mask")  # Bidirectional's last output: none
    np.testing.assert_allclose(model(PADDED).numpy(), by_hand(parts, PADDED), atol=1e-6)
    mask_model = ek.keras.Model(ids, steps._keras_mask)  # the mask itself, as an output
    assert mask_model(PADDED).numpy().tolist() == (PADDED != 0).tolist()


def test_save_and_load_model_keep_mask_zero(tmp_path):
    ek.set_random_seed(0)
    model = ek.keras.Sequential(classifier_layers())
    before = model(PADDED).numpy()
    model.save(tmp_path / "masked.keras")
    again = ek.keras.models.load_model(tmp_path / "masked.keras")
    assert again.layers[0].mask_zero and again.layers[0].get_config()["mask_zero"] is True
    np.testing.assert_allclose(again(PADDED).numpy(), before, atol=1e-6)


def test_ek_function_traces_the_masked_model_to_the_same_values_and_gradients():
    ek.set_random_seed(0)
    model = ek.keras.Sequential(classifier_layers())
    ids = ek.constant(PADDED)

    def loss(ids):
        return ek.reduce_sum(model(ids) ** 2)

    with ek.GradientTape() as tape:
        eager = loss(ids)
    eager_grads = tape.gradient(eager, model.trainable_variables)
    traced_loss = ek.function(loss)
    with ek.GradientTape() as tape:
        traced = traced_loss(ids)
    traced_grads = tape.gradient(traced, model.trainable_variables)
    np.testing.assert_allclose(traced.numpy(), eager.numpy(), rtol=1e-6)
    for got, want in zip(traced_grads, eager_grads, strict=True):
        np.testing.assert_allclose(
            ek.convert_to_tensor(got).numpy(), ek.convert_to_tensor(want).numpy(), atol=1e-6
        )


def sequence_tagger():
    """ids -> two class scores per step: the predictions keep the mask of the padding."""
    ek.set_random_seed(1)
    return ek.keras.Sequential(
        [
            layers.Embedding(10, 4, mask_zero=True),
            layers.GRU(3, return_sequences=True),
            layers.Dense(2),
        ]
    )


LABELS = (PADDED % 2).astype(np.int32)


def test_a_loss_is_the_mean_over_the_unmasked_steps_as_keras():
    predictions = sequence_tagger()(PADDED)
    keep = PADDED != 0
    per_step = ek.keras.losses.sparse_categorical_crossentropy(
        LABELS, predictions, from_logits=True
    ).numpy()
    loss = ek.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    np.testing.assert_allclose(float(loss(LABELS, predictions)), per_step[keep].mean(), rtol=1e-6)
    weights = np.array([1.0, 2.0, 0.5, 0.0], np.float32)  # one per sequence, spread on its steps
    want = (per_step * weights[:, None])[keep].sum() / keep.sum()
    np.testing.assert_allclose(float(loss(LABELS, predictions, weights)), want, rtol=1e-6)
    summed = ek.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="sum")
    np.testing.assert_allclose(float(summed(LABELS, predictions)), per_step[keep].sum(), rtol=1e-6)


def test_fit_and_evaluate_leave_the_padding_out_of_the_loss_and_the_metrics():
    model = sequence_tagger()
    model.compile(
        optimizer=ek.keras.optimizers.Adam(0.05),
        loss=ek.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    keep = PADDED != 0
    predictions = model(PADDED)
    hits = predictions.numpy().argmax(-1) == LABELS
    per_step = ek.keras.losses.sparse_categorical_crossentropy(
        LABELS, predictions, from_logits=True
    ).numpy()
    logs = model.evaluate(PADDED, LABELS, batch_size=4, return_dict=True, verbose=0)
    np.testing.assert_allclose(logs["loss"], per_step[keep].mean(), rtol=1e-5)
    np.testing.assert_allclose(logs["accuracy"], hits[keep].mean(), rtol=1e-6)
    history = model.fit(PADDED, LABELS, batch_size=4, epochs=15, verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
    # The padded steps have labels that nothing learns from: changing them changes nothing.
    relabelled = np.where(keep, LABELS, 1 - LABELS)
    again = model.evaluate(PADDED, relabelled, batch_size=4, return_dict=True, verbose=0)
    after = model.evaluate(PADDED, LABELS, batch_size=4, return_dict=True, verbose=0)
    assert again == pytest.approx(after)


def test_a_mask_that_does_not_fit_the_loss_values_is_refused_by_name():
    class Grid(layers.Layer):  # a mask per (batch, step), but two axes of values per step
        def call(self, inputs):
            return ek.ones([2, 3, 4, 5])

        def compute_mask(self, inputs, mask=None):
            return ek.ones([2, 3], dtype=ek.bool)

    predictions = Grid()(ek.ones([2, 3]))
    loss = ek.keras.losses.MeanSquaredError()
    with pytest.raises(
        InvalidArgumentError,
        match=r"mean_squared_error: the predictions' mask has shape \(2, 3\), but the values "
        r"it weighs have shape \(2, 3, 4\)",
    ):
        loss(ek.ones([2, 3, 4, 5]), predictions)
