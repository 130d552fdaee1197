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


def _which_branch(args, got):
    """Where a wrong half_huber is wrong: m taken as 1.0, one branch's formula, or the
    condition picking the other branch (said with the prompt's formulas, never values)."""
    t = np.asarray(args[0].numpy(), np.float64)
    m = float(args[1]) if len(args) > 1 else 1.0
    try:
        mine = np.asarray(got.numpy() if hasattr(got, "numpy") else got, np.float64)
    except (TypeError, ValueError):
        return []
    if mine.shape != t.shape:
        return []
    inner, outer = 0.5 * t * t, m * (np.abs(t) - 0.5 * m)
    if m != 1.0 and np.allclose(mine, _half_huber_np(t, 1.0), atol=1e-5):
        return ["half_huber is called here with another m: use the m it is given, not 1.0"]
    inside = np.abs(t) <= m
    wrong = ~np.isclose(mine, np.where(inside, inner, outer), rtol=1e-4, atol=1e-5)
    if np.all(wrong[inside] == 0) and np.any(wrong):  # only outside the margin
        where, other, formula = ~inside & wrong, inner, "m (|t| − ½ m)"
    elif np.all(wrong[~inside] == 0) and np.any(wrong):  # only inside
        where, other, formula = inside & wrong, outer, "½ t²"
    else:
        return []
    side = "|t| > m" if formula.startswith("m") else "|t| ≤ m"
    if np.allclose(mine[where], other[where], atol=1e-5):
        return [
            f"where {side} your values come from the other branch: check the condition "
            "(with |t|, for negative errors too)"
        ]
    negative = " for negative errors only (|t| where the prompt writes |t|?)"
    only = negative if np.all(t[where] < 0) else ""
    return [f"your values are wrong where {side}{only}: check that branch, {formula}"]


def _half_huber_np(t, m):
    return np.where(np.abs(t) <= m, 0.5 * t * t, m * (np.abs(t) - 0.5 * m))


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
    explain=_which_branch,
    template="def half_huber(t, m=1.0): ...",
    hints=[
        "One ek.where, deciding per element: ek.where(condition, if_true, if_false).",
        "Read the two branches off the prompt, with m wherever it says m: the check also "
        "calls half_huber with other margins.",
        "Both branches are computed for every element; where only picks.",
    ],
)
