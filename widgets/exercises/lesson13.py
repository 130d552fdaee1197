"""Lesson 13 (debugging): a shape error fixed, a gradient kept finite, the op a NaN starts at."""

import numpy as np

import eagerkit as ek

from .answer_values import matches
from .call_facts import about_shapes
from .compare import Expect, describe
from .exercise import CustomExercise
from .function_exercise import FunctionExercise
from .names import op_name


def _images_and_weights(draw):
    # Three different sizes first: weights taken as they are, or two axes confused, then
    # raise the shape error the section reads (or give a shape that says which axes).
    examples, features, classes = (int(n) for n in draw.rng.choice(np.arange(2, 6), 3, False))
    return [
        (draw.floats((examples, features)), draw.floats((classes, features))),
        (draw.floats((3, 2)), draw.floats((3, 2))),  # as many classes as examples
        (draw.floats((1, 3)), draw.floats((1, 3))),  # one example, one class
    ]


def _scores(images, weights):
    # The transpose as an op of its own: a reshape in its place is then the op to blame.
    return ek.matmul(images, ek.transpose(weights))


def _reshaped(args, got):
    """A reshape where a transpose belongs: of the weights, or of a [classes, examples]
    product. The shape then fits and the values are scrambled."""
    images, weights = (x.numpy().astype(np.float64) for x in args)
    examples, classes = images.shape[0], weights.shape[0]
    features_by_classes = weights.reshape(weights.shape[::-1])
    product = weights @ images.T  # [classes, examples]
    reshapes = {
        "images times weights reshaped to [features, classes]": images @ features_by_classes,
        "the [classes, examples] product reshaped to [examples, classes]": product.reshape(
            examples, classes
        ),
    }
    for what, value in reshapes.items():
        if matches(got, value):
            return [
                f"that is {what}: a reshape keeps the order of the elements, so the shape "
                "fits and the values land in the wrong places. A transpose moves them: "
                "ek.transpose, or transpose_a=/transpose_b=True in the matmul"
            ]
    return []


_MIDDLE = (
    "images is [examples, features] and weights is [classes, features]: in a matmul the "
    "features must meet in the middle (a's last axis, b's second-to-last)"
)


def _features_advice(fn, error):
    """The features meeting in the middle, for an error about shapes only."""
    return _MIDDLE if about_shapes(error) else None


FunctionExercise(
    "13.1",
    "Scores of the right shape",
    reference=_scores,
    inputs=_images_and_weights,
    expect=Expect(exact_shape=True, quote="shape [examples, classes]"),
    explain=_reshaped,
    advice=_features_advice,
    template="def scores(images, weights): ...",
    hints=[
        "Read the error from the bottom: which op, which shapes, and what it suggests.",
        "images is [examples, features] and weights is [classes, features]: the features "
        "must meet in the middle of the matmul, and examples must come first.",
    ],
)


def _safe_root_or_zero(x):
    positive = x > 0
    return ek.where(positive, ek.sqrt(ek.where(positive, x, 1.0)), 0.0)


def _roots(draw):
    n = draw.size(3, 7)
    x = draw.floats((n,), -4.0, 9.0, avoid=(0.0,))
    x[0], x[1] = 0.0, -draw.positive(())  # 0 and a negative, where the naive root is nan
    return [(np.array([-1.0, 0.0, 0.25, 4.0], np.float32),), (x,), (draw.positive((2, 2)),)]


FunctionExercise(
    "13.2",
    "A root whose gradient stays finite",
    reference=_safe_root_or_zero,
    inputs=_roots,
    template="def safe_root_or_zero(x): ...",
    hints=[
        "The value of root_or_zero is already right; its gradient is nan at 0 and below.",
        "No nan or inf may exist anywhere, even in the branch ek.where does not take: what "
        "could the root be given instead of x where x <= 0?",
    ],
)


def _judge_first_nan_op(answer, draw):
    if not isinstance(answer, str):
        return [f"your answer is a {describe(answer)}; the op's name, a string, is expected"]
    named = op_name(answer)
    if named == "sqrt":
        return []
    if named not in ek.registry.REGISTRY:
        return [
            f"{answer!r} is not the name of one op (check_numerics quotes the name of the "
            "first op that made a nan or an inf)"
        ]
    return [
        f"{answer!r} is not the op where the first nan or inf was made (name one op: the first)"
    ]


CustomExercise(
    "13.3",
    "Where the NaN is born",
    judge=_judge_first_nan_op,
    draws_inputs=False,
    hints=[
        "Turn on ek.debugging.enable_check_numerics(), call spread once, and read the "
        "first line of the error (turn it off again afterwards).",
        "The answer is the op's name as a string, as the error quotes it.",
    ],
)
