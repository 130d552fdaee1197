"""The fast sweep (fast_sweep.sweep_arrays) gives what the reference sweep gives, bit for bit.

Every op case (on the CPU, on a simulated GPU and across copies), fan-out, broadcasting,
unconnected sources, sources that are op outputs, persistent tapes, variables and custom
gradients, each through both sweeps (sweep_comparison.py). Errors: test_fast_sweep_errors.py.
"""

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from op_cases import cases
from sweep_comparison import (
    assert_both_sweeps_agree,
    gradients_of,
    spy_on_the_fast_sweep,
    tape_gradient,
)

import eagerkit as ek
from eagerkit import backprop, fast_sweep
from eagerkit.devices import CPU

CASES = cases()


@pytest.fixture
def fast_calls(monkeypatch):
    return spy_on_the_fast_sweep(monkeypatch)


@pytest.mark.parametrize(("name", "fn", "args"), CASES, ids=[name for name, _, _ in CASES])
def test_every_op_case_gives_identical_gradients(name, fn, args, fast_calls):
    assert_both_sweeps_agree(gradients_of(fn, args), fast_calls)
    # fan-out: the case's output used twice, and its inputs reused after it
    assert_both_sweeps_agree(
        gradients_of(
            lambda *xs: ek.reduce_sum(fn(*xs) * fn(*xs)) + ek.reduce_sum(xs[0]), args, weights=False
        ),
        fast_calls,
    )


@pytest.mark.parametrize(("name", "fn", "args"), CASES, ids=[name for name, _, _ in CASES])
def test_every_op_case_on_a_simulated_gpu_and_across_copies(name, fn, args, fast_calls):
    sim = ek.devices.enable_simulated_gpu()
    try:
        with ek.device(sim):
            assert_both_sweeps_agree(gradients_of(fn, args), fast_calls)

        def across(*xs):  # the CPU inputs copied to the device and the answer copied back
            return fn(*[ek.copy_to_device(x, sim) for x in xs]).cpu()

        ek.set_device_policy("silent")  # constants a case closes over follow its inputs
        assert_both_sweeps_agree(gradients_of(across, args), fast_calls)
    finally:
        ek.devices.disable_simulated_gpu()
        ek.set_device_policy("explicit")


def test_fan_out_and_broadcasting(fast_calls):
    def build(tape):
        x = ek.constant([[1.0, -2.0, 3.0]])  # (1, 3): broadcast along both axes below
        b = ek.constant([[0.5], [1.5]])  # (2, 1)
        s = ek.constant(2.0)  # a scalar, broadcast everywhere
        tape.watch([x, b, s])
        h = x * b + s  # (2, 3)
        y = ek.tanh(h) * x + h * h - ek.exp(x) * s  # x reaches y along four paths
        return ek.reduce_sum(y * y), (x, b, s)

    assert_both_sweeps_agree(tape_gradient(build), fast_calls)


def test_a_sum_passed_on_as_it_is_is_never_added_into(fast_calls):
    def build(tape):
        x = ek.constant([1.0, 2.0])
        tape.watch(x)
        a = x * 2.0
        u = a * 3.0  # a's other use, recorded before h: its gradient arrives last
        h = a + x  # add passes h's gradient (a sum: h is used twice) on to a and x as it is
        return ek.reduce_sum(h * h + ek.sin(h) + u), (x, h)

    got = assert_both_sweeps_agree(tape_gradient(build), fast_calls)
    h = 3.0 * np.array([1.0, 2.0])
    np.testing.assert_allclose(got[1].numpy(), 2 * h + np.cos(h))
    np.testing.assert_allclose(got[0].numpy(), 3 * (2 * h + np.cos(h)) + 6.0)


def test_unconnected_sources_get_none_or_zeros(fast_calls):
    def build(tape):
        x, unused, unwatched = ek.constant(1.5), ek.constant([1.0, 2.0]), ek.constant(3.0)
        tape.watch([x, unused])
        return x * x + unwatched, (x, unused, unwatched)

    got = assert_both_sweeps_agree(tape_gradient(build), fast_calls)
    assert got[1] is None and got[2] is None
    got = assert_both_sweeps_agree(tape_gradient(build, unconnected_gradients="zero"), fast_calls)
    assert got[1].numpy().tolist() == [0.0, 0.0]


def test_sources_that_are_op_outputs_and_an_integer_detour(fast_calls):
    def build(tape):
        x = ek.constant([1.0, 2.0, 3.0])
        tape.watch(x)
        h = ek.sin(x) * 2.0  # a source computed on the tape
        n = ek.cast(h * 10.0, ek.int32)  # gradients stop at integers, as in TF
        back = ek.cast(n, ek.float32)  # a float that depends on x only through integers
        return ek.reduce_sum(h * h + back + x + back * h), (x, h, n)

    got = assert_both_sweeps_agree(tape_gradient(build), fast_calls)
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

    assert_both_sweeps_agree(tape_gradient(build), fast_calls)
    assert walks == []  # x, y and w: all the tape watched are sources

    def build_fewer_sources(tape):  # y and w are watched too: the sweep walks the tape
        target, (x, y, w) = build(tape)
        return target, (x,)

    assert_both_sweeps_agree(tape_gradient(build_fewer_sources), fast_calls)
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

    assert_both_sweeps_agree(tape_gradient(build), fast_calls)


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

    assert_both_sweeps_agree(tape_gradient(build), fast_calls)


@st.composite
def _broadcast_gradients(draw):
    """A gradient and the shape of the input that broadcasting made it from (leading axes
    added, sizes of 1 stretched), in the dtypes gradients have."""
    dtype = draw(st.sampled_from([np.float16, np.float32, np.float64, np.complex64]))
    full = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=1, max_side=5))
    kept = full[draw(st.integers(0, len(full))) :]
    shape = tuple(draw(st.sampled_from([n, 1])) for n in kept)
    g = draw(hnp.arrays(dtype, full, elements=st.floats(-1e3, 1e3, width=16)))
    return g, shape


@settings(max_examples=200, deadline=None)
@given(_broadcast_gradients())
def test_unbroadcast_array_sums_back_as_the_reference_does(case):
    g, shape = case
    ops = backprop.vjp_ops(CPU, on_tensors=False)
    want = backprop.unbroadcast(ops, g, shape)
    got = fast_sweep.unbroadcast_array(g, shape)
    assert (got.dtype, got.shape) == (want.dtype, want.shape) == (g.dtype, shape)
    assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from([np.float16, np.float32, np.float64, np.complex64, np.complex128]),
    hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3),
    st.booleans(),
)
def test_a_target_without_a_seed_starts_from_what_ones_like_makes(dtype, shape, as_scalar):
    """backprop.ones_like_target (np.array(1) for a scalar: a loss) makes what numpy's
    ones_like makes: a new, writable array of ones of the target's dtype and shape."""
    data = np.full(shape, 2.5, dtype)
    if as_scalar and not shape:  # reduce_mean's answer can be a numpy scalar, not a 0-d array
        data = data[()]
    target = ek.constant(data)
    target._data = data  # as an op left it
    got, want = backprop.ones_like_target(target), np.ones_like(data)
    assert type(got) is type(want) is np.ndarray
    assert (got.dtype, got.shape) == (want.dtype, want.shape)
    assert got.flags.writeable and np.array_equal(got, want)


@settings(max_examples=100, deadline=None)
@given(hnp.array_shapes(min_dims=1, max_dims=4, min_side=0, max_side=3), st.data())
def test_a_reduction_gradient_takes_its_kept_shape_as_ops_reshape_would(shape, data):
    """reduce.py's _reshape_to_kept calls a numpy gradient's reshape method directly: the
    same array (values, shape, dtype) as ops.reshape, its reference. A whole-array sum's
    gradient may come as a numpy scalar (a ufunc's 0-d result, as negative's VJP gives
    for ``-reduce_mean(x)``): the method again, never the slower op."""
    from eagerkit.ops.reduce import _reshape_to_kept

    axis = data.draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1)))
    x = np.zeros(shape, np.float32)
    g = x.sum(axis=axis) + np.float32(1.5)  # a numpy scalar when axis sums every axis
    if data.draw(st.booleans(), label="as an array"):
        g = np.asarray(g)
    ops = backprop.vjp_ops(CPU, on_tensors=False)
    got = _reshape_to_kept(ops, g, x, axis, keepdims=False)
    want = ops.reshape(g, shape=np.sum(x, axis=axis, keepdims=True).shape)
    assert type(got) is np.ndarray and (got.shape, got.dtype) == (want.shape, want.dtype)
    assert np.array_equal(got, want)


def test_a_numpy_scalar_gradient_is_reshaped_by_its_method(monkeypatch):
    """-reduce_mean(x): negative's VJP gives the mean's VJP a numpy scalar, which is reshaped
    as an array is, not through ops.reshape (three times the cost, measured in the MLP step)."""
    from eagerkit import registry

    calls = []
    reshape = registry.REGISTRY["reshape"].forward
    monkeypatch.setattr(
        registry.REGISTRY["reshape"], "forward", lambda *a, **k: calls.append(1) or reshape(*a, **k)
    )
    x = ek.Variable(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    with ek.GradientTape() as tape:
        loss = -ek.reduce_mean(ek.reduce_sum(x * x, axis=1))
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), -x.numpy())
    assert calls == []
