"""Lesson 03 (GradientTape in depth): watching, persistent tapes, nested tapes."""

import numpy as np

import eagerkit as ek

from .exercise import FunctionExercise, ValueExercise


def _gradient_of_square(x):
    return 2.0 * x


FunctionExercise(
    "3.1",
    "Watch what you differentiate",
    reference=_gradient_of_square,
    inputs=[(4.0,), ([1.0, -2.0],)],
    order=0,
    hints=[
        "A constant is not watched unless you ask: the tape did not record y = x * x.",
        "The tape has a method for that, called inside the with-block, before the ops.",
    ],
)


def _persistent_pair():
    x = np.float32(0.5)
    return [ek.constant(2 * np.sin(x) * np.cos(x)), ek.constant(np.cos(x))]


ValueExercise(
    "3.2",
    "Two gradients from one tape",
    expected=_persistent_pair,
    items=["dz/dx", "dy/dx"],
    hints=[
        "A plain tape frees its records after the first gradient() call.",
        "GradientTape takes an argument that keeps the records for more calls.",
    ],
)


def _second_derivative(x):
    with ek.GradientTape() as outer:
        outer.watch(x)
        with ek.GradientTape() as inner:
            inner.watch(x)
            y = x**4 + x
        dy_dx = inner.gradient(y, x)
    return outer.gradient(dy_dx, x)


FunctionExercise(
    "3.3",
    "Second derivative with nested tapes",
    reference=_second_derivative,
    inputs=[([-1.0, 0.5, 2.0],)],
    order=0,
    hints=[
        "Two tapes, one inside the other, both watching x; y = x**4 + x inside both.",
        "Take the inner gradient *inside* the outer with-block, so the outer tape records it.",
        "Return the outer tape's gradient of that inner gradient.",
    ],
)
