"""ek.function / ek.defun: tracing, retracing rules, optimizations, replay, gradients."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError, UnimplementedError
from eagerkit.testing import check_grads

RNG = np.random.RandomState(0)
W1 = RNG.randn(3, 4).astype(np.float32)
W2 = RNG.randn(4, 2).astype(np.float32)


def chain(x):
    for _ in range(5):
        x = ek.tanh(x * 0.5 + 1.0) - x
    return x


def mlp(x):
    w1, w2 = ek.cast(W1, x.dtype), ek.cast(W2, x.dtype)  # folded into constants when traced
    hidden = ek.nn.relu(ek.matmul(x, w1) + 0.1)
    return ek.nn.softmax(ek.matmul(hidden, w2))


def reductions(x):
    return (
        ek.reduce_sum(x, axis=0),
        ek.reduce_mean(x, axis=1, keepdims=True),
        ek.reduce_max(x),
        ek.reduce_logsumexp(x, axis=1),
    )


def indexing(x):
    return {"corner": x[1:, 0], "rows": ek.gather(x, ek.constant([2, 0])), "t": ek.transpose(x)}


def python_control_flow(x, steps=3, square=True):
    for _ in range(steps):
        x = x * x if square else x + 1.0
    return x


FUNCTIONS = [chain, mlp, reductions, indexing, python_control_flow]


def _leaves(result):
    return [np.asarray(t) for t in ek.nest.flatten(result)]


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
def test_values_equal_eager_on_trace_and_on_replay(f):
    traced = ek.function(f)
    for value in (RNG.randn(3, 3), RNG.randn(3, 3)):  # the second call replays the graph
        x = ek.constant(value.astype(np.float32))
        for got, want in zip(_leaves(traced(x)), _leaves(f(x)), strict=True):
            np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    assert traced.trace_count == 1


def test_python_arguments_select_traces_by_value():
    traced = ek.function(python_control_flow)
    x = ek.constant([0.5, 2.0])
    np.testing.assert_allclose(traced(x, steps=2, square=False), [2.5, 4.0])
    np.testing.assert_allclose(traced(x, steps=1, square=True), [0.25, 4.0])
    np.testing.assert_allclose(traced(x, steps=2, square=False), [2.5, 4.0])
    assert traced.trace_count == 2


def test_tracing_count_follows_the_signature_rules(capsys):
    # The A16 demo: same signature twice, then a new shape, then two Python values.
    @ek.function
    def square(x):
        print("tracing")
        return x * x

    assert float(square(ek.constant(2.0))) == 4.0
    assert float(square(ek.constant(3.0))) == 9.0
    np.testing.assert_allclose(square(ek.constant([1.0, 2.0])), [1.0, 4.0])
    assert float(square(2.0)) == 4.0
    assert float(square(3.0)) == 9.0
    assert square.trace_count == 4
    assert square.experimental_get_tracing_count() == 4
    assert capsys.readouterr().out == "tracing\n" * 4  # print runs only while tracing
    square(ek.constant(5.0))
    assert capsys.readouterr().out == ""


def test_defun_is_function_and_numpy_arrays_count_as_tensors():
    traced = ek.defun(lambda x: x + 1.0)
    np.testing.assert_allclose(traced(np.zeros(3, np.float32)), [1.0, 1.0, 1.0])
    np.testing.assert_allclose(traced(np.ones(3, np.float32)), [2.0, 2.0, 2.0])
    assert traced.trace_count == 1


def test_input_signature_pins_one_trace_for_any_batch_size():
    @ek.function(input_signature=[ek.TensorSpec([None, 3], ek.float32)])
    def total(x):
        return ek.reduce_sum(x * 2.0, axis=1)

    for batch in (1, 4, 7):
        x = RNG.randn(batch, 3).astype(np.float32)
        np.testing.assert_allclose(total(ek.constant(x)), (2 * x).sum(axis=1), rtol=1e-6)
    np.testing.assert_allclose(total([[1.0, 2.0, 3.0]]), [12.0])  # a list converts to the spec
    assert total.trace_count == 1
    assert total.get_concrete_function().input_specs == (ek.TensorSpec([None, 3]),)


def test_input_signature_mismatch_is_a_clear_error():
    total = ek.function(ek.reduce_sum, input_signature=[ek.TensorSpec([None, 3], ek.float32)])
    with pytest.raises(TypeError, match=r"argument 0 has shape \(2, 2\) and dtype float32"):
        total(ek.zeros([2, 2]))  # TF raises TypeError too
    with pytest.raises(TypeError, match="dtype float64, which does not match"):
        total(ek.constant(np.zeros((2, 3))))
    with pytest.raises(TypeError, match="input_signature of 1 tensors .* called with 2"):
        total(ek.zeros([2, 3]), ek.zeros([2, 3]))
    assert total.trace_count == 0


def test_a_traced_size_that_does_not_fit_gives_the_eager_error():
    # The trace prints x as the signature's (None,), as TF does; a constant of 3 values fits
    # only calls with 3 values, and the others get the eager op's error.
    printed = []

    @ek.function(input_signature=[ek.TensorSpec([None])])
    def shifted(x):
        printed.append(str(x))
        return x + ek.constant([1.0, 1.0, 1.0])

    np.testing.assert_allclose(shifted(ek.zeros([3])), [1.0, 1.0, 1.0])
    assert printed == ['Tensor("x:0", shape=(None,), dtype=float32)']
    with pytest.raises(InvalidArgumentError, match=r"add: .*float32\(2,\), float32\(3,\)"):
        shifted(ek.zeros([2]))


def test_variables_are_read_at_every_call():
    weight = ek.Variable(2.0, name="weight")
    scaled = ek.function(lambda x: x * weight)
    assert float(scaled(ek.constant(3.0))) == 6.0
    weight.assign(5.0)
    assert float(scaled(ek.constant(3.0))) == 15.0  # the raw replay reads the new value
    with ek.GradientTape() as tape:
        y = scaled(ek.constant(3.0))  # the replay through ops reads it too
    assert float(y) == 15.0
    assert float(tape.gradient(y, weight)) == 3.0
    graph = scaled.get_concrete_function(ek.constant(3.0)).graph
    assert [node.value for node in graph.variables] == [weight]
    assert scaled.trace_count == 1


def test_assign_inside_a_function_runs_at_every_call():
    counter = ek.Variable(1.0, name="counter")

    @ek.function
    def bump(x):
        counter.assign_add(x)
        return x

    for expected in (2.0, 4.0, 6.0):
        bump(ek.constant(2.0) if expected > 2 else ek.constant(1.0))
        assert float(counter) == expected
    assert bump.trace_count == 1


def test_writes_a_graph_cannot_replay_are_refused_while_tracing():
    counter = ek.Variable(1.0, name="counter")

    @ek.function
    def overwrite(x):
        counter._write(x._data, "restore")
        return x

    with pytest.raises(UnimplementedError, match="'overwrite': restore on variable 'counter:0'"):
        overwrite(ek.constant(5.0))
    assert float(counter) == 1.0  # unchanged


def test_first_and_second_order_gradients_through_a_function():
    cube = ek.function(lambda x: x * x * x)
    x = ek.constant(2.0)
    with ek.GradientTape() as outer:
        outer.watch(x)
        with ek.GradientTape() as inner:
            inner.watch(x)
            y = cube(x)
        dy = inner.gradient(y, x)
    assert float(dy) == 12.0
    assert float(outer.gradient(dy, x)) == 12.0
    check_grads(ek.function(mlp), RNG.randn(2, 3), order=2)
    check_grads(ek.function(lambda x: ek.reduce_logsumexp(chain(x))), RNG.randn(4), order=2)


def test_gradients_taken_inside_a_function_follow_the_inputs():
    weight = ek.Variable(W1, name="w")

    @ek.function
    def loss_and_grad(x):
        with ek.GradientTape() as tape:
            loss = ek.reduce_sum(ek.tanh(ek.matmul(x, weight)) ** 2)
        return loss, tape.gradient(loss, weight)

    def eager(x):
        with ek.GradientTape() as tape:
            loss = ek.reduce_sum(ek.tanh(ek.matmul(x, weight)) ** 2)
        return loss, tape.gradient(loss, weight)

    for _step in range(3):
        x = ek.constant(RNG.randn(2, 3).astype(np.float32))
        weight.assign(weight * 0.5)
        for got, want in zip(loss_and_grad(x), eager(x), strict=True):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    assert loss_and_grad.trace_count == 1


def _wasteful(x):
    unused = ek.exp(x)  # dead code  # noqa: F841
    four = ek.constant(2.0) * ek.constant(2.0)  # constant subexpression
    return ek.sin(x) * four + ek.sin(x)  # sin(x) twice


def test_optimizations_fold_merge_and_drop():
    x = ek.constant([0.5, 1.0, 2.0])
    concrete = ek.function(_wasteful).get_concrete_function(x)
    assert [n.name for n in concrete.traced_graph.ops] == [
        "exp",
        "multiply",
        "sin",
        "multiply",
        "sin",
        "add",
    ]
    assert [n.name for n in concrete.graph.ops] == ["sin", "multiply", "add"]
    assert concrete.optimizations == {
        "constant_folding": 1,
        "common_subexpressions": 1,
        "dead_code": 3,  # exp, and the two constants only the folded op used
        "buffer_reuse": 1,
    }
    np.testing.assert_allclose(concrete(x), _wasteful(x), rtol=1e-6)
    listing = str(concrete.graph)
    assert "constant 4.0" in listing and "sin(%0)" in listing and "float32[3]" in listing
    assert "(writes into %" in listing
    assert "(writes into %" not in str(concrete.traced_graph)  # the trace stays as traced


def test_optimizations_keep_results_on_random_functions():
    for seed in range(5):
        x = ek.constant(np.random.RandomState(seed).randn(2, 3).astype(np.float32))
        for f in (_wasteful, mlp):
            np.testing.assert_allclose(ek.function(f)(x), f(x), rtol=1e-6, atol=1e-7)


def test_buffer_reuse_writes_only_into_private_temporaries():
    def f(x):
        a = ek.exp(x)
        b = ek.reshape(a, [3, 1])  # a view of a's array: a must not be overwritten
        c = ek.tanh(a)
        d = ek.negative(c)  # c is private and dead after this: d may write into it
        return b, d, x * 1.0

    x = ek.constant([0.1, 0.2, 0.3])
    kept = x.numpy().copy()
    traced = ek.function(f)
    b, d, x_again = traced(x)
    graph = traced.get_concrete_function(x).graph
    reuses = {node.name: node.reuses.name for node in graph.ops if node.reuses is not None}
    assert reuses == {"negative": "tanh"}
    np.testing.assert_allclose(b, np.exp(kept).reshape(3, 1), rtol=1e-6)
    np.testing.assert_allclose(d, -np.tanh(np.exp(kept)), rtol=1e-6)
    np.testing.assert_array_equal(x.numpy(), kept)  # the argument was never written
    assert "out=" in traced.get_concrete_function(x).source
    no_reuse = ek.function(f, buffer_reuse=False).get_concrete_function(x)
    assert no_reuse.optimizations["buffer_reuse"] == 0 and "out=" not in no_reuse.source


def test_under_a_tape_the_graph_ops_are_recorded():
    traced = ek.function(_wasteful)
    x = ek.constant([0.5, 1.0])
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = traced(x)
    assert [r.op.name for r in tape.records] == ["sin", "multiply", "add"]
    np.testing.assert_allclose(tape.gradient(y, x), 5 * np.cos([0.5, 1.0]), rtol=1e-6)


def test_nested_functions_inline_into_the_outer_graph():
    inner = ek.function(lambda x: ek.exp(x))
    outer = ek.function(lambda x: inner(x) + 1.0)
    graph = outer.get_concrete_function(ek.constant(0.0)).graph
    assert [n.name for n in graph.ops] == ["exp", "add"]
    assert float(outer(ek.constant(0.0))) == 2.0


def test_structures_methods_and_concrete_calls():
    class Scaler:
        def __init__(self, k):
            self.k = k

        @ek.function
        def apply(self, x, label="y"):
            return {label: x * self.k, "k": self.k}

    scaler = Scaler(3.0)
    result = scaler.apply(ek.constant(2.0))
    assert result["k"] == 3.0 and float(result["y"]) == 6.0
    assert float(scaler.apply(ek.constant(4.0))["y"]) == 12.0
    assert Scaler.apply.trace_count == 1
    concrete = Scaler.apply.get_concrete_function(scaler, ek.TensorSpec([2]))
    np.testing.assert_allclose(concrete(scaler, ek.constant([1.0, 2.0]))["y"], [3.0, 6.0])
    with pytest.raises(InvalidArgumentError, match=r"traced for tensors .*\(2,\).* float32\[3\]"):
        concrete(scaler, ek.zeros([3]))
    with pytest.raises(TypeError, match="was traced with the Python argument value"):
        concrete(Scaler(4.0), ek.zeros([2]))
    any_length = Scaler.apply.get_concrete_function(scaler, ek.TensorSpec([None]))
    np.testing.assert_allclose(any_length(ek.constant([1.0, 2.0, 3.0]))["y"], [3.0, 6.0, 9.0])


def test_variables_passed_as_arguments_are_read_at_every_call():
    double = ek.function(lambda v: v * 2.0)
    first, second = ek.Variable([1.0, 2.0]), ek.Variable([5.0, 6.0])
    np.testing.assert_allclose(double(first), [2.0, 4.0])
    np.testing.assert_allclose(double(second), [10.0, 12.0])
    second.assign([0.5, 0.5])
    with ek.GradientTape() as tape:
        y = ek.reduce_sum(double(second))
    assert float(y) == 2.0
    np.testing.assert_allclose(tape.gradient(y, second), [2.0, 2.0])
    assert double.trace_count == 2  # a variable selects its trace by identity, as in TF
    graph = double.get_concrete_function(second).graph
    assert [node.value for node in graph.variables] == [second]


def test_unhashable_python_arguments_are_refused_clearly():
    traced = ek.function(lambda x, options: x)
    with pytest.raises(TypeError, match="'<lambda>': cannot use an argument of type set"):
        traced(ek.constant(1.0), {1, 2})


def test_random_numbers_inside_a_traced_function_are_drawn_at_every_call():
    traced = []

    @ek.function
    def noisy(x):
        unused = ek.random_uniform([3])  # noqa: F841 - a draw nothing needs is dropped
        noise = ek.random_normal([2])
        traced.append(noise.numpy())  # the trace's numbers: the first call's (TF's "A1")
        return x + noise

    ek.random.set_seed(5)
    eager = [ek.random_normal([2]).numpy() for _ in range(2)]
    ek.random.set_seed(5)
    got = [noisy(ek.zeros([2])).numpy() for _ in range(3)]
    np.testing.assert_array_equal(got[0], traced[0])
    assert not np.array_equal(got[0], got[1]) and not np.array_equal(got[1], got[2])
    # the function draws from its own stream: the eager one is where set_seed left it
    np.testing.assert_array_equal([ek.random_normal([2]).numpy() for _ in range(2)], eager)
    ek.random.set_seed(5)  # which restarts the function's stream too
    np.testing.assert_array_equal(noisy(ek.zeros([2])).numpy(), got[0])
    assert [n.name for n in noisy.get_concrete_function(ek.zeros([2])).graph.ops] == [
        "normal",
        "add",
    ]


def test_shape_dependent_ops_follow_each_call_under_open_sizes():
    """The TA report (BOARD): with an input_signature of [None], ones_like, zeros_like and
    zeros(shape(x)) were frozen at the first call's length; they follow every call now."""

    @ek.function(input_signature=[ek.TensorSpec([None], ek.float32)])
    def poly(x):
        return 3.0 * x * x + 2.0 * x + ek.ones_like(x) + ek.zeros_like(x) + ek.zeros(ek.shape(x))

    for n in (2, 3, 4, 1):
        x = np.arange(n, dtype=np.float32)
        np.testing.assert_allclose(poly(ek.constant(x)), 3 * x * x + 2 * x + 1)
    assert poly.trace_count == 1

    @ek.function(input_signature=[ek.TensorSpec([None, 2], ek.float32)])
    def counts(x):
        return ek.fill(
            ek.shape(x), ek.cast(ek.size(x), ek.float32) + ek.cast(ek.rank(x), ek.float32)
        )

    for rows in (1, 3):
        np.testing.assert_allclose(counts(ek.zeros([rows, 2])), np.full((rows, 2), 2 * rows + 2))
