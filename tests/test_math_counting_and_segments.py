"""ek.math.bincount, segment_mean, segment_max and rint, ek.nn.weighted_cross_entropy_with_logits
and compute_average_loss against numpy and TF's formulas, with gradients and errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

VALUES = st.lists(st.integers(0, 9), max_size=12)


@settings(max_examples=50, deadline=None)
@given(
    values=VALUES,
    minlength=st.none() | st.integers(0, 12),
    maxlength=st.none() | st.integers(0, 12),
    weighted=st.booleans(),
)
def test_bincount_matches_numpy_and_tfs_length_rule(values, minlength, maxlength, weighted):
    arr = np.array(values, dtype=np.int32)
    weights = np.linspace(0.5, 3.0, len(values)).astype(np.float32) if weighted else None
    length = max(arr.max() + 1 if arr.size else 0, minlength or 0)
    length = length if maxlength is None else min(length, maxlength)
    kept = arr < length
    expected = np.bincount(arr[kept], None if weights is None else weights[kept], minlength=length)
    result = ek.math.bincount(arr, weights=weights, minlength=minlength, maxlength=maxlength)
    assert result.dtype == (ek.float32 if weighted else ek.int32)
    np.testing.assert_allclose(result.numpy(), expected[:length], rtol=1e-6)


def test_bincount_rows_binary_dtype_and_gradient():
    arr = np.array([[0, 2, 2, 5], [1, 1, 1, 0]])
    rows = ek.math.bincount(arr, axis=-1, minlength=3, dtype=ek.float64)
    assert rows.dtype == ek.float64
    assert rows.numpy().tolist() == [[1, 0, 2, 0, 0, 1], [1, 3, 0, 0, 0, 0]]
    assert ek.math.bincount(arr, binary_output=True).numpy().tolist() == [1, 1, 1, 0, 0, 1]
    assert ek.math.bincount([1.7, 0.2]).numpy().tolist() == [1, 1]  # cast to int32, as TF
    weights = ek.Variable([0.5, 2.0, 1.0])
    with ek.GradientTape() as tape:
        total = ek.reduce_sum(ek.math.bincount([1, 1, 3], weights=weights) * [1.0, 2.0, 3.0, 4.0])
    assert tape.gradient(total, weights).numpy().tolist() == [2.0, 2.0, 4.0]  # each bin's


def test_bincount_errors():
    cases = [
        (([1, -1],), {}, "arr must be non-negative, got -1"),
        (([1, 2],), {"weights": [1.0]}, r"weights must have arr's shape \[2\], got \[1\]"),
        (([1, 2],), {"weights": [1.0, 2.0], "binary_output": True}, "mutually exclusive"),
        (([1, 2],), {"axis": 1}, "axis must be None, 0 or -1"),
        (([1, 2],), {"axis": -1}, r"axis=-1 needs a 2-D arr"),
        ((["a"],), {}, "arr must hold whole numbers"),
        (([1],), {"minlength": -2}, "minlength must be >= 0"),
        (([1],), {"dtype": ek.string}, "dtype must be an integer or float dtype"),
    ]
    for args, kwargs, message in cases:
        with pytest.raises(InvalidArgumentError, match=message):
            ek.math.bincount(*args, **kwargs)


SEGMENTS = st.lists(st.integers(0, 5), min_size=1, max_size=8).map(sorted)


def _segment_reference(data, ids, reduce):
    segments = ids[-1] + 1
    out = np.zeros((segments,) + data.shape[1:], data.dtype)
    for segment in range(segments):
        rows = data[ids == segment]
        if len(rows):
            out[segment] = reduce(rows)
    return out


@settings(max_examples=50, deadline=None)
@given(ids=SEGMENTS, seed=st.integers(0, 1000))
def test_segment_mean_and_max_match_numpy(ids, seed):
    ids = np.array(ids)
    data = np.random.default_rng(seed).integers(-9, 9, (len(ids), 2)).astype(np.float32)
    mean = ek.math.segment_mean(data, ids).numpy()
    np.testing.assert_allclose(mean, _segment_reference(data, ids, lambda r: r.mean(0)), rtol=1e-6)
    biggest = ek.math.segment_max(data, ids).numpy()
    np.testing.assert_array_equal(biggest, _segment_reference(data, ids, lambda r: r.max(0)))
    whole = data.astype(np.int32)
    truncated = _segment_reference(whole, ids, lambda r: np.trunc(r.sum(0) / len(r)))
    np.testing.assert_array_equal(ek.math.segment_mean(whole, ids).numpy(), truncated)
    np.testing.assert_array_equal(
        ek.math.segment_max(whole, ids).numpy(), _segment_reference(whole, ids, lambda r: r.max(0))
    )


def test_segment_gradients_are_tfs():
    data = ek.Variable([1.0, 3.0, 3.0, 2.0, 8.0])
    upstream = np.array([1.0, 5.0, 7.0], dtype=np.float32)
    ids = [0, 0, 0, 2, 2]
    with ek.GradientTape(persistent=True) as tape:
        mean = ek.reduce_sum(ek.math.segment_mean(data, ids) * upstream)
        biggest = ek.reduce_sum(ek.math.segment_max(data, ids) * upstream)
    # mean: each row gets its segment's gradient / the segment's size
    np.testing.assert_allclose(tape.gradient(mean, data).numpy(), [1 / 3, 1 / 3, 1 / 3, 3.5, 3.5])
    # max: the rows holding the maximum share the gradient (the tie at 3.0 halves it)
    np.testing.assert_allclose(tape.gradient(biggest, data).numpy(), [0.0, 0.5, 0.5, 0.0, 7.0])


def test_segment_errors():
    for function in (ek.math.segment_mean, ek.math.segment_max):
        name = function.__name__
        with pytest.raises(InvalidArgumentError, match=f"{name}: segment_ids must be a sorted"):
            function([1.0, 2.0], [1, 0])
        with pytest.raises(InvalidArgumentError, match=f"{name}: segment_ids must be integers"):
            function([1.0, 2.0], [0.0, 1.0])
        with pytest.raises(InvalidArgumentError, match="must match the leading dimensions"):
            function([1.0, 2.0], [0, 0, 1])
        with pytest.raises(InvalidArgumentError, match="data must hold real numbers"):
            function(["a", "b"], [0, 1])


def test_rint_rounds_half_to_even_and_refuses_integers():
    x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.6, -2.6], dtype=np.float32)
    np.testing.assert_array_equal(ek.math.rint(x).numpy(), np.rint(x))
    assert ek.math.rint(ek.constant([0.5], dtype=ek.float64)).dtype == ek.float64
    v = ek.Variable([1.2])
    with ek.GradientTape() as tape:
        y = ek.math.rint(v) * 2.0
    assert tape.gradient(y, v) is None  # no gradient, as TF
    with pytest.raises(
        InvalidArgumentError, match=r"rint: x must be float16, float32 or float64, got int32\[2\]"
    ):
        ek.math.rint([1, 2])


@settings(max_examples=40, deadline=None)
@given(
    logits=st.lists(st.integers(-400, 400), min_size=4, max_size=4),
    labels=st.lists(st.sampled_from([0.0, 0.25, 1.0]), min_size=4, max_size=4),
    pos_weight=st.sampled_from([0.5, 1.0, 3.0]),
)
def test_weighted_cross_entropy_is_the_weighted_formula(logits, labels, pos_weight):
    x = np.array(logits, dtype=np.float64) / 8
    z = np.array(labels)
    # pos_weight * z * -log(sigmoid(x)) + (1 - z) * -log(1 - sigmoid(x)), via logaddexp
    expected = pos_weight * z * np.logaddexp(0, -x) + (1 - z) * np.logaddexp(0, x)
    result = ek.nn.weighted_cross_entropy_with_logits(
        z.astype(np.float32), x.astype(np.float32), pos_weight
    )
    np.testing.assert_allclose(result.numpy(), expected, rtol=1e-5, atol=1e-5)
    assert np.isfinite(result.numpy()).all()


def test_weighted_cross_entropy_gradient_and_errors():
    x = ek.Variable([0.5, -2.0])
    z = np.array([1.0, 0.0], dtype=np.float32)
    with ek.GradientTape() as tape:
        loss = ek.reduce_sum(ek.nn.weighted_cross_entropy_with_logits(z, x, pos_weight=2.0))
    sig = 1 / (1 + np.exp(-np.array([0.5, -2.0])))
    expected = 2.0 * z * (sig - 1) + (1 - z) * sig  # d/dx of the weighted terms
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), expected, rtol=1e-5)
    with pytest.raises(
        InvalidArgumentError, match=r"same shape, got logits \[2\] and labels \[3\]"
    ):
        ek.nn.weighted_cross_entropy_with_logits([1.0, 0.0, 1.0], [0.5, 1.0], 2.0)
    with pytest.raises(InvalidArgumentError, match="logits must be floats, got int32"):
        ek.nn.weighted_cross_entropy_with_logits([1, 0], [1, 2], 2.0)


def test_compute_average_loss():
    losses = ek.constant([1.0, 2.0, 3.0, 6.0])
    assert float(ek.nn.compute_average_loss(losses)) == 3.0
    assert float(ek.nn.compute_average_loss(losses, global_batch_size=8)) == 1.5
    weighted = ek.nn.compute_average_loss(losses, sample_weight=[1.0, 0.0, 1.0, 0.5])
    assert float(weighted) == pytest.approx((1 + 3 + 3) / 4)
    rows = ek.nn.compute_average_loss([[1.0, 2.0], [3.0, 4.0]], sample_weight=[1.0, 0.0])
    assert float(rows) == pytest.approx(3 / 2)  # one weight per example, expanded
    v = ek.Variable([1.0, 2.0])
    with ek.GradientTape() as tape:
        mean = ek.nn.compute_average_loss(v * v, global_batch_size=4)
    assert tape.gradient(mean, v).numpy().tolist() == [0.5, 1.0]
    with pytest.raises(InvalidArgumentError, match="at least rank 1"):
        ek.nn.compute_average_loss(3.0)
    with pytest.raises(InvalidArgumentError, match="global_batch_size must be >= 1"):
        ek.nn.compute_average_loss([1.0], global_batch_size=0)
    with pytest.raises(InvalidArgumentError, match="global_batch_size must be an integer"):
        ek.nn.compute_average_loss([1.0], global_batch_size=2.5)
    with pytest.raises(InvalidArgumentError, match="global_batch_size must be >= 1"):
        ek.nn.compute_average_loss(ek.zeros([0]))
    with pytest.raises(
        InvalidArgumentError, match=r"sample_weight of shape \[3\] does not broadcast"
    ):
        ek.nn.compute_average_loss([1.0, 2.0], sample_weight=[1.0, 2.0, 3.0])


def test_segment_max_of_an_empty_segment_raises_no_false_alarm_under_check_numerics():
    """An empty segment's 0 is made without an infinity on the way: with
    enable_check_numerics on (lesson 13's tool), segment_max gives TF's answer and no error."""
    ek.debugging.enable_check_numerics()
    try:
        got = ek.math.segment_max([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [0, 0, 2])
    finally:
        ek.debugging.disable_check_numerics()
    assert got.numpy().tolist() == [[3.0, 4.0], [0.0, 0.0], [5.0, 6.0]]
    x = ek.Variable([[1.0, 2.0], [3.0, 2.0], [5.0, 6.0]])
    with ek.GradientTape() as tape:
        y = ek.reduce_sum(ek.math.segment_max(x, [0, 0, 2]))
    assert tape.gradient(y, x).numpy().tolist() == [[0.0, 0.5], [1.0, 0.5], [1.0, 1.0]]
