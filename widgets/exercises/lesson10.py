"""Lesson 10 (graph mode): one trace for every length, a sign that stays right once traced."""

import numpy as np

import eagerkit as ek

from .answer_values import float_values
from .compare import differences, short_value
from .exercise import CustomExercise, student_code
from .function_exercise import FunctionExercise
from .text import number


def _judge_poly(poly, draw):
    if not callable(poly):
        return [f"a function is expected, got {type(poly).__name__}"]
    before = getattr(poly, "trace_count", None)
    lengths = draw.rng.choice(np.arange(1, 13), 3, replace=False)
    for index, n in enumerate(lengths):
        x = draw.floats((int(n),))
        with student_code(f"in poly(x) with x of length {n}"):
            got = poly(ek.constant(x))
        problems = differences(
            got,
            ek.constant(3 * x * x + 2 * x + 1),
            what=f"the values of poly(x) with x = {short_value(x)}",
        )
        if problems and index:
            return problems + [
                "it was right for the first length: a value computed while tracing (with "
                "numpy, or a Python number) is frozen into the trace; use ek ops only"
            ]
        if problems:
            return problems + ["check each coefficient of 3x² + 2x + 1"]
    if before is None:
        return ["poly is not an ek.function: the exercise is about how often it traces"]
    traced = poly.trace_count - before
    if traced > 1:
        return [
            f"poly traced {traced} times for vectors of 3 lengths "
            f"({', '.join(map(str, lengths))}); one trace is expected for every length"
        ]
    return []


_POLY = CustomExercise(
    "10.1",
    "One trace for every length",
    judge=_judge_poly,
    hints=[
        "Each new shape traces again, unless the function is told up front what it accepts.",
        "ek.TensorSpec describes the accepted tensors; None in a shape means any size.",
    ],
)
_POLY.answer_name = "poly"  # what the check cell passes: not the wrapped function's name


def _signs(draw):
    n = draw.size(3, 6)
    negative = -draw.positive((n,))
    negative[draw.rng.integers(n)] = 0.0  # 0 is not > 0: -1 there
    return [(draw.positive((n,)),), (negative,), (draw.floats((n,), avoid=(0.0,)),)]


def _zero_not_minus_one(args, got):
    """A sign that is wrong only where x is 0 (ek.sign, x >= 0, x / |x|, a steep tanh): what
    the prompt asks for there, whether traced or not."""
    x = args[0].numpy()
    mine = float_values(got)
    if mine is None or mine.shape != x.shape or not np.any(x == 0):
        return []
    want = np.where(x > 0, 1.0, -1.0)
    if np.allclose(mine[x != 0], want[x != 0]) and not np.allclose(mine[x == 0], -1.0):
        return [
            f"at x = 0 your graph_sign gives {number(mine[x == 0][0])}, and 0 must give -1 "
            "(the prompt: +1 where x > 0, -1 elsewhere, 0 included); it is right everywhere else"
        ]
    return []


def _traced(fn, seen, args):
    if not hasattr(fn, "trace_count"):
        return ["graph_sign is not an ek.function: keep the @ek.function line"]
    return []


FunctionExercise(
    "10.2",
    "A sign that survives tracing",
    reference=lambda x: ek.where(x > 0, ek.ones_like(x), -ek.ones_like(x)),
    inputs=_signs,
    order=0,
    mechanism=_traced,
    explain=_zero_not_minus_one,
    template="@ek.function\ndef graph_sign(x): ...",
    hints=[
        "A Python if on a tensor's value is decided once, while tracing.",
        "Choose per element with an op, every time the graph runs. Mind what the prompt "
        "asks for at 0.",
    ],
)
