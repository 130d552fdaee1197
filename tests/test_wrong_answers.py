"""Calls that used to give a wrong answer silently, each against TF's documented behaviour.

one_hot's ``axis`` (TF: -1 or in [0, rank]); softmax_cross_entropy_with_logits(axis=None)
(TF's helper: ``if axis is None: axis = -1``); integers beside a float tensor that the float
cannot hold (TF rounds them silently; eagerkit refuses, as it refuses 1.5 beside an int);
None for on_value (TF: the default 1); string ones (TF: "Expected string, got 1"); numpy
dtypes eagerkit has no name for; unstack's ``num`` (TF checks it); reduce_logsumexp of inf
(TF shifts by 0 where the max is not finite); integer l2_loss (TF's L2Loss has float kernels
only).
"""

import inspect
import math

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import given, settings

import eagerkit as ek
from eagerkit.devices import CPU
from eagerkit.errors import InvalidArgumentError
from eagerkit.registry import all_ops


# --- one_hot ------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(
    shape=st.lists(st.integers(1, 3), max_size=3),
    depth=st.integers(0, 4),
    data=st.data(),
)
def test_one_hot_puts_the_new_axis_where_asked(shape, depth, data):
    indices = np.random.default_rng(len(shape)).integers(-1, depth + 1, size=shape)
    axis = data.draw(st.integers(-1, len(shape)))
    got = ek.one_hot(indices, depth, axis=axis).numpy()
    table = (np.arange(depth) == indices[..., None]).astype(np.float32)  # numpy's answer
    want = table if axis == -1 else np.moveaxis(table, -1, axis)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("axis", [5, -2, 1.5, float("nan"), "0", True])
def test_one_hot_refuses_axes_tf_refuses(axis):
    with pytest.raises(InvalidArgumentError, match="one_hot: .*axis"):
        ek.one_hot([0, 2], 3, axis=axis)


def test_one_hot_values_and_dtype_follow_tf():
    assert ek.one_hot([1], 3, on_value=None, off_value=None).numpy().tolist() == [[0, 1, 0]]
    assert ek.one_hot([1], 3, on_value=None).dtype == ek.float32
    five = ek.one_hot([1], 3, on_value=5)  # the dtype comes from the values given
    assert five.dtype == ek.int32 and five.numpy().tolist() == [[0, 5, 0]]
    assert ek.one_hot([1], 2, on_value=2.5, off_value=-1.0).numpy().tolist() == [[-1, 2.5]]
    with pytest.raises(InvalidArgumentError, match="dtype int32 of on_value does not match"):
        ek.one_hot([1], 2, on_value=1, off_value=0.5)
    with pytest.raises(InvalidArgumentError, match="on_value must be a scalar"):
        ek.one_hot([1], 2, on_value=[1.0, 2.0])
    with pytest.raises(InvalidArgumentError):
        ek.one_hot([1], 2, on_value=1.5, dtype=ek.int32)  # 1.5 is not an int32


# --- softmax_cross_entropy_with_logits -----------------------------------------------------
@pytest.mark.parametrize("axis", [None, -1, 1])
def test_softmax_cross_entropy_axis_none_is_the_last_axis(axis):
    logits = np.array([[1.0, 2.0, 0.5], [3.0, -1.0, 4.0]], np.float32)
    labels = np.array([[0.0, 1.0, 0.0], [0.2, 0.3, 0.5]], np.float32)
    got = ek.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits, axis=axis)
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    np.testing.assert_allclose(got.numpy(), -(labels * log_p).sum(axis=1), rtol=1e-6)
    with pytest.raises(InvalidArgumentError, match="softmax_cross_entropy_with_logits: axis"):
        ek.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits, axis=1.5)


# --- integers beside float tensors ---------------------------------------------------------
def _shared_dtype_binary_ops():
    """Every registered primitive of two same-dtype inputs, a float32 kernel and no required
    parameters (the elementwise ones: add, pow, maximum, the comparisons, ...)."""
    found = []
    for op in all_ops():
        parameters = list(inspect.signature(op.forward).parameters.values())[3:]
        if (
            op.nin == 2
            and op.dtype_args is None
            and np.dtype(np.float32) in op.dtypes
            and all(p.default is not p.empty for p in parameters)
        ):
            found.append(op)
    return found


BINARY = _shared_dtype_binary_ops()


def test_the_binary_ops_are_enumerated():
    names = {op.name for op in BINARY}
    assert {"add", "subtract", "multiply", "truediv", "maximum", "minimum", "pow"} <= names
    assert len(BINARY) >= 16, sorted(names)


@pytest.mark.parametrize("op", BINARY, ids=lambda op: op.name)
def test_ints_that_float32_cannot_hold_are_refused_by_every_binary_op(op):
    x = ek.constant([[3.0]])
    for value in (np.array([[16777217]], np.int32), np.array([[2**31 - 1]]), 16777217):
        for args in ((x, value), (value, x)):
            with pytest.raises(InvalidArgumentError, match=f"{op.name}: the integer"):
                op.call(*args)
    exact = np.array([16777216], np.int32)  # 2**24: float32 holds it, so the op runs
    if op.name != "bias_add":  # the bias is a vector
        exact = exact[None]
    want = op.forward(CPU.xp, np.float32([[3.0]]), exact.astype(np.float32))  # the CPU's xp
    np.testing.assert_array_equal(op.call(x, exact).numpy(), want)


@settings(max_examples=80, deadline=None)
@given(value=st.integers(-(2**62), 2**62))
def test_int_beside_float_is_exact_or_refused(value):
    x = ek.constant([0.0])
    try:
        got = (x + np.array([value])).numpy()[0]
    except InvalidArgumentError:
        assert float(np.float32(value)) != value  # refused only when float32 would round
    else:
        assert float(got) == value


# --- creation and conversion ---------------------------------------------------------------
def test_string_zeros_are_empty_strings_and_string_ones_are_refused():
    assert ek.zeros([2, 3], dtype=str).numpy().tolist() == [[b""] * 3] * 2
    assert ek.zeros_like(ek.constant(["a", "b"])).numpy().tolist() == [b"", b""]
    for call in (lambda: ek.ones([2, 3], dtype=str), lambda: ek.ones_like(ek.constant(["a"]))):
        with pytest.raises(InvalidArgumentError, match="a string tensor has no 'one'"):
            call()


@pytest.mark.parametrize("np_dtype", [np.float128, np.uint32, np.uint64, np.complex256])
def test_numpy_dtypes_without_an_eagerkit_dtype_are_refused(np_dtype):
    for value in (np.ones([2], np_dtype), np_dtype(1)):
        with pytest.raises(InvalidArgumentError, match=f"no {np.dtype(np_dtype).name} dtype"):
            ek.constant(value)
    assert ek.constant(np.ones([2], np.float128), dtype=ek.float64).dtype == ek.float64


def test_pad_fills_with_a_value_of_the_tensors_dtype():
    x = ek.constant([[1.0, 2.0]])
    with pytest.raises(InvalidArgumentError, match="constant_values .* got None"):
        ek.pad(x, [[1, 1], [0, 0]], constant_values=None)  # it filled with NaN
    with pytest.raises(InvalidArgumentError):
        ek.pad(ek.constant([1, 2]), [[1, 0]], constant_values=1.5)
    with pytest.raises(InvalidArgumentError, match="constant_values must be a scalar"):
        ek.pad(x, [[1, 0], [0, 0]], constant_values=[1.0, 2.0])
    assert ek.pad(x, [[0, 0], [1, 0]], constant_values=-1).numpy().tolist() == [[-1, 1, 2]]
    assert ek.pad(ek.constant(["a"]), [[1, 1]]).numpy().tolist() == [b"", b"a", b""]


# --- unstack, logsumexp, l2_loss ------------------------------------------------------------
def test_unstack_checks_num():
    x = ek.zeros([3, 2])
    assert len(ek.unstack(x, num=3)) == 3 and len(ek.unstack(x, num=2, axis=1)) == 2
    with pytest.raises(InvalidArgumentError, match="unstack: num=2 but axis 0 .* has size 3"):
        ek.unstack(x, num=2)
    with pytest.raises(InvalidArgumentError, match="unstack: num must be an integer"):
        ek.unstack(x, num=3.0)


@pytest.mark.parametrize(
    ("values", "want"),
    [
        ([math.inf, 1.0], math.inf),
        ([math.inf], math.inf),
        ([-math.inf, -math.inf], -math.inf),
        ([math.nan, 1.0], math.nan),
        ([-math.inf, 0.0], 0.0),
        ([1000.0, 1000.0], 1000.0 + math.log(2)),
    ],
)
def test_reduce_logsumexp_of_infinities_is_tfs(values, want):
    got = float(ek.reduce_logsumexp(ek.constant(values)))
    assert (math.isnan(got) and math.isnan(want)) or got == pytest.approx(want, rel=1e-6)


def test_reduce_logsumexp_rows_and_gradient_stay_finite():
    x = ek.constant([[1.0, math.inf], [2.0, 3.0]])
    np.testing.assert_allclose(
        ek.reduce_logsumexp(x, axis=1).numpy(), [math.inf, 3.0 + math.log1p(math.exp(-1.0))]
    )
    w = ek.Variable([2.0, 3.0])
    with ek.GradientTape() as tape:
        y = ek.reduce_logsumexp(w)
    softmax = np.exp([2.0, 3.0]) / np.exp([2.0, 3.0]).sum()
    np.testing.assert_allclose(tape.gradient(y, w).numpy(), softmax, rtol=1e-6)


@pytest.mark.parametrize("dtype", [ek.int32, ek.int64, ek.uint8, ek.bool])
def test_l2_loss_refuses_what_is_not_a_float(dtype):
    with pytest.raises(InvalidArgumentError, match=f"l2_loss: t is {dtype.name}"):
        ek.nn.l2_loss(ek.zeros([2], dtype=dtype))
    assert float(ek.nn.l2_loss(ek.constant([100000.0], ek.float64))) == 5e9


@pytest.mark.parametrize("shape", [[1.5, 2], [2, -1], ["a"], [ek.constant(2.5)]])
def test_tensor_spec_refuses_sizes_that_are_not_counts(shape):
    with pytest.raises(InvalidArgumentError, match="TensorSpec: each size of shape"):
        ek.TensorSpec(shape)  # [1.5, 2] was (1, 2)


def test_tensor_spec_takes_ints_none_and_one_size():
    assert ek.TensorSpec([None, np.int64(3)]).shape == (None, 3)
    assert ek.TensorSpec(3).shape == (3,)  # as TF's TensorShape(3)
    assert ek.TensorSpec(None).shape is None
