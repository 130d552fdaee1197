"""Gradient-check cases for session 7's ops: inverse trig, the scatter_nd family, linalg.

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
        (
            "tensor_scatter_nd_sub",
            lambda t, u: ek.tensor_scatter_nd_sub(t, ROWS, u),
            (normal(4, 2), normal(2, 2)),
        ),
    ]
