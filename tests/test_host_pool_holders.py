"""A value anyone can still read never changes, however it is held (backends/host_pool.py).

The pool hands a big result's array out again once nothing but the pool holds it
(``sys.getrefcount``). Each holder below is one way users and the rest of eagerkit keep a
value: a Tensor, its numpy array and views of it, Variables, tapes, ``ek.function``,
datasets, generators, threads, reference cycles. Each test makes a pooled result, holds it
that way, drops every other reference, runs every pooled kernel again many times (results
the freed array may become) and reads the held value again.
"""

import copy
import gc
import pickle
import threading
import weakref

import numpy as np
import pytest
from pool_churn import (
    check_holder,
    churn,
    graph_step,
    pool_everything,
    pooled_result,
    tight_limit,
)

import eagerkit as ek
from eagerkit.backends import host_pool

HOLDERS = {}  # name -> hold(t): a pooled result t held that way; returns its reader


@pytest.fixture(autouse=True)
def _on_the_host():
    """The pool serves numpy arrays: every tensor here lives on the CPU, GPU or not."""
    with ek.device("/cpu:0"):
        yield


def holder(name):
    def register(hold):
        HOLDERS[name] = hold
        return hold

    return register


@holder("the tensor")
def _(t):
    return t.numpy


@holder("its .numpy()")
def _(t):
    a = t.numpy()
    return lambda: a


@holder("np.asarray(t)")
def _(t):
    a = np.asarray(t)
    return lambda: a


@holder("a slice of np.asarray(t)")
def _(t):
    a = np.asarray(t)[3:, 1::2]
    return lambda: a


@holder("the transpose of np.asarray(t)")
def _(t):
    a = np.asarray(t).T
    return lambda: a


@holder("a reshape of np.asarray(t)")
def _(t):
    a = np.asarray(t).reshape(-1)
    return lambda: a


@holder("np.frombuffer")
def _(t):
    a = np.frombuffer(np.asarray(t), np.float32)
    return lambda: a


@holder("a memoryview")
def _(t):
    m = memoryview(np.asarray(t))
    return lambda: np.asarray(m)


@holder("ndarray.data")
def _(t):
    m = np.asarray(t).data
    return lambda: np.asarray(m)


@holder("np.ctypeslib.as_ctypes")
def _(t):
    c = np.ctypeslib.as_ctypes(np.asarray(t))
    return lambda: np.ctypeslib.as_array(c)


@holder("pickle's out-of-band buffer (protocol 5)")
def _(t):
    buffers = []
    data = pickle.dumps(np.asarray(t), protocol=5, buffer_callback=buffers.append)
    return lambda: pickle.loads(data, buffers=buffers)


@holder("pickle of the tensor")
def _(t):
    data = pickle.dumps(t)
    return lambda: pickle.loads(data).numpy()


@holder("copy.copy and copy.deepcopy")
def _(t):
    pair = copy.copy(t), copy.deepcopy(t)
    return lambda: np.stack([c.numpy() for c in pair])


@holder("ek.constant(t.numpy()), ek.constant(t), convert_to_tensor")
def _(t):
    made = ek.constant(t.numpy()), ek.constant(t), ek.convert_to_tensor(t)
    return lambda: np.stack([c.numpy() for c in made])


@holder("tensor slices, rows and reshapes")
def _(t):
    parts = t[3:, 1::2], list(t)[5], ek.reshape(t, [-1]), ek.transpose(t), ek.unstack(t)[-1]
    return lambda: np.concatenate([ek.reshape(p, [-1]).numpy() for p in parts])


@holder("identity, stop_gradient, cast to its own dtype")
def _(t):
    made = ek.identity(t), ek.stop_gradient(t), ek.cast(t, ek.float32)
    return lambda: np.stack([c.numpy() for c in made])


@holder("Variable(t) and Variable(t.numpy())")
def _(t):
    made = ek.Variable(t), ek.Variable(t.numpy())
    return lambda: np.stack([v.numpy() for v in made])


@holder("assign and assign_add")
def _(t):
    a, b = ek.Variable(ek.zeros_like(t)), ek.Variable(ek.ones_like(t))
    a.assign(t)
    b.assign_add(t)
    return lambda: np.stack([a.numpy(), b.numpy()])


@holder("read_value, then the variable assigned again")
def _(t):
    v = ek.Variable(t)
    read, part = v.read_value(), v[2:]
    v.assign(ek.zeros_like(t))
    return lambda: np.concatenate([read.numpy()[2:], part.numpy()])


@holder("a persistent tape's record (x * t)")
def _(t):
    x = ek.ones_like(t)
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * t
    return lambda: tape.gradient(y, x).numpy()


@holder("a watched tensor on a persistent tape")
def _(t):
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(t)
        y = t * t
    return lambda: tape.gradient(y, t).numpy()


@holder("nested tapes (a second-order gradient)")
def _(t):
    x = ek.ones_like(t)
    with ek.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with ek.GradientTape() as inner:
            inner.watch(x)
            y = x * x * t
        dy = inner.gradient(y, x)
    return lambda: outer.gradient(dy, x).numpy()


@holder("a jacobian's recorded matmul")
def _(t):
    x = ek.ones((1, t.shape[0]))
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = ek.matmul(x, t)
    return lambda: tape.jacobian(y, x).numpy()


@holder("ek.function: a captured constant")
def _(t):
    f = ek.function(lambda x: x + t * 2.0)
    zeros = ek.zeros_like(t)
    f(zeros)  # traced now: the graph holds t's array as a constant
    return lambda: f(zeros).numpy()


@holder("ek.function: a returned result")
def _(t):
    result = graph_step(t, t)
    return result.numpy


@holder("Dataset.from_tensor_slices, batch, from_tensors")
def _(t):
    sets = (
        ek.data.Dataset.from_tensor_slices(t),
        ek.data.Dataset.from_tensor_slices(t).batch(100),
        ek.data.Dataset.from_tensors(t),
    )
    return lambda: np.concatenate([np.concatenate([e.numpy().ravel() for e in d]) for d in sets])


@holder("Dataset.cache after one pass")
def _(t):
    cached = ek.data.Dataset.from_tensor_slices(ek.identity(t)).cache()
    list(cached)
    return lambda: np.stack([e.numpy() for e in cached])


@holder("a generator's frame")
def _(t):
    def rows(a):
        yield from a

    started = rows(t.numpy())
    first = next(started)
    rest = list(started)  # read now: the generator's frame held the array until here
    return lambda: np.stack([first, *rest])


@holder("another thread, waiting")
def _(t):
    go, out = threading.Event(), {}

    def later(a):
        go.wait()
        out["value"] = a.copy()

    thread = threading.Thread(target=later, args=(t.numpy(),), daemon=True)  # never blocks exit
    thread.start()

    def read():
        if thread.is_alive():
            go.set()
            thread.join()
        return out["value"]

    return read


@holder("a reference cycle")
def _(t):
    class Node:
        pass

    node = Node()
    node.me, node.value = node, t
    return lambda: node.value.numpy()


@pytest.mark.parametrize("name", HOLDERS)
def test_a_held_big_result_never_changes(name):
    check_holder(HOLDERS[name])


@pytest.mark.parametrize("name", HOLDERS)
def test_a_held_small_result_never_changes_when_everything_is_pooled(name):
    with pool_everything():
        check_holder(HOLDERS[name], shape=(6, 4))


@pytest.mark.parametrize("name", HOLDERS)
def test_a_held_result_never_changes_while_the_pool_is_full(name):
    with tight_limit():
        check_holder(HOLDERS[name])


def test_churn_writes_over_a_result_nobody_holds():
    """The tests above can fail: an array nobody holds is taken back and written over."""
    host_pool.release()  # no free array left by earlier tests: churn's first one is t's
    t = pooled_result()
    before, address = t.numpy().copy(), t._data.ctypes.data  # no reference: a weak one
    del t  # would keep the pool from handing the array out again (host_pool.empty)
    reusers = [r for r in churn() if r._data.ctypes.data == address]
    assert reusers, "the pool never handed the freed array out again"
    assert not np.array_equal(reusers[0].numpy(), before)  # ... and it was written over


def test_a_weak_reference_to_a_dropped_result_dies_or_keeps_its_value():
    host_pool.release()
    t = pooled_result()
    before, cache = t.numpy().copy(), weakref.WeakValueDictionary()
    cache["t"] = t.numpy()  # a user's cache of arrays, keyed by name
    del t
    gc.collect()
    churn()
    value = cache.get("t")
    assert value is None or np.array_equal(value, before)
