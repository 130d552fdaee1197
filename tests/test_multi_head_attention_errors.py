"""MultiHeadAttention's errors: each names the layer, the shapes and the fix, and a failed
call leaves the layer as it was (unbuilt if it was, its weights unchanged if built)."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

layers = ek.keras.layers
Q, V = ek.ones([2, 3, 4]), ek.ones([2, 5, 6])

BAD_CALLS = {
    "no value": (lambda m: m(Q), r"needs a value to attend to.*layer\(x, x\)"),
    "a list of tensors": (
        lambda m: m([Q, V]),
        r"separate arguments, got a list as query.*layer\(query, value\)",
    ),
    "ranks that differ": (
        lambda m: m(Q, ek.ones([2, 6])),
        r"one rank >= 3.*query \(2, 3, 4\), value \(2, 6\).*expand_dims",
    ),
    "value and key positions that differ": (
        lambda m: m(Q, V, key=ek.ones([2, 4, 6])),
        r"value and key with the same shape but for the last axis.*value \(2, 5, 6\), "
        r"key \(2, 4, 6\)",
    ),
    "batch sizes that differ": (
        lambda m: m(Q, ek.ones([3, 5, 6])),
        r"same sizes along the axes attention does not run over \(axes \[0\].*batch",
    ),
    "a mask of the wrong shape": (
        lambda m: m(Q, V, attention_mask=ek.ones([2, 3, 4])),
        r"attention_mask of shape \(2, 3, 4\).*queries \(2, 3, 4\) attending to values "
        r"\(2, 5, 6\).*Pass a mask of shape \(2, 3, 5\)",
    ),
    "a mask of a higher rank": (
        lambda m: m(Q, V, attention_mask=ek.ones([1, 2, 1, 3, 5])),
        r"attention_mask of shape \(1, 2, 1, 3, 5\)",
    ),
    "a mask of strings": (
        lambda m: m(Q, V, attention_mask=ek.constant([["a"]])),
        r"attention_mask must be a tensor of True/False.*string",
    ),
    "integer inputs": (
        lambda m: m(ek.ones([2, 3, 4], dtype=ek.int32), V),
        r"floating-point inputs, but query is int32.*Embedding",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_CALLS))
def test_bad_calls_name_the_layer_the_shapes_and_the_fix_and_change_nothing(case):
    call, pattern = BAD_CALLS[case]
    layer = layers.MultiHeadAttention(2, 3, name="mha")
    named = r"^(MultiHeadAttention\(.*\): )?MultiHeadAttention layer 'mha': .*"
    with pytest.raises(InvalidArgumentError, match=named + pattern):
        call(layer)
    assert not layer.built and layer.weights == []  # a failed first call builds nothing
    layer(Q, V)
    before = [w.copy() for w in layer.get_weights()]
    with pytest.raises(InvalidArgumentError, match=named):
        call(layer)
    after = layer.get_weights()
    assert len(after) == 8 and all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))


def test_a_built_layer_refuses_inputs_of_other_sizes():
    layer = layers.MultiHeadAttention(2, 3, name="mha")
    layer(Q, V)
    with pytest.raises(
        InvalidArgumentError, match=r"built for a query with 4 features.*\(2, 3, 7\)"
    ):
        layer(ek.ones([2, 3, 7]), V)
    with pytest.raises(InvalidArgumentError, match=r"built for a value with 6 features"):
        layer(Q, ek.ones([2, 5, 4]))
    with pytest.raises(InvalidArgumentError, match=r"built for inputs of rank 3.*\(2, 1, 3, 4\)"):
        layer(ek.ones([2, 1, 3, 4]), ek.ones([2, 1, 5, 6]))


def test_bad_arguments_are_refused_when_made_or_built():
    with pytest.raises(InvalidArgumentError, match=r"num_heads must be a whole number >= 1"):
        layers.MultiHeadAttention(0, 3)
    with pytest.raises(InvalidArgumentError, match=r"key_dim must be a whole number.*2.5"):
        layers.MultiHeadAttention(2, 2.5)
    with pytest.raises(InvalidArgumentError, match=r"dropout.*\[0, 1\), got -0.1"):
        layers.MultiHeadAttention(2, 3, dropout=-0.1)
    with pytest.raises(InvalidArgumentError, match=r"regularizer"):
        layers.MultiHeadAttention(2, 3, kernel_regularizer="not_one")
    for axes in (0, 2, (1, 1), -1):
        layer = layers.MultiHeadAttention(2, 3, attention_axes=axes, name="mha")
        with pytest.raises(
            InvalidArgumentError,
            match=r"attention_axes=.* between 1 and 1 .*shape \(2, 3, 4\).*among \[1\]",
        ):
            layer(Q, V)
        assert not layer.built
    grid = layers.MultiHeadAttention(2, 3, attention_axes=(1, 2))
    with pytest.raises(InvalidArgumentError, match=r"use_causal_mask needs attention over one"):
        grid(ek.ones([1, 2, 2, 4]), ek.ones([1, 2, 2, 4]), use_causal_mask=True)
    with pytest.raises(InvalidArgumentError, match=r"build needs the value_shape.*build\("):
        layers.MultiHeadAttention(2, 3).build([2, 3, 4])


def test_build_by_hand_makes_the_weights_the_first_call_uses():
    layer = layers.MultiHeadAttention(2, 3)
    layer.build([None, 3, 4], [None, 5, 6])
    assert layer.built and [tuple(w.shape) for w in layer.weights[::2]] == [
        (4, 2, 3),
        (6, 2, 3),
        (6, 2, 3),
        (2, 3, 4),
    ]
    kernel = layer.weights[0]
    layer(Q, V)
    assert layer.weights[0] is kernel
