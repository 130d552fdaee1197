"""Messages that explain a wrong answer in the section's words (the corpus checks them on
real answers; these pin the wording's parts that the corpus cannot vary)."""

import numpy as np
import pytest
from eagerkit.widgets.exercises import Expect, exercise
from eagerkit.widgets.exercises.compare import differences

import eagerkit as ek


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


@pytest.mark.parametrize(
    "shape, wanted, axes, fix",
    [
        ((2, 1), (2,), "axis 1, of size 1, is extra", "ek.squeeze(..., axis=1)"),
        ((1, 3), (3,), "axis 0, of size 1, is extra", "ek.squeeze(..., axis=0)"),
        ((1,), (), "axis 0, of size 1, is extra", "ek.squeeze(...) or [0]"),
        ((1, 1), (), "axes 0 and 1, of size 1, are extra", "ek.squeeze(...) or [0, 0]"),
        ((2, 1, 1), (2,), "axes 1 and 2, of size 1, are extra", "axis=(1, 2)"),
    ],
)
def test_an_extra_axis_of_size_one_is_wrong_and_named_with_its_fix(shape, wanted, axes, fix):
    (line,) = differences(ek.ones(shape), ek.ones(wanted), what="f(x)")
    scalar = "a scalar (shape ())" if not wanted else f"shape {wanted}"
    assert line.startswith(f"f(x) has shape {shape} but {scalar} is expected: {axes}")
    assert "keepdims" in line and fix in line


def test_a_shape_the_prompt_leaves_open_may_keep_an_axis_of_size_one():
    assert differences(ek.ones([2, 1]), ek.ones([2]), expect=Expect(exact_shape=False)) == []
    (line,) = differences(ek.ones([2, 3]), ek.ones([2]), expect=Expect(exact_shape=False))
    assert "an axis is left over" in line


def test_a_float_result_keeps_its_inputs_dtype_and_the_message_names_both_and_the_cast():
    x = ek.constant([1.0, 2.0])
    (line,) = differences(ek.cast(x, ek.float64), x, what="f(x)", inputs_dtype="float32")
    assert line.startswith("f(x) has dtype float64 but float32 is expected")
    assert "ek.cast(..., ek.float32)" in line
    halves = ek.constant([1.5, 2.5])
    (line,) = differences(ek.cast(halves, ek.int32), halves, what="f(x)", inputs_dtype="float32")
    assert "int32" in line and "truncates toward zero" in line
    (line,) = differences(ek.cast(x, ek.int32), x, what="f(x)", inputs_dtype="float32")
    assert "the values are right, but as integers" in line and "truncates" not in line
    # integer inputs (a float result in any float dtype will do) or no inputs: not enforced
    assert differences(ek.cast(x, ek.float64), x) == []
    assert differences(np.array([1.0, 2.0], np.float32), x, inputs_dtype="float32") == []


@pytest.mark.parametrize(
    "answer, says",
    [
        ([ek.constant([1.0])], "is a list of one ek.Tensor; one tensor is expected"),
        ((ek.constant([1.0]),), "is a tuple of one ek.Tensor; one tensor is expected"),
        ((ek.constant([1.0]), ek.constant([1.0])), "is a tuple of 2 ek.Tensors; one ek.Tensor"),
    ],
)
def test_a_list_holding_the_tensor_is_not_the_tensor(answer, says):
    (line,) = differences(answer, ek.constant([1.0]), what="f(x)")
    assert line.startswith(f"f(x) {says}"), line
    assert "axis" not in line and "reduction" not in line


def test_a_python_float_where_the_prompt_asks_for_a_tensor_is_told_so_not_a_dtype():
    expect = Expect(kind="tensor", dtype="float32", quote="as a float32 scalar tensor")
    (line,) = differences(0.5, ek.constant(0.5), what="f(x)", expect=expect)
    assert line.startswith("f(x) is a Python float; an ek.Tensor is expected")
    assert "float64" not in line


def test_an_all_zero_answer_is_zero_everywhere_not_off_by_a_factor():
    (line,) = differences(ek.zeros([3]), ek.constant([1.0, 2.0, 3.0]), what="g")
    assert line == "g is 0 at every element"


def _run(key, answer, seed=1):
    result = exercise(key).check(answer, seed=seed)
    return result, "\n".join(result.lines)


def test_an_exp_that_overflows_is_named_with_the_form_that_stays_finite():
    result, text = _run("2.2", lambda x: ek.exp(x) / (1.0 + ek.exp(x)))
    assert result.status == "wrong" and result.op == "exp"
    assert "e^x overflows float32" in text and "1 / (1 + e^(-x))" in text
    assert "mind its sign" not in text  # no quantity tail: the overflow is the whole story

    @ek.custom_gradient
    def sigmoid(x):
        s = 1.0 / (1.0 + ek.exp(-x))
        return s, lambda dy: dy * s * s * ek.exp(-x)

    result, text = _run("4.1", sigmoid)
    assert "Inside its VJP, exp gives inf" in text and "with s alone" in text
    assert "ek.where" not in text


def test_the_where_sentence_comes_only_with_a_where_on_the_tape():
    _, text = _run("1.3", lambda x: x / (1.0 + ek.sqrt(x * x)))
    assert "sqrt's derivative is infinite" in text and "ek.where" not in text
    _, text = _run("1.3", lambda x: x / (1.0 + ek.where(x > 0, ek.sqrt(x * x), -x)))
    assert "an ek.where that discards that branch" in text


def test_a_gradient_function_without_return_is_asked_about_its_return():
    @ek.custom_gradient
    def sigmoid(x):
        s = 1.0 / (1.0 + ek.exp(-x))

        def grad(dy):
            dy * s * (1.0 - s)  # noqa: B018 (the slip: no return)

        return s, grad

    _, text = _run("4.1", sigmoid)
    assert "the gradient function of your sigmoid returned None (is its return missing?)" in text
    assert "ek.round" not in text


def test_assign_on_a_tensor_is_told_that_a_tensor_never_changes():
    def momentum_step(weight, velocity, grad):
        velocity.assign(0.9 * velocity + grad)
        return weight - 0.1 * velocity, velocity

    result, text = _run("6.1", momentum_step)
    assert result.status == "wrong" and "AttributeError" in text
    assert "assign is a method of ek.Variable; an ek.Tensor is a value that never changes" in text


def test_an_integer_mean_and_a_floor_division_are_named_where_a_float_is_asked():
    def batch_accuracy(logits, labels):
        hits = ek.equal(ek.cast(ek.argmax(logits, axis=1), ek.int32), labels)
        return ek.cast(ek.reduce_mean(ek.cast(hits, ek.int32)), ek.float32)

    _, text = _run("7.2", batch_accuracy)
    assert "a mean of integers is an integer" in text and "no single op" not in text
    _, text = _run("2.2", lambda x: 1.0 // (1.0 + ek.exp(-x)))
    assert "// is floor division" in text and "off by the same factor" not in text


def _accuracy_with(argmax_axis, cast=True):
    def batch_accuracy(logits, labels):
        predicted = ek.argmax(logits, axis=argmax_axis)
        predicted = ek.cast(predicted, ek.int32) if cast else predicted
        return ek.reduce_mean(ek.cast(ek.equal(predicted, labels), ek.float32))

    return batch_accuracy


def _no_return(logits, labels):
    ek.argmax(logits, axis=1)


CLASSES_ADVICE = "the predicted classes are an argmax over the classes (axis 1), one per example"


@pytest.mark.parametrize(
    "answer, advised",
    [
        (_accuracy_with(0), True),  # over the examples: (classes,) beside (examples,)
        (_accuracy_with(2), True),  # an axis the logits lack
        (_no_return, True),
        (_accuracy_with(1, cast=False), False),  # int64 beside int32: the dtype error says it
        (lambda logits, labels: logits.argmax(axis=1), False),  # a missing name says it
    ],
)
def test_accuracy_advice_follows_the_shared_check_of_shape_errors(answer, advised):
    result, text = _run("7.2", answer)
    assert result.status == "wrong"
    assert (CLASSES_ADVICE in text) is advised, text


def test_an_axis_the_tensor_lacks_is_an_error_about_shapes_in_every_lesson():
    def pair_scores(embed, weights, bias):  # rank 3 has no axis 3
        return ek.reduce_sum(weights * ek.expand_dims(embed, 1), axis=3) + bias

    result, text = _run("11.1", pair_scores)
    assert result.status == "wrong" and "axis 3 is out of range" in text
    assert "each score is the dot product of each candidate's weights" in text
