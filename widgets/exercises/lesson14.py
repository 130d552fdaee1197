"""Lesson 14 (performance): a loop of small ops batched; an ek.function traced once."""

import numpy as np

import eagerkit as ek

from .answer_values import matches
from .compare import Expect, differences
from .exercise import ValueExercise, _last_cell_error, student_code
from .function_exercise import FunctionExercise
from .observe import Observation
from .text import short


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


def _columns_advice(fn, error):
    """An index past the columns (``x[:, 1]`` on a batch one column wide): columns named one
    by one, where the rows have any width."""
    if "out of range for axis 1" not in str(error):
        return None
    return (
        "the rows have any number of columns, here fewer than your code names one by one: "
        "the sum of the squares of each row is one reduction over axis 1, whatever the width"
    )


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
    advice=_columns_advice,
    template="def row_norms(x): ...",
    hints=[
        "One op can square every element of the batch at once.",
        "The reductions take an axis: one call can sum every row.",
    ],
)

# The lesson's loop: 5 steps from w = [1, 2] with g = 0.5, the rate decaying as 0.1 / (step + 1).
_STEPS, _START, _GRADIENT = 5, [1.0, 2.0], 0.5
_RATES = [0.1 / (step + 1) for step in range(_STEPS)]
_W_AT_THE_FIRST_RATE = np.subtract(_START, _GRADIENT * _STEPS * _RATES[0])  # a rate not decayed


def _expected_update():
    return (ek.constant(_START) - _GRADIENT * sum(_RATES), 1)


class TraceOnceExercise(ValueExercise):
    """14.2: the value of w and how often scaled_update traced. A cell that raised is told
    first, alone (what it left behind is not the mistake); a count of 0 or of one trace per
    step says what it means."""

    def judge(self, answer, draw):
        problems = differences(answer, self.expected(), items=self.items)
        if not problems:
            return self.verdict([])
        error = _last_cell_error()
        if error is not None:
            return self.verdict(
                [
                    f"the cell run before this check raised {type(error).__name__}: "
                    f"{short(error, 240)}",
                    "fix that cell and run it again, then this one (what it left in w and "
                    "trace_count is not what your loop computes)",
                ]
            )
        if not (isinstance(answer, tuple) and len(answer) == 2):
            return self.verdict(problems)
        if answer[1] == 1 and matches(answer[0], _W_AT_THE_FIRST_RATE):
            return self.verdict([_FIXED_RATE])
        why = _why_count(answer[1])
        if why is None:
            return self.verdict(problems)
        count_item = self.items[1]
        return self.verdict([why, *(p for p in problems if not p.startswith(count_item))])


_FIXED_RATE = (
    "w is what the first rate, 0.1, at every step gives: the rate must still decay. Make the "
    "tensor from each step's learning_rate, inside the loop"
)


def _why_count(count):
    """What a trace count of 0, or of one per step, means (None for any other count)."""
    if count == 0:
        return (
            "scaled_update.trace_count is 0: scaled_update never ran. Call it in the loop, "
            "with the rate as a tensor"
        )
    if count == _STEPS:
        return (
            f"scaled_update traced {_STEPS} times, once per step: a Python float's value is "
            "part of the trace's signature, so each new rate traces again. Pass the rate as "
            "a tensor, ek.constant(learning_rate): a tensor is traced by its shape and dtype "
            "only"
        )
    return None


TraceOnceExercise(
    "14.2",
    "Trace once",
    expected=_expected_update,
    items=["the resulting value of w", "scaled_update.trace_count"],
    placeholder=(..., 0),
    hints=[
        "Print scaled_update.trace_count after the loop: why does it grow at each step?",
        "A Python float is part of the input signature, its value included; a tensor is "
        "traced by its shape and dtype only.",
    ],
)
