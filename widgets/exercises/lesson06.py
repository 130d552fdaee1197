"""Lesson 06 (optimizers): a momentum step by hand, and moving only some variables."""

from .exercise import FunctionExercise, ValueExercise


def _momentum_step(weight, velocity, grad):
    velocity = 0.9 * velocity + grad  # TF's MomentumOptimizer: accumulate, then step
    return weight - 0.1 * velocity, velocity


FunctionExercise(
    "6.1",
    "A momentum step by hand",
    reference=_momentum_step,
    inputs=[([1.0, -2.0], [0.5, 0.0], [0.2, -1.0]), ([3.0], [-1.0], [2.0])],
    order=0,
    items=["the new weight", "the new velocity"],
    hints=[
        "MomentumOptimizer(learning_rate=0.1, momentum=0.9) keeps a velocity per variable.",
        "First the velocity: momentum times the old velocity, plus the gradient.",
        "Then the step: the weight moves against the *new* velocity, times the learning rate.",
    ],
)

ValueExercise(
    "6.2",
    "Move one variable only",
    expected=lambda: [1.0, 0.6],
    items=["a", "b"],
    hints=[
        "minimize takes the loss as a function, and a keyword argument listing what may move.",
        "One step of gradient descent from b = 0: the gradient of (b - 3)^2 there is -6.",
    ],
)
