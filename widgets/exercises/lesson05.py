"""Lesson 05 (linear regression): a loss to change, and a batched Huber loss with its margin."""

import numpy as np

import eagerkit as ek

from .function_exercise import FunctionExercise


def _pairs(draw):
    n = draw.size(2, 7)
    predicted, target = draw.floats((n,), -5.0, 5.0), draw.floats((n,), -5.0, 5.0)
    target[0] = predicted[0]  # an error of 0: where |error| has its kink
    return [
        (np.array([2.5, -1.0, 7.0, 0.5], np.float32), np.array([2.0, -2.0, 9.0, 1.0], np.float32)),
        (predicted, target),
        (draw.floats((2, 3)), draw.floats((2, 3))),
    ]


FunctionExercise(
    "5.1",
    "Mean absolute error",
    reference=lambda predicted, target: ek.reduce_mean(ek.abs(predicted - target)),
    inputs=_pairs,
    kinks={1: lambda predicted, target: [predicted == target] * 2},
    template=(
        "def mean_squared_error(predicted, target):\n"
        "    error = predicted - target\n"
        "    return ek.reduce_mean(ek.square(error))\n"
        "\n"
        "\n"
        "def mean_absolute_error(predicted, target):\n"
        "    error = predicted - target\n"
        "    ...\n"
    ),
    hints=[
        "Start from the squared error: only the square changes.",
        "The mean stays: what replaces the square must make every error count positively, "
        "in proportion to its size.",
    ],
)


def _half_huber(t, m=1.0):
    return ek.where(ek.abs(t) <= m, 0.5 * t * t, m * (ek.abs(t) - 0.5 * m))


def _errors(draw):
    m = float(draw.rng.choice([0.5, 1.5, 2.0]))
    return [
        (np.array([-3.0, -0.5, 0.25, 1.0, 2.0, 0.0], np.float32),),  # 1.0: on the margin
        (draw.floats((draw.size(3, 8),), -4.0, 4.0),),
        (np.array([-m, -3.0, 0.3, m, 2.5], np.float32), m),  # another margin, given
        (draw.floats((2, 3), -4.0, 4.0), m),
    ]


FunctionExercise(
    "5.2",
    "Huber for a batch, TF's way",
    reference=_half_huber,
    inputs=_errors,
    quantities={
        "|t|, the absolute value of the error (negative errors too)": lambda t, m=1.0: ek.abs(t)
    },
    combined="your tape makes |t|: check the condition and which branch ek.where picks for "
    "which errors, negative ones too (are the two branches swapped? is |t| used wherever "
    "the prompt writes it?)",
    template="def half_huber(t, m=1.0): ...",
    hints=[
        "One ek.where, deciding per element: ek.where(condition, if_true, if_false).",
        "Read the two branches off the prompt, with m wherever it says m: the check also "
        "calls half_huber with other margins.",
        "Both branches are computed for every element; where only picks.",
    ],
)
