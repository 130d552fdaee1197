"""Masks through whole models (Keras 3): a padded batch through Embedding(mask_zero) ->
Concatenate/Add (or TimeDistributed, BatchNormalization, Rescaling) -> LSTM gives each
sequence what it gives alone, in the functional API and Sequential; fit does not depend on
how much padding there is; save and load keep the masking."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek

layers = ek.keras.layers
LENGTHS = st.lists(st.integers(1, 5), min_size=1, max_size=4)


def padded(lengths, width, seed=0):
    """A batch of id sequences of ``lengths`` (ids 1..9), padded with 0 to ``width``."""
    rng = np.random.default_rng(seed)
    ids = np.zeros([len(lengths), width], np.int32)
    for row, length in enumerate(lengths):
        ids[row, :length] = rng.integers(1, 10, size=length)
    return ids


def two_branch_model(merge):
    """ids -> two embeddings (mask_zero) -> ``merge`` -> LSTM -> Dense: one score each."""
    ek.set_random_seed(0)
    ids = ek.keras.Input(shape=[None], dtype="int32")
    words = layers.Embedding(10, 3, mask_zero=True)(ids)
    letters = layers.Embedding(10, 3, mask_zero=True)(ids)
    joined = merge([words, letters])
    assert joined._keras_mask.shape.as_list() == [None, None]  # the graph knows the mask
    return ek.keras.Model(ids, layers.Dense(1)(layers.LSTM(4)(joined)))


MERGES = [layers.Concatenate, layers.Add, layers.Multiply, layers.Maximum]


@pytest.mark.parametrize("merge", MERGES, ids=lambda kind: kind.__name__)
@settings(max_examples=8, deadline=None)
@given(lengths=LENGTHS)
def test_a_padded_batch_through_a_merge_gives_each_sequence_what_it_gives_alone(merge, lengths):
    model = two_branch_model(merge())
    ids = padded(lengths, width=6)
    together = model(ids).numpy()
    for row, length in enumerate(lengths):
        alone = model(ids[row : row + 1, :length]).numpy()
        np.testing.assert_allclose(together[row], alone[0], rtol=1e-5, atol=1e-6)


@settings(max_examples=8, deadline=None)
@given(lengths=LENGTHS)
def test_sequential_through_time_distributed_and_normalizations_keeps_the_mask(lengths):
    ek.set_random_seed(1)
    model = ek.keras.Sequential(
        [
            layers.Embedding(10, 3, mask_zero=True),
            layers.TimeDistributed(layers.Dense(4)),
            layers.BatchNormalization(),
            layers.Rescaling(0.5),
            layers.LSTM(2, return_sequences=True),
        ]
    )
    ids = padded(lengths, width=6)
    together = model(ids)
    assert together._keras_mask.numpy().tolist() == (ids != 0).tolist()
    for row, length in enumerate(lengths):
        alone = model(ids[row : row + 1, :length]).numpy()[0]
        np.testing.assert_allclose(together.numpy()[row, :length], alone, rtol=1e-5, atol=1e-6)


def test_fit_on_a_merged_masked_model_does_not_depend_on_the_padding():
    lengths = [3, 1, 4, 2]
    targets = np.array([[1.0], [0.0], [1.0], [0.0]], np.float32)
    weights = []
    for width in (4, 7):  # the same sequences, padded more
        model = two_branch_model(layers.Concatenate())
        model.compile(optimizer=ek.keras.optimizers.SGD(0.1), loss="mse")
        history = model.fit(padded(lengths, width), targets, epochs=3, batch_size=2, verbose=0)
        assert history.history["loss"][-1] < history.history["loss"][0]
        weights.append([v.numpy() for v in model.trainable_variables])
    for short, long in zip(*weights, strict=True):
        np.testing.assert_allclose(short, long, rtol=1e-5, atol=1e-6)


def test_save_and_load_keep_masking_embedding_merges_and_time_distributed(tmp_path):
    ek.set_random_seed(2)
    ids = ek.keras.Input(shape=[None], dtype="int32")
    features = ek.keras.Input(shape=[None, 2])
    words = layers.Embedding(10, 2, mask_zero=True)(ids)
    measured = layers.Masking(mask_value=-1.0)(features)
    joined = layers.TimeDistributed(layers.Dense(3))(layers.Concatenate()([words, measured]))
    outputs = layers.LSTM(2, return_sequences=True)(joined)
    model = ek.keras.Model([ids, features], outputs)
    given_ids = np.array([[4, 2, 0], [7, 0, 0]], np.int32)
    given_features = np.full([2, 3, 2], -1.0, np.float32)
    given_features[0, 0] = 0.5  # the only real step of the features
    before = model([given_ids, given_features])
    model.save(tmp_path / "masked.keras")
    again = ek.keras.models.load_model(tmp_path / "masked.keras")
    after = again([given_ids, given_features])
    mask = [[True, True, False], [True, False, False]]  # the OR of both masks: the ids' here
    assert before._keras_mask.numpy().tolist() == after._keras_mask.numpy().tolist() == mask
    np.testing.assert_allclose(after.numpy(), before.numpy(), atol=1e-6)
    masking = [layer for layer in again.layers if isinstance(layer, layers.Masking)]
    assert masking[0].mask_value == -1.0
