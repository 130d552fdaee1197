"""The fast sweep raises what the reference sweep raises, and is taken only where it should be.

Errors from a custom gradient's grad_fn and from a primitive's VJP come out the same
through both sweeps (sweep_comparison.py); a primitive's VJPs are counted where they are
declared; nested tapes, listeners and the Tensor mode take the reference sweep.
"""

import pytest
from sweep_comparison import assert_both_sweeps_agree, spy_on_the_fast_sweep, tape_gradient

import eagerkit as ek
from eagerkit import backprop, registry
from eagerkit.errors import InvalidArgumentError, UnimplementedError


@pytest.fixture
def fast_calls(monkeypatch):
    return spy_on_the_fast_sweep(monkeypatch)


def test_errors_raised_inside_the_sweep_are_the_same(fast_calls):
    @ek.custom_gradient
    def wrong_count(x):
        return x * 2.0, lambda dy: [dy, dy]  # one input, two gradients

    @ek.custom_gradient
    def failing(x):
        def grad_fn(dy):
            raise InvalidArgumentError("grad_fn refuses", op="failing")

        return x * 2.0, grad_fn

    for f, expected in [
        (wrong_count, "grad_fn returned 2 gradients but the function has 1 inputs"),
        (failing, "grad_fn refuses"),
    ]:

        def build(tape, f=f):
            x = ek.constant([1.0])
            tape.watch(x)
            return f(x) * x, (x,)

        error_type, message = assert_both_sweeps_agree(tape_gradient(build), fast_calls)
        assert issubclass(error_type, ValueError) and expected in message


@pytest.fixture
def primitive():
    """Declare throwaway primitives (``primitive(name, forward)``); unregistered afterwards."""
    names = []

    def declare(name, forward):
        names.append(name)
        return registry.defop(name, dtypes=ek.dtypes.FLOATING)(forward)

    yield declare
    for name in names:
        del registry.REGISTRY[name]


def test_errors_raised_by_a_primitive_vjp_are_the_same(fast_calls, primitive):
    def refuse(ops, g, ans, *inputs):
        raise InvalidArgumentError(f"no gradient for {len(inputs)} inputs here", op="refuse")

    unary = primitive("unary_refusing_vjp", lambda xp, x: x * 2)
    unary.defvjp(refuse)
    binary = primitive("binary_refusing_vjp", lambda xp, x, y: x * y)
    binary.defvjp(lambda ops, g, ans, x, y: g * y, refuse)
    undeclared = primitive("binary_without_vjps", lambda xp, x, y: x + y)  # no defvjp

    for f, expected in [
        (unary, (InvalidArgumentError, "no gradient for 1 inputs here")),
        (lambda x: binary(x, x), (InvalidArgumentError, "no gradient for 2 inputs here")),
        (
            lambda x: undeclared(x, x),
            (UnimplementedError, "binary_without_vjps has no gradient: its VJPs were never"),
        ),
    ]:

        def build(tape, f=f):
            x = ek.constant([1.0, 2.0])
            tape.watch(x)
            return ek.reduce_sum(f(x) * x), (x,)

        error_type, message = assert_both_sweeps_agree(tape_gradient(build), fast_calls)
        assert error_type is expected[0] and expected[1] in message


def test_a_vjp_for_each_input_is_checked_where_it_is_declared(primitive):
    op = primitive("needs_two_vjps", lambda xp, x, y: x + y)
    with pytest.raises(TypeError, match=r"needs_two_vjps.defvjp: got 1 VJPs but .* 2 inputs"):
        op.defvjp(lambda ops, g, ans, x, y: g)


def test_other_modes_take_the_reference_sweep(fast_calls):
    x = ek.constant(2.0)
    with ek.GradientTape() as outer:
        outer.watch(x)
        with ek.GradientTape() as inner:
            inner.watch(x)
            y = x * x * x
        dy = inner.gradient(y, x)  # on Tensors: the outer tape records this sweep
        assert fast_calls == []
    assert float(outer.gradient(dy, x)) == 12.0  # nothing records the outer sweep
    assert len(fast_calls) == 1

    class Listener:
        def __init__(self):
            self.steps = []

        def on_record(self, tape, record):
            pass

        def on_backward(self, tape, step):
            self.steps.append(step.record.op.name)

    listener = Listener()
    with ek.GradientTape() as tape:
        tape.listeners.append(listener)
        tape.watch(x)
        y = ek.sin(x) * x
    tape.gradient(y, x)
    assert listener.steps == ["multiply", "sin"] and len(fast_calls) == 1
    with ek.GradientTape() as tape, backprop.tensor_vjps():
        tape.watch(x)
        y = x * x
        tape.gradient(y, x)
    assert len(fast_calls) == 1
