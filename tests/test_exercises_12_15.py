"""The exercises of lessons 12-15, checked both ways: the lesson's answer passes, the
placeholder says "not answered yet", and the typical wrong answer is caught with the reason
and, where one op is to blame, that op named."""

import numpy as np
import pytest
from eagerkit.widgets.exercises import exercise

import eagerkit as ek
from eagerkit.registry import REGISTRY, defop


@pytest.fixture(autouse=True)
def _forget_student_ops():
    before = dict(REGISTRY)
    yield
    REGISTRY.clear()
    REGISTRY.update(before)


def _sqrt_op(vjp):
    @defop("student_sqrt")
    def student_sqrt(xp, x):
        return xp.sqrt(x)

    student_sqrt.defvjp(vjp)
    return student_sqrt


def test_12_1_a_missing_vjp_is_unanswered_and_a_wrong_one_is_named():
    assert exercise("12.1").check(_sqrt_op(lambda ops, g, ans, x: ...)).status == "unanswered"
    wrong = exercise("12.1").check(_sqrt_op(lambda ops, g, ans, x: g / ans))
    assert wrong.status == "wrong" and wrong.op == "student_sqrt"
    assert wrong.lines[0] == (
        "the gradient of student_sqrt([0.25, 1.0, 4.0]) with respect to x differs at "
        "element [0]: it is 2.0 where 1.0 is expected"
    )
    assert "the op whose VJP sends the first wrong gradient" in wrong.lines[1]
    assert exercise("12.1").check(_sqrt_op(lambda ops, g, ans, x: g / (2.0 * ans)))
    assert exercise("12.1").check(ek.sqrt).status == "wrong"  # not the student's own op


def _hypot_op(forward, vjp_x, vjp_y):
    op = defop("student_hypot")(forward)
    op.defvjp(vjp_x, vjp_y)
    return op


def test_12_2_swapped_vjps_name_the_input_and_the_op():
    def forward(xp, x, y):
        return xp.sqrt(x * x + y * y)

    def blank(xp, x, y): ...

    def blank_vjp(ops, g, ans, x, y): ...

    def right_x(ops, g, ans, x, y):
        return g * x / ans

    def right_y(ops, g, ans, x, y):
        return g * y / ans

    unanswered = exercise("12.2").check(_hypot_op(blank, blank_vjp, blank_vjp))
    assert unanswered.status == "unanswered"
    assert "student_hypot's forward returns None" in unanswered.lines[0]
    unanswered = exercise("12.2").check(_hypot_op(forward, right_x, blank_vjp))
    assert "student_hypot's VJP for input 1 returns None" in unanswered.lines[0]
    swapped = exercise("12.2").check(_hypot_op(forward, right_y, right_x))
    assert swapped.status == "wrong" and swapped.op == "student_hypot"
    assert "with respect to x differs at element [0]: it is 0.8 where 0.6" in swapped.lines[0]
    assert exercise("12.2").check(_hypot_op(forward, right_x, right_y))


def _tanh_op(vjp):
    op = defop("student_tanh")(lambda xp, x: xp.tanh(x))
    op.defvjp(vjp)
    return op


def test_12_3_a_vjp_through_numpy_fails_at_second_order_and_says_why():
    through_numpy = exercise("12.3").check(
        _tanh_op(lambda ops, g, ans, x: g * (1.0 - np.tanh(x) ** 2))
    )
    assert through_numpy.status == "wrong" and through_numpy.op == "student_tanh"
    assert through_numpy.lines[0].startswith("the order-2 derivative")
    assert "cannot differentiate student_tanh's VJP again" in through_numpy.lines[1]
    assert exercise("12.3").check(_tanh_op(lambda ops, g, ans, x: g * (1.0 - ans * ans)))
    assert exercise("12.3").check(_tanh_op(lambda ops, g, ans, x: g * (1.0 - ops.tanh(x) ** 2)))


def test_13_1_the_broken_line_reports_the_error_and_the_transposed_one_the_shape():
    raised = exercise("13.1").check(lambda images, weights: ek.matmul(weights, images))
    assert raised.status == "wrong"
    assert raised.lines[0].startswith("your code raised InvalidArgumentError: matmul")
    transposed = exercise("13.1").check(
        lambda images, weights: ek.matmul(weights, images, transpose_b=True)
    )
    assert transposed.lines[0].endswith("has shape (3, 2) but shape (2, 3) is expected")
    assert exercise("13.1").check(lambda i, w: ek.matmul(i, ek.transpose(w)))


def test_13_2_the_naive_root_is_caught_at_sqrt():
    def naive(x):
        return ek.where(x > 0, ek.sqrt(x), 0.0)

    result = exercise("13.2").check(naive)
    assert result.status == "wrong"
    assert "with respect to x" in result.lines[0] and "nan" in result.lines[0]
    assert result.op == "sqrt"


def test_13_3_the_op_name_is_a_string_and_not_revealed():
    assert exercise("13.3").check(...).status == "unanswered"
    wrong = exercise("13.3").check("log")
    assert wrong.status == "wrong" and "sqrt" not in repr(wrong)
    assert exercise("13.3").check("sqrt")


def test_14_1_a_loop_has_the_right_values_but_too_many_ops():
    def in_a_loop(x):
        return ek.stack([ek.sqrt(ek.reduce_sum(row * row)) for row in x])

    result = exercise("14.1").check(in_a_loop)
    assert result.status == "wrong"
    (line,) = result.lines
    assert line.startswith("the values and gradients are right, but your function records ")
    assert line.endswith(" ops for 6 rows; batched, it needs at most 4")
    assert exercise("14.1").check(lambda x: ek.sqrt(ek.reduce_sum(ek.square(x), axis=1)))


def test_14_2_retracing_is_caught():
    @ek.function
    def scaled_update(w, g, learning_rate):
        return w - learning_rate * g

    def run(convert):
        w, g = ek.constant([1.0, 2.0]), ek.constant([0.5, 0.5])
        for step in range(5):
            w = scaled_update(w, g, convert(0.1 / (step + 1)))
        return w

    w = run(float)
    assert exercise("14.2").check((w, scaled_update.trace_count)).lines == [
        "item 1 of your answer differs: it is 5 where 1 is expected"
    ]
    assert exercise("14.2").check((..., 0)).status == "unanswered"
    scaled_update = ek.function(scaled_update.python_function)
    w = run(ek.constant)
    assert exercise("14.2").check((w, scaled_update.trace_count))


def test_15_1_a_sigmoid_for_the_tanh_is_named():
    def with_sigmoid(x, h, w_x, w_h, b):
        return ek.sigmoid(ek.matmul(x, w_x) + ek.matmul(h, w_h) + b)

    result = exercise("15.1").check(with_sigmoid)
    assert result.status == "wrong" and result.op == "sigmoid"
    assert exercise("15.1").check(
        lambda x, h, w_x, w_h, b: ek.tanh(ek.matmul(x, w_x) + ek.matmul(h, w_h) + b)
    )


def test_15_2_temperature_applied_after_the_softmax_is_wrong():
    result = exercise("15.2").check(lambda logits, t: ek.nn.softmax(logits) / t)
    # The softmax's first op already works on the undivided logits.
    assert result.status == "wrong" and result.op == "subtract"
    assert result.lines[0].endswith("differs at element [0]: it is 1.276 where 0.8619 is expected")
    assert exercise("15.2").check(lambda logits, t: ek.nn.softmax(logits / t))
