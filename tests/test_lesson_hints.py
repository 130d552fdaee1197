"""Lessons 08-15's own messages: each names the student's mistake, and none sends the student
after something their answer does not contain (a frozen trace, an off-by-one, parentheses).

The corpus (test_exercise_corpus.py) checks the words a message must contain on real answers
run in their lessons; these call the checks directly, on any seed, and pin what a message
must not say."""

import math

import numpy as np
import pytest
from eagerkit.widgets.exercises import exercise
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.registry import defop

SEEDS = st.integers(1, 10**6)


def _text(result):
    return "\n".join(result.lines)


@settings(max_examples=15, deadline=None)
@given(SEEDS)
def test_a_sign_wrong_only_at_zero_is_told_0_must_give_minus_1_not_a_frozen_trace(seed):
    for wrong_at_zero in (ek.sign, lambda x: ek.where(x >= 0, 1.0, -1.0), lambda x: x / ek.abs(x)):
        result = exercise("10.2").check(ek.function(wrong_at_zero), seed=seed)
        assert result.status == "wrong"
        assert "0 must give -1" in _text(result) and "frozen" not in _text(result)


def test_a_sign_read_once_while_tracing_is_told_the_trace_froze_it():
    @ek.function
    def graph_sign(x):
        return ek.ones_like(x) if float(ek.reduce_min(x)) > 0 else -ek.ones_like(x)

    said = _text(exercise("10.2").check(graph_sign, seed=1))
    assert "frozen" in said and "0 must give" not in said


def test_the_rerun_line_of_10_1_names_poly_whatever_the_function_is_called():
    def _poly(x):
        return 3.0 * x * x + 2.0 * x + 1.0

    for poly in (ek.function(_poly), ek.function(_poly).get_concrete_function(ek.TensorSpec([3]))):
        said = _text(exercise("10.1").check(poly, seed=4))
        assert 'exercise("10.1").check(poly, seed=4)' in said, said


def test_one_minus_the_cosine_is_called_the_cosine_distance_not_a_parenthesis_slip():
    def cosine_similarity(a, b):
        return 1.0 - ek.reduce_sum(a * b) / (ek.norm(a) * ek.norm(b))

    result = exercise("11.2").check(cosine_similarity, seed=1)
    assert "cosine distance" in _text(result) and "parentheses" not in _text(result)
    assert result.op == "subtract"  # the op that made it is still pointed at


_OPS = iter(range(10**6))  # defop names are global: one fresh name per op defined here


def _hypot(forward):
    op = defop(f"hints_test_hypot_{next(_OPS)}")(forward)
    op.defvjp(lambda ops, g, ans, x, y: g * x / ans, lambda ops, g, ans, x, y: g * y / ans)
    return op


def test_a_forward_runs_on_the_lessons_gpu_too_so_ek_ops_in_it_are_wrong_and_xp_ones_right():
    with_ek = _text(exercise("12.2").check(_hypot(lambda xp, x, y: ek.sqrt(x * x + y * y))))
    assert "on the lesson's GPU" in with_ek and "with xp. calls" in with_ek
    for forward in (lambda xp, x, y: xp.sqrt(x * x + y * y), lambda xp, x, y: np.hypot(x, y)):
        assert exercise("12.2").check(_hypot(forward)).status == "right"


def test_math_on_arrays_and_xp_in_a_vjp_are_told_what_each_part_computes_with():
    said = _text(exercise("12.2").check(_hypot(lambda xp, x, y: math.hypot(x, y)), seed=1))
    assert "work on one Python number" in said
    my_sqrt = defop(f"hints_test_sqrt_{next(_OPS)}")(lambda xp, x: xp.sqrt(x))
    my_sqrt.defvjp(lambda ops, g, ans, x: g / (2.0 * xp.sqrt(x)))  # noqa: F821 - the mistake
    said = _text(exercise("12.1").check(my_sqrt, seed=1))
    assert "NameError" in said and "xp is the forward's" in said


@settings(max_examples=15, deadline=None)
@given(SEEDS)
def test_weights_not_transposed_raise_the_shape_error_on_every_seed(seed):
    def scores(images, weights):
        return ek.matmul(images, weights)

    said = _text(exercise("13.1").check(scores, seed=seed))
    assert "inner dimensions do not match" in said and "features must meet" in said


@settings(max_examples=15, deadline=None)
@given(SEEDS)
def test_weights_reshaped_for_a_transpose_blame_the_reshape(seed):
    def scores(images, weights):
        return ek.matmul(images, ek.reshape(weights, [weights.shape[1], weights.shape[0]]))

    result = exercise("13.1").check(scores, seed=seed)
    assert "a reshape keeps the order of the elements" in _text(result)
    assert result.op == "reshape"


_W = ek.constant([1.0, 2.0]) - 0.5 * sum(0.1 / (k + 1) for k in range(5))


@pytest.mark.parametrize(
    "answer, says",
    [
        ((ek.constant([1.0, 2.0]), 0), "never ran"),
        ((_W, 0), "never ran"),
        ((_W, 5), "a Python float's value is part of the trace's signature"),
        ((ek.constant([0.75, 1.75]), 1), "the rate must still decay"),
    ],
)
def test_a_trace_count_of_0_or_one_per_step_says_what_it_means(answer, says):
    said = _text(exercise("14.2").check(answer))
    assert says in said and "off by one" not in said, said


def test_the_right_14_2_answer_is_right():
    assert exercise("14.2").check((_W, 1)).status == "right"


def test_a_tuple_from_rnn_step_is_told_to_return_the_state_alone():
    def rnn_step(x, h, w_x, w_h, b):
        state = ek.tanh(ek.matmul(x, w_x) + ek.matmul(h, w_h) + b)
        return state, state

    said = _text(exercise("15.1").check(rnn_step, seed=1))
    assert "tuple of 2" in said and "the one asked for is the new state" in said
    assert "axis" not in said and "keepdims" not in said


def test_a_naive_softmax_that_overflows_is_told_to_subtract_the_max():
    def probabilities(logits, temperature):
        e = ek.exp(logits / temperature)
        return e / ek.reduce_sum(e, axis=-1, keepdims=True)

    said = _text(exercise("15.2").check(probabilities, seed=1))
    assert "overflows float32" in said and "subtract each row's max" in said


def test_a_value_returned_off_the_tape_is_not_a_tensor():
    def sum_of_squares_on_gpu(x):
        on_gpu = ek.copy_to_device(x, "/gpu:0")
        return ek.copy_to_device(ek.reduce_sum(on_gpu * on_gpu), "/cpu:0").numpy()

    said = _text(exercise("9.2").check(sum_of_squares_on_gpu, seed=1))
    assert "an ek.Tensor is expected" in said and "is None" not in said


def test_squares_not_summed_quote_the_words_about_the_sum_not_the_device():
    def sum_of_squares_on_gpu(x):
        on_gpu = ek.copy_to_device(x, "/gpu:0")
        return ek.copy_to_device(on_gpu * on_gpu, "/cpu:0")

    said = _text(exercise("9.2").check(sum_of_squares_on_gpu, seed=1))
    assert '"square and sum it there"' in said and '/cpu:0")' not in said
    assert "the square of each element: the exercise sums them too" in said


@settings(max_examples=15, deadline=None)
@given(SEEDS)
def test_a_pairing_mistake_in_11_1_is_told_the_dot_products_whether_it_raises_or_not(seed):
    """A plain matmul, or a sum over the candidates, raises on some draws of sizes and gives
    wrong values on others: either way the message names what each score is."""
    wrong = (
        lambda embed, weights, bias: ek.matmul(embed, weights) + bias,
        lambda embed, weights, bias: ek.reduce_sum(ek.expand_dims(embed, 1) * weights, 1) + bias,
    )
    for pair_scores in wrong:
        result = exercise("11.1").check(pair_scores, seed=seed)
        assert result.status == "wrong"
        assert "dot product of each candidate" in _text(result), _text(result)


@settings(max_examples=15, deadline=None)
@given(SEEDS)
def test_columns_named_one_by_one_in_14_1_are_told_the_sum_over_each_row_at_every_seed(seed):
    def row_norms(x):
        return ek.sqrt(x[:, 0] ** 2 + x[:, 1] ** 2)

    result = exercise("14.1").check(row_norms, seed=seed)
    assert result.status == "wrong"
    assert "sum of the squares of each row" in _text(result), _text(result)


def test_13_1_says_the_features_meet_in_the_middle_only_for_a_shape_error():
    def transposed_images(images, weights):
        return ek.matmul(images, weights, transpose_a=True)

    def integer_weights(images, weights):
        return ek.matmul(images, ek.cast(ek.transpose(weights), ek.int32))

    def no_return(images, weights):
        ek.matmul(images, weights, transpose_b=True)

    assert "meet in the middle" in _text(exercise("13.1").check(transposed_images, seed=2))
    for answer in (integer_weights, no_return):
        result = exercise("13.1").check(answer, seed=2)
        assert result.status == "wrong" and "meet in the middle" not in _text(result), result
