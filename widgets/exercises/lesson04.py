"""Lesson 04 (custom gradients): change a VJP, write one, and a straight-through estimator."""

import eagerkit as ek

from .exercise import FunctionExercise

FunctionExercise(
    "4.1",
    "The sigmoid's VJP",
    reference=lambda x: ek.sigmoid(x),
    inputs=[([-3.0, 0.0, 0.5, 4.0],)],
    order=2,
    hints=[
        "The derivative of the sigmoid is s (1 - s), with s the forward value.",
        "grad(dy) returns the incoming dy times that derivative.",
        "For the second derivative the VJP must be made of ek ops on tensors (no .numpy()).",
    ],
)


@ek.custom_gradient
def _clip_gradient_by_value(x):
    def grad_fn(dy):
        return ek.clip_by_value(dy, -1.0, 1.0)

    return ek.identity(x), grad_fn


FunctionExercise(
    "4.2",
    "Clip each gradient element",
    reference=lambda x: _clip_gradient_by_value(x),
    inputs=[([3.0, 4.0, -1.0],)],
    upstream=[10.0, -0.5, -3.0],
    hints=[
        "Start from clip_gradient_by_norm: the forward pass stays the identity.",
        "Only grad_fn changes, and it has one argument now: ek.clip_by_value(t, low, high).",
    ],
)


@ek.custom_gradient
def _round_straight_through(x):
    return ek.round(x), lambda dy: dy


FunctionExercise(
    "4.3",
    "A straight-through estimator",
    reference=lambda x: _round_straight_through(x),
    inputs=[([0.2, 1.7, -2.6],)],
    upstream=[1.0, 2.0, -1.0],
    hints=[
        "ek.round has no gradient: the tape gives None through it.",
        "Forward: round. Backward: pretend the op was the identity.",
    ],
)
