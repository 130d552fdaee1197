"""What the rest of eagerkit keeps of pooled results never changes (backends/host_pool.py).

Keras models and their callbacks, optimizers' slots, checkpoints, the widgets' models and
the exercise checks hold results of pooled kernels; a failed op, a second thread and the
garbage collector meet the pool too. test_host_pool_holders.py holds one result each way;
the last test here runs random programs of pooled ops and reads every value still held.
"""

import gc
import threading

import numpy as np
import pytest
from eagerkit.widgets import GradientFlow, TapeView
from eagerkit.widgets.exercises import FunctionExercise, all_exercises
from hypothesis import given, settings
from hypothesis import strategies as st
from pool_churn import (
    SHAPE,
    arrays_in_use,
    assert_unchanged_by_churn,
    churn,
    graph_step,
    in_pool,
    pool_everything,
    pooled_result,
)

import eagerkit as ek
from eagerkit.backends import host_pool


@pytest.fixture(autouse=True)
def _on_the_host():
    """The pool serves numpy arrays: every tensor here lives on the CPU, GPU or not."""
    with ek.device("/cpu:0"):
        yield


def _dense_model():
    model = ek.keras.Sequential([ek.keras.layers.Dense(SHAPE[1], activation="relu")])
    model.compile(optimizer=ek.keras.optimizers.Adam(0.01), loss="mse")
    return model


def test_keras_outputs_predictions_and_callbacks_keep_their_values():
    inputs, y = pooled_result(seed=2), pooled_result(seed=3)

    class Keep(ek.keras.callbacks.Callback):  # a user's callback: logs and the model's output
        outputs, logs = [], []

        def on_epoch_end(self, epoch, logs=None):
            self.outputs.append(self.model(inputs))
            self.logs.append(dict(logs))

    model = _dense_model()
    history = model.fit(inputs, y, batch_size=SHAPE[0], epochs=3, verbose=0, callbacks=[Keep()])
    called, predicted = model(inputs), model.predict(inputs, batch_size=SHAPE[0], verbose=0)
    assert in_pool(called._data) and in_pool(Keep.outputs[0]._data)
    del y
    assert_unchanged_by_churn(
        lambda: np.concatenate(
            [np.ravel([log["loss"] for log in Keep.logs]), history.history["loss"]]
            + [np.ravel(t) for t in (called, predicted, *Keep.outputs)]
        )
    )


@pytest.mark.parametrize(
    "optimizer",
    [ek.keras.optimizers.Adam, ek.train.AdamOptimizer, ek.train.MomentumOptimizer],
    ids=lambda o: o.__module__.split(".")[1] + "." + o.__name__,
)
def test_optimizer_slots_keep_their_values(optimizer):
    v = ek.Variable(pooled_result((SHAPE[1], SHAPE[1]), seed=4))
    opt = optimizer(0.01) if optimizer is not ek.train.MomentumOptimizer else optimizer(0.01, 0.9)
    for _ in range(2):
        with ek.GradientTape() as tape:
            loss = ek.reduce_sum(ek.nn.relu(ek.matmul(v, v)))
        opt.apply_gradients([(tape.gradient(loss, v), v)])
    slots = [opt.get_slot(v, name) for name in opt.get_slot_names()]
    assert_unchanged_by_churn(lambda: np.stack([v.numpy(), *[s.numpy() for s in slots]]))


def test_a_checkpoint_restores_the_values_it_saved(tmp_path):
    v = ek.Variable(pooled_result(seed=5))
    saved = v.numpy().copy()
    path = ek.train.Checkpoint(v=v).save(str(tmp_path / "ckpt"))
    v.assign(pooled_result(seed=6))
    churn()
    ek.train.Checkpoint(v=v).restore(path)
    np.testing.assert_array_equal(v.numpy(), saved)
    assert_unchanged_by_churn(v.numpy)


def test_a_tape_view_reads_the_values_its_tape_recorded():
    x = pooled_result(seed=7)
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = ek.nn.relu(ek.matmul(x + x, ek.eye(SHAPE[1]))) * x
    view = TapeView(tape)
    del x, y  # the tape's records hold them now

    def sweep():  # the view reads the records' arrays again during each sweep
        tape.gradient(tape.records[-1].output, tape.records[0].x)
        return np.array(repr(view.graph))

    assert_unchanged_by_churn(sweep)


def test_gradient_flow_shows_a_dropped_gradient_as_it_was_logged():
    v = ek.Variable(ek.zeros(SHAPE), name="dense/kernel")
    flows = GradientFlow([v], every=1), GradientFlow([v], every=1)
    g = pooled_result(seed=8)
    flows[0].log([(g, v)])  # it keeps the array for its histogram, read at the flush
    flows[1].log([(ek.constant(g.numpy().copy()), v)])  # a twin fed a private copy
    del g
    gc.collect()
    churn()
    for flow in flows:
        flow.flush(final=True)
    assert flows[0].history == flows[1].history


def test_exercise_verdicts_are_the_same_when_every_result_is_pooled():
    def verdicts():
        return [
            (ex.key, seed, result.status, result.lines)
            for ex in all_exercises()
            if isinstance(ex, FunctionExercise)
            for seed in (1, 2)
            for result in [ex.check(ex.reference, seed=seed)]
        ]

    plain = verdicts()
    with pool_everything():
        handed_out = host_pool.held_bytes()
        pooled = verdicts()
        assert host_pool.held_bytes() > handed_out  # the checks' small results were pooled
    assert pooled == plain


def test_a_failed_op_changes_no_held_value_and_gives_its_array_back():
    held = pooled_result(seed=9)
    before, huge = held.numpy().copy(), ek.constant(np.full(SHAPE, 3e38, np.float32))
    gc.collect()
    in_use = arrays_in_use()
    for _ in range(5):
        with np.errstate(over="raise"), pytest.raises(ek.errors.InvalidArgumentError):
            ek.multiply(huge, huge)  # numpy raises after writing into a pooled array
    gc.collect()  # the error's traceback holds its frames in a cycle (fast_dispatch's shown)
    assert arrays_in_use() == in_use  # each failure's array went back to the pool
    churn()
    np.testing.assert_array_equal(held.numpy(), before)


def test_two_threads_running_pooled_ops_never_share_an_array():
    def work(seed, wrong):
        with ek.device("/cpu:0"):  # device scopes may be per thread: the host, here too
            x = pooled_result(seed=seed)
            w = ek.constant(np.eye(SHAPE[1], dtype=np.float32) * 0.5)
            for _ in range(10):  # matmul lets go of the GIL: the other thread runs meanwhile
                y, z = ek.matmul(x, w), ek.nn.relu(x) - x
                expected = (x.numpy() * 0.5, np.maximum(x.numpy(), 0) - x.numpy())
                churn(tapes=False)
                wrong += [
                    not np.array_equal(a.numpy(), b) for a, b in zip((y, z), expected, strict=True)
                ]

    wrong = [], []
    threads = [
        threading.Thread(target=work, args=(seed, w)) for seed, w in zip((1, 2), wrong, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == ([False] * 20, [False] * 20)


def test_a_cycle_collected_later_finds_its_value_in_its_finalizer():
    seen = []

    class Node:  # a finalizer reads what the cycle held (gc runs __del__ before clearing)
        def __del__(self):
            seen.append(self.value.numpy().copy())

    node = Node()
    node.me, node.value = node, pooled_result(seed=10)
    before = node.value.numpy().copy()
    gc.disable()  # the cycle stays uncollected while the pool is busy
    try:
        del node
        churn()
    finally:
        gc.enable()
    gc.collect()
    np.testing.assert_array_equal(seen[0], before)


FLOATS = st.sampled_from([np.float32, np.float64])
STEPS = st.lists(
    st.tuples(
        st.sampled_from(["add", "subtract", "multiply", "relu", "matmul", "bias_add", "grad"]),
        st.integers(0, 15),
        st.integers(0, 15),
        st.sampled_from(["tensor", "reversed numpy view", "variable", "dropped"]),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=30, deadline=None)
@given(dtype=FLOATS, n=st.integers(1, 5), seed=st.integers(0, 2**16), steps=STEPS)
def test_random_programs_keep_every_held_value(dtype, n, seed, steps):
    """Results of random pooled ops, all pooled (MIN_BYTES 0), held one of several ways:
    each equals numpy's answer when made, and every one still held keeps it."""
    rng = np.random.default_rng(seed)
    with ek.device("/cpu:0"), pool_everything():
        inputs = [ek.constant(rng.standard_normal((n, n)).astype(dtype)) for _ in range(2)]
        held = [(t.numpy, t.numpy().copy()) for t in inputs]
        for op, i, j, how in steps:
            a, b = inputs[i % len(inputs)], inputs[j % len(inputs)]
            t, want = _run(op, a, b)
            np.testing.assert_allclose(t.numpy(), want, rtol=1e-5, atol=1e-6)
            if how == "tensor":
                inputs.append(t)
                held.append((t.numpy, t.numpy().copy()))
            elif how == "reversed numpy view":
                view = t.numpy()[::-1]
                held.append((lambda view=view: view[::-1], t.numpy().copy()))
            elif how == "variable":
                v = ek.Variable(t)
                held.append((v.numpy, t.numpy().copy()))
            del t
            graph_step(a, b)  # a compiled graph's temporaries too
            for read, value in held:
                np.testing.assert_array_equal(read(), value)


def _run(op, a, b):
    """``op`` on tensors a and b, and numpy's answer for it."""
    x, y = a.numpy(), b.numpy()
    if op == "matmul":
        return ek.matmul(a, b), x @ y
    if op == "bias_add":
        return ek.nn.bias_add(a, b[0]), x + y[0]
    if op == "relu":
        return ek.nn.relu(a), np.maximum(x, 0)
    if op == "grad":  # relu's gradient (pooled) times a matmul's
        with ek.GradientTape() as tape:
            tape.watch(a)
            out = ek.nn.relu(ek.matmul(a, b))
        g = ((x @ y) > 0).astype(x.dtype)  # relu's gradient, then the matmul's (both sides)
        return tape.gradient(out, a), g @ y.T + (x.T @ g if a is b else 0)
    return getattr(ek, op)(a, b), getattr(np, op)(x, y)
