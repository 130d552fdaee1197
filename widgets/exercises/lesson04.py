"""Lesson 04 (custom gradients): write a VJP, change one, and a straight-through estimator.

Every check sends random upstream gradients (never ones), so a VJP that ignores the gradient
arriving from above fails, and the check names it.
"""

import numpy as np

import eagerkit as ek

from .diagnose import is_users_op
from .exercise import student_code
from .function_exercise import FunctionExercise
from .observe import recorded_ops


def _a_custom_gradient(fn, seen, args):
    with student_code():
        ops = recorded_ops(fn, args)
    if not any(is_users_op(op) for op in ops):
        return [
            "the values and gradients are right, but they come from the tape's own VJPs: "
            "the exercise is a function with its own gradient (@ek.custom_gradient)"
        ]
    return []


_DECORATED = (
    "a function that returns (value, gradient function) is a custom gradient only with the "
    "@ek.custom_gradient decorator"
)


def _undecorated(fn, error):
    """The decorator line, only for an answer without the decorator."""
    return None if hasattr(fn, "__wrapped__") else _DECORATED


def _round_advice(fn, error):
    if "ndarray" in str(error):  # np.round in the forward: a numpy array, not a tensor
        return "np.round gives a numpy array: ek.round rounds a whole tensor, elementwise"
    if "converted to Python" in str(error):  # Python's round(x), math.floor(x + 0.5)...
        return "Python's round works on one number: ek.round rounds a whole tensor, elementwise"
    return _undecorated(fn, error)


def _points(draw):
    return [
        (np.array([-3.0, 0.0, 0.5, 4.0], np.float32),),
        (draw.floats((draw.size(1, 6),), -6.0, 6.0),),
        (draw.floats((2, 3), -3.0, 3.0),),
        (np.array([-100.0, 90.0], np.float32),),  # far out, where a recomputed exp overflows
    ]


FunctionExercise(
    "4.1",
    "The sigmoid's VJP",
    reference=lambda x: ek.sigmoid(x),
    inputs=_points,
    order=2,
    # The forward the exercise gives overflows exp's second derivative out there: the first
    # derivative (the VJP asked for) is still compared.
    kinks={2: lambda x: [np.abs(x) > 50]},
    mechanism=_a_custom_gradient,
    advice=_undecorated,
    vjp_advice="compare grad's result with dy times the prompt's derivative σ(x)(1 − σ(x)), "
    "factor by factor (1 - s included), written with s",
    finite_form="write the derivative with s alone (s stays between 0 and 1), not with "
    "e^(-x), which overflows for x below -88",
    template=(
        "@ek.custom_gradient\n"
        "def sigmoid(x):\n"
        "    s = 1.0 / (1.0 + ek.exp(-x))\n"
        "\n"
        "    def grad(dy):\n"
        "        ...\n"
        "\n"
        "    return s, grad\n"
    ),
    hints=[
        "grad gets the gradient arriving from above and returns it times the derivative.",
        "The forward value s is already there: the derivative can be written with it alone.",
        "For the second derivative the VJP must be made of ek ops on tensors (no .numpy()).",
    ],
)


@ek.custom_gradient
def _clip_gradient_by_value(x):
    return ek.identity(x), lambda dy: ek.clip_by_value(dy, -1.0, 1.0)


def _some_beyond_one(draw, shape):
    """Upstream gradients with elements inside [-1, 1] and beyond, on both sides."""
    values = draw.floats(shape, -4.0, 4.0, avoid=(-1.0, 1.0), gap=0.1)
    flat = values.reshape(-1)
    if flat.size >= 3:
        flat[:3] = draw.rng.permutation([2.5, -3.0, 0.4])
    return flat.reshape(shape)


def _how_clipped(args, upstream, gradients):
    """What the gradient function did instead of clipping each element to [-1, 1]."""
    (x,), (got,) = args, gradients
    if got is None:
        return None
    got = np.asarray(got, np.float64).reshape(np.shape(upstream))
    if np.allclose(got, np.clip(upstream, 0.0, 1.0), atol=1e-5):
        return (
            "your bounds are [0, 1]: a negative element of the gradient must keep its sign, "
            "down to the lower bound the exercise gives"
        )
    if np.allclose(got, upstream, atol=1e-5):
        return "the gradient passes unchanged: nothing clips the incoming gradient"
    if np.allclose(got, np.clip(x, -1.0, 1.0), atol=1e-5) or np.allclose(got, x, atol=1e-5):
        return "your gradient function returns x (clipped): it is the incoming gradient to clip"
    scale = float(np.sum(got * upstream) / max(np.sum(upstream * upstream), 1e-12))
    if 0 < scale < 1 and np.allclose(got, scale * upstream, atol=1e-5):  # scaled as a whole
        return (
            "each element of the incoming gradient is clipped on its own (by value), not by "
            "the norm of the whole gradient"
        )
    inside = np.abs(upstream) <= 1.0
    if np.any(inside) and not np.allclose(got[inside], upstream[inside], atol=1e-5):
        return (
            "elements of the incoming gradient inside [-1, 1] changed too: they pass unchanged, "
            "and only those beyond are clipped"
        )
    return "the elements of the incoming gradient beyond [-1, 1] must end at -1 or 1"


def _clipped_value(args, got):
    (x,) = (np.asarray(a.numpy(), np.float64) for a in args)
    try:
        mine = np.asarray(got.numpy() if hasattr(got, "numpy") else got, np.float64)
    except (TypeError, ValueError):
        return []
    if mine.shape == x.shape and np.allclose(mine, np.clip(x, -1.0, 1.0), atol=1e-5):
        return [
            "your value is clipped: the value passes through unchanged, and only the "
            "gradient (in the gradient function) is clipped"
        ]
    return []


FunctionExercise(
    "4.2",
    "Clip each gradient element",
    reference=lambda x: _clip_gradient_by_value(x),
    inputs=lambda draw: [(draw.floats((draw.size(3, 7),)),), (draw.floats((2, 3)),)],
    upstream=_some_beyond_one,
    mechanism=_a_custom_gradient,
    advice=_undecorated,
    explain=_clipped_value,
    vjp_advice=_how_clipped,
    hints=[
        "Start from clip_gradient_by_norm: the forward pass stays the identity.",
        "Only the function that makes the gradient changes: ek has a clip for each element "
        "on its own.",
    ],
)


@ek.custom_gradient
def _round_straight_through(x):
    return ek.round(x), lambda dy: dy


_HALVES = tuple(k + 0.5 for k in range(-5, 5))  # round's ties: numpy and TF both go to even


FunctionExercise(
    "4.3",
    "A straight-through estimator",
    reference=lambda x: _round_straight_through(x),
    inputs=lambda draw: [
        (np.array([0.2, 1.7, -2.6, 0.0], np.float32),),
        (draw.floats((draw.size(1, 6),), -5.0, 5.0, avoid=_HALVES, gap=0.05),),
        (draw.floats((2, 2), -5.0, 5.0, avoid=_HALVES, gap=0.05),),
    ],
    advice=_round_advice,
    vjp_advice="a straight-through estimator's backward pass sends dy on unchanged, as the "
    "identity would",
    hints=[
        "ek.round has no gradient: the tape gives None through it.",
        "Forward: round. Backward: pretend the op was the identity.",
    ],
)
