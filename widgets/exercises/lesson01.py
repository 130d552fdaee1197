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


def _collatz_steps(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def _starts(draw):
    return [(27,), (1,), (int(draw.rng.integers(2, 60)),), (int(draw.rng.integers(60, 400)),)]


def _tensor_ops_ran(fn, seen, args):
    if args[0] != 1 and not seen.ops:  # (from 1 there is no step to take)
        return [
            "the count is right, but no tensor op ran: the exercise is the loop of this "
            "lesson, on ek.constant(n)"
        ]
    return []


FunctionExercise(
    "1.2",
    "Collatz steps",
    reference=_collatz_steps,
    inputs=_starts,
    order=0,
    expect=Expect(kind="int", quote="as a Python int"),
    mechanism=_tensor_ops_ran,
    template="def collatz_steps(n): ...",
    hints=[
        "Copy the Collatz loop of this lesson, start it from ek.constant(n), and count one "
        "step per pass.",
        "Integer division keeps the tensor an integer; int(...) turns a count held in a "
        "scalar tensor into a Python int.",
    ],
)


def _softsign_inputs(draw):
    return [
        (np.array([-3.0, -1.0, -0.5, 0.0, 1.0, 2.0], np.float32),),  # 0: |x| has a kink
        (draw.floats((draw.size(1, 7),), -6.0, 6.0),),
        (draw.floats((2, 3)),),
        (np.float32(draw.floats((), -4.0, 4.0, avoid=(0.0,))),),
        (np.array([-90.0, 100.0], np.float32),),  # large |x|
    ]


FunctionExercise(
    "1.3",
    "Softsign",
    reference=lambda x: x / (1.0 + ek.abs(x)),
    inputs=_softsign_inputs,
    order=2,
    kinks={2: lambda x: [x == 0]},  # |x| has no second derivative at 0
    quantities={
        "|x|, the absolute value (for negative x too)": lambda x: ek.abs(x),
        "the denominator 1 + |x| (mind the brackets)": lambda x: 1.0 + ek.abs(x),
    },
    combined="your tape makes every piece the prompt names: check which divides which",
    template="def softsign(x): ...",
    hints=[
        "Elementwise, with ek ops: |x| is an op of its own.",
        "Mind the brackets: everything after the / is the denominator.",
    ],
)
