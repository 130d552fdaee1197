"""ek.matmul / ek.linalg.matmul with TF's adjoint_a/adjoint_b (the conjugate transpose),
a_is_sparse/b_is_sparse (hints: the same values, 2-D only) and output_type (int32 for
int8/uint8), against numpy; gradients against the same product spelled with transposes."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

FLAGS = st.sampled_from(["", "transpose", "adjoint"])


def _op(matrix, flag):
    """numpy's op(matrix): itself, its transpose, or its conjugate transpose."""
    if flag == "":
        return matrix
    swapped = np.swapaxes(matrix, -1, -2)
    return swapped.conj() if flag == "adjoint" else swapped


def _stored(matrix, flag):
    """What to pass so that op(stored) is ``matrix``."""
    return _op(matrix, flag)  # (each op is its own inverse)


@settings(max_examples=60, deadline=None)
@given(
    st.data(),
    FLAGS,
    FLAGS,
    st.sampled_from([np.float32, np.float64, np.complex64, np.complex128]),
)
def test_each_flag_pair_gives_numpys_product(data, flag_a, flag_b, dtype):
    batch = data.draw(st.sampled_from([(), (2,), (2, 1)]))
    n, k, m = (data.draw(st.integers(1, 3)) for _ in range(3))
    values = st.integers(-3, 3).map(float)
    a = data.draw(hnp.arrays(np.float64, (*batch, n, k), elements=values))
    b = data.draw(hnp.arrays(np.float64, (*batch, k, m), elements=values))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * data.draw(hnp.arrays(np.float64, a.shape, elements=values))
        b = b - 1j * data.draw(hnp.arrays(np.float64, b.shape, elements=values))
    a, b = a.astype(dtype), b.astype(dtype)
    flags = {f"{f}_a": True for f in [flag_a] if f} | {f"{f}_b": True for f in [flag_b] if f}
    got = ek.linalg.matmul(_stored(a, flag_a), _stored(b, flag_b), **flags)
    assert got.dtype.as_numpy_dtype == dtype
    np.testing.assert_allclose(got.numpy(), a @ b, rtol=1e-5, atol=1e-5)


def test_the_ta_answer_adjoint_b():
    # TA D's 13.1: ek.linalg.matmul(images, weights, adjoint_b=True)
    images = ek.constant(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    weights = ek.constant(np.arange(12.0, dtype=np.float32).reshape(4, 3))
    got = ek.linalg.matmul(images, weights, adjoint_b=True)
    expected = ek.matmul(images, weights, transpose_b=True)
    assert got.shape == (2, 4) and got.numpy().tolist() == expected.numpy().tolist()
    assert ek.matmul is ek.linalg.matmul


def test_adjoint_gradients_equal_the_spelled_out_product():
    a = ek.Variable([[1.0 + 2.0j, 0.5 - 1.0j], [2.0 + 0.0j, -1.0 + 1.0j]], dtype=ek.complex64)
    b = ek.Variable([[0.5 + 0.5j, 1.0 + 0.0j], [-2.0 + 1.0j, 3.0 - 1.0j]], dtype=ek.complex64)

    def gradients(product):
        with ek.GradientTape() as tape:
            loss = ek.reduce_sum(ek.math.real(product(a, b) * ek.math.conj(product(a, b))))
        return [g.numpy() for g in tape.gradient(loss, [a, b])]

    adjoint = gradients(lambda x, y: ek.matmul(x, y, adjoint_a=True, adjoint_b=True))
    spelled = gradients(
        lambda x, y: ek.matmul(ek.math.conj(x), ek.math.conj(y), transpose_a=True, transpose_b=True)
    )
    for got, want in zip(adjoint, spelled, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-5)
    w = ek.Variable([[1.0, 2.0], [3.0, 4.0]])
    x = ek.constant([[1.0, -1.0]])
    with ek.GradientTape() as tape:
        y = ek.reduce_sum(ek.linalg.matmul(x, w, adjoint_b=True))
    # d/dw sum(x @ w^T) = ones^T @ x: each row of w gets x
    assert tape.gradient(y, w).numpy().tolist() == [[1.0, -1.0], [1.0, -1.0]]


def test_sparse_hints_keep_the_values_of_2d_products():
    a = np.array([[0.0, 2.0, 0.0], [0.0, 0.0, 1.0]], np.float32)
    b = np.array([[1.0], [2.0], [3.0]], np.float32)
    for hints in (
        {"a_is_sparse": True},
        {"b_is_sparse": True},
        {"a_is_sparse": True, "b_is_sparse": True},
    ):
        np.testing.assert_array_equal(ek.matmul(a, b, **hints).numpy(), a @ b)
    np.testing.assert_array_equal(
        ek.linalg.matvec(a, b[:, 0], a_is_sparse=True).numpy(), a @ b[:, 0]
    )
    np.testing.assert_array_equal(
        ek.linalg.matvec(a.T, b[:, 0], adjoint_a=True).numpy(), a @ b[:, 0]
    )


def test_output_type_int32_for_int8_inputs_does_not_overflow():
    a = ek.constant([[100, 100]], dtype=ek.int8)
    got = ek.matmul(a, a, transpose_b=True, output_type=ek.int32)
    assert got.dtype == ek.int32 and got.numpy().tolist() == [[20000]]
    same = ek.matmul([[1.0]], [[2.0]], output_type=ek.float32)
    assert same.dtype == ek.float32


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: ek.matmul([[1.0]], [[1.0]], transpose_a=True, adjoint_a=True),
            "only one of transpose_a and adjoint_a can be True",
        ),
        (
            lambda: ek.matmul([[1.0]], [[1.0]], transpose_b=True, adjoint_b=True),
            "only one of transpose_b and adjoint_b can be True",
        ),
        (
            lambda: ek.matmul([[1.0]], [[1.0]], output_type=ek.float64),
            r"output_type=float64 for float32 and float32 inputs.*"
            r"ek.cast\(ek.matmul\(a, b\), ek.float64\)",
        ),
        (
            lambda: ek.matmul(ek.ones([2, 2, 2]), ek.ones([2, 2, 2]), a_is_sparse=True),
            r"hints for plain 2-D matrices .* got shapes \(2, 2, 2\) and \(2, 2, 2\)",
        ),
        (
            lambda: ek.matmul([[1.0, 2.0]], [[1.0], [2.0]], adjoint_a=True),
            "inner dimensions do not match",
        ),
    ],
)
def test_conflicting_flags_and_unsupported_types_are_refused(call, message):
    with pytest.raises(InvalidArgumentError, match=message):
        call()
