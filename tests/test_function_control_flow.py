"""ek.cond and ek.while_loop: eagerly plain Python, in graphs decided at every run, and
differentiable either way (first and second order, through the tape outside the function or
one inside it)."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError
from eagerkit.testing import check_grads


def test_cond_eagerly_runs_one_branch():
    ran = []
    x = ek.constant(2.0)
    y = ek.cond(x > 0, lambda: ran.append("t") or x * 3, lambda: ran.append("f") or -x)
    assert float(y) == 6.0 and ran == ["t"]
    assert ek.cond(False, lambda: 1, lambda: 2) == 2  # a Python bool: plain Python


def test_cond_in_a_graph_picks_its_branch_at_every_call():
    @ek.function
    def f(x):
        return ek.cond(ek.reduce_sum(x) > 0, lambda: {"y": x * 2.0}, lambda: {"y": x - 1.0})

    np.testing.assert_allclose(f(ek.constant([1.0, 2.0]))["y"], [2.0, 4.0])
    np.testing.assert_allclose(f(ek.constant([-1.0, -2.0]))["y"], [-2.0, -3.0])
    assert f.trace_count == 1
    graph = f.get_concrete_function(ek.constant([1.0, 2.0])).graph
    cond = next(node for node in graph.ops if node.name == "cond")
    branches = cond.subgraphs
    assert [n.name for n in branches["true branch"].ops] == ["multiply"]
    assert [n.name for n in branches["false branch"].ops] == ["subtract"]
    assert "%3 true branch:" in str(graph) or "true branch:" in str(graph)


def test_while_loop_eagerly_and_in_a_graph():
    def body(i, total):
        return i + 1, total + i

    eager = ek.while_loop(lambda i, total: i < 5, body, [ek.constant(0), ek.constant(0)])
    assert [int(t) for t in eager] == [5, 10]

    @ek.function
    def triangle(n):
        return ek.while_loop(lambda i, total: i < n, body, (ek.constant(0), ek.constant(0)))[1]

    assert [int(triangle(ek.constant(n))) for n in (0, 1, 5, 100)] == [0, 0, 10, 4950]
    assert triangle.trace_count == 1


def test_while_loop_maximum_iterations_and_shape_invariants():
    def grow(x):
        return [ek.concat([x, x], axis=0)]

    @ek.function
    def doubled(x, times):
        return ek.while_loop(
            lambda x: ek.size(x) < 1000,
            grow,
            [x],
            shape_invariants=[[None]],
            maximum_iterations=times,
        )[0]

    for times in (0, 1, 3):
        assert doubled(ek.ones([1]), ek.constant(times)).shape == (2**times,)
    with pytest.raises(ValueError, match="enters the loop with shape \\(1,\\), but has shape"):
        ek.function(lambda x: ek.while_loop(lambda x: ek.size(x) < 8, grow, [x]))(ek.ones([1]))
    with pytest.raises(TypeError, match="enters the loop as int32 but the body returns float32"):
        ek.while_loop(lambda i: i < 3, lambda i: ek.cast(i, ek.float32), [ek.constant(0)])


def test_bad_arguments_are_clear_errors():
    with pytest.raises(TypeError, match="true_fn must be callable"):
        ek.cond(ek.constant(True), 1, lambda: 2)
    with pytest.raises(InvalidArgumentError, match=r"pred must be a scalar bool tensor"):
        ek.cond(ek.constant([True, False]), lambda: 1, lambda: 2)
    with pytest.raises(InvalidArgumentError, match="maximum_iterations must be a whole number"):
        ek.while_loop(lambda i: i < 3, lambda i: i + 1, [0], maximum_iterations=1.5)
    with pytest.raises(ValueError, match="same number, type, and overall structure"):
        ek.function(lambda x: ek.cond(x > 0, lambda: (x, x), lambda: x))(ek.constant(1.0))
    with pytest.raises(TypeError, match="is float32 in true_fn but int32 in false_fn"):
        ek.function(lambda x: ek.cond(x > 0, lambda: x, lambda: ek.constant(1)))(ek.constant(1.0))


def _piecewise(x):
    if ek.reduce_sum(x) > 0:
        y = ek.sin(x) * x
    else:
        y = x * x * x
    return y


def _power_loop(x):
    y = ek.ones_like(x)
    i = ek.constant(0)
    while i < 3:
        y = y * ek.tanh(x)
        i += 1
    return y


@pytest.mark.parametrize("f", [_piecewise, _power_loop], ids=["cond", "while_loop"])
@pytest.mark.parametrize("values", [[0.5, 1.0], [-1.0, -2.0]])
def test_gradients_through_graph_control_flow_first_and_second_order(f, values):
    traced = ek.function(f)
    check_grads(traced, np.array(values), order=2)
    x = ek.constant(np.array(values, np.float32))
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = ek.reduce_sum(traced(x))
    with ek.GradientTape() as eager_tape:
        eager_tape.watch(x)
        expected = ek.reduce_sum(f(x))
    np.testing.assert_allclose(tape.gradient(y, x), eager_tape.gradient(expected, x), rtol=1e-5)


def test_a_tape_inside_the_function_differentiates_through_cond_and_loops():
    w = ek.Variable(2.0, name="w")

    @ek.function
    def grads(x, n):
        with ek.GradientTape() as tape:
            tape.watch(x)
            if x > 0:
                y = w * x
            else:
                y = w * w
            for _ in ek.range(n):
                y = y * w
        return tape.gradient(y, [w, x])

    def expected(x, n):  # y = w^(n+1) x or w^(n+2)
        if x > 0:
            return (n + 1) * 2.0**n * x, 2.0 ** (n + 1)
        return (n + 2) * 2.0 ** (n + 1), 0.0

    for x, n in ((3.0, 0), (3.0, 2), (-1.0, 1), (0.5, 3)):
        dw, dx = grads(ek.constant(x), ek.constant(n))
        assert float(dw) == pytest.approx(expected(x, n)[0])
        assert float(dx) == pytest.approx(expected(x, n)[1])
    assert grads.trace_count == 1
