"""Keras masks: made by Embedding(mask_zero=True) and Masking, carried on the tensors,
passed on, received and dropped by the layers as in Keras 3; pooling and attention."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

layers = ek.keras.layers
IDS = hnp.arrays(
    np.int32, st.tuples(st.integers(1, 4), st.integers(1, 6)), elements=st.integers(0, 9)
)


def mask_of(x):
    mask = getattr(x, "_keras_mask", None)
    return None if mask is None else mask.numpy().tolist()


@settings(max_examples=30, deadline=None)
@given(ids=IDS)
def test_embedding_masks_the_zero_ids(ids):
    embedding = layers.Embedding(10, 2, mask_zero=True)
    assert mask_of(embedding(ids)) == (ids != 0).tolist()
    assert embedding.compute_mask(ids).numpy().tolist() == (ids != 0).tolist()
    assert mask_of(layers.Embedding(10, 2)(ids)) is None  # no mask_zero: no mask


@settings(max_examples=30, deadline=None)
@given(
    x=hnp.arrays(
        np.float32,
        st.tuples(st.integers(1, 3), st.integers(1, 5), st.integers(1, 3)),
        elements=st.sampled_from([0.0, 1.0, -2.5]),
    ),
    value=st.sampled_from([0.0, 1.0]),
)
def test_masking_masks_steps_whose_features_all_equal_the_value_and_zeros_them(x, value):
    outputs = layers.Masking(mask_value=value)(x)
    kept = (x != value).any(axis=-1)
    assert mask_of(outputs) == kept.tolist()
    np.testing.assert_array_equal(outputs.numpy(), np.where(kept[..., None], x, 0.0))


def test_masking_refuses_a_value_that_is_no_number_and_a_rank_2_input():
    with pytest.raises(InvalidArgumentError, match="Masking: mask_value must be a finite number"):
        layers.Masking(mask_value="pad")
    with pytest.raises(InvalidArgumentError, match="Masking layer 'm' expects input of rank >= 3"):
        layers.Masking(name="m")(ek.ones([2, 3]))


PADDED = ek.constant([[3, 1, 0], [2, 0, 0]])
PASSED_ON = [
    lambda: layers.Dense(2),
    lambda: layers.Dropout(0.5),
    lambda: layers.Activation("tanh"),
    lambda: layers.ReLU(),
    lambda: layers.LeakyReLU(),
    lambda: layers.ELU(),
    lambda: layers.LayerNormalization(),
]


@pytest.mark.parametrize("make", PASSED_ON)
@pytest.mark.parametrize("training", [False, True])
def test_layers_that_support_masking_pass_it_on(make, training):
    embedded = layers.Embedding(5, 4, mask_zero=True)(PADDED)
    layer = make()
    assert layer.supports_masking
    assert mask_of(layer(embedded, training=training)) == [
        [True, True, False],
        [True, False, False],
    ]


@pytest.mark.parametrize(
    "make, warns",
    [
        (lambda: layers.Flatten(), True),
        (lambda: layers.Conv1D(2, 1), True),
        (lambda: layers.GlobalMaxPooling1D(), True),  # Keras 3: it ignores the mask
        (lambda: layers.GlobalAveragePooling1D(), False),  # it uses it: the steps pooled away
    ],
)
def test_other_layers_drop_it(make, warns):
    embedded = layers.Embedding(5, 4, mask_zero=True)(PADDED)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert mask_of(make()(embedded)) is None
    assert [("destroy the mask" in str(w.message)) for w in caught] == ([True] if warns else [])


def test_a_layer_whose_call_takes_mask_receives_it_and_one_writing_compute_mask_supports_it():
    seen = []

    class Spy(layers.Layer):
        def call(self, inputs, mask=None):
            seen.append(None if mask is None else mask.numpy().tolist())
            return inputs * 2.0

    class Shift(layers.Layer):  # writes compute_mask: supports masking, as in Keras
        def call(self, inputs):
            return inputs + 0.0  # a new tensor (the input itself already has its mask)

        def compute_mask(self, inputs, mask=None):
            return ek.concat([mask[:, 1:], mask[:, :1]], axis=1)

    embedded = layers.Embedding(5, 4, mask_zero=True)(PADDED)
    with pytest.warns(UserWarning, match="Layer 'spy' .* destroy the mask information"):
        # it received the mask, but does not pass it on (Keras 3 warns of that)
        assert mask_of(Spy(name="spy")(embedded)) is None
    assert seen == [[[True, True, False], [True, False, False]]]
    assert Shift.supports_masking and not Spy.supports_masking
    assert mask_of(Shift()(embedded)) == [[True, False, True], [False, False, True]]
    Spy()(ek.ones([2, 3, 4]))  # no mask anywhere: mask=None
    assert seen[-1] is None


def test_global_average_pooling_1d_averages_the_unmasked_steps():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(3, 4, 2)).astype(np.float32)
    mask = np.array([[1, 1, 0, 0], [1, 1, 1, 1], [0, 1, 0, 1]], bool)
    pooled = layers.GlobalAveragePooling1D()(x, mask=mask).numpy()
    want = np.stack([x[i][mask[i]].mean(axis=0) for i in range(3)])
    np.testing.assert_allclose(pooled, want, atol=1e-6)
    steps_first = np.transpose(x, [0, 2, 1])
    pooled = layers.GlobalAveragePooling1D("channels_first", keepdims=True)(steps_first, mask=mask)
    np.testing.assert_allclose(pooled.numpy()[:, :, 0], want, atol=1e-6)
    with pytest.warns(UserWarning, match="GlobalMaxPooling1D"):
        unmasked = layers.GlobalMaxPooling1D()(layers.Masking()(ek.constant(x)))
    np.testing.assert_allclose(unmasked.numpy(), x.max(axis=1))  # as Keras: all steps count


def test_global_average_pooling_refuses_a_mask_of_the_wrong_shape():
    layer = layers.GlobalAveragePooling1D(name="pool")
    with pytest.raises(
        InvalidArgumentError, match=r"pool'.*shape \[batch, time\] = \(2, 3\).*got shape \(2, 4\)"
    ):
        layer(ek.ones([2, 3, 5]), mask=ek.ones([2, 4], dtype=ek.bool))


def test_attention_hides_the_padded_values_and_keeps_the_query_mask():
    embedding = layers.Embedding(7, 4, mask_zero=True)
    ids = ek.constant([[5, 2, 6, 0], [3, 1, 0, 0]])
    x = embedding(ids)
    keep = ids.numpy() != 0
    outputs, weights = layers.Attention()([x, x], return_attention_scores=True)
    explicit, explicit_weights = layers.Attention()(
        [ek.identity(x), ek.identity(x)], mask=[keep, keep], return_attention_scores=True
    )
    np.testing.assert_allclose(weights.numpy(), explicit_weights.numpy(), atol=1e-7)
    np.testing.assert_allclose(outputs.numpy(), explicit.numpy(), atol=1e-7)
    assert np.all(weights.numpy()[~np.broadcast_to(keep[:, None, :], weights.shape)] == 0)
    assert mask_of(outputs) == keep.tolist()


def test_multi_head_attention_joins_the_inputs_masks_as_keras():
    ids = ek.constant([[5, 2, 6, 0], [3, 1, 0, 0]])
    values = ek.constant([[4, 4, 0], [1, 0, 0]])
    embedding = layers.Embedding(7, 4, mask_zero=True)
    query, value = embedding(ids), embedding(values)
    ek.set_random_seed(0)
    mha = layers.MultiHeadAttention(2, 3)
    outputs, scores = mha(query, value, return_attention_scores=True)
    q, v = ids.numpy() != 0, values.numpy() != 0
    joined = q[:, :, None] & v[:, None, :]  # [batch, T, S]: Keras' _compute_attention_mask
    by_hand = mha(
        ek.identity(query), ek.identity(value), attention_mask=joined, return_attention_scores=True
    )
    np.testing.assert_allclose(outputs.numpy(), by_hand[0].numpy(), atol=1e-6)
    np.testing.assert_allclose(scores.numpy(), by_hand[1].numpy(), atol=1e-6)
    np.testing.assert_array_equal(scores.numpy()[0][:, q[0], 2], 0.0)  # value 2 is padding
    np.testing.assert_allclose(scores.numpy()[0][:, 3], 1 / 3)  # a padded query: even weights
    assert mask_of(outputs) == q.tolist()
    with pytest.raises(
        InvalidArgumentError, match=r"value_mask must have one True/False.*\(2, 3\)"
    ):
        mha(ek.identity(query), ek.identity(value), value_mask=ek.ones([2, 4], dtype=ek.bool))
