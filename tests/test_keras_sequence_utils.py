"""ek.keras.utils.pad_sequences and normalize against plain-Python and numpy references."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.utils import normalize, pad_sequences

SEQUENCES = st.lists(st.lists(st.integers(-50, 50), max_size=6), min_size=1, max_size=5)


def padded_by_hand(sequences, maxlen, padding, truncating, value):
    """Each row built in Python: cut to maxlen at one end, then filled at one end."""
    rows = []
    for sequence in sequences:
        if len(sequence) > maxlen:
            sequence = (
                sequence[len(sequence) - maxlen :] if truncating == "pre" else sequence[:maxlen]
            )
        fill = [value] * (maxlen - len(sequence))
        rows.append(fill + sequence if padding == "pre" else sequence + fill)
    return rows


@settings(max_examples=60, deadline=None)
@given(
    sequences=SEQUENCES,
    maxlen=st.none() | st.integers(0, 7),
    padding=st.sampled_from(["pre", "post"]),
    truncating=st.sampled_from(["pre", "post"]),
    value=st.integers(-3, 3),
)
def test_pad_sequences_matches_the_rule(sequences, maxlen, padding, truncating, value):
    result = pad_sequences(sequences, maxlen, padding=padding, truncating=truncating, value=value)
    length = max(map(len, sequences)) if maxlen is None else maxlen
    assert result.dtype == np.int32 and result.shape == (len(sequences), length)
    assert result.tolist() == padded_by_hand(sequences, length, padding, truncating, value)


def test_pad_sequences_dtypes_steps_and_strings():
    floats = pad_sequences([[0.5], [1.5, 2.5]], dtype="float32", value=-1.0)
    assert floats.dtype == np.float32 and floats.tolist() == [[-1.0, 0.5], [1.5, 2.5]]
    steps = pad_sequences([[[1, 2]], [], [[3, 4], [5, 6]]], padding="post")
    assert steps.shape == (3, 2, 2) and steps.tolist() == [
        [[1, 2], [0, 0]],
        [[0, 0], [0, 0]],
        [[3, 4], [5, 6]],
    ]
    words = pad_sequences([["a"], ["b", "c"]], dtype=object, value="<pad>")
    assert words.tolist() == [["<pad>", "a"], ["b", "c"]]
    assert pad_sequences([]).shape == (0, 0)


def test_pad_sequences_errors():
    cases = [
        (dict(sequences=[[1]], padding="middle"), "padding must be 'pre' or 'post'"),
        (dict(sequences=[[1]], truncating="both"), "truncating must be 'pre' or 'post'"),
        (dict(sequences=5), "sequences must be a list of sequences"),
        (dict(sequences=[[1], 2]), "the one at position 1 is"),
        (dict(sequences=[[1]], maxlen=-1), "maxlen must be a whole number >= 0"),
        (dict(sequences=[[1]], value="x"), "not compatible with value's type: str"),
        (dict(sequences=[[[1, 2]], [[1, 2, 3]]]), "position 1 have shape"),
        (dict(sequences=[["a"]]), "the sequence at position 0 cannot be held as int32"),
        (dict(sequences=[[1]], value=10**30), r"value=.* cannot be held as int32"),
        (dict(sequences=[[1]], dtype="no-such-dtype"), "is not a dtype"),
    ]
    for kwargs, message in cases:
        with pytest.raises(InvalidArgumentError, match=message):
            pad_sequences(**kwargs)


ARRAYS = st.lists(st.integers(-40, 40).map(lambda i: i / 4), min_size=6, max_size=6).map(
    lambda v: np.array(v, dtype=np.float32).reshape(2, 3)
)


@settings(max_examples=40, deadline=None)
@given(x=ARRAYS, axis=st.sampled_from([0, 1, -1]), order=st.sampled_from([1, 2, 3]))
def test_normalize_divides_by_the_norm(x, axis, order):
    norm = np.linalg.norm(x.astype(np.float64), ord=order, axis=axis, keepdims=True)  # exact
    expected = x / np.where(norm == 0, 1, norm)
    np.testing.assert_allclose(normalize(x, axis, order), expected, rtol=1e-5, atol=1e-6)
    tensor = normalize(ek.constant(x), axis, order).numpy()
    floored = x / np.maximum(norm, 1e-7)
    np.testing.assert_allclose(tensor, floored, rtol=1e-4, atol=1e-5)


def test_normalize_gradient_is_the_projection():
    x = np.array([[3.0, 4.0, 12.0]], dtype=np.float32)
    norm = np.linalg.norm(x)
    unit = x / norm
    for order in (2, 1):
        variable = ek.Variable(x)
        with ek.GradientTape() as tape:
            total = ek.reduce_sum(normalize(variable, order=order) * [[1.0, 2.0, 3.0]])
        grad = tape.gradient(total, variable).numpy()
        weights = np.array([[1.0, 2.0, 3.0]])
        if order == 2:  # d(x/|x|) = (I - u u^T) / |x|
            expected = (weights - (weights * unit).sum() * unit) / norm
        else:  # x/sum|x| with x > 0: (w - (w . x)/s) / s
            s = x.sum()
            expected = (weights - (weights * x).sum() / s) / s
        np.testing.assert_allclose(grad, expected, rtol=1e-5)


def test_normalize_zero_rows_and_errors():
    assert normalize(np.zeros((1, 2))).tolist() == [[0.0, 0.0]]
    assert normalize(ek.zeros([1, 2])).numpy().tolist() == [[0.0, 0.0]]
    assert normalize(np.float64(2.0)).numpy().tolist() == [1.0]  # not an ndarray: a Tensor
    with pytest.raises(InvalidArgumentError, match="order must be a whole number >= 1"):
        normalize(np.ones(2), order=0)
    with pytest.raises(InvalidArgumentError, match="axis 2 is out of range for an input of rank 2"):
        normalize(np.ones((2, 2)), axis=2)
    with pytest.raises(InvalidArgumentError, match="axis must be one axis"):
        normalize(np.ones((2, 2)), axis=None)
    with pytest.raises(InvalidArgumentError, match="must be a float tensor, got int32"):
        normalize(ek.constant([1, 2]))
    with pytest.raises(InvalidArgumentError, match="must hold numbers"):
        normalize(np.array(["a"]))
