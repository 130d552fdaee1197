"""AutoGraph: Python's if/while/for/break/continue/return over tensors inside ek.function
become graph control flow, decided at every call; over Python values they stay Python."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError


def simple_relu(x):
    if ek.greater(x, 0):
        return x
    else:
        return 0


def relu_without_else(x):
    if x > 0:
        return x
    return 0


def test_an_if_over_a_tensor_decides_at_every_call():
    for f in (simple_relu, relu_without_else):
        traced = ek.function(f)
        assert traced(ek.constant(1)).numpy() == 1
        assert traced(ek.constant(-1)).numpy() == 0  # TF: 0 (the other branch), not -1
        assert traced(ek.constant(7)).numpy() == 7
        assert traced.trace_count == 1


def test_to_code_shows_the_converted_function():
    code = ek.autograph.to_code(relu_without_else)
    assert code == (
        "def relu_without_else(x):\n\n"
        "    def if_true():\n        return x\n\n"
        "    def if_false():\n        return 0\n"
        "    return ag__.if_stmt(x > 0, if_true, if_false)"
    )
    assert ek.autograph.to_code(ek.function(relu_without_else)) == code  # an ek.function too


def test_to_code_of_a_function_without_control_flow_is_its_source():
    def plain(x):
        return x * 2

    assert ek.autograph.to_code(plain) == "def plain(x):\n    return x * 2"
    with pytest.raises(ValueError, match="to_code: cannot convert"):
        ek.autograph.to_code(lambda x: x)


def _collatz(n):
    steps = ek.constant(0)
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def test_a_while_loop_over_tensors_runs_as_many_times_as_each_call_needs():
    traced = ek.function(_collatz)
    for start, steps in ((27, 111), (6, 8), (1, 0), (7, 16)):  # Collatz(27) = 111 steps
        assert int(traced(ek.constant(start))) == steps
    assert traced.trace_count == 1
    ops = [node.name for node in traced.get_concrete_function(ek.constant(6)).graph.ops]
    assert "while_loop" in ops


def _fizzbuzz(n):
    for i in ek.range(1, n + 1):
        print("Tracing for loop")
        if i % 15 == 0:
            ek.print("fizzbuzz")
        elif i % 3 == 0:
            ek.print("fizz")
        elif i % 5 == 0:
            ek.print("buzz")
        else:
            ek.print(i)


def _fizzbuzz_reference(n):
    return [
        "fizzbuzz" if i % 15 == 0 else "fizz" if i % 3 == 0 else "buzz" if i % 5 == 0 else str(i)
        for i in range(1, n + 1)
    ]


def test_fizzbuzz_over_a_tensor_length_works_for_each_new_length(capsys):
    traced = ek.function(_fizzbuzz)
    traced(ek.constant(5))
    assert capsys.readouterr().out.splitlines() == ["Tracing for loop", *_fizzbuzz_reference(5)]
    for n in (20, 0, 16, 3):
        traced(ek.constant(n))
        assert capsys.readouterr().out.splitlines() == _fizzbuzz_reference(n)
    assert traced.trace_count == 1


def test_python_conditions_stay_python(capsys):
    @ek.function
    def f(x, double):
        if double:  # a Python bool: one branch traced, per value
            print("tracing double")
            x = x * 2
        else:
            print("tracing single")
        for _ in range(3):  # a Python range: unrolled
            x = x + 1
        return x

    assert float(f(ek.constant(1.0), True)) == 5.0
    assert float(f(ek.constant(1.0), False)) == 4.0
    assert capsys.readouterr().out == "tracing double\ntracing single\n"
    graph = f.get_concrete_function(ek.constant(1.0), True).graph
    assert [n.name for n in graph.ops] == ["multiply", "add", "add", "add"]


def test_both_branches_trace_and_only_the_taken_one_runs(capsys):
    @ek.function
    def f(x):
        print("before if")
        if x > 0:
            print("true branch")
            ek.print("ran true")
        else:
            print("false branch")
            ek.print("ran false")
        print("after if")

    f(ek.constant(1))
    assert capsys.readouterr().out == (
        "before if\ntrue branch\nfalse branch\nafter if\nran true\n"
    )  # as in TF's AutoGraph reference: both traced, the effect of one
    f(ek.constant(-1))
    assert capsys.readouterr().out == "ran false\n"


def test_break_continue_and_python_values_that_become_tensors():
    def first_negative_index(x):
        found = -1
        i = 0
        for value in x:
            if value >= 0:
                i += 1
                continue
            found = i
            break
        return found

    traced = ek.function(first_negative_index)
    for values in ([1.0, 2.0, -1.0, -5.0], [-3.0, 1.0], [1.0, 1.0], [0.0, 0.0, 0.0, -0.5]):
        expected = next((k for k, v in enumerate(values) if v < 0), -1)
        assert int(traced(ek.constant(values))) == expected
    assert traced.trace_count == 2  # one per length: 4 and 2
    assert first_negative_index(ek.constant([1.0, -1.0])) == 1  # eagerly: plain Python


def test_while_with_break_and_and_or_not():
    @ek.function
    def count_until(limit, stop):
        i = ek.constant(0)
        while i < limit and not (i == stop):
            i += 1
            if i > 100 or i < 0:
                break
        return i

    assert int(count_until(ek.constant(10), ek.constant(4))) == 4
    assert int(count_until(ek.constant(3), ek.constant(7))) == 3
    assert int(count_until(ek.constant(500), ek.constant(-1))) == 101
    assert count_until.trace_count == 1


def test_a_for_loop_over_a_tensor_iterates_its_first_axis():
    @ek.function
    def total(rows):
        acc = ek.zeros([2])
        for row in rows:
            acc += row * row
        return acc

    for n in (1, 3):
        values = np.arange(2 * n, dtype=np.float32).reshape(n, 2)
        np.testing.assert_allclose(total(ek.constant(values)), (values**2).sum(axis=0))


def test_a_name_set_in_one_branch_only_is_undefined_after_it():
    @ek.function
    def f(x):
        if x > 0:
            y = x
        return y  # noqa: F821 - undefined on one path: the error says so

    with pytest.raises(NameError, match="'y' is used before it has a value .* only one branch"):
        f(ek.constant(1.0))

    @ek.function
    def g(x):
        if x > 0:
            return x

    with pytest.raises(ValueError, match="A value must also be returned from the else branch"):
        g(ek.constant(1.0))


def test_branches_must_agree_on_dtypes():
    @ek.function
    def f(x):
        if x > 0:
            y = ek.constant(1.0)
        else:
            y = ek.constant(1)
        return y

    with pytest.raises(TypeError, match="'y' has a different type in each branch"):
        f(ek.constant(1.0))


def test_a_condition_over_many_values_is_refused_clearly():
    @ek.function
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(InvalidArgumentError, match=r"must be one bool, got shape \(2,\)"):
        f(ek.constant([1.0, 2.0]))


def test_a_loop_whose_condition_turns_into_a_tensor_is_refused():
    @ek.function
    def f(x):
        i = 0
        while i < 3:  # a Python value at first
            i = x  # then a tensor: TF refuses this loop too
        return i

    with pytest.raises(InvalidArgumentError, match="became a loop over a tensor"):
        f(ek.constant(5))


def test_loops_with_a_return_inside_stay_python():
    def first_big(values):
        for v in values:  # a Python list: this loop is Python anyway
            if v > 10:
                return v
        return -1

    traced = ek.function(first_big)
    assert int(traced([ek.constant(3), ek.constant(12)])) == 12
    assert "for v in values" in ek.autograph.to_code(first_big)


def test_globals_closures_and_defaults_are_the_originals():
    scale = ek.constant(3.0)

    def f(x, offset=1.0):
        global _SEEN
        if x > 0:
            _SEEN = True
            y = x * scale + offset
        else:
            y = x
        return y

    traced = ek.function(f)
    assert float(traced(ek.constant(2.0))) == 7.0
    assert float(traced(ek.constant(-2.0))) == -2.0
    assert _SEEN is True


_SEEN = False


def test_converted_code_runs_eagerly_the_same():
    for f in (simple_relu, relu_without_else, _collatz):
        converted = ek.autograph.conversion.converted(f)[0]
        for value in (6, 3, 1) if f is _collatz else (6, -3, 0):
            assert int(converted(ek.constant(value))) == int(f(ek.constant(value)))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.floats(-10, 10, allow_nan=False, width=32), min_size=1, max_size=6))
def test_graph_control_flow_equals_eager_python(values):
    def clipped_sum(x):
        total = ek.constant(0.0)
        for v in x:
            if v > 5.0:
                continue
            if v < -5.0:
                break
            total += v
        return total

    x = ek.constant(np.array(values, np.float32))
    expected = clipped_sum(x)  # eagerly: Python's own statements
    np.testing.assert_allclose(ek.function(clipped_sum)(x), expected, rtol=1e-6)


def test_a_function_without_source_warns_at_the_users_call_that_its_ifs_stay_python():
    namespace = {"ek": ek}
    exec("def sign(x):\n    if x > 0:\n        return x\n    return 0.0\n", namespace)  # no source
    traced = ek.function(namespace["sign"])
    with pytest.warns(UserWarning, match="AutoGraph could not transform sign") as caught:
        traced(ek.constant(-1.0))
    assert caught[0].filename == __file__  # the user's line, not eagerkit's
    assert "do_not_convert" in str(caught[0].message)
    assert float(traced(ek.constant(2.0))) == 0.0  # the first trace's branch, as warned


def test_lambdas_and_do_not_convert_run_as_they_are_without_a_warning(recwarn):
    ek.function(lambda x: x * 2)(ek.constant(1.0))
    quiet = ek.autograph.experimental.do_not_convert(lambda x: x + 1)
    ek.function(quiet)(ek.constant(1.0))
    assert [str(w.message) for w in recwarn] == []
