"""How masks travel through layers, as in Keras 3: a layer that cannot keep one warns that
it drops it; the merge layers join their inputs' masks; TimeDistributed gives the wrapped
layer each step's part; BatchNormalization leaves masked steps out of its statistics;
Lambda(mask=) says the output's mask."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

layers = ek.keras.layers
DROPPED = r"was passed an input with a mask attached to it.*destroy the mask information"
IDS = st.integers(1, 4).flatmap(
    lambda batch: st.integers(1, 5).flatmap(
        lambda steps: st.tuples(
            *[hnp.arrays(np.int32, (batch, steps), elements=st.integers(0, 3)) for _ in "abc"]
        )
    )
)


def mask_of(x):
    mask = getattr(x, "_keras_mask", None)
    return None if mask is None else mask.numpy().tolist()


def embedded(ids):
    """``ids`` embedded (2 features, a distinct pair per id) with the mask ``ids != 0``."""
    table = np.arange(10, dtype=np.float32)[:, None] * [1.0, -0.5] + 1.0
    layer = layers.Embedding(10, 2, mask_zero=True, embeddings_initializer="zeros")
    layer.build([None, None])
    layer.embeddings.assign(table)
    return layer(ek.constant(ids))


def inputs(ids, masked):
    """Each of ``ids`` embedded: with its mask where ``masked`` says so, else the same
    values with no mask."""
    return [
        embedded(i) if m else ek.constant(embedded(i).numpy())
        for i, m in zip(ids, masked, strict=True)
    ]


# --- the warning --------------------------------------------------------------------------
def test_a_layer_that_drops_a_mask_warns_naming_itself_its_class_and_the_fix():
    x = embedded([[3, 1, 0]])
    with pytest.warns(UserWarning, match=DROPPED) as caught:
        out = layers.Conv1D(2, 1, name="conv")(x)
    assert mask_of(out) is None
    text = str(caught[0].message)
    assert text.startswith("Layer 'conv' (of type Conv1D) was passed an input with a mask")
    assert "LSTM without return_sequences, GlobalAveragePooling1D" in text
    assert caught[0].filename == __file__  # the line that called the layer

    class Mine(layers.Layer):  # the user's own layer: the fix is to pass the mask on
        def call(self, inputs):
            return inputs

    with pytest.warns(UserWarning, match=r"If Mine keeps the time steps, set supports_masking"):
        Mine(name="mine")(x)


def test_the_warning_comes_once_per_call_site_and_never_where_the_mask_is_kept():
    x = embedded([[3, 1, 0]])
    flatten = layers.Flatten(name="flat")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")  # Python's own filter: once per line and text
        for _ in range(3):
            flatten(x)
    assert [str(w.message)[:26] for w in caught] == ["Layer 'flat' (of type Flat"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning at all from these
        for layer in [layers.Dense(2), layers.LSTM(2), layers.GlobalAveragePooling1D()]:
            layer(x)
        layers.Flatten()(ek.ones([1, 3, 2]))  # no mask: nothing to drop
        ids = ek.keras.Input(shape=[None], dtype="int32")
        steps = layers.Embedding(10, 2, mask_zero=True)(ids)
        model = ek.keras.Model(ids, [steps, steps._keras_mask])  # the mask read: no loss
        outer = ek.keras.Sequential([model.layers[1], layers.LSTM(2, return_sequences=True)])
        assert mask_of(outer(ek.constant([[4, 0]]))) == [[True, False]]


def test_models_warn_at_the_layer_that_drops_the_mask():
    ids = np.array([[3, 1, 0]], np.int32)
    sequential = ek.keras.Sequential(
        [layers.Embedding(10, 2, mask_zero=True), layers.Flatten(name="f1"), layers.Dense(1)]
    )
    with pytest.warns(UserWarning, match=r"Layer 'f1' \(of type Flatten\)"):
        sequential(ids)
    inputs = ek.keras.Input(shape=[3], dtype="int32")
    steps = layers.Embedding(10, 2, mask_zero=True)(inputs)
    with pytest.warns(UserWarning, match=r"Layer 'f2' \(of type Flatten\)"):
        flat = layers.Flatten(name="f2")(steps)  # building the model warns already
    model = ek.keras.Model(inputs, flat)
    with pytest.warns(UserWarning, match=r"Layer 'f2' \(of type Flatten\)"):
        model(ids)


# --- merge layers -------------------------------------------------------------------------
ELEMENTWISE = [layers.Add, layers.Subtract, layers.Multiply, layers.Average]
ELEMENTWISE += [layers.Maximum, layers.Minimum]


@settings(max_examples=25, deadline=None)
@given(ids=IDS, kind=st.sampled_from(ELEMENTWISE), unmasked=st.booleans())
def test_elementwise_merges_join_the_masks_by_or_and_drop_them_if_one_input_has_none(
    ids, kind, unmasked
):
    a, b = embedded(ids[0]), embedded(ids[1])
    if unmasked:
        b = ek.constant(b.numpy())  # the same values, no mask
    out = kind()([a, b])
    expected = None if unmasked else ((ids[0] != 0) | (ids[1] != 0)).tolist()
    assert mask_of(out) == expected


@settings(max_examples=25, deadline=None)
@given(ids=IDS, masked=st.tuples(st.booleans(), st.booleans(), st.booleans()))
def test_multiply_maximum_minimum_leave_the_masked_entries_out_as_keras_3(ids, masked):
    tensors = inputs(ids, masked)
    values = np.stack([t.numpy() for t in tensors])
    real = np.stack(  # where each input is real: its mask over the features, or everywhere
        [
            np.broadcast_to((i != 0)[..., None] | (not m), values.shape[1:])
            for i, m in zip(ids, masked, strict=True)
        ]
    )
    product = np.where(real, values, 1.0).prod(0)
    if all(masked):
        product = np.where(real.any(0), product, 0.0)  # masked in every input: 0
    np.testing.assert_allclose(layers.Multiply()(tensors).numpy(), product, rtol=1e-6)
    # Keras 3 folds left: an entry masked so far takes the next input's value.
    for kind, choose in [(layers.Maximum, np.maximum), (layers.Minimum, np.minimum)]:
        chosen, chosen_real = values[0], real[0]
        for value, is_real in zip(values[1:], real[1:], strict=True):
            value = np.where(is_real, value, chosen)
            chosen = choose(np.where(chosen_real, chosen, value), value)
            chosen_real = chosen_real | is_real
        np.testing.assert_allclose(kind()(tensors).numpy(), chosen, rtol=1e-6)


@settings(max_examples=25, deadline=None)
@given(ids=IDS, masked=st.tuples(st.booleans(), st.booleans(), st.booleans()))
def test_concatenate_joins_the_masks_along_its_axis_an_unmasked_input_all_true(ids, masked):
    tensors = inputs(ids, masked)
    steps = [(i != 0) if m else np.ones(i.shape, bool) for i, m in zip(ids, masked, strict=True)]
    along_time = layers.Concatenate(axis=1)(tensors)
    along_features = layers.Concatenate()(tensors)
    if not any(masked):
        assert mask_of(along_time) is None and mask_of(along_features) is None
        return
    assert mask_of(along_time) == np.concatenate(steps, axis=1).tolist()
    assert mask_of(along_features) == np.logical_or.reduce(steps).tolist()


def test_dot_has_no_mask_and_merges_check_a_mask_given_by_hand():
    a, b = embedded([[3, 0]]), embedded([[0, 2]])
    assert mask_of(layers.Dot(axes=-1)([a, b])) is None
    assert layers.Dot(axes=-1).supports_masking  # no warning: it pools the steps away
    with pytest.raises(InvalidArgumentError, match=r"Add layer 'add_m'.*one mask \(or None\)"):
        layers.Add(name="add_m")([a, b], mask=[a._keras_mask])
    joined = layers.Add()([a, b], mask=[None, b._keras_mask])  # as given: one has none
    assert mask_of(joined) is None


# --- TimeDistributed, BatchNormalization, Lambda ------------------------------------------
def test_time_distributed_gives_the_wrapped_layer_each_steps_mask_and_keeps_the_mask():
    seen = []

    class Spy(layers.Layer):
        supports_masking = True

        def call(self, inputs, mask=None):
            seen.append(None if mask is None else mask.numpy().tolist())
            return inputs * 2.0

    x = embedded([[3, 1, 0], [2, 0, 0]])
    out = layers.TimeDistributed(Spy())(x)
    assert seen == [[True, True, False, True, False, False]]  # one per (sequence, step)
    assert mask_of(out) == [[True, True, False], [True, False, False]]
    assert mask_of(layers.TimeDistributed(layers.Dense(3))(x)) == mask_of(out)
    with pytest.raises(InvalidArgumentError, match=r"'td'.*\(2, 3\).*got shape \(2,\)"):
        layers.TimeDistributed(Spy(), name="td")(x, mask=ek.constant([True, False]))


def test_batch_normalization_leaves_the_masked_steps_out_of_its_statistics():
    rng = np.random.default_rng(0)
    values = rng.normal(size=[3, 4, 2]).astype(np.float32)
    real = np.array([[1, 1, 0, 0], [1, 0, 0, 0], [1, 1, 1, 1]], bool)
    layer = layers.BatchNormalization(momentum=0.0, epsilon=1e-3)
    x = ek.constant(values)
    out = layer(x, training=True, mask=ek.constant(real))
    mean, var = values[real].mean(0), values[real].var(0)
    np.testing.assert_allclose(layer.moving_mean.numpy(), mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(layer.moving_variance.numpy(), var, rtol=1e-5)
    np.testing.assert_allclose(out.numpy(), (values - mean) / np.sqrt(var + 1e-3), atol=1e-5)
    assert mask_of(out) == real.tolist()
    before = layer.moving_mean.numpy()
    with pytest.raises(InvalidArgumentError, match=r"one value per step, rank 2.*\(3, 4\)"):
        layer(x, training=True, mask=ek.constant(real[0]))
    np.testing.assert_array_equal(layer.moving_mean.numpy(), before)  # left as it was


def test_lambda_passes_the_mask_to_its_function_and_gives_the_output_the_mask_it_names():
    x = embedded([[3, 1, 0]])

    def zero_padding(inputs, mask):
        return inputs * ek.cast(mask, inputs.dtype)[..., None]

    kept = layers.Lambda(zero_padding, mask=lambda inputs, mask: mask)(x)
    assert mask_of(kept) == [[True, True, False]]
    np.testing.assert_array_equal(kept.numpy()[0, 2], [0.0, 0.0])
    fixed = layers.Lambda(ek.square, mask=[[True, False, True]])(ek.ones([1, 3]))
    assert mask_of(fixed) == [[True, False, True]]
    config = layers.Lambda(ek.square, mask=[[1, 0]]).get_config()
    assert config["mask"] == [[True, False]]
    assert layers.Lambda.from_config(config).mask.numpy().tolist() == [[True, False]]
    with pytest.raises(InvalidArgumentError, match=r"Lambda: mask must be a function"):
        layers.Lambda(ek.square, mask="padding")
    with pytest.warns(UserWarning, match=r"\(of type Lambda\).*or give Lambda mask="):
        layers.Lambda(ek.square)(x)  # no mask=: it drops the mask, as Keras 3's
