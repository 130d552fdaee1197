"""Forward values and errors of the ops TF users reach for (gradients: test_ops_grad.py).

Values are compared with numpy's (or with TF's documented answers where TF differs); each
error names the op, the shapes and the fix.
"""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

rng = np.random.default_rng(0)


def test_exp_log_family_matches_numpy():
    x = rng.uniform(0.1, 3.0, 5).astype(np.float32)
    for op, reference in [
        (ek.sinh, np.sinh),
        (ek.cosh, np.cosh),
        (ek.expm1, np.expm1),
        (ek.log2, np.log2),
        (ek.log10, np.log10),
    ]:
        result = op(x)
        assert result.dtype == ek.float32
        np.testing.assert_allclose(result.numpy(), reference(x), rtol=1e-6)
    np.testing.assert_allclose(ek.logaddexp(x, 2 * x).numpy(), np.logaddexp(x, 2 * x), rtol=1e-6)
    assert float(ek.logaddexp(1e4, 0.0)) == 1e4  # no overflow
    with pytest.raises(InvalidArgumentError, match="log2"):
        ek.log2([1, 2])  # integers: TF has no integer log either


@pytest.mark.parametrize(
    ("equation", "shapes"),
    [
        ("ij,jk->ik", [(2, 3), (3, 4)]),
        ("ij,jk", [(2, 3), (3, 4)]),
        ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),
        ("i,i->", [(3,), (3,)]),
        ("i,j->ij", [(3,), (2,)]),
        ("ij->ji", [(2, 3)]),
        ("...ij,...jk->...ik", [(5, 2, 3), (3, 4)]),
        ("ijk", [(2, 3, 4)]),
        ("ba, ab", [(2, 3), (3, 2)]),
        ("ii->i", [(3, 3)]),
        ("ii->", [(3, 3)]),
        ("ii", [(3, 3)]),
        ("bxby->bxy", [(2, 3, 2, 4)]),
        ("iij,j->ij", [(2, 2, 3), (3,)]),
    ],
)
def test_einsum_matches_numpy(equation, shapes):
    operands = [rng.standard_normal(s) for s in shapes]
    expected = np.einsum(equation.replace(" ", ""), *operands)
    np.testing.assert_allclose(ek.einsum(equation, *operands).numpy(), expected, rtol=1e-12)


def test_einsum_errors_name_the_problem():
    with pytest.raises(InvalidArgumentError, match="names 2 operands but 1 were given"):
        ek.einsum("ij,jk->ik", ek.ones([2, 2]))
    with pytest.raises(InvalidArgumentError, match="letter 'j' has size 3 .* and 4"):
        ek.einsum("ij,jk->ik", ek.ones([2, 3]), ek.ones([4, 2]))
    with pytest.raises(InvalidArgumentError, match="'ijk' have 3 letters but the operand has"):
        ek.einsum("ijk->i", ek.ones([2, 3]))
    with pytest.raises(InvalidArgumentError, match="letter 'i' has size 2 .* and 3"):
        ek.einsum("ii->i", ek.ones([2, 3]))  # a diagonal needs equal sizes
    with pytest.raises(InvalidArgumentError, match="equation string"):
        ek.einsum(ek.ones([2]), "i")


def test_linalg_matches_numpy():
    a = rng.standard_normal((2, 3, 3)) + 3 * np.eye(3)
    b = rng.standard_normal((2, 3, 2))
    np.testing.assert_allclose(ek.matrix_inverse(a).numpy(), np.linalg.inv(a), rtol=1e-10)
    np.testing.assert_allclose(ek.matrix_determinant(a).numpy(), np.linalg.det(a), rtol=1e-10)
    np.testing.assert_allclose(ek.matrix_solve(a, b).numpy(), np.linalg.solve(a, b), rtol=1e-10)
    transposed = np.linalg.solve(np.swapaxes(a, -1, -2), b)
    np.testing.assert_allclose(ek.matrix_solve(a, b, adjoint=True).numpy(), transposed)
    spd = a @ np.swapaxes(a, -1, -2)
    np.testing.assert_allclose(ek.cholesky(spd).numpy(), np.linalg.cholesky(spd), rtol=1e-10)


def test_linalg_errors():
    with pytest.raises(InvalidArgumentError, match=r"inv: the matrix is singular.*shape \(2, 2\)"):
        ek.matrix_inverse([[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(InvalidArgumentError, match="cholesky: the matrix must be symmetric posi"):
        ek.cholesky([[1.0, 2.0], [2.0, 1.0]])
    with pytest.raises(InvalidArgumentError, match=r"det: input must be a square matrix.*\(2, 3\)"):
        ek.matrix_determinant(ek.ones([2, 3]))
    with pytest.raises(InvalidArgumentError, match=r"rhs must have shape \[\.\.\., 2, k\]"):
        ek.matrix_solve(ek.eye(2), [1.0, 2.0])


def test_matrix_parts():
    x = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(ek.matrix_band_part(x, 1, 0).numpy(), np.tril(np.triu(x, -1)))
    np.testing.assert_array_equal(ek.matrix_band_part(x, -1, 0).numpy(), np.tril(x))
    np.testing.assert_array_equal(ek.matrix_diag_part(x).numpy(), [0.0, 5.0, 10.0])
    np.testing.assert_array_equal(ek.matrix_diag([[1, 2], [3, 4]]).numpy()[1], [[3, 0], [0, 4]])
    assert float(ek.trace(x[:, :3])) == 15.0
    with pytest.raises(InvalidArgumentError, match="num_lower must be an integer, got float"):
        ek.matrix_band_part(x, 1.5, 0)
    with pytest.raises(InvalidArgumentError, match="trace: input must have rank >= 2"):
        ek.trace([1.0, 2.0])


def test_scans():
    x = np.array([[1, 2, 3], [4, 5, 6]])
    np.testing.assert_array_equal(ek.cumsum(x, axis=1).numpy(), np.cumsum(x, 1))
    np.testing.assert_array_equal(ek.cumprod(x).numpy(), np.cumprod(x, 0))
    # TF's documented examples for exclusive and reverse
    np.testing.assert_array_equal(ek.cumsum([2, 4, 6, 8], exclusive=True).numpy(), [0, 2, 6, 12])
    np.testing.assert_array_equal(ek.cumsum([2, 4, 6, 8], reverse=True).numpy(), [20, 18, 14, 8])
    np.testing.assert_array_equal(ek.cumprod([2, 4, 6, 8], exclusive=True).numpy(), [1, 2, 8, 48])
    assert ek.cumsum([[1, 2], [3, 4]]).dtype == ek.int32  # the input dtype, as in TF
    with pytest.raises(InvalidArgumentError, match="cumsum: axis must be an integer, got float"):
        ek.cumsum(x, axis=1.0)
    with pytest.raises(InvalidArgumentError, match="cumsum: axis 2 is out of range"):
        ek.cumsum(x, axis=2)


def test_variance_std_norm():
    x = rng.standard_normal((3, 4)).astype(np.float32)
    np.testing.assert_allclose(ek.reduce_variance(x, axis=0).numpy(), x.var(0), rtol=1e-5)
    np.testing.assert_allclose(ek.reduce_std(x, 1, keepdims=True).numpy(), x.std(1, keepdims=True))
    np.testing.assert_allclose(float(ek.norm(x)), np.linalg.norm(x), rtol=1e-6)
    np.testing.assert_allclose(ek.norm(x, ord=1, axis=1).numpy(), np.abs(x).sum(1), rtol=1e-6)
    for order in (1, 2, np.inf, "fro"):
        expected = np.linalg.norm(x, ord=order)
        np.testing.assert_allclose(float(ek.norm(x, ord=order, axis=[0, 1])), expected, rtol=1e-6)
    with pytest.raises(InvalidArgumentError, match="reduce_variance: input must be a float"):
        ek.reduce_variance([1, 2])
    with pytest.raises(InvalidArgumentError, match="a matrix norm takes ord='fro', .* got 3"):
        ek.norm(x, ord=3, axis=[0, 1])
    with pytest.raises(InvalidArgumentError, match="ord must be"):
        ek.norm(x, ord=-1)


def test_sorting():
    x = np.array([[3.0, 1.0, 2.0, 1.0], [0.0, 5.0, 5.0, -1.0]], np.float32)
    np.testing.assert_array_equal(ek.sort(x).numpy(), np.sort(x))
    np.testing.assert_array_equal(ek.sort(x, direction="DESCENDING").numpy(), -np.sort(-x))
    np.testing.assert_array_equal(ek.argsort(x).numpy(), [[1, 3, 2, 0], [3, 0, 1, 2]])
    descending = ek.argsort(x, direction="DESCENDING")
    np.testing.assert_array_equal(descending.numpy(), [[0, 2, 1, 3], [1, 2, 0, 3]])
    assert descending.dtype == ek.int32
    values, indices = ek.top_k(x, k=2)
    np.testing.assert_array_equal(values.numpy(), [[3.0, 2.0], [5.0, 5.0]])
    np.testing.assert_array_equal(indices.numpy(), [[0, 2], [1, 2]])  # ties: lower index first
    assert ek.sort(np.array([3, 1, 2], np.uint8)).numpy().tolist() == [1, 2, 3]
    assert ek.argsort(np.array([0, 255], np.uint8), direction="DESCENDING").numpy()[0] == 1
    with pytest.raises(InvalidArgumentError, match="top_k: k = 5 is more than the 4 entries"):
        ek.top_k(x, k=5)
    with pytest.raises(InvalidArgumentError, match="top_k: k must be an integer, got float"):
        ek.top_k(x, k=1.5)
    with pytest.raises(InvalidArgumentError, match="direction must be 'ASCENDING' or"):
        ek.sort(x, direction="up")


def test_pad_roll_repeat():
    x = np.arange(6).reshape(2, 3)
    for mode in ("CONSTANT", "REFLECT", "SYMMETRIC"):
        got = ek.pad(x, [[1, 1], [2, 2]], mode=mode).numpy()
        np.testing.assert_array_equal(got, np.pad(x, [[1, 1], [2, 2]], mode=mode.lower()))
    assert ek.pad(x, [[0, 0], [1, 0]], constant_values=9).numpy()[0, 0] == 9
    np.testing.assert_array_equal(ek.roll(x, [1, 1], [0, 1]).numpy(), np.roll(x, (1, 1), (0, 1)))
    np.testing.assert_array_equal(ek.repeat(x, 2).numpy(), np.repeat(x, 2))
    np.testing.assert_array_equal(ek.repeat(x, [1, 2], axis=0).numpy(), np.repeat(x, [1, 2], 0))
    with pytest.raises(InvalidArgumentError, match="REFLECT padding of 3 along axis 0 needs at"):
        ek.pad(x, [[3, 0], [0, 0]], mode="REFLECT")
    with pytest.raises(InvalidArgumentError, match=r"pad: paddings must be a \[rank, 2\] list"):
        ek.pad(x, [[1, 1]])
    with pytest.raises(InvalidArgumentError, match="pad: padding must be >= 0, got -1"):
        ek.pad(x, [[-1, 0], [0, 0]])
    with pytest.raises(InvalidArgumentError, match="roll: shift must be an integer, got float"):
        ek.roll(x, 1.5, 0)
    with pytest.raises(InvalidArgumentError, match="repeats has 3 counts but axis 0"):
        ek.repeat(x, [1, 2, 3], axis=0)


def test_segment_sums():
    data = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    np.testing.assert_array_equal(
        ek.segment_sum(data, [0, 0, 2]).numpy(), [[4.0, 6.0], [0.0, 0.0], [5.0, 6.0]]
    )
    np.testing.assert_array_equal(
        ek.unsorted_segment_sum(data, [2, -1, 0], 3).numpy(), [[5.0, 6.0], [0, 0], [1.0, 2.0]]
    )
    with pytest.raises(InvalidArgumentError, match="segment_ids must be a sorted vector"):
        ek.segment_sum(data, [1, 0, 2])
    with pytest.raises(InvalidArgumentError, match="segment id 3 is out of range for num_segm"):
        ek.unsorted_segment_sum(data, [0, 3, 1], 3)
    with pytest.raises(InvalidArgumentError, match=r"segment_ids of shape \(2,\) must match"):
        ek.unsorted_segment_sum(data, [0, 1], 3)
    with pytest.raises(InvalidArgumentError, match="segment_ids must be integers, got float32"):
        ek.segment_sum(data, [0.0, 1.0, 1.0])


def test_argmax_output_type():
    x = [[1.0, 5.0], [7.0, 2.0]]
    assert ek.argmax(x, axis=1, output_type=ek.int32).dtype == ek.int32
    assert ek.argmin(x, 1, ek.int32).numpy().tolist() == [0, 1]
    assert ek.argmax(x).dtype == ek.int64 and ek.argmax(x).numpy().tolist() == [1, 0]
    with pytest.raises(InvalidArgumentError, match="output_type must be ek.int32 or ek.int64"):
        ek.argmax(x, output_type=ek.float32)
    with pytest.raises(InvalidArgumentError, match="argmax: axis must be an integer, got float"):
        ek.argmax(x, axis=0.5)


def test_the_new_ops_are_in_tf2s_namespaces():
    assert ek.linalg.inv is ek.matrix_inverse and ek.linalg.det is ek.matrix_determinant
    assert ek.linalg.solve is ek.matrix_solve and ek.linalg.cholesky is ek.cholesky
    assert ek.linalg.band_part is ek.matrix_band_part and ek.linalg.diag is ek.matrix_diag
    assert ek.linalg.diag_part is ek.matrix_diag_part and ek.linalg.trace is ek.trace
    assert ek.linalg.einsum is ek.einsum and ek.linalg.norm is ek.norm
    for name in ["cumsum", "cumprod", "reduce_variance", "reduce_std", "top_k", "segment_sum"]:
        assert getattr(ek.math, name) is getattr(ek, name), name
    for name in ["sinh", "cosh", "expm1", "log2", "log10", "logaddexp", "unsorted_segment_sum"]:
        assert getattr(ek.math, name) is getattr(ek, name), name
    assert ek.nn.top_k is ek.top_k
