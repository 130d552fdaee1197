"""A gradient the reverse sweep alone holds is lent to the VJP that reads it last
(host_pool.lendable, fast_sweep.py), and relu's gradient writes into it (ops/nn.py).

What must hold: the gradients are those of the reference sweep, bit for bit; nothing anyone
can still read changes (a seed, a source's own gradient, a gradient shared by two inputs);
and the lent array is used, so a relu layer's backward pass makes one big array fewer.
"""

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pool_churn import pool_everything
from sweep_comparison import assert_both_sweeps_agree, spy_on_the_fast_sweep

import eagerkit as ek
from eagerkit.backends import host_pool

FLOATS = st.floats(-1e3, 1e3, width=32) | st.sampled_from([0.0, -0.0, np.inf, -np.inf, np.nan])


@pytest.fixture
def fast_calls(monkeypatch):
    return spy_on_the_fast_sweep(monkeypatch)


@pytest.fixture(autouse=True)
def _on_the_host():
    """The pool serves numpy arrays: every tensor here lives on the CPU, GPU or not."""
    with ek.device("/cpu:0"):
        yield


def test_only_a_pooled_array_that_nobody_else_holds_is_lendable():
    with pool_everything():
        array = host_pool.empty((3, 4), np.float32)
        assert host_pool.lendable(array)
        tensor = ek.constant(0.0)
        tensor._data = array  # held by a Tensor as well
        assert not host_pool.lendable(array)
        del tensor
        assert host_pool.lendable(array)
        view = array[1:]  # a view holds its base
        assert not host_pool.lendable(array)
        assert not host_pool.lendable(view)  # and is no pooled array itself
        del view
        also = [array]  # any other name
        assert not host_pool.lendable(array)
        del also
        assert host_pool.lendable(array)
    assert not host_pool.lendable(np.empty((512, 256), np.float32))  # big, but not pooled
    assert not host_pool.lendable(host_pool.empty((2, 2), np.float32))  # small: not pooled


def _relu_gradients(x_values, w_values, v_values, seed, sources):
    """Gradients through three relus: two share one gradient (an add passes the same array
    to both, so neither may write into it), the third's comes from a matmul alone (lent)."""
    x, w, v = ek.constant(x_values), ek.Variable(w_values), ek.Variable(v_values)

    def compute():
        with ek.GradientTape() as tape:
            tape.watch(x)
            z = x @ w
            shared = ek.nn.relu(z) + ek.nn.relu(-z)
            lone = ek.nn.relu(z * 0.5)
            y = shared @ v + lone @ v
        wanted = {"variables": [w, v], "and lone": [w, v, lone], "and x": [w, v, x]}[sources]
        return tape.gradient(y, wanted, output_gradients=seed)

    return compute


@settings(max_examples=40, deadline=None)
@given(
    hnp.arrays(np.float32, (6, 5), elements=FLOATS),
    hnp.arrays(np.float32, (5, 4), elements=st.floats(-2, 2, width=32)),
    hnp.arrays(np.float32, (4, 3), elements=st.floats(-2, 2, width=32)),
    hnp.arrays(np.float32, (6, 3), elements=st.floats(-2, 2, width=32)),
    st.sampled_from(["variables", "and lone", "and x"]),
)
def test_lent_relu_gradients_are_the_reference_sweeps(x, w, v, seed_values, sources):
    """Every result pooled (small ones too), so relu gradients are lent where nobody else
    holds them: the same bits as the reference sweep, nan, infinities and signed zeros
    included; a relu output that is also a source keeps its own gradient."""
    with pool_everything(), pytest.MonkeyPatch.context() as patch:
        calls = spy_on_the_fast_sweep(patch)
        seed = ek.constant(seed_values)
        assert_both_sweeps_agree(_relu_gradients(x, w, v, seed, sources), calls)
        np.testing.assert_array_equal(seed.numpy(), seed_values)  # the user's seed


def test_a_seed_the_user_holds_is_never_written_into(fast_calls):
    """The seed of relu's output is the gradient relu's VJP reads: the user holds it, so it
    is not lent, even when it is a pooled result."""
    with pool_everything():
        x = ek.constant(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4))
        seed = ek.nn.bias_add(ek.ones((3, 4)), ek.zeros([4]))  # a pooled array
        with ek.GradientTape() as tape:
            tape.watch(x)
            y = ek.nn.relu(x)
        gradient = tape.gradient(y, x, output_gradients=seed)
        np.testing.assert_array_equal(seed.numpy(), np.ones((3, 4), np.float32))
        np.testing.assert_array_equal(gradient.numpy(), (x.numpy() > 0).astype(np.float32))
    assert fast_calls


def _big_arrays_after_a_gradient(monkeypatch, lend):
    """How many pooled (1201, 300) float32 arrays one relu layer's step leaves in the pool."""
    shape = (1201, 300)  # 1.4 MB: pooled at the usual MIN_BYTES, and a shape of this test's
    if not lend:
        monkeypatch.setattr(host_pool, "LENDABLE", -1)  # no array is ever lendable
    host_pool.release()
    rng = np.random.default_rng(0)
    x = ek.constant(rng.normal(size=(shape[0], 30)).astype(np.float32))
    w1 = ek.Variable(rng.normal(size=(30, shape[1])).astype(np.float32))
    w2 = ek.Variable(rng.normal(size=(shape[1], 3)).astype(np.float32))
    with ek.GradientTape() as tape:
        loss = ek.reduce_sum(ek.nn.relu(x @ w1) @ w2)
    gradients = [g.numpy() for g in tape.gradient(loss, [w1, w2])]
    count = len(host_pool._buckets.get((shape, np.dtype(np.float32)), ()))
    host_pool.release()
    return count, gradients


def test_relu_writes_its_gradient_into_the_lent_array(monkeypatch):
    """The layer's product, its relu, and the backward product dz @ w2.T: three arrays,
    where without lending relu's gradient is a fourth; the gradients are the same bits."""
    lent_count, lent = _big_arrays_after_a_gradient(monkeypatch, lend=True)
    plain_count, plain = _big_arrays_after_a_gradient(monkeypatch, lend=False)
    assert (lent_count, plain_count) == (3, 4)
    for got, want in zip(lent, plain, strict=True):
        np.testing.assert_array_equal(got, want)
