"""Lesson 08 (checkpoints, summaries, NaNs): find a NaN's origin, a stable log-sum-exp."""

import eagerkit as ek

from .exercise import FunctionExercise, ValueExercise

ValueExercise(
    "8.1",
    "Where was the NaN born?",
    expected=lambda: "sqrt",
    reveal=False,
    hints=[
        "Turn on ek.debugging.enable_check_numerics() and call mystery again.",
        "The error names the op in quotes; answer with that name as a string. Turn the "
        "check off afterwards.",
    ],
)


def _logsumexp(logits):
    top = ek.reduce_max(logits, axis=1, keepdims=True)
    return ek.reduce_sum(top, axis=1) + ek.log(ek.reduce_sum(ek.exp(logits - top), axis=1))


FunctionExercise(
    "8.2",
    "A log-sum-exp that does not overflow",
    reference=_logsumexp,
    inputs=[([[0.0, 200.0], [1.0, 2.0]],), ([[-3.0, 0.5, 1.0]],)],
    hints=[
        "log Σ exp(x) = m + log Σ exp(x − m) for any m: pick m so that no exp overflows.",
        "With m the row's largest logit every exp(x − m) is at most 1.",
        "ek.reduce_max(t, axis=1, keepdims=True) keeps the shape that broadcasts against t.",
    ],
)
