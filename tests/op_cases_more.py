"""Gradient-check cases for the ops TF users reach for (einsum, linalg, scans, sorting, ...).

Part of the table in tests/op_cases.py (which adds these to ``cases()``); the same rules
hold: float64 inputs from each op's domain, away from kinks and ties.
"""

import numpy as np

import eagerkit as ek
from eagerkit.registry import REGISTRY

_untake = REGISTRY["untake_along_axis"].call
_unrepeat = REGISTRY["unrepeat"].call


def _spd(a):
    """A symmetric positive definite matrix made from any square ``a`` (for cholesky)."""
    return ek.matmul(a, a, transpose_b=True) + 3.0 * ek.eye(a.shape[-1], dtype=ek.float64)


def elementwise_cases(normal, positive, away_from_zero, distinct):
    return [
        ("sinh", ek.sinh, (normal(3),)),
        ("cosh", ek.cosh, (normal(3),)),
        ("expm1", ek.expm1, (normal(3),)),
        ("log2", ek.log2, (positive(3),)),
        ("log10", ek.log10, (positive(3),)),
        ("logaddexp", ek.logaddexp, (normal(2, 3), normal(3))),
        ("erf", ek.math.erf, (normal(4),)),
        ("nn.gelu/approximate", lambda x: ek.nn.gelu(x, approximate=True), (normal(4),)),
        ("norm", ek.norm, (normal(2, 3),)),
        ("norm/ord1_axis", lambda x: ek.norm(x, ord=1, axis=1), (away_from_zero(2, 3),)),
        ("norm/p3", lambda x: ek.norm(x, ord=3, axis=0, keepdims=True), (away_from_zero(2, 3),)),
        ("norm/matrix_inf", lambda x: ek.norm(x, ord=np.inf, axis=[0, 1]), (distinct(3, 3),)),
        ("reduce_variance", lambda x: ek.reduce_variance(x, axis=1), (normal(2, 3),)),
        ("reduce_std", lambda x: ek.reduce_std(x, keepdims=True), (normal(2, 3),)),
        ("reduce_prod/axes", lambda x: ek.reduce_prod(x, axis=[0, 2]), (away_from_zero(2, 3, 2),)),
    ]


def _svd_squares(full_matrices=False):
    """s, u**2 and v**2 side by side: squares do not change when a singular vector flips sign
    (LAPACK and cuSOLVER may pick different signs), yet every part of the VJP is used."""

    def parts(a):
        s, u, v = ek.linalg.svd(a, full_matrices=full_matrices)
        return ek.concat([ek.reshape(t, [-1]) for t in (s, u * u, v * v)], axis=0)

    return parts


def _diagonal_gradient(a, b):
    """The gradient of einsum 'ii->i' (g put back on a diagonal), recorded as an op itself."""
    with ek.GradientTape() as tape:
        tape.watch(a)
        y = ek.reduce_sum(ek.einsum("ii->i", a * a) * b)
    return tape.gradient(y, a)


def linalg_cases(normal, positive, away_from_zero, distinct):
    well_conditioned = normal(3, 3) * 0.3 + 2.0 * np.eye(3)
    return [
        ("einsum", lambda a, b: ek.einsum("ij,jk->ik", a, b), (normal(2, 3), normal(3, 2))),
        ("einsum/summed_letter", lambda a: ek.einsum("ijk->i", a), (normal(2, 3, 2),)),
        (
            "einsum/ellipsis_broadcast",
            lambda a, b: ek.einsum("...ij,...j", a, b),
            (normal(2, 2, 3), normal(1, 3)),
        ),
        ("einsum/outer", lambda a, b: ek.einsum("i,j", a, b), (normal(3), normal(2))),
        ("einsum/diagonal", lambda a: ek.einsum("ii->i", a), (normal(3, 3),)),
        ("einsum/trace", lambda a: ek.einsum("ii->", a), (normal(3, 3),)),
        ("einsum/batch_diagonal", lambda a: ek.einsum("bxby->bxy", a), (normal(2, 3, 2, 2),)),
        (
            "einsum/diagonal_and_product",
            lambda a, b: ek.einsum("ii,i->i", a, b),
            (normal(3, 3), normal(3)),
        ),
        ("einsum/diagonal_vjp", _diagonal_gradient, (normal(3, 3), normal(3))),
        ("matrix_inverse", ek.matrix_inverse, (well_conditioned,)),
        ("matrix_determinant", ek.matrix_determinant, (normal(2, 3, 3),)),
        ("matrix_solve", ek.matrix_solve, (well_conditioned, normal(3, 2))),
        (
            "matrix_solve/adjoint",
            lambda a, b: ek.matrix_solve(a, b, adjoint=True),
            (well_conditioned, normal(3, 2)),
        ),
        ("cholesky", lambda a: ek.cholesky(_spd(a)), (normal(3, 3),)),
        ("svd", lambda a: ek.linalg.svd(a, compute_uv=False), (normal(3, 2),)),
        ("svd/vectors_wide", _svd_squares(), (normal(2, 4),)),
        ("svd/vectors_tall_batch", _svd_squares(), (normal(2, 4, 3),)),
        ("svd/vectors_square", _svd_squares(), (normal(3, 3),)),
        ("svd/full_matrices", _svd_squares(full_matrices=True), (normal(3, 2),)),
        ("norm/matrix_2", lambda x: ek.norm(x, ord=2, axis=[-1, 0]), (normal(3, 4),)),
        ("band_part", lambda x: ek.matrix_band_part(x, 1, 0), (normal(2, 3, 3),)),
        ("matrix_diag", ek.matrix_diag, (normal(2, 3),)),
        ("matrix_diag_part", ek.matrix_diag_part, (normal(3, 2),)),
        ("trace", ek.trace, (normal(2, 3, 3),)),
    ]


def rearrange_cases(normal, positive, away_from_zero, distinct):
    ids = np.array([1, 0, 1, -1])  # a repeat (adds up) and a dropped row
    picks = np.array([[2, 0], [1, 1]])
    return [
        ("cumsum", lambda x: ek.cumsum(x, axis=1), (normal(2, 3),)),
        ("cumsum/exclusive_reverse", lambda x: ek.cumsum(x, 0, True, True), (normal(3, 2),)),
        ("cumprod", lambda x: ek.cumprod(x, axis=-1), (away_from_zero(2, 3),)),
        ("cumprod/exclusive", lambda x: ek.cumprod(x, exclusive=True), (away_from_zero(3),)),
        ("pad", lambda x: ek.pad(x, [[1, 0], [2, 1]], constant_values=3.0), (normal(2, 3),)),
        ("pad/reflect", lambda x: ek.pad(x, [[2, 2]], mode="REFLECT"), (normal(4),)),
        ("pad/symmetric", lambda x: ek.pad(x, [[0, 1], [3, 0]], "SYMMETRIC"), (normal(2, 3),)),
        ("roll", lambda x: ek.roll(x, [1, -2], [0, 1]), (normal(2, 3),)),
        ("repeat", lambda x: ek.repeat(x, [2, 0, 1], axis=1), (normal(2, 3),)),
        ("repeat/flat", lambda x: ek.repeat(x, 2), (normal(2, 2),)),
        ("unrepeat", lambda g: _unrepeat(g, repeats=2, axis=0, length=2), (normal(4, 2),)),
        ("sort", lambda x: ek.sort(x, axis=0, direction="DESCENDING"), (distinct(3, 2),)),
        ("top_k", lambda x: ek.top_k(x, k=2).values, (distinct(2, 4),)),
        (
            "untake_along_axis",
            lambda g: _untake(g, picks, shape=(2, 3), axis=1),
            (normal(2, 2),),
        ),
        (
            "unsorted_segment_sum",
            lambda x: ek.unsorted_segment_sum(x, ids, num_segments=3),
            (normal(4, 2),),
        ),
        ("segment_sum", lambda x: ek.segment_sum(x, [0, 0, 2]), (normal(3),)),
    ]


def image_cases(normal, positive, away_from_zero, distinct):
    """ek.image: compositions (gather, slices, pads, reductions), checked end to end."""
    return [
        ("image.resize/bilinear_up", lambda x: ek.image.resize(x, [5, 7]), (normal(1, 3, 4, 2),)),
        ("image.resize/bilinear_down", lambda x: ek.image.resize(x, [2, 3]), (normal(5, 7, 1),)),
        (
            "image.resize/nearest",
            lambda x: ek.image.resize(x, [5, 3], "nearest"),
            (normal(2, 3, 2, 1),),
        ),
        ("image.rot90", lambda x: ek.image.rot90(x, 3), (normal(2, 3, 2, 1),)),
        ("image.flip_left_right", ek.image.flip_left_right, (normal(3, 2, 2),)),
        (
            "image.resize_with_crop_or_pad",
            lambda x: ek.image.resize_with_crop_or_pad(x, 2, 5),
            (normal(4, 3, 2),),
        ),
        ("image.central_crop", lambda x: ek.image.central_crop(x, 0.5), (normal(2, 4, 4, 1),)),
        ("image.adjust_contrast", lambda x: ek.image.adjust_contrast(x, 1.7), (normal(2, 3, 2),)),
        (
            "image.adjust_brightness",
            lambda x: ek.image.adjust_brightness(x, 0.3),
            (normal(2, 2, 1),),
        ),
        ("image.per_image_standardization", ek.image.per_image_standardization, (normal(3, 2, 2),)),
        ("image.rgb_to_grayscale", ek.image.rgb_to_grayscale, (normal(2, 2, 3),)),
    ]


def complex_cases(normal, positive, away_from_zero, distinct):
    """Real functions of real inputs through complex numbers: every complex primitive, in
    both directions (tests/test_complex.py checks complex inputs against TF's convention)."""
    z = ek.complex  # float64 parts: complex128
    return [
        ("complex", lambda a, b: ek.abs(z(a, b)), (away_from_zero(3), normal(3))),
        ("real", lambda a, b: ek.math.real(z(a, b) * z(a, b)), (normal(3), normal(3))),
        ("imag", lambda a, b: ek.math.imag(ek.exp(z(a, b))), (normal(3), normal(3))),
        (
            "conj",
            lambda a, b: ek.math.real(ek.math.conj(z(a, b)) * z(b, a)),
            (normal(3), normal(3)),
        ),
        ("angle", lambda a, b: ek.math.angle(z(a, b)), (positive(3), normal(3))),
    ]
