"""apply_gradients checks everything before it writes anything (every optimizer, any bad
gradient or global_step), and every variable write goes through Variable._write, so an
optimizer step inside ek.function is refused instead of being applied once at trace time."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError, UnimplementedError

OPTIMIZERS = {
    "sgd": lambda: ek.train.GradientDescentOptimizer(0.1),
    "momentum": lambda: ek.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True),
    "adam": lambda: ek.train.AdamOptimizer(0.1),
    "rmsprop": lambda: ek.train.RMSPropOptimizer(0.1, momentum=0.5, centered=True),
    "adagrad": lambda: ek.train.AdagradOptimizer(0.1),
}


def snapshot(optimizer, variables, step):
    """Everything apply_gradients may change, as plain values."""
    values = [v.numpy().copy() for v in [*variables, *optimizer.variables(), step]]
    return len(optimizer.variables()), values


def one_step(make):
    a, b = ek.Variable([1.0, 2.0], name="a"), ek.Variable(3.0, name="b")
    step = ek.Variable(7, dtype=ek.int64, trainable=False, name="step")
    optimizer = make()
    optimizer.apply_gradients([(ek.constant([0.5, 0.5]), a), (ek.constant(1.0), b)], step)
    return optimizer, (a, b), step


BAD_CALLS = {
    "wrong-shape-late": lambda a, b, s: ([(ek.constant([1.0, 1.0]), a), (ek.constant([1.0]), b)],),
    "wrong-dtype": lambda a, b, s: ([(ek.constant(1.0, dtype=ek.float64), b)],),
    "string-gradient": lambda a, b, s: ([(ek.constant([1.0, 1.0]), a), ("1.0", b)],),
    "ragged-gradient": lambda a, b, s: ([(ek.constant(1.0), b), ([[1.0], [1.0, 2.0]], a)],),
    "not-a-variable": lambda a, b, s: ([(ek.constant(1.0), b), (ek.constant(1.0), 3.0)],),
    "triples": lambda a, b, s: ([(ek.constant(1.0), b, None)],),
    "not-pairs": lambda a, b, s: (5,),
    "all-none": lambda a, b, s: ([(None, a), (None, b)],),
    "global-step-tensor": lambda a, b, s: ([(ek.constant(1.0), b)], ek.constant(1)),
    "global-step-int": lambda a, b, s: ([(ek.constant(1.0), b)], 3),
    "global-step-vector": lambda a, b, s: ([(ek.constant(1.0), b)], ek.Variable([1, 2])),
    "integer-variable": lambda a, b, s: ([(ek.constant(1.0), b), (ek.constant(1), s)],),
}


@pytest.mark.parametrize("bad", BAD_CALLS, ids=list(BAD_CALLS))
@pytest.mark.parametrize("name", OPTIMIZERS)
def test_a_bad_call_raises_and_changes_nothing(name, bad):
    optimizer, (a, b), step = one_step(OPTIMIZERS[name])
    before = snapshot(optimizer, (a, b), step)
    with pytest.raises(InvalidArgumentError, match="apply_gradients"):
        optimizer.apply_gradients(*BAD_CALLS[bad](a, b, step))
    after = snapshot(optimizer, (a, b), step)
    assert after[0] == before[0]  # no slot was created
    for x, y in zip(before[1], after[1], strict=True):
        np.testing.assert_array_equal(x, y)


def test_a_hyperparameter_callable_giving_junk_fails_before_any_write():
    w = ek.Variable(1.0)
    optimizer = ek.train.AdamOptimizer(lambda: "fast")
    with pytest.raises(InvalidArgumentError, match="must be a number >= 0, got 'fast'"):
        optimizer.apply_gradients([(ek.constant(1.0), w)])
    assert float(w) == 1.0 and optimizer.variables() == [optimizer.iterations]
    assert int(optimizer.iterations) == 0


def test_gradients_given_as_lists_are_converted_like_tf():
    w = ek.Variable([1.0, 2.0])
    ek.train.GradientDescentOptimizer(0.5).apply_gradients([([1.0, 2.0], w)])
    np.testing.assert_allclose(w.numpy(), [0.5, 1.0])


def test_an_optimizer_step_inside_ek_function_runs_at_every_call():
    """The old bug: apply_gradients wrote variable._data at trace time, and replays did
    nothing. Now (as in TF) the step is recorded in the graph and runs at every call."""
    w = ek.Variable(1.0, name="w")
    optimizer = ek.train.GradientDescentOptimizer(0.25)

    @ek.function
    def train_step():
        with ek.GradientTape() as tape:
            loss = w * w
        optimizer.apply_gradients([(tape.gradient(loss, w), w)])
        return loss

    for step, expected in enumerate([0.5, 0.25, 0.125], start=1):  # w -= 0.25 * 2w
        train_step()
        assert float(w) == expected and int(optimizer.iterations) == step
    assert train_step.trace_count == 1


@pytest.mark.parametrize(
    ("write", "after"),
    [
        (lambda w, opt: opt.minimize(lambda: w * w), 0.5),
        (lambda w, opt: w.assign_sub(1.0), 0.0),
    ],
    ids=["minimize", "assign_sub"],
)
def test_graph_writes_run_at_every_call(write, after):
    w = ek.Variable(1.0, name="w")
    optimizer = ek.train.GradientDescentOptimizer(0.25)
    step = ek.function(lambda: write(w, optimizer))
    step()
    assert float(w) == after
    step()
    assert float(w) == (0.25 if after == 0.5 else -1.0)


def test_a_write_no_graph_can_replay_is_refused_inside_ek_function():
    w = ek.Variable(1.0, name="w")
    with pytest.raises(UnimplementedError, match="variable 'w:0' while tracing"):
        ek.function(lambda: ek.train.lbfgs_minimize(lambda: w * w, [w]))()
    assert float(w) == 1.0


def test_the_gradients_an_ek_function_returns_are_applied_every_call():
    """The fix the error message suggests: compute in the graph, apply outside it."""
    w = ek.Variable(1.0)
    optimizer = ek.train.GradientDescentOptimizer(0.25)

    @ek.function
    def gradient():
        with ek.GradientTape() as tape:
            loss = w * w
        return tape.gradient(loss, w)

    for _ in range(3):
        optimizer.apply_gradients([(gradient(), w)])
    assert float(w) == pytest.approx(0.125)  # halved three times
    assert int(optimizer.iterations) == 3


def test_every_write_in_train_goes_through_variable_write():
    """No module writes a variable's array directly: Variable._write is the one way in."""
    import pathlib
    import re

    package = pathlib.Path(ek.__file__).parent
    direct = re.compile(r"\._data\s*=[^=]")
    offenders = [
        f"{path.relative_to(package)}:{n}"
        for path in package.rglob("*.py")
        if path.name not in ("variables.py", "tensor.py")
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if direct.search(line) and "output._data" not in line
    ]
    assert offenders == []
