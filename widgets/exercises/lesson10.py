"""Lesson 10 (graph mode): a sign that stays right after tracing, one trace for all lengths."""

import numpy as np

import eagerkit as ek

from .exercise import CustomExercise, FunctionExercise

FunctionExercise(
    "10.2",
    "A sign that survives tracing",
    reference=lambda x: ek.where(x > 0, ek.ones_like(x), -ek.ones_like(x)),
    inputs=[([2.0, 0.5],), ([-2.0, 3.0],), ([-1.0, -4.0],)],
    order=0,
    hints=[
        "A Python if on a tensor's value is decided once, while tracing.",
        "ek.where(condition, a, b) chooses per element, every time the graph runs.",
    ],
)


def _judge_poly(poly):
    problems = []
    for n in (2, 3, 4):
        x = np.arange(n, dtype=np.float32)
        got = poly(ek.constant(x)).numpy()
        if got.shape != (n,) or not np.allclose(got, 3 * x * x + 2 * x + 1):
            problems.append(
                f"poly of a vector of length {n} gives {got.tolist()}, not 3x² + 2x + 1"
            )
            return problems
    traces = getattr(poly, "trace_count", None)
    if traces is None:
        problems.append("poly is not an ek.function: decorate it with @ek.function(...)")
    elif traces != 1:
        problems.append(
            f"poly traced {traces} times for vectors of 3 lengths; one trace is expected "
            "(a shape with None in it accepts every length)"
        )
    return problems


CustomExercise(
    "10.1",
    "One trace for every length",
    judge=_judge_poly,
    hints=[
        "Each new shape traces again, unless the function has an input_signature.",
        "ek.TensorSpec(shape=[None], dtype=ek.float32): None means any length.",
    ],
)
