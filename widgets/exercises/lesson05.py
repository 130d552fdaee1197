"""Lesson 05 (linear regression): a loss to change, a batched Huber loss, a fit."""

import eagerkit as ek

from .exercise import FunctionExercise

FunctionExercise(
    "5.1",
    "Mean absolute error",
    reference=lambda predicted, target: ek.reduce_mean(ek.abs(predicted - target)),
    inputs=[([2.5, -1.0, 7.0, 0.5], [2.0, -2.0, 9.0, 1.0])],
    hints=[
        "Start from the squared error: error = predicted - target, then its mean square.",
        "Only the square changes: the absolute value of a tensor, elementwise, is ek.abs.",
    ],
)


def _half_huber(t, m=1.0):
    return ek.where(ek.abs(t) <= m, 0.5 * t * t, m * (ek.abs(t) - 0.5 * m))


FunctionExercise(
    "5.2",
    "Huber for a batch, TF's way",
    reference=lambda t: _half_huber(t),
    inputs=[([-3.0, -0.5, 0.25, 1.0, 2.0],)],
    hints=[
        "One ek.where, deciding per element: ek.where(condition, if_true, if_false).",
        "Inside |t| <= m the loss is ½ t²; outside it is m (|t| − ½ m).",
        "Both branches are computed for every element; where only picks.",
    ],
)
