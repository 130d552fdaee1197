"""Right answers at the edges, as TF gives them (issue 11): each case is one test.

Where TF answers, eagerkit gives the same answer; where TF refuses, eagerkit refuses with an
InvalidArgumentError naming the op, never a silent wrap-around or truncation.
"""

import math

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

X = np.arange(6.0, dtype=np.float32).reshape(2, 3)


@pytest.mark.parametrize(
    "index", [1, np.int64(1), np.int32(1), np.uint8(1), ek.constant(1), ek.constant(1, ek.int64)]
)
def test_numpy_and_0d_integer_indices_index_like_python_ints(index):
    x = ek.constant(X)
    np.testing.assert_array_equal(x[index].numpy(), X[1])
    np.testing.assert_array_equal(x[:, index].numpy(), X[:, 1])
    np.testing.assert_array_equal(x[index:].numpy(), X[1:])
    np.testing.assert_array_equal(x[:, ::index].numpy(), X)


def test_bool_and_fractional_indices_are_refused():
    x = ek.constant(X)
    with pytest.raises(InvalidArgumentError, match="only basic indexing .* got bool"):
        x[np.bool_(True)]
    with pytest.raises(InvalidArgumentError, match="slice bounds must be integers, got float"):
        x[0.5:]
    with pytest.raises(InvalidArgumentError, match="only basic indexing .* got float"):
        x[1.0]


def _prod_gradient(values, **kwargs):
    x = ek.constant(values)
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = ek.reduce_prod(x, **kwargs)
    return tape.gradient(y, x).numpy()


def test_reduce_prod_gradient_at_zeros_is_tfs_not_nan():
    # TF: each entry's gradient is the product of the others, so one zero gets the product of
    # the rest and two zeros give zeros everywhere.
    np.testing.assert_array_equal(_prod_gradient([0.0, 2.0, 3.0]), [6.0, 0.0, 0.0])
    np.testing.assert_array_equal(_prod_gradient([0.0, 2.0, 0.0]), [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(
        _prod_gradient([[1.0, 0.0, 3.0], [4.0, 5.0, 6.0]], axis=1),
        [[0.0, 3.0, 0.0], [30.0, 24.0, 20.0]],
    )
    np.testing.assert_array_equal(
        _prod_gradient([[0.0, 2.0], [3.0, 4.0]], axis=0, keepdims=True), [[3.0, 4.0], [0.0, 2.0]]
    )


def test_gelu_without_approximation_is_the_exact_gelu():
    values = [-3.0, -0.5, 0.0, 0.7, 2.0]
    exact = [0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in values]
    np.testing.assert_allclose(ek.nn.gelu(np.array(values)).numpy(), exact, rtol=1e-12)
    np.testing.assert_allclose(ek.nn.gelu(values, approximate=False).numpy(), exact, rtol=1e-5)
    approximate = ek.nn.gelu(values, approximate=True).numpy()
    assert 1e-5 < np.abs(approximate - exact).max() < 1e-3  # close, but a different function
    np.testing.assert_allclose(ek.math.erf([0.5, -1.0]).numpy(), [math.erf(0.5), math.erf(-1)])


def test_softmax_and_log_softmax_with_axis_none_use_the_last_axis():
    logits = np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
    expected = np.exp(logits) / np.exp(logits).sum(axis=-1, keepdims=True)
    np.testing.assert_allclose(ek.nn.softmax(logits, axis=None).numpy(), expected)
    np.testing.assert_allclose(ek.nn.log_softmax(logits, axis=None).numpy(), np.log(expected))


def test_gather_refuses_an_out_of_range_axis():
    with pytest.raises(InvalidArgumentError, match="gather: axis 2 is out of range .* rank 2"):
        ek.gather(X, [0], axis=2)
    with pytest.raises(InvalidArgumentError, match="gather: axis -3 is out of range"):
        ek.gather(X, [0], axis=-3)
    np.testing.assert_array_equal(ek.gather(X, [2, 0], axis=-1).numpy(), X[:, [2, 0]])


def test_tensordot_refuses_negative_axes():
    with pytest.raises(InvalidArgumentError, match="tensordot: axes must be >= 0, got -1"):
        ek.tensordot(X, X, -1)
    with pytest.raises(InvalidArgumentError, match="axes=3 is more than the ranks"):
        ek.tensordot(X, X, 3)
    with pytest.raises(InvalidArgumentError, match="tensordot: axis of a 2 is out of range"):
        ek.tensordot(X, X, [[2], [0]])
    # listed axes may count from the end, as TF's do
    np.testing.assert_allclose(ek.tensordot(X, X, [[-1], [1]]).numpy(), X @ X.T)


def test_boolean_mask_refuses_a_mask_of_the_wrong_shape_or_rank_0():
    with pytest.raises(InvalidArgumentError, match=r"boolean_mask: .*mask bool shape \(\)"):
        ek.boolean_mask(X, True)
    with pytest.raises(InvalidArgumentError, match=r"tensor shape \(2, 3\), mask bool shape \(3,"):
        ek.boolean_mask(X, [True, False, True])
    with pytest.raises(InvalidArgumentError, match=r"mask int32 shape \(2,\)"):
        ek.boolean_mask(X, [1, 0])
    np.testing.assert_array_equal(
        ek.boolean_mask(X, [[True, False, True]] * 2).numpy(), [0, 2, 3, 5]
    )


def test_range_at_the_int32_limits_and_with_small_integer_dtypes():
    top = ek.range(2**31 - 3, 2**31 - 1)
    assert top.dtype == ek.int32 and top.numpy().tolist() == [2**31 - 3, 2**31 - 2]
    bottom = ek.range(-(2**31), -(2**31) + 2)
    assert bottom.dtype == ek.int32 and bottom.numpy().tolist() == [-(2**31), -(2**31) + 1]
    beyond = ek.range(2**31 - 1, 2**31 + 1)  # a limit past int32: int64, as TF infers
    assert beyond.dtype == ek.int64 and beyond.numpy().tolist() == [2**31 - 1, 2**31]
    small = ek.range(-128, 127, 50, dtype=ek.int8)
    assert small.dtype == ek.int8 and small.numpy().tolist() == [-128, -78, -28, 22, 72, 122]
    assert ek.range(5, dtype=ek.uint8).numpy().tolist() == [0, 1, 2, 3, 4]
    assert ek.range(5, 0, -2).numpy().tolist() == [5, 3, 1]
    with pytest.raises(InvalidArgumentError, match="range: 200 does not fit in int8"):
        ek.range(200, dtype=ek.int8)
    with pytest.raises(InvalidArgumentError, match="range: -1 does not fit in uint8"):
        ek.range(-1, 3, dtype=ek.uint8)
    with pytest.raises(InvalidArgumentError, match="range: requires delta != 0"):
        ek.range(0, 5, 0)
    with pytest.raises(InvalidArgumentError, match="requires start <= limit when delta > 0"):
        ek.range(5, 0)
    with pytest.raises(InvalidArgumentError, match="must be an integer, got float 2.5"):
        ek.range(2.5, dtype=ek.int32)


def test_one_hot_refuses_a_negative_or_fractional_depth():
    with pytest.raises(InvalidArgumentError, match="one_hot: depth must be >= 0, got -1"):
        ek.one_hot([0, 1], -1)
    with pytest.raises(InvalidArgumentError, match="one_hot: depth must be an integer, got float"):
        ek.one_hot([0, 1], 2.5)
    assert ek.one_hot([0, 1], 0).shape == (2, 0)


def test_fill_refuses_object_arrays_and_non_scalars():
    with pytest.raises(InvalidArgumentError, match="fill: cannot make a tensor from ndarray"):
        ek.fill([2], np.array([1, None], dtype=object))
    with pytest.raises(InvalidArgumentError, match="fill: cannot make a tensor from ndarray"):
        ek.fill([2], np.array(None, dtype=object))
    with pytest.raises(InvalidArgumentError, match="fill: value must be a scalar"):
        ek.fill([2], [1.0, 2.0])
    assert ek.fill([2], "ab").numpy().tolist() == [b"ab", b"ab"]
    assert ek.fill(ek.constant([2, 1]), 7.0).numpy().tolist() == [[7.0], [7.0]]


def test_concat_and_unstack_refuse_axis_none():
    with pytest.raises(InvalidArgumentError, match="concat: axis must be an integer, got None"):
        ek.concat([X, X], axis=None)
    with pytest.raises(InvalidArgumentError, match="unstack: axis must be an integer, got None"):
        ek.unstack(X, axis=None)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: ek.reduce_sum(X, axis=0.5), "reduce_sum: axis must be an integer, got float 0.5"),
        (lambda: ek.reduce_mean(X, axis=[0, 1.0]), "reduce_mean: axis must be an integer"),
        (lambda: ek.expand_dims(X, 1.5), "expand_dims: axis must be an integer"),
        (lambda: ek.squeeze(ek.ones([1, 2]), 0.0), "squeeze: axis must be an integer"),
        (lambda: ek.stack([X, X], axis=0.5), "expand_dims: axis must be an integer"),
        (lambda: ek.concat([X, X], axis=1.0), "concat: axis must be an integer"),
        (lambda: ek.split(X, 1.5, axis=1), "split: num_or_size_splits must be an integer"),
        (
            lambda: ek.split(X, [1.5, 1.5], axis=1),
            "split: each size in num_or_size_splits must be an integer",
        ),
        (lambda: ek.reshape(X, [3, 2.0]), "reshape: each dimension of the shape must be an"),
        (lambda: ek.tile(X, [1, 2.5]), "tile: each dimension of multiples must be an integer"),
        (lambda: ek.zeros([2.7]), "zeros: each dimension of the shape must be an integer"),
        (lambda: ek.ones([2, 1.5]), "ones: each dimension of the shape must be an integer"),
        (lambda: ek.fill([2.5], 1.0), "fill: each dimension of dims must be an integer"),
        (lambda: ek.eye(2.5), "eye: num_rows must be an integer"),
        (lambda: ek.linspace(0.0, 1.0, 2.5), "linspace: num must be an integer"),
        (lambda: ek.random.normal([2.5]), "random.normal: each dimension of shape must be an"),
        (lambda: ek.argmax(X, 0.5), "argmax: axis must be an integer"),
        (lambda: ek.cumsum(X, 0.5), "cumsum: axis must be an integer"),
        (lambda: ek.top_k(X, 1.5), "top_k: k must be an integer"),
    ],
)
def test_fractional_axes_and_sizes_are_refused_never_truncated(call, message):
    with pytest.raises(InvalidArgumentError, match=message) as caught:
        call()
    assert "fractional values are refused rather than truncated" in str(caught.value)


def test_negative_sizes_are_refused():
    with pytest.raises(InvalidArgumentError, match="zeros: each dimension of the shape must be >="):
        ek.zeros([-1])
    with pytest.raises(InvalidArgumentError, match="tile: each multiple must be >= 0, got -1"):
        ek.tile(X, [1, -1])
    with pytest.raises(InvalidArgumentError, match="which num_or_size_splits=0 does not divide"):
        ek.split(X, 0)


def test_dataset_counts_are_whole_numbers_or_minus_one():
    ds = ek.data.Dataset.range(5)
    assert [int(x) for x in ds.take(-1)] == [0, 1, 2, 3, 4]
    assert [int(x) for x in ds.skip(-1)] == []
    assert [int(x) for x in ds.take(2).repeat(-1).take(5)] == [0, 1, 0, 1, 0]
    with pytest.raises(InvalidArgumentError, match="take: count must be an integer, got float"):
        ds.take(1.5)
    with pytest.raises(InvalidArgumentError, match="skip: count must be >= 0, or -1 for all"):
        ds.skip(-2)
    with pytest.raises(InvalidArgumentError, match="repeat: count must be an integer, got float"):
        ds.repeat(2.0)
