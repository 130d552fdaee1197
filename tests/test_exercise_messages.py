"""Messages that explain a wrong answer in the section's words (the corpus checks them on
real answers; these pin the wording's parts that the corpus cannot vary)."""

import numpy as np
from eagerkit.widgets.exercises.compare import differences


def test_a_none_item_asks_whether_the_source_was_watched():
    (line,) = differences([None, 1.0], [1.0, 1.0], what="f(x)", items=["dz/dx", "dy/dx"])
    assert line.startswith("dz/dx in f(x) is None") and "watched" in line


def test_several_none_items_are_one_sentence():
    lines = differences([None, None], [1.0, 1.0], what="f(x)", items=["dz/dx", "dy/dx"])
    assert lines == [lines[0]] and lines[0].startswith("dz/dx and dy/dx in f(x) are None")
    assert "are they gradients that came out None (was the source watched" in lines[0]


def test_a_value_check_outside_ipython_blames_no_earlier_cell():
    from eagerkit.widgets.exercises.exercise import _stopped_part_way

    assert _stopped_part_way() == []


def test_a_count_one_off_says_off_by_one_and_nothing_else_does():
    (line,) = differences(112, 111, what="collatz_steps(n)")
    assert line == (
        "collatz_steps(n) is 112, which is one too large (off by one: a count that starts or "
        "stops one early?)"
    )
    (line,) = differences(np.array([3, 5]), np.array([3, 6]), what="counts")
    assert line.startswith("counts differs at element [1]: its value there is 5, one too small")
    for got, want in ((113, 111), (1.0, 2.0), (2.5, 1.5)):  # further off, or not counts
        (line,) = differences(got, want, what="f")
        assert "off by one" not in line, line


def test_an_answer_whose_cell_raised_is_told_that_error_not_to_replace_the_placeholder():
    from exercise_lessons import run_answers

    raising = {"id": "raises", "exercise": "1.1", "cell": "t = ek.to_floats([1.0])"}
    untouched = {"id": "untouched", "exercise": "1.1", "cell": "t = ..."}
    outcomes = run_answers(1, [dict(raising, extra_cells=[]), dict(untouched, extra_cells=[])])
    said = outcomes["raises"]["text"]
    assert outcomes["raises"]["status"] == "unanswered"
    assert "the cell run just before this check raised AttributeError" in said
    assert "to_floats" in said and "replace the ... with your answer" not in said
    assert "replace the ... with your answer" in outcomes["untouched"]["text"]
