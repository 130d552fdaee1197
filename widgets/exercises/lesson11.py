"""Lesson 11 (word2vec): the scores of the skip-gram model, and cosine similarity."""

import numpy as np

import eagerkit as ek

from .answer_values import matches
from .call_facts import about_shapes
from .function_exercise import FunctionExercise


def _pair_scores(embed, weights, bias):
    return ek.reduce_sum(weights * ek.expand_dims(embed, 1), axis=2) + bias


def _batches(draw):
    cases = []
    for batch in (1, draw.size(2, 4)):
        candidates, dim = draw.size(2, 5), draw.size(2, 4)
        cases.append(
            (
                draw.floats((batch, dim)),
                draw.floats((batch, candidates, dim)),
                draw.floats((batch, candidates)),
            )
        )
    return cases


_DOT_PRODUCTS = (
    "the dot product of each candidate's weights with its center word (a sum over dim, the "
    "last axis)"
)


def _dot_products_advice(fn, error):
    """An error about shapes: what the scores are made of (what the tape would be checked
    for, had the answer run), on every draw of sizes, where it raises on some only."""
    return f"each score is {_DOT_PRODUCTS}" if about_shapes(error) else None


FunctionExercise(
    "11.1",
    "Scores of the candidates",
    reference=_pair_scores,
    inputs=_batches,
    quantities={
        _DOT_PRODUCTS: lambda embed, weights, bias: ek.reduce_sum(
            weights * ek.expand_dims(embed, 1), axis=2
        )
    },
    combined="your tape makes every dot product: check the bias",
    advice=_dot_products_advice,
    template="def pair_scores(embed, weights, bias): ...",
    hints=[
        "embed is (batch, dim), weights (batch, candidates, dim), bias (batch, candidates).",
        "Give embed an axis of size 1 where the candidates are, so that it broadcasts "
        "against weights; the dot product is then a product and a sum over one axis.",
    ],
)


def _cosine(a, b):
    return ek.reduce_sum(a * b) / (ek.norm(a) * ek.norm(b))


def _distance(args, got):
    """1 - cos is the cosine distance, the other quantity of the same name family."""
    a, b = (x.numpy().astype(np.float64) for x in args)
    cosine = a @ b / (np.linalg.norm(a) * np.linalg.norm(b))
    if matches(got, 1.0 - cosine):
        return [
            "that is 1 - cos, the cosine distance; the exercise asks for the similarity "
            "itself, a · b / (|a| |b|)"
        ]
    return []


def _vectors(draw):
    n = draw.size(2, 6)
    a = draw.floats((n,), avoid=(0.0,))
    return [
        (np.array([1.0, 2.0, -1.0], np.float32), np.array([2.0, 0.5, 1.0], np.float32)),
        (a, draw.floats((n,), avoid=(0.0,))),
        (a, -2.5 * a),  # opposite directions: -1
        (np.array([3.0, 0.0], np.float32), np.array([0.0, 2.0], np.float32)),  # orthogonal
    ]


FunctionExercise(
    "11.2",
    "Cosine similarity",
    reference=_cosine,
    inputs=_vectors,
    quantities={
        "the dot product a · b": lambda a, b: ek.reduce_sum(a * b),
        "the Euclidean norm |a| (a square root of a sum of squares, ek.norm)": lambda a, b: ek.norm(
            a
        ),
        "the Euclidean norm |b| (ek.norm)": lambda a, b: ek.norm(b),
    },
    combined="your tape makes the dot product and both norms: check the parentheses (the "
    "dot product is divided by both norms)",
    explain=_distance,
    template="def cosine_similarity(a, b): ...",
    hints=[
        "The dot product of the two vectors, divided by both their lengths.",
        "ek.norm(t) is the Euclidean length of a vector; a dot product is an elementwise "
        "product and a sum.",
    ],
)
