"""SparseTensor beyond the guide: it stands for the dense tensor ``to_dense`` gives, and the
sparse ops agree with the dense ones, gradients included (w.r.t. the dense operand of a
product and the sparse values)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

FAST = settings(max_examples=30, deadline=None, derandomize=True)
sparse_matrices = hnp.arrays(
    np.float64,
    st.tuples(st.integers(1, 4), st.integers(1, 4)),
    elements=st.sampled_from([0.0, 0.0, 1.5, -2.0, 3.0]),
)


@FAST
@given(sparse_matrices, st.integers(1, 3), st.data())
def test_sparse_dense_matmul_and_its_gradients_agree_with_matmul(dense_a, columns, data):
    b_values = data.draw(
        hnp.arrays(np.float64, (dense_a.shape[1], columns), elements=st.floats(-3, 3))
    )
    st_a = ek.sparse.from_dense(dense_a)
    assert ek.sparse.to_dense(st_a).numpy().tolist() == dense_a.tolist()
    b = ek.Variable(b_values)
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(st_a.values)
        sparse_product = ek.sparse.sparse_dense_matmul(st_a, b)
        dense_product = ek.matmul(ek.constant(dense_a), b)
        weights = ek.constant(
            np.arange(1.0, 1 + sparse_product.numpy().size).reshape(sparse_product.shape)
        )
        loss = ek.reduce_sum(sparse_product * weights)
    np.testing.assert_allclose(sparse_product.numpy(), dense_product.numpy(), atol=1e-12)
    grad_b = tape.gradient(loss, b).numpy()
    np.testing.assert_allclose(grad_b, dense_a.T @ weights.numpy(), atol=1e-12)
    # d loss / d value k = weights[row_k] . b[col_k]
    rows, cols = st_a.indices.numpy().T
    expected = np.einsum("kj,kj->k", weights.numpy()[rows], b_values[cols])
    np.testing.assert_allclose(tape.gradient(loss, st_a.values).numpy(), expected, atol=1e-12)
    adjoint = ek.sparse.sparse_dense_matmul(ek.sparse.from_dense(dense_a.T), b, adjoint_a=True)
    np.testing.assert_allclose(adjoint.numpy(), dense_product.numpy(), atol=1e-12)


@FAST
@given(sparse_matrices, sparse_matrices)
def test_add_reorder_and_reductions_agree_with_dense(a, b):
    if a.shape != b.shape:
        with pytest.raises(InvalidArgumentError, match="shapes differ"):
            ek.sparse.add(ek.sparse.from_dense(a), ek.sparse.from_dense(b))
        return
    total = ek.sparse.add(ek.sparse.from_dense(a), ek.sparse.from_dense(b))
    assert ek.sparse.to_dense(total).numpy().tolist() == (a + b).tolist()
    assert (
        ek.sparse.add(ek.sparse.from_dense(a), ek.constant(b)).numpy().tolist() == (a + b).tolist()
    )
    shuffled = ek.sparse.from_dense(a)
    order = np.arange(shuffled.indices.shape[0])[::-1]
    reversed_st = ek.sparse.SparseTensor(
        shuffled.indices.numpy()[order], ek.gather(shuffled.values, order), shuffled.dense_shape
    )
    assert (
        ek.sparse.reorder(reversed_st).indices.numpy().tolist() == shuffled.indices.numpy().tolist()
    )
    assert ek.sparse.reduce_sum(shuffled).numpy() == a.sum()
    assert ek.sparse.reduce_sum(shuffled, axis=1).numpy().tolist() == a.sum(axis=1).tolist()
    transposed = ek.sparse.to_dense(ek.sparse.transpose(shuffled)).numpy()
    assert transposed.tolist() == a.T.tolist()


def test_to_dense_passes_gradients_to_the_values_and_the_default():
    values = ek.Variable([2.0, 3.0])
    fill = ek.Variable(0.5)
    with ek.GradientTape() as tape:
        dense = ek.sparse.to_dense(ek.sparse.SparseTensor([[0, 1], [1, 0]], values, [2, 3]), fill)
        loss = ek.reduce_sum(dense * [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    grad_values, grad_fill = tape.gradient(loss, [values, fill])
    assert grad_values.numpy().tolist() == [2.0, 4.0]
    assert grad_fill.numpy() == 1.0 + 3.0 + 5.0 + 6.0


def test_sparse_refuses_what_does_not_fit_with_clear_errors():
    with pytest.raises(InvalidArgumentError, match="inside dense_shape"):
        ek.sparse.SparseTensor([[0, 5]], [1.0], [2, 3])
    with pytest.raises(InvalidArgumentError, match="one value per index"):
        ek.sparse.SparseTensor([[0, 1]], [1.0, 2.0], [2, 3])
    with pytest.raises(InvalidArgumentError, match="each index must have 2 coordinates"):
        ek.sparse.SparseTensor([[0, 1, 2]], [1.0], [2, 3])
    with pytest.raises(InvalidArgumentError, match="appears twice"):
        ek.sparse.to_dense(ek.sparse.SparseTensor([[0, 1], [0, 1]], [1.0, 2.0], [2, 3]))
    with pytest.raises(InvalidArgumentError, match="inner dimensions differ"):
        ek.sparse.sparse_dense_matmul(ek.sparse.from_dense([[1.0, 0.0]]), ek.ones([3, 1]))
    with pytest.raises(InvalidArgumentError, match="expected an ek.sparse.SparseTensor"):
        ek.sparse.to_dense([[1.0]])
    st_ = ek.sparse.from_dense([[1.0, 0.0], [0.0, 2.0]])
    assert ek.sparse.to_dense(st_ * 3).numpy().tolist() == [[3.0, 0.0], [0.0, 6.0]]
    assert ek.sparse.to_dense(st_ * [[1.0, 1.0], [1.0, -1.0]]).numpy().tolist() == [
        [1.0, 0],
        [0, -2.0],
    ]
