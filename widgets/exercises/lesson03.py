"""Lesson 03 (GradientTape in depth): watching, one persistent tape used twice, nested tapes.

Each check also observes the tapes the answer used (observe.py): right numbers computed by
hand, or by two tapes where one persistent tape is asked for, are not what the section
teaches, and the check says so.
"""

import numpy as np

import eagerkit as ek

from .function_exercise import FunctionExercise


def _vectors(draw):
    return [
        (np.float32(draw.floats((), -4.0, 4.0)),),
        (np.array([0.0, -2.0, 1.5], np.float32),),
        (draw.floats((draw.size(1, 6),), -3.0, 3.0),),
    ]


def _listed(args, got):
    """A list holding the gradient: tape.gradient(y, [x]) answers with one per source."""
    if isinstance(got, (list, tuple)) and len(got) == 1:
        return [
            "tape.gradient(y, [x]) gives a list, one gradient per source in the list; "
            "tape.gradient(y, x) gives the gradient itself"
        ]
    return []


def _a_tape_gave_it(fn, seen, args):
    if not seen.used_tapes():
        return [
            "the values are right, but no GradientTape gave them: the exercise is to make "
            "the tape record y = x * x (so that its gradient() has something to play back)"
        ]
    return []


FunctionExercise(
    "3.1",
    "Watch what you differentiate",
    reference=lambda x: 2.0 * x,
    inputs=_vectors,
    order=0,
    mechanism=_a_tape_gave_it,
    explain=_listed,
    template=(
        "def gradient_of_square(x):\n"
        "    with ek.GradientTape() as tape:\n"
        "        ...\n"
        "        y = x * x\n"
        "    return tape.gradient(y, x)\n"
    ),
    hints=[
        "A constant is not watched unless you ask: the tape did not record y = x * x.",
        "The tape has a method for that, called inside the with-block, before the ops.",
    ],
)


def _sin_gradients(x):
    y = ek.sin(x)
    return [2.0 * y * ek.cos(x), ek.cos(x)]


def _one_persistent_tape(fn, seen, args):
    used = seen.used_tapes()
    if not used:
        return ["the values are right, but no GradientTape gave them: use one tape, twice"]
    if len(used) > 1:
        return [
            f"the values are right, but {len(used)} tapes gave them: the exercise is one "
            "tape that keeps its records (persistent) and is asked twice"
        ]
    if used[0].gradient_calls < 2 or not used[0].persistent:
        return [
            "the values are right, but the tape was asked only once: call its gradient() "
            "once for dz/dx and once for dy/dx (a persistent tape allows that)"
        ]
    return []


FunctionExercise(
    "3.2",
    "Two gradients from one tape",
    reference=_sin_gradients,
    inputs=_vectors,
    order=0,
    items=["dz/dx", "dy/dx"],
    mechanism=_one_persistent_tape,
    template="def sin_gradients(x): ...",
    hints=[
        "A plain tape frees its records after the first gradient() call.",
        "GradientTape takes an argument that keeps the records for more calls.",
    ],
)


def _second_derivative(x):
    return 12.0 * x * x


def _first_derivative_or_listed(args, got):
    """The first derivative returned (the gradient asked of y again, or dy/dx itself), or a
    list holding the result."""
    x = np.asarray(args[0].numpy(), np.float64)
    try:
        mine = np.asarray(got.numpy() if hasattr(got, "numpy") else got, np.float64)
    except (TypeError, ValueError):
        return _listed(args, got)
    if mine.shape == x.shape and np.allclose(mine, 4 * x**3 + 1, rtol=1e-4, atol=1e-5):
        return [
            "your result is dy/dx, the first derivative: the second is the gradient of that "
            "dy/dx, asked of the outer tape (which recorded the inner gradient being computed)"
        ]
    return _listed(args, got)


def _nested_advice(fn, error):
    """A gradient of None inside: y (or dy/dx) was computed where a tape did not record it."""
    if error is not None and "gradient(None" in str(error):
        return (
            "a gradient you asked for had a target of None: an inner gradient came out None, "
            "because a tape records only what runs inside its with-block: compute y inside "
            "both tapes, from the watched x"
        )
    return (
        "with nested tapes, both tapes watch x, y is computed inside both, and the inner "
        "gradient is taken inside the outer tape's with-block (so that the outer tape "
        "records it)"
    )


def _nested_tapes(fn, seen, args):
    used = seen.used_tapes()
    if len(used) < 2 or not seen.nested:
        told = (
            "no tape" if not used else "one tape" if len(used) == 1 else "tapes one after the other"
        )
        return [
            f"the values are right, but they come from {told}: the exercise is two tapes, "
            "one inside the other, the outer one recording what the inner one's gradient() "
            "computes"
        ]
    return []


FunctionExercise(
    "3.3",
    "Second derivative with nested tapes",
    reference=_second_derivative,
    inputs=_vectors,
    order=0,
    mechanism=_nested_tapes,
    explain=_first_derivative_or_listed,
    advice=_nested_advice,
    template="def second_derivative(x): ...",
    hints=[
        "Two tapes, one inside the other, both watching x, and the function computed inside both.",
        "Take the inner gradient *inside* the outer with-block, so the outer tape records it.",
        "Then ask the outer tape for the gradient of that inner gradient.",
    ],
)
