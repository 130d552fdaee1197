"""keras.layers.Attention (Luong) against numpy written here with plain loops (hypothesis
over shapes, both score modes, the scale, masks, the causal mask), masked rows as Keras
gives them, dropout, gradients by finite differences, and errors that name the call."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError
from eagerkit.testing import check_grads

layers = ek.keras.layers
rng = np.random.default_rng(21)


def numpy_attention(q, v, k, mode, scale, concat_weight, query_mask, value_mask, causal):
    """One batch item, one query position and one key position at a time."""
    batch, tq, tv = q.shape[0], q.shape[1], v.shape[1]
    out = np.zeros((batch, tq, v.shape[2]))
    weights = np.zeros((batch, tq, tv))
    for b in range(batch):
        for i in range(tq):
            scores = np.zeros(tv)
            for j in range(tv):
                if mode == "dot":
                    scores[j] = scale * np.dot(q[b, i], k[b, j])
                else:
                    scores[j] = concat_weight * np.tanh(scale * (q[b, i] + k[b, j])).sum()
            shown = np.ones(tv, bool) if value_mask is None else value_mask[b].copy()
            if causal:
                shown &= np.arange(tv) <= i
            scores = np.where(shown, scores, -np.inf)
            w = np.exp(scores - scores.max())
            weights[b, i] = w / w.sum()
            out[b, i] = weights[b, i] @ v[b]
            if query_mask is not None and not query_mask[b, i]:
                out[b, i] = 0.0
    return out, weights


@st.composite
def cases(draw):
    batch, tq, tv, dim, vdim = (draw(st.integers(1, 4)) for _ in range(5))
    mode = draw(st.sampled_from(["dot", "concat"]))
    causal = draw(st.booleans())
    masks = draw(st.booleans())
    value_mask = query_mask = None
    if masks:  # key 0 always shown: no row is fully hidden here (see the test below)
        value_mask = draw(st.lists(st.booleans(), min_size=batch * tv, max_size=batch * tv))
        value_mask = np.array(value_mask).reshape(batch, tv)
        value_mask[:, 0] = True
        query_mask = rng.random((batch, tq)) > 0.3
    separate_key = draw(st.booleans())
    return batch, tq, tv, dim, vdim, mode, causal, value_mask, query_mask, separate_key


@settings(max_examples=60, deadline=None)
@given(case=cases(), use_scale=st.booleans())
def test_attention_matches_numpy_loops(case, use_scale):
    batch, tq, tv, dim, vdim, mode, causal, value_mask, query_mask, separate_key = case
    q = rng.standard_normal((batch, tq, dim)).astype(np.float32)
    v = rng.standard_normal((batch, tv, vdim if separate_key else dim)).astype(np.float32)
    k = rng.standard_normal((batch, tv, dim)).astype(np.float32) if separate_key else v
    layer = layers.Attention(use_scale=use_scale, score_mode=mode)
    inputs = [q, v, k] if separate_key else [q, v]
    mask = None if value_mask is None else [query_mask, value_mask]
    layer(inputs, mask=mask)  # built: now give the learned scalars values of their own
    scale = concat_weight = 1.0
    if use_scale:
        scale = float(rng.uniform(0.5, 1.5))
        layer.scale.assign(scale)
    if mode == "concat":
        concat_weight = float(rng.uniform(0.5, 1.5))
        layer.concat_score_weight.assign(concat_weight)
    out, weights = layer(inputs, mask=mask, use_causal_mask=causal, return_attention_scores=True)
    expected_out, expected_weights = numpy_attention(
        q, v, k, mode, scale, concat_weight, query_mask, value_mask, causal
    )
    np.testing.assert_allclose(weights.numpy(), expected_weights, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(out.numpy(), expected_out, rtol=1e-4, atol=1e-5)
    assert out.shape == (batch, tq, v.shape[-1]) and weights.shape == (batch, tq, tv)


def test_weights_are_keras_scalars_made_on_the_first_call():
    layer = layers.Attention(use_scale=True, score_mode="concat", name="att")
    assert layer.weights == []
    layer([ek.ones([1, 2, 3]), ek.ones([1, 4, 3])])
    assert [(w.name, w.shape, float(w)) for w in layer.weights] == [
        ("att/scale:0", (), 1.0),
        ("att/concat_score_weight:0", (), 1.0),
    ]
    assert layers.Attention().count_params() == 0


def test_a_fully_masked_row_gets_even_weights_and_a_masked_query_gives_zeros():
    q = rng.standard_normal((2, 3, 4)).astype(np.float32)
    v = rng.standard_normal((2, 5, 4)).astype(np.float32)
    value_mask = np.array([[False] * 5, [True, False, True, False, False]])
    query_mask = np.array([[True, True, True], [True, False, True]])
    out, weights = layers.Attention()(
        [q, v], mask=[query_mask, value_mask], return_attention_scores=True
    )
    # Every score of batch item 0 lost the same 1e9: Keras' softmax spreads them evenly.
    np.testing.assert_allclose(weights[0].numpy(), np.full((3, 5), 0.2), atol=1e-7)
    np.testing.assert_allclose(out[0].numpy(), np.tile(v[0].mean(0), (3, 1)), atol=1e-6)
    assert np.all(weights[1].numpy()[:, [1, 3, 4]] == 0.0)  # hidden keys: exactly zero
    np.testing.assert_allclose(weights[1].numpy().sum(-1), 1.0, rtol=1e-6)
    assert np.all(out[1, 1].numpy() == 0.0) and np.all(out[1, 0].numpy() != 0.0)


def test_the_causal_mask_hides_the_future():
    x = ek.constant(rng.standard_normal((1, 4, 2)).astype(np.float32))
    out, weights = layers.Attention()([x, x], use_causal_mask=True, return_attention_scores=True)
    assert np.all(np.triu(weights[0].numpy(), k=1) == 0.0)
    later = ek.concat([x[:, :2], x[:, 2:] + 100.0], axis=1)  # change only positions 2 and 3
    changed = layers.Attention()([later, later], use_causal_mask=True)
    np.testing.assert_array_equal(changed[:, :2].numpy(), out[:, :2].numpy())


def test_dropout_only_in_training_and_keras_default_is_inference():
    q, v = ek.ones([2, 3, 4]), ek.constant(rng.standard_normal((2, 50, 4)).astype(np.float32))
    key = ek.zeros([2, 50, 4])  # every score 0: even weights of 1/50
    layer = layers.Attention(dropout=0.5, seed=3)
    plain, weights = layer([q, v, key], return_attention_scores=True)
    np.testing.assert_allclose(weights.numpy(), 1 / 50, rtol=1e-6)
    np.testing.assert_array_equal(layer([q, v, key], training=False).numpy(), plain.numpy())
    out, dropped = layer([q, v, key], training=True, return_attention_scores=True)
    kept = dropped.numpy()
    np.testing.assert_allclose(np.unique(kept), [0.0, 0.04], rtol=1e-6)  # 1/50 kept, doubled
    assert 0.2 < (kept == 0).mean() < 0.8
    np.testing.assert_allclose(out.numpy(), np.einsum("bqs,bsd->bqd", kept, v.numpy()), atol=1e-6)


def test_gradients_match_finite_differences():
    q = rng.standard_normal((2, 3, 4))
    v = rng.standard_normal((2, 5, 4))
    k = rng.standard_normal((2, 5, 4))
    mask = [np.array([[1, 1, 0], [1, 1, 1]]), np.array([[1, 0, 1, 1, 1], [1, 1, 1, 1, 0]])]
    for mode in ("dot", "concat"):
        layer = layers.Attention(use_scale=True, score_mode=mode, dtype="float64")
        u = rng.standard_normal((2, 3, 4))
        check_grads(
            lambda q, v, k, layer=layer, u=u: ek.reduce_sum(
                layer([q, v, k], mask=mask, use_causal_mask=True) * u
            ),
            q,
            v,
            k,
            order=2,
        )
        with ek.GradientTape() as tape:
            loss = ek.reduce_sum(layer([q, v, k], mask=mask) * u)
        (grad,) = tape.gradient(loss, [layer.scale])
        step = 1e-6
        values = []
        for delta in (step, -step):
            layer.scale.assign(1.0 + delta)
            values.append(float(ek.reduce_sum(layer([q, v, k], mask=mask) * u)))
        layer.scale.assign(1.0)
        np.testing.assert_allclose(float(grad), (values[0] - values[1]) / (2 * step), rtol=1e-5)


@pytest.mark.parametrize(
    ("call", "pattern"),
    [
        (lambda a: a(ek.ones([1, 2, 3])), r"must be called on a list of inputs.*Tensor.*layer\("),
        (lambda a: a([ek.ones([1, 2, 3])]), r"length 2 or 3.*got 1 inputs"),
        (
            lambda a: a([ek.ones([1, 2, 3]), ek.ones([1, 4, 5])]),
            r"last axis.*query \(1, 2, 3\), value \(1, 4, 5\), key \(1, 4, 5\).*Dense",
        ),
        (
            lambda a: a([ek.ones([1, 2, 3]), ek.ones([1, 4, 3]), ek.ones([1, 5, 3])]),
            r"same time axis.*value \(1, 4, 3\), key \(1, 5, 3\)",
        ),
        (lambda a: a([ek.ones([2, 3]), ek.ones([2, 3])]), r"\[batch, time, dim\].*\(2, 3\)"),
        (lambda a: a([ek.ones([2, 1, 3]), ek.ones([3, 1, 3])]), r"one batch size"),
        (
            lambda a: a([ek.ones([2, 2, 3]), ek.ones([2, 4, 3])], mask=[None, ek.ones([2, 5])]),
            r"value_mask of shape \[batch, time\] = \(2, 4\).*got \(2, 5\)",
        ),
        (
            lambda a: a([ek.ones([2, 2, 3]), ek.ones([2, 4, 3])], mask=ek.ones([2, 4])),
            r"mask=\[query_mask, value_mask\], got Tensor",
        ),
        (
            lambda a: a([ek.ones([1, 2, 3]), ek.constant([[[1, 2, 3]]])]),
            r"floating-point inputs, but value is int32.*ek.cast",
        ),
    ],
)
def test_bad_input_names_the_layer_the_shapes_and_the_fix(call, pattern):
    layer = layers.Attention(use_scale=True, name="att")
    named = r"^(Attention\(.*\): )?Attention layer 'att'.*"  # the call, then the layer
    with pytest.raises(InvalidArgumentError, match=named + pattern):
        call(layer)
    assert layer.weights == [] and not layer.built  # a failed first call builds nothing
    layer([ek.ones([1, 2, 3]), ek.ones([1, 4, 3])])
    layer.scale.assign(2.5)
    with pytest.raises(InvalidArgumentError):
        call(layer)
    assert [float(w) for w in layer.weights] == [2.5]


def test_bad_arguments_are_refused_when_the_layer_is_made():
    with pytest.raises(InvalidArgumentError, match=r"score_mode.*'dot', 'concat'.*'add'"):
        layers.Attention(score_mode="add")
    with pytest.raises(InvalidArgumentError, match=r"dropout.*\[0, 1\), got 1.5"):
        layers.Attention(dropout=1.5)


def test_config_round_trip():
    layer = layers.Attention(use_scale=True, score_mode="concat", dropout=0.25, name="a")
    config = layer.get_config()
    assert {k: config[k] for k in ("use_scale", "score_mode", "dropout", "name")} == {
        "use_scale": True,
        "score_mode": "concat",
        "dropout": 0.25,
        "name": "a",
    }
    clone = layers.Attention.from_config(config)
    assert (clone.use_scale, clone.score_mode, clone.dropout) == (True, "concat", 0.25)
