"""Lesson 01 (hello, eager): tensors and dtypes, Python control flow, a first gradient."""

import numpy as np

import eagerkit as ek

from .compare import Expect
from .exercise import ValueExercise
from .function_exercise import FunctionExercise

ValueExercise(
    "1.1",
    "Your first tensor",
    expected=lambda: ek.constant(np.arange(6, dtype=np.float32).reshape(2, 3)),
    expect=Expect(kind="tensor", dtype="float32", quote="the same tensor in float32"),
    hints=[
        "The line below the exercise gives int32 because of the numbers it is made of.",
        "What does ek.constant infer from a Python float, and what can it be told instead?",
    ],
)

ValueExercise(
    "1.2",
    "Collatz from 27",
    expected=lambda: 111,
    expect=Expect(kind="int", quote="store the count, a Python int, in steps"),
    hints=[
        "Copy the Collatz loop of this lesson and start it from ek.constant(27).",
        "Count one step per pass through the loop; int(...) turns a scalar tensor into a "
        "Python int.",
    ],
)


def _softsign_inputs(draw):
    return [
        (np.array([-3.0, -0.5, 0.0, 2.0], np.float32),),  # 0, where |x| has its kink
        (draw.floats((draw.size(1, 7),), -6.0, 6.0),),
        (draw.floats((2, 3)),),
        (np.float32(draw.floats((), -4.0, 4.0, avoid=(0.0,))),),
    ]


FunctionExercise(
    "1.3",
    "Softsign",
    reference=lambda x: x / (1.0 + ek.abs(x)),
    inputs=_softsign_inputs,
    order=2,
    kinks={2: lambda x: [x == 0]},  # |x| has no second derivative at 0
    template="def softsign(x): ...",
    hints=[
        "Elementwise, with ek ops: |x| is an op of its own.",
        "Mind the brackets: everything after the / is the denominator.",
    ],
)
