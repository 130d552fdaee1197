"""keras.layers.MultiHeadAttention against numpy written here with a plain loop over heads
(hypothesis over shapes, heads, sizes, biases, output shapes and masks), Keras' weights and
parameter count, masked and causal attention, attention over several axes, gradients by
finite differences, and errors that name the call, the shapes and the fix."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.testing import check_grads

layers = ek.keras.layers
rng = np.random.default_rng(31)


def numpy_mha(query, value, key, weights, num_heads, key_dim, mask=None):
    """Each batch item and each head on its own; ``weights`` as layer.get_weights() gives
    them (kernel then bias for query, key, value, output; no biases if there are 4)."""
    if len(weights) == 4:
        wq, wk, wv, wo = weights
        bq = bk = bv = bo = 0.0
    else:
        wq, bq, wk, bk, wv, bv, wo, bo = weights
        bq, bk, bv = (
            np.moveaxis(np.broadcast_to(b, (num_heads, b.shape[-1])), 0, 0) for b in (bq, bk, bv)
        )
    batch, t, s = query.shape[0], query.shape[1], value.shape[1]
    out = np.zeros((batch, t, *wo.shape[2:]))
    scores = np.zeros((batch, num_heads, t, s))
    for b in range(batch):
        for h in range(num_heads):
            q = query[b] @ wq[:, h, :] + (bq[h] if np.ndim(bq) else 0.0)
            k = key[b] @ wk[:, h, :] + (bk[h] if np.ndim(bk) else 0.0)
            v = value[b] @ wv[:, h, :] + (bv[h] if np.ndim(bv) else 0.0)
            logits = q @ k.T / math.sqrt(key_dim)
            if mask is not None:
                logits = np.where(mask[b], logits, -1e9)
            w = np.exp(logits - logits.max(-1, keepdims=True))
            scores[b, h] = w / w.sum(-1, keepdims=True)
            out[b] += np.tensordot(scores[b, h] @ v, wo[h], axes=1)
        out[b] += bo
    return out, scores


@st.composite
def cases(draw):
    sizes = [draw(st.integers(1, 4)) for _ in range(4)]  # batch, T, S, query features
    heads, key_dim = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    value_dim = draw(st.sampled_from([None, 1, 3]))
    output_shape = draw(st.sampled_from([None, 2, (2, 3)]))
    use_bias, separate_key, masked = (draw(st.booleans()) for _ in range(3))
    return sizes, heads, key_dim, value_dim, output_shape, use_bias, separate_key, masked


@settings(max_examples=60, deadline=None)
@given(case=cases())
def test_multi_head_attention_matches_a_loop_over_heads(case):
    (batch, t, s, features), heads, key_dim, value_dim, output_shape, use_bias, sep, masked = case
    query = rng.standard_normal((batch, t, features)).astype(np.float32)
    value = rng.standard_normal((batch, s, 3)).astype(np.float32)
    key = rng.standard_normal((batch, s, 2)).astype(np.float32) if sep else value
    mask = None
    if masked:  # key 0 always shown (a fully hidden row is tested on its own below)
        mask = rng.random((batch, t, s)) > 0.4
        mask[..., 0] = True
    layer = layers.MultiHeadAttention(
        heads,
        key_dim,
        value_dim,
        use_bias=use_bias,
        output_shape=output_shape,
        bias_initializer="random_normal",
    )
    out, scores = layer(
        query, value, key if sep else None, attention_mask=mask, return_attention_scores=True
    )
    expected_out, expected_scores = numpy_mha(
        query, value, key, layer.get_weights(), heads, key_dim, mask
    )
    np.testing.assert_allclose(scores.numpy(), expected_scores, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(out.numpy(), expected_out, rtol=1e-4, atol=1e-4)
    wanted = (features,) if output_shape is None else np.atleast_1d(output_shape).tolist()
    assert out.shape == (batch, t, *wanted) and scores.shape == (batch, heads, t, s)


def test_weights_are_named_ordered_and_counted_as_keras():
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=2, name="mha")
    target, source = ek.ones([1, 8, 16]), ek.ones([1, 4, 16])
    out, scores = layer(target, source, return_attention_scores=True)
    assert out.shape == (1, 8, 16) and scores.shape == (1, 2, 8, 4)  # Keras' doc example
    assert [(w.name, tuple(w.shape)) for w in layer.weights] == [
        ("mha/query/kernel:0", (16, 2, 2)),
        ("mha/query/bias:0", (2, 2)),
        ("mha/key/kernel:0", (16, 2, 2)),
        ("mha/key/bias:0", (2, 2)),
        ("mha/value/kernel:0", (16, 2, 2)),
        ("mha/value/bias:0", (2, 2)),
        ("mha/attention_output/kernel:0", (2, 2, 16)),
        ("mha/attention_output/bias:0", (16,)),
    ]
    assert layer.count_params() == 284  # 3 * (16*2*2 + 2*2) + (2*2*16 + 16)
    unbiased = layers.MultiHeadAttention(4, 8, value_dim=5, use_bias=False, output_shape=7)
    unbiased(ek.ones([1, 3, 6]), ek.ones([1, 2, 10]), key=ek.ones([1, 2, 9]))
    assert unbiased.count_params() == 6 * 32 + 9 * 32 + 10 * 20 + 20 * 7
    assert layer.query_dense.kernel is layer.weights[0]  # Keras' property names


def test_a_fully_masked_row_gets_even_weights_and_hidden_keys_get_none():
    layer = layers.MultiHeadAttention(2, 3)
    query = ek.constant(rng.standard_normal((1, 3, 4)).astype(np.float32))
    value = ek.constant(rng.standard_normal((1, 5, 4)).astype(np.float32))
    mask = np.ones((1, 3, 5), bool)
    mask[0, 0] = False  # query position 0 may attend to nothing
    mask[0, 1, 2:] = False
    _, scores = layer(query, value, attention_mask=mask, return_attention_scores=True)
    np.testing.assert_allclose(scores[0, :, 0].numpy(), np.full((2, 5), 0.2), atol=1e-7)
    assert np.all(scores[0, :, 1, 2:].numpy() == 0.0)
    np.testing.assert_allclose(scores.numpy().sum(-1), 1.0, rtol=1e-6)
    as_numbers = layer(query, value, attention_mask=mask.astype(np.float32))
    np.testing.assert_array_equal(as_numbers.numpy(), layer(query, value, attention_mask=mask))


def test_the_causal_mask_hides_the_future_and_joins_the_attention_mask():
    layer = layers.MultiHeadAttention(2, 3)
    x = ek.constant(rng.standard_normal((2, 4, 5)).astype(np.float32))
    out, scores = layer(x, x, use_causal_mask=True, return_attention_scores=True)
    rows, columns = np.tril_indices(4)
    assert np.all(np.triu(scores.numpy(), k=1) == 0.0) and np.all(
        scores.numpy()[..., rows, columns] > 0
    )
    later = ek.concat([x[:, :2], x[:, 2:] * 10.0], axis=1)
    np.testing.assert_allclose(
        layer(later, later, use_causal_mask=True)[:, :2].numpy(), out[:, :2].numpy(), atol=1e-6
    )
    hide_first = np.ones((2, 1, 4), bool)
    hide_first[:, :, 0] = False
    _, both = layer(
        x, x, attention_mask=hide_first, use_causal_mask=True, return_attention_scores=True
    )
    future = np.triu(both.numpy(), k=1)[..., 1:, :]
    assert np.all(both.numpy()[..., 1:, 0] == 0.0) and np.all(future == 0.0)
    # Query 0 sees only key 0, which is hidden: a fully hidden row, even weights as Keras.
    np.testing.assert_allclose(both[..., 0, :].numpy(), 0.25, rtol=1e-6)


def test_attention_over_two_axes_is_attention_over_the_flattened_positions():
    query = rng.standard_normal((2, 3, 2, 4)).astype(np.float32)
    value = rng.standard_normal((2, 2, 5, 4)).astype(np.float32)
    grid = layers.MultiHeadAttention(2, 3, attention_axes=(1, 2))
    flat = layers.MultiHeadAttention(2, 3)
    out = grid(query, value)
    flat(query.reshape(2, 6, 4), value.reshape(2, 10, 4))
    flat.set_weights(grid.get_weights())
    expected = flat(query.reshape(2, 6, 4), value.reshape(2, 10, 4)).numpy().reshape(2, 3, 2, 4)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-5)
    # Over axis 2 only: axis 1 is another batch axis.
    rows = layers.MultiHeadAttention(2, 3, attention_axes=2)
    value_rows = rng.standard_normal((2, 3, 5, 4)).astype(np.float32)
    out, scores = rows(query, value_rows, return_attention_scores=True)
    assert scores.shape == (2, 3, 2, 2, 5)  # batch, axis 1, heads, T, S
    flat.set_weights(rows.get_weights())
    expected = flat(query.reshape(6, 2, 4), value_rows.reshape(6, 5, 4)).numpy()
    np.testing.assert_allclose(out.numpy(), expected.reshape(2, 3, 2, 4), rtol=1e-5, atol=1e-5)


def test_dropout_drops_weights_in_training_only():
    layer = layers.MultiHeadAttention(2, 3, dropout=0.5, seed=1)
    x = ek.constant(rng.standard_normal((2, 30, 4)).astype(np.float32))
    first = layer(x, x)
    np.testing.assert_array_equal(layer(x, x, training=False).numpy(), first.numpy())
    trained, scores = layer(x, x, training=True, return_attention_scores=True)
    assert not np.allclose(trained.numpy(), first.numpy())
    np.testing.assert_allclose(scores.numpy().sum(-1), 1.0, rtol=1e-5)  # before the dropout


def test_gradients_match_finite_differences():
    layer = layers.MultiHeadAttention(2, 2, value_dim=3, dtype="float64")
    query, value = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 4, 5))
    key = rng.standard_normal((2, 4, 3))
    mask = rng.random((2, 3, 4)) > 0.3
    u = rng.standard_normal((2, 3, 4))
    check_grads(
        lambda q, v, k: ek.reduce_sum(layer(q, v, k, attention_mask=mask) * u),
        query,
        value,
        key,
        order=2,
    )
    with ek.GradientTape() as tape:
        loss = ek.reduce_sum(layer(query, value, key, attention_mask=mask) * u)
    grads = tape.gradient(loss, layer.trainable_variables)
    directions = [rng.standard_normal(w.shape) for w in layer.trainable_variables]
    start = layer.get_weights()
    step, values = 1e-6, []
    for sign in (1, -1):
        layer.set_weights([w + sign * step * d for w, d in zip(start, directions, strict=True)])
        values.append(float(ek.reduce_sum(layer(query, value, key, attention_mask=mask) * u)))
    layer.set_weights(start)
    analytic = sum(float(np.sum(g.numpy() * d)) for g, d in zip(grads, directions, strict=True))
    np.testing.assert_allclose(analytic, (values[0] - values[1]) / (2 * step), rtol=1e-5)
