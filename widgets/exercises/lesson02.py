"""Lesson 02 (the tape): gradients by hand through a fan-out, and reading a tape."""

import eagerkit as ek

from .exercise import FunctionExercise, ValueExercise

ValueExercise(
    "2.1",
    "The sweep by hand",
    expected=lambda: [3.0, 8.0],
    items=["df/da", "df/db"],
    reveal=False,
    hints=[
        "Draw the tape: s = add(a, b), then f = multiply(s, b). b is used twice: fan-out.",
        "The sweep starts with df/df = 1. multiply sends b to s and s to b; add passes its "
        "gradient on to both inputs unchanged.",
        "b's gradient is the sum of what reaches it along both of its uses.",
    ],
)

FunctionExercise(
    "2.2",
    "Logistic, op by op",
    reference=lambda x: 1.0 / (1.0 + ek.exp(-x)),
    inputs=[([-2.0, 0.0, 1.5],)],
    order=2,
    hints=[
        "logistic(x) = 1 / (1 + e^(-x)): four ops, negative, exp, add and divide.",
        "Check the sign inside the exponential.",
    ],
)
