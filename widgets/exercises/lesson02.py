"""Lesson 02 (the tape): gradients by hand through a fan-out, and reading a tape."""

import numpy as np

import eagerkit as ek

from .exercise import ValueExercise
from .function_exercise import FunctionExercise

ValueExercise(
    "2.1",
    "The sweep by hand",
    expected=lambda: [3.0, 8.0],
    items=["df/da", "df/db"],
    placeholder=[..., ...],
    hints=[
        "Draw the tape: one add, then one multiply. b is used twice: fan-out.",
        "The sweep starts with df/df = 1, and each op sends its gradient to its inputs "
        "through its VJP (multiply sends each input the other one, times g).",
        "b's gradient is the sum of what reaches it along both of its uses.",
    ],
)


def _logistic_inputs(draw):
    return [
        (np.array([-2.0, 0.0, 1.5], np.float32),),
        (draw.floats((draw.size(1, 6),), -6.0, 6.0),),
        (draw.floats((2, 2), -4.0, 4.0),),
    ]


FunctionExercise(
    "2.2",
    "Logistic, op by op",
    reference=lambda x: 1.0 / (1.0 + ek.exp(-x)),
    inputs=_logistic_inputs,
    order=2,
    template="def logistic(x): ...",
    hints=[
        "Four ops: a negation, an exponential, an addition and a division.",
        "Check the sign inside the exponential: the curve must rise from 0 to 1.",
    ],
)
