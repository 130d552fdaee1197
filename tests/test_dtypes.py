"""TF's dtype rules (reference A2, A4): inference, the truediv table, no silent mixing."""

import numpy as np
import pytest

import eagerkit as ek


@pytest.mark.parametrize(
    ("value", "dtype"),
    [
        (3.0, ek.float32),
        (3, ek.int32),
        (2**40, ek.int64),
        (-(2**31) - 1, ek.int64),
        (True, ek.bool),
        ([1, 2.5], ek.float32),
        ([[1, 2], [3, 4]], ek.int32),
        (np.array([1.0, 2.0]), ek.float64),
        (np.array([1, 2]), ek.int64),
        (np.float16(1.0), ek.float16),
        (np.array([1, 2], np.int8), ek.int8),
    ],
)
def test_inferred_dtype(value, dtype):
    assert ek.constant(value).dtype == dtype
    assert ek.convert_to_tensor(value).dtype == dtype


def test_creation_ops_default_to_float32_and_range_to_int32():
    for tensor in [ek.zeros([2]), ek.ones([2]), ek.random_normal([2]), ek.random_uniform([2])]:
        assert tensor.dtype == ek.float32
    assert ek.truncated_normal([2]).dtype == ek.float32
    assert ek.range(3).dtype == ek.int32
    assert ek.eye(2).dtype == ek.float32
    assert ek.Variable(0.0).dtype == ek.float32 and ek.Variable(0).dtype == ek.int32


def test_explicit_dtype_wins():
    assert ek.constant(3, dtype=ek.float64).dtype == ek.float64
    assert ek.constant([1, 2], dtype="int64").numpy().dtype == np.int64
    assert ek.zeros([1], dtype=np.float16).dtype == ek.float16


@pytest.mark.parametrize(
    ("dtype", "result"),
    [
        (ek.int8, ek.float32),
        (ek.int16, ek.float32),
        (ek.uint8, ek.float32),
        (ek.uint16, ek.float32),
        (ek.int32, ek.float64),
        (ek.int64, ek.float64),
        (ek.float16, ek.float16),
        (ek.float32, ek.float32),
        (ek.float64, ek.float64),
    ],
)
def test_truediv_table(dtype, result):
    quotient = ek.constant(7, dtype=dtype) / ek.constant(2, dtype=dtype)
    assert quotient.dtype == result
    assert float(quotient) == 3.5


def test_wonderful_wizard_of_div():
    b = ek.constant([[0, 1], [2, 3]])
    a = ek.constant([2, 2])
    assert str(ek.divide(b, a)) == (
        "ek.Tensor(\n[[0.  0.5]\n [1.  1.5]], shape=(2, 2), dtype=float64)"
    )
    assert str(ek.truediv(b, a)) == str(ek.divide(b, a))
    assert str(ek.floordiv(b, a)) == "ek.Tensor(\n[[0 0]\n [1 1]], shape=(2, 2), dtype=int32)"
    assert repr(ek.tensordot([10, 20], [2, 3], 1)) == (
        "<ek.Tensor: shape=(), dtype=int32, numpy=80>"
    )


def test_floordiv_floors_and_mod_takes_the_sign_of_the_divisor():
    assert int(ek.constant(-7) // 2) == -4
    assert int(ek.constant(-7) % 2) == 1
    assert float(ek.constant(-7.0) % 2.0) == 1.0
    assert (ek.constant(-7) // 2).dtype == ek.int32


@pytest.mark.parametrize(
    ("operand", "dtype"),
    [
        (2, ek.float32),
        (2.5, ek.float32),
        (np.float64(2.5), ek.float32),
        (np.array([2.5, 1.0]), ek.float32),
        (True, ek.float32),
    ],
)
def test_python_and_numpy_operands_take_the_tensors_dtype(operand, dtype):
    x = ek.constant([1.0, 2.0])
    assert (x * operand).dtype == dtype
    assert (operand * x).dtype == dtype
    assert ek.multiply(operand, x).dtype == dtype


def test_int_tensor_with_python_ints_stays_int():
    assert (ek.constant(12) * 3 + 1).dtype == ek.int32
    assert (ek.constant(12, dtype=ek.int64) + 1).dtype == ek.int64
    assert (3 * ek.constant(1.0, dtype=ek.float64)).dtype == ek.float64


def test_two_python_values_follow_tf_inference():
    assert ek.add(1, 2).dtype == ek.int32
    assert ek.add(1, 2.5).dtype == ek.float32
    assert ek.add(np.array([1.0]), 2).dtype == ek.float64


def test_tensors_of_different_dtypes_never_mix():
    with pytest.raises(
        ek.errors.InvalidArgumentError,
        match="expected to be a float32 tensor but is a float64 tensor",
    ):
        ek.constant(1.0) + ek.constant(1.0, dtype=ek.float64)


@pytest.mark.parametrize("dtype", [ek.float32, ek.float64, ek.int32, ek.int64])
def test_reduce_mean_keeps_the_dtype(dtype):
    mean = ek.reduce_mean(ek.constant([1, 2], dtype=dtype))
    assert mean.dtype == dtype
    assert float(mean) == (1.5 if dtype.is_floating else 1)


def test_int_mean_truncates_toward_zero_like_tf():
    assert int(ek.reduce_mean([-1, -2])) == -1
    np.testing.assert_array_equal(ek.reduce_mean([[1, 2], [4, 4]], axis=1).numpy(), [1, 4])


def test_integer_sums_and_products_stay_int32():
    assert ek.reduce_sum([1, 2]).dtype == ek.int32
    assert ek.reduce_prod([3, 4]).dtype == ek.int32


def test_comparisons_give_bool_and_argmax_int64():
    assert (ek.constant(1.0) < 2.0).dtype == ek.bool
    assert ek.argmax([1.0, 3.0]).dtype == ek.int64


def test_cast_converts_and_truncates_toward_zero():
    cast = ek.cast([1.7, -1.7, 2.5], ek.int32)
    assert cast.dtype == ek.int32
    np.testing.assert_array_equal(cast.numpy(), [1, -1, 2])
    assert ek.cast(ek.constant([1, 0]), ek.bool).dtype == ek.bool
    assert ek.cast(ek.constant(1.0), "float16").dtype == ek.float16


def test_dtype_objects():
    assert ek.float32 == "float32" and ek.float32 == np.float32
    assert ek.float32 == np.dtype("float32")
    assert ek.float32 != ek.float64
    assert ek.as_dtype(np.int64) is ek.int64
    assert repr(ek.float32) == "ek.float32" and str(ek.int32) == "<dtype: 'int32'>"
    assert ek.int32.name == "int32" and f"{ek.bool}" == "<dtype: 'bool'>"  # as TF prints
    assert ek.float16.is_floating and ek.int32.is_integer and ek.bool.is_bool
    assert not ek.int32.is_floating and ek.float64.size == 8
    assert {ek.float32: 1}[ek.as_dtype("float32")] == 1
    with pytest.raises(TypeError, match="not a dtype eagerkit supports"):
        ek.as_dtype("bfloat16")
    with pytest.raises(TypeError, match="None is not a dtype"):
        ek.as_dtype(None)


def test_lossy_conversions_into_int_dtypes_are_refused():
    with pytest.raises(ek.errors.InvalidArgumentError, match="expected an int32 value but got"):
        ek.constant(1) + 1.5
    with pytest.raises(ek.errors.InvalidArgumentError, match="does not fit in int32"):
        ek.constant(1) + 2**40
    with pytest.raises(ek.errors.InvalidArgumentError, match="300 does not fit in int8"):
        ek.constant(1, dtype=ek.int8) + 300
    with pytest.raises(ek.errors.InvalidArgumentError, match="int32"):
        ek.constant([1]) + np.array([1.5])  # TF truncates this silently; we refuse
    assert int(ek.constant(1) + 2.0) == 3  # a whole float converts exactly


def test_strings_are_string_tensors_and_other_objects_are_refused():
    assert ek.constant("apple").dtype == ek.string  # tests/test_strings.py has the rest
    with pytest.raises(TypeError, match="tensors hold numbers, bools or strings"):
        ek.constant({"a": 1})
