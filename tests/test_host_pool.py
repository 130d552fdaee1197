"""The host pool (eagerkit/backends/host_pool.py) hands an array out again only when nobody
can read it any more, the kernels that use it give the bits of plain numpy, and it holds
at most its limit.

Most tests pool every array (``MIN_BYTES = 0``) so that small, fast examples exercise it.
"""

import contextlib
import gc

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.backends import host_pool
from eagerkit.backends.simulated import SimulatedBackend

SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -3.5, 2.0]


@pytest.fixture(autouse=True)
def _on_the_cpu():
    """The pool is the CPU's: on a machine with a GPU the ops would run there, unpooled (and
    each test would compare the GPU with itself, slowly: 99 s for one on an H100)."""
    with ek.device("/cpu:0"):
        yield


@contextlib.contextmanager
def pooling(min_bytes):
    """Arrays of at least ``min_bytes`` come from the pool (0: all of them, 1 << 62: none);
    the pool is emptied after."""
    before = host_pool.MIN_BYTES
    host_pool.MIN_BYTES = min_bytes
    try:
        yield
    finally:
        host_pool.MIN_BYTES = before
        gc.collect()
        host_pool.release()


EVERYTHING, NOTHING = 0, 1 << 62


@pytest.fixture
def pool_everything():
    with pooling(EVERYTHING):
        yield


HOLDERS = {
    "a name": lambda array: array,
    "a view": lambda array: array[1:],
    "a transposed view": lambda array: array.T,
    "a memoryview": memoryview,
    "a list": lambda array: [array],
    "a Tensor": lambda array: _tensor_holding(array),
    # np.asarray shares a tensor's memory (Tensor.numpy() copies, as TF's: it holds nothing)
    "np.asarray(Tensor)": lambda array: np.asarray(_tensor_holding(array)),
}


def _tensor_holding(array):
    from eagerkit.devices import CPU
    from eagerkit.tensor import Tensor

    return Tensor(array, CPU)


@pytest.mark.parametrize("holder", sorted(HOLDERS))
def test_an_array_is_handed_out_again_only_once_nothing_holds_it(pool_everything, holder):
    array = host_pool.empty((4, 3), np.float32)
    address = array.ctypes.data
    held = HOLDERS[holder](array)
    del array
    again = host_pool.empty((4, 3), np.float32)
    assert again.ctypes.data != address, f"handed out again while {holder} held it"
    del held, again
    assert host_pool.empty((4, 3), np.float32).ctypes.data == address


def test_small_arrays_and_other_devices_are_not_pooled():
    small = np.ones(8, np.float32)
    assert host_pool.like(small) is None
    assert host_pool.elementwise_output(small, small) is None
    assert host_pool.matmul_output(small.reshape(2, 4), small.reshape(4, 2)) is None
    sim = SimulatedBackend().asarray(np.ones((1024, 128)))
    assert host_pool.like(sim) is None
    assert host_pool.elementwise_output(sim, sim) is None
    assert host_pool.matmul_output(sim, sim.T) is None
    ints = np.ones((1024, 128), np.int64)  # integers: some ufuncs change the dtype
    assert host_pool.elementwise_output(ints, ints) is None
    mixed = np.ones((1024, 128), np.float32)
    assert host_pool.elementwise_output(mixed, mixed.astype(np.float64)) is None


def test_the_pool_holds_at_most_its_limit(pool_everything, monkeypatch):
    host_pool.release()
    start = host_pool.held_bytes()  # arrays other tests' objects still hold, if any
    monkeypatch.setattr(host_pool, "LIMIT_BYTES", start + 10_000)
    kept = [host_pool.empty((100,), np.float64) for _ in range(20)]  # 800 bytes each
    assert host_pool.held_bytes() - start <= 10_000
    assert all(a.shape == (100,) for a in kept)
    del kept
    host_pool.release()
    assert host_pool.held_bytes() == start
    in_use = host_pool.empty((1000,), np.float64)  # 8,000 bytes, held
    for _ in range(5):  # each new shape lets go of free arrays to make room, never of in_use
        host_pool.empty((200,), np.float64)
    assert host_pool.held_bytes() - start <= 10_000
    in_use[:] = 7.0
    host_pool.release()
    assert host_pool.held_bytes() == start + in_use.nbytes
    assert (in_use == 7.0).all()


@st.composite
def operands(draw):
    """Two float arrays of one dtype; the second has the first's shape or broadcasts into it."""
    dtype = draw(st.sampled_from([np.float16, np.float32, np.float64]))
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5))
    cut = draw(st.integers(0, len(shape)))
    other = tuple(draw(st.sampled_from([1, n])) for n in shape[cut:])
    values = st.one_of(st.floats(-1e3, 1e3, width=16), st.sampled_from(SPECIALS))
    x = draw(hnp.arrays(dtype, shape, elements=values))
    y = draw(hnp.arrays(dtype, other, elements=values))
    return (y, x) if draw(st.booleans()) else (x, y)


def _bits(a):
    a = np.ascontiguousarray(a)
    return a.view(f"u{a.dtype.itemsize}")


def _results(x, y):
    """What the pooled kernels give for x and y, forward and backward, as numpy arrays."""
    tx, ty = ek.constant(x), ek.constant(y)
    with ek.GradientTape(persistent=True) as tape:
        tape.watch([tx, ty])
        out = {
            "add": tx + ty,
            "subtract": tx - ty,
            "multiply": tx * ty,
            "relu": ek.nn.relu(tx * ty),
        }
        if x.ndim == 2 and y.ndim == 2 and x.shape[1] == y.shape[1]:
            out["matmul"] = ek.matmul(tx, ty, transpose_b=True)
            out["bias_add"] = ek.nn.bias_add(tx, ty[0])
    for name in list(out):
        gx, gy = tape.gradient(out[name], [tx, ty])
        out[name + " gradients"] = [gx, gy]
    return {
        name: [v.numpy() for v in value] if isinstance(value, list) else [value.numpy()]
        for name, value in out.items()
    }


@settings(max_examples=60, deadline=None)
@given(operands())
def test_pooled_kernels_give_the_bits_of_plain_ones(pair):
    x, y = pair
    with np.errstate(all="ignore"):
        with pooling(NOTHING):
            plain = _results(x, y)
        with pooling(EVERYTHING):
            pooled = _results(x, y)
    assert plain.keys() == pooled.keys()
    for name in plain:
        for want, got in zip(plain[name], pooled[name], strict=True):
            assert got.dtype == want.dtype and got.shape == want.shape, name
            np.testing.assert_array_equal(_bits(got), _bits(want), err_msg=name)


STEPS = st.lists(
    st.tuples(
        st.sampled_from(["add", "multiply", "subtract", "relu", "matmul", "bias_add"]),
        st.integers(0, 10**6),  # which earlier values are its operands
        st.sampled_from(["drop", "keep tensor", "keep numpy", "keep view", "use later"]),
    ),
    min_size=1,
    max_size=25,
)


@settings(max_examples=80, deadline=None)
@given(STEPS, st.sampled_from([np.float32, np.float64]), st.booleans())
def test_no_value_anyone_can_read_changes(steps, dtype, on_a_tape):
    """A random program of pooled ops, on a tape or not: every value still held by anything
    (a Tensor, the array .numpy() returns, a view of it, a later op's input) reads at the
    end what it read when it was made, though dropped values' arrays serve again."""
    with pooling(EVERYTHING):
        _run_and_check(steps, dtype, on_a_tape)


def _run_and_check(steps, dtype, on_a_tape):
    rng = np.random.default_rng(len(steps))
    values = [ek.constant(rng.normal(size=(3, 3)).astype(dtype)) for _ in range(2)]
    held, snapshots = [], []
    tape = ek.GradientTape(persistent=True)
    with tape if on_a_tape else contextlib.nullcontext():
        if on_a_tape:
            tape.watch(values)
        for name, pick, keep in steps:
            a, b = values[pick % len(values)], values[(pick // 7) % len(values)]
            if name == "relu":
                result = ek.nn.relu(a)
            elif name == "matmul":
                result = ek.matmul(a, b)
            elif name == "bias_add":
                result = ek.nn.bias_add(a, b[0])
            else:
                result = getattr(ek, name)(a, b)
            if keep == "use later":
                values.append(result)
                held.append(result)
                snapshots.append(np.array(result.numpy()))
            elif keep != "drop":
                array = result.numpy()
                kept = {"keep tensor": result, "keep numpy": array, "keep view": array[1:]}
                held.append(kept[keep])
                snapshots.append(np.array(array[1:] if keep == "keep view" else array))
    if on_a_tape:  # the sweep's arrays come from the pool too
        gradients = tape.gradient(values[-1], values[:2])
        assert all(g is None or g.shape == (3, 3) for g in gradients)
    for value, snapshot in zip(held, snapshots, strict=True):
        now = value.numpy() if isinstance(value, ek.Tensor) else value
        np.testing.assert_array_equal(_bits(now), _bits(snapshot))


def _mlp_step(dtype):
    rng = np.random.default_rng(0)
    w1 = ek.Variable(rng.normal(0, 0.1, (8, 16)).astype(dtype))
    b1 = ek.Variable(np.zeros(16, dtype))
    w2 = ek.Variable(rng.normal(0, 0.1, (16, 3)).astype(dtype))
    x = ek.constant(rng.normal(size=(32, 8)).astype(dtype))
    labels = ek.constant(np.eye(3, dtype=dtype)[rng.integers(0, 3, 32)])
    variables = [w1, b1, w2]
    losses = []
    for _ in range(5):
        with ek.GradientTape() as tape:
            logits = ek.nn.relu(x @ w1 + b1) @ w2
            loss = -ek.reduce_mean(
                ek.reduce_sum(labels * (logits - ek.reduce_logsumexp(logits, 1, True)), 1)
            )
        for variable, gradient in zip(variables, tape.gradient(loss, variables), strict=True):
            variable.assign_sub(0.5 * gradient)
        losses.append(loss.numpy())
    return np.array(losses), [v.numpy() for v in variables]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_training_step_is_the_same_with_the_pool_and_reuses_its_arrays(dtype):
    with pooling(NOTHING):
        plain_losses, plain_weights = _mlp_step(dtype)
    with pooling(EVERYTHING):
        pooled_losses, pooled_weights = _mlp_step(dtype)
        held = host_pool.held_bytes()
        _mlp_step(dtype)  # five more steps: the arrays of the first five serve again
        assert host_pool.held_bytes() == held
    np.testing.assert_array_equal(_bits(pooled_losses), _bits(plain_losses))
    for got, want in zip(pooled_weights, plain_weights, strict=True):
        np.testing.assert_array_equal(_bits(got), _bits(want))
