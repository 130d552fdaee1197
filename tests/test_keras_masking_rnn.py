"""Masked recurrent layers: against numpy loops written from the equations, and the classic
check (a padded batch gives what each sequence gives alone, at its true length)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from recurrent_references import run, run_masked, weights_of

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

KINDS = ["SimpleRNN", "LSTM", "GRU"]
layers = ek.keras.layers


def padded_batch(lengths, steps, features=3, seed=0):
    """Random sequences of ``lengths``, right-padded with zeros to ``steps``, and the mask."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(len(lengths), steps, features)).astype(np.float32)
    mask = np.arange(steps)[None, :] < np.array(lengths)[:, None]
    return np.where(mask[..., None], x, 0.0).astype(np.float32), mask


def built(kind, units=4, **flags):
    ek.set_random_seed(3)
    layer = getattr(layers, kind)(units, **flags)
    layer.build([None, None, 3])
    return layer


LENGTHS = st.lists(st.integers(1, 6), min_size=1, max_size=4)


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=15, deadline=None)
@given(lengths=LENGTHS, backwards=st.booleans(), zero_output=st.booleans())
def test_masked_outputs_match_the_numpy_loop(kind, lengths, backwards, zero_output):
    x, mask = padded_batch(lengths, 6)
    layer = built(
        kind,
        return_sequences=True,
        return_state=True,
        go_backwards=backwards,
        zero_output_for_mask=zero_output,
    )
    outputs, *states = layer(x, mask=mask)
    expected, expected_states = run_masked(
        kind, x, mask, *weights_of(layer), backwards=backwards, zero_output=zero_output
    )
    np.testing.assert_allclose(outputs.numpy(), expected, atol=1e-5)
    for state, want in zip(states, expected_states, strict=True):
        np.testing.assert_allclose(state.numpy(), want, atol=1e-5)


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=15, deadline=None)
@given(lengths=LENGTHS, backwards=st.booleans())
def test_a_padded_batch_gives_what_each_sequence_gives_alone(kind, lengths, backwards):
    x, _ = padded_batch(lengths, 6)
    ids_like = ek.keras.layers.Masking()(ek.constant(x))  # the mask from the zero padding
    layer = built(kind, go_backwards=backwards)
    last = layer(ids_like).numpy()
    for row, length in enumerate(lengths):
        alone, _ = run(kind, x[row : row + 1, :length], *weights_of(layer), backwards=backwards)
        np.testing.assert_allclose(last[row], alone[0, -1], atol=1e-5)


@pytest.mark.parametrize("kind", KINDS)
def test_return_sequences_repeats_the_last_real_output_and_passes_the_mask_on(kind):
    x, mask = padded_batch([2, 4], 4)
    layer = built(kind, return_sequences=True)
    outputs = layer(x, mask=mask)
    alone, _ = run(kind, x[:1, :2], *weights_of(layer))
    np.testing.assert_allclose(outputs.numpy()[0, :2], alone[0], atol=1e-5)
    np.testing.assert_allclose(outputs.numpy()[0, 2:], np.stack([alone[0, 1]] * 2), atol=1e-5)
    assert outputs._keras_mask.numpy().tolist() == mask.tolist()
    last = built(kind)(x, mask=mask)  # a last output has no steps, and so no mask
    assert getattr(last, "_keras_mask", None) is None


@pytest.mark.parametrize("kind", KINDS)
def test_no_gradient_reaches_the_padding_through_the_state(kind):
    ids = ek.constant([[4, 2, 0, 0], [3, 1, 2, 0]])
    ek.set_random_seed(5)
    embedding = layers.Embedding(6, 3, mask_zero=True)
    layer = getattr(layers, kind)(4)
    with ek.GradientTape() as tape:
        loss = ek.reduce_sum(layer(embedding(ids)) ** 2)
    table_grad = ek.convert_to_tensor(tape.gradient(loss, embedding.embeddings)).numpy()
    np.testing.assert_array_equal(table_grad[0], np.zeros(3))  # id 0 is only padding
    assert np.abs(table_grad[1:5]).min() > 0
    # Each sequence alone, unpadded, gives the same gradient to the ids it uses.
    grads = np.zeros_like(table_grad)
    for row in ids.numpy():
        kept = ek.constant([row[row != 0]])
        with ek.GradientTape() as tape:
            loss = ek.reduce_sum(layer(embedding(kept)) ** 2)
        grads += ek.convert_to_tensor(tape.gradient(loss, embedding.embeddings)).numpy()
    np.testing.assert_allclose(table_grad, grads, atol=1e-6)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("sequences", [True, False])
def test_bidirectional_gives_both_directions_the_mask(kind, sequences):
    x, mask = padded_batch([2, 5, 3], 5)
    ek.set_random_seed(2)
    both = layers.Bidirectional(getattr(layers, kind)(3, return_sequences=sequences))
    outputs = both(x, mask=mask).numpy()
    forward, backward = both.forward_layer, both.backward_layer
    for row, length in enumerate([2, 5, 3]):
        alone = x[row : row + 1, :length]
        ahead, _ = run(kind, alone, *weights_of(forward))
        behind, _ = run(kind, alone, *weights_of(backward), backwards=True)
        if sequences:  # step t meets step t; a padded step is zeros (Keras sets it so)
            want = np.concatenate([ahead[0], behind[0, ::-1]], axis=-1)
            np.testing.assert_allclose(outputs[row, :length], want, atol=1e-5)
            np.testing.assert_array_equal(outputs[row, length:], 0.0)
        else:
            want = np.concatenate([ahead[0, -1], behind[0, -1]])
            np.testing.assert_allclose(outputs[row], want, atol=1e-5)
    merged = both(x, mask=mask)
    if sequences:
        assert merged._keras_mask.numpy().tolist() == mask.tolist()
    else:
        assert getattr(merged, "_keras_mask", None) is None


def test_bidirectional_without_merging_masks_both_outputs():
    x, mask = padded_batch([1, 3], 3)
    both = layers.Bidirectional(layers.GRU(2, return_sequences=True), merge_mode=None)
    ahead, behind = both(ek.keras.layers.Masking()(ek.constant(x)))
    for output in (ahead, behind):
        assert output._keras_mask.numpy().tolist() == mask.tolist()


@pytest.mark.parametrize(
    "mask, message",
    [
        (
            [[True, False]],
            r"LSTM layer 'lstm_masked': mask must have one True/False per time "
            r"step, shape \[batch, time\] = \(2, 3\) for inputs of shape \(2, 3, 3\), but got "
            r"shape \(1, 2\)",
        ),
        ([["a", "b", "c"]] * 2, r"LSTM layer 'lstm_masked': mask must be a tensor of True/False"),
    ],
)
def test_a_bad_mask_is_refused_naming_the_layer_shapes_and_fix(mask, message):
    layer = layers.LSTM(2, name="lstm_masked")
    x = ek.ones([2, 3, 3])
    with pytest.raises(InvalidArgumentError, match=message):
        layer(x, mask=mask)
    assert not layer.built and layer.variables == []  # a failed first call builds nothing
    layer(x)
    before = [v.numpy() for v in layer.variables]
    with pytest.raises(InvalidArgumentError, match="Pass a mask of shape"):
        layer(x, mask=[[True] * 4] * 2)
    for variable, value in zip(layer.variables, before, strict=True):
        np.testing.assert_array_equal(variable.numpy(), value)


def test_recurrent_layers_start_orthogonal_as_keras():
    layer = built("LSTM", units=5)
    recurrent = layer.recurrent_kernel.numpy()  # [5, 20]: its rows are orthonormal
    np.testing.assert_allclose(recurrent @ recurrent.T, np.eye(5), atol=1e-5)
    assert "recurrent_initializer" not in layer.get_config()  # the default, as made
