"""Recording's fast path records what its general path records, and variable reads are reused.

sole_tape.py takes the common case (one tape, nobody else listening) in one function
each; ``recording.record`` is the general path. Every case of the op table
(tests/op_cases.py), a model reading Variables, nested tapes and listeners are run twice:
once as they are, once with a do-nothing execution callback, which makes the tape share
the ops with another listener and so sends every op down the general path. Both runs must
leave the same records on the tape and give the same gradients.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from op_cases import cases

import eagerkit as ek
from eagerkit import recording, sole_tape


def _describe(tape, names):
    """The tape's records as plain data: op, inputs (by name or value), params, output."""
    rows = []
    for k, record in enumerate(tape.records):
        inputs = []
        for x in record.inputs:
            inputs.append(names.get(id(x)) or ("constant", x.numpy().tolist()))
        names[id(record.output)] = f"output {k}"
        rows.append((record.op.name, inputs, dict(record.params), record.output.numpy().tolist()))
    return rows


def _run(fn, args, general):
    """Records and gradients of ``fn(*args)`` on one tape; ``general``: with another listener."""
    tensors = [ek.constant(a) for a in args]
    names = {id(t): f"argument {i}" for i, t in enumerate(tensors)}
    if general:
        recording.add_callback(lambda op, inputs, output: None)
    try:
        assert (recording.sole_tape is None) is True
        with ek.GradientTape(persistent=True) as tape:
            assert (recording.sole_tape is tape) is not general
            tape.watch(tensors)
            y = fn(*tensors)
        grads = tape.gradient(y, tensors)
    finally:
        if general:
            recording.remove_callback(recording.execution_callbacks[-1])
    return _describe(tape, names), [None if g is None else g.numpy().tolist() for g in grads]


CASES = cases()


@pytest.mark.parametrize(("name", "fn", "args"), CASES, ids=[name for name, _, _ in CASES])
def test_the_sole_tape_path_records_what_the_general_path_records(name, fn, args):
    assert _run(fn, args, general=False) == _run(fn, args, general=True)


def _model_step(general):
    """Two steps of a small model whose ops read Variables, with an assign in between."""
    w = ek.Variable(np.linspace(0.1, 0.6, 6).reshape(2, 3).astype(np.float32), name="w")
    b = ek.Variable([0.5, -0.5, 0.25], name="b")
    frozen = ek.Variable([2.0, 2.0, 2.0], trainable=False)
    x = ek.constant([[1.0, 2.0], [3.0, 4.0]])
    names = {id(w): "w", id(b): "b", id(frozen): "frozen", id(x): "x"}
    if general:
        recording.add_callback(lambda op, inputs, output: None)
    try:
        with ek.GradientTape(persistent=True) as tape:
            h = ek.tanh(ek.matmul(x, w) + b) * frozen - b
            h = h * frozen  # read again: not watched, so not recorded either time
            w.assign_sub(ek.ones([2, 3]) * 0.1)  # a new value: the next use is a new read
            loss = ek.reduce_sum(ek.matmul(x, w) * h + b * 2.0)
        grads = tape.gradient(loss, [w, b, frozen])
    finally:
        if general:
            recording.remove_callback(recording.execution_callbacks[-1])
    return _describe(tape, names), [None if g is None else g.numpy().tolist() for g in grads]


def test_a_model_reading_variables_is_recorded_alike_on_both_paths():
    fast, general = _model_step(False), _model_step(True)
    assert fast == general
    names = [row[0] for row in fast[0]]
    assert names.count("read_variable") == 3  # w, b, then w again after its assign
    assert fast[1][2] is None  # the frozen variable is not watched


def test_nested_tapes_record_alike_whichever_path_the_inner_ops_take():
    x = ek.constant(1.5)
    results = []
    for general in (False, True):
        if general:
            recording.add_callback(lambda op, inputs, output: None)
        try:
            with ek.GradientTape() as outer:
                outer.watch(x)
                with ek.GradientTape() as inner:
                    inner.watch(x)
                    y = ek.tanh(x * x) * x
                dy = inner.gradient(y, x)  # recorded on outer alone: the sole tape again
            d2y = outer.gradient(dy, x)
        finally:
            if general:
                recording.remove_callback(recording.execution_callbacks[-1])
        results.append((float(dy), float(d2y)))
    assert results[0] == results[1]
    t = np.tanh(1.5**2)
    assert results[0][0] == pytest.approx(t + 2 * 1.5**2 * (1 - t * t))


def test_listeners_hear_the_same_records_on_both_paths():
    heard = []
    for general in (False, True):

        class Listener:
            def __init__(self):
                self.names = []

            def on_record(self, tape, record):
                self.names.append((record.op.name, record.output is tape.records[-1].output))

        listener = Listener()
        if general:
            recording.add_callback(lambda op, inputs, output: None)
        try:
            x = ek.constant([1.0, 2.0])
            with ek.GradientTape() as tape:
                tape.listeners.append(listener)
                tape.watch(x)
                ek.exp(x * x - 1.0)
        finally:
            if general:
                recording.remove_callback(recording.execution_callbacks[-1])
        heard.append(listener.names)
    assert heard[0] == heard[1] == [("multiply", True), ("subtract", True), ("exp", True)]


def test_the_listeners_answers_follow_the_tapes_tracers_and_callbacks():
    assert (recording.on, recording.sole_tape) == (False, None)
    with ek.GradientTape() as outer:
        assert (recording.on, recording.sole_tape) == (True, outer)
        with ek.GradientTape():
            assert (recording.on, recording.sole_tape) == (True, None)
        assert recording.sole_tape is outer
        with outer.stop_recording():
            assert (recording.on, recording.sole_tape) == (False, None)
        ek.function(lambda t: (recording.on, recording.sole_tape))(ek.constant(1.0))
        assert recording.sole_tape is outer
    assert (recording.on, recording.sole_tape) == (False, None)


def test_a_tape_forgets_what_it_recorded_when_reset():
    x = ek.constant(2.0)
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        assert tape._watches(y)
        tape.reset()
        assert not tape._watches(y) and not tape._watches(x)
        z = y * 3.0  # y is no longer watched: nothing is recorded
    assert tape.records == []
    assert tape.gradient(z, y) is None


def test_a_variable_read_is_reused_until_assign_and_across_ops_without_tapes():
    w = ek.Variable([1.0, 2.0])
    first = ek.tanh(w)
    read = w._last_read
    assert read is not None and read._data is w._data
    _ = ek.exp(w)
    assert w._last_read is read  # no tape, same value: the same read serves again
    w.assign([3.0, 4.0])
    np.testing.assert_array_equal(ek.identity(w).numpy(), [3.0, 4.0])
    assert w._last_read is not read  # assigned: a new read
    np.testing.assert_array_equal(first.numpy(), np.tanh(np.float32([1.0, 2.0])))  # as read


def test_a_binary_op_on_a_variable_without_tapes_makes_no_read():
    w = ek.Variable([1.0, 2.0])
    first = w * 1.0  # the op takes the variable's array as it is now: no read Tensor needed
    assert w._last_read is None
    w.assign_add([1.0, 1.0])
    np.testing.assert_array_equal(first.numpy(), [1.0, 2.0])  # what was computed stays
    np.testing.assert_array_equal((w * 1.0).numpy(), [2.0, 3.0])


def _fresh_tape_steps(general):
    """Three steps, each on a fresh tape, of ops on Variables and Python floats (issue 20's
    idiomatic forms), with assigns between the steps; records and gradients of each step."""
    w = ek.Variable([0.5, -1.5, 2.0], name="w")
    b = ek.Variable([0.25, 0.5, -0.75], name="b")
    frozen = ek.Variable([2.0, 2.0, 2.0], trainable=False)
    wide = ek.Variable(np.array([1.0, 2.0, 3.0]))  # float64: another dtype, the general path
    count = ek.Variable([1, 2, 3])  # int32: never watched
    x = ek.Variable([1.0, 2.0, 3.0], name="x")
    names = {id(v): n for v, n in [(w, "w"), (b, "b"), (frozen, "f"), (x, "x"), (count, "c")]}
    names[id(wide)] = "wide"
    steps = []
    if general:
        recording.add_callback(lambda op, inputs, output: None)
    try:
        for step in range(3):
            watch_accessed = step != 1  # step 1: only what is watched by hand
            with ek.GradientTape(watch_accessed_variables=watch_accessed) as tape:
                if not watch_accessed:
                    tape.watch(w)
                y = x * w + b  # three Variables
                y = 0.5 * y - 1.5  # Python floats on either side
                y = ek.tanh(y * frozen) / 2.0 + w * w  # a frozen variable; w read again
                y = y + ek.cast(count * count, ek.float32)  # ints: not recorded
                z = ek.reduce_sum(wide * 2.0) + 1.0
            steps.append(_describe(tape, dict(names)))  # before gradient() frees the records
            grads = tape.gradient([ek.reduce_sum(y), z], [x, w, b, frozen, wide])
            steps.append([None if g is None else g.numpy().tolist() for g in grads])
            w.assign_sub([0.1, 0.1, 0.1])  # a new value: the next step reads it anew
    finally:
        if general:
            recording.remove_callback(recording.execution_callbacks[-1])
    return steps


def test_fresh_tapes_record_variables_and_python_floats_alike_on_both_paths():
    records = []
    for general in (False, True):
        w, x = ek.Variable([0.5, 2.0]), ek.Variable([1.0, 3.0])
        if general:
            recording.add_callback(lambda op, inputs, output: None)
        try:
            with ek.GradientTape(persistent=True) as tape:
                y = (x * w + 0.5) * (1.5 - w) + x / 2.0
            names = {id(w): "w", id(x): "x"}
            records.append(_describe(tape, names))
            records.append(tape.gradient(y, [x, w]))
        finally:
            if general:
                recording.remove_callback(recording.execution_callbacks[-1])
    assert records[0] == records[2]
    assert [row[0] for row in records[0]].count("read_variable") == 2  # each variable once
    for fast, general in zip(records[1], records[3], strict=True):
        assert fast.numpy().tobytes() == general.numpy().tobytes()


def test_steps_on_fresh_tapes_give_the_same_gradients_on_both_paths():
    assert _fresh_tape_steps(False) == _fresh_tape_steps(True)


_OPERAND_KINDS = ("watched tensor", "tensor", "variable", "frozen variable", "float")


def _operand(kind, value):
    """An operand of ``kind`` holding ``value`` (a float), as the user would pass it."""
    if kind == "float":
        return value
    if kind.endswith("variable"):
        return ek.Variable([value, -value], trainable=kind == "variable", name=kind)
    return ek.constant([value, -value])


def _pair_records(op_name, kinds, values, general):
    """Records and gradients of ``op(x, y)`` then ``op(y, x)`` on a fresh tape, with the
    operands of ``kinds``; ``general``: with another listener (the general path)."""
    x, y = (_operand(k, v) for k, v in zip(kinds, values, strict=True))
    op = getattr(ek, op_name)
    names = {id(t): k for t, k in zip((x, y), kinds, strict=True) if not isinstance(t, float)}
    if general:
        recording.add_callback(lambda op, inputs, output: None)
    try:
        with ek.GradientTape(persistent=True) as tape:
            for t, k in zip((x, y), kinds, strict=True):
                if k == "watched tensor":
                    tape.watch(t)
            if all(isinstance(t, float) for t in (x, y)):
                return None  # two Python floats: no tensor, nothing to record
            out = op(op(x, y), y) if isinstance(x, float) else op(x, op(y, x))
        sources = [t for t in (x, y) if not isinstance(t, float)]
        grads = tape.gradient(out, sources)
    finally:
        if general:
            recording.remove_callback(recording.execution_callbacks[-1])
    return _describe(tape, names), [None if g is None else g.numpy().tolist() for g in grads]


@settings(max_examples=60, deadline=None)
@given(
    op_name=st.sampled_from(["add", "subtract", "multiply", "truediv"]),
    kinds=st.tuples(st.sampled_from(_OPERAND_KINDS), st.sampled_from(_OPERAND_KINDS)),
    values=st.tuples(st.floats(0.25, 4.0), st.floats(0.25, 4.0)),
)
def test_two_operand_fast_recording_matches_the_general_path(op_name, kinds, values):
    """sole_tape.record_pair (``x * w``, ``x * 0.5``, ``0.5 * w``) records and
    differentiates what the general path does, for every mix of operand kinds."""
    assert _pair_records(op_name, kinds, values, False) == _pair_records(
        op_name, kinds, values, True
    )


_MATRIX_KINDS = ("watched tensor", "tensor", "variable", "frozen variable")


@pytest.mark.parametrize("kinds", [(a, b) for a in _MATRIX_KINDS for b in _MATRIX_KINDS])
def test_a_two_input_op_with_params_records_variables_alike_on_both_paths(kinds):
    """``x @ w`` goes through fast_dispatch.fast_function, which records two inputs through
    sole_tape.record_pair: the same records and gradients as the general path."""
    results = []
    for general in (False, True):
        x, w = (
            ek.Variable(np.eye(2) + i, trainable=k == "variable")
            if k.endswith("variable")
            else ek.constant(np.eye(2) + i)
            for i, k in enumerate(kinds)
        )
        if general:
            recording.add_callback(lambda op, inputs, output: None)
        try:
            with ek.GradientTape() as tape:
                for t, k in zip((x, w), kinds, strict=True):
                    if k == "watched tensor":
                        tape.watch(t)
                y = ek.tanh(x @ w) @ w
            records = _describe(tape, {id(x): "x", id(w): "w"})
            grads = tape.gradient(y, [x, w])
        finally:
            if general:
                recording.remove_callback(recording.execution_callbacks[-1])
        results.append((records, [None if g is None else g.numpy().tolist() for g in grads]))
    assert results[0] == results[1]


def _interleaved_tapes(plan, general):
    """Steps on fresh tapes reading two Variables, as ``plan`` says for each step: keep the
    tape alive (or drop it), make it persistent, take a gradient, assign after it. At the end
    every kept tape gives its gradients again (persistent ones) and its records are listed:
    a read refilled on the fast path must never be one a kept tape still holds."""
    w, b = ek.Variable([0.5, -1.5], name="w"), ek.Variable([0.25, 2.0], name="b")
    names = {id(w): "w", id(b): "b"}
    kept, results = [], []
    if general:
        recording.add_callback(lambda op, inputs, output: None)
    try:
        for keep, persistent, take_gradient, assign in plan:
            with ek.GradientTape(persistent=persistent) as tape:
                y = ek.tanh(w * b) * w + 0.5
            if take_gradient:
                results.append([g.numpy().tolist() for g in tape.gradient(y, [w, b])])
            if keep:
                kept.append((tape, y, persistent and True, _describe(tape, dict(names))))
            if assign:
                w.assign_add([0.125, 0.125])
        for tape, y, persistent, described in kept:
            results.append(described == _describe(tape, dict(names)))  # nothing changed
            if persistent:
                results.append([g.numpy().tolist() for g in tape.gradient(y, [w, b])])
    finally:
        if general:
            recording.remove_callback(recording.execution_callbacks[-1])
    return results


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans()), max_size=6))
def test_a_refilled_read_is_never_one_a_kept_tape_holds(plan):
    """sole_tape.read refills the variable's latest read when nothing else holds it
    (sys.getrefcount): kept tapes, persistent or not, gradients taken or not, assigns in
    between, give the records and gradients the general path (always a new read) gives."""
    fast = _interleaved_tapes(plan, general=False)
    assert fast == _interleaved_tapes(plan, general=True)
    assert all(r is True for r in fast if isinstance(r, bool))


def test_a_read_nothing_else_holds_is_refilled_and_one_still_held_is_not(monkeypatch):
    made = []  # the Tensors sole_tape.read makes (a refill makes none)

    def counting_new(cls):
        if cls is ek.Tensor:
            made.append(cls)
        return object.__new__(cls)

    monkeypatch.setattr(sole_tape, "_new", counting_new)
    w = ek.Variable([1.0, 2.0])
    for factor in (2.0, 3.0):  # each tape dropped before the next: w alone holds the read
        with ek.GradientTape() as tape:
            y = w * factor
        assert tape.gradient(y, w).numpy().tolist() == [factor, factor]
        assert tape.records == [] and w._last_read._data is w._data
    assert len(made) == 1  # the first tape made the read, the second refilled it
    with ek.GradientTape(persistent=True) as kept:
        z = w * 4.0
    held_id = id(w._last_read)
    with ek.GradientTape() as third:
        _ = w * 5.0
    assert len(made) == 2  # the kept tape holds its read: the third tape made a new one
    assert id(kept.records[0].output) == held_id and id(third.records[0].output) != held_id
    assert kept.records[0].output._recorded_by is kept._mark
    assert kept.gradient(z, w).numpy().tolist() == [4, 4]
