"""Lesson 06 (optimizers): a momentum step by hand, and moving only some variables."""

from .exercise import ValueExercise
from .function_exercise import FunctionExercise


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
    template="def momentum_step(weight, velocity, grad): ...",
    hints=[
        "MomentumOptimizer(learning_rate=0.1, momentum=0.9) keeps a velocity per variable.",
        "First the velocity: it remembers a fraction of itself and adds the gradient.",
        "Then the step: the weight moves against the *new* velocity, scaled by the "
        "learning rate.",
    ],
)

ValueExercise(
    "6.2",
    "Move one variable only",
    expected=lambda: [1.0, 0.6],
    items=["a", "b"],
    hints=[
        "minimize takes the loss as a function, and a keyword argument listing what may move.",
        "Start again from a = 1, b = 0, as the cell does: an earlier step must not count.",
    ],
)
