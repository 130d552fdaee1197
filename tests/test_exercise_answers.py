"""Every exercise of lessons 01-11 against a typical wrong answer: the check says wrong,
says why, and, where the answer is a function, names the op on the student's tape.

(The right answers are the solution cells of the lessons: nbval runs them, and
tests/test_student_copies.py checks that each of their check cells says "right".)
"""

import pytest
from eagerkit.widgets.exercises import exercise

import eagerkit as ek


@pytest.fixture(autouse=True)
def simulated_gpu():
    ek.devices.enable_simulated_gpu()
    yield
    ek.devices.disable_simulated_gpu()


def sweep_without_fan_out():
    return [3.0, 5.0]  # df/db counted along one use of b only


def logistic_wrong_sign(x):
    return 1.0 / (1.0 + ek.exp(x))


def gradient_of_unwatched(x):
    with ek.GradientTape() as tape:
        y = x * x
    return tape.gradient(y, x)


def first_derivative_only(x):
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = x**4 + x
    return tape.gradient(y, x)


@ek.custom_gradient
def sigmoid_half_vjp(x):
    s = 1.0 / (1.0 + ek.exp(-x))
    return s, lambda dy: dy * s  # forgot (1 - s)


@ek.custom_gradient
def clip_by_norm_still(x):
    return ek.identity(x), lambda dy: ek.clip_by_norm(dy, 1.0)


def round_without_custom_gradient(x):
    return ek.round(x)


def mean_error_without_abs(predicted, target):
    return ek.reduce_mean(predicted - target)


def huber_without_half(t, m=1.0):
    return ek.where(ek.abs(t) <= m, t * t, m * (ek.abs(t) - 0.5 * m))


def momentum_with_old_velocity(weight, velocity, grad):
    return weight - 0.1 * velocity, 0.9 * velocity + grad


def accuracy_without_cast(logits, labels):
    return ek.reduce_mean(ek.cast(ek.equal(ek.argmax(logits, axis=1), labels), ek.float32))


def relu_before_bias(x, kernel, bias):
    return ek.nn.relu(ek.matmul(x, kernel)) + bias


def naive_logsumexp(logits):
    return ek.log(ek.reduce_sum(ek.exp(logits), axis=1))


def squares_left_on_sim(x):
    on_sim = ek.copy_to_device(x, "/sim:0")
    return ek.reduce_sum(on_sim * on_sim)


@ek.function
def poly_one_trace_per_length(x):
    return 3.0 * x * x + 2.0 * x + 1.0


@ek.function
def frozen_sign(x):
    return ek.ones_like(x) if x[0] > 0 else -ek.ones_like(x)


def scores_without_bias(embed, weights, bias):
    return ek.reduce_sum(weights * ek.expand_dims(embed, 1), axis=2)


def cosine_without_second_norm(a, b):
    return ek.reduce_sum(a * b) / ek.norm(a)


CASES = [
    # key, a typical wrong answer, what the check must say, the op it must name
    ("1.2", 110, "your answer is too small (110)", None),
    ("2.1", sweep_without_fan_out(), "df/db in your answer is too small (5.0)", None),
    ("2.2", logistic_wrong_sign, "logistic_wrong_sign([-2.0, 0.0, 1.5]) differs", "exp"),
    ("3.1", gradient_of_unwatched, "gradient_of_unwatched(4.0) returned None", None),
    (
        "3.2",
        [ek.constant(0.87758255), ek.constant(0.84147096)],
        "dz/dx in your answer differs: it is 0.8776 where 0.8415 is expected",
        None,
    ),
    ("3.3", first_derivative_only, "returns the wrong one of them", None),
    ("4.1", sigmoid_half_vjp, "with respect to x differs at element [0]", "sigmoid_half_vjp"),
    ("4.2", clip_by_norm_still, "with respect to x differs at element [0]", "clip_by_norm_still"),
    ("4.3", round_without_custom_gradient, "is None: no gradient reaches x", None),
    ("5.1", mean_error_without_abs, "differs: it is -0.25 where 1.0 is expected", "reduce_mean"),
    ("5.2", huber_without_half, "element [1]: it is 0.25 where 0.125 is expected", "multiply"),
    (
        "6.1",
        momentum_with_old_velocity,
        "the new weight in momentum_with_old_velocity(",
        "multiply",
    ),
    ("6.2", [0.6, 0.6], "a in your answer differs: it is 0.6 where 1.0 is expected", None),
    ("7.1", 128 * 64 + 128 + 1290, "your answer is too large (9610)", None),
    ("7.2", accuracy_without_cast, "your code raised InvalidArgumentError", None),
    ("7.3", relu_before_bias, "relu_before_bias(", "relu"),
    ("8.1", "exp", "your answer is 'exp', but something else is expected", None),
    ("8.2", naive_logsumexp, "it is inf where 200.0 is expected", "exp"),
    (
        "9.1",
        ek.constant([[7.0, 10.0], [15.0, 22.0]]),
        "is on /cpu:0 but is expected on /sim:0",
        None,
    ),
    ("9.2", squares_left_on_sim, "is on /sim:0 but is expected on /cpu:0", None),
    ("10.1", poly_one_trace_per_length, "poly traced 3 times for vectors of 3 lengths", None),
    ("10.2", frozen_sign, "frozen_sign([2.0, 0.5]) was right: an ek.function traced then", None),
    ("11.1", scores_without_bias, "differs at element [0, 0]: it is 1.0 where 1.1", None),
    ("11.2", cosine_without_second_norm, "it is 0.8165 where 0.3563 is expected", "truediv"),
]


@pytest.mark.parametrize(("key", "answer", "says", "op"), CASES, ids=[c[0] for c in CASES])
def test_a_typical_wrong_answer_is_caught(key, answer, says, op):
    result = exercise(key).check(answer)
    assert result.status == "wrong", repr(result)
    assert says in repr(result)
    assert result.op == op, repr(result)
    if "is on /" in says:  # a device mismatch: the values are right, no op is to blame
        assert len(result.lines) == 1
    if op is not None:  # the view shows the student's tape with that op highlighted
        highlight = result.view.graph["highlight"]
        assert highlight["record"] == result.record
        assert f"record {result.record + 1}: {highlight['text']}" in repr(result)


def test_every_exercise_of_lessons_1_to_11_is_tested_here():
    keys = {case[0] for case in CASES} | {"1.1", "1.3"}  # 1.1, 1.3: tests/test_exercises.py
    expected = set()
    for lesson in range(1, 12):
        k = 1
        while True:
            try:
                exercise(f"{lesson}.{k}")
            except KeyError:
                break
            expected.add(f"{lesson}.{k}")
            k += 1
        assert 2 <= k - 1 <= 4, f"lesson {lesson} has {k - 1} exercises"
    assert keys == expected
