"""Lesson 11 (word2vec): cosine similarity, and the scores of the skip-gram model."""

import eagerkit as ek

from .exercise import FunctionExercise


def _cosine(a, b):
    return ek.reduce_sum(a * b) / (ek.norm(a) * ek.norm(b))


FunctionExercise(
    "11.2",
    "Cosine similarity",
    reference=_cosine,
    inputs=[([1.0, 2.0, -1.0], [2.0, 0.5, 1.0])],
    hints=[
        "cos(a, b) = a · b / (|a| |b|).",
        "ek.norm(t) is the Euclidean length; a · b is ek.reduce_sum(a * b).",
    ],
)


def _pair_scores(embed, weights, bias):
    return ek.reduce_sum(weights * ek.expand_dims(embed, 1), axis=2) + bias


FunctionExercise(
    "11.1",
    "Scores of the candidates",
    reference=_pair_scores,
    inputs=[
        (
            [[1.0, 0.5], [-1.0, 2.0]],
            [[[0.5, 1.0], [1.0, -1.0], [0.0, 2.0]], [[1.0, 1.0], [-0.5, 0.5], [2.0, 0.0]]],
            [[0.1, 0.0, -0.2], [0.3, 0.1, 0.0]],
        )
    ],
    hints=[
        "embed is (batch, dim), weights (batch, candidates, dim), bias (batch, candidates).",
        "Give embed a candidates axis of size 1 (ek.expand_dims) so it broadcasts against "
        "weights, multiply, and sum over dim.",
    ],
)
