"""Lesson 14 (performance): a loop of small ops batched; an ek.function traced once."""

import numpy as np

import eagerkit as ek

from .compare import Expect
from .exercise import ValueExercise, student_code
from .function_exercise import FunctionExercise
from .observe import Observation


def _batched(fn, seen, args):
    """The number of ops must not grow with the number of rows (it does in a loop)."""
    (x,) = args
    bigger = ek.concat([x, x, x], axis=0)
    more = Observation()
    with student_code("in row_norms on a batch three times as tall"), more.watching():
        fn(bigger)
    few, many = len(seen.ops), len(more.ops)
    if many > few:
        rows = x.shape[0]
        return [
            f"the values and gradients are right, but your function runs {few} ops for "
            f"{rows} rows and {many} for {3 * rows}: the work is done row by row; batched, "
            "the number of ops stays the same whatever the number of rows"
        ]
    return []


FunctionExercise(
    "14.1",
    "Row norms without a loop",
    reference=lambda x: ek.sqrt(ek.reduce_sum(x * x, axis=1)),
    inputs=lambda draw: [
        (np.array([[3.0, 4.0], [1.0, 2.0], [0.5, -0.5]], np.float32),),
        (draw.floats((draw.size(2, 9), draw.size(1, 4)), avoid=(0.0,)),),
        (draw.floats((1, 3), avoid=(0.0,)),),  # a batch of one
    ],
    mechanism=_batched,
    expect=Expect(exact_shape=True, quote="the same values and gradients"),
    quantities={
        "the sum of the squares of each row (over axis 1)": lambda x: ek.reduce_sum(x * x, axis=1)
    },
    combined="your tape makes each row's sum of squares: a norm is its square root (sqrt)",
    template="def row_norms(x): ...",
    hints=[
        "One op can square every element of the batch at once.",
        "The reductions take an axis: one call can sum every row.",
    ],
)

ValueExercise(
    "14.2",
    "Trace once",
    expected=lambda: (ek.constant([1.0, 2.0]) - 0.5 * sum(0.1 / (k + 1) for k in range(5)), 1),
    items=["the resulting value of w", "scaled_update.trace_count"],
    placeholder=(..., 0),
    hints=[
        "Print scaled_update.trace_count after the loop: why does it grow at each step?",
        "A Python float is part of the input signature, its value included; a tensor is "
        "traced by its shape and dtype only.",
    ],
)
