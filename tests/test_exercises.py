"""The exercise checks: right answers pass, placeholders say "not answered yet", and a
typical wrong answer is reported as wrong with the reason and the op that went wrong."""

import pytest
from eagerkit.widgets import TapeView
from eagerkit.widgets.exercises import FunctionExercise, ValueExercise, exercise

import eagerkit as ek


def test_a_placeholder_is_not_answered_yet_and_never_an_error():
    result = exercise("1.1").check(...)
    assert result.status == "unanswered" and not result
    assert repr(result).startswith("Exercise 1.1 · Your first tensor: not answered yet")
    assert 'exercise("1.1").hint()' in repr(result)


def test_a_function_left_as_in_the_student_copy_is_not_answered_yet():
    def softsign(x): ...  # your code here

    result = exercise("1.3").check(softsign)
    assert result.status == "unanswered"
    assert "replace the ... with your answer" in repr(result)


def test_a_function_that_returns_none_is_wrong_and_says_so():
    def softsign(x):
        x / (1.0 + ek.abs(x))  # no return

    result = exercise("1.3").check(softsign)
    assert result.status == "wrong"
    assert result.lines == [
        "softsign([-3.0, -0.5, 0.0, 2.0]) returned None: is a return missing, or is it a "
        "gradient that came out None (was the source watched?)"
    ]


def test_a_value_of_the_wrong_dtype_is_named():
    result = exercise("1.1").check(ek.constant([[0, 1, 2], [3, 4, 5]]))
    assert result.status == "wrong"
    assert result.lines == ["your answer has dtype int32 but float32 is expected"]


def test_wrong_kind_shape_and_element_are_each_said():
    ex = exercise("1.1")
    assert ex.check([[0.0, 1.0, 2.0]]).lines == ["your answer is a list; an ek.Tensor is expected"]
    assert ex.check(ek.constant([0.0, 1.0])).lines == [
        "your answer has shape (2,) but shape (2, 3) is expected"
    ]
    assert ex.check(ek.constant([[0.0, 1.0, 2.0], [3.0, 4.5, 5.0]])).lines == [
        "your answer differs at element [1, 1]: it is 4.5 where 4.0 is expected"
    ]


def test_a_number_that_is_the_answer_is_not_revealed():
    result = exercise("1.2").check(110)
    assert result.lines == ["your answer is too small (110)"]
    assert "111" not in repr(result)


def test_a_wrong_forward_is_traced_to_the_first_wrong_op_on_the_students_tape():
    def softsign(x):
        return x / 1.0 + ek.abs(x)  # brackets forgotten: (x / 1) + |x|

    result = exercise("1.3").check(softsign)
    assert result.status == "wrong"
    assert result.lines[0] == (
        "softsign([-3.0, -0.5, 0.0, 2.0]) differs at element [0]: it is 0.0 where -0.75 is expected"
    )
    # x / 1.0 and |x| are values the reference makes too; their sum is not.
    assert (result.record, result.op) == (2, "add")
    assert "record 3: softsign = add(t1, t2)" in result.lines[1]
    assert isinstance(result.view, TapeView)
    highlight = result.view.graph["highlight"]
    assert highlight["record"] == 2 and highlight["text"] == "softsign = add(t1, t2)"
    assert highlight["note"] == "the first op whose value the correct computation never makes"


def test_a_wrong_custom_vjp_names_the_input_the_element_and_the_op():
    @ek.custom_gradient
    def softsign(x):
        def grad(g):
            return g / (1.0 + ek.abs(x))  # forgot to square the denominator

        return x / (1.0 + ek.abs(x)), grad

    result = exercise("1.3").check(softsign)
    assert result.status == "wrong"
    assert result.lines[0] == (
        "the gradient of softsign([-3.0, -0.5, 0.0, 2.0]) with respect to x differs at "
        "element [0]: it is 0.25 where 0.0625 is expected"
    )
    assert result.op == "softsign" and "VJP" in result.lines[1]


def test_a_vjp_that_the_tape_cannot_differentiate_fails_at_order_2():
    @ek.custom_gradient
    def softsign(x):
        def grad(g):  # right values, computed outside the tape (numpy)
            return g * ek.constant(1.0 / (1.0 + abs(x.numpy())) ** 2)

        return x / (1.0 + ek.abs(x)), grad

    result = exercise("1.3").check(softsign)
    assert result.status == "wrong"
    assert "order-2 derivative" in result.lines[0] and "with respect to x" in result.lines[0]
    assert result.op == "softsign"
    assert "cannot differentiate softsign's VJP again" in result.lines[1]


def test_an_answer_that_raises_is_reported_not_raised():
    def softsign(x):
        return x / (1.0 + ek.abs(x)) + ek.constant(1)  # float32 + int32

    result = exercise("1.3").check(softsign)
    assert result.status == "wrong"
    assert result.lines[0].startswith("your code raised InvalidArgumentError")


def test_hints_come_one_at_a_time_and_stop_at_the_last():
    ex = ValueExercise("99.1", "A test", expected=lambda: 1.0, hints=["first", "second"])
    assert repr(ex.hint()) == "Hint 1 of 2 for exercise 99.1: first"
    assert repr(ex.hint()) == "Hint 2 of 2 for exercise 99.1 (the last one): second"
    assert repr(ex.hint()) == "Hint 2 of 2 for exercise 99.1 (the last one): second"


def test_the_check_shows_html_and_text_alike():
    result = exercise("1.1").check(ek.constant([[0, 1, 2], [3, 4, 5]]))
    page = result._repr_html_()
    assert "eagerkit-check-wrong" in page and "dtype int32 but float32" in page


def test_a_function_exercise_compares_gradients_of_integer_inputs_not_at_all():
    ex = FunctionExercise(
        "99.2",
        "Scale",
        reference=lambda x, k: x * ek.cast(k, ek.float32),
        inputs=[([1.0, 2.0], 3)],
        hints=["-"],
    )
    assert ex.check(lambda x, k: x * ek.cast(k, ek.float32)).passed
    assert ex.check(lambda x, k: x * 3.0).passed  # same values and same gradient w.r.t. x


def test_unknown_exercises_say_what_exists():
    with pytest.raises(KeyError, match="lesson 1 has 1.1, 1.2, 1.3"):
        exercise("1.9")
    with pytest.raises(KeyError, match="lesson 98 has no exercises"):
        exercise("98.1")
