"""What graphs do besides arithmetic, as TF2 does it: ek.py_function at every call,
ek.TensorArray through loops and ifs, ek.init_scope, random draws at every call, failed ops
that nothing needs pruned, tensor indexes read at every call, TF's GraphDef listing, and
variables created on each instance's first call of a method."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError


# --- py_function ------------------------------------------------------------------------------
def test_py_function_runs_at_every_call_and_once_for_the_tracing_call(capsys):
    calls = []

    def product_and_sum(x, y):
        calls.append((float(x), float(y)))
        return x * y, x + y

    @ek.function
    def f(x, y):
        a, b = ek.py_function(product_and_sum, [x, y], [ek.float32, ek.float32])
        return a - b

    assert float(f(ek.constant(3.0), ek.constant(4.0))) == 5.0
    assert float(f(ek.constant(1.0), ek.constant(1.0))) == -1.0
    assert f.trace_count == 1
    assert calls == [(3.0, 4.0), (1.0, 1.0)]  # one run per call, the trace's included


def test_py_function_results_take_tout_dtypes_and_gradients_flow():
    assert ek.py_function(lambda: 3, [], ek.float32).dtype == ek.float32
    x = ek.constant(3.0)
    squared = ek.function(lambda a: ek.py_function(lambda b: b * b, [a], ek.float32))
    for run in (lambda a: ek.py_function(lambda b: b * b, [a], ek.float32), squared, squared):
        with ek.GradientTape() as tape:
            tape.watch(x)
            y = run(x)
        assert float(tape.gradient(y, x)) == 6.0


def test_py_function_bad_arguments_are_clear_errors():
    with pytest.raises(TypeError, match="func must be callable"):
        ek.py_function(3, [], ek.float32)
    with pytest.raises(TypeError, match="give Tout"):
        ek.py_function(lambda: 1.0, [])
    with pytest.raises(ValueError, match="returned 1 values but Tout lists 2"):
        ek.py_function(lambda: 1.0, [], [ek.float32, ek.float32])


# --- TensorArray ------------------------------------------------------------------------------
@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=3))
def test_a_tensor_array_written_in_a_loop_follows_each_call(lengths):
    @ek.function(input_signature=[ek.TensorSpec([None])])
    def running_sums(x):
        sums = ek.TensorArray(ek.float32, size=0, dynamic_size=True)
        total = ek.constant(0.0)
        for i in ek.range(ek.shape(x)[0]):
            total += x[i]
            sums = sums.write(i, total)
        return sums.stack()

    for n in lengths:
        x = np.arange(1, n + 1, dtype=np.float32)
        np.testing.assert_allclose(running_sums(ek.constant(x)).numpy(), np.cumsum(x))
    assert running_sums.trace_count == 1


def test_a_tensor_array_written_in_both_branches_of_an_if():
    @ek.function
    def f(x):
        ta = ek.TensorArray(ek.float32, size=2)
        ta = ta.write(0, x)
        if ek.reduce_sum(x) > 0:
            ta = ta.write(1, x * 2)
        else:
            ta = ta.write(1, -x)
        return ta.stack()

    assert f(ek.constant([1.0, 2.0])).numpy().tolist() == [[1, 2], [2, 4]]
    assert f(ek.constant([-1.0, -2.0])).numpy().tolist() == [[-1, -2], [1, 2]]
    assert f.trace_count == 1


def test_tensor_array_reads_gathers_and_errors_as_tf():
    ta = ek.TensorArray(ek.float32, size=3)
    ta = ta.unstack(ek.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    assert ta.read(1).numpy().tolist() == [3, 4]
    assert ta.gather([2, 0]).numpy().tolist() == [[5, 6], [1, 2]]
    assert ta.concat().numpy().tolist() == [1, 2, 3, 4, 5, 6]
    assert int(ta.size()) == 3 and tuple(ta.element_shape) == (2,)
    with pytest.raises(InvalidArgumentError, match="Tried to write to index 3 but array is not"):
        ta.write(3, ek.constant([0.0, 0.0]))
    with pytest.raises(InvalidArgumentError, match=r"value has shape \(3,\) but the elements"):
        ta.write(0, ek.constant([0.0, 0.0, 0.0]))
    with pytest.raises(InvalidArgumentError, match="nothing was written"):
        ek.TensorArray(ek.float32).stack()


def test_gradients_flow_through_a_tensor_array():
    x = ek.constant([1.0, 2.0, 3.0])

    @ek.function
    def weighted(x):
        ta = ek.TensorArray(ek.float32, size=3)
        for i in ek.range(3):
            ta = ta.write(i, x[i] * ek.cast(i + 1, ek.float32))
        return ek.reduce_sum(ta.stack())

    with ek.GradientTape() as tape:
        tape.watch(x)
        y = weighted(x)
    assert float(y) == 14.0
    assert tape.gradient(y, x).numpy().tolist() == [1, 2, 3]


# --- init_scope, random, failed ops -----------------------------------------------------------
def test_init_scope_runs_its_block_once_outside_the_graph():
    v = ek.Variable(0)

    @ek.function
    def f():
        with ek.init_scope():
            v.assign_add(1)  # runs while tracing, eagerly; not part of the graph
        return v + 0

    assert [int(f()) for _ in range(3)] == [1, 1, 1]
    assert int(v) == 1
    assert "assign" not in str(f.get_concrete_function().graph)


def test_random_numbers_are_drawn_again_at_every_call():
    @ek.function
    def noisy(x):
        return x + ek.random.uniform([3])

    draws = [noisy(ek.zeros([3])).numpy() for _ in range(3)]
    assert noisy.trace_count == 1
    assert not np.array_equal(draws[0], draws[1]) and not np.array_equal(draws[1], draws[2])


def test_an_op_that_fails_but_nothing_needs_is_pruned_one_that_is_needed_raises():
    @ek.function
    def unused(x):
        ek.gather(x, [1])  # out of range for one element: TF never runs it
        return x * 2.0

    assert unused(ek.constant([1.0])).numpy().tolist() == [2.0]

    @ek.function
    def needed(x):
        return ek.gather(x, [1]) * 2.0

    for _ in range(2):  # and no broken trace is kept
        with pytest.raises(InvalidArgumentError, match=r"gather: indices must lie in \[0, 1\)"):
            needed(ek.constant([1.0]))
    assert needed.trace_count == 0


# --- indexing by tensors ----------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(st.integers(-2, 1), st.integers(-3, 2), st.integers(-4, 3))
def test_tensor_indexes_are_read_at_every_call(i, j, k):
    x = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)

    @ek.function
    def pick(x, i, j, k):
        return x[i, 1:, k], x[:, j], x[None, i, 0], x[i, j, k]

    first = pick(ek.constant(x), ek.constant(0), ek.constant(0), ek.constant(0))
    got = pick(ek.constant(x), ek.constant(i), ek.constant(j), ek.constant(k))
    assert pick.trace_count == 1
    assert len(first) == 4
    for value, expected in zip(got, (x[i, 1:, k], x[:, j], x[None, i, 0], x[i, j, k]), strict=True):
        np.testing.assert_array_equal(value.numpy(), expected)


# --- GraphDef, methods, recursion, specs ------------------------------------------------------
def test_as_graph_def_lists_the_traced_graph_as_tf_does():
    def train(pairs):
        loss = ek.constant(0)
        for x, y in pairs:
            loss += ek.abs(y - x)
        return loss

    f = ek.function(train)
    small = f.get_concrete_function([(1, 1)] * 3).graph.as_graph_def()
    big = f.get_concrete_function([(1, 1)] * 10).graph.as_graph_def()
    assert len(big.node) > len(small.node)  # a Python loop is unrolled into the graph
    listing = str(
        ek.function(lambda x: x * 2.0).get_concrete_function(ek.constant(1.0)).graph.as_graph_def()
    )
    assert listing.splitlines()[:3] == ["node {", '  name: "x"', '  op: "Placeholder"']


def test_each_instance_may_create_variables_on_its_first_call_of_a_method():
    class Scale(ek.Module):
        def __init__(self, factor):
            self.factor = factor
            self.v = None

        @ek.function
        def __call__(self, x):
            if self.v is None:
                self.v = ek.Variable(self.factor)
            return x * self.v

    two, three = Scale(2.0), Scale(3.0)
    assert float(two(ek.constant(1.0))) == 2.0
    assert float(three(ek.constant(1.0))) == 3.0  # TF: its own first call, its own variable

    @ek.function
    def plain(x):
        return x * ek.Variable(1.0)

    with pytest.raises(ValueError, match="only supports singleton tf.Variables"):
        plain(ek.constant(1.0))


@ek.function
def _countdown(n):  # at module level: the recursive call finds this global
    if n > 0:
        return _countdown(n - 1)
    return n


def test_a_module_level_function_may_call_itself():
    assert int(_countdown(3)) == 0
    assert ek.autograph.to_code(_countdown.python_function).startswith("def _countdown(n):")


def test_a_fully_defined_spec_selects_the_trace_of_a_tensor_of_that_shape():
    @ek.function
    def double(a):
        return a + a

    for example, spec in [
        (ek.constant("a"), ek.TensorSpec([], ek.string)),
        (ek.constant([1.0, 2.0]), ek.TensorSpec([2], ek.float32)),
    ]:
        traced = double.get_concrete_function(example)
        assert double.get_concrete_function(spec) is traced
    assert double.trace_count == 2
    assert (
        double.get_concrete_function(ek.TensorSpec([], ek.string))(ek.constant("c")).numpy()
        == b"cc"
    )


def test_a_concrete_function_given_arguments_of_another_structure_says_so():
    concrete = ek.function(lambda x: 2.0 * x).get_concrete_function(ek.constant([1.0, 2.0]))
    with pytest.raises(TypeError, match="traced for 1 tensor arguments .* another structure"):
        concrete([])
    assert concrete(ek.constant([3.0, 4.0])).numpy().tolist() == [6.0, 8.0]
