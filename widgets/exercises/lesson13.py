"""Lesson 13 (debugging): a shape error fixed, a gradient kept finite, the op a NaN starts at."""

import eagerkit as ek

from .exercise import FunctionExercise, ValueExercise

FunctionExercise(
    "13.1",
    "Scores of the right shape",
    reference=lambda images, weights: ek.matmul(images, weights, transpose_b=True),
    inputs=[
        (
            [[1.0, 0.0, 2.0, -1.0], [0.5, 1.0, 0.0, 3.0]],
            [[1.0, 2.0, 0.0, 1.0], [0.0, -1.0, 1.0, 0.5], [2.0, 0.0, 0.0, 1.0]],
        )
    ],
    hints=[
        "Read the error from the bottom: which op, which shapes, and what it suggests.",
        "images is [examples, features] and weights is [classes, features]: the features "
        "must meet in the middle of the matmul.",
    ],
)

ValueExercise(
    "13.3",
    "Where the NaN is born",
    expected=lambda: "sqrt",
    reveal=False,
    hints=[
        "Turn on ek.debugging.enable_check_numerics(), call spread once, and read the "
        "first line of the error (turn it off again afterwards).",
        "The answer is the op's name as a string, as the error quotes it.",
    ],
)


def _safe_root_or_zero(x):
    positive = x > 0
    return ek.where(positive, ek.sqrt(ek.where(positive, x, 1.0)), 0.0)


FunctionExercise(
    "13.2",
    "A root whose gradient stays finite",
    reference=_safe_root_or_zero,
    inputs=[([-1.0, 0.0, 0.25, 4.0],)],
    hints=[
        "The value of root_or_zero is already right; its gradient is NaN at 0 and -1.",
        "No NaN or inf may exist anywhere, even in the branch where is not taking: "
        "what could sqrt be given instead of x where x <= 0?",
    ],
)
