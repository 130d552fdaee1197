"""Runs of elementwise ops in an ek.function graph, one kernel each on a GPU (fused_runs.py).

Which ops form a run is checked on hand-made graphs (an intermediate something else reads,
or that the function returns, is never swallowed; other ops end a run; two runs that one op
reads join). On ``/sim:0`` random elementwise programs, generated, give through the fused
replay the very bits of the same program run eagerly on ``/sim:0`` and on the CPU, in fewer
launches: one per run instead of one per op. tests/test_gpu.py compiles runs with cupy.fuse.
"""

import inspect

import numpy as np
import pytest
from device_suite import fused_run_of
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.backends.simulated import counting
from eagerkit.graph.fused_runs import FUSABLE, find_runs, fuses
from eagerkit.registry import REGISTRY


def runs_of(function, *args):
    graph = ek.function(function).get_concrete_function(*args).graph
    return [[node.name for node in run.members] for run in find_runs(graph)]


X, Y = ek.constant([-1.0, 0.5, 2.0]), ek.constant([0.25, -3.0, 1.0])


def test_a_chain_is_one_run():
    assert runs_of(lambda x, y: ek.tanh(x * y + y) - y, X, Y) == [
        ["multiply", "add", "tanh", "subtract"]
    ]


def test_a_result_read_twice_ends_a_run():
    def twice(x):
        e = ek.exp(x)
        return ek.sin(e * e) + e  # e is read by the product and the sum

    assert runs_of(twice, X) == [["multiply", "sin", "add"]]  # exp stays an array of its own


def test_a_returned_result_is_never_swallowed():
    assert runs_of(lambda x: (ek.exp(x), ek.exp(x) * 2.0), X) == []  # one exp, read and returned
    assert runs_of(lambda x: ek.exp(ek.abs(x)) * 2.0, X) == [["abs", "exp", "multiply"]]


def test_other_ops_end_runs():
    def split(x, y):
        a = ek.reduce_sum(ek.exp(x) * y, axis=0)  # a reduction: no elementwise kernel
        return ek.cast(ek.tanh(a) + 1.0, ek.float64)  # cast has a param: not fused

    assert runs_of(split, X, Y) == [["exp", "multiply"], ["tanh", "add"]]


def test_an_op_reading_two_runs_joins_them():
    def relu_gradient(g, ans):  # what relu's VJP records: where(ans > 0, g, g * 0)
        return ek.where(ans > 0.0, g, g * 0.0)

    assert runs_of(relu_gradient, X, Y) == [["greater", "multiply", "where"]]


def test_only_devices_that_fuse_fuse():
    sim = ek.devices.enable_simulated_gpu()
    assert fuses(sim) and not fuses(ek.devices.get_device("/cpu:0"))
    f = ek.function(lambda x: ek.tanh(x * 2.0) - x)
    cpu_source = f.get_concrete_function(X).source
    with ek.device(sim.name):
        sim_source = f.get_concrete_function(ek.identity(X)).source
    assert "fused" not in cpu_source  # numpy gains nothing: the CPU's code is unchanged
    assert "= fused_t4(t0, t1)  # multiply -> tanh -> subtract" in sim_source


# --- random elementwise programs: the fused replay gives the eager bits ------------------------
UNARY = ["negative", "abs", "square", "tanh", "sin", "cos", "exp", "relu"]
BINARY = ["add", "subtract", "multiply", "maximum", "minimum"]
SHAPES = [(), (3,), (2, 3), (1, 3), (2, 1)]


@st.composite
def programs(draw):
    """Steps ``(name, operand positions)`` over two inputs and the results before, and the
    positions the program returns."""
    steps = []
    for count in range(2, 2 + draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["unary", "binary", "where"]))
        operand = st.integers(0, count - 1)
        if kind == "unary":
            steps.append((draw(st.sampled_from(UNARY)), [draw(operand)]))
        elif kind == "binary":
            steps.append((draw(st.sampled_from(BINARY)), [draw(operand), draw(operand)]))
        else:
            steps.append(("where", [draw(operand), draw(operand), draw(operand)]))
    last = 2 + len(steps) - 1
    returned = draw(st.lists(st.integers(2, last), max_size=2, unique=True))
    return steps, sorted({last, *returned})


def run_program(program, x, y):
    steps, returned = program
    values = [x, y]
    for name, positions in steps:
        operands = [values[i] for i in positions]
        if name == "where":
            condition, a, b = operands
            values.append(ek.where(condition > 0.0, a, b))
        else:
            values.append(REGISTRY[name].call(*operands))
    return [values[i] for i in returned]


@settings(max_examples=60, deadline=None)
@given(
    programs(),
    st.sampled_from(SHAPES),
    st.sampled_from(SHAPES),
    st.sampled_from([np.float32, np.float64]),
)
def test_a_fused_replay_gives_the_eager_bits_in_fewer_launches(program, shape_x, shape_y, dtype):
    rng = np.random.default_rng(0)
    x_host = rng.normal(size=shape_x).astype(dtype)
    y_host = rng.normal(size=shape_y).astype(dtype)
    on_cpu = run_program(program, ek.constant(x_host), ek.constant(y_host))
    sim = ek.devices.enable_simulated_gpu()
    with ek.device(sim.name):
        x, y = ek.identity(ek.constant(x_host)), ek.identity(ek.constant(y_host))
        eagerly = run_program(program, x, y)
        f = ek.function(lambda a, b: run_program(program, a, b))
        f(x, y)  # the first call runs the trace through the ops; the next compiles it
        with counting() as fused_counts:
            replayed = f(x, y)
        graph = f.get_concrete_function(x, y).graph
    saved = sum(len(run.members) - 1 for run in find_runs(graph))
    assert fused_counts.kernels == len(graph.ops) - saved  # each op alone: one launch
    assert fused_counts.host_reads == 0
    for got, eager, cpu in zip(replayed, eagerly, on_cpu, strict=True):
        assert got.device.endswith("SIM:0")
        np.testing.assert_array_equal(got.numpy(), eager.numpy())
        np.testing.assert_array_equal(got.numpy(), cpu.numpy())


def test_every_fusable_op_is_a_primitive_of_one_to_three_arrays_without_params():
    for name in FUSABLE:
        parameters = list(inspect.signature(REGISTRY[name].forward).parameters.values())[1:]
        assert all(p.kind is p.POSITIONAL_OR_KEYWORD for p in parameters), name
        assert 1 <= len(parameters) <= 3, name


def test_the_mlp_step_launches_fewer_kernels_through_ek_function():
    sim = ek.devices.enable_simulated_gpu()
    with ek.device(sim.name):
        images = ek.random_normal([8, 6])
        labels = ek.random_uniform([8], 0, 3, dtype=ek.int32)
        w1, b1 = ek.Variable(ek.random_normal([6, 5])), ek.Variable(ek.zeros([5]))
        w2, b2 = ek.Variable(ek.random_normal([5, 3])), ek.Variable(ek.zeros([3]))
    variables = [w1, b1, w2, b2]
    optimizer = ek.train.GradientDescentOptimizer(0.1)

    def step():
        with ek.GradientTape() as tape:
            hidden = ek.nn.relu(images @ w1 + b1)
            logits = hidden @ w2 + b2
            loss = ek.reduce_mean(
                ek.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
            )
        optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables, strict=True))
        return loss

    before = [v.numpy() for v in variables]
    with counting() as eager:
        eager_loss = step()
    eager_after = [v.numpy() for v in variables]
    for v, value in zip(variables, before, strict=True):
        v.assign(value)
    compiled = ek.function(step)
    compiled()  # traced (through the ops)
    for v, value in zip(variables, before, strict=True):
        v.assign(value)
    with counting() as fused:
        fused_loss = compiled()
    source = compiled.get_concrete_function().source
    assert "# add -> relu" in source  # the bias and relu: one kernel
    assert "= relu_grad(" in source  # relu's gradient: one op (TF's ReluGrad), one kernel
    assert fused.kernels <= eager.kernels - 4
    np.testing.assert_array_equal(fused_loss.numpy(), eager_loss.numpy())
    for v, value in zip(variables, eager_after, strict=True):
        np.testing.assert_array_equal(v.numpy(), value)


@pytest.mark.parametrize("name", sorted(FUSABLE))
def test_each_fusable_op_joins_a_run_on_sim_and_keeps_its_bits(name):
    sim = ek.devices.enable_simulated_gpu()
    replayed, eager, on_cpu, source = fused_run_of(name, sim.name)
    assert f"-> {name}" in source  # its line is the run's one kernel
    np.testing.assert_array_equal(replayed.numpy(), eager.numpy())
    np.testing.assert_array_equal(replayed.numpy(), on_cpu.numpy())
