"""ek.strings.reduce_join against Python's str.join over numpy's axes: every axis choice,
keepdims, separators, empty axes and errors."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError


def joined_by_hand(words, axes, keepdims, separator):
    """Row-major over the joined axes, one output element per index of the others."""
    kept = [a for a in range(words.ndim) if a not in axes]
    out = np.empty([words.shape[a] for a in kept], dtype=object)
    for index in itertools.product(*(range(words.shape[a]) for a in kept)):
        picks = []
        for inner in itertools.product(*(range(words.shape[a]) for a in axes)):
            full = [0] * words.ndim
            for a, i in zip(kept, index, strict=True):
                full[a] = i
            for a, i in zip(axes, inner, strict=True):
                full[a] = i
            picks.append(words[tuple(full)])
        out[index] = separator.join(picks).encode()
    if keepdims:
        out = out.reshape([1 if a in axes else words.shape[a] for a in range(words.ndim)])
    return out


@settings(max_examples=60, deadline=None)
@given(
    shape=st.lists(st.integers(0, 3), min_size=1, max_size=3),
    data=st.data(),
    keepdims=st.booleans(),
    separator=st.sampled_from(["", "-", ", "]),
)
def test_matches_joining_by_hand(shape, data, keepdims, separator):
    size = int(np.prod(shape))
    words = np.array([f"w{i}" for i in range(size)], dtype=object).reshape(shape)
    axes = data.draw(st.none() | st.lists(st.integers(-len(shape), len(shape) - 1), max_size=3))
    got = ek.strings.reduce_join(
        words.tolist() if size else ek.constant(words.astype(str)), axes, keepdims, separator
    )
    chosen = range(len(shape)) if axes is None else sorted({a % len(shape) for a in axes})
    expected = joined_by_hand(words, list(chosen), keepdims, separator)
    assert got.dtype == ek.string
    assert np.asarray(got.numpy(), dtype=object).tolist() == expected.tolist()


def test_errors_name_the_call():
    with pytest.raises(
        InvalidArgumentError, match="reduce_join: inputs must be strings, got int32"
    ):
        ek.strings.reduce_join([1, 2])
    with pytest.raises(InvalidArgumentError, match="reduce_join: axis 2 is out of range"):
        ek.strings.reduce_join(["a"], axis=2)
    with pytest.raises(InvalidArgumentError, match="reduce_join: separator must be a string"):
        ek.strings.reduce_join(["a"], separator=3)
