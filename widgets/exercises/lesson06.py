"""Lesson 06 (optimizers): a momentum step by hand, and moving only some variables."""

import numpy as np

import eagerkit as ek

from .compare import Expect, differences
from .exercise import CustomExercise, student_code
from .function_exercise import FunctionExercise
from .observe import Observation
from .text import number


def _momentum_step(weight, velocity, grad):
    velocity = 0.9 * velocity + grad  # TF's MomentumOptimizer: accumulate, then step
    return weight - 0.1 * velocity, velocity


def _states(draw):
    n = draw.size(1, 5)
    return [
        tuple(draw.floats((n,)) for _ in range(3)),
        tuple(draw.floats((2, 2)) for _ in range(3)),
        (draw.floats((3,)), draw.floats((3,)) * 0, draw.floats((3,))),  # a first step
    ]


FunctionExercise(
    "6.1",
    "A momentum step by hand",
    reference=_momentum_step,
    inputs=_states,
    order=0,
    items=["the new weight", "the new velocity"],
    quantities={
        "the new velocity (momentum 0.9 times the old velocity, plus the gradient)": (
            lambda weight, velocity, grad: _momentum_step(weight, velocity, grad)[1]
        )
    },
    combined="your tape makes the new velocity: the weight moves against it, times the "
    "learning rate (plain momentum, not Nesterov's look-ahead)",
    template="def momentum_step(weight, velocity, grad): ...",
    hints=[
        "MomentumOptimizer(learning_rate=0.1, momentum=0.9) keeps a velocity per variable.",
        "First the velocity: it remembers a fraction of itself and adds the gradient.",
        "Then the step: the weight moves against the *new* velocity, scaled by the learning rate.",
    ],
)


def _judge_step_b_only(step_b_only, draw):
    """Give the student's function two fresh variables, and compare what it returns and
    what it did to them with one step of gradient descent on b alone."""
    start_a, start_b = (float(v) for v in draw.floats((2,), -4.0, 6.0, avoid=(3.0,)))
    a, b = ek.Variable(start_a, name="a"), ek.Variable(start_b, name="b")
    seen = Observation()
    with student_code("in step_b_only(a, b)"), seen.watching():
        got = step_b_only(a, b)
    want_b = start_b - 0.1 * 2.0 * (start_b - 3.0)
    what = f"step_b_only(a, b) from a = {number(start_a)}, b = {number(start_b)}"
    problems = differences(got, [start_a, want_b], what=what, items=["a", "b"], expect=_FLOATS)
    if problems:
        return problems + _how_b_moved(got, start_a, start_b, want_b)
    if not seen.used_tapes():  # minimize and apply_gradients take a tape's gradient too
        return [
            "the numbers are right, but no gradient was computed: your step is a formula "
            "derived by hand. The section's mechanism is the optimizer's minimize with "
            "var_list (or a tape's gradient, applied to b): use it, so that it works for any loss"
        ]
    moved = [
        name
        for name, v, want in (("a", a, start_a), ("b", b, want_b))
        if not np.isclose(float(v), want, rtol=1e-4, atol=1e-5)
    ]
    if moved:
        return [
            f"the numbers returned are right, but the variable {moved[0]} itself is not where "
            "one step leaves it: the step must change the variables"
        ]
    return []


def _how_b_moved(got, start_a, start_b, want_b):
    """With a left alone, how b's step compares with one step of gradient descent: the
    wrong way (a sign), or the right way but not as far (a learning rate)."""
    try:
        got_a, got_b = (float(v) for v in got)
    except (TypeError, ValueError):  # not two numbers: the message says what it is
        return []
    moved, step = got_b - start_b, want_b - start_b
    if not np.isclose(got_a, start_a, rtol=1e-4) or abs(moved) < 1e-6:
        return []
    if moved * step < 0:
        return [
            "b moved the wrong way, up the loss: a step of gradient descent goes against the "
            "loss's gradient with respect to b (mind the sign)"
        ]
    return [
        f"b moved the right way, but {number(moved / step)} times as far as one step with "
        "learning rate 0.1 goes: is the learning rate the one the exercise gives?"
    ]


_FLOATS = Expect(kind="float", quote="returns [float(a), float(b)] after the step")

CustomExercise(
    "6.2",
    "Move one variable only",
    judge=_judge_step_b_only,
    template="def step_b_only(a, b): ...",
    hints=[
        "minimize takes the loss as a function, and a keyword argument listing what may move.",
        "One step only, from the values the variables have when step_b_only is called.",
    ],
)
