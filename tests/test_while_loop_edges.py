"""``ek.while_loop``'s edges that the whole walk's census found running for minutes.

What TF refuses is refused before the first iteration (a cond that answers with something
other than a bool, a bad maximum_iterations, shape invariants in another structure). A loop
whose body never brings cond to False loops forever in TF too: that is the user's loop, and
maximum_iterations is what bounds it (the walk declares its valid call with one, see
tests/surface/calls_graph.py).
"""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError


class CountingBody:
    """``i + 1``, counting its calls: a refused loop must not have run one iteration."""

    def __init__(self):
        self.calls = 0

    def __call__(self, i):
        self.calls += 1
        return i + 1


@pytest.mark.parametrize(
    "answer",
    [np.str_, lambda i: "yes", lambda i: 1, lambda i: None, lambda i: ek.constant(1)],
    ids=["np.str_", "a str", "an int", "None", "an int tensor"],
)
def test_a_cond_that_answers_with_no_bool_is_refused_before_the_body_runs(answer):
    body = CountingBody()
    with pytest.raises(InvalidArgumentError) as caught:
        ek.while_loop(answer, body, [0])
    message = str(caught.value)
    assert "while_loop" in message and "cond must return a scalar bool" in message
    assert "loop_vars int32[]" in message and "lambda i: i < 10" in message  # what, and the fix
    assert body.calls == 0


@pytest.mark.parametrize(
    "limit",
    [-1, 1.5, math.nan, math.inf, "3", None.__class__, ek.constant([1, 2]), ek.constant(2.0)],
    ids=["-1", "1.5", "nan", "inf", "'3'", "NoneType", "a vector", "a float tensor"],
)
def test_a_bad_maximum_iterations_is_refused_before_the_body_runs(limit):
    body = CountingBody()
    with pytest.raises(InvalidArgumentError, match="maximum_iterations must be"):
        ek.while_loop(lambda i: i < 3, body, [0], maximum_iterations=limit)
    assert body.calls == 0


@pytest.mark.parametrize("invariants", [[[1], [2]], 5], ids=["two shapes for one", "a number"])
def test_shape_invariants_in_another_structure_are_refused_before_the_body_runs(invariants):
    body = CountingBody()
    with pytest.raises(InvalidArgumentError, match="one shape per loop variable"):
        ek.while_loop(lambda i: i < 3, body, [0], shape_invariants=invariants)
    assert body.calls == 0


@pytest.mark.parametrize(
    "body, start, end",
    [
        (np.float32, [0], 0),  # the census's inputs: a body that keeps i where it is
        (np.int64, [0], 0),
        (np.bool_, [0], 0),
        (lambda i: i + 1, [-math.inf], -math.inf),  # -inf + 1 is -inf
        (lambda i: i + 1, [-(2**63)], -(2**63) + 50),  # 2**63 steps to go
    ],
    ids=["np.float32", "np.int64", "np.bool_", "-inf", "-(2**63)"],
)
def test_a_loop_that_never_ends_by_itself_stops_at_maximum_iterations(body, start, end):
    [result] = ek.while_loop(lambda i: i < 3, body, start, maximum_iterations=50)
    assert result.numpy() == end


@given(st.integers(0, 30), st.integers(0, 30))
def test_maximum_iterations_stops_the_loop_after_that_many_turns(turns, limit):
    [result] = ek.while_loop(lambda i: i < turns, lambda i: i + 1, [0], maximum_iterations=limit)
    assert int(result) == min(turns, limit)
