"""Gradient-check cases for session 7's ops: inverse trig, special functions, scatter_nd & co,
linalg.

Part of the table in tests/op_cases.py (which adds these to ``cases()``); the same rules
hold: float64 inputs from each op's domain, away from its edges (|x| < 1 for asin), kinks
and ties.
"""

import eagerkit as ek

ROWS = [[0], [2]]  # index tuples picking rows 0 and 2 of a [4, 2] tensor


def trig_cases(normal, positive, away_from_zero, distinct):
    def inside(*shape):
        """Values in (-0.8, 0.8): inside asin's, acos's and atanh's domain, off its edges."""
        return 0.8 * distinct(*shape) / 2.0

    return [
        ("asin", ek.math.asin, (inside(4),)),
        ("acos", ek.math.acos, (inside(4),)),
        ("atan", ek.math.atan, (normal(4),)),
        ("atan2", ek.math.atan2, (normal(2, 3), away_from_zero(3))),
        ("atan2/quadrants", ek.math.atan2, (away_from_zero(4), away_from_zero(4))),
        ("asinh", ek.math.asinh, (normal(4),)),
        ("acosh", ek.math.acosh, (positive(4, low=1.2, high=3.0),)),
        ("atanh", ek.math.atanh, (inside(4),)),
        ("lgamma", ek.math.lgamma, (positive(4, low=0.3, high=4.0),)),
        ("lgamma/negative", ek.math.lgamma, (-positive(4, low=0.2, high=0.8),)),
        ("digamma", ek.math.digamma, (positive(4, low=0.3, high=4.0),)),
        ("polygamma", lambda x: ek.math.polygamma(2.0, x), (positive(4, low=0.5, high=3.0),)),
        ("erfinv", ek.math.erfinv, (inside(4),)),
    ]


def scatter_cases(normal, positive, away_from_zero, distinct):
    return [
        ("scatter_nd", lambda u: ek.scatter_nd([[1], [3], [1]], u, [4, 2]), (normal(3, 2),)),
        ("gather_nd", lambda p: ek.gather_nd(p, [[1, 0], [0, 1], [1, 0]]), (normal(2, 2),)),
        (
            "tensor_scatter_nd_update",
            lambda t, u: ek.tensor_scatter_nd_update(t, ROWS, u),
            (normal(4, 2), normal(2, 2)),
        ),
        (
            "tensor_scatter_nd_add",
            lambda t, u: ek.tensor_scatter_nd_add(t, [[0, 1], [0, 1]], u),
            (normal(4, 2), normal(2)),
        ),
        (  # distinct values, the updates shifted off the grid: no ties (there g is split)
            "scatter_extreme",
            lambda t, u: ek.tensor_scatter_nd_max(t, [[0], [2], [0]], u + 0.05),
            (distinct(4, 2), distinct(3, 2)),
        ),
        (
            "tensor_scatter_nd_sub",
            lambda t, u: ek.tensor_scatter_nd_sub(t, ROWS, u),
            (normal(4, 2), normal(2, 2)),
        ),
    ]


def _squares(decomposition):
    """Each factor of a decomposition squared, flattened and joined: squares do not change
    when LAPACK flips the sign of a column (eigenvectors, q) and its partner row (r)."""

    def parts(*args):
        factors = decomposition(*args)
        return ek.concat([ek.reshape(f * f, [-1]) for f in factors], axis=0)

    return parts


def linalg_cases(normal, positive, away_from_zero, distinct):
    def well_conditioned(*shape):
        """A random square matrix (batch) plus 3 I: far from singular."""
        return normal(*shape) + 3.0 * ek.eye(shape[-1], dtype=ek.float64).numpy()

    qr = ek.linalg.qr
    return [
        ("eigh", _squares(ek.linalg.eigh), (distinct(3, 3),)),
        ("eigh/batch", _squares(ek.linalg.eigh), (distinct(2, 3, 3),)),
        ("linalg.eigvalsh", ek.linalg.eigvalsh, (distinct(3, 3),)),
        ("qr/tall", _squares(qr), (normal(4, 3),)),
        ("qr/square_full", _squares(lambda a: qr(a, full_matrices=True)), (normal(3, 3),)),
        ("qr/wide", _squares(qr), (normal(2, 3),)),
        ("qr/wide_full_batch", _squares(lambda a: qr(a, True)), (normal(2, 2, 4),)),
        ("log_abs_determinant", lambda a: ek.linalg.slogdet(a)[1], (well_conditioned(3, 3),)),
        (
            "log_abs_determinant/negative_batch",
            lambda a: ek.linalg.slogdet(-a)[1],
            (well_conditioned(2, 3, 3),),
        ),
        ("linalg.pinv", ek.linalg.pinv, (normal(3, 2),)),
        ("linalg.lstsq/tall", ek.linalg.lstsq, (normal(4, 2), normal(4, 1))),
        (
            "linalg.lstsq/wide_l2",
            lambda a, b: ek.linalg.lstsq(a, b, 0.5),
            (normal(2, 3), normal(2, 2)),
        ),
        (
            "linalg.lstsq/not_fast",
            lambda a, b: ek.linalg.lstsq(a, b, fast=False),
            (normal(3, 2), normal(3, 1)),
        ),
        ("linalg.cross", ek.linalg.cross, (normal(2, 3), normal(2, 3))),
    ]
