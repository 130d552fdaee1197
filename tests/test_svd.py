"""ek.linalg.svd (TF's signature and output order) and the matrix 2-norm built on it.

Gradients to second order are checked in tests/test_ops_grad.py (the op-case table); here:
values against numpy, gradients against central differences of numpy's SVD, TF's answer for
repeated singular values, and the errors.
"""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError, UnimplementedError

rng = np.random.default_rng(7)


@pytest.mark.parametrize("shape", [(3, 3), (2, 5), (5, 2), (2, 4, 3)])
@pytest.mark.parametrize("full_matrices", [False, True])
def test_svd_rebuilds_the_matrix_with_tfs_shapes_and_order(shape, full_matrices):
    a = rng.standard_normal(shape)
    s, u, v = ek.linalg.svd(a, full_matrices=full_matrices)
    m, n = shape[-2:]
    k = min(m, n)
    batch = shape[:-2]
    assert s.shape == (*batch, k)
    assert u.shape == (*batch, m, m if full_matrices else k)
    assert v.shape == (*batch, n, n if full_matrices else k)
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(a, compute_uv=False), rtol=1e-12)
    assert np.all(np.diff(s.numpy(), axis=-1) <= 0)  # descending
    u_k, v_k = u.numpy()[..., :k], v.numpy()[..., :k]
    rebuilt = np.matmul(u_k * s.numpy()[..., None, :], np.swapaxes(v_k, -1, -2))
    np.testing.assert_allclose(rebuilt, a, atol=1e-12)  # a = u diag(s) v^T: v, not vh
    for q in (u.numpy(), v.numpy()):  # orthonormal columns
        eye = np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2)
        np.testing.assert_allclose(np.matmul(np.swapaxes(q, -1, -2), q), eye, atol=1e-12)


def test_svd_keeps_float32_and_compute_uv_false_gives_only_s():
    s = ek.linalg.svd(ek.constant([[1.0, 2.0], [3.0, 4.0]]), compute_uv=False)
    assert isinstance(s, ek.Tensor) and s.dtype == ek.float32
    np.testing.assert_allclose(s.numpy(), [5.4649857, 0.36596619], rtol=1e-6)


def test_the_matrix_two_norm_is_the_largest_singular_value():
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    for axis in ([1, 2], [2, 0], [-1, -2]):
        expected = np.linalg.norm(x, ord=2, axis=tuple(axis), keepdims=True)
        got = ek.norm(x, ord=2, axis=axis, keepdims=True)
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-5)
        assert ek.linalg.norm(x, ord=2, axis=axis).shape == np.squeeze(expected).shape
    assert float(ek.norm(np.zeros((0, 3), np.float32), ord=2, axis=[0, 1])) == 0.0


def test_the_two_norms_gradient_is_the_outer_product_of_the_top_singular_vectors():
    a = ek.constant(rng.standard_normal((3, 4)))
    with ek.GradientTape() as tape:
        tape.watch(a)
        y = ek.norm(a, ord=2, axis=[0, 1])
    u, _, vh = np.linalg.svd(a.numpy())
    np.testing.assert_allclose(tape.gradient(y, a).numpy(), np.outer(u[:, 0], vh[0]), atol=1e-12)


def test_repeated_singular_values_give_tfs_finite_gradient():
    # diag(2, 2, 1): the vectors of the two equal values are not unique; like TF, the terms
    # that would divide by s_i^2 - s_j^2 = 0 are dropped (PyTorch gives inf/NaN instead).
    a = ek.constant(np.diag([2.0, 2.0, 1.0]))
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(a)
        s, u, v = ek.linalg.svd(a)
        through_s = ek.reduce_sum(s)
        through_vectors = ek.reduce_sum(u * u * [1.0, 2.0, 3.0]) + ek.reduce_sum(v[0] * 3.0)
    np.testing.assert_allclose(tape.gradient(through_s, a).numpy(), np.eye(3), atol=1e-12)
    assert np.all(np.isfinite(tape.gradient(through_vectors, a).numpy()))


def _loss(svd_parts, weights, total):
    """A sign-invariant loss using s, u and v (so any library's signs give one answer)."""
    s, u, v = svd_parts
    return total(s * weights[0]) + total(u * u * weights[1]) + total(v * v * weights[2])


@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (2, 5, 3)])
def test_svd_gradients_match_central_differences(shape):
    # The loss uses s, u and v through squares only, so the signs an SVD chooses do not matter
    # and numpy's SVD, nudged one entry at a time, is an independent reference.
    a = rng.standard_normal(shape)
    k = min(shape[-2:])
    s0, u0, v0 = (t.numpy() for t in ek.linalg.svd(a))
    weights = [rng.standard_normal(part.shape) for part in (s0, u0, v0)]
    x = ek.constant(a)
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = _loss(ek.linalg.svd(x), [ek.constant(w) for w in weights], ek.reduce_sum)
    ours = tape.gradient(y, x).numpy()

    def numpy_loss(b):
        u, s, vh = np.linalg.svd(b, full_matrices=False)
        return _loss((s, u[..., :k], np.swapaxes(vh, -1, -2)[..., :k]), weights, np.sum)

    step, expected = 1e-6, np.zeros_like(a)
    for index in np.ndindex(a.shape):
        nudge = np.zeros_like(a)
        nudge[index] = step
        expected[index] = (numpy_loss(a + nudge) - numpy_loss(a - nudge)) / (2 * step)
    np.testing.assert_allclose(ours, expected, rtol=1e-6, atol=1e-6)


def test_svd_errors_name_the_problem():
    with pytest.raises(InvalidArgumentError, match=r"svd: input must be a matrix .* shape \(3,\)"):
        ek.linalg.svd([1.0, 2.0, 3.0])
    with pytest.raises(InvalidArgumentError, match="svd: no kernel for dtype int32"):
        ek.linalg.svd([[1, 2], [3, 4]])
    with pytest.raises(InvalidArgumentError, match="svd: the decomposition failed .* NaN or Inf"):
        ek.linalg.svd([[np.nan, 1.0], [1.0, 1.0]])
    x = ek.constant(rng.standard_normal((2, 5)))
    with ek.GradientTape() as tape:
        tape.watch(x)
        _, u, _ = ek.linalg.svd(x, full_matrices=True)
    with pytest.raises(UnimplementedError, match=r"full_matrices=True .* \(\|m - n\| <= 1"):
        tape.gradient(u, x)
