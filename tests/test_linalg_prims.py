"""ek.linalg's eigh, eigvalsh, qr, slogdet, pinv, lstsq and cross against numpy and TF's rules.

Values are compared with numpy on matrices hypothesis draws, edges included: repeated
eigenvalues (gradients stay finite, as TF's), singular matrices (slogdet's sign 0 and -inf,
pinv's dropped singular values), rank-deficient least squares. Central-difference checks to
second order live in the op census (tests/op_cases_prims.py).
"""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError, UnimplementedError

SETTINGS = settings(max_examples=25, deadline=None, database=None)
ENTRIES = st.integers(-4, 4).map(float)  # small whole numbers: ties and singular matrices occur


def matrices(rows=st.integers(1, 4), columns=None, batch=(0, 1)):
    """float64 matrices, maybe batched, with entries that make repeats and rank loss likely."""

    @st.composite
    def draw(draw_value):
        m = draw_value(rows)
        n = m if columns is None else draw_value(columns)
        lead = draw_value(hnp.array_shapes(min_dims=batch[0], max_dims=batch[1], max_side=2))
        return draw_value(hnp.arrays(np.float64, (*lead, m, n), elements=ENTRIES))

    return draw()


def _lower_symmetric(a):
    """The symmetric matrix eigh sees: a's lower triangle mirrored."""
    lower = np.tril(a)
    return lower + np.swapaxes(np.tril(a, -1), -1, -2)


@SETTINGS
@given(matrices())
def test_eigh_decomposes_the_lower_triangle_like_numpy(a):
    e, v = ek.linalg.eigh(a)
    symmetric = _lower_symmetric(a)
    np.testing.assert_allclose(e.numpy(), np.linalg.eigvalsh(symmetric), atol=1e-9)
    rebuilt = v.numpy() @ (e.numpy()[..., None] * np.swapaxes(v.numpy(), -1, -2))
    np.testing.assert_allclose(rebuilt, symmetric, atol=1e-9)
    np.testing.assert_allclose(ek.linalg.eigvalsh(a).numpy(), e.numpy())


def _gradient(function, value):
    variable = ek.Variable(ek.constant(value, dtype=ek.float64))
    with ek.GradientTape() as tape:
        y = function(variable)
    return tape.gradient(y, variable).numpy()


def test_repeated_eigenvalues_give_finite_gradients_as_tf():
    """eye(3) has one eigenvalue three times: the vectors' coupling terms are dropped."""
    a = np.diag([2.0, 2.0, 5.0])
    grad_values = _gradient(lambda x: ek.reduce_sum(ek.linalg.eigvalsh(x)), a)
    np.testing.assert_allclose(grad_values, np.eye(3))  # d trace / dA, on the lower triangle
    grad_vectors = _gradient(lambda x: ek.reduce_sum(ek.linalg.eigh(x)[1] ** 2 * [1, 2, 3]), a)
    assert np.isfinite(grad_vectors).all()


def test_eigh_gradient_lives_on_the_lower_triangle_the_forward_read():
    a = np.array([[2.0, 7.0], [1.0, 3.0]])  # 7 is never read
    grad = _gradient(lambda x: ek.linalg.eigvalsh(x)[1], a)
    assert grad[0, 1] == 0.0
    step = 1e-6  # the lower entry moves both symmetric entries
    bumped = a + np.array([[0.0, 0.0], [step, 0.0]])
    slope = (
        np.linalg.eigvalsh(_lower_symmetric(bumped))[1] - np.linalg.eigvalsh(_lower_symmetric(a))[1]
    ) / step
    assert grad[1, 0] == pytest.approx(slope, rel=1e-4)


@SETTINGS
@given(matrices(columns=st.integers(1, 4)), st.booleans())
def test_qr_multiplies_back_with_orthonormal_q_and_triangular_r(a, full):
    q, r = ek.linalg.qr(a, full_matrices=full)
    expected_q, expected_r = np.linalg.qr(a, mode="complete" if full else "reduced")
    assert q.shape == expected_q.shape and r.shape == expected_r.shape
    np.testing.assert_allclose(q.numpy() @ r.numpy(), a, atol=1e-9)
    gram = np.swapaxes(q.numpy(), -1, -2) @ q.numpy()
    np.testing.assert_allclose(gram, np.broadcast_to(np.eye(q.shape[-1]), gram.shape), atol=1e-9)
    np.testing.assert_array_equal(np.triu(r.numpy()), r.numpy())
    np.testing.assert_allclose(np.abs(r.numpy()), np.abs(expected_r), atol=1e-9)


def test_qr_gradient_of_a_tall_full_decomposition_is_refused_as_in_tf():
    with pytest.raises(UnimplementedError, match=r"full_matrices=True .* Use full_matrices=False"):
        _gradient(lambda x: ek.reduce_sum(ek.linalg.qr(x, full_matrices=True)[1]), np.ones((3, 2)))


@SETTINGS
@given(matrices(batch=(0, 2)))
def test_slogdet_matches_numpy_singular_matrices_included(a):
    sign, log_abs = ek.linalg.slogdet(a)
    expected_sign, expected_log = np.linalg.slogdet(a)
    np.testing.assert_array_equal(sign.numpy(), expected_sign)
    np.testing.assert_allclose(log_abs.numpy(), expected_log, atol=1e-9)


def test_slogdet_gradient_is_the_inverse_transpose_and_singular_input_is_named():
    a = np.array([[2.0, 1.0], [0.5, -3.0]])
    grad = _gradient(lambda x: ek.linalg.slogdet(x)[1], a)
    np.testing.assert_allclose(grad, np.linalg.inv(a).T)
    sign, log_abs = ek.linalg.slogdet([[1.0, 2.0], [2.0, 4.0]])
    assert float(sign) == 0.0 and float(log_abs) == -np.inf
    with pytest.raises(InvalidArgumentError, match="singular"):
        _gradient(lambda x: ek.linalg.slogdet(x)[1], [[1.0, 2.0], [2.0, 4.0]])


@SETTINGS
@given(matrices(columns=st.integers(1, 4), batch=(0, 2)))
def test_pinv_matches_numpy_rank_deficient_included(a):
    np.testing.assert_allclose(
        ek.linalg.pinv(a).numpy(),
        np.linalg.pinv(a, rcond=10 * max(a.shape[-2:]) * 2.2e-16),
        atol=1e-8,
    )


def test_pinv_drops_singular_values_below_rcond():
    a = np.diag([1.0, 1e-3])
    np.testing.assert_allclose(ek.linalg.pinv(a, rcond=1e-2).numpy(), np.diag([1.0, 0.0]))
    np.testing.assert_allclose(ek.linalg.pinv(a).numpy(), np.diag([1.0, 1e3]))


@SETTINGS
@given(st.data(), st.integers(1, 3))
def test_lstsq_fast_and_robust_agree_with_numpy_on_full_rank_problems(data, n):
    quarters = st.integers(-12, 12).map(lambda v: v / 4)  # no tiny entries: AᵀA stays normal
    a = data.draw(hnp.arrays(np.float64, (n + 2, n), elements=quarters))
    assume(np.linalg.cond(a) < 1e4)  # full column rank, well away from singular
    b = data.draw(hnp.arrays(np.float64, (n + 2, 2), elements=quarters))
    expected = np.linalg.lstsq(a, b, rcond=None)[0]
    np.testing.assert_allclose(ek.linalg.lstsq(a, b).numpy(), expected, atol=1e-8)
    np.testing.assert_allclose(ek.linalg.lstsq(a, b, fast=False).numpy(), expected, atol=1e-8)
    wide = a.T  # under-determined: the minimum-norm solution
    np.testing.assert_allclose(
        ek.linalg.lstsq(wide, b[:n]).numpy(), np.linalg.pinv(wide) @ b[:n], atol=1e-8
    )


def test_lstsq_fast_on_a_rank_deficient_matrix_points_to_fast_false():
    with pytest.raises(InvalidArgumentError, match=r"^lstsq: .*rank.*fast=False"):
        ek.linalg.lstsq([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]], [[1.0], [2.0], [3.0]])


def test_lstsq_regularizer_and_rank_deficient_matrices():
    a, b = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]]), np.array([[1.0], [2.0], [3.0]])
    np.testing.assert_allclose(  # rank 1: fast=False still gives numpy's minimum-norm answer
        ek.linalg.lstsq(a, b, fast=False).numpy(), np.linalg.lstsq(a, b, rcond=None)[0]
    )
    ridge = np.linalg.solve(a.T @ a + 0.5 * np.eye(2), a.T @ b)
    np.testing.assert_allclose(ek.linalg.lstsq(a, b, l2_regularizer=0.5).numpy(), ridge)


@SETTINGS
@given(
    hnp.arrays(np.float64, st.sampled_from([(3,), (2, 3), (2, 1, 3)]), elements=ENTRIES), st.data()
)
def test_cross_matches_numpy(a, data):
    b = data.draw(hnp.arrays(np.float64, a.shape, elements=ENTRIES))
    np.testing.assert_array_equal(ek.linalg.cross(a, b).numpy(), np.cross(a, b))


@pytest.mark.parametrize(
    ("call", "pattern"),
    [
        (lambda: ek.linalg.eigh(np.ones((2, 3))), r"eigh: input must be a square matrix"),
        (lambda: ek.linalg.eigvalsh([1.0, 2.0]), r"eigh: tensor must be a float matrix"),
        (lambda: ek.linalg.slogdet(np.ones((2, 3))), r"^slogdet: input must be a square"),
        (lambda: ek.linalg.qr([1.0, 2.0]), r"qr: input must be a float matrix"),
        (lambda: ek.linalg.pinv([1.0, 2.0]), r"pinv: a must be a float matrix"),
        (
            lambda: ek.linalg.lstsq(np.ones((3, 2)), np.ones((2, 1))),
            r"rhs must be \[\.\.\., 3, k\]",
        ),
        (lambda: ek.linalg.lstsq(np.ones((3, 2)), np.ones(3)), r"rhs must be a float matrix"),
        (lambda: ek.linalg.cross([1.0, 2.0], [3.0, 4.0]), r"cross: a and b must have one shape"),
        (
            lambda: ek.linalg.eigh(ek.constant([[1, 2], [3, 4]])),
            r"eigh: tensor must be a float matrix .*int32",
        ),
    ],
)
def test_bad_inputs_raise_eagerkit_errors_naming_the_call(call, pattern):
    with pytest.raises(InvalidArgumentError, match=pattern):
        call()
