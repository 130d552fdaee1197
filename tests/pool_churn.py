"""Helpers of the host pool's holder tests (test_host_pool_holders.py and _users.py):
pooled results, a churn of every pooled kernel, and the pool's settings changed for a while.
"""

import contextlib
import gc
from sys import getrefcount

import numpy as np

import eagerkit as ek
from eagerkit.backends import host_pool

SHAPE = (512, 256)  # float32: 512 KiB, past host_pool.MIN_BYTES


@contextlib.contextmanager
def pool_everything():
    """``host_pool.MIN_BYTES = 0``: every result of a pooled kernel is pooled, small too."""
    before = host_pool.MIN_BYTES
    host_pool.MIN_BYTES = 0
    try:
        yield
    finally:
        host_pool.MIN_BYTES = before
        host_pool.release()  # the small free arrays go: later tests see the usual pool


@contextlib.contextmanager
def tight_limit(arrays=3):
    """``host_pool.LIMIT_BYTES`` of a few big results: ``release`` runs again and again."""
    before = host_pool.LIMIT_BYTES
    host_pool.release()
    host_pool.LIMIT_BYTES = host_pool.held_bytes() + arrays * np.prod(SHAPE) * 4
    try:
        yield
    finally:
        host_pool.LIMIT_BYTES = before


def arrays_in_use():
    """How many of the pool's arrays something besides the pool holds."""
    return sum(
        getrefcount(array) != host_pool.FREE  # the same steps as host_pool's own count
        for bucket in host_pool._buckets.values()
        for array in bucket
    )


def in_pool(array):
    return any(a is array for bucket in host_pool._buckets.values() for a in bucket)


def pooled_result(shape=SHAPE, seed=1):
    """A fresh result of a pooled kernel (bias_add of zeros), random values; the pool made
    its array."""
    values = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    t = ek.nn.bias_add(ek.constant(values), ek.zeros(shape[-1:]))
    assert in_pool(t._data), "the test needs a pooled result"
    return t


# The same work as a graph: its compiled function writes into dead temporaries (replay.py).
graph_step = ek.function(lambda x, y: ek.nn.relu(x * y + y) - x)


def churn(shape=SHAPE, tapes=True):
    """Every pooled kernel, many times, over results of ``shape``: each may take a freed
    array and writes it whole with values no held result has. Returns some of them.
    ``tapes=False``: the forward kernels only, no draining (for threads: tapes and traces
    are not per thread, and another thread's free arrays come and go)."""
    x = ek.constant(np.full(shape, -7.0, np.float32))
    kept = []
    for step in range(8):
        w = ek.eye(shape[1]) * (step + 2.0)
        b = ek.fill([shape[1]], 5.0 + step)
        if not tapes:
            results = [x + x, x - x, x * x, ek.nn.relu(ek.nn.bias_add(ek.matmul(x, w), b))]
            kept.append(results[step % len(results)])
            continue
        with ek.GradientTape() as tape:  # relu's gradient, matmul's and multiply's
            tape.watch(x)
            y = ek.nn.relu(ek.nn.bias_add(ek.matmul(x, w), b)) * x
        results = [x + x, x - y, x * x, y, tape.gradient(y, x), graph_step(x, y)]
        kept.append(results[step % len(results)])  # some stay in use, the rest are freed
    for _ in range(free_arrays(shape) if tapes else 0):  # then every free one, wherever it is
        kept.append(ek.nn.bias_add(x, ek.fill([shape[1]], 3.0)))
    return kept


def free_arrays(shape, dtype=np.float32):
    """How many of the pool's arrays of ``shape`` and ``dtype`` nothing else holds."""
    bucket = host_pool._buckets.get((tuple(shape), np.dtype(dtype)), ())
    return sum(getrefcount(array) == host_pool.FREE for array in bucket)


def check_holder(hold, shape=SHAPE):
    """A pooled result held by ``hold`` (which returns its reader), every other reference
    dropped, reads the same after a churn."""
    t = pooled_result(shape)
    reader = hold(t)
    del t
    assert_unchanged_by_churn(reader, shape)


def assert_unchanged_by_churn(reader, shape=SHAPE):
    """``reader()`` gives the same values before and after a churn of ``shape``."""
    before = np.array(reader(), copy=True)
    gc.collect()
    churn(shape)
    np.testing.assert_array_equal(reader(), before)
