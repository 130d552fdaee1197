"""Gradients taken inside an ``ek.function`` traced for relaxed shapes (an input_signature
with None sizes, or reduce_retracing=True): the TF 2 training step written by hand.

The VJPs build their ops with the sizes of the call being traced (a reshape back to x's
shape, a sum broadcast back to it), so such a graph is right for those sizes only: the
trace keeps them, and a call with other sizes traces again (``Tracer.bind_shapes``). Before,
the replay of a batch-of-3 trace gave a batch of 5 a (3, 3) gradient, or an error.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek

W = np.linspace(-1.0, 1.0, 6, dtype=np.float32).reshape(3, 2)


def loss_of(x, w):
    return ek.reduce_mean(ek.reshape(ek.matmul(x, w), [-1]) ** 2) + ek.reduce_sum(x * x)


def eager_gradients(x, w):
    with ek.GradientTape() as tape:
        tape.watch(x)
        loss = loss_of(x, w)
    return tape.gradient(loss, [x, w])


def batch(size):
    return ek.constant(np.arange(size * 3, dtype=np.float32).reshape(size, 3) / 10)


def step_with(**options):
    w = ek.Variable(W)

    @ek.function(**options)
    def step(x):
        with ek.GradientTape() as tape:
            tape.watch(x)
            loss = loss_of(x, w)
        return tape.gradient(loss, [x, w])

    return step, w


@pytest.mark.parametrize(
    "options",
    [
        {"input_signature": [ek.TensorSpec([None, 3], ek.float32)]},
        {"reduce_retracing": True},
    ],
    ids=["input_signature", "reduce_retracing"],
)
@settings(max_examples=10, deadline=None)
@given(sizes=st.lists(st.integers(1, 6), min_size=2, max_size=4))
def test_each_batch_size_gets_the_gradients_it_would_get_eagerly(options, sizes):
    step, w = step_with(**options)
    for size in sizes:
        x = batch(size)
        got = step(x)
        want = eager_gradients(x, w)
        for g, e in zip(got, want, strict=True):
            assert g.shape == e.shape
            np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-5, atol=1e-6)
    assert step.trace_count == len(set(sizes))  # one trace per size, each kept


def test_a_function_taking_no_gradient_keeps_one_trace_for_every_size():
    @ek.function(input_signature=[ek.TensorSpec([None, 3], ek.float32)])
    def forward(x):
        return ek.reduce_sum(ek.reshape(x, [-1]) * 2.0)

    assert [float(forward(batch(n))) for n in (2, 5)] == pytest.approx([3.0, 21.0])
    assert forward.trace_count == 1


def test_its_concrete_function_says_why_other_sizes_are_refused():
    step, _ = step_with(reduce_retracing=True)
    concrete = step.get_concrete_function(ek.TensorSpec([None, 3], ek.float32))
    assert [tuple(spec.shape) for spec in concrete.input_specs] == [(1, 3)]
    with pytest.raises(ek.errors.InvalidArgumentError) as raised:
        concrete(batch(4))
    assert "it takes a gradient inside, and a gradient's graph holds the sizes" in str(raised.value)


def test_an_outer_tape_through_a_relaxed_function_gets_each_size_right():
    w = ek.Variable(W)
    forward = ek.function(lambda x: loss_of(x, w), reduce_retracing=True)
    for size in (2, 3, 5):
        x = batch(size)
        with ek.GradientTape() as tape:
            tape.watch(x)
            loss = forward(x)
        got = tape.gradient(loss, [x, w])
        for g, e in zip(got, eager_gradients(x, w), strict=True):
            np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-5, atol=1e-6)
