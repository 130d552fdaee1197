"""Lesson 02 (the tape): gradients by hand through a fan-out, and reading a tape."""

import numpy as np

import eagerkit as ek

from .function_exercise import FunctionExercise


def _by_tape(a, b):
    return [b, a + 2.0 * b]


def _no_tape(fn, seen, args):
    if seen.tapes:
        return [
            "the values are right, but a GradientTape computed them: the exercise is the "
            "sweep by hand, each VJP applied in your own arithmetic"
        ]
    return []


def _fan_out(args, got):
    """When df/db alone is wrong, the usual reason: b's two uses, not summed."""
    a, b = args
    try:
        da, db = (float(v) for v in got)
    except (TypeError, ValueError):  # not two numbers: the message says what it is
        return []
    want_da, want_db = _by_tape(a, b)
    if np.isclose(da, want_da, rtol=1e-4) and not np.isclose(db, want_db, rtol=1e-4):
        return [
            "b fans out: it is used twice, in the add and in the multiply. A value used "
            "twice gets the sum of the contributions that reach it along each use (the "
            "multiply sends each input the other input, times g)"
        ]
    return []


FunctionExercise(
    "2.1",
    "The sweep by hand",
    reference=_by_tape,
    inputs=lambda draw: (
        [(2.0, 3.0)] + [tuple(float(v) for v in draw.floats((2,))) for _ in range(2)]
    ),
    order=0,
    items=["df/da", "df/db"],
    mechanism=_no_tape,
    explain=_fan_out,
    template="def sweep_by_hand(a, b): ...",
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
        (np.array([-100.0, 95.0], np.float32),),  # far out, where a naive form overflows
    ]


FunctionExercise(
    "2.2",
    "Logistic, op by op",
    reference=lambda x: ek.sigmoid(x),
    inputs=_logistic_inputs,
    order=2,
    # Far out, exp(100) is inf in float32 and the prompt's own formula has no finite
    # derivative there: only the value is compared.
    kinks={1: lambda x: [np.abs(x) > 50], 2: lambda x: [np.abs(x) > 50]},
    quantities={
        "e^(-x), the exponential of minus x (mind its sign)": lambda x: ek.exp(-x),
        "the denominator 1 + e^(-x) (mind the parentheses)": lambda x: 1.0 + ek.exp(-x),
    },
    combined="your tape makes every piece: check the numerator (the prompt's is 1 /), the "
    "parentheses and what divides what",
    finite_form="the prompt's form, 1 / (1 + e^(-x)), stays finite: where e^(-x) overflows, "
    "1 / inf is 0, not nan",
    template="def logistic(x): ...",
    hints=[
        "Four ops: a negation, an exponential, an addition and a division.",
        "Check the sign inside the exponential: the curve must rise from 0 to 1.",
    ],
)
