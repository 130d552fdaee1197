"""Lesson 01 (hello, eager): tensors and dtypes, Python control flow, a first gradient."""

import eagerkit as ek

from .exercise import FunctionExercise, ValueExercise

ValueExercise(
    "1.1",
    "Your first tensor",
    expected=lambda: ek.constant([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]),
    hints=[
        "Two rows of three numbers: a nested Python list gives the shape.",
        "Which dtype does ek.constant give a Python int? And a Python float?",
    ],
)

ValueExercise(
    "1.2",
    "Collatz from 27",
    expected=lambda: 111,
    reveal=False,
    hints=[
        "Copy the Collatz loop of this lesson and start it from ek.constant(27).",
        "Count one step per pass through the loop; the answer is a Python int "
        "(int(...) turns a scalar tensor into one).",
    ],
)

FunctionExercise(
    "1.3",
    "Softsign",
    reference=lambda x: x / (1.0 + ek.abs(x)),
    inputs=[([-3.0, -0.5, 0.0, 2.0],)],
    order=2,
    hints=[
        "softsign(x) = x / (1 + |x|), elementwise: ek.abs gives |x|.",
        "Mind the brackets: the whole of 1 + |x| is the denominator.",
    ],
)
