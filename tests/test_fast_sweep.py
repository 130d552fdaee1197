"""The fast sweep (fast_sweep.sweep_arrays) gives what the reference sweep gives, bit for bit.

Each case computes its gradients twice: once as the engine chooses (the common case takes
the fast sweep; a spy checks that it did) and once under ``backprop.reference_sweep()``.
The answers must be identical (same None, dtype, device and every bit of every array), or
both must raise the same error with the same message.
"""

import numpy as np
import pytest
from op_cases import cases

import eagerkit as ek
from eagerkit import backprop, fast_sweep, registry
from eagerkit.errors import InvalidArgumentError, UnimplementedError

CASES = cases()


@pytest.fixture
def fast_calls(monkeypatch):
    """How many times the fast sweep ran (it is looked up at each ``gradients`` call)."""
    calls = []
    real = fast_sweep.sweep_arrays

    def spy(*args):
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(fast_sweep, "sweep_arrays", spy)
    return calls


def _outcome(compute):
    """``compute()``'s flat list of gradients, or the error it raised (type and message)."""
    try:
        return ek.nest.flatten(compute())
    except Exception as error:  # compared, never swallowed: both sweeps must raise it alike
        return (type(error), str(error))


def assert_both_sweeps_agree(compute, calls):
    """``compute`` answers identically with the fast sweep and with the reference sweep."""
    before = len(calls)
    taken = _outcome(compute)
    after = len(calls)
    assert after > before, "the common case did not take the fast sweep"
    with backprop.reference_sweep():
        reference = _outcome(compute)
    assert len(calls) == after, "reference_sweep() still took the fast sweep"
    if isinstance(reference, tuple):
        assert taken == reference
        return reference
    assert isinstance(taken, list), taken
    assert len(taken) == len(reference)
    for got, expected in zip(taken, reference, strict=True):
        assert (got is None) == (expected is None)
        if got is not None:
            assert (got.dtype, got.device, got.shape) == (
                expected.dtype,
                expected.device,
                expected.shape,
            )
            assert type(got._data) is type(expected._data)
            np.testing.assert_array_equal(got.numpy(), expected.numpy())
    return reference


def _gradients_of(fn, args, weights=True):
    """d fn / d args, weighted by a fixed output gradient (an uneven seed) when ``weights``."""

    def compute():
        tensors = [ek.constant(a) for a in args]
        with ek.GradientTape() as tape:
            tape.watch(tensors)
            y = fn(*tensors)
        seed = None
        if weights and y.dtype.is_floating:
            seed = ek.constant(
                np.linspace(-1.5, 2.0, y.shape.num_elements()).reshape(y.shape), dtype=y.dtype
            )
        return tape.gradient(y, tensors, output_gradients=seed)

    return compute


@pytest.mark.parametrize(("name", "fn", "args"), CASES, ids=[name for name, _, _ in CASES])
def test_every_op_case_gives_identical_gradients(name, fn, args, fast_calls):
    assert_both_sweeps_agree(_gradients_of(fn, args), fast_calls)
    # fan-out: the case's output used twice, and its inputs reused after it
    assert_both_sweeps_agree(
        _gradients_of(
            lambda *xs: ek.reduce_sum(fn(*xs) * fn(*xs)) + ek.reduce_sum(xs[0]), args, weights=False
        ),
        fast_calls,
    )


def _tape_gradient(build, **gradient_options):
    """A compute() that records ``build(tape)`` -> (target, sources) and differentiates."""

    def compute():
        with ek.GradientTape() as tape:
            target, sources = build(tape)
        return tape.gradient(target, list(sources), **gradient_options)

    return compute


def test_fan_out_and_broadcasting(fast_calls):
    def build(tape):
        x = ek.constant([[1.0, -2.0, 3.0]])  # (1, 3): broadcast along both axes below
        b = ek.constant([[0.5], [1.5]])  # (2, 1)
        s = ek.constant(2.0)  # a scalar, broadcast everywhere
        tape.watch([x, b, s])
        h = x * b + s  # (2, 3)
        y = ek.tanh(h) * x + h * h - ek.exp(x) * s  # x reaches y along four paths
        return ek.reduce_sum(y * y), (x, b, s)

    assert_both_sweeps_agree(_tape_gradient(build), fast_calls)


def test_a_sum_passed_on_as_it_is_is_never_added_into(fast_calls):
    def build(tape):
        x = ek.constant([1.0, 2.0])
        tape.watch(x)
        a = x * 2.0
        u = a * 3.0  # a's other use, recorded before h: its gradient arrives last
        h = a + x  # add passes h's gradient (a sum: h is used twice) on to a and x as it is
        return ek.reduce_sum(h * h + ek.sin(h) + u), (x, h)

    got = assert_both_sweeps_agree(_tape_gradient(build), fast_calls)
    h = 3.0 * np.array([1.0, 2.0])
    np.testing.assert_allclose(got[1].numpy(), 2 * h + np.cos(h))
    np.testing.assert_allclose(got[0].numpy(), 3 * (2 * h + np.cos(h)) + 6.0)


def test_unconnected_sources_get_none_or_zeros(fast_calls):
    def build(tape):
        x, unused, unwatched = ek.constant(1.5), ek.constant([1.0, 2.0]), ek.constant(3.0)
        tape.watch([x, unused])
        return x * x + unwatched, (x, unused, unwatched)

    got = assert_both_sweeps_agree(_tape_gradient(build), fast_calls)
    assert got[1] is None and got[2] is None
    got = assert_both_sweeps_agree(_tape_gradient(build, unconnected_gradients="zero"), fast_calls)
    assert got[1].numpy().tolist() == [0.0, 0.0]


def test_sources_that_are_op_outputs_and_an_integer_detour(fast_calls):
    def build(tape):
        x = ek.constant([1.0, 2.0, 3.0])
        tape.watch(x)
        h = ek.sin(x) * 2.0  # a source computed on the tape
        n = ek.cast(h * 10.0, ek.int32)  # gradients stop at integers, as in TF
        back = ek.cast(n, ek.float32)  # a float that depends on x only through integers
        return ek.reduce_sum(h * h + back + x + back * h), (x, h, n)

    got = assert_both_sweeps_agree(_tape_gradient(build), fast_calls)
    assert got[2] is None


def test_the_tape_answers_what_needs_a_gradient_when_all_it_watched_are_sources(
    fast_calls, monkeypatch
):
    walks = []
    real = fast_sweep._needing_gradients
    monkeypatch.setattr(fast_sweep, "_needing_gradients", lambda *a: walks.append(1) or real(*a))
    w = ek.Variable([0.5, -1.5])

    def build(tape):
        x, y = ek.constant([1.0, 2.0]), ek.constant([3.0, -1.0])
        tape.watch([x, y])
        return ek.reduce_sum(ek.sin(x * w) * y + y * y), (x, y, w)

    assert_both_sweeps_agree(_tape_gradient(build), fast_calls)
    assert walks == []  # x, y and w: all the tape watched are sources

    def build_fewer_sources(tape):  # y and w are watched too: the sweep walks the tape
        target, (x, y, w) = build(tape)
        return target, (x,)

    assert_both_sweeps_agree(_tape_gradient(build_fewer_sources), fast_calls)
    assert walks == [1]


def test_a_persistent_tape_asked_twice_gives_the_same_untouched_arrays(fast_calls):
    x = ek.constant([1.0, 2.0])
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = ek.reduce_sum(x * x * x + x * x + ek.exp(x))  # fan-out: sums added in place
    first = tape.gradient(y, x)
    kept = first.numpy().copy()

    def again():
        return [tape.gradient(y, x), tape.gradient([y, y], [x, x])]

    assert_both_sweeps_agree(again, fast_calls)
    np.testing.assert_array_equal(first.numpy(), kept)  # no later sweep added into it


def test_variables_read_many_times_and_assigned_between(fast_calls):
    w = ek.Variable([[0.5, -1.0], [2.0, 0.25]])
    b = ek.Variable([0.1, -0.2])
    frozen = ek.Variable([1.0, 1.0], trainable=False)

    def build(tape):
        x = ek.constant([[1.0, 2.0]])
        for _ in range(3):
            x = ek.tanh(ek.matmul(x, w) + b) * frozen
        before = w * 1.0
        w.assign_add([[1.0, 1.0], [1.0, 1.0]])  # a later read sees the new value
        after = ek.reduce_sum(w * before)
        w.assign_sub([[1.0, 1.0], [1.0, 1.0]])
        return ek.reduce_sum(x) + after, (w, b, frozen)

    assert_both_sweeps_agree(_tape_gradient(build), fast_calls)


@ek.custom_gradient
def _clipped_square(x):
    def grad_fn(dy):
        return ek.clip_by_value(dy * 2.0 * x, -1.0, 1.0)

    return x * x, grad_fn


def test_custom_gradients_with_and_without_variables(fast_calls):
    v = ek.Variable([0.5, 3.0])

    @ek.custom_gradient
    def scaled(x):
        def grad_fn(dy, variables=None):
            return dy * v * 3.0, [dy * x]

        return x * v, grad_fn

    def build(tape):
        x = ek.constant([1.0, -2.0])
        tape.watch(x)
        return ek.reduce_sum(_clipped_square(x) + scaled(x) * x), (x, v)

    assert_both_sweeps_agree(_tape_gradient(build), fast_calls)


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

        error_type, message = assert_both_sweeps_agree(_tape_gradient(build), fast_calls)
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

        error_type, message = assert_both_sweeps_agree(_tape_gradient(build), fast_calls)
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


@pytest.mark.parametrize(("name", "fn", "args"), CASES, ids=[name for name, _, _ in CASES])
def test_every_op_case_on_a_simulated_gpu_and_across_copies(name, fn, args, fast_calls):
    sim = ek.devices.enable_simulated_gpu()
    try:
        with ek.device(sim):
            assert_both_sweeps_agree(_gradients_of(fn, args), fast_calls)

        def across(*xs):  # the CPU inputs copied to the device and the answer copied back
            return fn(*[ek.copy_to_device(x, sim) for x in xs]).cpu()

        ek.set_device_policy("silent")  # constants a case closes over follow its inputs
        assert_both_sweeps_agree(_gradients_of(across, args), fast_calls)
    finally:
        ek.devices.disable_simulated_gpu()
        ek.set_device_policy("explicit")
